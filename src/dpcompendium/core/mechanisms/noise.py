"""What every additive-noise mechanism shares: the shape of a release and ``value + noise`` drawn from ``rng``."""

from __future__ import annotations

from typing import Literal

import numpy as np
from numpy.typing import ArrayLike

from ..validation import check_array, check_rng

__all__ = ["add_noise", "release_shape"]

#: The noise laws of the textbook mechanisms, as ``Generator`` methods taking (loc, scale, size).
_DRAW = {"laplace": np.random.Generator.laplace, "gaussian": np.random.Generator.normal}


def release_shape(value_shape: tuple[int, ...], size: int | tuple[int, ...] | None) -> tuple:
    """The shape of a release of a value of ``value_shape``: broadcast against ``size`` (e.g. repetitions)."""
    extra = size if isinstance(size, tuple) else (() if size is None else (size,))
    return np.broadcast_shapes(value_shape, extra)


def add_noise(
    value: ArrayLike,
    scale: float,
    rng: np.random.Generator,
    size: int | tuple[int, ...] | None = None,
    *,
    noise: Literal["laplace", "gaussian"],
) -> np.ndarray | float:
    """``value + noise(0, scale)`` elementwise, one independent draw per entry of :func:`release_shape`; a float for
    a scalar release. ``scale`` is the Laplace scale b or the Gaussian σ, already calibrated (and validated) by the
    caller: this is the release step only, with no privacy claim of its own."""
    rng = check_rng(rng)
    v = check_array(value, "value", allow_empty=True)
    out = v + _DRAW[noise](rng, 0.0, scale, size=release_shape(v.shape, size))
    return float(out) if out.ndim == 0 else out
