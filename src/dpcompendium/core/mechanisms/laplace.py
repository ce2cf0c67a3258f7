"""The Laplace mechanism."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from ..validation import check_array, check_epsilon, check_rng, check_sensitivity


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
    b = laplace_scale(sensitivity, epsilon)
    rng = check_rng(rng)
    v = check_array(value, "value", allow_empty=True)
    shape = np.broadcast_shapes(
        v.shape, size if isinstance(size, tuple) else (() if size is None else (size,))
    )
    out = v + rng.laplace(0.0, b, size=shape)
    return float(out) if out.ndim == 0 else out
