"""PrivUnitG (core/mechanisms/privunit.py): calibration and its exact privacy, unbiasedness, the closed-form
second moment, the truncated normal's law, vectorization and bad input."""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest
from scipy import stats

from dpcompendium.core.mechanisms import privunit as P


def _exact_epsilon(p: float, gamma: float) -> mpmath.mpf:
    """logit(p) − logit(Φ(−γ)) at 50 digits, from the values the mechanism uses."""
    mpmath.mp.dps = 50
    p, g = mpmath.mpf(p), mpmath.mpf(gamma)
    q = mpmath.ncdf(-g)
    return mpmath.log(p / (1 - p)) - mpmath.log(q / (1 - q))


@pytest.mark.parametrize("eps", [0.01, 0.25, 1.0, 2.5, 10.0, 100.0])
@pytest.mark.parametrize("d", [2, 7, 11, 300])
def test_calibration_is_eps_ldp_exactly(eps, d):
    """The worst density ratio of two inputs is (p/q)/((1 − p)/(1 − q)); at high precision it is ≤ e^ε, and the
    roundings lose less than 10⁻⁵ of ε."""
    pr = P.privunitg_params(eps, d)
    exact = _exact_epsilon(pr.p, pr.gamma)
    assert exact <= eps
    assert eps - exact < 1e-5 * max(eps, 1.0)
    assert abs(float(exact) - pr.eps_used) < 1e-9 * max(eps, 1.0)
    # the declared grids: p a multiple of 2^-40, γ of 2^-20, ε₀ of ε/128
    assert pr.p * 2.0**40 == int(pr.p * 2.0**40)
    assert pr.gamma * 2.0**20 == int(pr.gamma * 2.0**20)
    assert pr.eps0 * P.EPS0_GRID / eps == pytest.approx(
        round(pr.eps0 * P.EPS0_GRID / eps), abs=1e-9
    )
    # m = E⟨U, u⟩ in closed form, at high precision
    mpmath.mp.dps = 30
    g = mpmath.mpf(pr.gamma)
    q = mpmath.ncdf(-g)
    m = mpmath.npdf(g) * (pr.p / q - (1 - pr.p) / (1 - q))
    assert pr.m == pytest.approx(float(m), rel=1e-12)


def test_density_ratio_on_outputs():
    """The output's density ratio for two inputs u, u′, computed from the realised outputs (the Gaussian part
    cancels): p/q or (1 − p)/(1 − q) by the side of γ each input puts the output on; never above e^ε, and both
    extremes are attained."""
    eps, d = 1.0, 5
    pr = P.privunitg_params(eps, d)
    rng = np.random.default_rng(3)
    u = np.zeros((4000, d))
    u[:, 0] = 1.0
    out = P.privunitg(u, eps, rng, params=pr)
    v = rng.standard_normal((50, d))
    v /= np.linalg.norm(v, axis=1, keepdims=True)
    y = out * pr.m  # U
    w = np.where(y @ np.vstack([u[0], v]).T >= pr.gamma, pr.p / pr.q, (1 - pr.p) / (1 - pr.q))
    ratio = w[:, :1] / w[:, 1:]
    assert np.log(ratio).max() <= eps + 1e-12
    assert np.isclose(np.log(ratio).max(), pr.eps_used) and np.isclose(
        np.log(ratio).min(), -pr.eps_used
    )


def test_cap_probability_and_truncated_law():
    """P(⟨U, u⟩ ≥ γ) = p (binomial tolerance), and the projection's law in the cap is N(0,1) truncated to [γ, ∞)
    (Kolmogorov–Smirnov against scipy's truncnorm)."""
    eps, d, n = 2.0, 4, 100_000
    pr = P.privunitg_params(eps, d)
    u = np.full((n, d), 0.5)  # unit norm, so the rounding keeps +u
    a = P.privunitg(u, eps, np.random.default_rng(11), params=pr) @ u[0] * pr.m
    cap = a >= pr.gamma
    assert abs(cap.mean() - pr.p) < 4 * math.sqrt(pr.p * (1 - pr.p) / n)
    assert stats.kstest(a[cap], stats.truncnorm(pr.gamma, np.inf).cdf).pvalue > 1e-3
    assert stats.kstest(a[~cap], stats.truncnorm(-np.inf, pr.gamma).cdf).pvalue > 1e-3


@pytest.mark.parametrize("norm", [0.0, 0.4, 1.0])
def test_unbiased_and_second_moment(norm):
    """E[output] = v within 4 standard errors per coordinate (from the sample variance), and
    E‖output‖² = C²·variance (the closed form of the calibration) within 4 standard errors."""
    eps, d, c, n = 1.0, 6, 2.0, 200_000
    v = np.linspace(1.0, -0.5, d)
    v *= norm * c / np.linalg.norm(v)
    out = P.privunitg(np.tile(v, (n, 1)), eps, np.random.default_rng(5), clip_norm=c)
    se = out.std(axis=0, ddof=1) / math.sqrt(n)
    assert np.all(np.abs(out.mean(axis=0) - v) < 4 * se)
    sq = np.einsum("ij,ij->i", out, out)
    pr = P.privunitg_params(eps, d)
    assert abs(sq.mean() - c * c * pr.variance) < 4 * sq.std(ddof=1) / math.sqrt(n)


def test_vectorized_over_leading_axes_and_seeded():
    """A (3, 4, d) batch equals the same rows as (12, d) with the same seed; the same seed gives the same bits."""
    rng = np.random.default_rng(0)
    v = P.clip_l2(rng.standard_normal((3, 4, 5)), 1.0)
    a = P.privunitg(v, 0.5, np.random.default_rng(9))
    b = P.privunitg(v.reshape(12, 5), 0.5, np.random.default_rng(9))
    assert a.shape == (3, 4, 5)
    assert np.array_equal(a.reshape(12, 5), b)
    assert np.array_equal(a, P.privunitg(v, 0.5, np.random.default_rng(9)))


def test_clip_l2():
    v = np.array([[3.0, 4.0], [0.3, 0.4], [0.0, 0.0]])
    assert np.allclose(P.clip_l2(v, 1.0), [[0.6, 0.8], [0.3, 0.4], [0.0, 0.0]])


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (
            lambda: P.privunitg(np.ones((2, 3)), 1.0, np.random.default_rng(0)),
            "l2 norm <= clip_norm",
        ),
        (lambda: P.privunitg(np.ones((2, 1)) * 0.1, 1.0, np.random.default_rng(0)), "d >= 2"),
        (lambda: P.privunitg(np.zeros((2, 3)), 0.0, np.random.default_rng(0)), "epsilon"),
        (
            lambda: P.privunitg(np.zeros((2, 3)), 1.0, np.random.default_rng(0), clip_norm=-1),
            "clip_norm",
        ),
        (lambda: P.privunitg([[np.nan, 0.0]], 1.0, np.random.default_rng(0)), "v must be finite"),
        (lambda: P.privunitg(np.zeros((2, 3)), 1.0, 1), "rng"),
        (
            lambda: P.privunitg(
                np.zeros((2, 3)), 1.0, np.random.default_rng(0), params=P.privunitg_params(1.0, 4)
            ),
            "params must be calibrated",
        ),
        (lambda: P.privunitg_params(1.0, 1), "d must be"),
        (lambda: P.privunitg_claim(1.0, clip_norm=0.0), "clip_norm"),
    ],
)
def test_bad_input_one_line(call, match):
    with pytest.raises(ValueError, match=match) as info:
        call()
    assert "\n" not in str(info.value)


def test_claim():
    claim = P.privunitg_claim(0.5, clip_norm=2.0)
    assert claim.private and claim.neighbours == "local" and claim.epsilon == 0.5
    assert "2" in str(claim.sensitivity) and len(claim.conditions) == 1
