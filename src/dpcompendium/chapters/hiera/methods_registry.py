"""The hiera chapter's graded local DP methods, with their legend labels and markers.

Registered once (:mod:`dpcompendium.core.methods`), read by :func:`dpcompendium.chapters.registry.load_methods`.
"""

from dpcompendium.chapters.registry import chapter_id
from dpcompendium.core.methods import registrar

CHAPTER = chapter_id(__name__)
# one call per method: id, English name, Chinese name (None: the English one), colour, references (".module:attr")
method = registrar(CHAPTER, __package__)

method("duchi", "Duchi", None, "#999999")
method(
    "harmony",
    "Harmony (Duchi)",
    "Harmony（Duchi）",
    "#56B4E9",
    legend="Harmony (Duchi)",
    marker="o",
)
method("pm", "PM", None, "#009E73", legend="PM", marker="s")
method(
    "graded-laplace",
    "Graded Laplace",
    "分级拉普拉斯",
    "#E69F00",
    legend="graded Laplace",
    marker="^",
)
method(
    "hiera",
    "HierA (source's budgets)",
    "HierA（原文的隐私预算）",
    "#D55E00",
    claim=".hiera:hiera_claim",
    legend="HierA (source's budgets)",
    marker="D",
)
method(
    "hiera-calibrated",
    "HierA, exactly $\\varepsilon$-LDP",
    "HierA（校准到恰好满足 $\\varepsilon$-LDP）",
    "#0072B2",
    claim=".hiera:hiera_claim",
    legend="HierA, exactly ε-LDP",
    marker="v",
)
method(
    "hiera-graded",
    "HierA, graded guarantee",
    "HierA（分级保证）",
    "#56B4E9",
    claim=".hiera:graded_claim",
    legend="HierA, graded bound",
    marker="X",
)
method("hybrid", "Hybrid", None, "#CC79A7", legend="Hybrid (PM/Duchi)", marker="P")
method(
    "idldp",
    "IDUE (input-discriminative)",
    "IDUE（输入区分）",
    "#000000",
    claim=".idldp:idue_claim",
    legend="IDUE mean (IDLDP)",
    marker="*",
)
method("lhp", "LHP", None, "#999999")
method("grr", "GRR", None, "#999999")
method("least-squares", "Least squares", "最小二乘", "#999999")
# vector mean estimation under LDP (hiera's SGD)
method(
    "privunitg",
    "PrivUnitG, clip 1",
    "PrivUnitG（裁剪到 1）",
    "#CC79A7",
    estimator="dpcompendium.core.mechanisms.privunit:privunitg",
    claim="dpcompendium.core.mechanisms.privunit:privunitg_claim",
    legend="PrivUnitG (clip 1)",
    marker="P",
)
# PrivUnitG with the l2 ball around the per-coordinate box (referee 10, V3)
method(
    "privunitg-box",
    "PrivUnitG, clip $\\sqrt{\\tilde d}$",
    "PrivUnitG（裁剪到 $\\sqrt{\\tilde d}$）",
    "#CC79A7",
    estimator="dpcompendium.core.mechanisms.privunit:privunitg",
    claim="dpcompendium.core.mechanisms.privunit:privunitg_claim",
    legend="PrivUnitG (box clip)",
    marker="X",
)
# PrivUnitG at the geometric midpoint d~^(1/4) of its two clips 1 and sqrt(d~) (referee 13, section 3)
method(
    "privunitg-mid",
    "PrivUnitG, clip $\\tilde d^{1/4}$",
    "PrivUnitG（裁剪到 $\\tilde d^{1/4}$）",
    "#CC79A7",
    estimator="dpcompendium.core.mechanisms.privunit:privunitg",
    claim="dpcompendium.core.mechanisms.privunit:privunitg_claim",
    legend="PrivUnitG (clip d̃^(1/4))",
    marker="x",
)
# Harmony on the l2-clipped gradient, PrivUnitG's clip (referee 11, M1)
method(
    "harmony-l2",
    "Harmony, $\\ell_2$ clip 1",
    "Harmony（$\\ell_2$ 裁剪到 1）",
    "#56B4E9",
    estimator=".sgd:l2_scalar_reports",
    claim=".hiera:l2_clip_claim",
    legend="Harmony (ℓ2 clip 1)",
    marker="h",
)
# PM on the l2-clipped gradient, PrivUnitG's clip (referee 11, M1)
method(
    "pm-l2",
    "PM, $\\ell_2$ clip 1",
    "PM（$\\ell_2$ 裁剪到 1）",
    "#009E73",
    estimator=".sgd:l2_scalar_reports",
    claim=".hiera:l2_clip_claim",
    legend="PM (ℓ2 clip 1)",
    marker="p",
)
# Harmony at PrivUnitG's clip and per-coordinate noise: the matched-noise arm (referee 12, #1; 13, n2)
method(
    "harmony-l2-step",
    "Harmony, $\\ell_2$ clip 1, matched noise",
    "Harmony，$\\ell_2$ 裁剪到 1，匹配噪声",
    "#0072B2",
    estimator=".sgd:l2_scalar_reports",
    claim=".hiera:l2_clip_claim",
    legend="Harmony (ℓ2 clip 1, matched noise)",
    marker="<",
)
# PM at PrivUnitG's clip and per-coordinate noise: the matched-noise arm (referee 12, #1; 13, n2)
method(
    "pm-l2-step",
    "PM, $\\ell_2$ clip 1, matched noise",
    "PM，$\\ell_2$ 裁剪到 1，匹配噪声",
    "#D55E00",
    estimator=".sgd:l2_scalar_reports",
    claim=".hiera:l2_clip_claim",
    legend="PM (ℓ2 clip 1, matched noise)",
    marker=">",
)
# PrivUnitG in a random k-dimensional projection [asi2023fast] (referee 12, §3)
method(
    "projunit",
    "ProjUnit, clip 1",
    "ProjUnit，裁剪到 1",
    "#E69F00",
    estimator="dpcompendium.core.mechanisms.privunit:projunit",
    claim="dpcompendium.core.mechanisms.privunit:projunit_claim",
    legend="ProjUnit (clip 1)",
    marker="d",
)
# PrivUnitG and the scalar arms at PrivUnitG's clip, each at its own learning rate chosen on held-out users
# (referee 13, #1)
method(
    "privunitg-tuned",
    "PrivUnitG, clip 1, tuned step",
    "PrivUnitG（裁剪到 1，调参步长）",
    "#CC79A7",
    estimator="dpcompendium.core.mechanisms.privunit:privunitg",
    claim="dpcompendium.core.mechanisms.privunit:privunitg_claim",
    legend="PrivUnitG (clip 1, tuned step)",
    marker="8",
)
method(
    "harmony-l2-tuned",
    "Harmony, $\\ell_2$ clip 1, tuned step",
    "Harmony，$\\ell_2$ 裁剪到 1，调参步长",
    "#56B4E9",
    estimator=".sgd:l2_scalar_reports",
    claim=".hiera:l2_clip_claim",
    legend="Harmony (ℓ2 clip 1, tuned step)",
    marker="H",
)
method(
    "pm-l2-tuned",
    "PM, $\\ell_2$ clip 1, tuned step",
    "PM，$\\ell_2$ 裁剪到 1，调参步长",
    "#009E73",
    estimator=".sgd:l2_scalar_reports",
    claim=".hiera:l2_clip_claim",
    legend="PM (ℓ2 clip 1, tuned step)",
    marker="d",
)
# Harmony and PM on the box, their own clip, each at its learning rate chosen on the same held-out users
# (referee 14, H1: PrivUnitG's tuned arm against the scalar mechanisms at their own clip)
method(
    "harmony-tuned",
    "Harmony (Duchi), tuned step",
    "Harmony（Duchi），调参步长",
    "#56B4E9",
    legend="Harmony (Duchi, tuned step)",
    marker="1",
)
method(
    "pm-tuned",
    "PM, tuned step",
    "PM，调参步长",
    "#009E73",
    legend="PM (tuned step)",
    marker="2",
)
# PrivUnitG at the clip 1/2, below the three clips tried before (referee 14, L3)
method(
    "privunitg-half",
    "PrivUnitG, clip 1/2",
    "PrivUnitG（裁剪到 1/2）",
    "#CC79A7",
    estimator="dpcompendium.core.mechanisms.privunit:privunitg",
    claim="dpcompendium.core.mechanisms.privunit:privunitg_claim",
    legend="PrivUnitG (clip 1/2)",
    marker="4",
)
