"""The chapter's datasets, all on [−1, 1] [src_hiera, becker1996adult].

Synthetic values follow the source's generators (``normal``, ``uniform``, ``exponent``). The source's census extracts
(BR, US) are not available; regression uses UCI Adult (target hours-per-week) and a synthetic linear model instead.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

from ...core.data import load_adult
from ...core.validation import check_array, check_int, check_rng

__all__ = [
    "ADULT_FEATURES",
    "adult_ages_unit",
    "adult_regression",
    "scale_to_unit",
    "synthetic_regression",
    "synthetic_values",
]

#: Numeric Adult attributes used as regression features (plus ``sex`` as ±1).
ADULT_FEATURES = ("age", "fnlwgt", "education-num", "capital-gain", "capital-loss")


def scale_to_unit(x: ArrayLike) -> np.ndarray:
    """Min–max scaling of each column to [−1, 1]: 2(x − min)/(max − min) − 1 (constant columns become 0)."""
    a = check_array(x, "x", ndim=(1, 2))
    lo, hi = a.min(axis=0), a.max(axis=0)
    span = np.where(hi > lo, hi - lo, 1.0)
    return np.clip(2.0 * (a - lo) / span - 1.0, -1.0, 1.0)


def synthetic_values(kind: str, n: int, rng: np.random.Generator) -> np.ndarray:
    """The source's synthetic data: ``normal`` clip(N(0.5, 0.1²), −1, 1); ``uniform`` U(−1, 1);
    ``exponential`` 2·clip(Exp(1), 0, 1) − 1."""
    n = check_int(n, "n", minimum=1)
    rng = check_rng(rng)
    if kind == "normal":
        return np.clip(rng.normal(0.5, 0.1, size=n), -1.0, 1.0)
    if kind == "uniform":
        return rng.uniform(-1.0, 1.0, size=n)
    if kind == "exponential":
        return 2.0 * np.clip(rng.exponential(1.0, size=n), 0.0, 1.0) - 1.0
    raise ValueError(f"kind must be 'normal', 'uniform' or 'exponential', got {kind!r}")


def adult_ages_unit(frame: pd.DataFrame | None = None) -> np.ndarray:
    """Adult's ``age`` (17…90) scaled to [−1, 1], 32,561 users (the raw ages are
    :func:`dpcompendium.chapters.dp_mean.data.adult_ages`)."""
    df = load_adult() if frame is None else frame
    return scale_to_unit(df["age"].to_numpy(dtype=float))


def adult_regression(frame: pd.DataFrame | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(X, y): :data:`ADULT_FEATURES` and sex (±1) scaled to [−1, 1]; y = hours-per-week scaled to [−1, 1]."""
    df = load_adult() if frame is None else frame
    num = scale_to_unit(df[list(ADULT_FEATURES)].to_numpy(dtype=float))
    sex = np.where(df["sex"].to_numpy() == "Male", 1.0, -1.0)[:, None]
    return np.hstack((num, sex)), scale_to_unit(df["hours-per-week"].to_numpy(dtype=float))


def synthetic_regression(
    n: int, d: int, rng: np.random.Generator, *, noise: float = 0.1
) -> tuple[np.ndarray, np.ndarray]:
    """x ~ U(−1, 1)^d, y = clip(b + α·x + N(0, noise²), −1, 1) with b ~ U(−0.2, 0.2), α_j ~ U(−1, 1)/d."""
    n = check_int(n, "n", minimum=2)
    d = check_int(d, "d", minimum=1)
    rng = check_rng(rng)
    b = rng.uniform(-0.2, 0.2)
    alpha = rng.uniform(-1.0, 1.0, size=d) / d
    x = rng.uniform(-1.0, 1.0, size=(n, d))
    y = np.clip(b + x @ alpha + rng.normal(0.0, noise, size=n), -1.0, 1.0)
    return x, y
