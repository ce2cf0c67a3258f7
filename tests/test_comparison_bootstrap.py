"""The studentized bootstrap (bootstrap-t) of dpcompendium.core.comparison (issue 46, S4): size and coverage by
simulation, its use through ``Comparison(test="bootstrap-t")``, its refusals and its reproducibility.

Tolerances: a rate estimated from N simulations has standard error sqrt(p(1-p)/N); the checks allow the nominal
level plus 4 such errors (and the bootstrap's own approximation at 20 runs, well inside that on these laws).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from dpcompendium import PrivacyClaim
from dpcompendium.core.comparison import Arm, Comparison, bootstrap_t_result, holm

CLAIM = PrivacyClaim("m", "add-remove", "1", 1.0)
N_SIM = 600
RESAMPLES = 499


def arm(method, values):
    return Arm.of(method, CLAIM, values)


def draw(rng, law, size):
    """Skewed, heavy-tailed positive losses with mean 1: exponential, and lognormal with σ = 1 (excess kurtosis ≈ 111)."""
    if law == "exponential":
        return rng.exponential(1.0, size=size)
    return rng.lognormal(-0.5, 1.0, size=size)


def simulate(law, relation, ratio, *, margin=1.0, n=20, seed=0):
    """(rejection rate, coverage of the true ratio by the interval) of the bootstrap-t over N_SIM data sets."""
    rng = np.random.default_rng(seed)
    a = draw(rng, law, (N_SIM, n)) * ratio
    b = draw(rng, law, (N_SIM, n))
    hits = covered = 0
    for i in range(N_SIM):
        c = Comparison("MSE", arm("x", a[i]), arm("y", b[i]), relation, margin, test="bootstrap-t")
        r = bootstrap_t_result(c, np.random.default_rng([seed, i]), resamples=RESAMPLES)
        hits += r.holds
        covered += r.lo <= ratio <= r.hi
    return hits / N_SIM, covered / N_SIM


def tol(p):
    return 4 * math.sqrt(p * (1 - p) / N_SIM)


@pytest.mark.parametrize("law", ["exponential", "lognormal"])
def test_one_sided_size_and_coverage_at_twenty_runs(law):
    # superiority at r = 1 (margin 1) is the boundary of H0: the rejection rate is the size
    size, coverage = simulate(law, "superiority", 1.0, seed=1)
    assert size <= 0.05 + tol(0.05)
    assert coverage >= 0.90 - tol(0.90)  # one-sided relations report the 1 - 2α interval
    # non-inferiority at the margin: A's mean is exactly m times B's
    size, coverage = simulate(law, "non-inferiority", 1.3, margin=1.3, seed=2)
    assert size <= 0.05 + tol(0.05)
    assert coverage >= 0.90 - tol(0.90)


def test_two_sided_size_and_power():
    size, coverage = simulate("exponential", "tie", 1.0, seed=3)
    assert size <= 0.05 + tol(0.05)
    assert coverage >= 0.95 - tol(0.95)
    # ratio 0.4 with 20 exponential losses per arm: |log 0.4| / sqrt(2/20) ≈ 2.9 standard errors: power ≈ 0.8
    power, _ = simulate("exponential", "tie", 0.4, seed=4)
    assert power >= 0.7


def test_it_is_the_comparison_test_and_holm_adjusts_it():
    rng = np.random.default_rng(5)
    a, b = rng.exponential(0.5, 30), rng.exponential(1.0, 30)
    c = Comparison("MSE", arm("x", a), arm("y", b), "superiority", test="bootstrap-t")
    r1 = c.result(rng=np.random.default_rng(9))
    r2 = bootstrap_t_result(c, np.random.default_rng(9))
    assert r1 == r2  # one seed, one result
    assert r1.lo < r1.ratio < r1.hi and r1.level == pytest.approx(0.9)
    assert r1.ratio == pytest.approx(a.mean() / b.mean())
    # the same statistic as Welch's: the intervals differ only by the quantiles
    w = Comparison("MSE", arm("x", a), arm("y", b), "superiority").result()
    assert w.ratio == pytest.approx(r1.ratio)
    assert r1.hi / r1.lo == pytest.approx(w.hi / w.lo, rel=0.5)
    fam = holm([r1, r1])
    assert all(f.p_adjusted == pytest.approx(min(1.0, 2 * r1.p_value)) for f in fam)


def test_it_is_refused_without_values_or_rng():
    a = arm("x", [1.0, 2.0, 3.0])
    quoted = Arm("y", CLAIM, mean=2.0, se=0.5, n=20)
    with pytest.raises(ValueError, match=r"bootstrap-t.*values"):
        Comparison("MSE", a, quoted, test="bootstrap-t")
    c = Comparison("MSE", a, arm("y", [2.0, 3.0, 4.0]), test="bootstrap-t")
    with pytest.raises(ValueError, match="rng must be"):
        c.result()
    with pytest.raises(ValueError, match="resamples"):
        bootstrap_t_result(c, np.random.default_rng(0), resamples=10)


def test_equal_losses_give_an_exact_ratio():
    c = Comparison("MSE", arm("x", [2.0, 2.0, 2.0]), arm("y", [1.0, 1.0, 1.0]), test="bootstrap-t")
    r = c.result(rng=np.random.default_rng(0))
    assert r.ratio == r.lo == r.hi == pytest.approx(2.0)
    assert r.outcome == "worse"


def test_two_runs_give_an_interval_not_an_error():
    """With two runs per arm a resample's standard error can be tiny and T* huge: the interval may be unbounded
    (0 or inf at its ends), never an overflow."""
    c = Comparison(
        "MSE", arm("x", [1.0, 1e6]), arm("y", [1.0, 1.0 + 1e-12]), "superiority", test="bootstrap-t"
    )
    r = c.result(rng=np.random.default_rng(0))
    assert 0.0 <= r.lo <= r.ratio <= r.hi and r.outcome == "not-shown"


def test_holm_gives_bootstrap_results_their_own_intervals_consistent_with_the_decisions():
    """Holm's step levels re-derive each interval from the result's own bootstrap resamples (not from Student's t):
    a bootstrap interval excludes the null region exactly when Holm shows the relation."""
    rng = np.random.default_rng(7)
    results = []
    for k, ratio in enumerate([0.4, 0.7, 0.95, 1.0]):
        a = draw(rng, "lognormal", 30) * ratio
        b = draw(rng, "lognormal", 30)
        c = Comparison("MSE", arm(f"x{k}", a), arm("y", b), "superiority", 1.0, test="bootstrap-t")
        results.append(c.result(np.random.default_rng([7, k])))
    adjusted = holm(results)
    for before, after in zip(results, adjusted, strict=True):
        assert after.bootstrap is not None
        welch = after.comparison.interval(0.05)  # what Student's t would give at the same level
        assert (after.lo, after.hi) != welch[:2]
        assert after.holds == (
            after.hi < 1.0
        )  # superiority over margin 1: the interval's top below 1
        assert after.level >= before.level  # Holm's steps only widen the interval


def test_a_family_on_shared_resamples_has_each_comparisons_bootstrap_law():
    """bootstrap_t_family shares the resampling counts across a family; each comparison's p-value and interval
    estimate the same bootstrap law as bootstrap_t_result's (agree within the resampling error), and the family's
    size holds by simulation."""
    from dpcompendium.core.comparison import bootstrap_t_family

    rng = np.random.default_rng(5)
    fam = [
        Comparison(
            "MSE",
            arm("x", draw(rng, "lognormal", 200) * r),
            arm("y", draw(rng, "lognormal", 200)),
            "tie",
            test="bootstrap-t",
        )
        for r in (0.7, 1.0, 1.4)
    ]
    shared = bootstrap_t_family(fam, np.random.default_rng(1), resamples=4999)
    alone = [bootstrap_t_result(c, np.random.default_rng(2), resamples=4999) for c in fam]
    for s, a in zip(shared, alone, strict=True):
        assert s.ratio == pytest.approx(a.ratio, rel=1e-12)
        assert abs(s.p_value - a.p_value) <= 4 * math.sqrt(max(a.p_value, 1e-3) / 4999) + 2e-3
        assert s.lo == pytest.approx(a.lo, rel=0.02) and s.hi == pytest.approx(a.hi, rel=0.02)
    # size: k = 3 arms at r = 1, two-sided, Holm over the family: family-wise error at most alpha
    n_sim, errors = 300, 0
    for i in range(n_sim):
        g = np.random.default_rng([9, i])
        cs = [
            Comparison(
                "MSE",
                arm("x", draw(g, "exponential", 20)),
                arm("y", draw(g, "exponential", 20)),
                "tie",
                test="bootstrap-t",
            )
            for _ in range(3)
        ]
        errors += any(r.holds for r in holm(bootstrap_t_family(cs, g, resamples=RESAMPLES)))
    assert errors / n_sim <= 0.05 + 4 * math.sqrt(0.05 * 0.95 / n_sim)


def test_a_family_refuses_arms_of_different_sizes_and_missing_values():
    from dpcompendium.core.comparison import bootstrap_t_family

    rng = np.random.default_rng(0)
    c1 = Comparison(
        "MSE",
        arm("x", draw(rng, "exponential", 20)),
        arm("y", draw(rng, "exponential", 20)),
        test="bootstrap-t",
    )
    c2 = Comparison(
        "MSE",
        arm("x", draw(rng, "exponential", 30)),
        arm("y", draw(rng, "exponential", 20)),
        test="bootstrap-t",
    )
    with pytest.raises(ValueError, match="as many runs"):
        bootstrap_t_family([c1, c2], rng)
    c3 = Comparison(
        "MSE", Arm("x", CLAIM, mean=1.0, se=0.1, n=20), arm("y", draw(rng, "exponential", 20))
    )
    with pytest.raises(ValueError, match="values of both arms"):
        bootstrap_t_family([c3], rng)
    assert bootstrap_t_family([], rng) == []


def test_p_values_are_reported_no_finer_than_the_tests_resolution():
    """issue 46, D-S1: a p-value below what the test resolves is a bound ("≤ 0.0001"), never "1.23e-225" or "0";
    after Holm, the bound carries Holm's factor."""
    from dpcompendium.core.comparison import P_RESOLUTION

    rng = np.random.default_rng(3)
    far = Comparison(
        "MSE", arm("x", draw(rng, "exponential", 500)), arm("y", 50 * draw(rng, "exponential", 500))
    )
    r = far.result()
    assert r.p_value < 1e-100
    assert str(r.p_text()) == "≤ 0.0001" and r.p_text().myst == "≤ $0.0001$"
    near = Comparison(
        "MSE", arm("x", draw(rng, "exponential", 40)), arm("y", draw(rng, "exponential", 40))
    )
    rn = near.result()
    assert rn.p_value > P_RESOLUTION and str(rn.p_text()) == f"{rn.p_value:.2g}"
    fam = holm([far.result(), near.result(), far.result()])
    assert str(fam[0].p_text()) == "≤ 0.0003"  # 3 × the resolution at the first step
    boot = bootstrap_t_result(
        Comparison(
            "MSE",
            arm("x", draw(rng, "exponential", 200)),
            arm("y", 50 * draw(rng, "exponential", 200)),
            test="bootstrap-t",
        ),
        np.random.default_rng(0),
        resamples=999,
    )
    assert boot.resolution == pytest.approx(2e-3) and str(boot.p_text()) == "≤ 0.002"  # two-sided
    tiny = holm(
        [
            Comparison(
                "MSE",
                arm("x", np.full(5, 1.0) + np.arange(5) * 1e-3),
                arm("y", np.full(5, 9.0) + np.arange(5) * 1e-3),
            ).result()
        ]
    )[0]
    assert tiny.p_text().myst.startswith("≤ $")
