"""The dp-mean chapter's methods: the source's four averages and today's alternatives.

Registered once (:mod:`dpcompendium.core.methods`), read by :func:`dpcompendium.chapters.registry.load_methods`.
"""

from dpcompendium.chapters.registry import chapter_id
from dpcompendium.core.methods import Method, register

CHAPTER = chapter_id(__name__)

register(
    Method(
        "composition",
        {"en": "Composition", "zh_CN": "顺序组合"},
        "#0072B2",
        CHAPTER,
        estimator="dpcompendium.chapters.dp_mean.estimators:noisy_average_composition",
        claim="dpcompendium.chapters.dp_mean.estimators:privacy_claim",
    )
)
register(
    Method(
        "resampling",
        {"en": "Resampling", "zh_CN": "重采样"},
        "#D55E00",
        CHAPTER,
        estimator="dpcompendium.chapters.dp_mean.estimators:noisy_average_resampling",
        claim="dpcompendium.chapters.dp_mean.estimators:privacy_claim",
    )
)
register(
    Method(
        "clamped",
        {"en": "Clamped", "zh_CN": "钳制"},
        "#009E73",
        CHAPTER,
        estimator="dpcompendium.chapters.dp_mean.estimators:noisy_average_clamped",
        claim="dpcompendium.chapters.dp_mean.estimators:privacy_claim",
    )
)
register(
    Method(
        "normalized",
        {"en": "Normalized", "zh_CN": "归一化"},
        "#CC79A7",
        CHAPTER,
        estimator="dpcompendium.chapters.dp_mean.estimators:noisy_average_normalized",
        claim="dpcompendium.chapters.dp_mean.estimators:privacy_claim",
    )
)
register(
    Method(
        "normalized-clamped",
        {"en": "Normalized, clamped", "zh_CN": "归一化，钳制"},
        "#E69F00",
        CHAPTER,
        estimator="dpcompendium.chapters.dp_mean.estimators:noisy_average_normalized",
        claim="dpcompendium.chapters.dp_mean.estimators:privacy_claim",
    )
)
register(
    Method(
        "centred",
        {"en": "Centred sum", "zh_CN": "中心化和"},
        "#999999",
        CHAPTER,
        estimator="dpcompendium.chapters.dp_mean.modern:noisy_average_centred",
    )
)
register(
    Method(
        "centred-clamped",
        {"en": "Centred sum, clamped", "zh_CN": "中心化和，钳制"},
        "#999999",
        CHAPTER,
        estimator="dpcompendium.chapters.dp_mean.modern:noisy_average_centred",
    )
)
register(
    Method(
        "private-bounds",
        {"en": "Private bounds (DP quantiles)", "zh_CN": "差分隐私估计的边界（差分隐私分位数）"},
        "#D55E00",
        CHAPTER,
        estimator="dpcompendium.chapters.dp_mean.modern:noisy_average_private_bounds",
    )
)
register(
    Method(
        "gaussian",
        {"en": "Gaussian (analytic)", "zh_CN": "高斯机制（解析校准）"},
        "#999999",
        CHAPTER,
        estimator="dpcompendium.chapters.dp_mean.modern:noisy_average_gaussian",
    )
)
register(
    Method(
        "coinpress",
        {"en": "CoinPress (private range)", "zh_CN": "CoinPress（差分隐私估计的范围）"},
        "#CC79A7",
        CHAPTER,
        estimator="dpcompendium.chapters.dp_mean.modern:noisy_average_coinpress",
    )
)
register(
    Method(
        "staircase",
        {"en": "Staircase", "zh_CN": "阶梯机制"},
        "#56B4E9",
        CHAPTER,
        estimator="dpcompendium.chapters.dp_mean.staircase:noisy_average_staircase",
        claim="dpcompendium.chapters.dp_mean.staircase:staircase_claim",
    )
)
