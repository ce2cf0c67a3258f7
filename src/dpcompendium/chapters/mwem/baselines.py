"""The non-adaptive baselines MWEM is compared with, on the same workload, from the core's range-query mechanisms
(:mod:`dpcompendium.core.mechanisms.ranges`, :mod:`dpcompendium.core.mechanisms.dawa`; ``hay2016principled``):
Identity, least squares over every workload query (the matrix mechanism's estimator with the workload itself as its
strategy), Hb and DAWA — all under replace-one neighbours, as MWEM (its A₀ = n · uniform uses the public n).

DAWA is its design-preserving private variant (:data:`DAWA_CALIBRATION`, ``"noisy-histogram"``): ε₁ buys a noisy
histogram and the least-cost partition is computed on it (post-processing). Its name in every table,
:data:`DAWA_NAME`, says so (issue 46: not the repaired variant whose partition follows the noise).

HDMM (``mckenna2018optimizing``) and PrivTree (``zhang2016privtree``) are the histograms chapter's, run through the
method registry (:data:`REGISTERED`; a chapter never imports another): both are 1-D only and calibrated under
add-remove neighbours, so they run at ε/2 here. A replacement is one removal and one addition, so by group privacy
(two steps) a release that is ε/2-DP under add-remove is ε-DP under replace-one (:func:`replace_one_claim`); for
HDMM this is also its sensitivity under replacement, ‖A(e_j − e_k)‖₁ ≤ 2Δ.
"""

from __future__ import annotations

import dataclasses

import joblib
import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

from ...core import methods as method_registry
from ...core.experiments import RangeQueries
from ...core.mechanisms.dawa import dawa, dawa_claim
from ...core.mechanisms.ranges import hb, identity, least_squares, range_claim
from ...core.messages import message
from ...core.parallel import joblib_backend
from ...core.privacy import PrivacyClaim
from ...core.rng import child_seeds, make_rng
from ...core.validation import check_array, check_epsilon, check_int
from .core import workload_errors

__all__ = [
    "ALL_BASELINES",
    "BASELINES",
    "DAWA_CALIBRATION",
    "DAWA_NAME",
    "NEIGHBOURS",
    "ONE_D_ONLY",
    "REGISTERED",
    "baseline_claim",
    "baseline_release",
    "baseline_runs",
    "epsilons_beating",
    "replace_one_claim",
]

#: The kernel of DAWA's bucket deviations in the chapter (:func:`dpcompendium.core.mechanisms.dawa.dawa_deviations`):
#: the O(n log n) merge sort, about 3× faster than the core's default on the 2-D histograms; it may pick another of
#: two partitions of equal cost (ties broken by the last ulp of the sums), with the same guarantee (issue 50).
DAWA_ENGINE = "merge"
#: The DAWA variant of the baselines (:data:`dpcompendium.core.mechanisms.dawa.DAWA_CALIBRATIONS`): the private one
#: that keeps the method's design, the partition computed on a noisy histogram bought with ε₁.
DAWA_CALIBRATION = "noisy-histogram"
#: DAWA's name in the chapter's tables and sentences, with its variant: the catalogue's name of the variant, the one
#: the histograms chapter uses (referee 20, L-4).
DAWA_NAME = str(message("hist.name_dawa_private"))
#: The baselines of the histograms chapter, by the name the chapter's tables use → their id in the method registry
#: (:mod:`dpcompendium.core.methods`): estimator and claim are the registered ones (issue 47, M-mwem).
REGISTERED = {"HDMM": "hdmm", "PrivTree": "privtree"}
#: The baselines whose implementation is 1-D only (not run on a 2-D histogram).
ONE_D_ONLY = tuple(REGISTERED)
#: The core's baselines, by the name the chapter's tables use (those run on the course's data).
BASELINES = ("Identity", "least squares", "Hb", DAWA_NAME)
#: Every baseline :func:`baseline_release` runs: the core's and the registered ones (those run on DPBench).
ALL_BASELINES = (*BASELINES, *REGISTERED)
#: The neighbour relation of every comparison in the chapter (MWEM's).
NEIGHBOURS = "replace-one"


def baseline_release(
    method: str,
    hist: np.ndarray,
    queries: RangeQueries,
    epsilon: float,
    rng: np.random.Generator,
    *,
    reps: int,
) -> np.ndarray:
    """``reps`` releases of baseline ``method`` (one of :data:`ALL_BASELINES`) at ε, replace-one: shape
    ``(reps, *hist.shape)``. Least squares measures every query of ``queries``; DAWA (:data:`DAWA_NAME`, partition on
    a noisy histogram) is workload-aware on it, and so is HDMM (its strategy optimised for ``queries``). HDMM and
    PrivTree (:data:`REGISTERED`, 1-D only) run at ε/2 of their add-remove calibration: ε-DP under replace-one."""
    if method in REGISTERED:
        if np.ndim(hist) != 1:
            raise ValueError(f"hist must be 1-D for {method}, got shape {np.shape(hist)}")
        estimator = method_registry.get(REGISTERED[method]).resolve("estimator")
        options = {"workload": queries} if method == "HDMM" else {}
        return estimator(hist, check_epsilon(epsilon) / 2, rng, size=reps, **options)
    if method == "Identity":
        return identity(hist, epsilon, rng, neighbours=NEIGHBOURS, size=reps)
    if method == "least squares":
        return least_squares(hist, epsilon, rng, queries=queries, neighbours=NEIGHBOURS, size=reps)
    if method == "Hb":
        return hb(hist, epsilon, rng, neighbours=NEIGHBOURS, size=reps)
    if method == DAWA_NAME:
        return dawa(
            hist,
            epsilon,
            rng,
            workload=queries,
            calibration=DAWA_CALIBRATION,
            neighbours=NEIGHBOURS,
            size=reps,
            engine=DAWA_ENGINE,
        )
    raise ValueError(f"method must be one of {'|'.join(ALL_BASELINES)}, got {method!r}")


def baseline_claim(method: str, epsilon: float) -> PrivacyClaim:
    """The guarantee of :func:`baseline_release` (ε-DP, replace-one), from the core's claims, or for a registered
    method (:data:`REGISTERED`) from its registered claim at ε/2 under add-remove (:func:`replace_one_claim`)."""
    names = {"Identity": "identity", "least squares": "least_squares", "Hb": "hb"}
    if method in REGISTERED:
        factory = method_registry.get(REGISTERED[method]).resolve("claim")
        return replace_one_claim(factory(REGISTERED[method], check_epsilon(epsilon) / 2))
    if method == DAWA_NAME:
        return dawa_claim(epsilon, calibration=DAWA_CALIBRATION, neighbours=NEIGHBOURS)
    if method not in names:
        raise ValueError(f"method must be one of {'|'.join(ALL_BASELINES)}, got {method!r}")
    return range_claim(names[method], epsilon, NEIGHBOURS)


def replace_one_claim(claim: PrivacyClaim) -> PrivacyClaim:
    """An ε-DP claim under add-remove neighbours as the 2ε-DP claim under replace-one it implies: a replacement is
    one removal and one addition, so group privacy over the two steps doubles ε (and, for pure DP, nothing else)."""
    if claim.neighbours != "add-remove" or claim.delta != 0:
        raise ValueError(
            f"claim must be a pure ε-DP claim under add-remove neighbours, got {claim.neighbours} with δ = {claim.delta}"
        )
    return dataclasses.replace(
        claim,
        neighbours="replace-one",
        epsilon=2 * claim.epsilon,
        conditions=(
            *claim.conditions,
            message("mwem.cond_group_two", eps=f"{claim.epsilon:g}"),
        ),
    )


def baseline_runs(
    hist: ArrayLike,
    queries: RangeQueries,
    epsilons,
    *,
    reps: int,
    seed: int | np.random.SeedSequence,
    methods=("Identity", "least squares"),
    n_jobs: int = 1,
) -> pd.DataFrame:
    """The baselines ``methods`` at every ε, ``reps`` repetitions each (vectorized over repetitions): one row per
    (method, epsilon, rep) with the workload errors (:func:`~dpcompendium.chapters.mwem.core.workload_errors`).
    Cell k of the grid methods × epsilons draws from child k of ``SeedSequence(seed)``, so the table does not
    depend on ``n_jobs`` (each method's ε split into that many contiguous chunks, one task each)."""
    eps_list = [check_epsilon(e, "epsilons") for e in epsilons]
    reps = check_int(reps, "reps", minimum=1)
    methods = list(methods)
    for m in methods:
        if m not in ALL_BASELINES:
            raise ValueError(f"methods must hold values in {'|'.join(ALL_BASELINES)}, got {m!r}")
    h = check_array(hist, "hist", ndim=None)
    seeds = child_seeds(seed, len(methods) * len(eps_list))
    cells = [(m, e, seeds[k]) for k, (m, e) in enumerate((m, e) for m in methods for e in eps_list)]
    n_jobs = check_int(n_jobs, "n_jobs", minimum=1)
    with joblib_backend(n_jobs) as n:
        n_chunks = len(eps_list) if n == -1 else min(n, len(eps_list))
        tasks = [
            joblib.delayed(_baseline_cells)(
                h, queries, [cells[i * len(eps_list) + j] for j in ch], reps
            )
            for i in range(len(methods))
            for ch in np.array_split(np.arange(len(eps_list)), n_chunks)
            if len(ch)
        ]
        frames = joblib.Parallel(n_jobs=n)(tasks)
    return pd.concat([f for part in frames for f in part], ignore_index=True)


def _baseline_cells(hist, queries, cells, reps) -> list[pd.DataFrame]:
    """The rows of the cells (method, ε, seed) of :func:`baseline_runs`, one frame per cell."""
    rows = []
    for m, e, ss in cells:
        est = baseline_release(m, hist, queries, e, make_rng(ss), reps=reps)
        errs = workload_errors(est, hist, queries)
        rows.append(pd.DataFrame({"method": m, "epsilon": e, "rep": np.arange(reps), **errs}))
    return rows


def epsilons_beating(rows: pd.DataFrame, baseline: pd.Series, data: str) -> tuple[list, list]:
    """The ε at which *every* row of ``rows`` (one per ``T`` swept, column ``mean_error``) beats the baseline's mean
    error, and those at which only *some* rows do; ``baseline`` is indexed by ``(data, epsilon)`` (e.g. Identity's
    rows of the DPBench table)."""
    worst = rows.groupby("epsilon").mean_error.max()
    best = rows.groupby("epsilon").mean_error.min()
    every = [e for e, v in worst.items() if v < baseline[(data, e)]]
    some = [e for e, v in best.items() if v < baseline[(data, e)] and e not in every]
    return every, some
