"""The helpers that turn a run's numbers into the chapters' prose (dpcompendium.book.prose)."""

from __future__ import annotations

import math
import re

import pytest

from dpcompendium.book import prose


@pytest.mark.parametrize(
    ("x", "digits", "text"),
    [
        (0.012345, 3, "0.0123"),
        (12345.0, 3, "12300"),
        (2.5e7, 3, "2.5e+07"),
        (math.nan, 3, "n/a"),
        (math.inf, 3, "∞"),
        (-math.inf, 3, "−∞"),
        (1.0, 2, "1"),
    ],
)
def test_num_prints_significant_figures_as_the_headline_cells(x, digits, text):
    assert prose.num(x, digits) == text


def test_num_sets_a_negative_number_with_a_true_minus_on_the_page():
    # reader review 4, m11: "mean difference -0.00084" printed a hyphen for the minus sign
    assert prose.num(-0.00084, 2).myst == "−0.00084"
    assert prose.num(-0.00084, 2) == "-0.00084"  # the plain text, as the headline cells print it
    assert prose.num(0.5).myst == "0.5"


def test_span_collapses_equal_ends_and_skips_nan():
    assert prose.span([8.9, 19.0, math.nan]) == "8.9–19"
    assert prose.span([2.0001, 2.0002]) == "2"
    assert prose.span([math.nan]) == "n/a"


@pytest.mark.parametrize(
    ("n", "noun", "many", "text"),
    [
        (1, "repetition", None, "1 repetition"),
        (0, "repetition", None, "0 repetitions"),
        (5, "repetition", None, "5 repetitions"),
        (1, "query", "queries", "1 query"),
        (3, "query", "queries", "3 queries"),
    ],
)
def test_plural_agrees_with_its_number(n, noun, many, text):
    assert prose.plural(n, noun, many) == text


def test_guarded_says_when_the_run_differs_from_the_default():
    assert prose.guarded(True, "it holds", "it fails.") == "it holds"
    note = prose.guarded(False, "it holds", "it fails.")
    assert note.startswith(prose.NOTE) and "it fails (" in note and not note.endswith(".")


@pytest.mark.parametrize(
    "instead", ["it fails.", "it fails. ", "it fails .", "it fails\n", "it fails..."]
)
def test_a_guarded_note_has_no_space_before_the_sentence_s_full_stop(instead):
    """ "(unlike the book's default run) ." (issue 49): whatever the found text ends with, the note ends with its own
    parenthesis, and the sentence around the paste ("{glue:md}`key:myst`.") reads "… run)." in each language."""
    from dpcompendium.core.messages import Md

    for found in (
        instead,
        Md(instead),
        Md(instead, instead, {"zh_CN": instead.replace(".", "。")}),
    ):
        note = prose.guarded(False, "it holds", found)
        for lang in ("en", "zh_CN"):
            text = note.in_language(lang) + "."
            assert not re.search(r"\s[.。)）]|\.\s*[(（]", text), (lang, text)
        assert str(note).endswith("(unlike the book's default run)"), str(note)
