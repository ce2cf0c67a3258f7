"""Tests of dpcompendium.chapters.dp_mean.modern against closed forms: the Gaussian mean's variance, the DP
quantile's exact law and utility on a crafted sample, the budget split, the minimax lower bound."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from dpcompendium.chapters import dp_mean as M
from dpcompendium.core.accounting import zcdp_epsilon

B = M.HEIGHT_BOUNDS
DELTA = B[1] - B[0]


def test_rho_for_epsilon_inverts_the_conversion():
    for eps in (1e-6, 0.1, 1.0, 5.0, 50.0):
        rho = M.rho_for_epsilon(eps, 1e-6)
        assert zcdp_epsilon(rho, 1e-6) == pytest.approx(eps, rel=1e-8)


def test_gaussian_mean_variance_matches_sigma():
    rng = np.random.default_rng(1)
    x = rng.uniform(*B, size=50)
    sigma = M.gaussian_mean_sigma(50, 1.0, 1e-6, B)
    # the analytic calibration, below the zCDP conversion's sigma
    assert sigma < DELTA / (50 * math.sqrt(2 * M.rho_for_epsilon(1.0, 1e-6)))
    n = 200_000
    y = M.noisy_average_gaussian(x, 1.0, 1e-6, B, rng, size=n, clamp=False)
    # the sample variance's relative sd is sqrt(2/(n-1)); its mean's sd is sigma/sqrt(n)
    assert abs(np.var(y, ddof=1) / sigma**2 - 1) < 5 * math.sqrt(2 / (n - 1))
    assert abs(y.mean() - x.mean()) < 5 * sigma / math.sqrt(n)
    clamped = M.noisy_average_gaussian(x, 0.01, 1e-6, B, rng, size=1000)
    assert clamped.min() >= B[0] and clamped.max() <= B[1]


def test_gaussian_claim_is_replace_one_with_delta():
    c = M.noisy_average_gaussian.privacy_claim(1.0, 1e-6, B, 10)
    assert c.private and c.neighbours == "replace-one" and c.delta == 1e-6


def test_quantile_law_on_a_crafted_sample():
    """Equal gaps: P(gap i) ∝ exp(−ε|i − qn|/2) exactly; the simulated frequency of |rank error| ≤ t agrees."""
    n, q, eps = 100, 0.5, 0.5
    x = np.arange(1, n + 1, dtype=float)  # gaps of width 1 on the domain [0, n + 1]
    edges, p = M.quantile_interval_probabilities(x, q, eps, (0.0, n + 1.0))
    w = np.exp(-eps * np.abs(np.arange(n + 1) - q * n) / 2)
    np.testing.assert_allclose(p, w / w.sum(), rtol=1e-12)
    np.testing.assert_array_equal(edges, np.arange(n + 2, dtype=float))
    t = 10
    exact = float(p[np.abs(np.arange(n + 1) - q * n) <= t].sum())
    # utility: P(|rank error| > t) ≤ 2e^{−εt/2}/(1 − e^{−ε/2}) / (normalizer ≥ 1)
    assert 1 - exact <= 2 * math.exp(-eps * (t + 1) / 2) / (1 - math.exp(-eps / 2))
    draws = 200_000
    y = M.dp_quantile(x, q, eps, (0.0, n + 1.0), np.random.default_rng(2), size=draws)
    freq = float(np.mean(np.abs(y - (q * n + 0.5)) <= t + 0.5))
    assert abs(freq - exact) < 5 * math.sqrt(exact * (1 - exact) / draws)


def test_quantile_validates():
    with pytest.raises(ValueError, match="q must"):
        M.dp_quantile([1.0], 1.5, 1.0, (0, 2), np.random.default_rng(0))
    with pytest.raises(ValueError, match="x"):
        M.dp_quantile([5.0], 0.5, 1.0, (0, 2), np.random.default_rng(0))


def test_private_bounds_mean_is_accurate_at_large_n_eps_and_in_range():
    rng = np.random.default_rng(3)
    x = np.clip(rng.normal(170, 10, size=20_000), 0, 300)
    y = M.noisy_average_private_bounds(x, 2.0, (0, 300), rng, size=500)
    # the bias of clipping to the 1%/99% quantiles of a symmetric sample is small; the noise is ~(u - l)/(n eps)
    assert np.sqrt(np.mean((y - x.mean()) ** 2)) < 0.2
    claim = M.noisy_average_private_bounds.privacy_claim(2.0, (0, 300))
    assert claim.private and claim.neighbours == "replace-one" and claim.epsilon == 2.0
    with pytest.raises(ValueError, match="bounds_share"):
        M.noisy_average_private_bounds(x, 1.0, (0, 300), rng, bounds_share=1.0)


def test_optimal_split_for_heights_and_its_rmse_ratio():
    """The issue's numbers: for a declared |μ − m| = 0.5 cm the split is ≈ 0.94/0.06 and the first-order RMSE
    ≈ 0.53–0.55 × method 3's √2Δ/(nε) (the two are under different relations: add-remove vs replace-one)."""
    c = M.optimal_count_share(B, 0.5)
    assert c == pytest.approx(0.0613, abs=1e-3)
    grid = np.linspace(0.01, 0.99, 9801)
    rmse = [M.centred_first_order_rmse(170.5, 1000, 1.0, B, g) for g in grid]
    assert abs(grid[int(np.argmin(rmse))] - c) < 2e-4
    ratio = M.centred_first_order_rmse(170.5, 1000, 1.0, B, c) / (math.sqrt(2) * DELTA / 1000)
    assert 0.53 < ratio < 0.56


def test_centred_first_order_rmse_matches_simulation_at_large_n_eps():
    rng = np.random.default_rng(4)
    x = np.clip(rng.normal(175, 10, size=10_000), *B)
    c = M.optimal_count_share(B, 5.0)
    reps = 40_000
    y = M.noisy_average_centred(x, 1.0, B, rng, size=reps, count_share=c, clamp=False)
    mse = np.mean((y - x.mean()) ** 2)
    pred = M.centred_first_order_rmse(float(x.mean()), x.size, 1.0, B, c) ** 2
    se = np.std((y - x.mean()) ** 2, ddof=1) / math.sqrt(reps)
    assert abs(mse - pred) < 5 * se + 0.01 * pred  # 1%: the second-order terms at n eps = 10^4


def test_centred_claims_relate_the_two_relations():
    ar = M.noisy_average_centred.privacy_claim(1.0, B, 0.06)
    ro = M.noisy_average_centred.privacy_claim(1.0, B, 0.06, "replace-one")
    assert ar.neighbours == "add-remove" and ar.epsilon == 1.0
    # under replace-one the count costs nothing and the centred sum spends 2 x its share (not 2 eps)
    assert ro.neighbours == "replace-one" and ro.epsilon == pytest.approx(2 * 0.94)
    direct = M.noisy_average_centred.privacy_claim(
        1.0, B, calibration="replace-one", neighbours="replace-one"
    )
    assert direct.epsilon == 1.0 and direct.neighbours == "replace-one"
    with pytest.raises(ValueError, match="neighbours must be replace-one"):
        M.noisy_average_centred.privacy_claim(1.0, B, calibration="replace-one")


def test_minimax_lower_bound_is_theta_delta_over_n_eps():
    for n, eps in ((10_000, 0.01), (100_000, 0.1)):
        lb = M.minimax_lower_bound(n, eps, B)
        assert 0.13 < lb * n * eps / DELTA < 0.14
    assert M.minimax_lower_bound(1000, 0.5, B, "add-remove") == M.minimax_lower_bound(1000, 1.0, B)
    # the clamped Laplace mean's worst-case MAE (all records at a, k moved) is above the bound
    n, eps = 200, 0.5
    lb = M.minimax_lower_bound(n, eps, B)
    mae, _ = M.clamped_laplace_error(170.0, DELTA / (n * eps), B)
    assert mae > lb


def test_clipping_tradeoff_bias_and_noise():
    x = np.array([150.0, 160.0, 170.0, 180.0, 190.0])
    t = M.clipping_tradeoff(x, 140.0, np.array([165.0, 190.0, 250.0]), 1.0)
    np.testing.assert_allclose(t["bias"], [(150 + 160 + 165 * 3) / 5 - 170, 0.0, 0.0])
    np.testing.assert_allclose(t["sd"], math.sqrt(2) * np.array([25.0, 50.0, 110.0]) / 5)
    np.testing.assert_allclose(t["rmse"], np.hypot(t["bias"], t["sd"]))


# ------------------------------------------------------------------------------------------------- CoinPress
def test_coinpress_schedule_is_the_closed_form():
    rho = M.rho_for_epsilon(1.0, 1e-6)
    steps = M.coinpress_steps(1000, rho, (0, 300), scale=10.0)
    assert len(steps) == len(M.COINPRESS_SHARES)
    assert sum(s["rho"] for s in steps) == pytest.approx(rho, rel=1e-12)
    tail = lambda beta: math.sqrt(1 + 2 * math.sqrt(math.log(1 / beta)) + 2 * math.log(1 / beta))  # noqa: E731
    gamma = 10.0 * tail(M.COINPRESS_BETA / 1000)
    r = 150.0
    for s in steps:
        assert s["gamma"] == pytest.approx(gamma)
        assert s["radius"] == pytest.approx(r)
        sd = 2 * (r + gamma) / (1000 * math.sqrt(2 * s["rho"]))
        assert s["sd"] == pytest.approx(sd)
        r = math.sqrt(100.0 / 1000 + sd * sd) * tail(M.COINPRESS_BETA / 2)
    # the range shrinks: each step's interval is narrower than the one before
    assert all(a["radius"] > b["radius"] for a, b in itertools.pairwise(steps))


def test_coinpress_composes_to_the_target_epsilon():
    claim = M.noisy_average_coinpress.privacy_claim(1.0, 1e-6, (0, 300))
    assert claim.private and claim.neighbours == "replace-one"
    assert (claim.epsilon, claim.delta) == (1.0, 1e-6)
    rho = sum(
        s["rho"] for s in M.coinpress_steps(50, M.rho_for_epsilon(1.0, 1e-6), (0, 300), scale=10.0)
    )
    assert zcdp_epsilon(rho, 1e-6) == pytest.approx(1.0, rel=1e-8)


def test_coinpress_step_sensitivity_bounds_a_replacement():
    """Every step's clipped mean moves by at most 2(r + γ)/n when one record is replaced, whatever the centre."""
    rng = np.random.default_rng(5)
    n = 20
    steps = M.coinpress_steps(n, 0.1, (0, 300), scale=10.0)
    x = rng.uniform(0, 300, size=n)
    for s in steps:
        half = s["half_width"]
        for c in rng.uniform(-50, 350, size=200):
            y = x.copy()
            y[rng.integers(n)] = rng.uniform(-1000, 1000)
            move = abs(
                np.clip(x, c - half, c + half).mean() - np.clip(y, c - half, c + half).mean()
            )
            assert move <= 2 * half / n + 1e-12


def test_coinpress_is_the_last_steps_gaussian_when_the_data_sit_inside():
    """With data well inside every interval, the release is mean + N(0, sd_T²): unbiased, variance sd_T²."""
    rng = np.random.default_rng(6)
    n = 5000
    x = np.clip(rng.normal(170, 10, size=n), 140, 200)
    eps, delta = 3.0, 1e-6
    steps = M.coinpress_steps(n, M.rho_for_epsilon(eps, delta), (0, 300), scale=10.0)
    reps = 20_000
    y = M.noisy_average_coinpress(x, eps, delta, (0, 300), rng, size=reps, scale=10.0)
    sd = steps[-1]["sd"]
    assert abs(y.mean() - x.mean()) < 5 * sd / math.sqrt(reps)
    # variance of a normal sample: se of s² is s²·√(2/(reps − 1))
    assert abs(y.var(ddof=1) / sd**2 - 1) < 5 * math.sqrt(2 / (reps - 1))


def test_coinpress_seeds_and_validation():
    x = np.full(30, 170.0)
    a = M.noisy_average_coinpress(
        x, 1.0, 1e-6, (0, 300), np.random.default_rng(1), size=4, scale=10.0
    )
    b = M.noisy_average_coinpress(
        x, 1.0, 1e-6, (0, 300), np.random.default_rng(1), size=4, scale=10.0
    )
    np.testing.assert_array_equal(a, b)
    assert ((a >= 0) & (a <= 300)).all()
    g = np.random.default_rng(0)
    with pytest.raises(ValueError, match="scale"):
        M.noisy_average_coinpress(x, 1.0, 1e-6, (0, 300), g, scale=0.0)
    with pytest.raises(ValueError, match="shares"):
        M.noisy_average_coinpress(x, 1.0, 1e-6, (0, 300), g, scale=1.0, shares=(0.5, 0.4))
    with pytest.raises(ValueError, match="beta"):
        M.noisy_average_coinpress(x, 1.0, 1e-6, (0, 300), g, scale=1.0, beta=1.0)
    with pytest.raises(ValueError, match="delta"):
        M.noisy_average_coinpress(x, 1.0, 0.0, (0, 300), g, scale=1.0)
    with pytest.raises(ValueError, match="delta"):
        M.noisy_average_coinpress.privacy_claim(1.0, 0.0, (0, 300))
    with pytest.raises(ValueError, match="x must hold"):
        M.noisy_average_coinpress([], 1.0, 1e-6, (0, 300), g, scale=1.0)


# referee 6, m14: CoinPress at other configurations than the chapter's one
def test_coinpress_schedule_is_the_chapters_at_three_steps():
    from dpcompendium.chapters import dp_mean

    assert dp_mean.coinpress_schedule(3) == dp_mean.COINPRESS_SHARES
    for t in dp_mean.COINPRESS_SENSITIVITY["steps"]:
        sh = dp_mean.coinpress_schedule(t)
        assert len(sh) == t and abs(sum(sh) - 1) < 1e-12 and sh[-1] == dp_mean.COINPRESS_SHARES[-1]
    with pytest.raises(ValueError, match="steps"):
        dp_mean.coinpress_schedule(1)


def test_coinpress_sensitivity_table():
    from dpcompendium.chapters import dp_mean

    tab = dp_mean.coinpress_sensitivity("heights", 300, 1.0, 200, 5)
    assert len(tab) == 9
    base = tab[(tab["scale_factor"] == 1.0) & (tab["steps"] == 3)]
    assert float(base["rmse_ratio"].iloc[0]) == 1.0
    assert np.allclose(tab["quantile_ratio"], tab["rmse"] / tab["quantile_rmse"])
    # a guess ten times too wide widens every clipping interval by its margin: the error grows several-fold
    assert (tab[tab["scale_factor"] == 10.0]["rmse_ratio"] > 3).all()
    again = dp_mean.coinpress_sensitivity("heights", 300, 1.0, 200, 5)
    assert tab.equals(again)  # one seed, one table
    with pytest.raises(ValueError, match="name"):
        dp_mean.coinpress_sensitivity("wine", 300, 1.0, 200, 5)
    with pytest.raises(ValueError, match="scale_factors"):
        dp_mean.coinpress_sensitivity("heights", 300, 1.0, 200, 5, scale_factors=(0.0,))
    with pytest.raises(ValueError, match="epsilon"):
        dp_mean.coinpress_sensitivity("heights", 300, -1.0, 200, 5)
