"""The design check of a verdict (issue 50): :meth:`ComparisonResult.runs_needed` and :func:`design_sentence`.

Repetition counts are chosen from the power each verdict needs; these tests check that the number it gives is the
power it names (by simulation, with a binomial tolerance), and the sentences that report it."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from scipy import stats

from dpcompendium import PrivacyClaim
from dpcompendium.core.comparison import (
    Arm,
    Comparison,
    _num,
    design_figures,
    design_sentence,
    holm,
    ranking,
)
from dpcompendium.core.messages import set_language

CLAIM = PrivacyClaim("m", "replace-one", "1", 1.0)


def _cmp(a, b, relation="superiority", test="welch", margin=1.0, alpha=0.05, setting=""):
    return Comparison(
        "MSE",
        Arm.of("a", CLAIM, a),
        Arm.of("b", CLAIM, b),
        relation,
        margin,
        test,
        alpha,
        setting=setting,
    )


def _losses(rng, mean, n, cv=0.5):
    """Gamma losses with mean ``mean`` and coefficient of variation ``cv`` (positive, skewed like an MSE)."""
    k = 1 / cv**2
    return rng.gamma(k, mean / k, size=n)


#: (relation, test, true ratio, margin, coefficient of variation, alpha): the book's regime (review 5, m13) — a
#: superiority and a two-sided test at ~10–200 runs; a paired test; a Holm-step level; few runs (t quantiles matter);
#: equivalence at a true ratio of 1 (both TOST tails bind) and near a margin (one does)
POWER_CASES = [
    ("superiority", "welch", 0.8, 1.0, 0.5, 0.05),
    ("tie", "welch", 0.8, 1.0, 0.5, 0.05),
    ("tie", "paired", 0.8, 1.0, 0.5, 0.05),
    ("tie", "welch", 0.8, 1.0, 0.5, 0.05 / 8),
    ("superiority", "welch", 0.7, 1.0, 0.15, 0.05),
    ("equivalence", "welch", 1.0, 1.25, 0.5, 0.05),
    ("equivalence", "welch", 1.1, 1.25, 0.3, 0.05),
    ("tie", "bootstrap-t", 0.7, 1.0, 0.4, 0.05),
]


def _pair(rng, ratio, n, cv, test):
    """Losses of arm a (mean ``ratio``) and b (mean 1); paired arms share a per-run factor, as runs on one data set do."""
    if test == "paired":
        base = _losses(rng, 1.0, n, cv)
        return ratio * base * rng.uniform(0.7, 1.3, n), base
    return _losses(rng, ratio, n, cv), _losses(rng, 1.0, n, cv)


def _share_shown(rng, case, n, sims):
    relation, test, ratio, margin, cv, alpha = case
    shown = 0
    for _ in range(sims):
        c = _cmp(*_pair(rng, ratio, n, cv, test), relation, test, margin, alpha)
        if test == "bootstrap-t":
            from dpcompendium.core.comparison import bootstrap_t_result

            shown += bootstrap_t_result(c, rng, resamples=499).holds
        else:
            shown += c.result().holds
    return shown / sims


@pytest.mark.parametrize("case", POWER_CASES, ids=lambda c: "-".join(map(str, c)))
def test_runs_needed_gives_the_power_it_names(case):
    """Runs chosen by ``runs_needed(0.8)`` at the true effect reach the verdict in at least 80 % of repetitions (a
    binomial tolerance of 4 sd). From 20 runs up it is also not wasteful (at most 0.8 + 4 sd + 0.04, the t
    approximation of a log ratio of skewed means); below, the t quantiles at the power make it conservative, by at
    most two runs: two runs fewer fall short of 0.8."""
    relation, test, ratio, margin, cv, alpha = case
    rng = np.random.default_rng(20261129)
    pilot_test = (
        "welch" if test == "bootstrap-t" else test
    )  # runs_needed approximates bootstrap-t by Welch
    # a pilot large enough that the observed ratio and spread are the true ones
    pilot = _cmp(
        *_pair(rng, ratio, 20000, cv, pilot_test), relation, pilot_test, margin, alpha
    ).result()
    n = int(pilot.runs_needed(0.8))
    assert 3 <= n <= 250
    sims = 160 if test == "bootstrap-t" else 600
    sd = math.sqrt(0.8 * 0.2 / sims)  # binomial sd of the share at power 0.8
    share = _share_shown(rng, case, n, sims)
    assert share > 0.8 - 4 * sd - (0.04 if test == "bootstrap-t" else 0.0)
    if n >= 20:
        assert share < 0.8 + 4 * sd + 0.04
    else:
        assert _share_shown(rng, case, max(2, n - 2), sims) < 0.8 + 4 * sd


def test_tost_power_counts_both_margins():
    """At a true ratio of 1 both one-sided tests of TOST bind: it needs the runs of power √… per tail, more than the
    near margin alone would say (review 5, m3)."""
    rng = np.random.default_rng(5)
    res = _cmp(
        _losses(rng, 1.0, 20000), _losses(rng, 1.0, 20000), "equivalence", margin=1.25
    ).result()
    _, se1, _ = res.comparison._log_ratio()
    sd = se1 * math.sqrt(20000)  # the log ratio's sd at one run per arm
    d = math.log(1.25) - abs(math.log(res.ratio))
    near_only = ((stats.norm.ppf(0.95) + stats.norm.ppf(0.9)) * sd / d) ** 2
    assert res.runs_needed(0.9) > 1.15 * near_only


def test_runs_needed_is_infinite_inside_the_null_region_and_grows_with_power():
    rng = np.random.default_rng(1)
    worse = _cmp(_losses(rng, 1.2, 50), _losses(rng, 1.0, 50)).result()
    assert worse.runs_needed(0.9) == math.inf
    res = _cmp(_losses(rng, 0.7, 50), _losses(rng, 1.0, 50)).result()
    assert res.runs_needed(0.5) <= res.runs_needed(0.9) <= res.runs_needed(0.99)
    with pytest.raises(ValueError, match="power"):
        res.runs_needed(1.0)


def test_runs_needed_uses_the_holm_step_level():
    rng = np.random.default_rng(2)
    fam = [_cmp(_losses(rng, 0.8, 40), _losses(rng, 1.0, 40)).result() for _ in range(5)]
    adjusted = holm(fam)
    assert all(r.test_level <= 0.05 + 1e-12 for r in adjusted)
    assert min(r.test_level for r in adjusted) == pytest.approx(0.05 / 5)
    # a smaller level needs more runs at the same effect
    first = min(adjusted, key=lambda r: r.test_level)
    own = next(r for r in fam if r.p_value == first.p_value)
    assert first.runs_needed(0.9) >= own.runs_needed(0.9)


def test_runs_needed_paired_and_quoted_arms():
    rng = np.random.default_rng(3)
    base = _losses(rng, 1.0, 60)
    paired = _cmp(0.8 * base * rng.uniform(0.95, 1.05, 60), base, test="paired").result()
    welch = _cmp(0.8 * base * rng.uniform(0.95, 1.05, 60), base).result()
    assert paired.runs_needed() < welch.runs_needed()  # pairing removes the shared spread
    quoted = Comparison(
        "MSE", Arm.of("a", CLAIM, _losses(rng, 0.8, 60)), Arm("b", CLAIM, mean=1.0, se=0.2, n=10)
    ).result()
    assert (
        quoted.runs_needed(0.9) == math.inf
    )  # the quoted arm's error alone is wider than the effect


def test_design_sentence_variants_in_both_languages():
    rng = np.random.default_rng(4)
    strong = holm([_cmp(_losses(rng, 0.3, 30), _losses(rng, 1.0, 30)).result() for _ in range(3)])
    text = str(design_sentence(strong))
    assert text.startswith("these verdicts rest on 30 runs per arm; taking the observed ratios")
    assert "a check after the fact" in text and "Holm level α/3" in text
    needed = max(r.runs_needed(0.9, 0.05 / 3) for r in strong)  # the family's smallest Holm level
    assert f"each of the 3 shown would be reached with power 0.9 from {int(needed)} runs" in text
    weak = holm(
        [_cmp(_losses(rng, 0.97, 6), _losses(rng, 1.0, 6), "tie").result() for _ in range(2)]
    )
    text = str(design_sentence(weak))
    assert text.startswith("none of these comparisons shows a difference; with 6 runs per arm")
    widest = 0.0
    for r in weak:
        _, se, df = r.comparison._log_ratio()
        widest = max(widest, (stats.t.ppf(1 - 0.025 / 2, df) + stats.t.ppf(0.9, df)) * se)
    assert f"outside {math.exp(-widest):.3g}–{math.exp(widest):.3g}" in text
    set_language("zh_CN")
    try:
        zh = design_sentence(strong).myst
        assert "每组 30 次运行" in zh and "检验功效" in zh and "事后检查" in zh
    finally:
        set_language("en")
    with pytest.raises(ValueError, match="results"):
        design_sentence([])


def test_design_sentence_states_unequal_arms_as_a_range():
    """Referee 12, n3: a family whose arms have 20 and 100 runs does not "rest on 20 runs per arm"."""
    rng = np.random.default_rng(5)
    fam = holm(
        [
            _cmp(_losses(rng, 0.3, 20), _losses(rng, 1.0, 100), "tie", "bootstrap-t").result(rng),
            _cmp(_losses(rng, 0.3, 20), _losses(rng, 1.0, 20), "tie", "bootstrap-t").result(rng),
        ]
    )
    assert str(design_sentence(fam)).startswith("these verdicts rest on 20–100 runs per arm")
    even = holm(
        [_cmp(_losses(rng, 0.3, 20), _losses(rng, 1.0, 20), "tie", "bootstrap-t").result(rng)]
    )
    assert str(design_sentence(even)).startswith("these verdicts rest on 20 runs per arm")


def test_design_sentence_counts_the_short_verdicts_and_says_what_the_ties_could_show():
    """One borderline verdict does not hide that the others are sound (the referee's M2), and a family with ties says
    what its runs could have separated (M3)."""
    rng = np.random.default_rng(10)
    fam = holm(
        [_cmp(_losses(rng, 0.3, 12), _losses(rng, 1.0, 12), "tie").result() for _ in range(3)]
        + [_cmp(_losses(rng, 1.0, 12), _losses(rng, 1.0, 12), "tie").result() for _ in range(2)]
    )
    needs = [r.runs_needed(0.9, 0.05 / 5) for r in fam if r.holds]
    assert len(needs) >= 3 and all(n <= 12 for n in needs)
    text = str(design_sentence(fam))
    assert f"each of the {len(needs)} shown would be reached" in text
    assert f"the {5 - len(needs)} not shown could have been shown only at ratios outside" in text


def test_runs_needed_uses_the_tests_t_quantiles():
    """At few runs the t quantiles, not the normal ones, set the runs: the referee's M1 (a paired family at 10 runs
    said 9 where the paired t test needs 14)."""
    rng = np.random.default_rng(11)
    a = _losses(rng, 1.0, 10)
    res = _cmp(a * 0.7 * rng.uniform(0.8, 1.2, 10), a, "tie", "paired").result()
    n = res.runs_needed(0.9)
    d = abs(math.log(res.ratio))
    diff = np.asarray(res.comparison.a.values) / res.comparison.a.summary()[0] - a / a.mean()
    sd = diff.std(ddof=1)

    def enough(m):
        q = stats.t.ppf(1 - 0.05 / 2, m - 1) + stats.t.ppf(0.9, m - 1)
        return d >= q * sd / math.sqrt(m)

    assert enough(n) and (n == 2 or not enough(n - 1))
    z = stats.norm.ppf(1 - 0.05 / 2) + stats.norm.ppf(0.9)
    assert n >= math.ceil((z * sd / d) ** 2)  # never fewer than the normal approximation says


@pytest.mark.parametrize("test", ["welch", "paired", "bootstrap-t"])
def test_near_exact_losses_compare_as_their_rescaled_selves(test):
    """Losses of 1e-170 (an edge setting where a method is exact up to rounding: the edge fuzz's histograms set with
    one bin raised ZeroDivisionError, m² underflowing) give the verdict of the same losses at order one."""
    from dpcompendium.core.comparison import bootstrap_t_family

    rng = np.random.default_rng(7)
    a, b = _losses(rng, 0.5, 12), _losses(rng, 1.0, 12)
    big = _cmp(a, b, "tie", test).result(np.random.default_rng(8))
    tiny = _cmp(a * 1e-170, b, "tie", test).result(np.random.default_rng(8))
    both = _cmp(a * 1e-170, b * 1e-170, "tie", test).result(np.random.default_rng(8))
    assert tiny.ratio == pytest.approx(big.ratio * 1e-170, rel=1e-12)
    assert tiny.outcome == "better"
    assert both.ratio == pytest.approx(big.ratio, rel=1e-12)
    assert both.p_value == pytest.approx(big.p_value, rel=1e-9, abs=1e-12)
    assert both.outcome == big.outcome
    if test == "bootstrap-t":
        fam = bootstrap_t_family(
            [_cmp(a * 1e-170, b * 1e-170, "tie", test), _cmp(a, b, "tie", test)],
            np.random.default_rng(9),
        )
        assert fam[0].ratio == pytest.approx(fam[1].ratio, rel=1e-12)
        assert fam[0].p_value == pytest.approx(fam[1].p_value, rel=1e-9, abs=1e-12)


def test_design_sentence_when_no_number_of_runs_reaches_the_power():
    """A verdict shown against an arm quoted from a source whose own spread does not shrink with our runs: no number
    of runs reaches power 0.9, and the sentence says so in words, not as "∞ runs" (review 5, m9)."""
    rng = np.random.default_rng(12)
    ours = Arm.of("a", CLAIM, 0.5 * rng.uniform(0.99, 1.01, 200))
    quoted = Arm("b", CLAIM, mean=1.0, se=0.277, n=1000)  # log-ratio 0.69 at 2.5 standard errors
    res = Comparison("MSE", ours, quoted).result()
    assert res.holds and res.runs_needed(0.9) == math.inf
    text = str(design_sentence([res]))
    # one verdict, none reaching the power: said of it, not as "0 of the 1 … and for 1" (native review 9, B1), with
    # the reason that applies (C3)
    assert (
        "the 1 shown would not be reached with power 0.9 with these runs, nor with any number of our runs "
        "(an arm quoted from a source keeps its own spread)" in text
    )
    assert "0 of the 1" not in text and "100,000" not in text
    assert "∞" not in text
    with _zh():
        zh = design_sentence([res]).myst
    assert (
        "已表明的 1 个判定在这些运行次数下达不到 0.9 的检验功效，而且无论运行多少次都达不到" in zh
    )
    assert "（参考值这一组引自原文，其离散程度不随我们的运行次数缩小）" in zh
    assert "另外" not in zh and "其余" not in zh and "中有 0 个" not in zh


def _shown_family(rng, n=3, runs=30):
    return holm([_cmp(_losses(rng, 0.3, runs), _losses(rng, 1.0, runs)).result() for _ in range(n)])


def test_design_sentence_says_of_all_shown_verdicts_when_none_reaches_the_power(monkeypatch):
    """Native review 9, B1: "其余"/"另外" only when some shown verdicts reach the power (k + m = N with k > 0); with
    none, the sentence is said of them all (of it, for one), in both editions."""
    from dpcompendium.core.comparison import ComparisonResult

    rng = np.random.default_rng(21)
    fam = _shown_family(rng)
    assert all(r.holds for r in fam)
    monkeypatch.setattr(ComparisonResult, "runs_needed", lambda self, power=0.9, alpha=None: 4200.0)
    text = str(design_sentence(fam))
    assert (
        "none of the 3 shown would be reached with power 0.9 with these runs: they would need up to 4200 runs"
        in text
    )
    with _zh():
        zh = design_sentence(fam).myst
    assert "已表明的 3 个判定在这些运行次数下都达不到 0.9 的检验功效，最多需要 4200 次运行" in zh
    assert "其余" not in zh and "中有 0 个" not in zh
    one = str(design_sentence(fam[:1]))
    assert (
        "the 1 shown would not be reached with power 0.9 with these runs: it would need 4200 runs"
        in one
    )
    # some reach it: "其余" is right (ok + short = shown)
    needs = itertools.cycle([10.0, 4200.0, 10.0])
    monkeypatch.setattr(
        ComparisonResult, "runs_needed", lambda self, power=0.9, alpha=None: next(needs)
    )
    assert "2 of the 3 shown would be reached" in str(design_sentence(fam))
    with _zh():
        zh = design_sentence(fam).myst
    assert "已表明的 3 个判定中有 2 个" in zh and "其余 1 个最多需要 4200 次运行" in zh


def test_design_sentence_states_the_reason_no_count_of_runs_suffices(monkeypatch):
    """Native review 9, C3: the reason that applies, not "a quoted arm, or more than 100,000 runs": here no arm is
    quoted, so more than 100,000 runs (grouped as each edition writes thousands: U1)."""
    from dpcompendium.core.comparison import ComparisonResult

    rng = np.random.default_rng(22)
    fam = _shown_family(rng)
    needs = itertools.cycle([10.0, math.inf, 10.0])
    monkeypatch.setattr(
        ComparisonResult, "runs_needed", lambda self, power=0.9, alpha=None: next(needs)
    )
    text = str(design_sentence(fam))
    assert "2 of the 3 shown would be reached" in text
    assert "(more than 100,000 runs would be needed)" in text and "quoted" not in text
    f = design_figures(fam)
    assert (f["never_quoted"], f["never_cap"]) == (0, 1)
    with _zh():
        zh = design_sentence(fam).myst
    assert (
        "（所需运行次数超过 100\u202f000）" in zh and "100,000" not in zh and "引自原文" not in zh
    )


def test_design_sentence_counts_both_reasons_when_both_apply():
    rng = np.random.default_rng(23)
    quoted = Arm("b", CLAIM, mean=1.0, se=0.277, n=1000)
    res = Comparison("MSE", Arm.of("a", CLAIM, 0.5 * rng.uniform(0.99, 1.01, 200)), quoted).result()
    from dpcompendium.core.comparison import _never_reason

    both = {"never_quoted": 2, "never_cap": 1}
    assert str(_never_reason(both)) == (
        "in 2 an arm quoted from a source keeps its own spread; 1 would need more than 100,000 runs"
    )
    assert design_figures([res])["never_quoted"] == 1


def test_bootstrap_verdicts_runs_sentence_is_short_in_chinese():
    """Native review 9, S2: the bootstrap parenthesis said once, shorter, in the zh edition (same placeholders)."""
    from dpcompendium.core.messages import message

    with _zh():
        zh = message("comparison.design_boot", runs="20", shown="33").myst
    assert (
        zh
        == "这些判定基于每组 20 次运行；已表明的 33 个判定由学生化自助法判定，此处不用 t 检验估算所需运行次数（其估算没有可靠依据）"
    )


def test_design_sentence_of_a_part_of_a_family_uses_the_whole_familys_level():
    rng = np.random.default_rng(13)
    fam = holm(
        [_cmp(_losses(rng, 0.3, 20), _losses(rng, 1.0, 20), "tie").result() for _ in range(8)]
    )
    part = fam[:4]
    text = str(design_sentence(part, family_size=8))
    assert "Holm level α/8" in text
    needed = max(r.runs_needed(0.9, 0.05 / 8) for r in part)
    assert f"from {int(needed)} runs" in text
    assert "Holm level α/4" in str(design_sentence(part))
    with pytest.raises(ValueError, match="family_size"):
        design_sentence(part, family_size=3)


def test_design_sentence_of_a_part_with_nothing_shown_counts_the_part():
    """A dataset's 4 comparisons of a Holm family of 8, none shown: the sentence counts the 4 (not the family's 8)
    at the family's level α/8 (the defect of last session: "none of these 8 verdicts is shown" for a dataset's 4)."""
    rng = np.random.default_rng(14)
    fam = holm([_cmp(_losses(rng, 1.0, 4), _losses(rng, 1.0, 4), "tie").result() for _ in range(8)])
    assert not any(r.holds for r in fam)
    text = str(design_sentence(fam[:4], family_size=8))
    assert text.startswith("none of these comparisons shows a difference; with 4 runs per arm")
    assert "Holm level α/8" in text
    sup = holm([_cmp(_losses(rng, 1.0, 4), _losses(rng, 1.0, 4)).result() for _ in range(8)])
    assert not any(r.holds for r in sup)
    assert str(design_sentence(sup[:4], family_size=8)) == (
        "none of these 4 verdicts is shown with 4 runs per arm"
    )


def test_design_band_names_the_noisiest_and_the_median_comparison():
    """The "none shown" band is the noisiest comparison's, labelled and named by its setting (referee 6, m7), with
    the median one's beside it (review 5, m5); one comparison has one band, named, and no median."""
    rng = np.random.default_rng(15)
    fam = holm(
        [
            _cmp(
                _losses(rng, 1.0, 10, cv), _losses(rng, 1.0, 10, cv), "tie", setting=f"cv {cv}"
            ).result()
            for cv in (0.05, 0.1, 0.8)
        ]
    )
    assert not any(r.holds for r in fam)
    text = str(design_sentence(fam))
    widths = []
    for r in fam:
        _, se, df = r.comparison._log_ratio()
        widths.append((stats.t.ppf(1 - 0.05 / 6, df) + stats.t.ppf(0.9, df)) * se)
    w, m = max(widths), float(np.median(widths))
    assert (
        f"outside {math.exp(-w):.3g}–{math.exp(w):.3g} in the noisiest of them "
        f"(cv 0.8; outside {math.exp(-m):.3g}–{math.exp(m):.3g} in the median one)"
    ) in text
    one = str(design_sentence(fam[:1], family_size=3))
    assert "noisiest" not in one and "median" not in one
    assert "(cv 0.05) would have been shown" in one  # the one comparison is still named
    with _zh():
        zh = design_sentence(fam).myst
    assert "离散最大的比较为 cv 0.8；" in zh


def _zh():
    from dpcompendium.core.messages import language

    return language("zh_CN")


def test_design_band_without_a_setting_names_the_arms_and_with_several_pairs_both():
    """A comparison without a setting is named by its arms ("a vs b"); a family of several pairs (a ranking's best
    against each other arm) names the pair and the setting."""
    rng = np.random.default_rng(21)
    fam = holm(
        [
            _cmp(_losses(rng, 1.0, 10, cv), _losses(rng, 1.0, 10, cv), "tie").result()
            for cv in (0.1, 0.9)
        ]
    )
    assert not any(r.holds for r in fam)
    assert "in the noisiest of them (a vs b; outside" in str(design_sentence(fam))
    rk = ranking(
        "wine, ε = 0.1",
        "MSE",
        [
            Arm.of("a", CLAIM, _losses(rng, 1.0, 10, 0.1)),
            Arm.of("b", CLAIM, _losses(rng, 1.0, 10, 0.1)),
            Arm.of("c", CLAIM, _losses(rng, 1.0, 10, 0.9)),
        ],
    )
    assert all(r.comparison.setting == "wine, ε = 0.1" for r in rk.results)
    text = str(design_sentence(rk.results))
    if sum(not r.holds for r in rk.results) > 1:
        assert "vs c, wine, ε = 0.1; outside" in text or "vs b, wine, ε = 0.1; outside" in text
    with pytest.raises(ValueError, match="setting"):
        _cmp(_losses(rng, 1.0, 4), _losses(rng, 1.0, 4), "tie", setting=3)


def test_design_sentence_with_a_holm_family_per_setting():
    """Referee 6, m3: results of several settings, each decided by its own Holm family, passed together: each is
    counted at its own family's level α/k_f (not α over all of them), and the sentence says so."""
    rng = np.random.default_rng(22)
    sizes = {"x": 3, "y": 5}
    fams = {
        key: holm(
            [_cmp(_losses(rng, 0.4, 20), _losses(rng, 1.0, 20), "tie").result() for _ in range(k)]
        )
        for key, k in sizes.items()
    }
    results = [r for fam in fams.values() for r in fam]
    keys = [key for key, fam in fams.items() for _ in fam]
    f = design_figures(results, families=keys)
    assert f["k"] == 5 and f["families"] == 2
    needs = [
        r.runs_needed(0.9, 0.05 / sizes[key]) for key, fam in fams.items() for r in fam if r.holds
    ]
    assert f["needed"] == max(needs)
    assert f["needed"] <= design_figures(results)["needed"]  # α/8 over all of them is stricter
    text = str(design_sentence(results, families=keys))
    assert (
        "each family's smallest Holm level α/k, with k ≤ 5 the size of the verdict's own Holm family and no"
        in text
    )
    assert "no Holm correction across families" in text and "α/8" not in text
    even = [key for key in ("x", "y") for _ in range(4)]
    same = holm(
        [_cmp(_losses(rng, 0.4, 20), _losses(rng, 1.0, 20), "tie").result() for _ in range(8)]
    )
    assert (
        "each family's smallest Holm level α/4 (every Holm family has 4 verdicts), with no Holm correction across families"
        in str(design_sentence(same, families=even))
    )
    with pytest.raises(ValueError, match="families"):
        design_sentence(results, families=keys[:-1])
    with pytest.raises(ValueError, match="family_size or families"):
        design_sentence(results, family_size=8, families=keys)
    # the old call is unchanged: one family of all of them
    assert "the family's smallest Holm level α/8" in str(design_sentence(results))


def test_design_sentence_of_a_known_null_reports_its_size_and_band_not_power():
    """Referee 6, m6: a family that checks a difference a proof says is zero reports how many comparisons reject
    (each a false rejection) at the family-wise error rate, and the band its runs resolve — no power count."""
    rng = np.random.default_rng(23)
    null = holm(
        [
            _cmp(_losses(rng, 1.0, 30), _losses(rng, 1.0, 30), "tie", setting=f"cell {i}").result()
            for i in range(4)
        ]
    )
    assert not any(r.holds for r in null)
    text = str(design_sentence(null, null=True))
    assert text.startswith(
        "a check of a difference known to be zero: none of the 4 comparisons rejects it"
    )
    assert "at or below 5 %" in text and "with 30 runs per arm a ratio outside" in text
    assert "would be reached" not in text and "would need" not in text
    widths = []
    for r in null:
        _, se, df = r.comparison._log_ratio()
        widths.append((stats.t.ppf(1 - 0.05 / 8, df) + stats.t.ppf(0.9, df)) * se)
    top = int(np.argmax(widths))
    assert (
        f"outside {math.exp(-widths[top]):.3g}–{math.exp(widths[top]):.3g} in the noisiest of them (cell {top};"
        in text
    )
    # a rejection (here a real difference standing in for a false one) is counted, never given a power
    some = holm(
        [_cmp(_losses(rng, 0.2, 30, 0.2), _losses(rng, 1.0, 30, 0.2), "tie").result()]
        + [_cmp(_losses(rng, 1.0, 30), _losses(rng, 1.0, 30), "tie").result() for _ in range(2)]
    )
    assert sum(r.holds for r in some) == 1
    text = str(design_sentence(some, null=True))
    # one rejection in the singular (native review 8, S11)
    assert (
        "the tests reject it in 1 of the 3 comparisons, and this one rejection is a false rejection"
        in text
    )
    assert "would be reached" not in text
    with _zh():
        assert "已知为零的差异" in design_sentence(some, null=True).myst
    with pytest.raises(ValueError, match="tie"):
        design_sentence([_cmp(_losses(rng, 1.0, 5), _losses(rng, 1.0, 5)).result()], null=True)


def test_design_figures_are_the_numbers_of_the_design_sentence():
    """The numbers a chapter's one-sentence design statement of several families (review 5, m6: histograms) prints
    are the design sentence's own."""
    gen = np.random.default_rng(11)
    claim = CLAIM
    family = holm(
        [
            Comparison(
                "MSE",
                Arm.of("a", claim, gen.lognormal(0.0, 0.5, 60) * ratio),
                Arm.of("b", claim, gen.lognormal(0.0, 0.5, 60)),
                "tie",
            ).result()
            for ratio in (2.0, 2.5, 3.0)
        ]
    )
    p = design_figures(family)
    assert p["runs"] == 60 and p["n"] == p["shown"] == 3 and p["short"] == 0
    sentence = str(design_sentence(family))
    assert f"from {int(p['needed'])} runs" in sentence and "60 runs per arm" in sentence
    # a verdict barely shown needs more runs than were made: counted as short, with the design sentence's count
    weak = holm(
        [
            Comparison(
                "MSE",
                Arm.of("a", claim, gen.lognormal(0.0, 0.5, 60) * 1.3),
                Arm.of("b", claim, gen.lognormal(0.0, 0.5, 60)),
                "tie",
            ).result()
        ]
    )
    q = design_figures(weak)
    if q["shown"]:
        assert (q["short"] == 1) == (q["needed"] > 60)
    assert p["ties"] == 0 and math.isnan(p["tie_lo"])
    # a two-sided test not shown: the ratios it could have shown, as the design sentence prints them
    mixed = holm(
        [
            Comparison(
                "MSE",
                Arm.of("a", claim, gen.lognormal(0.0, 0.5, 60) * ratio),
                Arm.of("b", claim, gen.lognormal(0.0, 0.5, 60)),
                "tie",
            ).result()
            for ratio in (3.0, 1.0)
        ]
    )
    m = design_figures(mixed)
    assert (m["shown"], m["ties"]) == (1, 1) and m["tie_lo"] < 1 < m["tie_hi"]
    assert f"outside {_num(m['tie_lo'])}–{_num(m['tie_hi'])}" in str(design_sentence(mixed))
    with pytest.raises(ValueError, match="results must hold at least one comparison"):
        design_figures([])
    with pytest.raises(ValueError, match="family_size must be at least"):
        design_figures(family, family_size=2)


def test_bootstrap_families_print_no_t_based_count():
    """Referee 7, m-a: a family decided by the studentized bootstrap (chosen because t is not trusted on its
    heavy-tailed losses) is given no Welch run count; the sentence says that the count is not computed and why —
    in both languages. A family that mixes the two tests counts its t-tested verdicts only, and says the rest are
    not counted. (Its ties: ``test_bootstrap_ties_get_their_intervals_not_a_welch_band``.)"""
    rng = np.random.default_rng(31)

    def fam(test, ratios, n=20):
        return [
            _cmp(_losses(rng, ratio, n, 1.5), _losses(rng, 1.0, n, 1.5), "tie", test=test).result(
                rng=rng
            )
            for ratio in ratios
        ]

    boot = holm(fam("bootstrap-t", [0.05, 0.05, 1.0]))
    shown = sum(r.holds for r in boot)
    assert shown >= 1 and not boot[2].holds
    f = design_figures(boot)
    assert f["uncounted"] == f["shown"] == shown
    assert f["short_counted"] == 0 and math.isnan(f["needed_counted"])
    # the Welch numbers over every shown verdict stay available (chapters that print them check uncounted)
    assert f["needed"] == max(r.runs_needed(0.9, 0.05 / 3) for r in boot if r.holds)
    text = str(design_sentence(boot))
    assert text.startswith(
        f"these verdicts rest on 20 runs per arm; the runs the {shown} shown would need are not computed "
        "(studentized bootstrap, used as Student's t is not trusted here: a t-based count would have no stated "
        "validity)"
    )
    assert "would be reached" not in text and "would need up to" not in text
    with _zh():
        zh = design_sentence(boot).myst
        assert "不用 t 检验估算所需运行次数" in zh and "学生化自助法" in zh
    # mixed: the Welch verdicts counted, the bootstrap ones named as not counted
    mixed = holm(fam("welch", [0.05]) + fam("bootstrap-t", [0.05]))
    assert all(r.holds for r in mixed)
    g = design_figures(mixed)
    assert g["shown"] == 2 and g["uncounted"] == 1
    assert g["needed_counted"] == mixed[0].runs_needed(0.9, 0.05 / 2)
    text = str(design_sentence(mixed))
    assert "each of the 1 shown would be reached" in text
    assert "the runs the 1 shown by the studentized bootstrap would need are not computed" in text
    # a Welch family is unchanged: counted, no bootstrap clause
    welch = holm(fam("welch", [0.05, 0.05]))
    assert design_figures(welch)["uncounted"] == 0
    assert "studentized bootstrap" not in str(design_sentence(welch))


def test_bootstrap_ties_get_their_intervals_not_a_welch_band():
    """Referee 8, n1: the ties of a family decided by the studentized bootstrap got the band of ratios they could
    have shown by a Welch approximation — the same t count the sentence says has no stated validity there. They
    now get what the test itself says: their own intervals at their Holm levels (the widest, named, and the
    median one), with the band's power said to be not computed — in both languages, in the null check too; the
    t-tested ties of a mixed family keep their band, and a Welch family's sentence is unchanged."""
    rng = np.random.default_rng(8)

    def fam(test, ratios, n=20):
        return [
            _cmp(
                _losses(rng, ratio, n, 1.5),
                _losses(rng, 1.0, n, 1.5),
                "tie",
                test=test,
                setting=f"cell {i}",
            ).result(rng=rng)
            for i, ratio in enumerate(ratios)
        ]

    boot = holm(fam("bootstrap-t", [0.02, 1.0, 1.0, 1.0]))
    ties = [r for r in boot if not r.holds]
    assert len(ties) >= 2
    f = design_figures(boot)
    assert f["ties_boot"] == f["ties"] == len(ties) and math.isnan(f["tie_lo"])
    widest = max(ties, key=lambda r: math.log(r.hi / r.lo))
    assert (f["ci_lo"], f["ci_hi"]) == (widest.lo, widest.hi)
    text = str(design_sentence(boot))
    assert "Welch" not in text and "rough guide" not in text
    assert "could have been shown only at ratios outside" not in text
    assert (
        f"the {len(ties)} not shown were decided by the studentized bootstrap, whose intervals at their Holm "
        f"levels do not rule out ratios of {_num(widest.lo)}–{_num(widest.hi)} in the widest "
        f"({widest.comparison.setting}; "
    ) in text
    assert "could have shown with power 0.9: not computed for this test" in text
    with _zh():
        zh = design_sentence(boot).myst
        assert "Welch" not in zh and "粗略参考" not in zh
        assert "所不排除的比值为" in zh and "区间最宽的比较" in zh
    # nothing shown: the same clause after "none ... shows a difference"
    none = holm(fam("bootstrap-t", [1.0, 1.0]))
    assert not any(r.holds for r in none)  # the seed's case
    text = str(design_sentence(none))
    assert text.startswith("none of these comparisons shows a difference with 20 runs per arm; ")
    assert "Welch" not in text and "outside" not in text
    # a null check decided by the bootstrap: its intervals, no band
    null = str(design_sentence(none, null=True))
    assert "Welch" not in null and "outside" not in null
    assert "the studentized bootstrap's intervals at their Holm levels do not rule out" in null
    # mixed: the t-tested tie keeps its band, the bootstrap one gets its interval
    mixed = holm(fam("welch", [1.0]) + fam("bootstrap-t", [1.0]))
    assert not any(r.holds for r in mixed)  # the seed's case
    g = design_figures(mixed)
    assert g["ties"] == 2 and g["ties_boot"] == 1 and g["tie_lo"] < 1 < g["tie_hi"]
    text = str(design_sentence(mixed))
    assert (
        f"the 1 not shown by t tests could have been shown only at ratios outside {_num(g['tie_lo'])}"
        in text
    )
    # referee 9, m3: one such tie is one ("the 1 not shown were decided" did not agree in number)
    assert "the 1 not shown were decided" not in text
    assert (
        "the one not shown was decided by the studentized bootstrap, whose interval at its Holm level"
        in text
    )
    with _zh():
        assert "未表明的那一个由学生化自助法判定" in design_sentence(mixed).myst


def test_two_runs_per_arm_never_print_an_unbounded_band():
    """Issue 49: at 2 runs per arm (a tiny Welch df, a huge t quantile) the band of ratios a family's ties could
    have shown left the float range and printed "a ratio outside 0–∞". The sentence now says that not even a ratio
    of ``BAND_CAP`` either way would have been shown, so the runs cannot bound the ratio — true, since that ratio
    lies inside the band — in both languages, for ties after shown verdicts, with nothing shown and in a null check;
    a family whose noisiest band alone is past the cap gives the median one's band and says so."""
    from dpcompendium.core.comparison import BAND_CAP, _band_of, _range

    rng = np.random.default_rng(5)

    def fam(ratios, n, cv=1.0):
        return [
            _cmp(
                _losses(rng, ratio, n, cv), _losses(rng, 1.0, n, cv), "tie", setting=f"cell {i}"
            ).result()
            for i, ratio in enumerate(ratios)
        ]

    two = holm(fam([1.0, 1.0, 1.0], 2))
    assert not any(r.holds for r in two)
    band = _band_of(two, 0.9, [3, 3, 3])
    assert band["mid_hi"] > BAND_CAP  # the case the sentence must say in words
    for text in (str(design_sentence(two)), str(design_sentence(two, null=True))):
        assert "0–∞" not in text and "outside 0" not in text and "∞" not in text
        assert f"not even a ratio of {_num(BAND_CAP)} either way" in text
        assert "runs cannot bound the ratio" in text
    with _zh():
        zh = design_sentence(two).myst
        assert "∞" not in zh and f"即使比值相差 {_num(BAND_CAP)} 倍" in zh and "无法界定" in zh
    # ties after a shown verdict (the clause appended to the count)
    shown = holm(fam([1.0, 1.0], 2) + fam([0.001], 40, 0.1))
    text = str(design_sentence(shown))
    assert shown[2].holds and not (shown[0].holds or shown[1].holds)  # the seed's case
    assert "the 2 not shown could not have been shown with power 0.9 even at a ratio of" in text
    # the family's arms have 2 and 40 runs: the sentence gives the range (referee 12, n3)
    assert "2–40 runs per arm cannot bound the ratio" in text and "∞" not in text
    # only the noisiest past the cap: the median one's band, the noisiest named as unbounded
    part = holm(fam([1.0, 1.0, 1.0], 30, 0.3) + fam([1.0], 2, 3.0))
    assert not any(r.holds for r in part)  # the seed's case
    text = str(design_sentence(part))
    mid = _band_of(part, 0.9, [4] * 4)
    assert (
        f"outside {_num(mid['mid_lo'])}–{_num(mid['mid_hi'])} in the median one (in the noisiest"
        in text
    )
    assert "∞" not in text
    # a bootstrap family at 2 runs prints its intervals; an unbounded end in words
    boot = holm(
        [
            _cmp(_losses(rng, 1.0, 2), _losses(rng, 1.0, 2), "tie", test="bootstrap-t").result(
                rng=rng
            )
            for _ in range(3)
        ]
    )
    assert "0–∞" not in str(design_sentence(boot)) and "outside 0" not in str(design_sentence(boot))
    assert str(_range(0.0, math.inf)) == "any size" and str(_range(0.0, 3.0)) == "up to 3"
    assert str(_range(0.2, math.inf)) == "0.2 or more" and str(_range(0.5, 2.0)) == "0.5–2"
    with _zh():
        assert _range(0.0, math.inf).myst == "任意大小"


def test_design_sentence_says_which_short_verdicts_no_count_of_runs_reaches(monkeypatch):
    """A family whose short verdicts mix some that more runs would reach and some that none would: each is said of
    its own count (the sentence said "for 2 no number of our runs would reach it" when only one was out of reach)."""
    from dpcompendium.core.comparison import ComparisonResult, _design_cells

    rng = np.random.default_rng(24)
    fam = _shown_family(rng)
    needs = itertools.cycle([10.0, 4200.0, math.inf])
    monkeypatch.setattr(
        ComparisonResult, "runs_needed", lambda self, power=0.9, alpha=None: next(needs)
    )
    text = str(design_sentence(fam))
    assert (
        "1 of the 3 shown would be reached with power 0.9 with these runs, 1 would need up to 4200 runs and for 1 "
        "no number of our runs would reach it (more than 100,000 runs would be needed)" in text
    )
    with _zh():
        zh = design_sentence(fam).myst
    assert (
        "已表明的 3 个判定中有 1 个" in zh
        and "1 个最多需要 4200 次运行，1 个无论我们运行多少次都达不到" in zh
    )
    f = design_figures(fam)
    assert f["needed_finite_counted"] == 4200.0 and f["never_cap"] == 1
    assert (
        str(_design_cells(f)[0]) == "1 reached; 1 short, needing up to 4200; 1 at no count of runs"
    )
    needs = itertools.cycle([4200.0, math.inf, 300.0])
    text = str(design_sentence(fam))
    assert (
        "none of the 3 shown would be reached with power 0.9 with these runs: 2 would need up to 4200 runs and "
        "for 1 no number of our runs would reach it" in text
    )
