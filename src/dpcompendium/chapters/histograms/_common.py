"""Shared input handling for the histogram mechanisms."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from ...core.mechanisms.ranges import finish_releases, prepare_histogram


def prepare(
    x: ArrayLike, epsilon: float, rng: np.random.Generator, size: int | None
) -> tuple[np.ndarray, float, np.random.Generator, int]:
    """Validate (1-D histogram, ε, rng, size); return the float histogram, ε, rng and the number of releases."""
    return prepare_histogram(x, epsilon, rng, size, ndim=1)


#: Shape ``(size, n)``, or ``(n,)`` when ``size`` is None.
finish = finish_releases


def share(value: float, name: str) -> float:
    """A budget share in the open interval (0, 1)."""
    if (
        isinstance(value, bool)
        or not isinstance(value, int | float)
        or not (0.0 < float(value) < 1.0)
    ):
        raise ValueError(f"{name} must be in (0, 1), got {value!r}")
    return float(value)


def split_budget(epsilon: float, ratio: float, name: str = "ratio") -> tuple[float, float]:
    """``(ratio·ε, (1 − ratio)·ε)``: ε split by a budget share ``ratio`` in (0, 1) (checked as ``name``)."""
    r = share(ratio, name)
    return r * epsilon, (1.0 - r) * epsilon


def group_means(x: np.ndarray, labels: np.ndarray, n_groups: int) -> tuple[np.ndarray, np.ndarray]:
    """Per-repetition group sums and sizes: ``labels`` (R, n) in {0..n_groups-1} → (R, n_groups) each."""
    reps = labels.shape[0]
    flat = (labels + n_groups * np.arange(reps)[:, None]).ravel()
    sums = np.bincount(flat, weights=np.tile(x, reps), minlength=reps * n_groups)
    sizes = np.bincount(flat, minlength=reps * n_groups)
    return sums.reshape(reps, n_groups), sizes.reshape(reps, n_groups)


def release_groups(
    x: np.ndarray, labels: np.ndarray, n_groups: int, epsilon: float, rng: np.random.Generator
) -> np.ndarray:
    """Lap(1/ε) on every group's sum, spread uniformly over the group's bins (ε-DP for a fixed partition)."""
    sums, sizes = group_means(x, labels, n_groups)
    noisy = sums + rng.laplace(0.0, 1.0 / epsilon, size=sums.shape)
    per_bin = np.divide(noisy, sizes, out=np.zeros_like(noisy), where=sizes > 0)
    return np.take_along_axis(per_bin, labels, axis=1)
