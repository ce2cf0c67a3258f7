"""The federated-pca chapter's protocols and their references.

Registered once (:mod:`dpcompendium.core.methods`), read by :func:`dpcompendium.chapters.registry.load_methods`.
"""

from dpcompendium.chapters.registry import chapter_id
from dpcompendium.core.methods import registrar

CHAPTER = chapter_id(__name__)
# one call per method: id, English name, Chinese name (None: the English one), colour, references (".module:attr")
method = registrar(CHAPTER, __package__)

method("pca", "PCA (no noise)", "主成分分析（PCA），无噪声", "#999999")
method(
    "central",
    "Analyze Gauss (central)",
    "Analyze Gauss（中心化差分隐私）",
    "#0072B2",
    claim=".methods:privacy_claim",
)
method(
    "shared-seed",
    "ELFedPCA, shared seed",
    "ELFedPCA，共享随机种子",
    "#D55E00",
    claim=".methods:privacy_claim",
)
method(
    "secure-aggregation",
    "Secure aggregation",
    "安全聚合",
    "#009E73",
    claim=".methods:privacy_claim",
)
method("dpdispca", "DPdisPCA", None, "#E69F00", claim=".methods:privacy_claim")
method("cape", "CAPE", None, "#999999", claim=".cape:cape_privacy_claim")
method(
    "cape-as-published",
    "CAPE (as published)",
    "CAPE（论文原方案）",
    "#999999",
    claim=".cape:cape_privacy_claim",
)
method(
    "noisy-power",
    "Noisy power method",
    "加噪幂迭代法",
    "#999999",
    claim=".power:power_privacy_claim",
)
method(
    "wishart",
    "Wishart mechanism (as published)",
    "Wishart 机制（论文原方案）",
    "#CC79A7",
    estimator=".wishart:wishart_pca",
    claim=".wishart:wishart_privacy_claim",
    audit=".audits:wishart_audit_specs",
)
method(
    "laplace-input",
    "Laplace input perturbation",
    "拉普拉斯噪声输入扰动",
    "#56B4E9",
    estimator=".laplace:laplace_pca",
    claim=".laplace:laplace_privacy_claim",
    audit=".audits:laplace_audit_specs",
)
method(
    "ppca",
    "PPCA (exponential mechanism, k = 1)",
    "PPCA（指数机制，k = 1）",
    "#000000",
    estimator=".ppca:ppca_pca",
    claim=".ppca:ppca_privacy_claim",
    audit=".audits:ppca_audit_specs",
)
