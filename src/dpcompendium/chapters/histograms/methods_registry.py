"""The histograms chapter's publishers; the core's range mechanisms (H_b, DAWA, ...) are the core's.

Registered once (:mod:`dpcompendium.core.methods`), read by :func:`dpcompendium.chapters.registry.load_methods`.
"""

from dpcompendium.chapters.registry import chapter_id
from dpcompendium.core.methods import registrar

CHAPTER = chapter_id(__name__)
# one call per method: id, English name, Chinese name (None: the English one), colour, references (".module:attr")
method = registrar(CHAPTER, __package__, claim=".experiment:privacy_claim")

method("uniform", "Uniform", "均匀估计（Uniform）", "#F0E442", estimator=".baselines:uniform")
method("ahp", "AHP", None, "#56B4E9", estimator=".baselines:ahp")
method("php", "P-HP", None, "#CC79A7", estimator=".baselines:php")
method(
    "sampling_grouping",
    "Sampling grouping (patent)",
    "抽样分组（专利）",
    "#D55E00",
    estimator=".sampling_grouping:sampling_grouping",
    aliases=("sampling-grouping",),
)
method("privtree", "PrivTree", None, "#E69F00", estimator=".privtree:privtree")
# restricted (p = n/64 = 64 aggregates on DPBench's 4096 bins, blocks of 16 bins, at most 100 iterations):
# every table and figure says so (referee 10, V10); its colour: P-HP, also purple, is in no figure where HDMM is
method(
    "hdmm", "HDMM (p = 64, restricted)", "HDMM（p = 64，受限版）", "#CC79A7", estimator=".hdmm:hdmm"
)
