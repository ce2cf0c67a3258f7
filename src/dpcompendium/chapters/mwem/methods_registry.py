"""The mwem chapter's methods: MWEM and the variants it compares.

Registered once (:mod:`dpcompendium.core.methods`), read by :func:`dpcompendium.chapters.registry.load_methods`.
"""

from dpcompendium.chapters.registry import chapter_id
from dpcompendium.core.methods import Method, register

CHAPTER = chapter_id(__name__)

register(
    Method(
        "mwem",
        {"en": "MWEM", "zh_CN": "MWEM"},
        "#999999",
        CHAPTER,
        estimator="dpcompendium.chapters.mwem.core:mwem",
        claim="dpcompendium.chapters.mwem.core:privacy_claim",
    )
)
register(
    Method(
        "coursework",
        {"en": "Coursework MWEM", "zh_CN": "MWEM 课程作业变体"},
        "#D55E00",
        CHAPTER,
        estimator="dpcompendium.chapters.mwem.core:mwem",
        claim="dpcompendium.chapters.mwem.core:privacy_claim",
    )
)
register(
    Method(
        "standard",
        {"en": "Standard MWEM", "zh_CN": "标准 MWEM"},
        "#0072B2",
        CHAPTER,
        estimator="dpcompendium.chapters.mwem.core:mwem",
        claim="dpcompendium.chapters.mwem.core:privacy_claim",
    )
)
register(
    Method(
        "zcdp",
        {"en": "zCDP MWEM (Gaussian)", "zh_CN": "zCDP MWEM（高斯测量）"},
        "#999999",
        CHAPTER,
        claim="dpcompendium.chapters.mwem.zcdp:mwem_zcdp_parameters",
    )
)
register(
    Method(
        "aim",
        {"en": "AIM", "zh_CN": "AIM"},
        "#009E73",
        CHAPTER,
        estimator="dpcompendium.chapters.mwem.pgm:aim",
        claim="dpcompendium.chapters.mwem.pgm:aim_claim",
        audit="dpcompendium.chapters.mwem.audits:aim_audit_specs",
    )
)
# the data-independent baselines at AIM's budget (referee 12, §3): the Gaussian mechanism spent once, accounted in
# zCDP at AIM's rho and stated by the same conversion, replace-one; the tables name them by their ids
register(
    Method(
        "gaussian-identity",
        {"en": "Gaussian Identity", "zh_CN": "逐单元格加高斯噪声（高斯 Identity）"},
        "#56B4E9",
        CHAPTER,
        estimator="dpcompendium.chapters.mwem.gaussian:gaussian_identity",
        claim="dpcompendium.chapters.mwem.gaussian:gaussian_claim",
        audit="dpcompendium.chapters.mwem.audits:gaussian_identity_audit_specs",
    )
)
register(
    Method(
        "gaussian-ls",
        {"en": "Gaussian least squares", "zh_CN": "最小二乘（高斯测量）"},
        "#F0E442",
        CHAPTER,
        estimator="dpcompendium.chapters.mwem.gaussian:gaussian_least_squares",
        claim="dpcompendium.chapters.mwem.gaussian:gaussian_claim",
        audit="dpcompendium.chapters.mwem.audits:gaussian_ls_audit_specs",
    )
)
# MST on Adult 2-D at AIM's budget (referee 13, §3): non-adaptive Gaussian marginals with the Private-PGM estimate
register(
    Method(
        "mst",
        {"en": "MST", "zh_CN": "MST"},
        "#CC79A7",
        CHAPTER,
        estimator="dpcompendium.chapters.mwem.mst:mst",
        claim="dpcompendium.chapters.mwem.mst:mst_claim",
        audit="dpcompendium.chapters.mwem.audits:mst_audit_specs",
    )
)
