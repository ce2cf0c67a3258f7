"""Native review 8's mwem items (notes/s20/native_review8.md), each with a test that fails without its fix."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest

from dpcompendium.chapters.mwem import mst
from dpcompendium.core import comparison
from dpcompendium.core.claim_messages import CLAIM_MESSAGES
from dpcompendium.core.comparison import Arm, Comparison, first_places_lacking, ranking
from dpcompendium.core.messages import CATALOGUE, PLAIN, method_name, translate
from dpcompendium.core.privacy import PrivacyClaim, _claim_label

ROOT = Path(__file__).resolve().parents[1]
CLAIM = PrivacyClaim("m", "replace-one", "1", 1.0)
ZH = CATALOGUE["zh_CN"]
EN = CATALOGUE["en"]


def _claim_zh(key: str) -> str:
    return next(row[-1] for row in CLAIM_MESSAGES if row[0] == key)


# ---------------------------------------------------------------------------------------------------------------
# A2: "高斯 Identity" and "Identity", one zh name each (mwem, histograms, privacy-audit)
# ---------------------------------------------------------------------------------------------------------------


def test_a2_identity_and_gaussian_identity_have_one_zh_name():
    assert method_name("gaussian-identity", "zh_CN") == "高斯 Identity"
    assert method_name("identity", "zh_CN") == "Identity"
    assert translate("Identity", "zh_CN") in (None, "Identity")
    assert _claim_zh("claims.hist.title_identity") == "Identity"
    # no zh text the code writes names them by the cell-by-cell gloss
    for key, text in ZH.items():
        assert "逐单元格" not in text, key
    assert "Gaussian noise on every cell has" not in EN["mwem.db_aim_parts_read"]
    assert "高斯 Identity 的误差是 AIM 的 %(gid)s 倍" in ZH["mwem.db_aim_parts_read"]


def test_a2_table_3_17_label_says_the_name_once():
    zh = ("，", "（", "）")
    mech = _claim_zh("claims.mwem.mech_gaussian-identity")
    label = _claim_label(method_name("gaussian-identity", "zh_CN"), mech, zh[1], zh[2], zh[0])
    assert label == "高斯 Identity（zCDP）"


# ---------------------------------------------------------------------------------------------------------------
# A3: one name for the uncompressed MST; MST's "parts", never its "steps"
# ---------------------------------------------------------------------------------------------------------------


def test_a3a_uncompressed_mst_has_one_name():
    assert method_name("mst-nc", "zh_CN") == "MST（不压缩取值域）"
    mech = _claim_zh("claims.mwem.mech_mst_nc")
    assert mech == "MST（不压缩取值域，图模型估计）"
    assert _claim_label("MST（不压缩取值域）", mech, "（", "）", "，") == mech
    for key, text in ZH.items():
        if key.startswith("mwem."):
            assert "不压缩的 MST" not in text and "对比不压缩：" not in text, key


def test_a3b_mst_parts_not_steps():
    assert "MST's steps" not in EN["mwem.holm_db_aim"]
    assert "MST's parts" in EN["mwem.holm_db_aim"]
    assert "各步骤" not in ZH["mwem.holm_db_aim"]
    # native review 9, S10: "MST 各部分的", not "MST 的各个部分的" (的…的 twice)
    assert ZH["mwem.holm_db_aim"].count("MST 各部分") == 2
    assert "MST's steps" not in (ROOT / "notebooks" / "mwem.ipynb").read_text(encoding="utf-8")


# ---------------------------------------------------------------------------------------------------------------
# referee 19 leftover: the zcdp arm is "zCDP MWEM (Gaussian)" in every template, as in its rows
# ---------------------------------------------------------------------------------------------------------------


def test_zcdp_arm_named_as_its_rows_in_every_mwem_template():
    for key, text in EN.items():
        if key.startswith("mwem."):
            assert not re.search(r"zCDP (and standard )?variants?\b", text), key
    for key, text in ZH.items():
        if key.startswith("mwem."):
            assert "zCDP 变体" not in text and "zcdp 变体" not in text, key
            assert "zCDP MWEM（高斯）" not in text, key
    for key in ("mwem.db_zcdp", "mwem.db_zcdp_not_run"):
        assert "zCDP MWEM (Gaussian)" in EN[key]
        assert "zCDP MWEM（高斯测量）" in ZH[key]
    assert "zCDP MWEM (Gaussian)" in PLAIN["mwem.db_zcdp"]


# ---------------------------------------------------------------------------------------------------------------
# S5: "in 120 of its 120 runs …, and the two-way marginal too in 0"
# ---------------------------------------------------------------------------------------------------------------


def test_s5_aim_measured_all_runs_reads_as_all():
    text = mst.aim_measured(120, 0)
    assert str(text) == (
        "On Adult 2-D each of AIM's 120 runs measured only the two one-way marginals, none the two-way marginal"
    )
    assert text.in_language("zh_CN") == (
        "在 Adult 二维数据上，AIM 的 120 次运行全都只测量了两个一维边缘，没有一次测量二维边缘"
    )
    some = mst.aim_measured(120, 3)
    assert "117 of its 120 runs" in str(some) and "too in 3" in str(some)
    with pytest.raises(ValueError):
        mst.aim_measured(3, 4)


# ---------------------------------------------------------------------------------------------------------------
# C3 (shared) and S4: the lead of Table 3.22 says which comparator is the best baseline at which ε
# ---------------------------------------------------------------------------------------------------------------


def _strong(seed: int, ratio: float, b_name: str):
    rng = np.random.default_rng(seed)
    base = rng.gamma(50.0, 1.0, 30)
    return Comparison(
        "error",
        Arm.of("mwem", CLAIM, ratio * base * rng.uniform(0.95, 1.05, 30)),
        Arm.of(b_name, CLAIM, base),
    ).result()


def test_c3_lead_names_the_best_baseline_per_eps():
    adult = [
        _strong(s, r, b)
        for s, r, b in ((1, 4, "PrivTree"), (2, 9, "PrivTree"), (3, 5, "PrivTree"), (4, 20, "HDMM"))
    ]
    two_d = [_strong(5, 0.2, "DAWA"), _strong(6, 6.0, "DAWA")]
    fam = comparison.holm(adult + two_d)
    text = comparison.lead_by_group(
        [("ADULT", fam[:4]), ("Adult 2-D", fam[4:])],
        eps={"ADULT": ["0.1", "1", "5", "10"], "Adult 2-D": ["0.1", "1"]},
    )
    en = text.myst
    assert (
        "ADULT, against the best baseline (PrivTree at $\\varepsilon$ = 0.1, 1, 5; HDMM at $\\varepsilon$ = 10): higher in all 4"
        in en
    )
    assert "Adult 2-D, against DAWA:" in en  # one comparator: named as before
    zh = text.in_language("zh_CN")
    assert (
        "ADULT 上对各参数组合中的最优基线（$\\varepsilon$ = 0.1、1、5 为 PrivTree；$\\varepsilon$ = 10 为 HDMM）：全部 4 个更高"
        in zh
    )
    assert zh.startswith("在下表 6 个参数组合中，")
    with pytest.raises(ValueError):
        comparison.lead_by_group([("ADULT", fam[:4])], eps={"ADULT": ["0.1"]})


# ---------------------------------------------------------------------------------------------------------------
# C2 (shared): "of the 2 settings …, 2 (Adult 2-D) have no PrivTree …" reads as a coincidence
# ---------------------------------------------------------------------------------------------------------------


def test_c2_first_places_all_lacking_say_all():
    rng = np.random.default_rng(5)

    def arm(method, mean):
        return Arm.of(method, CLAIM, rng.exponential(mean, 60))

    rankings = [
        ranking("1-D", "MSE", [arm("MWEM", 5.0), arm("DAWA", 1.0), arm("HDMM", 3.0)]),
        ranking("2-D", "MSE", [arm("MWEM", 0.1), arm("DAWA", 5.0)]),
        ranking("2-D b", "MSE", [arm("MWEM", 0.1), arm("DAWA", 5.0)]),
    ]
    text = first_places_lacking("MSE", rankings, ["ADULT", "Adult 2-D", "Adult 2-D"])
    assert str(text) == (
        "the 2 settings where MWEM alone has the lowest MSE are all on Adult 2-D, whose ranking has no HDMM"
    )
    assert text.in_language("zh_CN") == (
        "MWEM 单独取得最低 MSE 的 2 个参数组合都在 Adult 2-D 上，那里的排名中没有 HDMM"
    )


# ---------------------------------------------------------------------------------------------------------------
# S2 and U3 in the notebook: the lead names the pair once; "256 × 256"
# ---------------------------------------------------------------------------------------------------------------


def _markdown_and_code() -> str:
    nb = json.loads((ROOT / "notebooks" / "mwem.ipynb").read_text(encoding="utf-8"))
    return "\n".join("".join(c["source"]) for c in nb["cells"])


def test_s2_the_gaussian_leads_name_the_pair_once():
    text = _markdown_and_code()
    assert "Against Gaussian Identity, {glue:md}`mwem_aim_gid_vs" not in text
    assert "Against Gaussian least squares, {glue:md}`mwem_aim_gls_vs" not in text
    assert "{glue:md}`mwem_aim_gid_vs:myst`" in text and "{glue:md}`mwem_aim_gls_vs:myst`" in text


def test_u3_times_sign_in_the_grid_name():
    text = _markdown_and_code()
    assert "256 x 256" not in text
    assert "Adult 2-D (256 × 256)" in text


# ---------------------------------------------------------------------------------------------------------------
# reader: mwem Fig. 3.2 at 390 px, the third heat map smaller and off the others' axis (its colorbar beside it)
# ---------------------------------------------------------------------------------------------------------------


def _heatmaps_figure():
    import types

    import matplotlib.pyplot as plt

    nb = json.loads((ROOT / "notebooks" / "mwem.ipynb").read_text(encoding="utf-8"))
    cell = next(c for c in nb["cells"] if c.get("id") == "1fdc9f95")
    rng = np.random.default_rng(0)
    hist2 = rng.integers(0, 35000, (14, 4)).astype(float)
    results = {
        (v, 1.0): types.SimpleNamespace(synthetic=[hist2 * rng.uniform(0.8, 1.2, hist2.shape)])
        for v in ("coursework", "standard")
    }
    shown = {}
    chapter = types.SimpleNamespace(show_figure=lambda fig, name, out: shown.setdefault("fig", fig))
    namespace = {
        "plt": plt,
        "np": np,
        "hist2": hist2,
        "sw2": types.SimpleNamespace(results=results),
        "e_show": 1.0,
        "chapter": chapter,
        "out": "unused",
    }
    exec("".join(cell["source"]), namespace)  # the notebook's own figure cell, on stub data
    return shown["fig"]


def test_fig_3_2_panels_align_on_a_phone_and_wide():
    import matplotlib.pyplot as plt

    from dpcompendium.core.plotting import one_column

    fig = _heatmaps_figure()
    try:
        with one_column(fig, dpi=100) as layout:
            widths = [b.width for b in layout.panels]
            heights = [b.height for b in layout.panels]
            assert len(widths) == 3
            # each panel's region is cut and scaled to the column alone: equal regions, equal panels
            assert max(widths) - min(widths) < 0.01 * max(widths), widths
            assert max(heights) - min(heights) < 0.01 * max(heights), heights
            assert layout.tail  # the shared colour scale goes under the stack
        fig.canvas.draw()
        grid = [ax for ax in fig.axes if getattr(ax, "_colorbar", None) is None]
        boxes = [ax.get_position() for ax in grid]
        assert len(boxes) == 3
        assert max(b.width for b in boxes) - min(b.width for b in boxes) < 1e-3
        assert max(b.y0 for b in boxes) - min(b.y0 for b in boxes) < 1e-3
    finally:
        plt.close(fig)


# ---------------------------------------------------------------------------------------------------------------
# glued paragraphs of at most 600 characters: two paragraphs of §3.11 (720 and 678 in a run) split at a sentence end
# ---------------------------------------------------------------------------------------------------------------


def test_long_dpbench_paragraphs_are_split_at_sentence_ends():
    text = _markdown_and_code()
    assert "{glue:md}`mwem_db_aim_parts_sel:myst`.\n\nWhether AIM's adaptivity" in text
    assert "{glue:md}`mwem_db_trend:myst`).\n\n$T$ boxes cannot describe" in text
