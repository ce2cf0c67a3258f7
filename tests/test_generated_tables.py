"""Generated enumerations read like a book (issue 49, F2): a family of three or more items is one sentence and a
table (``messages.table``, ``comparison.families_text``/``families_table``), fewer stay in the sentence, and no
generated paragraph is longer than :data:`MAX_PARAGRAPH` characters.

The longest paragraphs the chapters glued before (1 500–2 000 characters) came from families of comparisons joined
in one sentence; the largest family the chapters build is histograms' DAWA against DPBench's DAWA (two methods,
35 settings, sparse and dense: four families). The tests build families of that size.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

from dpcompendium import PrivacyClaim
from dpcompendium.core import messages
from dpcompendium.core.comparison import (
    Arm,
    Comparison,
    families_sentence,
    families_table,
    families_text,
    family_sentence,
    family_table,
    holm,
)
from dpcompendium.core.comparison import _num as prose_num
from dpcompendium.core.messages import TABLE_FROM, Md, message, table

#: The longest generated paragraph a chapter may glue (MyST characters, maths markup included): about four lines
#: of the book's column, what a lead sentence with its numbers takes; a longer text is an enumeration to tabulate.
MAX_PARAGRAPH = 600

CLAIM = PrivacyClaim("m", "replace-one", "1", 1.0)
NOT_PRIVATE = PrivacyClaim(
    "m", "replace-one", "1", 1.0, private=False, why="no budget for its partition"
)


def _family(a, b, means_b, relation="tie", seed=0, claim_b=CLAIM, runs=20):
    """A Holm family of ``a`` against ``b`` over settings (one per mean of ``b``; ``a``'s mean is 1)."""
    rng = np.random.default_rng(seed)
    results = []
    for i, mb in enumerate(means_b):
        arm_a = Arm.of(a, CLAIM, rng.exponential(1.0, runs))
        arm_b = Arm.of(b, claim_b, rng.exponential(mb, runs))
        results.append(
            Comparison(
                "MSE",
                arm_a,
                arm_b,
                relation,
                1.1 if relation != "tie" else 1.0,
                setting=f"s{i}, ε = 1",
            ).result()
        )
    return holm(results)


def _families(m, settings=35):
    means = np.linspace(0.05, 1.5, settings)
    return [
        (Md(f"family {i}"), _family(f"method{i}", "reference", means, seed=i, claim_b=NOT_PRIVATE))
        for i in range(m)
    ]


def _visible(text: str) -> str:
    """A MyST text as a reader counts it: maths delimiters and commands dropped."""
    return re.sub(r"\\[a-zA-Z]+|[$]", "", text)


def test_a_table_is_a_myst_list_table_in_every_language():
    t = table([message("comparison.col_family"), "x"], [[Md("a", "$a$"), 1.5], ["b|c", "2"]])
    for lang in messages.CATALOGUE:
        text = t.in_language(lang)
        assert text.startswith("```{list-table}\n:header-rows: 1") and text.endswith("```")
        assert text.count("\n* - ") == 3 and "  - b|c" not in text.split("\n")[0]
    assert "$a$" in t.myst and "检验族" in t.in_language("zh_CN")
    assert str(t).splitlines() == ["family | x", "a | 1.5", "b|c | 2"]
    with pytest.raises(ValueError, match="rows must have 2 cells"):
        table(["a", "b"], [["1"]])
    with pytest.raises(ValueError, match="rows must hold at least one row"):
        table(["a"], [])


def test_a_tables_caption_is_its_list_tables_title_in_every_language():
    """A generated table of results carries a caption, which the book numbers (reader review 3, M4); the comparison
    object's tables give theirs by default."""
    t = table(["a"], [["1"]], caption=message("comparison.cap_families"))
    for lang in messages.CATALOGUE:
        first = t.in_language(lang).split("\n")[0]
        assert first.startswith("```{list-table} ") and len(first) > len("```{list-table} ") + 5
    assert "检验族" in t.in_language("zh_CN").split("\n")[0]
    with pytest.raises(ValueError, match="caption must hold text"):
        table(["a"], [["1"]], caption=" ")
    fams = _families(4)
    assert families_table(fams).myst.startswith("```{list-table} Verdicts by family")
    mine = families_table(fams, caption=Md("Mine"))
    # the tests and their correction follow the caption given, said once (reader review 4, M2)
    assert mine.myst.startswith(
        "```{list-table} Mine (two-sided tests, each family Holm-corrected over its settings, none across them)\n"
    )


def test_one_family_is_a_captioned_one_row_table_with_the_row_families_table_gives_it():
    """Reader review 3, M2: one family's tally goes to a one-row table beside a plain sentence; its row is the one
    :func:`families_table` gives the family among others (label, arms, verdict, ratios), in every language."""
    fams = _families(TABLE_FROM)
    label, results = fams[1]
    one = family_table(label, results, caption=Md("One family"))
    rows = str(one).splitlines()
    assert len(rows) == 2 and rows[1] in str(families_table(fams)).splitlines()
    assert one.myst.startswith("```{list-table} One family\n")
    for lang in messages.CATALOGUE:
        assert one.in_language(lang).count("\n* - ") == 2
    assert family_table(label, results).myst.startswith("```{list-table} Verdicts by family")
    with pytest.raises(ValueError, match="at least one comparison"):
        family_table(label, [])


@pytest.mark.parametrize("m", [1, 2])
def test_fewer_families_than_a_table_stay_in_the_sentence(m):
    fams = _families(m, settings=5)
    text = families_text(fams)
    for label, results in fams:
        assert str(family_sentence(results)) in str(text) and str(label) in str(text)
    assert str(families_table(fams)) == "" and all(
        v == "" for v in families_table(fams).by_lang.values()
    )


def test_many_families_are_one_sentence_and_a_table_that_keeps_every_number():
    fams = _families(4)
    assert len(fams) >= TABLE_FROM
    lead, tab = families_text(fams), families_table(fams)
    assert str(lead) == str(families_sentence(fams))
    # the lead: one plain sentence (reader review 4, M2) — the arms, the span of the ratios, the table's size and
    # how the verdicts fall, counts of zero left out; the caveat once; the tests and their correction only in the
    # table's caption, said once
    assert "Holm" not in str(lead) and str(lead).count("not private") == 1
    assert (
        tab.myst.count("Holm-corrected") == 1 and "(two-sided tests, " in tab.myst.splitlines()[0]
    )
    total = sum(len(r) for _, r in fams)
    lower = sum(r.outcome == "better" for _, rs in fams for r in rs)
    higher = sum(r.outcome == "worse" for _, rs in fams for r in rs)
    counted = [
        f"{w} in {k}"
        for w, k in (
            ("lower", lower),
            ("higher", higher),
            ("not separated", total - lower - higher),
        )
        if k
    ]
    assert f"over the {total} settings of the {len(fams)} families below: " in str(lead)
    counts_only = re.sub(r" \((?:intervals within [^()]*|[^()]* times)\)", "", str(lead))
    assert (
        " and ".join(counted)
        if len(counted) < 3
        else f"{counted[0]}, {counted[1]} and {counted[2]}"
    ) in counts_only
    # each count with its span (referee 16, V1): the ratios of the rows shown, the intervals of those not separated
    shown = [r.ratio for _, rs in fams for r in rs if r.outcome != "tie"]
    ties = [r for _, rs in fams for r in rs if r.outcome == "tie"]
    if shown and all(r.outcome == "worse" for _, rs in fams for r in rs if r.outcome != "tie"):
        assert f"({prose_num(min(shown))}–{prose_num(max(shown))} times)" in str(lead)
    if ties:
        lo, hi = min(r.lo for r in ties), max(r.hi for r in ties)
        assert f"(intervals within {prose_num(lo)}–{prose_num(hi)})" in str(lead)
    # the table: a row per family with every number family_sentence said of it
    rows = str(tab).splitlines()[1:]
    assert len(rows) == len(fams)
    for row, (label, results) in zip(rows, fams, strict=True):
        said = family_sentence(results)
        numbers = set(re.findall(r"\d+(?:\.\d+)?", str(said))) - {"1"}  # the caveat's ε
        assert str(label) in row and numbers <= set(re.findall(r"\d+(?:\.\d+)?", row)), (row, said)
    for lang in messages.CATALOGUE:
        assert len(_visible(lead.in_language(lang))) <= MAX_PARAGRAPH, lang


def test_the_old_sentence_of_the_largest_family_was_too_long_for_a_paragraph():
    """The test can fail: the four families said in one sentence (what histograms glued) exceed the limit."""
    fams = _families(4)
    joined = messages.join([family_sentence(r) for _, r in fams], "; ")
    assert len(_visible(joined.myst)) > MAX_PARAGRAPH


def test_a_family_table_s_verdicts_are_the_comparison_object_s_words():
    fams = [
        (Md("ni"), _family("a", "b", [0.9, 1.0, 1.2], "non-inferiority")),
        (Md("sup"), _family("a", "b", [2.0, 3.0, 4.0], "superiority")),
        (Md("eq"), _family("a", "b", [1.0, 1.0, 1.05], "equivalence")),
    ]
    rows = str(families_table(fams)).splitlines()[1:]
    assert "at most 10 % worse in" in rows[0]
    assert "beats in" in rows[1]
    assert "matches within a factor 1.1 in" in rows[2]
    assert "shown in" in str(families_sentence(fams))


def test_rankings_by_setting_are_a_winner_sentence_and_a_table():
    from dpcompendium.core.comparison import ranking, rankings_text, winner_sentence

    rng = np.random.default_rng(3)
    rankings = [
        ranking(
            f"d, ε = {e}",
            "MSE",
            [
                Arm.of(m, CLAIM, rng.exponential(mu, 30))
                for m, mu in (("x", 1.0), ("y", s), ("z", 3.0))
            ],
        )
        for e, s in ((0.1, 1.0), (1, 0.2), (10, 5.0), (100, 1.1))
    ]
    settings = [((Md("d"), str(e)), r) for e, r in zip((0.1, 1, 10, 100), rankings, strict=True)]
    text, tab = rankings_text("MSE", settings, ["dataset", "ε"])
    assert str(text) == str(winner_sentence("MSE", rankings))
    rows = str(tab).splitlines()
    assert rows[0] == "dataset | ε | lowest MSE" and len(rows) == 1 + len(rankings)
    for row, r in zip(rows[1:], rankings, strict=True):
        assert row.endswith(str(r.cell())) and all(w in row for w in r.winners)
        assert ("not separated" in row) == r.tie
    short, none = rankings_text("MSE", settings[:2], ["dataset", "ε"])
    assert str(none) == "" and all(str(r.sentence()) in str(short) for _, r in settings[:2])


def long_glued(nb, limit: int = MAX_PARAGRAPH) -> dict[str, int]:
    """The glued generated texts of an executed notebook ``nb`` (every language) longer than ``limit`` visible
    characters, key → length; a glued table (:func:`~dpcompendium.core.messages.table`) is no paragraph."""
    out = {}
    for cell in nb.cells:
        for o in cell.get("outputs", []):
            key = o.get("metadata", {}).get("scrapbook", {}).get("name")
            text = next(
                (v for k, v in o.get("data", {}).items() if key and k.endswith("text/markdown")),
                None,
            )
            if text is None or text.startswith("```{list-table}"):
                continue
            if len(_visible(text)) > limit:
                out[key] = len(_visible(text))
    return out


#: Glued texts still longer than :data:`MAX_PARAGRAPH` in the book's run, each with why (issue 49, PENDING: a claim
#: statement is F1's, the chapters' authored summaries; the others are single verdict sentences, no enumeration of
#: three or more items, or enumerations built by a chapter's own f-strings not converted yet). A key that no longer
#: needs its exception fails the test until it is removed here.
LONG_PARAGRAPHS: dict[str, str] = {
    "fedpca_subspace_claim": "a claim statement with its conditions (F1, the chapters' authored summaries: another scope)",
    "fedpca_energy_design": "one family's design sentence (no enumeration of three or more: its own clauses)",
    "hiera_table_methods": "the claims table's cell of 'HierA is more accurate than …': one clause per candidate "
    "and ε range (referee 19, N-2), a table cell, not a paragraph",
    "hiera_table_graded": "the claims table's cell of the graded bound's row: one clause per candidate and "
    "comparator, each count with its short-of-runs flag (referee 20, M-1, L-1), a table cell, not a paragraph",
    "fedpca_svm_design": "the claims table's cell (design sentence and short verdicts); the dropdown reads "
    "fedpca_svm_design_alone and fedpca_svm_short, each below the limit",
}


@pytest.mark.book
@pytest.mark.parametrize(
    "chapter", ["dp-mean", "federated-pca", "hiera", "histograms", "mwem", "privacy-audit"]
)
def test_no_glued_paragraph_of_the_book_s_run_is_longer_than_max(chapter):
    """The book's execution of each chapter (the execution store of ``dpcompendium book``) glues no generated
    paragraph longer than :data:`MAX_PARAGRAPH` visible characters, but the exceptions named above."""
    import nbformat

    from dpcompendium.book.execution import DEFAULT_STORE
    from dpcompendium.core.paths import repo_root

    path = repo_root() / DEFAULT_STORE / f"{chapter}.ipynb"
    assert path.exists(), f"no execution of {chapter} in {path.parent}: build the book first"
    unexpected, stale = long_paragraph_problems(chapter, nbformat.read(path, as_version=4))
    assert not unexpected, unexpected
    assert not stale, (
        f"no longer over {MAX_PARAGRAPH} characters, remove from LONG_PARAGRAPHS: {stale}"
    )


#: The prefix of each chapter's glue keys (an exception of :data:`LONG_PARAGRAPHS` belongs to its chapter).
KEY_PREFIX = {
    "dp-mean": ("dpmean_",),
    "federated-pca": ("fedpca_",),
    "hiera": ("hiera_",),
    "histograms": ("hist_",),
    "mwem": ("mwem_",),
    "privacy-audit": ("audit_", "bench_"),
}


def long_paragraph_problems(chapter: str, nb) -> tuple[dict[str, int], list[str]]:
    """(glued texts of ``nb`` over the limit that are no named exception, exceptions of ``chapter`` no longer
    over it)."""
    found = long_glued(nb)
    base = {k.split("__")[0] for k in found}
    unexpected = {k: v for k, v in found.items() if k.split("__")[0] not in LONG_PARAGRAPHS}
    mine = {k for k in LONG_PARAGRAPHS if k.startswith(KEY_PREFIX[chapter])}
    return unexpected, sorted(mine - base)


def test_the_design_of_several_families_is_one_sentence_and_a_table():
    from dpcompendium.core.comparison import design_figures, design_sentence, design_text

    fams = [
        (Md("a"), _family("x", "y", [0.5, 1, 1.02, 2])),
        (Md("b"), _family("x", "y", [1, 1, 1.01], seed=2)),
        (Md("c"), _family("x", "y", [0.3, 3], seed=3)),
    ]
    text, tab = design_text(fams)
    figures = [design_figures(r) for _, r in fams]
    shown = sum(f["shown"] for f in figures)
    assert f"{shown} of the 9 verdicts of these 3 families are shown with 20 runs per arm" in str(
        text
    )
    assert "a check after the fact" in str(text) and len(_visible(text.myst)) <= MAX_PARAGRAPH
    for row, (label, results), f in zip(str(tab).splitlines()[1:], fams, figures, strict=True):
        cells = row.split(" | ")
        assert cells[:3] == [str(label), str(f["runs"]), f"{f['shown']} of {f['n']}"]
        said = str(design_sentence(results))  # the band it states is in the row
        for number in re.findall(r"outside (\d+(?:\.\d+)?–\d+(?:\.\d+)?)", said):
            assert number in row, (number, row)
    short, none = design_text(fams[:2])
    assert str(none) == "" and str(design_sentence(fams[0][1])) in str(short)


#: A code identifier, a Python constant or an ASCII budget name in a sentence (reader review F4): ``scale_to_unit``,
#: ``ADULT\_RANGES``, ``True``, ``eps0``.
CODE_WORD = re.compile(r"\b[A-Za-z]+(?:\\?_[A-Za-z0-9]+)+\b|\b(?:True|False|None|eps0|eps)\b")


@pytest.mark.parametrize("lang", sorted(messages.CATALOGUE))
def test_no_generated_sentence_names_code(lang):
    """The sentences the catalogue renders (but figure texts, which name the code an audit runs) say words and
    maths, not identifiers: outside ``$…$`` and placeholders no snake_case name, no ``True``/``False``/``None``,
    no ``eps``/``eps0``."""
    found = {}
    for msgid, template in messages.CATALOGUE[lang].items():
        if msgid.startswith("figure."):
            continue
        text = re.sub(r"%\(\w+\)s", "", re.sub(r"\$.*?\$", "", template))
        if CODE_WORD.search(text):
            found[msgid] = CODE_WORD.findall(text)
    assert not found
    assert CODE_WORD.findall(r"(ldp.datasets.scale\_to\_unit; Adult: ADULT_RANGES) is True") == [
        r"scale\_to\_unit",
        "ADULT_RANGES",
        "True",
    ]
