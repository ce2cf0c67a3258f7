"""The chapter's Monte-Carlo experiments: error sweeps, closed-form comparison, the source's conclusion.

Each (dataset, n) gets one fixed dataset (seeded from ``SeedSequence([seed, 1, i])``); repetitions vary only the
mechanism's noise and come from :func:`dpcompendium.core.experiments.sweep` in vectorized mode (one call per cell with
``size=reps``), so tables are byte-identical for a seed whatever ``n_jobs``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pandas as pd

from ...core.experiments import summarize, sweep
from ...core.rng import make_rng
from ...core.validation import check_int
from ..registry import chapter_id
from .analysis import closed_form_error
from .data import dataset
from .estimators import (
    noisy_average_clamped,
    noisy_average_composition,
    noisy_average_normalized,
    noisy_average_resampling,
)

__all__ = [
    "COMPARISONS",
    "SWEEP_METHODS",
    "build_data",
    "closed_form_table",
    "conclusion_table",
    "error_sweep",
]

#: (method label, variant) → (estimator, extra keyword arguments). Labels are the ``method`` column of the tables.
SWEEP_METHODS: dict[tuple[str, str], tuple[Callable[..., Any], dict[str, Any]]] = {
    ("composition", "as-written"): (noisy_average_composition, {"variant": "as-written"}),
    ("composition", "corrected"): (noisy_average_composition, {"variant": "corrected"}),
    ("resampling", "as-written"): (noisy_average_resampling, {"variant": "as-written"}),
    ("resampling", "corrected"): (noisy_average_resampling, {"variant": "corrected"}),
    ("clamped", "as-written"): (noisy_average_clamped, {}),
    ("laplace-public-n", "as-written"): (noisy_average_clamped, {"clamp": False}),
    ("normalized", "as-written"): (noisy_average_normalized, {"variant": "as-written"}),
    ("normalized", "corrected"): (noisy_average_normalized, {"variant": "corrected"}),
    ("normalized-clamped", "corrected"): (
        noisy_average_normalized,
        {"variant": "corrected", "clamp": True},
    ),
}

#: name → (numerator (method, variant), denominator (method, variant), what the RMSE ratio measures).
COMPARISONS: dict[str, tuple[tuple[str, str], tuple[str, str], str]] = {
    "source (as written)": (
        ("normalized", "as-written"),
        ("clamped", "as-written"),
        "the source's comparison: add-remove, Lap(2Δ/ε) on the centred sum vs replace-one, true count",
    ),
    "matched eps, different neighbours": (
        ("normalized", "corrected"),
        ("clamped", "as-written"),
        "normalization with its own sensitivity Δ/2 vs clamping; still add-remove vs replace-one",
    ),
    "clamping alone, replace-one": (
        ("laplace-public-n", "as-written"),
        ("clamped", "as-written"),
        "same noise Lap(Δ/(nε)) with public n, without vs with clamping",
    ),
    "clamping alone, add-remove": (
        ("normalized", "corrected"),
        ("normalized-clamped", "corrected"),
        "corrected normalization without vs with clamping",
    ),
}


def build_data(
    datasets: Sequence[str], ns: Sequence[int], seed: int
) -> dict[tuple[str, int], tuple[np.ndarray, tuple[float, float]]]:
    """One fixed dataset per (name, n): {(name, n): (values, bounds)}."""
    seed = check_int(seed, "seed", minimum=0)
    out = {}
    for i, (name, n) in enumerate((d, n) for d in datasets for n in ns):
        out[(name, int(n))] = dataset(name, int(n), make_rng(np.random.SeedSequence([seed, 1, i])))
    return out


def _label(method: str, variant: str) -> str:
    return f"{method}/{variant}"


def _error_cell(
    dataset: str, n: int, estimator: str, epsilon: float, *, reps: int, rng, data
) -> pd.DataFrame:
    x, bounds = data[(dataset, n)]
    method, variant = estimator.split("/")
    func, kwargs = SWEEP_METHODS[(method, variant)]
    est = np.asarray(func(x, epsilon, bounds, rng, size=reps, **kwargs))
    return pd.DataFrame({"rep": np.arange(reps), "error": est - x.mean()})


def error_sweep(
    data: dict[tuple[str, int], tuple[np.ndarray, tuple[float, float]]],
    epsilons: Sequence[float],
    reps: int,
    seed: int,
    *,
    methods: Sequence[tuple[str, str]] | None = None,
    n_jobs: int = 1,
) -> pd.DataFrame:
    """MAE, RMSE (and MSE with its standard error) of every method on every dataset, n and ε.

    Columns: dataset, method, variant, n, epsilon, reps, mae, rmse, mse, mse_se.
    """
    methods = list(methods or SWEEP_METHODS)
    for m in methods:
        if tuple(m) not in SWEEP_METHODS:
            raise ValueError(f"methods must be keys of SWEEP_METHODS, got {m!r}")
    names = list(dict.fromkeys(k[0] for k in data))
    ns = list(dict.fromkeys(k[1] for k in data))
    grid = {
        "dataset": names,
        "n": ns,
        "estimator": [_label(*m) for m in methods],
        "epsilon": list(epsilons),
    }
    cell = functools.partial(_error_cell, data=data)
    runs = sweep(cell, grid, reps, seed, n_jobs=n_jobs, vectorized=True, desc=chapter_id(__name__))
    metrics = {
        "mae": lambda e: float(np.mean(np.abs(e))),
        "rmse": lambda e: float(np.sqrt(np.mean(np.square(e)))),
        "mse": lambda e: float(np.mean(np.square(e))),
        "mse_se": lambda e: float(np.std(np.square(e), ddof=1) / np.sqrt(max(len(e), 1))),
    }
    out = summarize(runs, ["dataset", "estimator", "n", "epsilon"], metrics)
    split = out["estimator"].str.split("/", expand=True)
    out.insert(1, "method", split[0])
    out.insert(2, "variant", split[1])
    return out.drop(columns="estimator")


def closed_form_table(errors: pd.DataFrame, data: dict) -> pd.DataFrame:
    """Measured vs closed-form MAE and RMSE per row of :func:`error_sweep`, with z = (MSE − MSE_cf)/se."""
    rows = []
    for r in errors.itertuples(index=False):
        x, bounds = data[(r.dataset, r.n)]
        mae, mse, kind = closed_form_error(
            r.method, r.variant, float(x.mean()), int(r.n), r.epsilon, bounds
        )
        if kind == "none":
            continue
        rows.append(
            {
                "dataset": r.dataset,
                "method": r.method,
                "variant": r.variant,
                "n": r.n,
                "epsilon": r.epsilon,
                "kind": kind,
                "mae": r.mae,
                "mae_closed": mae,
                "rmse": r.rmse,
                "rmse_closed": float(np.sqrt(mse)),
                "rmse_ratio": r.rmse / float(np.sqrt(mse)),
                "z_mse": (r.mse - mse) / r.mse_se if r.mse_se > 0 else float("nan"),
            }
        )
    return pd.DataFrame(rows)


def conclusion_table(errors: pd.DataFrame, data: dict | None = None) -> pd.DataFrame:
    """RMSE ratio numerator/denominator for every comparison of :data:`COMPARISONS` (> 1: denominator wins).

    ``rmse_ratio_se``: delta-method standard error from the two cells' MSE standard errors (independent streams).
    With ``data``, ``predicted`` is the ratio of closed-form RMSEs (NaN where a side has none) and
    ``z = (rmse_ratio − predicted)/rmse_ratio_se``.
    """
    idx = ["dataset", "n", "epsilon"]
    table = errors.set_index([*idx, "method", "variant"])
    frames = []
    for name, (num, den, _) in COMPARISONS.items():
        a = table.xs(num, level=("method", "variant"))
        b = table.xs(den, level=("method", "variant"))
        ratio = (a["rmse"] / b["rmse"]).rename("rmse_ratio").to_frame()
        rel = np.sqrt((a["mse_se"] / (2 * a["mse"])) ** 2 + (b["mse_se"] / (2 * b["mse"])) ** 2)
        ratio["rmse_ratio_se"] = ratio["rmse_ratio"] * rel
        ratio = ratio.reset_index()
        if data is not None:
            pred = []
            for r in ratio.itertuples(index=False):
                x, bounds = data[(r.dataset, r.n)]
                mu = float(x.mean())
                m1 = closed_form_error(*num, mu, int(r.n), r.epsilon, bounds)[1]
                m2 = closed_form_error(*den, mu, int(r.n), r.epsilon, bounds)[1]
                pred.append(float(np.sqrt(m1 / m2)))
            ratio["predicted"] = pred
            ratio["z"] = (ratio["rmse_ratio"] - ratio["predicted"]) / ratio["rmse_ratio_se"]
        ratio.insert(0, "comparison", name)
        frames.append(ratio)
    return pd.concat(frames, ignore_index=True)
