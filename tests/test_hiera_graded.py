"""The graded (input-discriminative) calibrations of the hiera chapter, the IDUE mean, the LDP mean lower bound and
the accounting of LDP-SGD over passes: each against a closed form or an exact law."""

from __future__ import annotations

import math

import numpy as np
import pytest
from conftest import mc_tol

from dpcompendium.chapters import hiera
from dpcompendium.chapters.hiera import accounting, simulate
from dpcompendium.core import accounting as core_accounting


@pytest.mark.parametrize("eps", [0.25, 1.0, 2.5])
def test_scaled_graded_calibration_binds_at_the_extreme_levels(eps):
    """For the shape {5,...,1} the pair (least, most sensitive level) binds, and its bound is min = eps: the graded
    calibration of the scaled schedule is the uniform one."""
    graded = hiera.calibrate_base_epsilon(eps, guarantee="graded")
    uniform = hiera.calibrate_base_epsilon(eps)
    assert graded == pytest.approx(uniform, rel=1e-9)
    sched = hiera.schedule(graded)
    excess = hiera.lhp_pair_epsilons(sched) - hiera.graded_targets(hiera.schedule(eps))
    assert np.unravel_index(np.argmax(excess), excess.shape) == (0, 4)
    assert excess.max() == pytest.approx(0.0, abs=1e-9)


@pytest.mark.parametrize("eps", [0.05, 0.5, 1.0, 4.0])
def test_graded_schedule_meets_the_bound_and_beats_the_scaled_shape(eps):
    sched = hiera.graded_schedule(eps)
    bound = hiera.graded_targets(hiera.schedule(eps))
    assert hiera.graded_excess(sched, bound) <= 0
    grid = np.linspace(-1, 1, 101)
    scaled = hiera.schedule(hiera.calibrate_base_epsilon(eps, guarantee="graded"))
    assert hiera.hiera_variance(grid, sched, 1) <= hiera.hiera_variance(grid, scaled, 1) * (
        1 + 1e-9
    )
    claim = hiera.privacy_claim("hiera-graded", eps)
    assert claim.private and claim.epsilon == pytest.approx(hiera.lhp_exact_epsilon(sched))


def test_calibrate_rejects_unknown_guarantee():
    with pytest.raises(ValueError, match="guarantee"):
        hiera.calibrate_base_epsilon(1.0, guarantee="personal")


@pytest.mark.parametrize("eps", [0.3, 1.0, 3.0])
def test_idue_law_and_pairs(eps):
    sched = hiera.schedule(eps)
    ends = hiera.level_bounds().ravel()
    law = hiera.idue_output_probabilities(ends, sched)
    assert np.allclose(law.sum(axis=-1), 1.0)
    rho = hiera.idue_budgets(sched)
    pair = hiera.idue_pair_epsilons(rho, sched.size)
    levels = np.repeat(np.arange(sched.size), 2)
    exact = np.zeros_like(pair)
    for a in range(ends.size):
        for b in range(ends.size):
            if ends[a] != ends[b]:
                r = np.log(law[a] / law[b]).max()
                exact[levels[a], levels[b]] = max(exact[levels[a], levels[b]], r)
    assert np.allclose(exact, pair, atol=1e-9)
    assert (pair <= hiera.graded_targets(sched) + 1e-9).all()
    assert simulate.meets_graded("idldp", eps)


def test_idue_user_side_matches_variance(rng):
    v = np.random.default_rng(3).uniform(-1, 1, 50)
    sched = hiera.schedule(1.0)
    reps = 4000
    x = np.tile(v, reps)
    bits = hiera.idue_privatise(x, sched, rng).reshape(reps, v.size, -1)
    est = np.asarray(hiera.idue_estimate(bits.sum(axis=1), np.full(reps, v.size), sched))
    var = hiera.idue_variance(v, sched)
    assert abs(est.mean() - v.mean()) < mc_tol(var, reps)
    assert abs(est.var() / var - 1) < 4 * math.sqrt(2 / reps) + 0.02


def test_meets_graded_by_method():
    got = {m: simulate.meets_graded(m, 1.0) for m in simulate.METHODS}
    assert got == {m: m in simulate.GRADED_METHODS for m in simulate.METHODS}


@pytest.mark.parametrize("n", [100, 10_000, 1_000_000])
@pytest.mark.parametrize("eps", [0.1, 1.0, 3.0])
def test_mean_lower_bound_closed_form_and_below_duchi(n, eps):
    lb = hiera.mean_lower_bound(n, eps)
    if 2 * math.sqrt(2 * n) * math.expm1(eps) >= 1:
        assert lb == pytest.approx(1 / (8 * math.sqrt(2) * math.sqrt(n) * math.expm1(eps)))
    # Duchi's estimator on data at +1 (its worst case): MAE ~ sqrt(2/pi) sd for large n, sd^2 = (C^2 - 1)/n
    sd = math.sqrt((1 / math.tanh(eps / 2) ** 2 - 1) / n)
    assert lb < math.sqrt(2 / math.pi) * sd


def test_optimal_composition_closed_forms():
    e0, d = 1.0, 1e-6
    p = math.exp(e0) / (1 + math.exp(e0))
    # one mechanism: delta(eps') = p (1 - e^{eps' - e0}) for eps' < e0
    assert core_accounting.pure_composition_epsilon(e0, 1, d) == pytest.approx(
        e0 + math.log(1 - d / p), abs=1e-9
    )
    # two: the loss is 2 e0 w.p. p^2, 0 w.p. 2p(1-p)
    eps2 = core_accounting.pure_composition_epsilon(e0, 2, d)
    delta2 = p * p * (1 - math.exp(eps2 - 2 * e0)) + 2 * p * (1 - p) * max(0.0, 1 - math.exp(eps2))
    assert delta2 == pytest.approx(d, rel=1e-6)
    for t in (1, 10, 100, 1000):
        opt = core_accounting.pure_composition_epsilon(0.1, t, d)
        adv, _ = core_accounting.advanced_composition(0.1, 0.0, t, d)
        assert opt <= 0.1 * t + 1e-12 and opt <= adv + 1e-9


@pytest.mark.parametrize(("e0", "t"), [(0.5, 10), (1.0, 50), (0.2, 200)])
def test_optimal_composition_dominates_laplace_pld(e0, t):
    """Randomized response is the worst ε₀-DP mechanism under composition (Kairouz et al.): the exact RR total is
    at least dp-accounting's PLD total of T Laplace mechanisms of the same ε₀ (an upper bound for Laplace), and
    below basic composition."""
    pytest.importorskip("dp_accounting")
    d = 1e-6
    laplace = core_accounting.pld_epsilon("laplace", 1.0 / e0, d, steps=t)
    rr = core_accounting.pure_composition_epsilon(e0, t, d)
    assert laplace <= rr * (1 + 1e-3) and rr <= e0 * t


def test_sgd_privacy_table():
    d = 1e-8
    tab = accounting.sgd_privacy_table(
        {"harmony": {1.0: 1.0}, "hiera": {1.0: 3.8}}, {1.0: 1000}, [1, 10], d
    )
    assert list(tab["epochs"]) == [1, 10, 1, 10]
    assert (tab["optimal"] <= tab["basic"] + 1e-12).all()
    h = tab[tab["method"] == "harmony"].set_index("epochs")
    rho = 10 * 1.0**2 / 2
    assert h.loc[10, "zcdp"] <= rho + 2 * math.sqrt(rho * math.log(1 / d))
    x = math.exp(1.0)
    n, dp = 1000, d / 2
    want = math.log1p((x - 1) / (x + 1) * (8 * math.sqrt(x * math.log(4 / dp) / n) + 8 * x / n))
    assert h.loc[1, "shuffle_pass"] == pytest.approx(want)
    assert (h["shuffle_total"] <= h["basic"]).all()
    # HierA's level is beyond the closed form's condition ln(n / (16 ln(2/delta))) for groups of 1000
    assert tab.loc[tab["method"] == "hiera", "shuffle_pass"].isna().all()


def test_hiera_calibrated_sgd_claim():
    claim = hiera.privacy_claim(
        "hiera-calibrated", 1.0, multipliers=hiera.SGD_TEXT_MULTIPLIERS, coupled=False
    )
    assert claim.epsilon == pytest.approx(1.0, abs=1e-9)


def test_kfold_mse_reps_shape_and_first_rep(rng):
    x = np.random.default_rng(0).uniform(-1, 1, (3000, 2))
    y = np.clip(0.3 * x[:, 0] + 0.05 * np.random.default_rng(1).normal(size=3000), -1, 1)
    out = hiera.sgd.kfold_mse_reps(x, y, "hiera-calibrated", [1.0, 2.0], rng, folds=2, reps=3)
    assert out.shape == (2, 3) and np.isfinite(out).all()
    assert len(set(np.round(out[0], 12))) == 3  # independent repetitions differ
