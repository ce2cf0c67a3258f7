"""f-differential privacy and Gaussian differential privacy :cite:`audit_dong2022gaussian`: trade-off functions,
the Gaussian trade-off curve, the conversion of μ-GDP to its (ε, δ) profile, and composition in GDP.

A mechanism M is *f-DP* when, for every pair of neighbours D, D′, every test of H₀: "the output came from D" against
H₁: "from D′" at type I error α has type II error at least f(α): the *trade-off function* f bounds how well an
adversary can tell two neighbours apart (Dong, Roth and Su, Def. 2.3).

- :func:`dp_tradeoff`: the trade-off function of (ε, δ)-DP, f_{ε,δ}(α) = max(0, 1 − δ − e^ε α, e^{−ε}(1 − δ − α))
  (Wasserman and Zhou; Dong, Roth and Su, Prop. 2.4): M is (ε, δ)-DP iff it is f_{ε,δ}-DP.
- :func:`gaussian_tradeoff`: G_μ(α) = Φ(Φ⁻¹(1 − α) − μ), the trade-off of testing N(0, 1) against N(μ, 1);
  M is μ-GDP when it is G_μ-DP. The Gaussian mechanism with noise σ on a query of ℓ2 sensitivity Δ is
  μ-GDP with μ = Δ/σ (:func:`gaussian_mu`).
- :func:`gdp_delta`: μ-GDP is (ε, δ(ε))-DP for every ε ≥ 0 with
  δ(ε) = Φ(−ε/μ + μ/2) − e^ε Φ(−ε/μ − μ/2) (Dong, Roth and Su, Cor. 2.13), and for no smaller δ: the same curve
  as the Gaussian mechanism's exact profile (:func:`dpcompendium.core.accounting.gaussian_profile`).
- :func:`gdp_compose`: the composition of μᵢ-GDP mechanisms is √(Σμᵢ²)-GDP, exactly (Cor. 3.3).
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import ArrayLike
from scipy.special import log_ndtr, ndtr, ndtri

from .validation import check_delta, check_epsilon, check_sensitivity

__all__ = ["dp_tradeoff", "gaussian_mu", "gaussian_tradeoff", "gdp_compose", "gdp_delta"]


def _alphas(alpha: ArrayLike) -> np.ndarray:
    a = np.asarray(alpha, dtype=float)
    if not (np.all(np.isfinite(a)) and np.all((a >= 0) & (a <= 1))):
        raise ValueError(f"alpha must hold type I errors in [0, 1], got {alpha!r}")
    return a


def _mu(mu: float) -> float:
    if not (
        isinstance(mu, int | float | np.integer | np.floating)
        and not isinstance(mu, bool)
        and math.isfinite(mu)
        and mu >= 0
    ):
        raise ValueError(f"mu must be a finite number >= 0, got {mu!r}")
    return float(mu)


def _out(a: np.ndarray) -> np.ndarray | float:
    return float(a) if a.ndim == 0 else a


def dp_tradeoff(alpha: ArrayLike, epsilon: float, delta: float = 0.0) -> np.ndarray | float:
    """The trade-off function of (ε, δ)-DP: f_{ε,δ}(α) = max(0, 1 − δ − e^ε α, e^{−ε}(1 − δ − α))
    :cite:`audit_dong2022gaussian` (vectorized over α in [0, 1])."""
    a = _alphas(alpha)
    eps = check_epsilon(epsilon)
    d = 0.0 if isinstance(delta, int | float) and delta == 0 else check_delta(delta)
    zero = np.zeros_like(a)
    return _out(np.maximum.reduce([zero, 1 - d - math.exp(eps) * a, math.exp(-eps) * (1 - d - a)]))


def gaussian_tradeoff(alpha: ArrayLike, mu: float) -> np.ndarray | float:
    """G_μ(α) = Φ(Φ⁻¹(1 − α) − μ): the smallest type II error of a level-α test of N(0, 1) against N(μ, 1), the
    trade-off function of μ-GDP :cite:`audit_dong2022gaussian` (vectorized over α in [0, 1])."""
    a = _alphas(alpha)
    return _out(ndtr(ndtri(1.0 - a) - _mu(mu)))


def gaussian_mu(sigma: float, sensitivity: float = 1.0) -> float:
    """μ = Δ/σ: the Gaussian mechanism N(0, σ²) on a query of ℓ2 sensitivity Δ is μ-GDP, exactly
    :cite:`audit_dong2022gaussian` (Thm 2.7)."""
    return check_sensitivity(sensitivity) / check_sensitivity(sigma, "sigma")


def gdp_delta(epsilon: ArrayLike, mu: float) -> np.ndarray | float:
    """The (ε, δ) profile of μ-GDP: δ(ε) = Φ(−ε/μ + μ/2) − e^ε Φ(−ε/μ − μ/2) for ε ≥ 0
    :cite:`audit_dong2022gaussian` (Cor. 2.13): μ-GDP implies (ε, δ(ε))-DP for every ε, and the family of these
    guarantees together is equivalent to μ-GDP. δ(ε) = 0 for μ = 0."""
    e = np.asarray(epsilon, dtype=float)
    if not (np.all(np.isfinite(e)) and np.all(e >= 0)):
        raise ValueError(f"epsilon must hold finite values >= 0, got {epsilon!r}")
    m = _mu(mu)
    if m == 0:
        return _out(np.zeros_like(e))
    return _out(np.maximum(ndtr(-e / m + m / 2) - np.exp(e + log_ndtr(-e / m - m / 2)), 0.0))


def gdp_compose(mus: ArrayLike) -> float:
    """μ = √(Σ μᵢ²): the composition of μᵢ-GDP mechanisms (adaptively chosen) is μ-GDP, and no smaller μ holds
    :cite:`audit_dong2022gaussian` (Cor. 3.3)."""
    m = np.atleast_1d(np.asarray(mus, dtype=float))
    if m.ndim != 1 or m.size == 0 or not (np.all(np.isfinite(m)) and np.all(m >= 0)):
        raise ValueError(f"mus must be a non-empty 1-D array of finite values >= 0, got {mus!r}")
    return float(np.sqrt(np.sum(m * m)))
