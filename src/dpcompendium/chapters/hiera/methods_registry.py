"""The hiera chapter's graded local DP methods, with their legend labels and markers.

Registered once (:mod:`dpcompendium.core.methods`), read by :func:`dpcompendium.chapters.registry.load_methods`.
"""

from dpcompendium.chapters.registry import chapter_id
from dpcompendium.core.methods import registrar

CHAPTER = chapter_id(__name__)
method = registrar(CHAPTER, __package__)

_PRIVUNIT = "dpcompendium.core.mechanisms.privunit"
#: The references (".module:attr": relative to this package) a row of :data:`METHODS` names by its last column.
REFERENCES: dict[str, dict[str, str]] = {
    "": {},
    "hiera": {"claim": ".hiera:hiera_claim"},
    "graded": {"claim": ".hiera:graded_claim"},
    "idue": {"claim": ".idldp:idue_claim"},
    # vector mean estimation under LDP (hiera's SGD)
    "privunitg": {"estimator": f"{_PRIVUNIT}:privunitg", "claim": f"{_PRIVUNIT}:privunitg_claim"},
    "projunit": {"estimator": f"{_PRIVUNIT}:projunit", "claim": f"{_PRIVUNIT}:projunit_claim"},
    # Harmony and PM on the l2-clipped gradient, PrivUnitG's clip (referee 11, M1)
    "l2": {"estimator": ".sgd:l2_scalar_reports", "claim": ".hiera:l2_clip_claim"},
}

#: One row per method, in the order they are registered: id, English name, Chinese name (None: the English one),
#: colour, legend label (None: the name, as the tables' rows have it, matplotlib drawing its maths; referee 20, L-3:
#: the legends said "PrivUnitG (box clip)" beside rows "PrivUnitG, clip √d̃"), marker (None: none of its own), references (a key of
#: :data:`REFERENCES`).
METHODS = (
    ("duchi", "Duchi", None, "#999999", None, None, ""),
    ("harmony", "Harmony (Duchi)", "Harmony（Duchi）", "#56B4E9", None, "o", ""),
    ("pm", "PM", None, "#009E73", None, "s", ""),
    ("graded-laplace", "Graded Laplace", "分级拉普拉斯", "#E69F00", None, "^", ""),
    ("hiera", "HierA (source's budgets)", "HierA（原文的隐私预算）", "#D55E00", None, "D", "hiera"),
    ("hiera-calibrated", "HierA, exactly $\\varepsilon$-LDP", "HierA（校准到恰好满足 $\\varepsilon$-LDP）", "#0072B2", None, "v", "hiera"),
    ("hiera-graded", "HierA, graded guarantee", "HierA（分级保证）", "#56B4E9", None, "X", "graded"),
    ("hybrid", "Hybrid", None, "#CC79A7", None, "P", ""),
    ("idldp", "IDUE (input-discriminative)", "IDUE（输入区分）", "#000000", None, "*", "idue"),
    ("lhp", "LHP", None, "#999999", None, None, ""),
    ("grr", "GRR", None, "#999999", None, None, ""),
    ("least-squares", "Least squares", "最小二乘", "#999999", None, None, ""),
    ("privunitg", "PrivUnitG, clip 1", "PrivUnitG（裁剪到 1）", "#CC79A7", None, "P", "privunitg"),
    # PrivUnitG with the l2 ball around the per-coordinate box (referee 10, V3)
    ("privunitg-box", "PrivUnitG, clip $\\sqrt{\\tilde d}$", "PrivUnitG（裁剪到 $\\sqrt{\\tilde d}$）", "#CC79A7", None, "X", "privunitg"),
    # PrivUnitG at the geometric midpoint d~^(1/4) of its two clips 1 and sqrt(d~) (referee 13, section 3)
    ("privunitg-mid", "PrivUnitG, clip $\\tilde d^{1/4}$", "PrivUnitG（裁剪到 $\\tilde d^{1/4}$）", "#CC79A7", None, "x", "privunitg"),
    # Harmony and PM on the l2-clipped gradient, PrivUnitG's clip (referee 11, M1)
    ("harmony-l2", "Harmony (Duchi), $\\ell_2$ clip 1", "Harmony（Duchi，$\\ell_2$ 裁剪到 1）", "#56B4E9", None, "h", "l2"),
    ("pm-l2", "PM, $\\ell_2$ clip 1", "PM（$\\ell_2$ 裁剪到 1）", "#009E73", None, "p", "l2"),
    # ... at PrivUnitG's clip and per-coordinate noise: the matched-noise arms (referee 12, #1; 13, n2)
    ("harmony-l2-step", "Harmony (Duchi), $\\ell_2$ clip 1, matched noise", "Harmony（Duchi，$\\ell_2$ 裁剪到 1，匹配噪声）", "#0072B2", None, "<", "l2"),
    ("pm-l2-step", "PM, $\\ell_2$ clip 1, matched noise", "PM（$\\ell_2$ 裁剪到 1，匹配噪声）", "#D55E00", None, ">", "l2"),
    # PrivUnitG in a random k-dimensional projection [asi2023fast] (referee 12, §3)
    ("projunit", "ProjUnit, clip 1", "ProjUnit（裁剪到 1）", "#E69F00", None, "d", "projunit"),
    # PrivUnitG and the scalar arms at PrivUnitG's clip, each at its own learning rate chosen on held-out users
    # (referee 13, #1)
    ("privunitg-tuned", "PrivUnitG, clip 1, tuned step", "PrivUnitG（裁剪到 1，调参步长）", "#CC79A7", None, "8", "privunitg"),
    ("harmony-l2-tuned", "Harmony (Duchi), $\\ell_2$ clip 1, tuned step", "Harmony（Duchi，$\\ell_2$ 裁剪到 1，调参步长）", "#56B4E9", None, "H", "l2"),
    ("pm-l2-tuned", "PM, $\\ell_2$ clip 1, tuned step", "PM（$\\ell_2$ 裁剪到 1，调参步长）", "#009E73", None, "d", "l2"),
    # Harmony and PM on the box, their own clip, each at its learning rate chosen on the same held-out users
    # (referee 14, H1: PrivUnitG's tuned arm against the scalar mechanisms at their own clip)
    # a variant is named after its base row, "Harmony (Duchi), <what differs>", as PM's are "PM, <what differs>"
    # (referee 18, l1: one form in one table; referee 19, L-6: the base's name, as every other row has it)
    ("harmony-tuned", "Harmony (Duchi), tuned step", "Harmony（Duchi，调参步长）", "#56B4E9", None, "1", ""),
    ("pm-tuned", "PM, tuned step", "PM（调参步长）", "#009E73", None, "2", ""),
    # PrivUnitG at the clip 1/2, below the three clips tried before (referee 14, L3)
    ("privunitg-half", "PrivUnitG, clip 1/2", "PrivUnitG（裁剪到 1/2）", "#CC79A7", None, "4", "privunitg"),
)  # fmt: skip

#: Experiment 3's two budgets of HierA, each with its own label (native review 8, A4: one label stood for both): the
#: text's schedule {2ε, …, ε} (the corrected SGD's rows, tables and verdicts) and the code's {5ε, …, ε} (the code's
#: variants: experiment 2's schedule, whose arm keeps the registered name "HierA (source's budgets)"). Their Chinese:
#: the figure templates.
SGD_TEXT_LABEL = "HierA (text's budgets)"
SGD_CODE_LABEL = "HierA (code's budgets)"
#: graded Laplace runs the same two schedules in experiment 3 (referee 20, L-3)
SGD_LAP_TEXT_LABEL = "Graded Laplace (text's budgets)"
SGD_LAP_CODE_LABEL = "Graded Laplace (code's budgets)"


def sgd_labels(variant: str) -> dict[str, str]:
    """Experiment 3's labels of the arms that run a schedule of budgets, in SGD ``variant``: the text's budgets in
    the corrected variant, the code's in the code's variants (``code-training``, ``faithful``) — the one source of
    these names for the SGD's tables, figures and privacy table (referee 20, MJ-1: no experiment-3 output carries
    experiment 2's "HierA (source's budgets)")."""
    text = variant == "corrected"
    return {
        "hiera": SGD_TEXT_LABEL if text else SGD_CODE_LABEL,
        "graded-laplace": SGD_LAP_TEXT_LABEL if text else SGD_LAP_CODE_LABEL,
    }


for _id, _en, _zh, _colour, _legend, _marker, _refs in METHODS:
    # the legend is the name unless a row gives its own (referee 20, L-3: one name source)
    method(_id, _en, _zh, _colour, legend=_legend or _en, marker=_marker, **REFERENCES[_refs])
