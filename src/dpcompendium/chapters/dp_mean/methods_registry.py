"""The dp-mean chapter's methods: the source's four averages and today's alternatives.

Registered once (:mod:`dpcompendium.core.methods`), read by :func:`dpcompendium.chapters.registry.load_methods`.
"""

from dpcompendium.chapters.registry import chapter_id
from dpcompendium.core.methods import registrar

CHAPTER = chapter_id(__name__)
# one call per method: id, English name, Chinese name (None: the English one), colour, references (".module:attr")
method = registrar(CHAPTER, __package__)

method(
    "composition",
    "Composition",
    "顺序组合",
    "#0072B2",
    estimator=".estimators:noisy_average_composition",
    claim=".estimators:privacy_claim",
)
method(
    "resampling",
    "Resampling",
    "重采样",
    "#D55E00",
    estimator=".estimators:noisy_average_resampling",
    claim=".estimators:privacy_claim",
)
method(
    "clamped",
    "Clamped",
    "钳制",
    "#009E73",
    estimator=".estimators:noisy_average_clamped",
    claim=".estimators:privacy_claim",
)
method(
    "normalized",
    "Normalized",
    "归一化",
    "#CC79A7",
    estimator=".estimators:noisy_average_normalized",
    claim=".estimators:privacy_claim",
)
method(
    "normalized-clamped",
    "Normalized, clamped",
    "归一化，钳制",
    "#E69F00",
    estimator=".estimators:noisy_average_normalized",
    claim=".estimators:privacy_claim",
)
method("centred", "Centred sum", "中心化和", "#999999", estimator=".modern:noisy_average_centred")
method(
    "centred-clamped",
    "Centred sum, clamped",
    "中心化和，钳制",
    "#999999",
    estimator=".modern:noisy_average_centred",
)
method(
    "private-bounds",
    "Private bounds (DP quantiles)",
    "差分隐私估计的边界（分位数）",
    "#D55E00",
    estimator=".modern:noisy_average_private_bounds",
)
method(
    "gaussian",
    "Gaussian (analytic)",
    "高斯机制（解析校准）",
    "#999999",
    estimator=".modern:noisy_average_gaussian",
)
method(
    "coinpress",
    "CoinPress (private range)",
    "CoinPress（差分隐私估计的范围）",
    "#CC79A7",
    estimator=".modern:noisy_average_coinpress",
)
method(
    "staircase",
    "Staircase",
    "阶梯机制",
    "#56B4E9",
    estimator=".staircase:noisy_average_staircase",
    claim=".staircase:staircase_claim",
)
