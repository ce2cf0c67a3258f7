"""Summaries of repeated MWEM runs and their comparison with a reference table (percentile bootstrap)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ...core import experiments
from ...core.experiments.summary import bootstrap_mean

__all__ = ["METRICS", "compare_with_reference", "summarize_runs"]

#: The coursework's four error summaries, in its order.
METRICS = ("max_error", "min_error", "mse", "mean_error")


def summarize_runs(
    runs: pd.DataFrame, by: tuple[str, ...] = ("variant", "epsilon")
) -> pd.DataFrame:
    """Average each metric over repetitions (the report's ``AvgMax`` … ``AvgMean``): one row per group, with ``reps``
    (:func:`dpcompendium.core.experiments.summary.summarize_runs` over :data:`METRICS`)."""
    return experiments.summarize_runs(runs, by, METRICS)


#: Columns of :func:`compare_with_reference`.
REFERENCE_COLUMNS = [
    "variant",
    "epsilon",
    "metric",
    "reps",
    "ours",
    "ci_low",
    "ci_high",
    "se",
    "reference",
    "rel_diff",
    "inside_ci",
    "within_tolerance",
    "reproduced",
    "z_two_sample",
]


def compare_with_reference(
    runs: pd.DataFrame,
    reference: pd.DataFrame,
    rng: np.random.Generator,
    *,
    variant: str = "coursework",
    n_boot: int = 2000,
    level: float = 0.95,
    tolerance: float = 0.10,
) -> pd.DataFrame:
    """Our 100-run averages beside a reference table, one row per (epsilon, metric).

    Columns: ours, ci_low, ci_high (percentile bootstrap of the mean over repetitions), se (bootstrap standard
    error of our mean), reference, rel_diff = (ours − reference)/reference, inside_ci, within_tolerance
    (|rel_diff| <= ``tolerance``), reproduced (either of the two), and z_two_sample = (ours − reference)/(√2·se):
    the reference is itself an average of as many runs, so if it has our spread the difference of the two averages
    has standard error √2·se.
    """
    sub = runs[runs["variant"] == variant]
    if sub.empty:
        raise ValueError(f"variant must be present in runs, got {variant!r}")
    rows = []
    for _, ref in reference.iterrows():
        eps = float(ref["epsilon"])
        cell = sub[np.isclose(sub["epsilon"], eps)]
        if cell.empty:
            continue
        for metric in METRICS:
            vals = cell[metric].to_numpy(dtype=float)
            lo, hi, se = bootstrap_mean(vals, rng, n_boot=n_boot, level=level)
            ours, r = float(vals.mean()), float(ref[metric])
            rel = (ours - r) / r
            inside = lo <= r <= hi
            within = abs(rel) <= tolerance
            rows.append(
                {
                    "variant": variant,
                    "epsilon": eps,
                    "metric": metric,
                    "reps": len(vals),
                    "ours": ours,
                    "ci_low": lo,
                    "ci_high": hi,
                    "se": se,
                    "reference": r,
                    "rel_diff": rel,
                    "inside_ci": bool(inside),
                    "within_tolerance": bool(within),
                    "reproduced": bool(inside or within),
                    "z_two_sample": (ours - r) / (np.sqrt(2.0) * se),
                }
            )
    # No common epsilon: an empty table that still has its columns (callers merge and filter on them).
    return pd.DataFrame(rows, columns=REFERENCE_COLUMNS)
