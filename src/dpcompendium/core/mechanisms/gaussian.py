"""The Gaussian mechanism: the classical (ε, δ) calibration where it is valid, the analytic one, the exact profile.

- :func:`gaussian_sigma` — classical σ = Δ√(2 ln(1.25/δ))/ε (Dwork & Roth 2014, Thm A.1; proved for ε < 1);
- :func:`analytic_gaussian_sigma` — the smallest σ that is (ε, δ)-DP, for every ε > 0 (Balle & Wang 2018, Thm 8);
- :func:`gaussian_delta` / :func:`gaussian_epsilon` — the exact privacy profile δ(ε) of N(0, σ²) noise on an
  L2-sensitivity-Δ query, and its inverse;
- :func:`gaussian_claim` — the :class:`~dpcompendium.core.privacy.PrivacyClaim` of a calibration: the classical one is
  claimed where its theorem applies (ε < 1) or where the exact profile shows it (ε_exact(σ) ≤ ε, evaluated
  numerically); elsewhere the claim is ``private=False`` with the exact ε shown.
"""

from __future__ import annotations

import functools
import math
import warnings
from typing import Literal

import numpy as np
from numpy.typing import ArrayLike
from scipy import optimize
from scipy.special import log_ndtr, ndtr  # scipy.stats.norm's cdf and logcdf, without the overhead

from ..messages import message, tex
from ..privacy import PrivacyClaim
from ..validation import check_delta, check_epsilon, check_sensitivity
from .noise import add_noise

__all__ = [
    "CALIBRATIONS",
    "analytic_gaussian_sigma",
    "calibrated_sigma",
    "classical_crossover",
    "gaussian_claim",
    "gaussian_delta",
    "gaussian_epsilon",
    "gaussian_mechanism",
    "gaussian_sigma",
]

Calibration = Literal["classical", "analytic", "auto"]
#: ``classical`` (the textbook formula), ``analytic`` (Balle–Wang, tight, any ε), ``auto`` (classical where its
#: claim holds, analytic elsewhere).
CALIBRATIONS = ("classical", "analytic", "auto")


def gaussian_sigma(
    sensitivity: float, epsilon: float, delta: float, *, _stacklevel: int = 2
) -> float:
    """σ = Δ₂ √(2 ln(1.25/δ)) / ε (Dwork & Roth 2014, Theorem A.1; the proof needs ε < 1).

    For ε ≥ 1 the classical bound is not proved; a ``UserWarning`` says so (:func:`gaussian_claim` decides with the
    exact profile; :func:`analytic_gaussian_sigma` is the tight alternative).
    """
    s = check_sensitivity(sensitivity)
    e = check_epsilon(epsilon)
    d = check_delta(delta)
    if e >= 1:
        warnings.warn(
            f"classical Gaussian calibration is proved only for epsilon < 1, got {e:g}",
            UserWarning,
            stacklevel=_stacklevel,
        )
    return s * math.sqrt(2.0 * math.log(1.25 / d)) / e


def gaussian_delta(sigma: float, sensitivity: float, epsilon: float) -> float:
    """Exact δ(ε) of the Gaussian mechanism (Balle & Wang 2018, Thm 8, [balle2018improving]).

    δ(ε) = Φ(Δ/(2σ) − εσ/Δ) − e^ε Φ(−Δ/(2σ) − εσ/Δ) (second term in log space).
    """
    s = check_sensitivity(sigma, "sigma")
    d = check_sensitivity(sensitivity)
    a, b = d / (2 * s), epsilon * s / d
    return float(ndtr(a - b) - math.exp(epsilon + log_ndtr(-a - b)))


def gaussian_epsilon(sigma: float, sensitivity: float, delta: float) -> float:
    """The exact (smallest) ε at which N(0, σ²) noise on an L2-sensitivity-Δ query is (ε, δ)-DP."""
    if gaussian_delta(sigma, sensitivity, 0.0) <= delta:
        return 0.0
    hi = 1.0
    while gaussian_delta(sigma, sensitivity, hi) > delta:
        hi *= 2.0
    return float(
        optimize.brentq(
            lambda e: gaussian_delta(sigma, sensitivity, e) - delta, 0.0, hi, xtol=1e-12
        )
    )


@functools.lru_cache(maxsize=4096)
def analytic_gaussian_sigma(sens: float, epsilon: float, delta: float) -> float:
    """Smallest σ with Φ(Δ/2σ − εσ/Δ) − e^ε Φ(−Δ/2σ − εσ/Δ) ≤ δ: the exact (ε, δ) Gaussian calibration,
    valid for every ε > 0 (Balle & Wang 2018, Thm 8, :cite:`balle2018improving`)."""
    e, d = check_epsilon(epsilon), check_delta(delta)
    if not (math.isfinite(sens) and sens > 0):
        raise ValueError(f"sens must be finite and > 0, got {sens!r}")

    def excess(log_sigma: float) -> float:
        s = math.exp(log_sigma) / sens  # σ in units of Δ
        a, b = 1.0 / (2.0 * s), e * s
        return ndtr(a - b) - math.exp(e + log_ndtr(-a - b)) - d

    lo, hi = math.log(sens) - 30.0, math.log(sens) + 30.0
    return math.exp(optimize.brentq(excess, lo, hi, xtol=1e-14, rtol=1e-12))


@functools.lru_cache(maxsize=4096)
def _classical_exact_epsilon(epsilon: float, delta: float) -> float:
    """Exact ε of the classical σ (scale-free: depends on ε and δ only)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        return gaussian_epsilon(gaussian_sigma(1.0, epsilon, delta), 1.0, delta)


@functools.lru_cache(maxsize=256)
def classical_crossover(delta: float) -> float:
    """The ε* above which the classical σ is *not* (ε, δ)-DP (exact profile; 8.4198 at δ = 1e-5)."""
    d = check_delta(delta)
    return float(
        optimize.brentq(lambda e: _classical_exact_epsilon(e, d) - e, 1.0, 1e3, xtol=1e-10)
    )


def _classical_holds(sensitivity: float, epsilon: float, delta: float) -> bool:
    """Whether :func:`gaussian_claim` claims the classical calibration at (ε, δ) — ``gaussian_claim(sensitivity,
    epsilon, delta).private`` (scale-free: ε < 1, or the exact profile's ε of the classical σ at most ε), without
    building the claim (the sweeps ask for thousands of σ's per run; the answer depends on ε and δ only)."""
    e, d = check_epsilon(epsilon), check_delta(delta)
    return e < 1 or _classical_exact_epsilon(e, d) <= e


def calibrated_sigma(
    sensitivity: float, epsilon: float, delta: float, calibration: Calibration = "classical"
) -> float:
    """σ of the named calibration; ``auto`` = classical where :func:`gaussian_claim` holds for it, else analytic."""
    if calibration not in CALIBRATIONS:
        raise ValueError(
            f"calibration must be one of {'|'.join(CALIBRATIONS)}, got {calibration!r}"
        )
    if calibration == "analytic" or (
        calibration == "auto"
        and not _classical_holds(check_sensitivity(sensitivity), epsilon, delta)
    ):
        return analytic_gaussian_sigma(sensitivity, epsilon, delta)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        return gaussian_sigma(sensitivity, epsilon, delta)


def gaussian_claim(
    sensitivity: float,
    epsilon: float,
    delta: float,
    calibration: Calibration = "classical",
    *,
    mechanism: str = "Gaussian mechanism",
    neighbours: str = "add-remove",
    sensitivity_text: str | None = None,
) -> PrivacyClaim:
    """The claim of N(0, σ²) noise with σ from ``calibration`` on an L2-sensitivity-Δ query.

    Classical: proved for ε < 1 (Dwork & Roth 2014, Thm A.1); for ε ≥ 1 claimed only if the exact profile
    (Balle & Wang 2018) gives ε_exact(σ) ≤ ε, else ``private=False`` with ε_exact. Analytic / auto: always valid.
    """
    s = check_sensitivity(sensitivity)
    e, d = check_epsilon(epsilon), check_delta(delta)
    if calibration not in CALIBRATIONS:
        raise ValueError(
            f"calibration must be one of {'|'.join(CALIBRATIONS)}, got {calibration!r}"
        )
    sens = sensitivity_text or f"L2 {s:.6g}"
    if calibration != "classical":
        cond = message("claims.gauss.analytic")
        if calibration == "auto":
            cond = message("claims.gauss.auto", cond=cond)
        return PrivacyClaim(mechanism, neighbours, sens, e, d, True, "", (cond,))  # type: ignore[arg-type]
    if e < 1:
        cond = message("claims.gauss.classical")
        return PrivacyClaim(mechanism, neighbours, sens, e, d, True, "", (cond,))  # type: ignore[arg-type]
    exact = _classical_exact_epsilon(e, d)
    if exact <= e:
        cond = message("claims.gauss.classical_valid", exact=tex(f"{exact:.4g}"), eps=tex(f"{e:g}"))
        return PrivacyClaim(mechanism, neighbours, sens, e, d, True, "", (cond,))  # type: ignore[arg-type]
    why = message(
        "claims.gauss.why_classical",
        delta=tex(f"{d:g}"),
        exact=tex(f"{exact:.4g}"),
        eps=tex(f"{e:g}"),
    )
    return PrivacyClaim(mechanism, neighbours, sens, e, d, False, why)  # type: ignore[arg-type]


def gaussian_mechanism(
    value: ArrayLike,
    sensitivity: float,
    epsilon: float,
    delta: float,
    rng: np.random.Generator,
    size: int | tuple[int, ...] | None = None,
) -> np.ndarray | float:
    """Release ``value + N(0, σ²)`` elementwise with σ from :func:`gaussian_sigma`; (ε, δ)-DP for L2 sensitivity Δ₂
    where :func:`gaussian_claim` says so (ε < 1, or the exact profile)."""
    sigma = gaussian_sigma(sensitivity, epsilon, delta, _stacklevel=3)
    return add_noise(value, sigma, rng, size, noise="gaussian")
