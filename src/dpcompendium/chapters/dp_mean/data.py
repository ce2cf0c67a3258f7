"""Data for the DP-average chapter: synthetic heights (as in {cite}`src_dpmean`) and UCI Adult ages.

Bounds are declared, public and data-independent: heights in [140, 200] cm, Adult ages in [17, 90] years (the
dataset's documented range: adults older than 16, ages top-coded at 90 {cite}`becker1996adult`).
"""

from __future__ import annotations

from functools import cache

import numpy as np

from ...core.data import load_adult
from ...core.validation import check_int, check_rng

__all__ = ["AGE_BOUNDS", "DATASETS", "HEIGHT_BOUNDS", "adult_ages", "dataset", "heights"]

HEIGHT_BOUNDS = (140.0, 200.0)
HEIGHT_MEAN, HEIGHT_SD = 170.0, 10.0
AGE_BOUNDS = (17.0, 90.0)
DATASETS = ("heights", "adult-age")


def heights(n: int, rng: np.random.Generator) -> np.ndarray:
    """n heights in cm: N(170, 10²) clipped to the declared bounds [140, 200] (the source's synthetic data)."""
    n = check_int(n, "n", minimum=0)
    rng = check_rng(rng)
    return np.clip(rng.normal(HEIGHT_MEAN, HEIGHT_SD, size=n), *HEIGHT_BOUNDS)


@cache
def _ages() -> np.ndarray:
    ages = load_adult()["age"].to_numpy(dtype=float)
    ages.flags.writeable = False
    return ages


def adult_ages() -> np.ndarray:
    """The 32,561 ages of the UCI Adult training split (read-only array)."""
    return _ages()


def dataset(name: str, n: int, rng: np.random.Generator) -> tuple[np.ndarray, tuple[float, float]]:
    """(values, declared bounds): ``heights`` (n synthetic) or ``adult-age`` (n ages sampled without replacement)."""
    n = check_int(n, "n", minimum=1)
    rng = check_rng(rng)
    if name == "heights":
        return heights(n, rng), HEIGHT_BOUNDS
    if name == "adult-age":
        ages = adult_ages()
        if n > ages.size:
            raise ValueError(f"n must be <= {ages.size} for adult-age, got {n}")
        return rng.choice(ages, size=n, replace=False), AGE_BOUNDS
    raise ValueError(f"name must be one of {'|'.join(DATASETS)}, got {name!r}")
