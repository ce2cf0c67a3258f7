"""Privacy accounting: privacy loss, privacy profiles, Rényi and zero-concentrated DP, composition, amplification.

Closed forms, each with its reference (keys of ``book/references.bib``), and numerical accountants of Google's
``dp-accounting`` :cite:`dpaccounting` behind one small typed interface. Every function takes the noise's
scale in the units of the query (σ for Gaussian noise, b for Laplace noise) and the query's sensitivity Δ
(ℓ2 for Gaussian, ℓ1 for Laplace); neighbours are add-remove unless said otherwise (the profiles of unsubsampled
noise addition are the same under replace-one with the replace-one sensitivity).

- **Privacy loss** (:func:`privacy_loss`): L(y) = ln p(y)/q(y) for the output densities of the two neighbours;
  the **privacy profile** δ(ε) = E_P[(1 − e^{ε − L})₊] is the smallest δ at which the mechanism is (ε, δ)-DP
  (:cite:`balle2018improving`, Thm 5). Exact: :func:`gaussian_profile` (Balle–Wang),
  :func:`laplace_profile` (δ(ε) = 1 − e^{(ε − Δ/b)/2} for ε < Δ/b).
- **zCDP** :cite:`bun2016concentrated`: :func:`gaussian_rho` (Δ²/(2σ²)), :func:`pure_dp_rho` (ε²/2),
  :func:`exponential_rho` (ε²/8, :cite:`cesar2021bounding`), :func:`compose_rho` (sums), :func:`zcdp_epsilon`.
- **RDP** :cite:`mironov2017renyi`: :func:`gaussian_rdp`, :func:`laplace_rdp`, :func:`rdp_epsilon_from_curve`
  (the conversion of :cite:`audit_canonne2020discrete`, Prop. 12, or Mironov's Prop. 3).
- **Composition of (ε, δ) guarantees**: :func:`basic_composition`, :func:`advanced_composition`
  (:cite:`book_dwork2010boosting`), the optimal composition of pure ε₀-DP mechanisms
  :func:`pure_composition_delta` / :func:`pure_composition_epsilon` (:cite:`book_kairouz2015composition`),
  :func:`group_privacy`.
- **Numerical accountants** of T composed (optionally Poisson-subsampled) Gaussian or Laplace mechanisms:
  :func:`pld_epsilon` / :func:`pld_delta` (privacy loss distributions, :cite:`koskela2020computing`,
  :cite:`doroshenko2022connect`; pessimistic discretization, so an upper bound) and :func:`rdp_epsilon`.
- **Amplification**: by Poisson subsampling of an (ε, δ)-DP mechanism, :func:`subsampled_epsilon`
  (:cite:`balle2018privacy`); by shuffling ε₀-LDP reports, :func:`shuffle_epsilon` and its condition
  :func:`shuffle_applies` (:cite:`feldman2021hiding`, Thm 3.1).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Literal

import numpy as np
from numpy.typing import ArrayLike
from scipy.special import log_ndtr, ndtr

from .validation import (
    check_delta,
    check_epsilon,
    check_int,
    check_probability,
    check_sensitivity,
)

__all__ = [
    "NOISES",
    "advanced_composition",
    "basic_composition",
    "compose_rho",
    "exponential_rho",
    "gaussian_profile",
    "gaussian_rdp",
    "gaussian_rho",
    "group_privacy",
    "laplace_profile",
    "laplace_rdp",
    "pld_delta",
    "pld_epsilon",
    "privacy_loss",
    "pure_composition_delta",
    "pure_composition_epsilon",
    "pure_dp_rho",
    "rdp_epsilon",
    "rdp_epsilon_from_curve",
    "shuffle_applies",
    "shuffle_epsilon",
    "subsampled_epsilon",
    "zcdp_epsilon",
]

Noise = Literal["gaussian", "laplace"]
#: The additive noises the accountants know: ``gaussian`` (scale σ, ℓ2 sensitivity), ``laplace`` (scale b, ℓ1).
NOISES: tuple[str, ...] = ("gaussian", "laplace")
#: RDP orders α of the numerical accountants (dp-accounting's default grid).
DEFAULT_ORDERS: tuple[float, ...] = (
    *(1 + x / 10.0 for x in range(1, 100)),
    *(float(a) for a in range(11, 64)),
    128.0,
    256.0,
    512.0,
    1024.0,
)


def _check_noise(noise: str) -> str:
    if noise not in NOISES:
        raise ValueError(f"noise must be one of {'|'.join(NOISES)}, got {noise!r}")
    return noise


def _nonneg_array(x: ArrayLike, name: str) -> np.ndarray:
    a = np.asarray(x, dtype=float)
    if a.size == 0 or not np.all(np.isfinite(a)) or np.any(a < 0):
        raise ValueError(f"{name} must be finite and >= 0, got {x!r}")
    return a


def _orders(alpha: ArrayLike) -> np.ndarray:
    a = np.asarray(alpha, dtype=float)
    if a.size == 0 or not np.all(np.isfinite(a)) or np.any(a <= 1):
        raise ValueError(f"alpha must be finite and > 1, got {alpha!r}")
    return a


def _out(a: np.ndarray) -> np.ndarray | float:
    return float(a) if a.ndim == 0 else a


# ------------------------------------------------------------------------------------------ privacy loss and profiles


def privacy_loss(
    y: ArrayLike, noise: Noise, scale: float, *, sensitivity: float = 1.0
) -> np.ndarray | float:
    """The privacy loss L(y) = ln p(y)/q(y) at output ``y`` of f(x) + noise, with f(x) = 0 and f(x') = Δ.

    Gaussian noise: L(y) = (Δ/σ²)(Δ/2 − y); Laplace noise: L(y) = (|y − Δ| − |y|)/b. With y drawn from P (the
    noise around 0), L is the privacy loss random variable: N(μ, 2μ) with μ = Δ²/(2σ²) for Gaussian noise
    :cite:`dwork2016concentrated`; for Laplace noise it equals ε₀ = Δ/b with probability ½, −ε₀ with probability
    e^{−ε₀}/2, and is continuous in between. The profile is δ(ε) = E_P[(1 − e^{ε − L})₊]
    (:cite:`balle2018improving`, Thm 5).
    """
    _check_noise(noise)
    s = check_sensitivity(scale, "scale")
    d = check_sensitivity(sensitivity)
    y = np.asarray(y, dtype=float)
    gaussian = noise == "gaussian"
    return _out((d / s**2) * (d / 2.0 - y) if gaussian else (np.abs(y - d) - np.abs(y)) / s)


def gaussian_profile(
    epsilon: ArrayLike, sigma: float, *, sensitivity: float = 1.0
) -> np.ndarray | float:
    """Exact privacy profile of N(0, σ²) noise on an ℓ2-sensitivity-Δ query (:cite:`balle2018improving`, Thm 8):
    δ(ε) = Φ(Δ/(2σ) − εσ/Δ) − e^ε Φ(−Δ/(2σ) − εσ/Δ), for ε ≥ 0 (vectorized over ε).

    T compositions of it are one Gaussian mechanism with σ/√T: their exact profile is this one at σ/√T.
    """
    e = _nonneg_array(epsilon, "epsilon")
    s = check_sensitivity(sigma, "sigma")
    d = check_sensitivity(sensitivity)
    a, b = d / (2.0 * s), e * s / d
    return _out(np.maximum(ndtr(a - b) - np.exp(e + log_ndtr(-a - b)), 0.0))


def laplace_profile(
    epsilon: ArrayLike, scale: float, *, sensitivity: float = 1.0
) -> np.ndarray | float:
    """Exact privacy profile of Lap(b) noise on an ℓ1-sensitivity-Δ scalar query: with ε₀ = Δ/b,
    δ(ε) = 1 − e^{(ε − ε₀)/2} for 0 ≤ ε < ε₀ and 0 for ε ≥ ε₀ (integrate E_P[(1 − e^{ε − L})₊] over the three
    pieces of L; the worst pair is f(x') − f(x) = Δ). Vectorized over ε."""
    e = _nonneg_array(epsilon, "epsilon")
    e0 = check_sensitivity(sensitivity) / check_sensitivity(scale, "scale")
    return _out(-np.expm1(np.minimum(e - e0, 0.0) / 2.0) + 0.0)  # + 0.0: no -0.0


# ------------------------------------------------------------------------------------------------------------ zCDP


def gaussian_rho(sigma: float, *, sensitivity: float = 1.0) -> float:
    """ρ = Δ²/(2σ²): N(0, σ²) noise on an ℓ2-sensitivity-Δ query is ρ-zCDP (:cite:`bun2016concentrated`, Prop 1.6)."""
    s = check_sensitivity(sigma, "sigma")
    return check_sensitivity(sensitivity) ** 2 / (2.0 * s**2)


def pure_dp_rho(epsilon: float) -> float:
    """ρ = ε²/2: every ε-DP mechanism is ε²/2-zCDP (:cite:`bun2016concentrated`, Prop 1.4)."""
    return check_epsilon(epsilon) ** 2 / 2.0


def exponential_rho(epsilon: float) -> float:
    """ρ = ε²/8: the exponential mechanism run with budget ε (scores ε u/(2Δu)) is ε²/8-zCDP, because it is
    ε-bounded-range, and ε-bounded range implies ε²/8-zCDP (:cite:`cesar2021bounding`)."""
    return check_epsilon(epsilon) ** 2 / 8.0


def compose_rho(rhos: ArrayLike) -> float:
    """ρ of the (adaptive) composition of ρᵢ-zCDP mechanisms: Σ ρᵢ (:cite:`bun2016concentrated`, composition lemma)."""
    return float(np.sum(_nonneg_array(rhos, "rhos")))


def zcdp_epsilon(
    rho: float, delta: float, *, method: Literal["optimal", "bun-steinke"] = "optimal"
) -> float:
    """The ε at which a ρ-zCDP mechanism is (ε, δ)-DP.

    ``bun-steinke``: ε = ρ + 2√(ρ ln(1/δ)) (:cite:`bun2016concentrated`, Prop 1.3). ``optimal`` (default): the
    conversion of :cite:`audit_canonne2020discrete` (Prop. 12) applied to the RDP curve ρα, minimized over α > 1 —
    never larger than the first.
    """
    r = check_sensitivity(rho, "rho")
    d = check_delta(delta)
    if method == "bun-steinke":
        return r + 2.0 * math.sqrt(r * math.log(1.0 / d))
    if method != "optimal":
        raise ValueError(f"method must be one of optimal|bun-steinke, got {method!r}")
    from scipy import optimize

    def eps(log_am1: float) -> float:
        a = 1.0 + math.exp(log_am1)
        return r * a + math.log1p(-1.0 / a) - math.log(d * a) / (a - 1.0)

    # ε(α) is unimodal in ln(α − 1); bracket its minimum around the Bun–Steinke order α* = 1 + √(ln(1/δ)/ρ)
    start = math.log(math.sqrt(math.log(1.0 / d) / r))
    res = optimize.minimize_scalar(eps, bracket=(start - 3.0, start, start + 3.0), tol=1e-12)
    return max(0.0, min(float(res.fun), r + 2.0 * math.sqrt(r * math.log(1.0 / d))))


# ------------------------------------------------------------------------------------------------------------- RDP


def gaussian_rdp(alpha: ArrayLike, sigma: float, *, sensitivity: float = 1.0) -> np.ndarray | float:
    """RDP curve of N(0, σ²) noise, ε(α) = αΔ²/(2σ²) for α > 1 (:cite:`mironov2017renyi`, Table II)."""
    a = _orders(alpha)
    return _out(a * gaussian_rho(sigma, sensitivity=sensitivity))


def laplace_rdp(alpha: ArrayLike, scale: float, *, sensitivity: float = 1.0) -> np.ndarray | float:
    """RDP curve of Lap(b) noise on an ℓ1-sensitivity-Δ query, λ = b/Δ (:cite:`mironov2017renyi`, Prop 6):
    ε(α) = ln[ α/(2α−1) e^{(α−1)/λ} + (α−1)/(2α−1) e^{−α/λ} ] / (α − 1), computed in log space."""
    a = _orders(alpha)
    lam = check_sensitivity(scale, "scale") / check_sensitivity(sensitivity)
    t1 = np.log(a / (2 * a - 1)) + (a - 1) / lam
    t2 = np.log((a - 1) / (2 * a - 1)) - a / lam
    return _out(np.logaddexp(t1, t2) / (a - 1))


def rdp_epsilon_from_curve(
    alpha: ArrayLike,
    rdp: ArrayLike,
    delta: float,
    *,
    method: Literal["optimal", "mironov"] = "optimal",
) -> float:
    """min over the orders of the (ε, δ) conversion of an RDP curve ε(α).

    ``mironov``: ε = ε(α) + ln(1/δ)/(α − 1) (:cite:`mironov2017renyi`, Prop 3). ``optimal``: ε = ε(α) +
    ln(1 − 1/α) − ln(δα)/(α − 1) (:cite:`audit_canonne2020discrete`, Prop 12), the conversion dp-accounting uses.
    """
    a = _orders(alpha)
    r = _nonneg_array(rdp, "rdp")
    if a.shape != r.shape:
        raise ValueError(f"rdp must have the shape of alpha {a.shape}, got {r.shape}")
    d = check_delta(delta)
    if method == "mironov":
        e = r + math.log(1.0 / d) / (a - 1)
    elif method == "optimal":
        e = r + np.log1p(-1.0 / a) - np.log(d * a) / (a - 1)
    else:
        raise ValueError(f"method must be one of optimal|mironov, got {method!r}")
    return max(0.0, float(np.min(e)))


# -------------------------------------------------------------------------------- composition of (ε, δ) guarantees


def basic_composition(epsilons: ArrayLike, deltas: ArrayLike | None = None) -> tuple[float, float]:
    """(Σ εᵢ, Σ δᵢ): the sequential composition theorem (:cite:`dwork2014algorithmic`, Thm 3.16)."""
    e = _nonneg_array(epsilons, "epsilons")
    d = np.zeros_like(e) if deltas is None else _nonneg_array(deltas, "deltas")
    return float(np.sum(e)), float(min(1.0, np.sum(d)))


def advanced_composition(
    epsilon: float, delta: float, k: int, delta_prime: float
) -> tuple[float, float]:
    """k-fold adaptive composition of (ε, δ)-DP mechanisms is (ε√(2k ln(1/δ')) + kε(e^ε − 1), kδ + δ')-DP
    (:cite:`book_dwork2010boosting`; :cite:`dwork2014algorithmic`, Thm 3.20). ``delta`` may be 0."""
    e = check_epsilon(epsilon)
    d = float(delta)
    if not (0.0 <= d < 1.0):
        raise ValueError(f"delta must be in [0, 1), got {delta!r}")
    n = check_int(k, "k", minimum=1)
    dp = check_delta(delta_prime, "delta_prime")
    eps = e * math.sqrt(2 * n * math.log(1.0 / dp)) + n * e * math.expm1(e)
    return eps, min(1.0, n * d + dp)


def pure_composition_delta(epsilon: ArrayLike, epsilon0: float, k: int) -> np.ndarray | float:
    """Exact privacy profile δ(ε) of k adaptively composed ε₀-DP mechanisms, the optimal composition theorem
    (:cite:`book_kairouz2015composition`, Thm 3.3): the worst case is k-fold binary randomized response, whose loss
    is (k − 2l)ε₀ with l ~ Binomial(k, 1/(1 + e^ε₀)), so

    δ(ε) = Σ_l C(k, l) (e^{(k−l)ε₀} − e^{ε + lε₀})₊ / (1 + e^ε₀)^k   (computed in log space; vectorized over ε ≥ 0).

    It holds for any ε₀-DP mechanisms (local randomizers included) and is attained by randomized response.
    """
    from scipy.special import gammaln, logsumexp

    e = _nonneg_array(epsilon, "epsilon")
    e0 = check_epsilon(epsilon0, "epsilon0")
    n = check_int(k, "k", minimum=1)
    ell = np.arange(n + 1, dtype=float)
    log_binom = gammaln(n + 1) - gammaln(ell + 1) - gammaln(n - ell + 1)
    gap = (n - 2 * ell)[None, :] * e0 - e.reshape(-1, 1)  # L - eps at each l
    with np.errstate(divide="ignore"):
        log_terms = np.where(
            gap > 0,
            log_binom + (n - ell) * e0 + np.log(-np.expm1(-np.maximum(gap, 1e-300))),
            -np.inf,
        )
    log_delta = logsumexp(log_terms, axis=1) - n * np.logaddexp(0.0, e0)
    return _out(np.clip(np.exp(log_delta), 0.0, 1.0).reshape(e.shape))


def pure_composition_epsilon(epsilon0: float, k: int, delta: float) -> float:
    """The smallest ε with :func:`pure_composition_delta` ≤ δ: the optimal (ε, δ) of k adaptively composed
    ε₀-DP mechanisms (:cite:`book_kairouz2015composition`); never above k ε₀ nor advanced composition's ε."""
    from scipy import optimize

    e0 = check_epsilon(epsilon0, "epsilon0")
    n = check_int(k, "k", minimum=1)
    d = check_delta(delta)
    if pure_composition_delta(0.0, e0, n) <= d:
        return 0.0
    return float(
        optimize.brentq(lambda x: pure_composition_delta(x, e0, n) - d, 0.0, n * e0, xtol=1e-12)
    )


def group_privacy(epsilon: float, delta: float, k: int) -> tuple[float, float]:
    """An (ε, δ)-DP mechanism is (kε, k e^{(k−1)ε} δ)-DP for datasets that differ in k records
    (:cite:`dwork2014algorithmic`, Thm 2.2 for δ = 0; the δ term by induction over a path of k neighbours)."""
    e = check_epsilon(epsilon)
    d = float(delta)
    if not (0.0 <= d < 1.0):
        raise ValueError(f"delta must be in [0, 1), got {delta!r}")
    n = check_int(k, "k", minimum=1)
    return n * e, min(1.0, n * math.exp((n - 1) * e) * d)


# ---------------------------------------------------------------------------------------------------- amplification


def subsampled_epsilon(epsilon: float, sampling_probability: float) -> float:
    """ε' = ln(1 + q(e^ε − 1)): an (ε, δ)-DP mechanism run on a Poisson sample (each record kept independently with
    probability q) is (ε', qδ)-DP under add-remove neighbours (:cite:`balle2018privacy`; :cite:`li2012sampling`)."""
    e = check_epsilon(epsilon)
    q = check_probability(sampling_probability, "sampling_probability")
    return math.log1p(q * math.expm1(e))


def shuffle_applies(epsilon0: float, n: int, delta: float) -> bool:
    """The condition of :func:`shuffle_epsilon`'s bound: ε₀ ≤ ln(n / (16 ln(2/δ))) (:cite:`feldman2021hiding`,
    Thm 3.1)."""
    e0 = check_epsilon(epsilon0, "epsilon0")
    m = check_int(n, "n", minimum=1)
    d = check_delta(delta)
    bound = m / (16.0 * math.log(2.0 / d))
    return bound > 1.0 and e0 <= math.log(bound)


def shuffle_epsilon(epsilon0: float, n: int, delta: float) -> float:
    """ε of n ε₀-LDP reports, one per user, released in uniformly random order (the shuffle model), at δ:

    ε = ln(1 + (e^ε₀ − 1)/(e^ε₀ + 1) · (8√(e^ε₀ ln(4/δ))/√n + 8e^ε₀/n)) where ε₀ ≤ ln(n/(16 ln(2/δ)))
    (:cite:`feldman2021hiding`, Thm 3.1). Where the condition fails the
    bound is not proved and ε₀ is returned (the shuffled reports are a post-processing of the reports, which are
    ε₀-DP for one user's change); the result is never above ε₀.
    """
    e0 = check_epsilon(epsilon0, "epsilon0")
    m = check_int(n, "n", minimum=1)
    d = check_delta(delta)
    if not shuffle_applies(e0, m, d):
        return e0
    x = math.exp(e0)
    eps = math.log1p(
        (x - 1) / (x + 1) * (8 * math.sqrt(x * math.log(4 / d)) / math.sqrt(m) + 8 * x / m)
    )
    return min(eps, e0)


# ------------------------------------------------------------------------------------------- numerical accountants


def _event(noise: str, scale: float, sensitivity: float, steps: int, q: float):
    import dp_accounting

    multiplier = check_sensitivity(scale, "scale") / check_sensitivity(sensitivity)
    base = (
        dp_accounting.GaussianDpEvent(multiplier)
        if _check_noise(noise) == "gaussian"
        else dp_accounting.LaplaceDpEvent(multiplier)
    )
    if q < 1.0:
        base = dp_accounting.PoissonSampledDpEvent(q, base)
    return dp_accounting.SelfComposedDpEvent(base, check_int(steps, "steps", minimum=1))


def _pld(noise, scale, sensitivity, steps, q, discretization):
    from dp_accounting.pld.pld_privacy_accountant import PLDAccountant

    q = check_probability(q, "sampling_probability")
    if q == 0:
        raise ValueError("sampling_probability must be > 0, got 0")
    acc = PLDAccountant(
        value_discretization_interval=check_sensitivity(discretization, "discretization")
    )
    acc.compose(_event(noise, scale, sensitivity, steps, q))
    return acc


def pld_epsilon(
    noise: Noise,
    scale: float,
    delta: float,
    *,
    steps: int = 1,
    sampling_probability: float = 1.0,
    sensitivity: float = 1.0,
    discretization: float = 1e-4,
) -> float:
    """ε at δ of ``steps`` composed mechanisms (noise of ``scale`` on a sensitivity-Δ query, each run on a Poisson
    sample with probability q if q < 1), by dp-accounting's privacy-loss-distribution accountant
    (:cite:`koskela2020computing,doroshenko2022connect`): the composition's exact profile, up to the pessimistic
    discretization of the privacy loss (step ``discretization``), so an upper bound close to the optimal ε."""
    return float(
        _pld(noise, scale, sensitivity, steps, sampling_probability, discretization).get_epsilon(
            check_delta(delta)
        )
    )


def pld_delta(
    noise: Noise,
    scale: float,
    epsilon: ArrayLike,
    *,
    steps: int = 1,
    sampling_probability: float = 1.0,
    sensitivity: float = 1.0,
    discretization: float = 1e-4,
) -> np.ndarray | float:
    """The privacy profile δ(ε) of the composition of :func:`pld_epsilon` (an upper bound; vectorized over ε ≥ 0)."""
    e = _nonneg_array(epsilon, "epsilon")
    acc = _pld(noise, scale, sensitivity, steps, sampling_probability, discretization)
    pld = acc._pld  # one distribution, read at every ε
    out = np.asarray(pld.get_delta_for_epsilon(e.ravel()), dtype=float).reshape(e.shape)
    return _out(
        np.clip(out, 0.0, 1.0)
    )  # δ ≤ 1 always; the FFT composition can overshoot 1 by ~1e-7


def rdp_epsilon(
    noise: Noise,
    scale: float,
    delta: float,
    *,
    steps: int = 1,
    sampling_probability: float = 1.0,
    sensitivity: float = 1.0,
    orders: Sequence[float] = DEFAULT_ORDERS,
) -> float:
    """ε at δ of the same composition as :func:`pld_epsilon`, by dp-accounting's RDP accountant: the RDP curves
    (Gaussian αΔ²/(2σ²), Laplace :func:`laplace_rdp`, Poisson-subsampled Gaussian :cite:`mironov2019renyi`) add
    up over the steps and are converted with :cite:`audit_canonne2020discrete` (Prop 12). Poisson-subsampled Laplace
    noise has no RDP curve there (ValueError)."""
    from dp_accounting.rdp.rdp_privacy_accountant import RdpAccountant

    q = check_probability(sampling_probability, "sampling_probability")
    if q == 0:
        raise ValueError("sampling_probability must be > 0, got 0")
    if noise == "laplace" and q < 1:
        raise ValueError(
            "noise must be gaussian when sampling_probability < 1 under RDP, got 'laplace'"
        )
    acc = RdpAccountant(orders=list(_orders(orders)))
    acc.compose(_event(noise, scale, sensitivity, steps, q))
    return float(acc.get_epsilon(check_delta(delta)))
