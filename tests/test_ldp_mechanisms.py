"""Numeric LDP mechanisms: unbiasedness and closed-form variances (Monte Carlo, z = 5), privacy, validation."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import mc_tol

from dpcompendium.chapters.hiera import (
    duchi_privatise,
    duchi_variance,
    graded_laplace_privatise,
    graded_laplace_variance,
    harmony_privatise,
    harmony_variance,
    hybrid_alpha,
    hybrid_privatise,
    hybrid_variance,
    numeric_claim,
    pm_privatise,
    pm_variance,
    schedule,
)
from dpcompendium.chapters.hiera.numeric import pm_constant

N = 400_000


def _check_mean_var(x: np.ndarray, t: float, var: float) -> None:
    """Sample mean within z·sqrt(var/n) of t; sample variance within z·sqrt((m4 − var²)/n) + z²·var/n of var
    (the second term bounds the (x̄ − t)² part, which dominates for two-point laws where m4 = var²)."""
    n = x.size
    assert abs(x.mean() - t) < mc_tol(var, n)
    m4 = np.mean((x - t) ** 4)
    assert abs(x.var() - var) < mc_tol(max(m4 - var**2, 0.0), n) + mc_tol(var, n) ** 2


@pytest.mark.parametrize("epsilon", [0.25, 1.0, 3.0])
@pytest.mark.parametrize("t", [-1.0, -0.3, 0.0, 0.8])
def test_duchi_closed_form(epsilon, t, rng):
    x = duchi_privatise(np.full(N, t), epsilon, rng)
    c = (np.exp(epsilon) + 1) / (np.exp(epsilon) - 1)
    assert np.allclose(np.abs(x), c, rtol=1e-12)
    _check_mean_var(x, t, ((np.exp(epsilon) + 1) / (np.exp(epsilon) - 1)) ** 2 - t**2)
    assert duchi_variance(t, epsilon) == pytest.approx(c**2 - t**2)


@pytest.mark.parametrize("epsilon", [0.25, 1.0, 3.0])
@pytest.mark.parametrize("t", [-1.0, -0.3, 0.0, 0.8])
def test_pm_closed_form(epsilon, t, rng):
    x = pm_privatise(np.full(N, t), epsilon, rng)
    c = pm_constant(epsilon)
    assert x.min() >= -c and x.max() <= c
    h = np.exp(epsilon / 2)
    var = t**2 / (h - 1) + (h + 3) / (3 * (h - 1) ** 2)
    assert pm_variance(t, epsilon) == pytest.approx(var)
    _check_mean_var(x, t, var)


def test_pm_density_ratio_is_e_epsilon(rng):
    """Histogram densities of PM outputs for t = −1 and t = 1 differ by at most e^ε (up to MC error)."""
    eps = 1.0
    c = pm_constant(eps)
    bins = np.linspace(-c, c, 21)
    h1, _ = np.histogram(pm_privatise(np.full(N, -1.0), eps, rng), bins)
    h2, _ = np.histogram(pm_privatise(np.full(N, 1.0), eps, rng), bins)
    ratio = np.log(h1 / h2)
    # the bins where PM's two densities are pure (both constant) have ratio exactly ±ε
    assert np.max(np.abs(ratio)) < eps + 5 * np.sqrt(1 / h1.min() + 1 / h2.min())
    assert np.max(np.abs(ratio)) > eps - 5 * np.sqrt(1 / h1.min() + 1 / h2.min())


@pytest.mark.parametrize("epsilon", [0.5, 1.0, 2.0])
@pytest.mark.parametrize("t", [-0.7, 0.0, 1.0])
def test_hybrid_closed_form(epsilon, t, rng):
    x = hybrid_privatise(np.full(N, t), epsilon, rng)
    a = 1 - np.exp(-epsilon / 2) if epsilon > 0.61 else 0.0
    assert hybrid_alpha(epsilon) == pytest.approx(a)
    _check_mean_var(x, t, hybrid_variance(t, epsilon))
    assert hybrid_variance(t, epsilon) == pytest.approx(
        a * pm_variance(t, epsilon) + (1 - a) * duchi_variance(t, epsilon)
    )


@pytest.mark.parametrize("d", [1, 4])
def test_harmony_closed_form(d, rng):
    eps = 1.0
    t = np.linspace(-0.9, 0.9, d)
    x = harmony_privatise(np.tile(t, (N, 1)), eps, rng)
    assert np.all((x != 0).sum(axis=1) == 1)  # one coordinate per user
    for j in range(d):
        _check_mean_var(x[:, j], t[j], harmony_variance(t[j], eps, d))


@pytest.mark.parametrize("variant", ["as-written", "private"])
@pytest.mark.parametrize("t", [-0.9, 0.1, 0.7])
def test_graded_laplace_closed_form(variant, t, rng):
    eps = schedule(0.5)
    x = graded_laplace_privatise(np.full(N, t), eps, rng, variant=variant)
    level = np.searchsorted([-0.6, -0.2, 0.2, 0.6], t, side="right")
    b = 2 / (eps.min() if variant == "private" else eps[level])
    var = float(graded_laplace_variance(np.array([t]), eps, variant=variant)[0])
    assert var == pytest.approx(2 * b**2)
    _check_mean_var(x, t, var)


def test_graded_laplace_as_written_is_not_private():
    """Density ratio between a level-1 and a level-5 value grows without bound in the tail."""
    eps = schedule(1.0)
    b1, b5 = 2 / eps[0], 2 / eps[4]

    def log_ratio(y):
        return (np.log(1 / (2 * b5)) - abs(y - 1) / b5) - (np.log(1 / (2 * b1)) - abs(y + 1) / b1)

    assert log_ratio(1000.0) > log_ratio(100.0) > log_ratio(10.0) > 0
    assert log_ratio(100.0) > 10 * eps.max()
    claim = numeric_claim("graded-laplace", 1.0, epsilons=eps)
    assert not claim.private and "unbounded" in claim.why
    fixed = numeric_claim("graded-laplace", 1.0, epsilons=eps, variant="private")
    assert fixed.private and fixed.epsilon == pytest.approx(eps.min())


def test_claims_are_local():
    for m in ("duchi", "harmony", "pm", "hybrid"):
        c = numeric_claim(m, 0.5)
        assert c.neighbours == "local" and c.epsilon == 0.5 and c.private


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (lambda r: duchi_privatise([0.1], -1.0, r), "epsilon"),
        (lambda r: pm_privatise([1.5], 1.0, r), "values"),
        (lambda r: hybrid_privatise([0.0], 1.0, 3), "rng"),
        (lambda r: harmony_privatise([0.1, 0.2], 1.0, r), "x"),
        (lambda r: graded_laplace_privatise([0.0], [1.0, 2.0, 3.0, 4.0, 5.0], r), "epsilons"),
        (lambda r: graded_laplace_privatise([0.0], schedule(1.0), r, variant="x"), "variant"),
        (lambda r: numeric_claim("nope", 1.0), "method"),
    ],
)
def test_validation(call, match, rng):
    with pytest.raises(ValueError, match=match):
        call(rng)
