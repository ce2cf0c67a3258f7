"""Tests of dpcompendium.core.fdp against closed forms, the Gaussian mechanism's exact profile and dp-accounting's
privacy-loss-distribution accountant."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from dpcompendium.core import accounting, fdp

ALPHA = np.linspace(0.0, 1.0, 201)


def test_gaussian_tradeoff_is_the_neyman_pearson_test():
    """The level-α likelihood-ratio test of N(0, 1) against N(μ, 1) rejects above z = Φ⁻¹(1 − α); its type II
    error is Φ(z − μ)."""
    mu = 1.3
    z = stats.norm.ppf(1 - ALPHA)
    np.testing.assert_allclose(fdp.gaussian_tradeoff(ALPHA, mu), stats.norm.cdf(z - mu), atol=1e-15)
    # a trade-off function: f(0) = 1, f(1) = 0, decreasing, convex, below 1 − α; G_0 is perfect privacy
    g = fdp.gaussian_tradeoff(ALPHA, mu)
    assert g[0] == 1.0 and g[-1] == 0.0
    assert (
        np.all(np.diff(g) <= 0)
        and np.all(np.diff(g, 2) >= -1e-12)
        and np.all(g <= 1 - ALPHA + 1e-15)
    )
    np.testing.assert_allclose(fdp.gaussian_tradeoff(ALPHA, 0.0), 1 - ALPHA, atol=1e-15)
    # symmetric: G_μ(G_μ(α)) = α
    inner = ALPHA[1:-1]
    np.testing.assert_allclose(
        fdp.gaussian_tradeoff(fdp.gaussian_tradeoff(inner, mu), mu), inner, atol=1e-12
    )


def test_gaussian_tradeoff_matches_a_simulated_test():
    """Monte-Carlo type II error of the level-α test on N(μ, 1) draws, within five standard errors."""
    rng = np.random.default_rng(0)
    mu, alpha, n = 0.8, 0.1, 200_000
    z = stats.norm.ppf(1 - alpha)
    beta = np.mean(rng.normal(mu, 1.0, n) <= z)
    g = fdp.gaussian_tradeoff(alpha, mu)
    assert abs(beta - g) < 5 * math.sqrt(g * (1 - g) / n)


def test_dp_tradeoff_closed_form_and_fixed_point():
    eps, delta = 1.0, 0.05
    f = fdp.dp_tradeoff(ALPHA, eps, delta)
    expected = np.maximum.reduce(
        [np.zeros_like(ALPHA), 1 - delta - np.exp(eps) * ALPHA, np.exp(-eps) * (1 - delta - ALPHA)]
    )
    np.testing.assert_allclose(f, expected)
    # the kink is the fixed point α* = (1 − δ)/(1 + e^ε), where f(α*) = α*
    a_star = (1 - delta) / (1 + math.exp(eps))
    assert fdp.dp_tradeoff(a_star, eps, delta) == pytest.approx(a_star)
    assert fdp.dp_tradeoff(0.0, eps) == 1.0


def test_gdp_delta_is_the_gaussian_mechanisms_exact_profile():
    eps = np.linspace(0.0, 6.0, 61)
    for sigma, sens in ((0.5, 1.0), (1.0, 1.0), (3.0, 2.0)):
        mu = fdp.gaussian_mu(sigma, sens)
        assert mu == pytest.approx(sens / sigma)
        np.testing.assert_allclose(
            fdp.gdp_delta(eps, mu),
            accounting.gaussian_profile(eps, sigma, sensitivity=sens),
            rtol=1e-10,
            atol=1e-300,
        )


def test_gdp_delta_is_the_envelope_of_the_tradeoff():
    """μ-GDP is the intersection of the (ε, δ(ε))-DP guarantees: sup_ε f_{ε, δ(ε)} = G_μ (Dong, Roth and Su,
    Prop. 2.12), so on a fine ε grid the supremum is below G_μ and within the grid's error of it."""
    mu = 1.0
    eps = np.linspace(0.0, 8.0, 4001)
    deltas = fdp.gdp_delta(eps, mu)
    inner = ALPHA[1:-1]
    sup = np.max(
        [
            fdp.dp_tradeoff(inner, e, d) if d > 0 else fdp.dp_tradeoff(inner, e)
            for e, d in zip(eps[1:], deltas[1:], strict=True)
        ],
        axis=0,
    )
    g = fdp.gaussian_tradeoff(inner, mu)
    assert np.all(sup <= g + 1e-12)
    assert np.max(g - sup) < 1e-3


def test_composition_in_gdp_matches_the_pld_accountant():
    """T Gaussian mechanisms with noise σ: √T/σ-GDP; its exact profile against dp-accounting's PLD (an upper
    bound within its discretization)."""
    sigma, steps = 4.0, 16
    mu = fdp.gdp_compose([fdp.gaussian_mu(sigma)] * steps)
    assert mu == pytest.approx(math.sqrt(steps) / sigma)
    eps = np.array([0.25, 0.5, 1.0, 2.0])
    exact = fdp.gdp_delta(eps, mu)
    pld = accounting.pld_delta("gaussian", sigma, eps, steps=steps)
    assert np.all(pld >= exact - 1e-12)
    np.testing.assert_allclose(pld, exact, rtol=2e-2, atol=1e-6)
    assert fdp.gdp_compose([3.0, 4.0]) == pytest.approx(5.0)


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (lambda: fdp.gaussian_tradeoff(1.5, 1.0), "alpha"),
        (lambda: fdp.gaussian_tradeoff(0.5, -1.0), "mu"),
        (lambda: fdp.gaussian_tradeoff(0.5, math.inf), "mu"),
        (lambda: fdp.dp_tradeoff(0.5, 0.0), "epsilon"),
        (lambda: fdp.dp_tradeoff(0.5, 1.0, 1.0), "delta"),
        (lambda: fdp.gdp_delta(-1.0, 1.0), "epsilon"),
        (lambda: fdp.gdp_delta(1.0, float("nan")), "mu"),
        (lambda: fdp.gdp_compose([]), "mus"),
        (lambda: fdp.gdp_compose([1.0, -2.0]), "mus"),
        (lambda: fdp.gaussian_mu(0.0), "sigma"),
    ],
)
def test_bad_inputs_are_refused(call, match):
    with pytest.raises(ValueError, match=match):
        call()
    assert fdp.gdp_delta(1.0, 0.0) == 0.0
