"""Native review 8 (hiera: A4, T3, S9, C1, S14, C5), the reader's double bracket and referee 19's leftover (the rows of
§5.5's tables flag their verdicts short of runs, as the leads above them do)."""

from __future__ import annotations

import numpy as np
from test_hiera_verdicts import _sgd_runs as _sgd_runs_by

from dpcompendium.chapters import hiera
from dpcompendium.chapters.hiera import verdicts
from dpcompendium.chapters.hiera.methods_registry import SGD_CODE_LABEL, SGD_TEXT_LABEL
from dpcompendium.core.comparison import runs_short
from dpcompendium.core.messages import message, method_name, myst, translate
from dpcompendium.core.tables import CELL_TEXTS_BY_LANG


def _sgd_runs(reps=12, seed=5):
    # the same runs on both datasets (test_hiera_verdicts' builder, one number of repetitions for both)
    return _sgd_runs_by({"adult": reps, "synthetic": reps}, seed)


def _small_runs(reps=12):
    rng = np.random.default_rng(5)
    values = {d: hiera.datasets.synthetic_values(d, 400, rng) for d in ("uniform", "normal")}
    runs = hiera.simulate.methods_runs(values, [0.5, 2.0], list(hiera.simulate.METHODS), reps, 11)
    return runs, hiera.simulate.summarize_mae(runs, "method")


def test_experiment_3_names_the_text_s_budgets_apart_from_the_source_s():
    """A4: experiment 3's HierA runs the text's budgets {2ε, …, ε}; its arms, leads, tallies and tag said "HierA
    (source's budgets)", the label experiment 2 and the code's variants use for {5ε, …, ε}. Each budget has its own
    label now, in every language, and experiment 2 keeps its own."""
    table = verdicts.sgd_comparisons(_sgd_runs(), pairs=(("hiera", "harmony"), ("hiera", "pm")))
    for r in table["result"]:
        assert str(r.comparison.a.name) == SGD_TEXT_LABEL
        assert myst(r.comparison.a.name, "zh_CN") == "HierA（文中预算）"
    texts = [
        verdicts.sgd_hiera_lead(table, ["harmony", "pm"], 0.25, "12"),
        verdicts.tally(table, "sgd", "hiera", ["harmony", "pm"], short=False),
        verdicts.sgd_results(table)[0],
        verdicts.unequal_tag([0.25], sgd=True),
        verdicts.question_table(
            table, [("hiera", ["harmony", "pm"])], message("hiera.cap_q_hiera")
        ),
    ]
    for text in texts:
        en, zh = str(text), myst(text, "zh_CN")
        assert "source's" not in en and "source’s" not in en, en
        assert "原文的隐私预算" not in zh and "原文隐私预算" not in zh, zh
        assert "text's budgets" in en and "文中预算" in zh, (en, zh)
    assert "HierA (text's budgets) against" in str(texts[1])
    # experiment 2 and the code's variants: {5ε, …, ε}
    assert "HierA (source's budgets)" in str(verdicts.unequal_tag([0.5, 1.0], sgd=False))
    assert method_name("hiera", "en") == "HierA (source's budgets)"
    assert translate(SGD_CODE_LABEL, "zh_CN") == "HierA（原文代码的预算）"
    assert translate(SGD_TEXT_LABEL, "zh_CN") == "HierA（文中预算）"
    assert SGD_CODE_LABEL != SGD_TEXT_LABEL != method_name("hiera", "en")


def test_the_graded_arm_has_one_name_in_its_legend():
    """T3: the graded arm was "HierA, graded guarantee" in the tables, "HierA, graded bound" in the legend (zh 分级上界)
    and "graded HierA" in prose: the legend now uses the tables' name."""
    from dpcompendium.core.plotting import method_style

    label = method_style("hiera-graded")["label"]
    assert label == method_name("hiera-graded", "en") == "HierA, graded guarantee"
    assert translate(label, "zh_CN") == method_name("hiera-graded", "zh_CN") == "HierA（分级保证）"


def test_sgd_lead_is_a_sentence_with_one_bracket():
    """S9 (shared): "At ε = 0.25, the K-fold MSE in the 46 comparisons below (…)…, one table per question" had no
    predicate; reader: its two brackets "(23 pairs …) (not equal privacy …)" stood side by side. It says what is
    compared, and the tag is inside the bracket of the pairs."""
    table = verdicts.sgd_comparisons(_sgd_runs(), pairs=(("hiera", "harmony"), ("hiera", "pm")))
    text, _ = verdicts.sgd_results(table)
    en, zh = str(text), myst(text, "zh_CN")
    assert en.startswith(
        "At ε = 0.25, the K-fold MSE is compared in the 4 comparisons below (2 pairs"
    ), en
    assert ") (" not in en and "one table per question" in en
    assert "; not equal privacy: HierA (text's budgets) is private at ε = " in en
    assert en.count("not equal privacy") == 1
    assert zh.startswith(
        "下面在 ε = 0.25 时比较 K 折交叉验证的 MSE，共 4 项（2 对方法；并非同等隐私：HierA（文中预算）"
    ), zh
    assert "）（" not in zh and "每个问题一张表" in zh


def test_tuned_box_sentence_names_its_subject():
    """C1 (shared): the paragraph on the box arm began "On the box, their own clip, each at its tuned step: …",
    split from the one naming PrivUnitG, so the reader could not tell which side was lower."""
    text = message("hiera.tuned_box", tally="x", part="y")
    assert str(text).startswith("PrivUnitG against Harmony and PM on the box")
    assert myst(text, "zh_CN").startswith(
        "PrivUnitG 与在方框（它们自己的裁剪）上的 Harmony 和 PM 相比"
    )


def test_zh_captions_and_group_rules():
    """S14: "采用原文的隐私预算的 HierA" (的…的); C5: the group rules "源代码"/"原文" contrasted the source's code with
    "原文", which elsewhere is the whole source."""
    cap = myst(message("hiera.cap_q_source", eps="1"), "zh_CN")
    assert cap.startswith("使用原文隐私预算的 HierA") and "的隐私预算的" not in cap
    assert CELL_TEXTS_BY_LANG["zh_CN"]["code"] == "原文代码"
    assert CELL_TEXTS_BY_LANG["zh_CN"]["text"] == "原文文字"


def test_family_rows_flag_their_verdicts_short_of_runs():
    """Referee 19 leftover: §5.5's leads flag the verdicts short of runs (``one_against_lead(power=, family_size=)``),
    the rows of the tables under them did not. A row whose shown verdicts are short of runs, at the Holm level of
    the whole experiment, carries the flag in its verdict cell; a row without any does not."""
    runs, methods = _small_runs()
    table = verdicts.methods_comparisons(methods, runs=runs)
    grd = [(a, b) for a in ("hiera-graded", "idldp") for b in ("harmony", "pm", "hybrid")]
    cases = [
        ("graded", grd, {}),
        ("uniform", [("hiera-calibrated", b) for b in ("harmony", "pm", "hybrid")], {}),
        ("source", [("hiera", "harmony"), ("hiera", "pm")], {"by_dataset": True}),
        ("source", [("graded-laplace", "hiera")], {"by_dataset": True}),
    ]
    flagged = unflagged = 0
    for guarantee, pairs, kw in cases:
        _, tab = verdicts.families_text(table, guarantee, pairs, **kw)
        if not str(tab):
            continue
        rows = str(tab).splitlines()[1:]  # the caption, then a row per family (a card each)
        expected = []
        for a, b in pairs:
            t, _, _ = verdicts._select(table, guarantee, a, b)
            groups = t.groupby("dataset", sort=False) if kw.get("by_dataset") else [(None, t)]
            for _, g in groups:
                results = list(g["result"])
                needs = runs_short(results, 0.9, len(table))
                expected.append(any(n is not None for n in needs))
        got = [("short of runs" in row) for row in rows if "|" in row or "short" in row]
        assert sum(got) == sum(expected), (guarantee, pairs, str(tab))
        zh = myst(tab, "zh_CN")
        assert zh.count("重复次数不足") == sum(expected), zh
        flagged += sum(expected)
        unflagged += len(expected) - sum(expected)
    assert flagged and unflagged, "the small runs should give rows with and without short verdicts"


def test_a_single_candidates_lead_flags_its_verdicts_short_of_runs_as_its_rows_do():
    """Referee 20, M-1: the graded-Laplace lead (one candidate, by dataset) counted its verdicts without the flag
    that its table's rows carry; the lead now flags them at the same Holm level (the whole experiment)."""
    runs, methods = _small_runs()
    table = verdicts.methods_comparisons(methods, runs=runs)
    seen = 0
    three = ("harmony", "pm", "hybrid")
    for guarantee, pairs in [
        ("graded", [("hiera-graded", x) for x in three]),
        ("graded", [("idldp", x) for x in three]),
        ("uniform", [("hiera-calibrated", x) for x in three]),
    ]:
        lead, tab = verdicts.families_text(table, guarantee, pairs)
        results = []
        for a, b in pairs:
            t, _, _ = verdicts._select(table, guarantee, a, b)
            results += list(t["result"])
        short = [
            n
            for r, n in zip(results, runs_short(results, 0.9, len(table)), strict=True)
            if r.holds and n
        ]
        if not str(tab):
            continue
        assert ("short of runs" in str(lead)) == bool(short), str(lead)
        seen += bool(short)
    assert seen, "the small runs should give a lead with verdicts short of runs"


def _markdown() -> str:
    import json
    from pathlib import Path

    nb = json.loads(
        (Path(__file__).parents[1] / "notebooks" / "hiera.ipynb").read_text(encoding="utf-8")
    )
    cells = ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown"]
    captions = [
        str(c.get("metadata", {}).get("mystnb", {}).get("figure", {}).get("caption", ""))
        for c in nb["cells"]
    ]
    return "\n\n".join(cells + captions)


def test_the_chapter_defines_each_label_once_and_uses_it():
    """A4 and T3: the text's and the code's budgets are defined in prose where experiment 3 lists its variants; the
    graded arm is defined once and Fig. 5.3's caption names it by its label, not "the graded HierA"; the paragraph
    "What the SGD experiment shows" is split after its glued sentence (over 600 characters in the build)."""
    text = _markdown()
    assert (
        text.count('"HierA (text\'s budgets)"') == 1
        and text.count('"HierA (code\'s budgets)"') == 1
    )
    assert text.count('"HierA, graded guarantee"') == 1
    assert (
        "the graded HierA" not in text and "HierA, graded guarantee, and the IDUE mean meet" in text
    )
    assert "{glue:md}`hiera_sgd_gap:myst`.\n\nHierA with the text's budgets" in text
    assert "{glue:md}`hiera_sgd_results:myst`. Each comparison" in text
