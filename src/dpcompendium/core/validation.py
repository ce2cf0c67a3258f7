"""Input validation shared by every mechanism and estimator.

Every check raises :class:`ValueError` with a one-line message that names the argument and the offending value,
in the style of diffprivlib's ``validation`` module. Checks return the validated (and converted) value so that they
can be used inline: ``epsilon = check_epsilon(epsilon)``.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Sequence
from typing import Any

import numpy as np

__all__ = [
    "check_array",
    "check_bounds",
    "check_delta",
    "check_epsilon",
    "check_in_domain",
    "check_int",
    "check_nonempty",
    "check_probability",
    "check_rng",
    "check_same_shape",
    "check_sensitivity",
]


def _fmt(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _real_scalar(value: Any, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise ValueError(f"{name} must be a real number, got {_fmt(value)}")
    return float(value)


def _positive_finite(value: Any, name: str) -> float:
    x = _real_scalar(value, name)
    if not math.isfinite(x) or x <= 0:
        raise ValueError(f"{name} must be finite and > 0, got {_fmt(value)}")
    return x


def check_epsilon(epsilon: Any, name: str = "epsilon") -> float:
    """ε must be a finite real number > 0."""
    return _positive_finite(epsilon, name)


def _unit_interval(value: Any, name: str, *, closed: bool) -> float:
    """A real number in [0, 1] (``closed``) or in (0, 1)."""
    x = _real_scalar(value, name)
    inside = 0.0 <= x <= 1.0 if closed else 0.0 < x < 1.0
    if not inside:
        raise ValueError(f"{name} must be in {'[0, 1]' if closed else '(0, 1)'}, got {_fmt(value)}")
    return x


def check_delta(delta: Any, name: str = "delta") -> float:
    """δ must lie in the open interval (0, 1)."""
    return _unit_interval(delta, name, closed=False)


def check_sensitivity(sensitivity: Any, name: str = "sensitivity") -> float:
    """A sensitivity must be finite and > 0."""
    return _positive_finite(sensitivity, name)


def check_probability(p: Any, name: str = "p") -> float:
    """A probability in [0, 1]."""
    return _unit_interval(p, name, closed=True)


def check_int(value: Any, name: str, minimum: int | None = None, maximum: int | None = None) -> int:
    """An integer (bool excluded) inside [minimum, maximum]."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise ValueError(f"{name} must be an integer, got {_fmt(value)}")
    v = int(value)
    if minimum is not None and v < minimum:
        raise ValueError(f"{name} must be >= {minimum}, got {v}")
    if maximum is not None and v > maximum:
        raise ValueError(f"{name} must be <= {maximum}, got {v}")
    return v


def check_bounds(bounds: Any, name: str = "bounds") -> tuple[float, float]:
    """A pair (lower, upper) of finite reals with lower < upper."""
    if not isinstance(bounds, Sequence | np.ndarray) or len(bounds) != 2:
        raise ValueError(f"{name} must be a pair (lower, upper), got {_fmt(bounds)}")
    lo = _real_scalar(bounds[0], f"{name}[0]")
    hi = _real_scalar(bounds[1], f"{name}[1]")
    if not (math.isfinite(lo) and math.isfinite(hi)) or lo >= hi:
        raise ValueError(f"{name} must be finite with lower < upper, got {_fmt(tuple(bounds))}")
    return lo, hi


def check_array(
    x: Any,
    name: str = "x",
    *,
    ndim: int | Sequence[int] | None = None,
    allow_empty: bool = False,
    dtype: Any = float,
) -> np.ndarray:
    """Convert to an ndarray of ``dtype``; reject NaN/inf, wrong dimensionality and (unless allowed) emptiness."""
    try:
        arr = np.asarray(x, dtype=dtype)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{name} must be numeric array-like, got {_fmt(x)}") from exc
    if ndim is not None:
        allowed = (ndim,) if isinstance(ndim, int) else tuple(ndim)
        if arr.ndim not in allowed:
            raise ValueError(f"{name} must have ndim in {allowed}, got shape {arr.shape}")
    if not allow_empty and arr.size == 0:
        raise ValueError(f"{name} must be non-empty, got shape {arr.shape}")
    if np.issubdtype(arr.dtype, np.floating) and not np.all(np.isfinite(arr)):
        bad = arr[~np.isfinite(arr)].ravel()[0]
        raise ValueError(f"{name} must be finite, found {bad!r}")
    return arr


def check_nonempty(x: Any, name: str = "x") -> np.ndarray:
    """Reject empty data."""
    return check_array(x, name, allow_empty=False)


def check_in_domain(x: Any, bounds: tuple[float, float], name: str = "x") -> np.ndarray:
    """Every value of ``x`` must lie in the closed interval ``bounds`` (the declared domain)."""
    lo, hi = check_bounds(bounds)
    arr = check_array(x, name, allow_empty=True)
    outside = (arr < lo) | (arr > hi)
    if np.any(outside):
        bad = arr[outside].ravel()[0]
        raise ValueError(f"{name} must lie in [{lo:g}, {hi:g}], found {bad!r}")
    return arr


def check_same_shape(a: np.ndarray, b: np.ndarray, name_a: str = "a", name_b: str = "b") -> None:
    """Two arrays must have the same shape."""
    if np.shape(a) != np.shape(b):
        raise ValueError(
            f"{name_a} and {name_b} must have the same shape, got {np.shape(a)} and {np.shape(b)}"
        )


def check_rng(rng: Any, name: str = "rng") -> np.random.Generator:
    """Randomness is always an injected :class:`numpy.random.Generator` — never global state."""
    if not isinstance(rng, np.random.Generator):
        raise ValueError(f"{name} must be a numpy.random.Generator, got {_fmt(rng)}")
    return rng
