"""LHP, PLC and HierA: laws, unbiasedness, closed-form variance, exact privacy, validation."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import Z, mc_tol
from hypothesis import given, settings
from hypothesis import strategies as st

from dpcompendium.chapters.hiera import (
    SGD_TEXT_MULTIPLIERS,
    calibrate_base_epsilon,
    compensation_weights,
    hiera_claim,
    hiera_estimate,
    hiera_mean,
    hiera_variance,
    level_of,
    level_transition,
    lhp_counts,
    lhp_exact_epsilon,
    lhp_output_probabilities,
    lhp_pair_epsilons,
    lhp_privatise,
    plc,
    plc_counts,
    plc_keep_probability,
    privacy_table,
    schedule,
)


def test_levels_match_source_get_level():
    """The source's ``get_level`` with range_division (−1, −0.6, −0.2, 0.2, 0.6, 1): v < edge → that level."""
    v = np.array([-1.0, -0.6000001, -0.6, -0.2, 0.0, 0.2, 0.59, 0.6, 1.0])
    assert level_of(v).tolist() == [0, 0, 1, 2, 2, 3, 3, 4, 4]


def test_lhp_output_law(rng):
    """Empirical frequencies of (t*, v*) match P(s, b | v) cell by cell (z = 5 binomial tolerance)."""
    eps = schedule(0.5)
    n = 300_000
    for v in (-0.8, 0.1, 0.95):
        s, b = lhp_privatise(np.full(n, v), eps, rng)
        freq = lhp_counts(s, b, 5) / n
        p = lhp_output_probabilities(np.array(v), eps)
        assert p.sum() == pytest.approx(1.0)
        assert np.all(np.abs(freq - p) < Z * np.sqrt(p * (1 - p) / n))


def test_plc_makes_level_j_reports(rng):
    """A level-i Duchi bit after PLC has P(+1) = (1 + v c_j)/2, c_j = tanh(ε_j/2); counts follow the same law."""
    ei, ej, v, n = 2.0, 0.5, 0.4, 400_000
    p_i = 0.5 * (1 + v * np.tanh(ei / 2))
    bits = np.where(rng.random(n) < p_i, 1, -1)
    out = plc(bits, ei, ej, rng)
    p_j = 0.5 * (1 + v * np.tanh(ej / 2))
    assert abs(np.mean(out == 1) - p_j) < mc_tol(p_j * (1 - p_j), n)
    x = plc_keep_probability(ei, ej)
    counts = np.tile([[1000, 3000]], (20_000, 1))
    conv = plc_counts(counts, ei, ej, rng)
    assert np.all(conv.sum(axis=1) == 4000)
    mean = 1000 * x + 3000 * (1 - x)
    var = 4000 * x * (1 - x)
    assert abs(conv[:, 0].mean() - mean) < mc_tol(var, 20_000)
    with pytest.raises(ValueError, match="epsilon_to"):
        plc_keep_probability(0.5, 1.0)


@pytest.mark.parametrize("mu", [1, 2, 3, 5])
def test_compensation_counts_every_report_mu_times(mu):
    w = compensation_weights(5, mu)
    uses = [w[i] + min(i + mu - 1, 4) - i for i in range(5)]
    assert uses == [mu] * 5
    assert compensation_weights(5, mu, compensate=False).tolist() == [1] * 5


def _estimates(values, eps, mu, reps, rng, **kw):
    """reps independent HierA estimates on the same users, by the user-side LHP and the count-table collector."""
    s, b = lhp_privatise(np.tile(values, (reps, 1)), eps, rng)
    cell = (np.arange(reps)[:, None] * 5 + s) * 2 + (b < 0)
    counts = np.bincount(cell.ravel(), minlength=reps * 10).reshape(reps, 5, 2)
    return hiera_estimate(counts, eps, mu, rng, **kw)


@pytest.mark.parametrize("mu", [1, 2, 3, 5])
def test_hiera_unbiased_with_closed_form_variance(mu, rng):
    values = np.linspace(-1, 1, 1500)
    eps = schedule(0.5)
    reps = 6000
    est = _estimates(values, eps, mu, reps, rng, clip=False)
    var = hiera_variance(values, eps, mu)
    assert abs(est.mean() - values.mean()) < mc_tol(var, reps)
    m4 = np.mean((est - values.mean()) ** 4)
    assert abs(est.var() - var) < mc_tol(max(m4 - var**2, 0), reps) + mc_tol(var, reps) ** 2


def test_reuse_never_reduces_variance():
    """Data reuse (μ > 1) adds variance to the unclipped estimator, for every data set and schedule tried."""
    rng = np.random.default_rng(5)
    for base in (0.25, 1.0, 2.5):
        v = rng.uniform(-1, 1, 1000)
        var = [hiera_variance(v, schedule(base), mu) for mu in range(1, 6)]
        assert min(var[1:]) > var[0]


def test_no_compensation_is_biased(rng):
    """Without the compensation step the top levels are under-weighted: a visible bias on values near +1."""
    values = np.repeat([-0.9, 0.9], 1000)
    eps = schedule(2.0)
    est = _estimates(values, eps, 3, 3000, rng, clip=False, compensate=False)
    unbiased_sd = np.sqrt(hiera_variance(values, eps, 3))
    assert est.mean() < -10 * unbiased_sd / np.sqrt(
        3000
    )  # true mean 0; level-5 users (0.9) count less


def test_hiera_mean_pipeline_chunks(rng):
    """Chunked pipeline: unbiased within tolerance; chunk size does not change the law (same seed → same count)."""
    v = np.random.default_rng(1).uniform(-1, 1, 200_000)
    eps = schedule(1.0)
    m = hiera_mean(v, eps, 2, rng, chunk_size=30_000)
    assert abs(m - v.mean()) < Z * np.sqrt(hiera_variance(v, eps, 2)) + 1e-3
    a = hiera_mean(v, eps, 1, np.random.default_rng(3), chunk_size=1 << 20)
    b = hiera_mean(v, eps, 1, np.random.default_rng(3), chunk_size=1 << 20)
    assert a == b


def test_exact_epsilon_matches_brute_force():
    """The closed-form supremum equals a brute-force maximum over a fine grid of inputs (from below, to 1e-3)."""
    for eps in (schedule(1.0), schedule(0.25, SGD_TEXT_MULTIPLIERS)):
        v = np.linspace(-1, 1, 40_001)
        v = v[np.min(np.abs(v[:, None] - np.array([-0.6, -0.2, 0.2, 0.6])), axis=1) > 1e-9]
        logp = np.log(lhp_output_probabilities(v, eps).reshape(v.size, -1))
        brute = np.max(logp.max(axis=0) - logp.min(axis=0))
        exact = lhp_exact_epsilon(eps)
        assert brute <= exact + 1e-12
        assert exact - brute < 1e-3


def test_exact_epsilon_sanity():
    """Equal budgets: GRR and Duchi compose, so ε_exact ≤ 2ε; the source's schedules exceed every claimed ε_t."""
    assert lhp_exact_epsilon(np.full(5, 0.7)) <= 1.4 + 1e-12
    pair = lhp_pair_epsilons(schedule(1.0))
    assert pair.shape == (5, 5)
    table = privacy_table([0.25, 1.0, 2.5])
    assert np.all(table["exact_epsilon"] > table["claimed_epsilon"])
    overall = table[table["level"] == "all"]
    assert np.allclose(
        overall["exact_epsilon"], [lhp_exact_epsilon(schedule(e)) for e in (0.25, 1.0, 2.5)]
    )


def test_calibration_and_claims():
    base = calibrate_base_epsilon(1.0)
    assert lhp_exact_epsilon(schedule(base)) == pytest.approx(1.0, abs=1e-9)
    claim = hiera_claim(schedule(1.0))
    assert claim.private and claim.neighbours == "local"
    assert claim.epsilon == pytest.approx(lhp_exact_epsilon(schedule(1.0)))
    level = hiera_claim(schedule(1.0), level=4)
    assert not level.private and level.epsilon == 1.0 and "exact" in level.why


def test_level_transition_rows():
    g = level_transition(schedule(1.0))
    assert np.allclose(g.sum(axis=1), 1.0)
    assert np.allclose(np.diag(g) / g[np.arange(5), (np.arange(5) + 1) % 5], np.exp(schedule(1.0)))


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (lambda r: lhp_privatise([0.0], [1.0, 2.0, 3.0, 4.0, 5.0], r), "epsilons"),
        (lambda r: lhp_privatise([2.0], schedule(1.0), r), "values"),
        (lambda r: lhp_privatise([0.0], schedule(1.0), r, edges=[0.5, 0.1]), "edges"),
        (lambda r: hiera_estimate(np.ones((5, 2), int), schedule(1.0), 6, r), "mu"),
        (lambda r: hiera_estimate(np.zeros((5, 2), int), schedule(1.0), 1, r), "counts"),
        (lambda r: hiera_mean([0.1], schedule(1.0), 2, r, chunk_size=0), "chunk_size"),
        (lambda r: lhp_counts([0, 7], [1, -1], 5), "levels"),
        (lambda r: calibrate_base_epsilon(0.0), "target_epsilon"),
        (lambda r: hiera_claim(schedule(1.0), level=9), "level"),
    ],
)
def test_validation(call, match, rng):
    with pytest.raises(ValueError, match=match):
        call(rng)


def test_decoupled_level_and_value():
    """Algorithm 4's reports (level from x, value a gradient): constant budgets give exactly ε + ε, and decoupling
    never lowers the loss."""
    assert lhp_exact_epsilon(np.full(5, 0.7), coupled=False) == pytest.approx(1.4)
    for base in (0.25, 1.0):
        eps = schedule(base, SGD_TEXT_MULTIPLIERS)
        assert lhp_exact_epsilon(eps, coupled=False) >= lhp_exact_epsilon(eps)


def test_privacy_claim_dispatch():
    from dpcompendium.chapters.hiera import privacy_claim

    assert privacy_claim("pm", 0.5).epsilon == 0.5
    assert not privacy_claim("graded-laplace", 1.0).private
    assert privacy_claim("hiera", 1.0).epsilon == pytest.approx(lhp_exact_epsilon(schedule(1.0)))
    sgd = privacy_claim("hiera", 1.0, multipliers=SGD_TEXT_MULTIPLIERS, coupled=False)
    assert sgd.epsilon == pytest.approx(
        lhp_exact_epsilon(schedule(1.0, SGD_TEXT_MULTIPLIERS), coupled=False)
    )


@settings(max_examples=40, deadline=None)
@given(
    base=st.floats(0.05, 3.0),
    shape=st.lists(st.floats(0.1, 1.0), min_size=5, max_size=5),
    seed=st.integers(0, 2**31),
)
def test_exact_epsilon_bounds_every_pair(base, shape, seed):
    """Property: for any non-increasing schedule, no pair of inputs has a larger log-ratio than the exact ε."""
    eps = np.sort(np.asarray(shape))[::-1] * base / max(shape) * 5
    g = np.random.default_rng(seed)
    v = g.uniform(-1, 1, 400)
    logp = np.log(lhp_output_probabilities(v, eps).reshape(v.size, -1))
    assert np.max(logp.max(axis=0) - logp.min(axis=0)) <= lhp_exact_epsilon(eps) + 1e-9


@pytest.mark.numerics
@pytest.mark.parametrize("method", ["harmony", "pm", "hybrid", "hiera", "hiera-graded", "idldp"])
@pytest.mark.parametrize("epsilon", [0.4, 0.7, 2.0])  # Hybrid: α = 0 below 0.61, PM mixed in above
@pytest.mark.parametrize("n", [3, 2_000, 5_003])
def test_compiled_simulation_is_the_numpy_code_bit_for_bit(method, epsilon, n, monkeypatch):
    """The compiled per-user Bernoulli sums and PM means of ``simulate_estimates`` draw the numpy code's uniforms in
    its order and sum PM's reports as numpy does (pairwise): the same estimates to the last bit, and the generators
    end in the same state (distinct values, so every user gets its own draws)."""
    from dpcompendium.chapters.hiera import simulate

    values = np.random.default_rng(3).uniform(-1.0, 1.0, n)
    values[:3] = [-1.0, 0.6, 1.0]  # the ends and an edge
    out = {}
    for flag in (True, False):
        monkeypatch.setattr(simulate, "compiled_kernels", flag)
        gen = np.random.default_rng(5)
        est = simulate.simulate_estimates(values, method, epsilon, 7, gen)
        out[flag] = (est, gen.bit_generator.state)
    assert out[True][1] == out[False][1]
    assert np.array_equal(out[True][0], out[False][0])


@pytest.mark.numerics
@pytest.mark.parametrize("n", [1, 7, 8, 9, 127, 128, 129, 136, 1_000, 32_561, 100_000])
def test_pairwise_sum_is_numpys(n):
    """The compiled pairwise sum follows numpy's ``add.reduce`` on a contiguous row operation for operation."""
    from dpcompendium.chapters.hiera import simulate

    a = np.random.default_rng(n).standard_normal(n) * 1e3
    got = simulate._pairwise_sum_jit()(a, simulate._pairwise_program(n), np.empty(64))
    assert got == np.add.reduce(a)


@pytest.mark.numerics
def test_hashing_shortcut_never_overrules_the_sorted_count():
    """``_bernoulli_sums`` skips its lexsort only when hashing says the (group, p) pairs are certainly more than n/8
    (±0 may hash apart, one extra pair per group at most): with few distinct values, signed zeros and groups, the
    sort still decides; with many, the shortcut is taken, and the sums are the same either way."""
    from dpcompendium.chapters.hiera import simulate

    g = np.random.default_rng(2)
    few = np.round(g.uniform(-1, 1, 4_000), 1)  # 21 values: one binomial each
    p_few = 0.5 * (1 + few)
    p_few[::7] = -0.0
    p_few[1::7] = 0.0
    groups = (few > 0).astype(np.int64)
    assert not simulate._many_distinct(p_few, groups, 2)
    many = g.uniform(0, 1, 4_000)
    assert simulate._many_distinct(many, groups, 2)
    # at the threshold: n/8 distinct pairs exactly is the binomial branch of the sort, never skipped
    edge = np.repeat(np.linspace(0.1, 0.9, 500), 8)
    assert not simulate._many_distinct(edge, np.zeros(edge.size, np.int64), 1)


def test_exact_epsilon_is_finite_and_smooth_at_large_budgets():
    """The new-user review: at base ε ≥ 7.7 (a level budget 5 × 7.7 = 38.5, which ``list`` allows) tanh(ε/2) rounded
    to 1 and the exact ε came out infinite, so the chapter said the mechanism failed its claim. The exact ε is
    finite and, in this regime, affine in the base ε: its slope is the same on both sides of the switch to the exact
    formula (|v·tanh| > 1 − 1e-9, near a level budget of 21.4) and at the largest bases."""
    from dpcompendium.chapters.hiera import hiera as H

    def exact(b):
        return H.lhp_exact_epsilon([5 * b, 4 * b, 3 * b, 2 * b, b])

    values = {b: exact(b) for b in (4.0, 4.2, 4.4, 4.6, 7.0, 7.7, 10.0)}
    assert all(np.isfinite(v) for v in values.values())
    slopes = [
        (values[b] - values[a]) / (b - a)
        for a, b in ((4.0, 4.2), (4.2, 4.4), (4.4, 4.6), (7.0, 7.7), (7.7, 10.0))
    ]
    np.testing.assert_allclose(slopes, slopes[-1], rtol=1e-6)
