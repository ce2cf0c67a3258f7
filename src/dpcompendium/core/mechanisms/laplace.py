"""The Laplace mechanism."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from ..validation import check_epsilon, check_sensitivity
from .noise import add_noise


def laplace_scale(sensitivity: float, epsilon: float) -> float:
    """b = Δ₁ / ε."""
    return check_sensitivity(sensitivity) / check_epsilon(epsilon)


def laplace_mechanism(
    value: ArrayLike,
    sensitivity: float,
    epsilon: float,
    rng: np.random.Generator,
    size: int | tuple[int, ...] | None = None,
) -> np.ndarray | float:
    """Release ``value + Lap(Δ₁/ε)`` elementwise.

    ε-DP for any neighbour relation under which the L1 distance of ``value`` between neighbours is at most Δ₁
    (Dwork et al., TCC 2006). ``size`` draws independent releases broadcast against ``value`` (e.g. repetitions).
    Noise variance per coordinate: 2(Δ₁/ε)².
    """
    return add_noise(value, laplace_scale(sensitivity, epsilon), rng, size, noise="laplace")
