"""The Gaussian mechanism with the classical (ε, δ) calibration."""

from __future__ import annotations

import math
import warnings

import numpy as np
from numpy.typing import ArrayLike

from ..validation import check_array, check_delta, check_epsilon, check_rng, check_sensitivity


def gaussian_sigma(
    sensitivity: float, epsilon: float, delta: float, *, _stacklevel: int = 2
) -> float:
    """σ = Δ₂ √(2 ln(1.25/δ)) / ε (Dwork & Roth 2014, Theorem A.1; the proof needs ε < 1).

    For ε ≥ 1 the classical bound is not proved; a ``UserWarning`` says so (the analytic Gaussian mechanism of
    Balle & Wang 2018 is the tight alternative).
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


def gaussian_mechanism(
    value: ArrayLike,
    sensitivity: float,
    epsilon: float,
    delta: float,
    rng: np.random.Generator,
    size: int | tuple[int, ...] | None = None,
) -> np.ndarray | float:
    """Release ``value + N(0, σ²)`` elementwise with σ from :func:`gaussian_sigma`; (ε, δ)-DP for L2 sensitivity Δ₂."""
    sigma = gaussian_sigma(sensitivity, epsilon, delta, _stacklevel=3)
    rng = check_rng(rng)
    v = check_array(value, "value", allow_empty=True)
    shape = np.broadcast_shapes(
        v.shape, size if isinstance(size, tuple) else (() if size is None else (size,))
    )
    out = v + rng.normal(0.0, sigma, size=shape)
    return float(out) if out.ndim == 0 else out
