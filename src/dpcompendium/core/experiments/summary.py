"""Summaries of repeated runs: percentile-bootstrap intervals of a mean and per-group run summaries.

The one implementation every chapter uses (a chapter's own summary names its columns and calls these).

Short input: :func:`bootstrap_mean_ci` of fewer than two values is ``(nan, nan)`` — the spread of a mean over one
repetition is unknown, and a chapter run with one repetition (a valid parameter set) must still write its table, with
the interval missing rather than made up or the run stopped. Every other bad input is a one-line ValueError.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

from ..rng import generators
from ..validation import check_int, check_probability, check_rng

__all__ = ["bootstrap_mean", "bootstrap_mean_ci", "summarize_runs"]


def bootstrap_mean(
    values: ArrayLike, rng: np.random.Generator, *, n_boot: int = 2000, level: float = 0.95
) -> tuple[float, float, float]:
    """Percentile bootstrap of the mean of the 1-D ``values``: ``(low, high, standard error)`` from ``n_boot``
    resamples (vectorized; no normal approximation, the means of skewed errors are skewed). Fewer than two values:
    ``(nan, nan, nan)`` (module docstring)."""
    x = np.asarray(values, dtype=float)
    if x.ndim != 1:
        raise ValueError(f"values must be a 1-D array, got shape {x.shape}")
    rng = check_rng(rng)
    n_boot = check_int(n_boot, "n_boot", minimum=100)
    level = check_probability(level, "level")
    if x.size < 2:
        return float("nan"), float("nan"), float("nan")
    means = x[rng.integers(0, x.size, size=(n_boot, x.size))].mean(axis=1)
    alpha = (1.0 - level) / 2.0
    lo, hi = np.quantile(means, [alpha, 1.0 - alpha])
    return float(lo), float(hi), float(means.std(ddof=1))


def bootstrap_mean_ci(
    values: ArrayLike, rng: np.random.Generator, *, n_boot: int = 2000, level: float = 0.95
) -> tuple[float, float]:
    """Percentile bootstrap interval ``(low, high)`` of the mean of ``values`` (:func:`bootstrap_mean`); fewer than
    two values: ``(nan, nan)``."""
    lo, hi, _ = bootstrap_mean(values, rng, n_boot=n_boot, level=level)
    return lo, hi


def summarize_runs(
    runs: pd.DataFrame,
    by: Sequence[str],
    metrics: Sequence[str],
    *,
    sd: Sequence[str] = (),
    ci: Sequence[str] = (),
    seed: int | np.random.SeedSequence = 0,
    n_boot: int = 2000,
    level: float = 0.95,
) -> pd.DataFrame:
    """One row per group of ``by`` (in order of appearance): ``reps``, the mean of each of ``metrics``, the standard
    deviation over repetitions ``<m>_sd`` of each of ``sd``, and a percentile-bootstrap interval of the mean,
    ``<m>_lo`` and ``<m>_hi``, of each of ``ci`` (group i resampled with stream i of ``generators(seed, groups)``)."""
    by, metrics = list(by), list(metrics)
    missing = [c for c in (*by, *metrics, *sd, *ci) if c not in runs.columns]
    if missing:
        raise ValueError(f"runs must have columns {missing}, got {list(runs.columns)}")
    grouped = runs.groupby(by, sort=False)
    out = grouped[metrics].mean()
    out.insert(0, "reps", grouped.size())
    for m in sd:
        out[f"{m}_sd"] = grouped[m].std(ddof=1)
    if ci:
        gens = generators(seed, len(out))
        for m in ci:
            cis = [
                bootstrap_mean_ci(v.to_numpy(), gen, n_boot=n_boot, level=level)
                for (_, v), gen in zip(grouped[m], gens, strict=True)
            ]
            out[f"{m}_lo"] = [c[0] for c in cis]
            out[f"{m}_hi"] = [c[1] for c in cis]
    return out.reset_index()
