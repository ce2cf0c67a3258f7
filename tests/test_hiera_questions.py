"""hiera (reader review 5, M1): each question of the SGD's Holm family is one plain sentence in the text — its
verdicts with their spans, the words of ``comparison.table_lead`` — above its own verdict table, whose caption says
the two-sided tests and the Holm correction over the experiment once; no paragraph repeats them."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

import pytest
from test_hiera_tuned_box import ALL, _runs

from dpcompendium.chapters.hiera import verdicts
from dpcompendium.core.messages import CATALOGUE, message

NOTEBOOK = Path(__file__).resolve().parents[1] / "notebooks" / "hiera.ipynb"
UNIFORM = ["harmony", "pm"]
#: what the tests and their correction are called, per language (the caption's words)
TESTS_WORDS = {"en": ("Holm", "two-sided"), "zh_CN": ("Holm", "双侧检验")}


@pytest.fixture(scope="module")
def table():
    return verdicts.sgd_comparisons(_runs(ALL))


def _rows(tab) -> int:
    return tab.myst.count("* - ") - 1  # the list-table's rows, its header left out


def test_the_question_tables_hold_every_comparison_once(table):
    tables = verdicts.sgd_question_tables(table, UNIFORM)
    assert set(tables) == set(verdicts.SGD_QUESTIONS)
    assert sum(_rows(t) for t in tables.values()) == len(table) == 2 * len(verdicts.SGD_PAIRS)
    for q, tab in tables.items():
        for lang, words in TESTS_WORDS.items():
            caption = tab.in_language(lang).splitlines()[0]
            assert all(w in caption for w in words), (q, lang, caption)
        assert "over every comparison of the experiment" in tab.myst.splitlines()[0]
        # reader review 6: four columns were 22-39 px wider than a phone's column; its rows are cards there, in
        # every edition
        for lang in [None, *CATALOGUE]:
            text = tab.myst if lang is None else tab.in_language(lang)
            assert ":class: dpc-generated-table dpc-cards" in text.splitlines(), (q, lang)


def test_a_question_table_lists_each_pair_with_its_datasets_together(table):
    tab = verdicts.question_table(
        table, [("privunitg", UNIFORM)], message("hiera.cap_q_pu"), power=0.9
    )
    pairs = re.findall(r"^  - (PrivUnitG, clip 1 vs [^\n]+)$", tab.myst, re.M)
    assert pairs == [pairs[0], pairs[0], pairs[2], pairs[2]] and pairs[0] != pairs[2]
    empty = verdicts.question_table(
        table.iloc[:0], [("privunitg", UNIFORM)], message("hiera.cap_q_pu")
    )
    assert not str(empty)


@pytest.mark.parametrize(
    "paragraph",
    [
        lambda t: verdicts.clip_midpoint(t),
        lambda t: verdicts.clip_half(t),
        lambda t: verdicts.clip_separation(t),
        lambda t: verdicts.step_separation(t),
        lambda t: verdicts.step_alone(t),
        lambda t: verdicts.tuned_separation(t),
        lambda t: verdicts.tuned_box(t),
        lambda t: verdicts.sgd_hiera_lead(t, UNIFORM, 0.25, "8"),
        lambda t: verdicts.sgd_tally(t, "privunitg", UNIFORM, 0.25, "8", lead=True, names=False),
    ],
)
def test_no_paragraph_says_the_tests_and_each_gives_its_verdicts_with_their_spans(table, paragraph):
    """The old paragraphs said "(two-sided tests, Holm-corrected over the experiment)" after every tally, and a
    clause on the runs short; now the verdicts come with their span of ratios, the rest is the table's."""
    text = paragraph(table)
    for lang, words in TESTS_WORDS.items():
        said = text.in_language(lang)
        assert not any(w in said for w in words), (lang, said)
    assert "short of runs" not in str(text)
    assert re.search(r"(lower|higher) in (all )?\d+ \([\d.]+(–[\d.]+)? times\)", str(text)), str(
        text
    )
    assert re.search(r"个(更低|更高)（[\d.]+(–[\d.]+)? 倍）", text.in_language("zh_CN"))


def test_the_lead_counts_each_verdict_with_its_own_span(table):
    """A question with every verdict (the tuned arms on the box here) counts each and spans each by its own rows:
    a ratio not separated is given as its interval, never inside a span of shown ones."""
    t = table.copy()
    rows = (t["a"] == "privunitg-tuned") & (t["b"] == "pm-tuned")
    t.loc[rows & (t["dataset"] == "adult"), "outcome"] = "tie"
    rs = list(t[rows & (t["dataset"] == "adult")]["result"])
    t.loc[rows & (t["dataset"] == "adult"), "result"] = [
        dataclasses.replace(r, outcome="tie") for r in rs
    ]
    text = str(
        verdicts.tally(t, "sgd", "privunitg-tuned", ["harmony-tuned", "pm-tuned"], lead=True)
    )
    assert text.startswith("PrivUnitG, clip 1, tuned step against ")
    assert "lower in 3 (" in text and "not separated in 1 (intervals within " in text


def test_the_source_design_lead_says_its_tag_once():
    """Experiment 2's source design: each pair's verdicts with their spans, HierA's tag (not equal privacy) once."""
    import pandas as pd

    rows = []
    for d in ("normal", "uniform"):
        for eps in (0.25, 1.0):
            for m, v in (("hiera", 0.5), ("harmony", 1.0), ("pm", 1.0)):
                rows.append(
                    {
                        "dataset": d,
                        "epsilon": eps,
                        "method": m,
                        "mae": v,
                        "mae_se": 0.01,
                        "reps": 20,
                    }
                )
    comparisons = verdicts.methods_comparisons(
        pd.DataFrame(rows), pairs={"source": (("hiera", "harmony"), ("hiera", "pm"))}
    )
    text = verdicts.source_lead(
        comparisons, "source", [("hiera", "harmony"), ("hiera", "pm")], max_epsilon=1.0
    )
    assert str(text).count("not equal privacy") == 1
    assert str(text).count("lower in all 4 (0.5 times)") == 2
    for lang, words in TESTS_WORDS.items():
        assert not any(w in text.in_language(lang) for w in words)
    assert set(CATALOGUE) <= set(text.by_lang)


def test_the_hiera_page_says_the_tests_only_in_captions_and_dropdowns():
    """The chapter's markdown types no "Holm" or "two-sided" outside its dropdowns, and pastes each question's
    table; its prose names no CSV file and no parameter (reader review 5, m2: those are the rerun box's)."""
    cells = json.loads(NOTEBOOK.read_text())["cells"]
    text = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
    prose = re.sub(r":::\{dropdown\}.*?\n:::", "", text, flags=re.S)
    prose = re.sub(r"^## Exercises.*", "", prose, flags=re.S | re.M)
    assert "Holm" not in prose and "two-sided" not in prose
    for q in verdicts.SGD_QUESTIONS:
        assert f"```{{glue:md}} hiera_q_{q}_table" in text
    assert "```{glue:md} hiera_source_table" in text
    paragraphs = [
        p for p in prose.split("\n\n") if not p.lstrip().startswith(("|", "```", ":::", "#"))
    ]
    for p in paragraphs:
        assert not re.search(r"`[\w.]+\.csv`", p), p[:120]
        assert not re.search(r"`(lr_power|step_grid|adult_tune_reps|sgd_tune_reps)`", p), p[:120]
