"""The mwem chapter's methods: MWEM and the variants it compares.

Registered once (:mod:`dpcompendium.core.methods`), read by :func:`dpcompendium.chapters.registry.load_methods`.
"""

from dpcompendium.chapters.registry import chapter_id
from dpcompendium.core.methods import registrar

CHAPTER = chapter_id(__name__)
# one call per method: id, English name, Chinese name (None: the English one), colour, references (".module:attr")
method = registrar(CHAPTER, __package__)

method("mwem", "MWEM", None, "#999999", estimator=".core:mwem", claim=".core:privacy_claim")
method(
    "coursework",
    "Coursework MWEM",
    "MWEM 课程作业变体",
    "#D55E00",
    estimator=".core:mwem",
    claim=".core:privacy_claim",
    labels=(
        "MWEM coursework",
    ),  # the method column of the chapter's run tables (analysis.mwem_runs)
)
method(
    "standard",
    "Standard MWEM",
    "标准 MWEM",
    "#0072B2",
    estimator=".core:mwem",
    claim=".core:privacy_claim",
    labels=("MWEM standard",),
)
method(
    "zcdp",
    "zCDP MWEM (Gaussian)",
    "zCDP MWEM（高斯测量）",
    "#999999",
    claim=".zcdp:mwem_zcdp_parameters",
    labels=("MWEM zcdp",),
)
method(
    "aim",
    "AIM",
    None,
    "#009E73",
    estimator=".pgm:aim",
    claim=".pgm:aim_claim",
    audit=".audits:aim_audit_specs",
)
# the data-independent baselines at AIM's budget (referee 12, §3): the Gaussian mechanism spent once, accounted in
# zCDP at AIM's rho and stated by the same conversion, replace-one; the tables name them by their ids
method(
    "gaussian-identity",
    "Gaussian Identity",
    "高斯 Identity",
    "#56B4E9",
    estimator=".gaussian:gaussian_identity",
    claim=".gaussian:gaussian_claim",
    audit=".audits:gaussian_identity_audit_specs",
)
method(
    "gaussian-ls",
    "Gaussian least squares",
    "高斯最小二乘",
    "#F0E442",
    estimator=".gaussian:gaussian_least_squares",
    claim=".gaussian:gaussian_claim",
    audit=".audits:gaussian_ls_audit_specs",
)
# MST on Adult 2-D at AIM's budget (referee 13, §3): non-adaptive Gaussian marginals with the Private-PGM estimate
method(
    "mst",
    "MST",
    None,
    "#CC79A7",
    estimator=".mst:mst",
    claim=".mst:mst_claim",
    audit=".audits:mst_audit_specs",
)
# the two arms that separate MST's parts on Adult 2-D at AIM's budget (referee 14, M1 and comparator 2): Gaussian
# Identity's release projected onto the non-negative histograms of total n (the fit alone), and MST without its
# domain compression (the same measurements, fitted on every cell); both post-processing, no audit row of their own
method(
    "gaussian-identity-fit",
    "Gaussian Identity, non-negative fit",
    "高斯 Identity 加非负拟合",
    "#E69F00",
    estimator=".gaussian:gaussian_identity",
    claim=".gaussian:gaussian_claim",
)
method(
    "mst-nc",
    "MST, no compression",
    "MST（不压缩取值域）",
    "#000000",
    estimator=".mst:mst",
    claim=".mst:mst_claim",
)
# the non-adaptive independence arm on Adult 2-D at AIM's budget (referee 15, M1 and its comparator): both one-way
# marginals at rho/2 each, fitted to total n, and their product; Gaussian one-way measurements as MST's first step
method(
    "independence",
    "Independence, one-way marginals",
    "独立性模型（两个一维边缘之积）",
    "#D55E00",
    estimator=".mst:independence",
    claim=".mst:independence_claim",
)
