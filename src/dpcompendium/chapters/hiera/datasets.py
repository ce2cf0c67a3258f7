"""The chapter's datasets, all on [−1, 1] [src_hiera, becker1996adult].

Synthetic values follow the source's generators (``normal``, ``uniform``, ``exponent``). The source's census extracts
(BR, US) are not available; regression uses UCI Adult (target hours-per-week) and a synthetic linear model instead.

Adult's columns are mapped to [−1, 1] with *declared* ranges (:data:`ADULT_RANGES`, each with its source), clipped
(:func:`scale_to_unit`): a per-record map, so every raw record gives a value in [−1, 1] — the domain of the per-report
LDP claims — and no record's scaled value depends on the others (the data's own min/max would make it so).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

from ...core.data import load_adult
from ...core.validation import check_array, check_int, check_rng
from .levels import PUBLIC_SCALING

__all__ = [
    "ADULT_FEATURES",
    "ADULT_RANGES",
    "PUBLIC_SCALING",
    "adult_ages_unit",
    "adult_regression",
    "scale_to_unit",
    "synthetic_regression",
    "synthetic_values",
]

#: Numeric Adult attributes used as regression features (plus ``sex`` as ±1).
ADULT_FEATURES = ("age", "fnlwgt", "education-num", "capital-gain", "capital-loss")


#: Declared ranges ``(lo, hi, source)`` of the Adult columns the chapter uses: a user takes them from the data's
#: documentation (UCI ``adult.names``: records were extracted with AAGE > 16, AFNLWGT > 1 and HRSWK > 0, and 16
#: education levels) and the census files' top-codes, never from the rows. Where no documentation gives a bound
#: (fnlwgt's and capital-loss's maxima; the census files give none) it is the data's maximum rounded up, the source
#: says so, and the LDP claims' condition (``PUBLIC_SCALING``) says that what those two maxima reveal is not
#: covered by the guarantee (referee 6, m11).
ADULT_RANGES: dict[str, tuple[float, float, str]] = {
    "age": (
        17.0,
        90.0,
        "documented: adult.names extraction AAGE > 16; the census top-codes age at 90",
    ),
    "fnlwgt": (
        1.0,
        1.5e6,
        "from the data above AFNLWGT > 1: no documented maximum; 1,484,705 rounded up",
    ),
    "education-num": (1.0, 16.0, "documented: the 16 education levels of adult.names"),
    "capital-gain": (0.0, 99999.0, "documented: the census top-code 99999"),
    "capital-loss": (0.0, 5000.0, "from the data: no documented maximum; 4,356 rounded up"),
    "hours-per-week": (
        1.0,
        99.0,
        "documented: adult.names extraction HRSWK > 0; the census field's top 99",
    ),
}


def scale_to_unit(x: ArrayLike, lo: ArrayLike, hi: ArrayLike) -> np.ndarray:
    """Each column clipped to its declared public range ``[lo, hi]`` and mapped to [−1, 1]: 2(clip(x) − lo)/(hi − lo)
    − 1. A per-record map with public parameters: every raw record lands in [−1, 1], and one record's value never
    moves another's (min–max scaling by the data's own range would)."""
    a = check_array(x, "x", ndim=(1, 2))
    lo_a = np.broadcast_to(np.asarray(lo, dtype=float), a.shape[1:])
    hi_a = np.broadcast_to(np.asarray(hi, dtype=float), a.shape[1:])
    if not (np.all(np.isfinite(lo_a)) and np.all(np.isfinite(hi_a)) and np.all(hi_a > lo_a)):
        raise ValueError(f"lo and hi must be finite with hi > lo, got lo={lo!r}, hi={hi!r}")
    return 2.0 * (np.clip(a, lo_a, hi_a) - lo_a) / (hi_a - lo_a) - 1.0


def _adult_scaled(df: pd.DataFrame, columns: list[str]) -> np.ndarray:
    lo = [ADULT_RANGES[c][0] for c in columns]
    hi = [ADULT_RANGES[c][1] for c in columns]
    return scale_to_unit(df[columns].to_numpy(dtype=float), lo, hi)


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
    """Adult's ``age`` scaled to [−1, 1] with its declared range 17…90 (:data:`ADULT_RANGES`): 32,561 users."""
    df = load_adult() if frame is None else frame
    return _adult_scaled(df, ["age"])[:, 0]


def adult_regression(frame: pd.DataFrame | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(X, y): :data:`ADULT_FEATURES` and sex (±1) scaled to [−1, 1]; y = hours-per-week scaled to [−1, 1]; each
    column with its declared range (:data:`ADULT_RANGES`)."""
    df = load_adult() if frame is None else frame
    num = _adult_scaled(df, list(ADULT_FEATURES))
    sex = np.where(df["sex"].to_numpy() == "Male", 1.0, -1.0)[:, None]
    return np.hstack((num, sex)), _adult_scaled(df, ["hours-per-week"])[:, 0]


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
