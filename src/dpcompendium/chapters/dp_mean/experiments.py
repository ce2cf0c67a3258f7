"""The chapter's Monte-Carlo experiments: error sweeps, closed-form comparison, the source's conclusion.

Each (dataset, n) gets one fixed dataset (seeded from ``SeedSequence([seed, 1, i])``); repetitions vary only the
mechanism's noise and come from :func:`dpcompendium.core.experiments.sweep` in vectorized mode (one call per cell with
``size=reps``), so tables are byte-identical for a seed whatever ``n_jobs``.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pandas as pd

from ...core.experiments import summarize, sweep
from ...core.messages import Md, message
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
from .modern import (
    BOUNDS_SHARE,
    COINPRESS_SHARES,
    GAUSSIAN_DELTA,
    MEAN_OFFSET_GUESS,
    SCALE_GUESS,
    WIDE_BOUNDS,
    noisy_average_centred,
    noisy_average_coinpress,
    noisy_average_gaussian,
    noisy_average_private_bounds,
    optimal_count_share,
)

__all__ = [
    "COINPRESS_SENSITIVITY",
    "COMPARISONS",
    "SWEEP_METHODS",
    "VARIANTS_SWEPT",
    "budget_split",
    "build_data",
    "check_sentence",
    "closed_form_table",
    "coinpress_schedule",
    "coinpress_sensitivity",
    "conclusion_table",
    "error_sweep",
    "rmse_ratio",
    "squared_errors",
    "testable",
    "variant_label",
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

SWEEP_METHODS.update(
    {
        # replace-one, public n: today's alternatives to method 3
        ("gaussian", "analytic"): (noisy_average_gaussian, {"_delta": GAUSSIAN_DELTA}),
        ("private-bounds", "quantiles"): (noisy_average_private_bounds, {"_domain": "wide"}),
        # an instance-adaptive mean with a private range (zCDP, same delta as the Gaussian mean)
        ("coinpress", "zcdp"): (
            noisy_average_coinpress,
            {"_delta": GAUSSIAN_DELTA, "_domain": "wide", "_scale": True},
        ),
        # add-remove: method 4 calibrated to Δ/2 with the budget split optimised for a declared |μ − m|
        ("centred", "split-opt"): (noisy_average_centred, {"_split": "optimal", "clamp": False}),
        ("centred-clamped", "split-opt"): (noisy_average_centred, {"_split": "optimal"}),
        # method 4 calibrated directly under replace-one: the count costs nothing, the centred sum takes all of ε
        ("centred-clamped", "replace-one"): (noisy_average_centred, {"calibration": "replace-one"}),
    }
)


def budget_split(method: str, variant: str, dataset: str, bounds) -> str:
    """How the row's method splits its ε (the ``split`` column of :func:`conclusion_table`)."""
    if method == "private-bounds":
        return f"{BOUNDS_SHARE / 2:.2g} + {BOUNDS_SHARE / 2:.2g} quantiles, {1 - BOUNDS_SHARE:.2g} mean"
    if method == "coinpress":
        return " + ".join(f"{v:.3g}" for v in COINPRESS_SHARES[:-1]) + (
            f" range steps, {COINPRESS_SHARES[-1]:.3g} mean (of rho)"
        )
    if method in ("composition", "normalized"):
        return "sum 0.5, count 0.5"
    if method.startswith("centred") and variant == "replace-one":
        return "sum 1, count 0 (n public)"
    if method.startswith("centred"):
        c = optimal_count_share(bounds, MEAN_OFFSET_GUESS[dataset])
        return f"sum {1 - c:.2f}, count {c:.2f}"
    return "all on one release"


#: name → (numerator (method, variant), denominator (method, variant), the one neighbour relation both sides
#: are private under at the same ε, what the RMSE ratio measures).
COMPARISONS: dict[str, tuple[tuple[str, str], tuple[str, str], str, str]] = {
    "add-remove: as written vs own calibration": (
        ("normalized", "as-written"),
        ("centred", "split-opt"),
        "add-remove",
        "method 4 as written (Lap(2Δ/ε), ε/2 + ε/2, spends ¾ε) vs calibrated to Δ/2 with the optimised split",
    ),
    "add-remove: even vs optimised split": (
        ("normalized", "corrected"),
        ("centred", "split-opt"),
        "add-remove",
        "method 4 calibrated to Δ/2: ε/2 + ε/2 vs the split optimised for a declared |μ − m|",
    ),
    "replace-one: method 4 vs method 3": (
        ("centred-clamped", "replace-one"),
        ("clamped", "as-written"),
        "replace-one",
        "the source's comparison at one relation: method 4 calibrated directly under replace-one (the count costs "
        "nothing, the centred sum of sensitivity Δ takes all of ε; clamped) vs method 3 at ε",
    ),
    "replace-one: clamping alone": (
        ("laplace-public-n", "as-written"),
        ("clamped", "as-written"),
        "replace-one",
        "same noise Lap(Δ/(nε)) with public n, without vs with clamping",
    ),
    "replace-one: private vs declared bounds": (
        ("private-bounds", "quantiles"),
        ("clamped", "as-written"),
        "replace-one",
        "bounds from two DP quantiles (a share of ε) vs bounds declared in advance",
    ),
    "replace-one: CoinPress vs private bounds": (
        ("coinpress", "zcdp"),
        ("private-bounds", "quantiles"),
        "replace-one",
        "two ways to find the range privately from the wide public domain: CoinPress's shrinking Gaussian steps "
        "((ε, δ) with δ = GAUSSIAN_DELTA) vs two DP quantiles (ε-DP, hence (ε, δ)-DP as well)",
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
) -> list[dict[str, int | float]]:
    x, bounds = data[(dataset, n)]
    method, variant = estimator.split("/")
    func, kwargs = SWEEP_METHODS[(method, variant)]
    kwargs = dict(kwargs)
    epsilon = epsilon * kwargs.pop("_eps_factor", 1.0)
    if kwargs.pop("_domain", None) == "wide":
        bounds = WIDE_BOUNDS[dataset]
    if kwargs.pop("_scale", False):
        kwargs["scale"] = SCALE_GUESS[dataset]
    if kwargs.pop("_split", None) == "optimal":
        kwargs["count_share"] = optimal_count_share(bounds, MEAN_OFFSET_GUESS[dataset])
    if "_delta" in kwargs:
        est = np.asarray(func(x, epsilon, kwargs.pop("_delta"), bounds, rng, size=reps, **kwargs))
    else:
        est = np.asarray(func(x, epsilon, bounds, rng, size=reps, **kwargs))
    # the sweep's records ({"rep", "error"}, Python numbers) built directly: the same values as a DataFrame's
    # to_dict("records"), without pandas boxing each of the reps x cells values (1.17 million at the defaults)
    return [{"rep": r, "error": e} for r, e in enumerate((est - x.mean()).tolist())]


def error_sweep(
    data: dict[tuple[str, int], tuple[np.ndarray, tuple[float, float]]],
    epsilons: Sequence[float],
    reps: int,
    seed: int,
    *,
    methods: Sequence[tuple[str, str]] | None = None,
    n_jobs: int = 1,
    return_runs: bool = False,
) -> pd.DataFrame | tuple[pd.DataFrame, pd.DataFrame]:
    """MAE, RMSE (and MSE with its standard error) of every method on every dataset, n and ε.

    Columns: dataset, method, variant, n, epsilon, reps, mae, rmse, mse, mse_se. With ``return_runs``, also the
    runs themselves (dataset, estimator ``method/variant``, n, epsilon, rep, error), for tests that need every
    repetition (:func:`squared_errors`).
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
    out = out.drop(columns="estimator")
    return (out, runs) if return_runs else out


def testable(squared: dict, *keys: tuple) -> bool:
    """Whether every cell ``keys`` of :func:`squared_errors`'s ``squared`` is there with two repetitions or more and
    squared errors that vary (a comparison of its mean squared error can be tested)."""
    return all(k in squared and squared[k].size >= 2 and np.ptp(squared[k]) > 0 for k in keys)


#: the variant ids of :data:`SWEEP_METHODS`, each with its label in the message catalogue (``dpmean.variant_<id>``):
#: a variant is labelled apart from the method names (``zcdp`` here is CoinPress's zCDP, not MWEM's)
VARIANTS_SWEPT: tuple[str, ...] = tuple(dict.fromkeys(v for _, v in SWEEP_METHODS))


def variant_label(variant: str) -> Md:
    """The label of a variant id of :data:`SWEEP_METHODS` (``"zcdp"`` → "zCDP"), in every language."""
    if variant not in VARIANTS_SWEPT:
        raise ValueError(f"variant must be one of {list(VARIANTS_SWEPT)}, got {variant!r}")
    return message(f"dpmean.variant_{variant}")


def squared_errors(runs: pd.DataFrame) -> dict[tuple[str, str, str, int, float], np.ndarray]:
    """The squared errors of every cell of :func:`error_sweep`'s runs, in repetition order:
    {(dataset, method, variant, n, epsilon): array}."""
    out = {}
    for (d, est, n, e), g in runs.groupby(["dataset", "estimator", "n", "epsilon"], sort=False):
        method, variant = est.split("/")
        out[(d, method, variant, int(n), float(e))] = np.square(
            g.sort_values("rep")["error"].to_numpy()
        )
    return out


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


def rmse_ratio(
    errors: pd.DataFrame, num: tuple[str, str], den: tuple[str, str], min_n_eps: float = 0.0
) -> pd.DataFrame:
    """RMSE of ``num`` over RMSE of ``den`` ((method, variant) pairs of :func:`error_sweep`) per dataset, n and ε,
    on the cells with nε ≥ ``min_n_eps``. Columns: dataset, n, epsilon, ratio. (Use it for ratios that are not a
    comparison within one relation, e.g. the source's own.)"""
    rm = errors.set_index(["dataset", "n", "epsilon", "method", "variant"])["rmse"]
    levels = ("method", "variant")
    r = (rm.xs(tuple(num), level=levels) / rm.xs(tuple(den), level=levels)).rename("ratio")
    r = r.reset_index()
    return r[r["n"] * r["epsilon"] >= min_n_eps].reset_index(drop=True)


def conclusion_table(errors: pd.DataFrame, data: dict | None = None) -> pd.DataFrame:
    """RMSE ratio numerator/denominator for every comparison of :data:`COMPARISONS` (> 1: denominator wins), with
    the one neighbour relation of the comparison (``relation``) and each side's budget split (``split``).

    ``rmse_ratio_se``: delta-method standard error from the two cells' MSE standard errors (independent streams).
    With ``data``, ``predicted`` is the ratio of closed-form RMSEs (NaN where a side has none) and
    ``z = (rmse_ratio − predicted)/rmse_ratio_se``.
    """
    idx = ["dataset", "n", "epsilon"]
    table = errors.set_index([*idx, "method", "variant"])
    frames = []
    for name, (num, den, relation, _) in COMPARISONS.items():
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
        if data is not None:
            ratio["split"] = [
                f"{budget_split(*num, r.dataset, data[(r.dataset, r.n)][1])} / "
                f"{budget_split(*den, r.dataset, data[(r.dataset, r.n)][1])}"
                for r in ratio.itertuples(index=False)
            ]
        ratio.insert(0, "relation", relation)
        ratio.insert(0, "comparison", name)
        frames.append(ratio)
    return pd.concat(frames, ignore_index=True)


#: the configurations :func:`coinpress_sensitivity` tries (referee 6, m14): the declared guess σ₀ times each factor,
#: and each number of steps (range steps, then the mean), declared before the run
COINPRESS_SENSITIVITY: dict[str, tuple[float, ...]] = {
    "scale_factors": (0.1, 1.0, 10.0),
    "steps": (2, 3, 5),
}


def coinpress_schedule(steps: int) -> tuple[float, ...]:
    """CoinPress's shares of ρ over ``steps`` steps (≥ 2): the range steps share the first quarter equally and the
    mean takes three quarters — the chapter's :data:`~dpcompendium.chapters.dp_mean.COINPRESS_SHARES` at 3 steps."""
    steps = check_int(steps, "steps", minimum=2)
    mean_share = COINPRESS_SHARES[-1]
    return (*([(1.0 - mean_share) / (steps - 1)] * (steps - 1)), mean_share)


def coinpress_sensitivity(
    name: str,
    n: int,
    epsilon: float,
    reps: int,
    seed: int,
    *,
    scale_factors: Sequence[float] = COINPRESS_SENSITIVITY["scale_factors"],
    steps: Sequence[int] = COINPRESS_SENSITIVITY["steps"],
) -> pd.DataFrame:
    """How CoinPress's error at one cell depends on its configuration (referee 6, m14): on one sample of ``n``
    records of dataset ``name`` (its own stream), the RMSE over ``reps`` runs of CoinPress at (``epsilon``,
    :data:`~dpcompendium.chapters.dp_mean.GAUSSIAN_DELTA`) from the wide public domain, for σ₀ =
    :data:`~dpcompendium.chapters.dp_mean.SCALE_GUESS` times each of ``scale_factors`` and each number of
    ``steps`` (:func:`coinpress_schedule`), beside the private-quantile mean's RMSE on the same sample. Every
    configuration has the same guarantee (the scale and the schedule set the accuracy only) and its own random
    stream. Columns: scale_factor, scale, steps, rmse, rmse_ratio (to the chapter's configuration: factor 1,
    :data:`~dpcompendium.chapters.dp_mean.COINPRESS_SHARES`' steps), quantile_rmse, quantile_ratio (CoinPress's
    RMSE over the private-quantile mean's)."""
    reps = check_int(reps, "reps", minimum=1)  # an RMSE over one run is a reader's edge: it runs
    seed = check_int(seed, "seed", minimum=0)
    eps = float(epsilon)
    if not (math.isfinite(eps) and eps > 0):
        raise ValueError(f"epsilon must be a finite number > 0, got {epsilon!r}")
    factors = [float(f) for f in scale_factors]
    if not factors or any(not (math.isfinite(f) and f > 0) for f in factors):
        raise ValueError(f"scale_factors must be finite numbers > 0, got {scale_factors!r}")
    steps = [check_int(t, "steps", minimum=2) for t in steps]
    if name not in SCALE_GUESS:
        raise ValueError(f"name must be one of {sorted(SCALE_GUESS)}, got {name!r}")
    data_ss, quantile_ss, *config_ss = np.random.SeedSequence([seed, 14]).spawn(
        2 + len(factors) * len(steps)
    )
    x, _ = dataset(name, n, make_rng(data_ss))
    wide = WIDE_BOUNDS[name]
    truth = float(x.mean())

    def rmse(est: np.ndarray) -> float:
        return float(np.sqrt(np.mean((np.asarray(est) - truth) ** 2)))

    q_rmse = rmse(noisy_average_private_bounds(x, eps, wide, make_rng(quantile_ss), size=reps))
    rows = []
    for i, (f, t) in enumerate((f, t) for f in factors for t in steps):
        est = noisy_average_coinpress(
            x,
            eps,
            GAUSSIAN_DELTA,
            wide,
            make_rng(config_ss[i]),
            size=reps,
            scale=f * SCALE_GUESS[name],
            shares=coinpress_schedule(t),
        )
        rows.append(
            {"scale_factor": f, "scale": f * SCALE_GUESS[name], "steps": t, "rmse": rmse(est)}
        )
    table = pd.DataFrame(rows)
    base = table[(table["scale_factor"] == 1.0) & (table["steps"] == len(COINPRESS_SHARES))]
    ref = float(base["rmse"].iloc[0]) if len(base) else math.nan
    table["rmse_ratio"] = table["rmse"] / ref
    table["quantile_rmse"] = q_rmse
    table["quantile_ratio"] = table["rmse"] / q_rmse
    return table


def check_sentence(separated: int, cells: int, sentence: Any) -> Md:
    """The sweep's check of a difference the proposition rules out: ``separated`` of ``cells`` settings
    separate the two forms (each then a false rejection; one said in the singular, native review 8, S11), followed by
    the setting-by-setting ``sentence``; :func:`dpcompendium.core.messages.message` ``dpmean.no_large_cells`` when
    there is no cell."""
    if cells == 0:
        return message("dpmean.no_large_cells")
    if separated == 0:
        return message("dpmean.check_consistent", sentence=sentence)
    key = "dpmean.check_false_one" if separated == 1 else "dpmean.check_false"
    return message(key, k=str(separated), n=str(cells), sentence=sentence)
