"""A set of families that test different relations is counted per relation (referee 10, V1), names its arms and
says once which arm is not private (N1).

The histograms chapter's privacy fix is three families: non-inferiority of noisy against true centres (S5 on the sum),
the two-sided test of the same runs, and the two-sided test with S5 on the mean. Its summary said "the relation each
family tests is shown in 8 of 9 settings", pooling three non-inferiority verdicts with five two-sided "higher" ones
into what read as a success rate, and stacked one "(not private: …)" per family. These tests build such a set.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

from dpcompendium import PrivacyClaim
from dpcompendium.core.comparison import (
    Arm,
    Comparison,
    families_sentence,
    families_text,
    holm,
    results_text,
)
from dpcompendium.core.messages import Md

CLAIM = PrivacyClaim("m", "add-remove", "1", 1.0)
NOT_PRIVATE = PrivacyClaim("m", "add-remove", "1", 1.0, private=False, why="true centres")


def _family(a, b, means_b, relation, seed, runs=400):
    """Holm family of ``a`` (mean loss 1) against ``b`` (one setting per mean in ``means_b``), b not private."""
    rng = np.random.default_rng(seed)
    results = [
        Comparison(
            "MSE",
            Arm.of("a", CLAIM, rng.gamma(50.0, 1 / 50, runs), label=a),
            Arm.of("b", NOT_PRIVATE, rng.gamma(50.0, mb / 50, runs), label=b),
            relation,
            1.1 if relation != "tie" else 1.0,
            setting=f"ε = {i}",
        ).result()
        for i, mb in enumerate(means_b)
    ]
    return holm(results)


NOISY_SUM, TRUE_SUM = "grouping: noisy centres, S5 sum", "grouping: true centres, S5 sum"
NOISY_MEAN, TRUE_MEAN = "grouping: noisy centres, S5 mean", "grouping: true centres, S5 mean"


@pytest.fixture(scope="module")
def mixed():
    # noisy centres 0–6 % worse on the sum (non-inferior at 1.1, "higher" two-sided where the gap is clear), 1.6–2.6
    # times worse on the mean
    return [
        (Md("ni"), _family(NOISY_SUM, TRUE_SUM, [1.0, 0.94, 0.95], "non-inferiority", 1)),
        (Md("two"), _family(NOISY_SUM, TRUE_SUM, [1.0, 0.94, 0.95], "tie", 1)),
        (Md("mean"), _family(NOISY_MEAN, TRUE_MEAN, [0.4, 0.5, 0.64], "tie", 2)),
    ]


def test_a_mixed_set_is_counted_per_relation(mixed):
    ni = mixed[0][1]
    two = mixed[1][1] + mixed[2][1]
    assert {r.comparison.relation for _, rs in mixed for r in rs} == {"non-inferiority", "tie"}
    said = str(families_sentence(mixed))
    # each two-sided count is followed by its span (referee 16, V1): read the counts without them
    text = re.sub(r" \((?:intervals within [^()]*|[^()]* times)\)", "", said)
    assert said != text
    k_ni = sum(r.holds for r in ni)
    lower = sum(r.outcome == "better" for r in two)
    higher = sum(r.outcome == "worse" for r in two)
    assert f"at most 10 % worse (non-inferiority) shown in {k_ni} of {len(ni)} settings" in text
    ties = len(two) - lower - higher
    counted = [
        f"{w} in {k}"
        for w, k in (("lower", lower), ("higher", higher), ("not separated", ties))
        if k
    ]
    assert (
        "two-sided: "
        + (
            " and ".join(counted)
            if len(counted) < 3
            else f"{counted[0]}, {counted[1]} and {counted[2]}"
        )
        in text
    )
    # a count of zero is not said (reader review 4, M2: "lower in 0" reads as a finding)
    assert " in 0" not in text
    # the old pooled count cannot be read into it any more
    pooled = sum(r.holds for _, rs in mixed for r in rs)
    assert "the relation each family tests" not in text
    assert f"{pooled} of {len(ni) + len(two)}" not in text
    # and in Chinese, per relation too
    zh = families_sentence(mixed).in_language("zh_CN")
    assert f"非劣效性（至多高 10 %）：{len(ni)} 个参数组合中有 {k_ni} 个得到表明" in zh
    assert f"双侧检验：{higher} 个更高" in zh and "0 个" not in zh


def test_the_toy_set_exercises_both_relations(mixed):
    """The fixture is what the chapter had: every non-inferiority shown and two-sided verdicts that go against the
    first arm, so the pooled count would have read as a success rate."""
    assert all(r.outcome == "non-inferior" for r in mixed[0][1])
    assert sum(r.outcome == "worse" for _, rs in mixed[1:] for r in rs) >= 4


def test_a_set_of_families_names_its_arms_and_its_caveat_once(mixed):
    text = str(families_sentence(mixed))
    # no undefined "the first method": the arms are named, each distinct one once
    assert "the first method" not in text
    assert f"{NOISY_SUM} and {NOISY_MEAN} against {TRUE_SUM} and {TRUE_MEAN}" in text
    # one caveat naming both arms that are not private (not one parenthesis per family)
    assert text.count("not private") == 1
    assert f"(not private: {TRUE_SUM} and {TRUE_MEAN}; their ε is nominal)" in text
    # a pair given by the chapter replaces the list
    said = str(families_sentence(mixed, pair="noisy against true centres"))
    assert said.startswith("the MSE of noisy against true centres over the 9 settings")
    assert "over the 9 settings of the 3 families below" in said
    assert str(families_text(mixed, pair="noisy against true centres")) == said


def test_arm_labels_are_named_in_the_reader_s_language(mixed):
    zh = families_sentence(mixed).in_language("zh_CN")
    assert "grouping:" not in zh and "S5 sum" not in zh  # zh review 7, residual English 1
    assert "分组（真实中心，S5 对和加噪）" in zh


def test_a_family_must_share_its_margin():
    fam = _family("a", "b", [1.0, 1.0], "non-inferiority", 3)
    other = Comparison(
        "MSE",
        fam[0].comparison.a,
        fam[0].comparison.b,
        "non-inferiority",
        1.25,
    ).result()
    with pytest.raises(ValueError, match="must share their margin"):
        families_sentence([(Md("x"), [*fam, other]), (Md("y"), fam), (Md("z"), fam)])


def test_results_of_mixed_relations_are_counted_per_relation(mixed):
    rows = [((f"s{i}",), r) for i, r in enumerate(mixed[0][1] + mixed[2][1])]
    text, _ = results_text(rows, ["setting"])
    ni, two = mixed[0][1], mixed[2][1]
    assert "the relation tested is shown" not in str(text)
    assert f"shown in {sum(r.holds for r in ni)} of {len(ni)} settings" in str(text)
    worse = sum(r.outcome == "worse" for r in two)
    assert (f"higher in all {worse}" if worse == len(two) else f"higher in {worse}") in str(text)
    # the tests and their correction are the table's caption, not the sentence's (reader review 4, M2)
    assert "Holm" not in str(text) and "Holm-corrected over its 6 rows" in _.myst
    assert str(text).count("not private") == 1


def test_a_grid_gives_each_comparison_its_interval_level_and_verdict(mixed):
    """H4: a table of two families by setting states every interval at its Holm level, not only the counts."""
    from dpcompendium.core.comparison import results_grid

    a, b = mixed[1][1], mixed[2][1]
    grid = results_grid(
        [((f"s{i}",), [ra, rb]) for i, (ra, rb) in enumerate(zip(a, b, strict=True))],
        ["setting"],
        ["sum", "mean"],
    )
    lines = str(grid).splitlines()
    assert lines[0] == "setting | sum | mean" and len(lines) == 1 + len(a)
    for line, ra, rb in zip(lines[1:], a, b, strict=True):
        for r in (ra, rb):
            verdict = {"better": "lower", "worse": "higher", "tie": "not separated"}[r.outcome]
            level = f"{100 * r.level:.3g}"
            assert f"({r.lo:.3g}–{r.hi:.3g}, {level} %): {verdict}" in line, line
    with pytest.raises(ValueError, match="one result per column"):
        results_grid([(("s",), [a[0]])], ["setting"], ["sum", "mean"])


def test_a_setting_label_is_in_the_readers_language(mixed):
    """Reader review 4, m4: mwem's AIM verdict tables named their settings "1-D, ε = 0.1" on the Chinese page; a
    chapter's plain label goes through its figure template (一维), the English table is unchanged."""
    from dpcompendium.core.comparison import results_grid

    rows = [
        ((f"{d}, ε = {e}",), r)
        for (d, e), r in zip([("1-D", 1), ("2-D", 1), ("1-D", 5)], mixed[2][1], strict=True)
    ]
    _, tab = results_text(rows, ["setting"])
    grid = results_grid([(cells, [r, r]) for cells, r in rows], ["setting"], ["sum", "mean"])
    for t in (tab, grid):
        zh = t.in_language("zh_CN")
        assert "一维，$\\varepsilon = 1$" in zh and "二维，$\\varepsilon = 1$" in zh
        assert "1-D" not in zh and "2-D" not in zh
        assert "1-D, $\\varepsilon = 1$" in t.in_language("en")
