"""Native review 8 (the zh edition) and reader review items in the chapters histograms, dp-mean and federated-pca:
the templates, labels and formats the glue uses, called with small inputs."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import dpcompendium.chapters  # noqa: F401  (registers the chapters' methods)
from dpcompendium.chapters import dp_mean, federated_pca, histograms
from dpcompendium.core import tables
from dpcompendium.core.comparison import Arm, ranking
from dpcompendium.core.figure_messages import FIGURE_MESSAGES
from dpcompendium.core.messages import CATALOGUE, language, message, translate
from dpcompendium.core.privacy import PrivacyClaim

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"
CLAIM = PrivacyClaim("m", "replace-one", "1", 1.0)


def _source(chapter: str) -> str:
    nb = json.loads((NOTEBOOKS / f"{chapter}.ipynb").read_text(encoding="utf-8"))
    return "\n".join("".join(c["source"]) for c in nb["cells"])


# T4: DAWA's variants in Tables 2.5 and 2.13 are named as the prose and Table 2.15 name them
def test_dawa_variant_labels_match_the_prose():
    df = pd.DataFrame(
        {
            "method": ["dawa", "dawa", "dawa", "php", "identity"],
            "variant": ["private", "repaired", "dpbench", "private", "private"],
            "mse": [1.0, 2.0, 3.0, 4.0, 5.0],
        }
    )
    out = histograms.variant_labels(df)
    assert list(out["variant"]) == [
        "partition on a noisy histogram",
        "partition on privately-noised costs, repaired",
        "dpbench",
        "private",
        "private",
    ]
    assert df["variant"].iloc[0] == "private"  # the input is left as it is
    by_index = histograms.variant_labels(df.set_index(["method", "variant"]))
    assert ("dawa", "partition on privately-noised costs, repaired") in by_index.index
    with language("zh_CN"):
        assert tables._cell_translation("partition on a noisy histogram") == "在加噪直方图上划分"
        assert (
            tables._cell_translation("partition on privately-noised costs, repaired")
            == "在加噪代价上划分，经修补"
        )
    src = _source("histograms")
    assert src.count("histograms.variant_labels(") == 2
    with pytest.raises(ValueError, match="variant"):
        histograms.variant_labels(df[["mse"]])


# S6: a count of 0 is said as a negation, in both editions
def test_no_private_dawa_first_is_a_negation():
    none = histograms.dpbench_sentence(3, 5, 14, 0, "V.")
    assert "in any setting" in str(none) and " in 0" not in str(none)
    zh = none.in_language("zh_CN")
    assert "在任何参数组合中都没有排到第一" in zh and "在 0 个" not in zh
    some = histograms.dpbench_sentence(3, 5, 14, 2, "V.")
    assert "among the private methods in 2." in str(some)
    assert "在 2 个参数组合中" in some.in_language("zh_CN")
    assert "histograms.dpbench_sentence(" in _source("histograms")


# S11: one rejection in the singular, in both editions
def test_one_false_rejection_is_singular():
    one = dp_mean.check_sentence(1, 66, "S")
    assert "this one rejection is a false rejection" in str(one) and "each is" not in str(one)
    assert "这一次区分是错误拒绝" in one.in_language("zh_CN")
    assert "其中任何一个" not in one.in_language("zh_CN")
    many = dp_mean.check_sentence(2, 66, "S")
    assert "so each is a false rejection" in str(many)
    assert str(dp_mean.check_sentence(0, 66, "S")).startswith("is consistent")
    assert str(dp_mean.check_sentence(0, 0, "S")) == str(message("dpmean.no_large_cells"))
    assert "dp_mean.check_sentence(" in _source("dp-mean")
    for lang in ("en", "zh_CN"):
        for key in ("", "_cap", "_boot"):
            assert "comparison.design_null_one" + key in CATALOGUE[lang]
    assert "这次拒绝是错误拒绝" in CATALOGUE["zh_CN"]["comparison.design_null_one"]


# U1: two formulas in a Chinese sentence are joined with 、; the CoinPress cell is glued from the template
def test_cell_formulas_are_joined_with_the_enumeration_comma():
    cell = message("dpmean.cell", n="1000", eps="1")
    assert cell.in_language("zh_CN") == "$n = 1000$、$\\varepsilon = 1$"
    assert str(cell) == "n = 1000, ε = 1"
    src = _source("dp-mean")
    assert '"n = 1000, ε = 1"' not in src
    assert '"dpmean_cp_at", message("dpmean.cell"' in src


# U2: interval cells in zh use full-width brackets; comma-grouped integers become narrow-space grouped in zh
def test_interval_cells_and_thousands_per_edition():
    assert tables.interval(6.46, 5.6, 7.45) == "6.46 (5.6–7.45)"
    with language("zh_CN"):
        assert tables.interval(6.46, 5.6, 7.45) == "6.46（5.6–7.45）"
        assert tables.interval(2190, 1790, 2660) == "2\u202f190（1\u202f790–2\u202f660）"
        assert tables.interval(6.46, float("nan"), 7.45) == "6.46"
    m = message("dpmean.cell", n="65,536", eps="1")
    assert m.in_language("zh_CN").startswith("$n = 65\u202f536$")
    assert str(m).startswith("n = 65,536")
    assert m.in_language("en").startswith("$n = 65,536$")


# U3: a space between Chinese and Latin in histograms' captions
def test_histogram_captions_space_chinese_and_latin():
    with language("zh_CN"):
        cap = translate("Mean MSE on ADULT per method and ε")
    assert cap is not None and "ADULT 上" in cap
    texts = [z for _, _, z in FIGURE_MESSAGES]
    assert not any("的MSE" in t or "s上各方法" in t for t in texts)


# C4: the caption of Table 1.11 says where the verdicts are (the table has no verdict column)
def test_coinpress_caption_points_to_the_verdicts():
    src = _source("dp-mean")
    assert "given in the sentence above the table" in src
    texts = [z for _, _, z in FIGURE_MESSAGES]
    assert any("（判定见表前的句子）" in t for t in texts)


# C6: the nominal ε and δ once: the bracket only where no lead has given them
def test_coalition_sentence_gives_the_nominal_budget_once():
    args = dict(
        sites=50, eps="6.81", nominal="1", exact0="0.797", first="7.07", one="0.806", cape="1.14"
    )
    lead = federated_pca.coalition_sentence(**args)
    full = federated_pca.coalition_sentence(**args, delta="3.07e-07")
    assert "Adult" not in str(lead) and "δ" not in str(lead)
    assert "(Adult, δ = 3.07e-07)" in str(full)
    assert "（Adult" not in lead.in_language("zh_CN") and "（Adult 数据，" in full.in_language(
        "zh_CN"
    )
    assert "c = 49" in str(lead)
    src = _source("federated-pca")
    assert "{glue:md}`fedpca_coalition_lead:myst`" in src
    assert "{glue:md}`fedpca_coalition_text:myst` |" in src  # the claims table keeps the bracket


# S13: the opening paragraph ends with a lead-in to its list
def test_federated_pca_opening_leads_into_its_list():
    assert "This chapter does the following:\n\n- implements" in _source("federated-pca")


# S7, S8: DPBench's three findings as three clauses; a setting's first place without colons of its own
def test_small_signal_items_have_no_colons():
    rng = np.random.default_rng(3)
    arms = [
        Arm.of(m, CLAIM, rng.exponential(mu, 30)) for m, mu in (("x", 1.0), ("y", 1.0), ("z", 50.0))
    ]
    r = ranking("s", "MSE", arms)
    item = histograms.first_place(r, "1")
    assert ":" not in str(item) and "：" not in item.in_language("zh_CN")
    assert str(item).startswith("at ε = 1 ")
    assert histograms.first_place(r, "1", "ADULT").in_language("zh_CN").startswith("ADULT 上")
    rest = message("hist.sparse_small_rest_on", data="ADULT", items=item)
    assert rest.in_language("zh_CN").count("：") == 0 and "但仅在 ADULT 上（" in rest.in_language(
        "zh_CN"
    )
    src = _source("histograms")
    assert "are three (in its words):\nno method" in src
    assert "; by $\\varepsilon$: {glue:md}`hist_best_sparse" not in src


# reader review (issue 49): the Hb bullet says each set of budgets once
def test_grouped_budgets_say_each_set_once():
    text = histograms.grouped_budgets(
        {"HEPTH": [0.01, 0.1], "INCOME": [0.01, 0.1], "SEARCHLOGS": [0.01, 0.1], "X": []}
    )
    assert text == "on HEPTH, INCOME and SEARCHLOGS at ε ∈ {0.01, 0.1}"
    assert text.count("ε ∈") == 1
    two = histograms.grouped_budgets({"HEPTH": [0.01], "INCOME": [0.01, 0.1]})
    assert two == "on HEPTH at ε ∈ {0.01}, on INCOME at ε ∈ {0.01, 0.1}"
    assert "histograms.grouped_budgets(first_eps[m])" in _source("histograms")


# reader review (issue 49): the summary's ε list is in maths as the ε beside it, in both editions
def test_summary_fix_writes_epsilon_in_maths():
    m = message(
        "hist.sum_fix",
        cost="C",
        margin_note="N",
        uppers="1.1, 1.2",
        eps="0.3, 3",
        pct="10 %",
        shown_at=histograms.budgets_md(2, 2),
        flag="",
    )
    for lang in ("en", "zh_CN"):
        text = m.in_language(lang)
        assert "$\\varepsilon$ = 0.3" in text and "ε =" not in text
    assert "at ε = 0.3, 3" in str(m)


# reader review (issue 49): wide tables of text are cards on a phone
def test_wide_tables_are_cards_on_a_phone():
    df = pd.DataFrame({"comparison": ["a vs b"], "ratio": [1.5]})
    assert "dpc-cards" in tables.ReadableTable(df, cards=True)._repr_html_()
    assert "dpc-cards" not in tables.ReadableTable(df)._repr_html_()
    assert "cards=True" in _source("dp-mean")
    assert "comparison.families_table(dawa_families, cards=True)" in _source("histograms")
    rng = np.random.default_rng(5)
    from dpcompendium.core.comparison import Comparison, families_table, holm

    fams = []
    for label in ("f1", "f2", "f3", "f4"):
        fam = holm(
            [
                Comparison(
                    "MSE",
                    Arm.of("a", CLAIM, rng.exponential(1.0, 30)),
                    Arm.of("b", CLAIM, rng.exponential(3.0, 30)),
                    "tie",
                ).result()
                for _ in range(2)
            ]
        )
        fams.append((label, fam))
    assert "dpc-cards" in families_table(fams, cards=True).myst
    assert "dpc-cards" not in families_table(fams).myst


def test_flat_check_table_is_cards():
    import inspect

    from dpcompendium.chapters.federated_pca import experiments

    assert "table(head, body, caption, cards=True)" in inspect.getsource(experiments.flat_table)
