"""A verdict table is led by one plain sentence and says its tests once (reader review 4, M2 and m8).

Above mwem's Table 3.12 the page read "two-sided tests, Holm-corrected over the 8 comparisons below: the first arm is
lower in 8, higher in 0 and not separated in 0", and the table then repeated "AIM vs zCDP MWEM (Gaussian)" in each of
its 8 rows. Now the sentence says what the table shows and its size — the arms, the span of the ratios, how the
verdicts fall, counts of zero left out — the caption says the tests and their correction once, and a pair that is
the same in every row is named once, in the caption.
"""

from __future__ import annotations

import pandas as pd
import pytest
from _families import two_arm_results

import dpcompendium.chapters  # noqa: F401  (registers the chapters' methods)
from dpcompendium.core.comparison import holm, results_text
from dpcompendium.core.tables import readable


def _family(means_b, seed=5, a="first", b="second", runs=300):
    return holm(two_arm_results(means_b, seed, a, b, runs))


@pytest.fixture(scope="module")
def all_lower():
    return _family([2.0, 2.2, 1.9, 2.5])


def test_the_sentence_is_plain_and_the_caption_says_the_tests_once(all_lower):
    text, tab = results_text([((f"s{i}",), r) for i, r in enumerate(all_lower)], ["setting"])
    ratios = [r.ratio for r in all_lower]
    assert all(r.outcome == "better" for r in all_lower)
    said = str(text)
    assert said == (
        "the error of first against that of second in the 4 settings below: lower in all 4 "
        f"({min(ratios):.3g}–{max(ratios):.3g} times)"
    )
    # the old read-out cannot come back: no Holm, no "first arm", no count of zero
    for old in ("Holm", "two-sided", "the first arm", " in 0", "higher in"):
        assert old not in said, old
    caption = tab.myst.splitlines()[0]
    assert caption.count("Holm-corrected over its 4 rows") == 1 and "two-sided tests" in caption
    zh = text.in_language("zh_CN")
    assert f"全部 4 个更低（{min(ratios):.3g}–{max(ratios):.3g} 倍）" in zh and "Holm" not in zh
    assert "双侧检验，在其 4 行上做 Holm 校正" in tab.in_language("zh_CN").splitlines()[0]


def test_a_pair_the_same_in_every_row_is_named_once_in_the_caption(all_lower):
    _, tab = results_text([((f"s{i}",), r) for i, r in enumerate(all_lower)], ["setting"])
    assert tab.myst.count("first vs second") == 1
    assert "first vs second" in tab.myst.splitlines()[0]
    assert "compared" not in str(tab).splitlines()[0]
    # two pairs: the column stays, a pair per row
    other = _family([0.5, 1.0], seed=7, a="third", b="second")
    rows = [((f"s{i}",), r) for i, r in enumerate(holm([*all_lower, *other]))]
    text, tab2 = results_text(rows, ["setting"])
    assert "compared" in str(tab2).splitlines()[0]
    assert str(tab2).count(" vs ") == 6
    assert "(2 pairs of methods)" in str(text)
    assert "times" not in str(
        text
    )  # a span pooled over different pairs means nothing (referee 16, m1)


def test_rows_not_separated_are_led_by_their_intervals_not_their_estimates():
    """Referee 16, V1: above mwem's Table 3.14 the lead said "the error of AIM is 0.754–0.931 times that of Gaussian
    Identity … not separated in all 8": the span of point estimates below 1 read as a 7–25 % gain while every
    interval held 1. The verdict now comes first; rows not separated give the span of their intervals."""
    ties = _family([1.0, 1.02, 0.99], seed=11, runs=40)
    shown = _family([2.0], seed=12)
    family = holm([*ties, *shown])
    assert [r.outcome for r in family] == ["tie", "tie", "tie", "better"]
    text, _ = results_text([((f"s{i}",), r) for i, r in enumerate(family)], ["setting"])
    said = str(text)
    lo, hi = min(r.lo for r in family[:3]), max(r.hi for r in family[:3])
    assert lo < 1 < hi
    assert said.startswith(
        "the error of first against that of second in the 4 settings below: lower in 1 ("
    )
    assert said.endswith(f"not separated in 3 (intervals within {lo:.3g}–{hi:.3g})")
    # the estimates of the rows not separated are not given as a span
    ties_est = sorted(r.ratio for r in family[:3])
    assert f"{ties_est[0]:.3g}–{ties_est[-1]:.3g}" not in said
    assert f"3 个未能区分（区间均在 {lo:.3g}–{hi:.3g} 之内）" in text.in_language("zh_CN")


def test_a_readable_table_says_a_constant_column_once_and_merges_its_axis_row():
    same = pd.DataFrame(
        {"dataset": ["ADULT (1-D, 4096 bins)"] * 4, "method": list("ABCD"), "mse": [1.0, 2, 3, 4]}
    )
    html = readable(same)._repr_html_()
    assert html.count("ADULT (1-D, 4096 bins)") == 1 and 'class="dpc-group"' in html
    # two rows: nothing repeats enough to be folded
    assert readable(same.iloc[:2])._repr_html_().count("ADULT (1-D, 4096 bins)") == 2
    by_eps = pd.DataFrame(
        {"method": list("AABB"), "epsilon": [0.1, 1.0, 0.1, 1.0], "mse": [1.0, 2, 3, 4]}
    ).pivot(index="method", columns="epsilon", values="mse")
    html = readable(by_eps)._repr_html_()
    assert "dpc-axis" not in html and html.count("<tr>") == 3  # one header row and a row per method
    assert html.count("= 0.1</th>") == 1 and html.count("= 1</th>") == 1
    # an axis whose labels are not numbers keeps its own row
    by_out = by_eps.rename(columns={0.1: "last", 1.0: "average"})
    by_out.columns.name = "output"
    assert "dpc-axis" in readable(by_out)._repr_html_()


def test_a_run_table_s_label_of_a_method_shows_its_one_registered_name():
    """m8: mwem's zcdp variant had three names ("MWEM zcdp" in its run tables, "zCDP MWEM (Gaussian)" in the
    registry, `zcdp` in prose); a readable table now shows the registry's name for the run tables' label."""
    from dpcompendium.core import methods

    assert methods.table_labels()["MWEM zcdp"] == "zcdp"
    runs = pd.DataFrame(
        {"method": ["MWEM zcdp", "MWEM standard", "AIM"], "mean_error": [1.0, 2.0, 3.0]}
    )
    html = readable(runs)._repr_html_()
    assert "zCDP MWEM (Gaussian)" in html and "MWEM zcdp" not in html
    assert "Standard MWEM" in html
    assert "zCDP MWEM（高斯测量）" in readable(runs, lang="zh_CN")._repr_html_()


def test_a_leading_column_in_long_runs_heads_each_run_once():
    """m8: mwem's DPBench table wrote "ADULT (1-D, 4096 bins)" in 16 rows, then "Adult 2-D" in as many; each
    dataset now heads its block of rows once."""
    blocks = pd.DataFrame(
        {
            "data": ["ADULT (1-D, 4096 bins)"] * 3 + ["Adult 2-D"] * 3,
            "method": list("ABCABC"),
            "mse": [1.0, 2, 3, 4, 5, 6],
        }
    )
    html = readable(blocks)._repr_html_()
    assert html.count("ADULT (1-D, 4096 bins)") == 1 and html.count("Adult 2-D") == 1
    assert html.count('class="dpc-group"') == 2
    # runs of 2, or a value that comes back after another: every row keeps its cell
    for data in (["x", "x", "y", "y", "z", "z"], ["x", "x", "x", "y", "y", "x"]):
        html = readable(blocks.assign(data=data))._repr_html_()
        assert 'class="dpc-group"' not in html and html.count("<td>x</td>") == data.count("x")
