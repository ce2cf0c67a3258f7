"""Tests of the audit framework: exact audits, Clopper–Pearson bounds, empirical audits, planted bugs, snapping."""

from __future__ import annotations

import math

import numpy as np
import pytest
from conftest import mc_tol
from scipy.stats import binomtest

from dpcompendium.chapters.privacy_audit import (
    grr_distributions,
    grr_wrong_keep,
    grr_wrong_keep_probabilities,
    laplace_half_sensitivity,
    laplace_samplers,
    laplace_scale_epsilon,
    low_bit_event,
    low_bit_frequencies,
    numpy_laplace_from_uniforms,
    planted_true_epsilon,
    snapping_epsilon,
    snapping_laplace,
)
from dpcompendium.core.audit import (
    clopper_pearson,
    coverage_experiment,
    empirical_audit,
    empirical_audit_chunked,
    epsilon_lower_bound,
    exact_audit,
    exact_delta,
    exact_epsilon,
    exact_epsilon_at_delta,
    gaussian_delta,
    gaussian_epsilon,
    interval_cuts,
    verdict,
)
from dpcompendium.core.mechanisms import gaussian_sigma, grr_probabilities, laplace_mechanism


# ------------------------------------------------------------------------------------------ exact audits
@pytest.mark.parametrize("k", [2, 4, 10])
@pytest.mark.parametrize("eps", [0.1, 1.0, 3.0])
def test_exact_grr_equals_claim(k, eps):
    p, q = grr_probabilities(k, eps)
    res = exact_audit(grr_distributions(p, q, k), claimed_epsilon=eps)
    assert res.audited_epsilon == pytest.approx(eps, rel=1e-12)
    assert res.verdict == "holds" and res.audit == "exact" and res.confidence == 1.0


@pytest.mark.parametrize("k", [3, 4, 10])
def test_exact_catches_wrong_keep_probability(k):
    eps = 1.0
    p, q = grr_wrong_keep_probabilities(k, eps)
    res = exact_audit(grr_distributions(p, q, k), claimed_epsilon=eps)
    assert res.audited_epsilon == pytest.approx(eps + math.log(k - 1), rel=1e-12)
    assert res.verdict == "violated"


def test_exact_epsilon_supports_and_pairs():
    assert exact_epsilon([0.5, 0.5, 0.0], [0.5, 0.25, 0.25]) == math.inf
    assert exact_epsilon([0.5, 0.5, 0.0], [0.5, 0.5, 0.0]) == 0.0
    dist = np.array([[0.5, 0.5], [0.25, 0.75], [0.1, 0.9]])
    # only the pair (0, 1) is declared neighbouring: ln 2, not ln 5
    res = exact_audit(dist, claimed_epsilon=1.0, pairs=[(0, 1)])
    assert res.audited_epsilon == pytest.approx(math.log(2.0))
    assert exact_audit(dist, claimed_epsilon=1.0).audited_epsilon == pytest.approx(math.log(5.0))


def test_exact_delta_hockey_stick_of_grr():
    k, eps = 4, 1.0
    p, q = grr_probabilities(k, eps)
    d = grr_distributions(p, q, k)
    for e in (0.0, 0.3, 0.7):
        manual = max(p - math.exp(e) * q, 0) + max(
            q - math.exp(e) * p, 0
        )  # outputs 0 and 1; the others cancel
        assert exact_delta(d[0], d[1], e) == pytest.approx(manual, rel=1e-12)
    assert exact_delta(d[0], d[1], eps) == pytest.approx(0.0, abs=1e-15)
    # ε at δ inverts δ at ε
    target = exact_delta(d[0], d[1], 0.4)
    assert exact_epsilon_at_delta(d[0], d[1], target) == pytest.approx(0.4, abs=1e-9)
    assert (
        exact_epsilon_at_delta([1.0, 0.0], [0.5, 0.5], 0.1) == math.inf
    )  # mass 0.5 on an impossible output


def test_exact_audit_at_delta_uses_hockey_stick():
    k, eps = 4, 1.0
    p, q = grr_probabilities(k, eps)
    delta = exact_delta(grr_distributions(p, q, k)[0], grr_distributions(p, q, k)[1], 0.5)
    res = exact_audit(grr_distributions(p, q, k), claimed_epsilon=0.5, claimed_delta=delta)
    assert res.audited_epsilon == pytest.approx(0.5, abs=1e-9)


def test_gaussian_epsilon_inverts_delta_and_classical_is_loose():
    for eps in (0.1, 0.5, 0.9):
        sigma = gaussian_sigma(1.0, eps, 1e-5)
        e = gaussian_epsilon(sigma, 1.0, 1e-5)
        assert gaussian_delta(sigma, 1.0, e) == pytest.approx(1e-5, rel=1e-6)
        assert 0 < e < eps  # the classical calibration is conservative


# ---------------------------------------------------------------------------------------- Clopper–Pearson
@pytest.mark.parametrize("k,n", [(0, 10), (3, 10), (10, 10), (17, 1000), (500, 1000)])
def test_clopper_pearson_matches_scipy(k, n):
    lo, hi = clopper_pearson(k, n, 0.95)
    ci = binomtest(k, n).proportion_ci(0.95, method="exact")
    assert float(lo) == pytest.approx(ci.low, abs=1e-12)
    assert float(hi) == pytest.approx(ci.high, abs=1e-12)


def test_clopper_pearson_one_sided_and_vectorized():
    lo, hi = clopper_pearson([0, 5, 9], [10, 10, 10], 0.9, side="lower")
    assert np.all(hi == 1.0) and lo[0] == 0.0
    lo2, _ = clopper_pearson(5, 10, 0.8)  # two-sided 80% lower = one-sided 90% lower
    assert lo[1] == pytest.approx(float(lo2))


def test_epsilon_lower_bound_formula():
    k_a, k_b, n = 600, 200, 1000
    conf = 0.9
    p_lo, _ = clopper_pearson(k_a, n, 0.95, side="lower")
    _, q_hi = clopper_pearson(k_b, n, 0.95, side="upper")
    assert epsilon_lower_bound(k_a, n, k_b, n, confidence=conf) == pytest.approx(
        math.log(p_lo / q_hi)
    )
    assert epsilon_lower_bound(k_a, n, k_b, n, delta=0.1, confidence=conf) == pytest.approx(
        math.log((p_lo - 0.1) / q_hi)
    )
    assert epsilon_lower_bound(100, n, 100, n) == 0.0
    assert epsilon_lower_bound(1, n, 0, n, delta=0.5) == 0.0


def test_interval_cuts_discrete_and_continuous():
    cuts = interval_cuts(np.array([1.0, 2.0, 2.0, 3.0]))
    assert cuts.tolist() == [-np.inf, 1.0, 2.0, 3.0, np.inf]
    x = np.random.default_rng(1).normal(size=100_000)
    c = interval_cuts(x, max_cuts=100)
    assert np.all(np.diff(c) > 0) and c.size <= 102
    assert c[1] < np.quantile(x, 1e-3) and c[-2] > np.quantile(x, 1 - 1e-3)  # tails are covered


# ------------------------------------------------------------------------------------------ empirical audits
def _laplace_pair(eps, func=laplace_mechanism):
    return (lambda n, g: func(0.0, 1.0, eps, g, size=n)), (
        lambda n, g: func(1.0, 1.0, eps, g, size=n)
    )


def test_empirical_bound_is_valid_at_its_confidence():
    """Coverage: on a correct Laplace mechanism the lower bound exceeds the true ε with probability ≤ α."""
    conf, reps = 0.8, 300
    sa, sb = laplace_samplers(1.0)
    cov = coverage_experiment(
        sa, sb, true_epsilon=1.0, n_samples=4000, reps=reps, confidence=conf, seed=2024
    )
    assert len(cov) == 2 * reps and set(cov["selection"]) == {"split", "bonferroni"}
    alpha = 1 - conf
    for sel, grp in cov.groupby("selection"):
        assert grp["exceeds_true"].mean() <= alpha + mc_tol(alpha * (1 - alpha), reps), sel
        assert grp["audited_epsilon"].mean() > 0.5  # and the bound is not trivially 0


def test_finding6_bonferroni_events_come_from_the_first_half():
    """Finding 6: the Bonferroni mode chooses its candidates on the first half and bounds them on the second half
    only (sample splitting makes the events data-independent). A sampler whose two halves differ shows which half
    the reported frequencies come from."""

    def halves(first, second):
        def draw(n, g):
            h = n // 2
            return np.concatenate([np.full(h, first), np.full(n - h, second)])

        return draw

    res = empirical_audit(
        halves(0.0, 1.0),
        halves(0.0, 6.0),
        claimed_epsilon=1.0,
        n_samples=2000,
        selection="bonferroni",
        rng=np.random.default_rng(0),
    )
    # the first halves are identical, so the candidates (cut points from the first half: only 0) cannot separate
    # the second halves (1 vs 6); bounding on all samples, as before, would report a huge eps from (0, 1]
    assert res.p_a == res.p_b and res.audited_epsilon == 0.0


@pytest.mark.parametrize("selection", ["split", "bonferroni"])
def test_finding6_coverage_gaussian_and_discrete(selection):
    """Coverage of both modes on a Gaussian mechanism (true eps at delta from the exact profile) and on a discrete
    sampler (GRR, k = 4): the bound exceeds the true eps with probability at most alpha (Monte Carlo tolerance)."""
    from dpcompendium.chapters.privacy_audit import value_events
    from dpcompendium.core.mechanisms import gaussian_epsilon, grr_privatise

    conf, reps, delta = 0.8, 200, 1e-3
    alpha = 1 - conf
    sigma = 1.0
    cases = [
        (
            lambda n, g: g.normal(0.0, sigma, n),
            lambda n, g: g.normal(1.0, sigma, n),
            gaussian_epsilon(sigma, 1.0, delta),
            delta,
            None,
        ),
        (
            lambda n, g: grr_privatise(np.zeros(n, dtype=np.int64), 4, 1.0, g),
            lambda n, g: grr_privatise(np.ones(n, dtype=np.int64), 4, 1.0, g),
            1.0,
            0.0,
            value_events(range(4)),
        ),
    ]
    for sa, sb, true, dlt, events in cases:
        cov = coverage_experiment(
            sa,
            sb,
            true_epsilon=true,
            delta=dlt,
            events=events,
            n_samples=4000,
            reps=reps,
            confidence=conf,
            selections=(selection,),
            seed=31,
        )
        assert cov["exceeds_true"].mean() <= alpha + mc_tol(alpha * (1 - alpha), reps)
        assert cov["audited_epsilon"].mean() > 0.3 * true  # not trivially 0


@pytest.mark.parametrize("eps", [0.5, 1.0, 2.0])
def test_empirical_correct_laplace_holds_and_is_tight(eps):
    sa, sb = _laplace_pair(eps)
    res = empirical_audit(
        sa, sb, claimed_epsilon=eps, n_samples=1_000_000, rng=np.random.default_rng(7)
    )
    assert res.verdict == "holds"
    assert res.audited_epsilon > 0.9 * eps  # the search finds a near-optimal event
    assert res.n_samples == 1_000_000 and res.confidence == 0.95


@pytest.mark.parametrize(
    "bug,func,eps",
    [
        ("laplace-scale-epsilon", laplace_scale_epsilon, 0.5),
        ("laplace-half-sensitivity", laplace_half_sensitivity, 0.5),
        ("laplace-half-sensitivity", laplace_half_sensitivity, 1.0),
    ],
)
def test_empirical_catches_planted_laplace_bugs(bug, func, eps):
    sa, sb = _laplace_pair(eps, func)
    res = empirical_audit(
        sa, sb, claimed_epsilon=eps, n_samples=200_000, rng=np.random.default_rng(3)
    )
    assert res.verdict == "violated"
    assert eps < res.audited_epsilon <= planted_true_epsilon(bug, eps)


def test_empirical_gaussian_at_delta_stays_below_exact():
    eps, delta = 0.5, 1e-5
    sigma = gaussian_sigma(1.0, eps, delta)
    true = gaussian_epsilon(sigma, 1.0, delta)
    res = empirical_audit(
        lambda n, g: g.normal(0.0, sigma, n),
        lambda n, g: 1.0 + g.normal(0.0, sigma, n),
        claimed_epsilon=eps,
        claimed_delta=delta,
        n_samples=1_000_000,
        rng=np.random.default_rng(5),
    )
    assert 0 < res.audited_epsilon <= true and res.claimed_delta == delta and res.verdict == "holds"


def test_empirical_events_and_statistic():
    k, eps = 4, 1.0
    ev = [(f"v={v}", lambda y, v=v: y == v) for v in range(k)]
    res = empirical_audit(
        lambda n, g: grr_wrong_keep(np.zeros(n, dtype=np.int64), k, eps, g),
        lambda n, g: grr_wrong_keep(np.ones(n, dtype=np.int64), k, eps, g),
        claimed_epsilon=eps,
        events=ev,
        n_samples=200_000,
        rng=np.random.default_rng(9),
    )
    assert res.verdict == "violated" and res.audited_epsilon <= eps + math.log(k - 1)
    # vector outputs need a statistic
    with pytest.raises(ValueError, match="statistic"):
        empirical_audit(
            lambda n, g: g.normal(size=(n, 2)),
            lambda n, g: g.normal(size=(n, 2)),
            claimed_epsilon=1.0,
            n_samples=100,
            rng=np.random.default_rng(0),
        )
    res = empirical_audit(
        lambda n, g: g.laplace(0.0, 1.0, size=(n, 2)),
        lambda n, g: g.laplace(0.0, 1.0, size=(n, 2)) + np.array([1.0, 0.0]),
        claimed_epsilon=1.0,
        statistic=lambda y: y[:, 0],
        n_samples=200_000,
        rng=np.random.default_rng(0),
    )
    assert 0.8 < res.audited_epsilon <= 1.0


def test_same_seed_same_result():
    sa, sb = _laplace_pair(1.0)
    r1 = empirical_audit(
        sa, sb, claimed_epsilon=1.0, n_samples=10_000, rng=np.random.default_rng(4)
    )
    r2 = empirical_audit(
        sa, sb, claimed_epsilon=1.0, n_samples=10_000, rng=np.random.default_rng(4)
    )
    assert r1 == r2


def test_verdict_rule():
    assert verdict(1.0 + 1e-13, 1.0, "exact") == "holds"
    assert verdict(1.001, 1.0, "exact") == "violated"
    assert verdict(1.0, 1.0, "empirical") == "holds"
    assert verdict(1.01, 1.0, "empirical") == "violated"


# -------------------------------------------------------------------------------------------- planted bugs
def test_planted_samplers_follow_their_laws(rng):
    n = 200_000
    y = laplace_scale_epsilon(0.0, 1.0, 0.5, rng, size=n)
    assert np.var(y) == pytest.approx(
        2 * 0.5**2, abs=mc_tol(20 * 0.5**4, n)
    )  # Var Lap(b) = 2b², Var(y²) ≤ 20b⁴
    y = laplace_half_sensitivity(0.0, 1.0, 0.5, rng, size=n)
    assert np.var(y) == pytest.approx(2 * 1.0**2, abs=mc_tol(20.0, n))
    k, eps = 4, 1.0
    p, q = grr_wrong_keep_probabilities(k, eps)
    r = grr_wrong_keep(np.full(n, 2), k, eps, rng)
    freq = np.bincount(r, minlength=k) / n
    expected = np.array([q, q, p, q])
    assert np.all(np.abs(freq - expected) <= mc_tol(0.25, n))


# ------------------------------------------------------------------------------------ floating point
@pytest.mark.numerics
def test_low_bit_event_separates_numpy_laplace(rng):
    name, ind = low_bit_event()
    n = 1_000_000
    from_one = laplace_mechanism(1.0, 1.0, 1.0, rng, size=n)
    assert not np.any(ind(from_one))  # impossible under f(D') = 1: 1 + n is exact on the 2^-53 grid
    from_zero = laplace_mechanism(0.0, 1.0, 1.0, rng, size=n)
    assert np.mean(ind(from_zero)) > 0.05
    assert "2^-53" in name


@pytest.mark.parametrize("grid", [2.0**-53, 2.0**-3, 1.0, 4.0, 0.1])
def test_low_bit_event_is_the_fmod_test(grid, rng):
    """The event's fast test (scaling by a power of two) answers as the definition, y mod grid != 0, on values on
    and off the grid, subnormals, huge values, signed zeros, infinities and NaN; other grids use fmod itself."""
    lo, hi = -1e300, 1e300
    _, ind = low_bit_event(lo, hi, grid)
    y = np.concatenate(
        [
            rng.laplace(0.0, 1.0, 10_000),
            rng.integers(-(2**20), 2**20, 1000) * grid,  # on the grid
            np.ldexp(rng.random(200), -rng.integers(1000, 1074, 200)),  # subnormal and tiny
            [
                5e-324,
                -5e-324,
                2.0**-1022,
                0.0,
                -0.0,
                1e300,
                -1e300,
                2.0**1000,
                np.inf,
                -np.inf,
                np.nan,
            ],
        ]
    )
    with np.errstate(invalid="ignore"):
        expected = (y > lo) & (y < hi) & (np.fmod(y, grid) != 0.0)
    np.testing.assert_array_equal(ind(y), expected)
    assert expected.any() and not expected.all()


@pytest.mark.numerics
def test_numpy_laplace_is_the_textbook_sampler():
    g1, g2 = np.random.default_rng(8), np.random.default_rng(8)
    rebuilt = numpy_laplace_from_uniforms(g1.random(20_000), 1.5)
    assert np.array_equal(rebuilt, g2.laplace(0.0, 1.5, 20_000))


def test_low_bit_frequencies_table():
    t = low_bit_frequencies([0.5, 2.0], 200_000, seed=1)
    assert list(t["sampler"]) == ["numpy Generator.laplace", "snapping (B = 100)"] * 2
    numpy_rows = t[t["sampler"].str.startswith("numpy")]
    assert (numpy_rows["p_event_Dprime"] == 0).all() and (numpy_rows["p_event_D"] > 0.02).all()
    # P[0 < Lap(1/eps) < 1/2] = (1 - e^{-eps/2})/2 bounds the event's probability from above
    bound = (1 - np.exp(-numpy_rows["epsilon"] / 2)) / 2
    assert (numpy_rows["p_event_D"] <= bound + mc_tol(0.25, 200_000)).all()
    assert (
        (t.loc[~t.index.isin(numpy_rows.index), ["p_event_D", "p_event_Dprime"]] == 0).all().all()
    )


def test_snapping_outputs_are_on_the_grid_and_clamped(rng):
    eps, bound = 0.7, 10.0
    lam = 2.0 ** math.ceil(math.log2(1 / eps))
    y = snapping_laplace(np.array([0.0, 1.0, 9.9]), 1.0, eps, bound, rng, size=(100_000, 3))
    assert np.all(np.fmod(y, lam) == 0.0) and np.all(np.abs(y) <= bound)
    _, ind = low_bit_event()
    assert not np.any(ind(y))
    # symmetric noise: unbiased away from the clamp (Var ≤ 2/eps² + Λ²)
    col = y[:, 0]
    assert abs(col.mean()) <= mc_tol(2 / eps**2 + lam**2, col.size)
    assert snapping_epsilon(eps, 1.0, bound) == pytest.approx(eps * (1 + 2**-49 * bound))
    with pytest.raises(ValueError, match="bound"):
        snapping_laplace(0.0, 1.0, eps, 1.0, rng)


# ------------------------------------------------------------------------------------------- validation
def test_validation_messages():
    sa, sb = _laplace_pair(1.0)
    g = np.random.default_rng(0)
    with pytest.raises(ValueError, match="claimed_epsilon"):
        empirical_audit(sa, sb, claimed_epsilon=0.0, rng=g)
    with pytest.raises(ValueError, match="confidence"):
        empirical_audit(sa, sb, claimed_epsilon=1.0, confidence=1.5, rng=g)
    with pytest.raises(ValueError, match="n_samples"):
        empirical_audit(sa, sb, claimed_epsilon=1.0, n_samples=5, rng=g)
    with pytest.raises(ValueError, match="selection"):
        empirical_audit(sa, sb, claimed_epsilon=1.0, selection="best", rng=g)
    with pytest.raises(ValueError, match="rng"):
        empirical_audit(sa, sb, claimed_epsilon=1.0, rng=0)
    with pytest.raises(ValueError, match="claimed_delta"):
        empirical_audit(sa, sb, claimed_epsilon=1.0, claimed_delta=2.0, rng=g)
    with pytest.raises(ValueError, match="sampler_b"):
        empirical_audit(sa, lambda n, g: g.random(n - 1), claimed_epsilon=1.0, n_samples=100, rng=g)
    with pytest.raises(ValueError, match="exclusive"):
        empirical_audit(sa, sb, claimed_epsilon=1.0, events=[low_bit_event()], statistic=abs, rng=g)
    with pytest.raises(ValueError, match="events"):
        empirical_audit(sa, sb, claimed_epsilon=1.0, events=[], rng=g)
    with pytest.raises(ValueError, match="distributions"):
        exact_audit([[0.5, 0.6], [0.5, 0.5]], claimed_epsilon=1.0)
    with pytest.raises(ValueError, match="probs_b"):
        exact_epsilon([0.5, 0.5], [1.0])
    with pytest.raises(ValueError, match="successes"):
        clopper_pearson(11, 10)


# ------------------------------------------------------------------------------------------- properties
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.floats(0.01, 1.0), min_size=2, max_size=6),
    st.lists(st.floats(0.01, 1.0), min_size=2, max_size=6),
)
def test_exact_epsilon_is_a_symmetric_max_log_ratio(a, b):
    m = min(len(a), len(b))
    p = np.array(a[:m]) / sum(a[:m])
    q = np.array(b[:m]) / sum(b[:m])
    e = exact_epsilon(p, q)
    assert e == pytest.approx(exact_epsilon(q, p))
    assert (
        e >= 0
        and np.all(p <= np.exp(e) * q * (1 + 1e-12))
        and np.all(q <= np.exp(e) * p * (1 + 1e-12))
    )
    assert exact_delta(p, q, e) == pytest.approx(0.0, abs=1e-12)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 500), st.integers(0, 500), st.floats(0.5, 0.999))
def test_lower_bound_monotone_in_counts_and_confidence(k_a, k_b, conf):
    n = 500
    e = epsilon_lower_bound(k_a, n, k_b, n, confidence=conf)
    assert e >= 0
    if k_a < n:
        assert epsilon_lower_bound(k_a + 1, n, k_b, n, confidence=conf) >= e
    if k_b > 0:
        assert epsilon_lower_bound(k_a, n, k_b - 1, n, confidence=conf) >= e
    assert epsilon_lower_bound(k_a, n, k_b, n, confidence=min(conf + 0.0005, 0.9995)) <= e + 1e-12


# ------------------------------------------------------------------------- the claim: numbers or a PrivacyClaim
def test_engine_takes_a_validated_claim_or_checks_the_numbers():
    """Each engine entry checks claimed numbers once (one-line ValueError naming the argument), or takes a
    PrivacyClaim as it is — with the same result."""
    from dpcompendium.core.privacy import PrivacyClaim

    sa, sb = _laplace_pair(1.0)
    claim = PrivacyClaim("Laplace", "add-remove", "L1 1", 1.0)
    for audit, kw in ((empirical_audit, {}), (empirical_audit_chunked, {"chunk_size": 500})):

        def run(**claimed):
            return audit(sa, sb, n_samples=2000, rng=np.random.default_rng(5), **claimed, **kw)  # noqa: B023

        assert run(claimed_epsilon=1.0) == run(claim=claim)
        for bad, name in ((dict(claimed_epsilon=math.inf), "claimed_epsilon"),
                          (dict(claimed_epsilon=1.0, claimed_delta=-0.1), "claimed_delta"),
                          (dict(claimed_epsilon=1.0, claim=claim), "exclusive"),
                          ({}, "claimed_epsilon is required")):  # fmt: skip
            with pytest.raises(ValueError, match=name) as info:
                run(**bad)
            assert "\n" not in str(info.value)
    dist = np.array([[0.5, 0.5], [0.25, 0.75]])
    assert exact_audit(dist, claimed_epsilon=1.0) == exact_audit(dist, claim=claim)
    with pytest.raises(ValueError, match=r"^claimed_epsilon must be finite and > 0, got -1\.0$"):
        exact_audit(dist, claimed_epsilon=-1.0)


def test_n_select_in_memory_sets_the_split():
    """``n_select`` samples choose the event, the rest bound ε (in memory as chunked): the default is the half, and a
    value outside [10, n − 10] is a one-line ValueError."""
    sa, sb = _laplace_pair(1.0)

    def run(**kw):
        return empirical_audit(
            sa, sb, claimed_epsilon=1.0, n_samples=4000, rng=np.random.default_rng(7), **kw
        )

    assert run() == run(n_select=2000)
    for selection in ("split", "bonferroni"):
        res = run(n_select=1000, selection=selection)
        assert res.n_samples == 4000 and 0.0 <= res.audited_epsilon <= 1.0
    with pytest.raises(ValueError, match=r"^n_select must be <= 3990, got 3995$"):
        run(n_select=3995)


def test_interval_cuts_read_a_sorted_pool_s_quantiles_as_np_quantile_does():
    """issue 50: on a sorted pool the cut points' quantiles are read off by index (no copy, no partition); the index
    is numpy's own "inverted_cdf" arithmetic, so the cuts are those of np.quantile, bit for bit."""
    from dpcompendium.core.audit.events import _inverted_cdf_index, interval_cuts

    rng = np.random.default_rng(3)
    for n in (1, 2, 11, 999, 100_001):
        x = np.sort(rng.standard_normal(n))
        levels = np.unique(np.r_[0.0, 1.0, 0.5, 10.0 / n, 1 - 10.0 / n, rng.random(40)].clip(0, 1))
        want = np.quantile(x, levels, method="inverted_cdf")
        assert np.array_equal(x[_inverted_cdf_index(n, levels)], want), n
    pooled = np.sort(
        rng.laplace(size=200_001)
    )  # sorted: the index path; shuffled: np.unique and np.quantile
    assert np.array_equal(interval_cuts(pooled), interval_cuts(rng.permutation(pooled)))
