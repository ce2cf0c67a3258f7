"""Statistical tests of dpcompendium.chapters.dp_mean: measured errors vs closed forms, exact probabilities vs simulation, and
the evidence that the resampling method (as written) is not ε-DP. Tolerances: z = 5 standard errors (conftest)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from conftest import Z, mc_tol

from dpcompendium.chapters import dp_mean as M

B = M.HEIGHT_BOUNDS
A, Bh = B
N_DRAWS = 200_000


def _check_mean(values: np.ndarray, expected: float) -> None:
    """Sample mean of ``values`` within z·sd/√N of ``expected`` (plug-in variance)."""
    assert abs(values.mean() - expected) <= mc_tol(values.var(ddof=1), values.size), (
        values.mean(),
        expected,
    )


@pytest.mark.parametrize(("n", "eps"), [(1, 0.5), (100, 0.05), (1000, 2.0)])
def test_laplace_public_n_mse_is_2_beta_squared(n, eps):
    rng = np.random.default_rng(11)
    x = M.heights(n, rng)
    err = M.noisy_average_clamped(x, eps, B, rng, size=N_DRAWS, clamp=False) - x.mean()
    beta = (Bh - A) / (n * eps)
    # e = Lap(beta): E e^2 = 2 beta^2, Var(e^2) = E e^4 - (E e^2)^2 = 24 beta^4 - 4 beta^4 = 20 beta^4
    assert abs(np.mean(err**2) - 2 * beta**2) <= mc_tol(20 * beta**4, N_DRAWS)
    assert abs(np.mean(np.abs(err)) - beta) <= mc_tol(beta**2, N_DRAWS)  # Var|e| = 2b^2 - b^2


@pytest.mark.parametrize(
    ("n", "eps", "mu_shift"), [(1, 0.3, 0.0), (5, 0.1, 25.0), (100, 0.05, -20.0), (50, 1.0, 0.0)]
)
def test_clamped_error_matches_closed_form(n, eps, mu_shift):
    x = np.full(n, 170.0 + mu_shift)
    err = M.noisy_average_clamped(x, eps, B, np.random.default_rng(12), size=N_DRAWS) - x.mean()
    mae, mse = M.clamped_laplace_error(float(x.mean()), (Bh - A) / (n * eps), B)
    _check_mean(err**2, mse)
    _check_mean(np.abs(err), mae)


@pytest.mark.parametrize("variant", ["as-written", "corrected"])
@pytest.mark.parametrize(
    ("n", "eps", "mu_shift"), [(1, 0.3, 0.0), (5, 0.1, 25.0), (100, 0.05, -29.0)]
)
def test_resampling_error_matches_closed_form(variant, n, eps, mu_shift):
    x = np.full(n, 170.0 + mu_shift)
    err = (
        M.noisy_average_resampling(
            x, eps, B, np.random.default_rng(13), size=N_DRAWS, variant=variant
        )
        - x.mean()
    )
    scale = (Bh - A) / (n * eps) * (1 if variant == "as-written" else 2)
    mae, mse = M.truncated_laplace_error(float(x.mean()), scale, B)
    _check_mean(err**2, mse)
    _check_mean(np.abs(err), mae)


@pytest.mark.parametrize(("method", "func"), [("composition", M.noisy_average_composition),
                                              ("normalized", M.noisy_average_normalized)])  # fmt: skip
@pytest.mark.parametrize("variant", ["as-written", "corrected"])
def test_ratio_methods_match_first_order_when_n_eps_is_large(method, func, variant):
    # n eps = 5000: the neglected second-order terms are ~1/(n eps) relative, far below the MC tolerance
    rng = np.random.default_rng(14)
    x = M.heights(5000, rng)
    err = func(x, 1.0, B, rng, size=N_DRAWS, variant=variant) - x.mean()
    mae, mse, kind = M.closed_form_error(method, variant, float(x.mean()), 5000, 1.0, B)
    assert kind == "first-order"
    _check_mean(err**2, mse)
    _check_mean(np.abs(err), mae)


def test_empty_branch_frequencies():
    eps = 0.7
    y = M.noisy_average_clamped([], eps, B, np.random.default_rng(15), size=N_DRAWS)
    p_lo, p_mid, p_hi = M.empty_branch_probabilities(eps)
    for hit, p in ((y == A, p_lo), (y == Bh, p_hi), ((y > A) & (y < Bh), p_mid)):
        assert abs(hit.mean() - p) <= mc_tol(p * (1 - p), N_DRAWS)
    mid = y[(y > A) & (y < Bh)]  # uniform on [a, b]: mean (a + b)/2, variance (b - a)^2 / 12
    assert abs(mid.mean() - (A + Bh) / 2) <= mc_tol((Bh - A) ** 2 / 12, mid.size)


@pytest.mark.parametrize("method", ["clamped", "resampling"])
@pytest.mark.parametrize(
    ("x", "event"), [([A, A, 150.0], (A, 145.0)), ([Bh] * 3, (190.0, Bh)), ([170.0], (160, 175))]
)
def test_event_probability_matches_simulation(method, x, event):
    eps = 0.4
    func = M.noisy_average_clamped if method == "clamped" else M.noisy_average_resampling
    y = func(x, eps, B, np.random.default_rng(16), size=N_DRAWS)
    p = M.event_probability(method, x, eps, B, event)
    freq = np.mean((y >= event[0]) & (y <= event[1]))
    assert abs(freq - p) <= mc_tol(p * (1 - p), N_DRAWS)


def test_resampling_is_not_eps_dp_and_the_correction_is():
    """The chapter's evidence: D = (a,…,a), D' = (a,…,a,b), n = 10, ε = 1, event y ≤ a + 0.6."""
    eps, draws = 1.0, 1_000_000
    ev = M.resampling_evidence(10, eps, B, 0.6, draws, np.random.default_rng(17))
    for variant, rows in ev.groupby("variant"):
        d, d2 = rows.set_index("dataset").loc["D"], rows.set_index("dataset").loc["D'"]
        # exact probabilities agree with the simulation
        for r in (d, d2):
            assert abs(r["simulated"] - r["exact"]) <= mc_tol(r["exact"] * (1 - r["exact"]), draws)
        if variant == "as-written":
            assert d["ratio"] > math.exp(eps)
            # conservative simulated ratio (numerator down, denominator up by z standard errors) still > e^eps
            assert (d["simulated"] - Z * d["se"]) / (d2["simulated"] + Z * d2["se"]) > math.exp(eps)
        else:
            assert d["ratio"] <= math.exp(eps)


def test_clamped_is_not_add_remove_dp_by_simulation():
    eps, rng = 0.1, np.random.default_rng(18)
    y1 = M.noisy_average_clamped([A], eps, B, rng, size=N_DRAWS)
    y2 = M.noisy_average_clamped([A, A], eps, B, rng, size=N_DRAWS)
    f1, f2 = np.mean((y1 > A) & (y1 < Bh)), np.mean((y2 > A) & (y2 < Bh))
    se1, se2 = math.sqrt(f1 * (1 - f1) / N_DRAWS), math.sqrt(f2 * (1 - f2) / N_DRAWS)
    assert (f2 - Z * se2) / (f1 + Z * se1) > math.exp(eps)
