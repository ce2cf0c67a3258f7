"""The hiera chapter's labels and small-run sentences (scope s22 hiera-a): the graded takeaway of a run that tests
nothing (reps 1) read "tested: not tested: …"; experiment 3's outputs name HierA and graded Laplace by the budgets
they run (referee 20, MJ-1, L-3)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from dpcompendium.chapters.hiera import verdicts
from dpcompendium.core.messages import method_name


def test_the_graded_takeaway_of_an_untested_run_has_its_own_sentence():
    text = verdicts.graded_points(
        pd.DataFrame(), "1.5–2.1", ["hiera-graded", "idldp"], ["harmony", "pm"], reps=1
    )
    en, zh = str(text), text.in_language("zh_CN")
    assert en == (
        "1.5–2.1 times the smallest uniform MAE (point estimates, not tested: a comparison needs at least two "
        "repetitions per cell; this run: 1)"
    )
    for t in (en, zh):
        assert "tested: not tested" not in t and "检验结果：未检验" not in t
    assert "未检验" in zh and "1 次" in zh and "1.5–2.1" in zh


def test_a_candidate_without_cells_is_named_as_not_tested():
    from test_referee18_others import _graded_table

    table = _graded_table()
    text = str(
        verdicts.graded_points(table, "1.5", ["hiera-graded", "pm"], ["harmony", "pm", "hybrid"])
    )
    assert f"{method_name('pm', 'en')} not tested (no cell of this run)" in text
    assert "not tested: no cell" not in text


# ---- experiment 3's labels (referee 20, MJ-1, L-3)

EXP2 = "HierA (source's budgets)"  # experiment 2's arm, the registered name of "hiera"


def _sgd_runs() -> pd.DataFrame:
    rows = [
        {"dataset": "adult", "variant": v, "method": m, "epsilon": e, "mse": 1.0 + e}
        for v in ("corrected", "code-training", "faithful")
        for m in ("hiera", "graded-laplace", "harmony-l2", "privunitg-box", "none", "least-squares")
        for e in (0.25, 1.0)
    ]
    return pd.DataFrame(rows)


def test_the_registered_name_is_experiment_2s_and_the_sgd_labels_are_apart():
    from dpcompendium.chapters.hiera.methods_registry import sgd_labels

    assert method_name("hiera", "en") == EXP2
    text, code = sgd_labels("corrected"), sgd_labels("faithful")
    assert text["hiera"] == "HierA (text's budgets)" and code["hiera"] == "HierA (code's budgets)"
    assert text["graded-laplace"] == "Graded Laplace (text's budgets)"
    assert (
        code["graded-laplace"]
        == "Graded Laplace (code's budgets)"
        == sgd_labels("code-training")["graded-laplace"]
    )
    from dpcompendium.core.messages import translate

    for label in (*text.values(), *code.values()):
        zh = translate(label, "zh_CN")
        assert zh and zh != label and "原文的隐私预算" not in zh, (label, zh)


def test_no_experiment_3_output_carries_experiment_2s_label():
    import matplotlib.pyplot as plt

    from dpcompendium.chapters.hiera import accounting, plots
    from dpcompendium.core.tables import readable

    # the privacy table (Table 5.23): HierA's per-report level is the text's budgets'
    acc = accounting.sgd_privacy_table(
        {"harmony": {1.0: 1.0}, "hiera": {1.0: 3.845}}, {1.0: 5000}, [1, 10], 1e-6
    )
    shown = accounting.shown_table(acc, 1.0)
    assert list(shown["method"].unique()) == ["harmony", "HierA (text's budgets)"]
    for lang, label in (("en", "HierA (text's budgets)"), ("zh_CN", "HierA（文中预算）")):
        page = readable(shown, lang=lang)._repr_html_()
        assert label in page and method_name("hiera", lang) not in page, lang
    # its figure (Fig. 5.5): the panel's title
    fig = plots.plot_accounting(acc, 1.0)
    titles = [ax.get_title() for ax in fig.axes if ax.get_title()]
    assert any(t.startswith("HierA (text's budgets)") for t in titles), titles
    assert not any(EXP2 in t for t in titles), titles
    # the SGD figure (Fig. 5.4): each schedule by its own label, the rows' names for the other arms
    fig = plots.plot_sgd(_sgd_runs())
    legend = [t.get_text() for lg in fig.legends for t in lg.get_texts()]
    assert EXP2 not in legend and method_name("graded-laplace", "en") not in legend
    for label in (
        "HierA (text's budgets)",
        "HierA (code's budgets)",
        "Graded Laplace (text's budgets)",
        "Graded Laplace (code's budgets)",
        method_name("harmony-l2", "en"),
        method_name("privunitg-box", "en"),
    ):
        assert legend.count(label) == 1, (label, legend)
    assert (
        "Harmony (Duchi), $\\ell_2$ clip 1" in legend
        and "PrivUnitG, clip $\\sqrt{\\tilde d}$" in legend
    )
    fig.canvas.draw()  # matplotlib draws the names' maths
    plt.close("all")


def test_the_legends_are_the_rows_names_in_both_languages():
    """L-3: the legend said "PrivUnitG (box clip)" and "Harmony (ℓ2 clip 1)" beside rows "PrivUnitG, clip √d̃" and
    "Harmony (Duchi), ℓ2 clip 1"; and T3 (native review 9): "IDUE mean" beside "IDUE（输入区分）"."""
    from dpcompendium.chapters.hiera import methods_registry, plots
    from dpcompendium.core.messages import translate

    for row in methods_registry.METHODS:
        mid = row[0]
        if row[4] is None and row[5] is not None:  # a method the figures draw with its own marker
            label = plots.style(mid)["label"]
            assert label == method_name(mid, "en"), mid
            assert translate(label, "zh_CN") == method_name(mid, "zh_CN"), mid
    assert translate(plots.style("idldp")["label"], "zh_CN") == "IDUE（输入区分）"


def test_the_code_s_budgets_are_glossed_as_experiment_2s_schedule():
    """L-3: "HierA (code's budgets)" is the schedule of experiment 2's "HierA (source's budgets)"; the gloss says so
    with both exact levels per report, computed (8.07 with the level tied to the value, larger from x)."""
    from dpcompendium.chapters.hiera import accounting, hiera

    note = accounting.code_budgets_note(1.0)
    sched = hiera.schedule(1.0, hiera.HIERA_MULTIPLIERS)
    tied, from_x = hiera.lhp_exact_epsilon(sched), hiera.lhp_exact_epsilon(sched, coupled=False)
    assert abs(tied - 8.067) < 1e-3 and from_x > tied
    en = str(note)
    assert "experiment 2's schedule {5ε, …, ε}, that of HierA (source's budgets)" in en
    assert "8.07-LDP at base ε = 1" in en and f"{from_x:.3g}-LDP here" in en
    zh = note.in_language("zh_CN")
    assert (
        "实验二" in zh
        and "HierA（原文的隐私预算）" in zh
        and "8.07" in zh
        and f"{from_x:.3g}" in zh
    )
    nb = Path(__file__).resolve().parents[1] / "notebooks" / "hiera.ipynb"
    assert "code_budgets_note(b1)" in nb.read_text(encoding="utf-8")


def test_the_claims_list_the_budgets_in_each_language_s_brackets():
    """U3 (native review 9): "采用原文的隐私预算 (5, 4, 3, 2, 1)" had half-width brackets and commas."""
    from dpcompendium.chapters import hiera

    mech = hiera.privacy_claim("hiera", 1.0).mechanism
    assert str(mech) == "LHP / HierA with the source's budgets (5, 4, 3, 2, 1)"
    assert mech.in_language("zh_CN") == "LHP / HierA，采用原文的隐私预算（5、4、3、2、1）"


def test_the_one_against_lead_names_the_candidate_first_in_chinese():
    """S3 (native review 9): "逐对比较 HierA（分级保证）与下表各方法的均值的平均绝对误差（MAE）之比：对 Harmony（Duchi），全部
    24 个更高" stacked three 的; the candidate leads, each clause follows its comparator without a comma."""
    from test_referee18_others import _graded_table

    pairs = [("hiera-graded", b) for b in ("harmony", "pm", "hybrid")]
    zh = verdicts.candidate_leads(_graded_table(), "graded", pairs)[0].in_language("zh_CN")
    assert zh.startswith(
        "HierA（分级保证）：逐对比较均值的平均绝对误差（MAE）之比，对 Harmony（Duchi）"
    ), zh
    assert "与下表各方法的" not in zh and "对 PM 全部 6 个更高" in zh and "对 PM，" not in zh
