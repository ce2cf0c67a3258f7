"""The hiera chapter's graded local DP methods, with their legend labels and markers.

Registered once (:mod:`dpcompendium.core.methods`), read by :func:`dpcompendium.chapters.registry.load_methods`.
"""

from dpcompendium.chapters.registry import chapter_id
from dpcompendium.core.methods import Method, register

CHAPTER = chapter_id(__name__)

register(Method("duchi", {"en": "Duchi", "zh_CN": "Duchi"}, "#999999", CHAPTER))
register(
    Method(
        "harmony",
        {"en": "Harmony (Duchi)", "zh_CN": "Harmony（Duchi）"},
        "#56B4E9",
        CHAPTER,
        legend="Harmony (Duchi)",
        marker="o",
    )
)
register(Method("pm", {"en": "PM", "zh_CN": "PM"}, "#009E73", CHAPTER, legend="PM", marker="s"))
register(
    Method(
        "graded-laplace",
        {"en": "Graded Laplace", "zh_CN": "分级拉普拉斯"},
        "#E69F00",
        CHAPTER,
        legend="graded Laplace",
        marker="^",
    )
)
register(
    Method(
        "hiera",
        {"en": "HierA (source's budgets)", "zh_CN": "HierA（原文的隐私预算）"},
        "#D55E00",
        CHAPTER,
        claim="dpcompendium.chapters.hiera.hiera:hiera_claim",
        legend="HierA (source's budgets)",
        marker="D",
    )
)
register(
    Method(
        "hiera-calibrated",
        {
            "en": "HierA, exactly $\\varepsilon$-LDP",
            "zh_CN": "HierA（校准到恰好满足 $\\varepsilon$-LDP）",
        },
        "#0072B2",
        CHAPTER,
        claim="dpcompendium.chapters.hiera.hiera:hiera_claim",
        legend="HierA, exactly ε-LDP",
        marker="v",
    )
)
register(
    Method(
        "hiera-graded",
        {"en": "HierA, graded guarantee", "zh_CN": "HierA（分级保证）"},
        "#56B4E9",
        CHAPTER,
        claim="dpcompendium.chapters.hiera.hiera:graded_claim",
        legend="HierA, graded bound",
        marker="X",
    )
)
register(
    Method(
        "hybrid",
        {"en": "Hybrid", "zh_CN": "Hybrid"},
        "#CC79A7",
        CHAPTER,
        legend="Hybrid (PM/Duchi)",
        marker="P",
    )
)
register(
    Method(
        "idldp",
        {"en": "IDUE (input-discriminative)", "zh_CN": "IDUE（输入区分）"},
        "#000000",
        CHAPTER,
        claim="dpcompendium.chapters.hiera.idldp:idue_claim",
        legend="IDUE mean (IDLDP)",
        marker="*",
    )
)
register(Method("lhp", {"en": "LHP", "zh_CN": "LHP"}, "#999999", CHAPTER))
register(Method("grr", {"en": "GRR", "zh_CN": "GRR"}, "#999999", CHAPTER))
register(Method("least-squares", {"en": "Least squares", "zh_CN": "最小二乘"}, "#999999", CHAPTER))
register(
    Method(
        "privunitg",
        {"en": "PrivUnitG, clip 1", "zh_CN": "PrivUnitG（裁剪到 1）"},
        "#CC79A7",  # vector mean estimation under LDP (hiera's SGD)
        CHAPTER,
        estimator="dpcompendium.core.mechanisms.privunit:privunitg",
        claim="dpcompendium.core.mechanisms.privunit:privunitg_claim",
        legend="PrivUnitG (clip 1)",
        marker="P",
    )
)
register(
    Method(
        "privunitg-box",
        {
            "en": "PrivUnitG, clip $\\sqrt{\\tilde d}$",
            "zh_CN": "PrivUnitG（裁剪到 $\\sqrt{\\tilde d}$）",
        },
        "#CC79A7",  # PrivUnitG with the l2 ball around the per-coordinate box (referee 10, V3)
        CHAPTER,
        estimator="dpcompendium.core.mechanisms.privunit:privunitg",
        claim="dpcompendium.core.mechanisms.privunit:privunitg_claim",
        legend="PrivUnitG (box clip)",
        marker="X",
    )
)
register(
    Method(
        "harmony-l2",
        {
            "en": "Harmony, $\\ell_2$ clip 1",
            "zh_CN": "Harmony（$\\ell_2$ 裁剪到 1）",
        },
        "#56B4E9",  # Harmony on the l2-clipped gradient, PrivUnitG's clip (referee 11, M1)
        CHAPTER,
        estimator="dpcompendium.chapters.hiera.sgd:l2_scalar_reports",
        claim="dpcompendium.chapters.hiera.hiera:l2_clip_claim",
        legend="Harmony (ℓ2 clip 1)",
        marker="h",
    )
)
register(
    Method(
        "pm-l2",
        {"en": "PM, $\\ell_2$ clip 1", "zh_CN": "PM（$\\ell_2$ 裁剪到 1）"},
        "#009E73",  # PM on the l2-clipped gradient, PrivUnitG's clip (referee 11, M1)
        CHAPTER,
        estimator="dpcompendium.chapters.hiera.sgd:l2_scalar_reports",
        claim="dpcompendium.chapters.hiera.hiera:l2_clip_claim",
        legend="PM (ℓ2 clip 1)",
        marker="p",
    )
)
register(
    Method(
        "harmony-l2-step",
        {
            "en": "Harmony, $\\ell_2$ clip 1, matched noise",
            "zh_CN": "Harmony，$\\ell_2$ 裁剪到 1，匹配噪声",
        },
        "#0072B2",  # Harmony at PrivUnitG's clip and per-coordinate noise: the matched-noise arm (referee 12, #1; 13, n2)
        CHAPTER,
        estimator="dpcompendium.chapters.hiera.sgd:l2_scalar_reports",
        claim="dpcompendium.chapters.hiera.hiera:l2_clip_claim",
        legend="Harmony (ℓ2 clip 1, matched noise)",
        marker="<",
    )
)
register(
    Method(
        "pm-l2-step",
        {
            "en": "PM, $\\ell_2$ clip 1, matched noise",
            "zh_CN": "PM，$\\ell_2$ 裁剪到 1，匹配噪声",
        },
        "#D55E00",  # PM at PrivUnitG's clip and per-coordinate noise: the matched-noise arm (referee 12, #1; 13, n2)
        CHAPTER,
        estimator="dpcompendium.chapters.hiera.sgd:l2_scalar_reports",
        claim="dpcompendium.chapters.hiera.hiera:l2_clip_claim",
        legend="PM (ℓ2 clip 1, matched noise)",
        marker=">",
    )
)
register(
    Method(
        "projunit",
        {"en": "ProjUnit, clip 1", "zh_CN": "ProjUnit，裁剪到 1"},
        "#E69F00",  # PrivUnitG in a random k-dimensional projection [asi2023fast] (referee 12, §3)
        CHAPTER,
        estimator="dpcompendium.core.mechanisms.privunit:projunit",
        claim="dpcompendium.core.mechanisms.privunit:projunit_claim",
        legend="ProjUnit (clip 1)",
        marker="d",
    )
)
register(
    Method(
        "privunitg-tuned",
        {"en": "PrivUnitG, clip 1, tuned step", "zh_CN": "PrivUnitG（裁剪到 1，调参步长）"},
        "#CC79A7",  # PrivUnitG at its own learning rate chosen on held-out users (referee 13, #1)
        CHAPTER,
        estimator="dpcompendium.core.mechanisms.privunit:privunitg",
        claim="dpcompendium.core.mechanisms.privunit:privunitg_claim",
        legend="PrivUnitG (clip 1, tuned step)",
        marker="8",
    )
)
register(
    Method(
        "harmony-l2-tuned",
        {
            "en": "Harmony, $\\ell_2$ clip 1, tuned step",
            "zh_CN": "Harmony，$\\ell_2$ 裁剪到 1，调参步长",
        },
        "#56B4E9",  # Harmony at PrivUnitG's clip, its own learning rate chosen on held-out users (referee 13, #1)
        CHAPTER,
        estimator="dpcompendium.chapters.hiera.sgd:l2_scalar_reports",
        claim="dpcompendium.chapters.hiera.hiera:l2_clip_claim",
        legend="Harmony (ℓ2 clip 1, tuned step)",
        marker="H",
    )
)
register(
    Method(
        "pm-l2-tuned",
        {
            "en": "PM, $\\ell_2$ clip 1, tuned step",
            "zh_CN": "PM，$\\ell_2$ 裁剪到 1，调参步长",
        },
        "#009E73",  # PM at PrivUnitG's clip, its own learning rate chosen on held-out users (referee 13, #1)
        CHAPTER,
        estimator="dpcompendium.chapters.hiera.sgd:l2_scalar_reports",
        claim="dpcompendium.chapters.hiera.hiera:l2_clip_claim",
        legend="PM (ℓ2 clip 1, tuned step)",
        marker="d",
    )
)
