"""The histograms chapter's publishers; the core's range mechanisms (H_b, DAWA, ...) are the core's.

Registered once (:mod:`dpcompendium.core.methods`), read by :func:`dpcompendium.chapters.registry.load_methods`.
"""

from dpcompendium.chapters.registry import chapter_id
from dpcompendium.core.methods import Method, register

CHAPTER = chapter_id(__name__)

register(
    Method(
        "uniform",
        {"en": "Uniform", "zh_CN": "均匀估计（Uniform）"},
        "#F0E442",
        CHAPTER,
        estimator="dpcompendium.chapters.histograms.baselines:uniform",
        claim="dpcompendium.chapters.histograms.experiment:privacy_claim",
    )
)
register(
    Method(
        "ahp",
        {"en": "AHP", "zh_CN": "AHP"},
        "#56B4E9",
        CHAPTER,
        estimator="dpcompendium.chapters.histograms.baselines:ahp",
        claim="dpcompendium.chapters.histograms.experiment:privacy_claim",
    )
)
register(
    Method(
        "php",
        {"en": "P-HP", "zh_CN": "P-HP"},
        "#CC79A7",
        CHAPTER,
        estimator="dpcompendium.chapters.histograms.baselines:php",
        claim="dpcompendium.chapters.histograms.experiment:privacy_claim",
    )
)
register(
    Method(
        "sampling_grouping",
        {"en": "Sampling grouping (patent)", "zh_CN": "抽样分组（专利）"},
        "#D55E00",
        CHAPTER,
        estimator="dpcompendium.chapters.histograms.sampling_grouping:sampling_grouping",
        claim="dpcompendium.chapters.histograms.experiment:privacy_claim",
        aliases=("sampling-grouping",),
    )
)
register(
    Method(
        "privtree",
        {"en": "PrivTree", "zh_CN": "PrivTree"},
        "#E69F00",
        CHAPTER,
        estimator="dpcompendium.chapters.histograms.privtree:privtree",
        claim="dpcompendium.chapters.histograms.experiment:privacy_claim",
    )
)
register(
    Method(
        "hdmm",
        # restricted (p = n/64 = 64 aggregates on DPBench's 4096 bins, blocks of 16 bins, at most 100 iterations):
        # every table and figure says so (referee 10, V10)
        {"en": "HDMM (p = 64, restricted)", "zh_CN": "HDMM（p = 64，受限版）"},
        "#CC79A7",  # P-HP, also purple, is in no figure where HDMM is
        CHAPTER,
        estimator="dpcompendium.chapters.histograms.hdmm:hdmm",
        claim="dpcompendium.chapters.histograms.experiment:privacy_claim",
    )
)
