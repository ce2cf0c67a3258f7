"""Verdict paragraphs become one plain sentence and a table (reader review 5, M1).

mwem's AIM block and federated-pca's §4.6.1.x read "A and B differ in error in all 4 settings (two-sided tests,
Holm-corrected; ratios …) (A lower in 4 and higher in 0 of the 4)", one such sentence per family. Now a family
beside a table is led by ``table_lead`` (``grid_text``: families side by side), a family without one is said by
``verdict_sentence``, and the tests and their correction are said once, in the table's caption.
"""

from __future__ import annotations

import pytest
from _families import two_arm_results

import dpcompendium.chapters  # noqa: F401  (registers the chapters' methods)
from dpcompendium.core.comparison import (
    family_sentence,
    grid_text,
    holm,
    labelled_verdicts,
    verdict_sentence,
    verdict_tally,
)
from dpcompendium.core.messages import CATALOGUE, message

#: what the old family sentence said, and no plain sentence may
OLD = ("Holm", "two-sided", "lower in 4 and higher in 0", " in 0", "differ in")


_results = two_arm_results


def test_a_family_without_a_table_is_one_plain_sentence():
    fam = holm(_results([2.0, 2.2, 1.9, 2.5]))
    ratios = [r.ratio for r in fam]
    said = str(verdict_sentence(fam))
    assert said == (
        "the error of first against that of second in 4 settings: lower in all 4 "
        f"({min(ratios):.3g}–{max(ratios):.3g} times)"
    )
    old = str(family_sentence(fam))  # the sentence it replaces carried the test and a count of zero
    assert "Holm" in old and "lower in 4 and higher in 0" in old
    for word in OLD:
        assert word not in said, word
    zh = verdict_sentence(fam).in_language("zh_CN")
    assert "Holm" not in zh and "全部 4 个更低" in zh and "下表" not in zh


def test_the_tally_counts_only_what_is_there():
    fam = holm(_results([2.0, 1.0, 0.5], seed=3))
    outcomes = [r.outcome for r in fam]
    assert outcomes.count("better") and outcomes.count("worse")
    plain = str(verdict_tally(fam, spans=False))
    assert plain.startswith(f"lower in {outcomes.count('better')}")
    assert f"higher in {outcomes.count('worse')}" in plain
    assert "times" not in plain and "times" in str(verdict_tally(fam))


def test_verdict_sentence_refuses_two_pairs_and_an_empty_family():
    two = holm(_results([2.0]) + _results([2.0], a="third"))
    with pytest.raises(ValueError, match="one pair"):
        verdict_sentence(two)
    with pytest.raises(ValueError, match="at least one"):
        verdict_sentence([])


def test_one_pair_in_several_families_is_one_plain_sentence_with_each_family_after_its_label():
    """Reader review 6, A: dp-mean's families per dataset and histograms' sparse and dense halves read "A beats B
    in k of n settings (Holm-corrected; …)" once per family. Now the pair is named once and each family's verdicts
    follow its label, with their spans, and no test or correction is named."""
    heights = holm(_results([2.0, 2.2, 1.9], seed=1))
    ages = holm(_results([1.0, 1.0], seed=2, runs=30))
    assert [r.outcome for r in heights] == ["better"] * 3 and [r.outcome for r in ages] == [
        "tie"
    ] * 2
    said = str(labelled_verdicts([("heights", heights), ("ages", ages)]))
    assert said.startswith(
        "the error of first against that of second: for heights, in 3 settings, "
    )
    assert said.count("first against that of second") == 1
    assert (
        "lower in all 3 (" in said
        and "for ages, in 2 settings, not separated in all 2 (intervals within" in said
    )
    for word in OLD:
        assert word not in said, word
    zh = labelled_verdicts([("heights", heights), ("ages", ages)]).in_language("zh_CN")
    assert "Holm" not in zh and "全部 3 个更低" in zh and "；" in zh
    with pytest.raises(ValueError, match="one pair"):
        labelled_verdicts([("x", heights), ("y", holm(_results([2.0], a="third")))])
    with pytest.raises(ValueError, match="at least one"):
        labelled_verdicts([])


#: the templates of the verdict sentences of dp-mean (§1.3, §1.5.3, §1.6) and histograms (§2.4.5), and of the
#: dropdowns that say their tests once
PLAIN_TEMPLATES = (
    "dpmean.take_stair",
    "dpmean.check_consistent",
    "dpmean.check_false",
    "hist.privtree",
    "hist.privtree_differ",
    "hist.hdmm",
    "comparison.labelled_pair",
    "comparison.labelled_part",
)
TESTS_TEMPLATES = ("dpmean.tests_bootstrap", "dpmean.tests_stair", "hist.tests_pt_hd")


def test_dp_mean_and_histograms_verdict_templates_name_no_test_and_their_dropdowns_do():
    for lang, words in (
        ("en", ("Holm", "two-sided", "paired test", "bootstrap")),
        ("zh_CN", ("Holm", "双侧")),
    ):
        for key in PLAIN_TEMPLATES:
            for word in words:
                assert word not in CATALOGUE[lang][key], (lang, key, word)
        for key in TESTS_TEMPLATES:
            assert "Holm" in CATALOGUE[lang][key], (lang, key)


def test_families_side_by_side_are_led_by_one_lead_per_column_and_caption_the_tests_once():
    left = holm(_results([2.0, 2.2, 1.9], seed=1))
    right = holm(_results([0.5, 0.4, 0.45], seed=2, a="first", b="third"))
    rows = [((f"s{i}",), [left[i], right[i]]) for i in range(3)]
    text, tab = grid_text(rows, ["setting"], ["against second", "against third"])
    said = str(text)
    assert said.count("in the 3 settings below") == 2
    assert "lower in all 3" in said and "higher in all 3" in said
    for word in OLD:
        assert word not in said, word
    caption = tab.myst.splitlines()[0]
    assert (
        caption.count("Holm-corrected") == 1
        and "each family Holm-corrected over its settings" in caption
    )
    assert len(str(tab).splitlines()) == 4  # the header and a row per setting
    # one lead over every result (columns that are settings, rows that are pairs): the pairs counted, no span
    text2, tab2 = grid_text(
        [(("vs second",), left), (("vs third",), right)],
        ["compared"],
        ["s0", "s1", "s2"],
        scope=message("comparison.holm_of_family", n="6"),
        lead_by_column=False,
    )
    # one arm against several (referee 17, V1): each pair's verdicts on their own, with their spans, never pooled
    said2 = str(text2)
    assert "first against that of each method below, pair by pair" in said2
    assert (
        "against second, lower in all 3 (" in said2 and "against third, higher in all 3 (" in said2
    )
    assert "pairs of methods" not in said2 and "lower in 3 and higher in 3" not in said2
    assert "逐对比较" in text2.in_language("zh_CN") and "逐对来看" not in text2.in_language("zh_CN")
    # pairs with different first arms: the pairs counted, no span (a span over different pairs means nothing)
    other = holm(_results([0.5, 0.4, 0.45], seed=2, a="other", b="third"))
    text3, _ = grid_text(
        [(("vs second",), left), (("other vs third",), other)],
        ["compared"],
        ["s0", "s1", "s2"],
        lead_by_column=False,
    )
    assert "(2 pairs of methods)" in str(text3) and "times" not in str(text3)
    assert "Holm-corrected over the 6 tests of their family" in tab2.myst.splitlines()[0]
    assert "在其所属检验族的 6 项检验上做 Holm 校正" in tab2.in_language("zh_CN").splitlines()[0]
    with pytest.raises(ValueError, match="one result per column"):
        grid_text([(("s",), left)], ["setting"], ["a", "b"])


def _cells(name):
    import json

    from dpcompendium.core.paths import repo_root

    nb = json.loads((repo_root() / "notebooks" / f"{name}.ipynb").read_text(encoding="utf-8"))
    return {c.get("id"): "".join(c["source"]) for c in nb["cells"]}


def _outside_dropdowns(markdown):
    import re

    return re.sub(r":::\{dropdown\}.*?\n:::", "", markdown, flags=re.S)


@pytest.mark.parametrize(
    ("chapter", "code", "prose"),
    [
        # mwem's AIM block on Adult 2-D and its DPBench verdicts (shot l3), the AIM takeaway's sentence
        ("mwem", ["glue-mwem-dpbench", "glue-mwem-aim"], ["6c7858c1"]),
        # federated-pca: the checks (§4.6), Wishart, Laplace input perturbation and PPCA (§4.6.1.x), the SVM (§4.7)
        (
            "federated-pca",
            ["glue-fedpca-checks", "glue-fedpca-wishart", "glue-fedpca-svm-gap"],
            ["4da2a5be", "fedpca-wishart", "fedpca-ppca", "fedpca-ppca-verdicts", "44afeb5f"],
        ),
        # dp-mean (reader review 6, A): the Gaussian mean (§1.3), the staircase (§1.5.3), the source's conclusion (§1.6)
        (
            "dp-mean",
            ["glue-dpmean-staircase", "glue-dpmean-conclusion", "glue-dpmean-tally"],
            ["dpmean-today-md", "dpmean-staircase-md", "20554f27"],
        ),
        # histograms (reader review 6, A): PrivTree, HDMM and DAWA against DPBench (§2.4.5)
        ("histograms", ["glue-histograms-sota"], ["d7478d45"]),
    ],
)
def test_the_chapters_paste_plain_verdicts_and_name_their_tests_in_captions_or_dropdowns(
    chapter, code, prose
):
    """Reader review 5, M1: the family sentence ("… (two-sided tests, Holm-corrected; ratios …) (A lower in N and
    higher in M of the K)") is no longer pasted into these sections, and their prose names no test outside the
    "Is the evidence enough?" dropdowns: the tests and their correction are in the verdict tables' captions."""
    cells = _cells(chapter)
    for key in code:
        assert "family_sentence(" not in cells[key], key
    for key in prose:
        text = _outside_dropdowns(cells[key])
        for word in ("Holm", "two-sided", "bootstrap-t tests"):
            assert word not in text, (key, word)


def test_a_family_split_over_tables_flags_runs_at_the_whole_familys_holm_level():
    """Referee 17, M1: hiera's question tables are parts of one Holm family of 46; a part's flags took the runs
    needed at α/8 (its own rows), the summaries at α/46. ``family_size`` gives the level of the whole family."""
    from dpcompendium.core.comparison import runs_short

    fam = holm(_results([1.25, 1.3, 1.2], seed=3, runs=120))
    own, whole = runs_short(fam), runs_short(fam, family_size=46)
    for r, a, b in zip(fam, own, whole, strict=True):
        if r.holds:
            need = r.runs_needed(0.9, r.comparison.alpha / 46)
            assert b == (need if need > len(r.comparison.a.values) else None)
            assert a is None or (b is not None and b >= a)
    with pytest.raises(ValueError, match="family_size"):
        runs_short(fam, family_size=2)


def test_hieras_question_tables_flag_at_the_experiments_family_size(monkeypatch):
    from test_hiera_tuned_box import ALL, _runs

    from dpcompendium.chapters.hiera import verdicts

    table = verdicts.sgd_comparisons(_runs(ALL))
    seen = []
    real = verdicts.verdict_cells

    def spy(results, power=0.9, family_size=None):
        seen.append((len(results), family_size))
        return real(results, power, family_size)

    monkeypatch.setattr(verdicts, "verdict_cells", spy)
    verdicts.sgd_question_tables(table, ["harmony", "pm"])
    assert seen and all(k == len(table) > n for n, k in seen), seen


#: the glued verdict sentences of dp-mean (§1.3, §1.5.3, §1.6) and histograms (§2.4.5) and the glued texts of their
#: dropdowns that say the tests once (reader review 6, A)
GLUED_PLAIN = {
    "dp-mean": (
        "dpmean_gauss_cost",
        "dpmean_stair_verdict",
        "dpmean_take_stair",
        "dpmean_m4_sweep",
        "dpmean_verdict_coinpress",
    ),
    "histograms": ("hist_privtree", "hist_hdmm"),
}
GLUED_TESTS = {
    "dp-mean": ("dpmean_tests_bootstrap", "dpmean_stair_tests"),
    "histograms": ("hist_pt_hd_tests",),
}


def _glued(nb) -> dict[str, str]:
    """The glued markdown texts of an executed notebook, key → text (every language's key)."""
    out = {}
    for cell in nb.cells:
        for o in cell.get("outputs", []):
            key = o.get("metadata", {}).get("scrapbook", {}).get("name")
            text = next(
                (v for k, v in o.get("data", {}).items() if k.endswith("text/markdown")), None
            )
            if key and text is not None:
                out[key] = text
    return out


@pytest.mark.book
@pytest.mark.parametrize("chapter", sorted(GLUED_PLAIN))
def test_the_book_run_glues_plain_verdicts_and_names_the_tests_in_dropdowns(chapter):
    """In the book's execution (the execution store of ``dpcompendium book``), the verdict sentences of dp-mean and
    histograms name no test and no correction, in English and in Chinese, and the texts of their dropdowns do."""
    import nbformat

    from dpcompendium.book.execution import DEFAULT_STORE
    from dpcompendium.core.paths import repo_root

    path = repo_root() / DEFAULT_STORE / f"{chapter}.ipynb"
    assert path.exists(), f"no execution of {chapter} in {path.parent}: build the book first"
    glued = _glued(nbformat.read(path, as_version=4))
    for key in GLUED_PLAIN[chapter]:
        for k in (key, f"{key}__zh_CN"):
            if k not in glued:
                assert k != key, f"{key} is not glued"
                continue
            for word in ("Holm", "two-sided", "bootstrap", "双侧"):
                assert word not in glued[k], (k, word)
    for key in GLUED_TESTS[chapter]:
        assert "Holm" in glued[key] and "Holm" in glued.get(f"{key}__zh_CN", glued[key]), key
