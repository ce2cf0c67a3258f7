"""The federated-pca chapter's protocols and their references.

Registered once (:mod:`dpcompendium.core.methods`), read by :func:`dpcompendium.chapters.registry.load_methods`.
"""

from dpcompendium.chapters.registry import chapter_id
from dpcompendium.core.methods import Method, register

CHAPTER = chapter_id(__name__)

register(
    Method(
        "pca", {"en": "PCA (no noise)", "zh_CN": "主成分分析（PCA），无噪声"}, "#999999", CHAPTER
    )
)
register(
    Method(
        "central",
        {"en": "Analyze Gauss (central)", "zh_CN": "Analyze Gauss（中心化差分隐私）"},
        "#0072B2",
        CHAPTER,
        claim="dpcompendium.chapters.federated_pca.methods:privacy_claim",
    )
)
register(
    Method(
        "shared-seed",
        {"en": "ELFedPCA, shared seed", "zh_CN": "ELFedPCA，共享随机种子"},
        "#D55E00",
        CHAPTER,
        claim="dpcompendium.chapters.federated_pca.methods:privacy_claim",
    )
)
register(
    Method(
        "secure-aggregation",
        {"en": "Secure aggregation", "zh_CN": "安全聚合"},
        "#009E73",
        CHAPTER,
        claim="dpcompendium.chapters.federated_pca.methods:privacy_claim",
    )
)
register(
    Method(
        "dpdispca",
        {"en": "DPdisPCA", "zh_CN": "DPdisPCA"},
        "#E69F00",
        CHAPTER,
        claim="dpcompendium.chapters.federated_pca.methods:privacy_claim",
    )
)
register(
    Method(
        "cape",
        {"en": "CAPE", "zh_CN": "CAPE"},
        "#999999",
        CHAPTER,
        claim="dpcompendium.chapters.federated_pca.cape:cape_privacy_claim",
    )
)
register(
    Method(
        "cape-as-published",
        {"en": "CAPE (as published)", "zh_CN": "CAPE（论文原方案）"},
        "#999999",
        CHAPTER,
        claim="dpcompendium.chapters.federated_pca.cape:cape_privacy_claim",
    )
)
register(
    Method(
        "noisy-power",
        {"en": "Noisy power method", "zh_CN": "加噪幂迭代法"},
        "#999999",
        CHAPTER,
        claim="dpcompendium.chapters.federated_pca.power:power_privacy_claim",
    )
)
register(
    Method(
        "wishart",
        {"en": "Wishart mechanism (as published)", "zh_CN": "Wishart 机制（论文原方案）"},
        "#CC79A7",
        CHAPTER,
        estimator="dpcompendium.chapters.federated_pca.wishart:wishart_pca",
        claim="dpcompendium.chapters.federated_pca.wishart:wishart_privacy_claim",
        audit="dpcompendium.chapters.federated_pca.audits:wishart_audit_specs",
    )
)
register(
    Method(
        "laplace-input",
        {"en": "Laplace input perturbation", "zh_CN": "拉普拉斯噪声输入扰动"},
        "#56B4E9",
        CHAPTER,
        estimator="dpcompendium.chapters.federated_pca.laplace:laplace_pca",
        claim="dpcompendium.chapters.federated_pca.laplace:laplace_privacy_claim",
        audit="dpcompendium.chapters.federated_pca.audits:laplace_audit_specs",
    )
)
