"""Statistical tests of the core mechanisms against their closed forms (fixed seeds, tolerances from the variance)."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from conftest import Z, mc_tol
from scipy import stats

from dpcompendium.core.mechanisms import (
    exponential_mechanism,
    exponential_probabilities,
    gaussian_mechanism,
    gaussian_sigma,
    grr_frequencies,
    grr_privatise,
    grr_probabilities,
    laplace_mechanism,
    laplace_scale,
)

N = 200_000


def test_laplace_moments(rng):
    b = laplace_scale(2.0, 0.5)
    assert b == 4.0
    x = laplace_mechanism(np.full(N, 3.0), 2.0, 0.5, rng)
    var = 2 * b**2
    assert abs(x.mean() - 3.0) < mc_tol(var, N)
    # Var of the sample variance of a Laplace: (μ4 − σ⁴)/n with μ4 = 24 b⁴.
    assert abs(x.var() - var) < Z * math.sqrt((24 * b**4 - var**2) / N)


def test_laplace_distribution_ks(rng):
    x = laplace_mechanism(0.0, 1.0, 1.0, rng, size=20_000)
    assert stats.kstest(x, stats.laplace(scale=1.0).cdf).pvalue > 1e-6


def test_laplace_broadcasts_and_scalar(rng):
    assert isinstance(laplace_mechanism(1.0, 1.0, 1.0, rng), float)
    out = laplace_mechanism(np.arange(3.0), 1.0, 1.0, rng, size=(5, 3))
    assert out.shape == (5, 3)


def test_laplace_same_seed_same_output():
    a = laplace_mechanism(np.zeros(10), 1.0, 1.0, np.random.default_rng(7))
    b = laplace_mechanism(np.zeros(10), 1.0, 1.0, np.random.default_rng(7))
    np.testing.assert_array_equal(a, b)


def test_gaussian_sigma_formula():
    sigma = gaussian_sigma(1.0, 0.5, 1e-5)
    assert sigma == pytest.approx(math.sqrt(2 * math.log(1.25 / 1e-5)) / 0.5)
    with pytest.warns(UserWarning, match="epsilon < 1"):
        gaussian_sigma(1.0, 2.0, 1e-5)


def test_gaussian_moments(rng):
    sigma = gaussian_sigma(1.0, 0.9, 1e-3)
    x = gaussian_mechanism(np.zeros(N), 1.0, 0.9, 1e-3, rng)
    assert abs(x.mean()) < mc_tol(sigma**2, N)
    assert abs(x.var() - sigma**2) < Z * sigma**2 * math.sqrt(2 / N)


def test_gaussian_warns_for_large_epsilon(rng):
    with pytest.warns(UserWarning, match="epsilon < 1"):
        gaussian_mechanism(0.0, 1.0, 2.0, 1e-5, rng)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        gaussian_mechanism(0.0, 1.0, 0.5, 1e-5, rng)


def test_exponential_probabilities_closed_form():
    scores = np.array([0.0, 1.0, 3.0])
    p = exponential_probabilities(scores, 1.0, 2.0)
    w = np.exp(2.0 * scores / 2.0)
    np.testing.assert_allclose(p, w / w.sum(), rtol=1e-12)


def test_exponential_probabilities_stable_for_huge_scores():
    p = exponential_probabilities(np.array([1e6, 1e6 - 1.0]), 1.0, 2.0)
    assert np.all(np.isfinite(p))
    np.testing.assert_allclose(p, [1 / (1 + math.e**-1), math.e**-1 / (1 + math.e**-1)])


def test_exponential_mechanism_frequencies(rng):
    scores = np.array([0.0, 1.0, 2.0, 0.5])
    p = exponential_probabilities(scores, 1.0, 1.0)
    draws = exponential_mechanism(np.broadcast_to(scores, (N, 4)), 1.0, 1.0, rng)
    assert draws.shape == (N,)
    freq = np.bincount(draws, minlength=4) / N
    for f, q in zip(freq, p, strict=True):
        assert abs(f - q) < mc_tol(q * (1 - q), N)
    assert isinstance(exponential_mechanism(scores, 1.0, 1.0, rng), int)


def test_exponential_privacy_ratio():
    """Changing every score by at most Δu changes each probability by at most a factor e^ε."""
    eps, du = 0.7, 1.0
    u = np.array([0.0, 2.0, 5.0])
    u2 = u + np.array([1.0, -1.0, 0.5])
    ratio = exponential_probabilities(u, du, eps) / exponential_probabilities(u2, du, eps)
    assert np.max(np.abs(np.log(ratio))) <= eps + 1e-12


def test_grr_probabilities():
    p, q = grr_probabilities(4, 1.0)
    assert p / q == pytest.approx(math.e)
    assert p + 3 * q == pytest.approx(1.0)


def test_grr_channel_and_estimator(rng):
    k, eps = 5, 1.2
    values = rng.integers(0, k, size=N)
    true = np.bincount(values, minlength=k) / N
    reports = grr_privatise(values, k, eps, rng)
    p, q = grr_probabilities(k, eps)
    # Channel: reports of users whose value is 0.
    r0 = reports[values == 0]
    keep = np.mean(r0 == 0)
    assert abs(keep - p) < mc_tol(p * (1 - p), r0.size)
    for other in range(1, k):
        share = np.mean(r0 == other)
        assert abs(share - q) < mc_tol(q * (1 - q), r0.size)
    est = grr_frequencies(reports, k, eps)
    # Var of GRR estimate (Wang et al. 2017): q(1−q)/(n(p−q)²) + f(1−p−q)/(n(p−q)).
    for f_hat, f in zip(est, true, strict=True):
        var = q * (1 - q) / (p - q) ** 2 + f * (1 - p - q) / (p - q)
        assert abs(f_hat - f) < mc_tol(var, N)
