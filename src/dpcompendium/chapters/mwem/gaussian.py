"""The data-independent baselines at AIM's budget: Gaussian Identity and Gaussian least squares, accounted in zCDP
(``bun2016concentrated``) at the ρ that :func:`~dpcompendium.chapters.mwem.pgm.aim` spends, under the same relation.

AIM's release is a sequence of Gaussian measurements of marginals; on this chapter's domains (one or two attributes)
its workload is the full marginal, so in 1-D its only candidate is the full histogram and it is repeated Gaussian
Identity plus a projection (referee 12, §3). The baseline it must beat at the same guarantee is therefore the Gaussian
mechanism spent once, on every cell (Identity) or on every workload query followed by least squares:

- **Gaussian Identity**: x̂ = x + N(0, Δ₂²/(2ρ)) per cell, Δ₂ = √2 (replace-one: one record leaves a cell and enters
  another) or 1 (add-remove); Δ₂²/(2σ²) = ρ-zCDP;
- **Gaussian Identity with the non-negative fit** (referee 14, M1; :func:`gaussian_identity` with ``fit=True``): its
  release projected onto {x ≥ 0, Σx = n} (Euclidean; MST's projection, :func:`project_simplex`), n public
  under replace-one (the noisy total, at least 1, under add-remove): MST's fit without its marginals and compression,
  post-processing of Identity's release, so the same ρ-zCDP;
- **Gaussian least squares**: y = Ax + N(0, σ²)^m over the workload's m queries, σ = Δ₂(A)/√(2ρ), x̂ = A⁺y (the
  core's :func:`~dpcompendium.core.mechanisms.ranges.least_squares_estimate`); Δ₂(A)² = max over cell pairs of
  ‖A(e_j − e_k)‖² ≤ c_j + c_k ≤ 2·max_j c_j under replace-one (c_j: the queries covering cell j), max_j c_j under
  add-remove. ρ-zCDP.

Both are stated as (ε, δ)-DP by the conversion AIM's claim uses (:func:`~dpcompendium.chapters.mwem.zcdp.dp_epsilon`),
so a :class:`~dpcompendium.core.comparison.Comparison` with AIM compares one guarantee.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

from ...core.experiments import RangeQueries
from ...core.mechanisms.ranges import (
    finish_releases,
    least_squares_estimate,
    least_squares_sensitivity,
    prepare_histogram,
)
from ...core.messages import Md, tex
from ...core.privacy import PrivacyClaim
from ...core.rng import child_seeds
from ...core.validation import check_delta, check_epsilon
from .core import PUBLIC_DOMAIN, _text, budget_runner
from .zcdp import dp_epsilon, rho_for

__all__ = [
    "DEFAULT_METHODS",
    "GAUSSIAN_METHODS",
    "gaussian_claim",
    "gaussian_identity",
    "gaussian_least_squares",
    "gaussian_runs",
    "gaussian_sensitivity",
    "project_simplex",
]

#: The methods of this module: their id in the method registry (the ``method`` column of the chapter's tables, which
#: shows the registered name in each language) → their English name.
GAUSSIAN_METHODS = {
    "gaussian-identity": "Gaussian Identity",
    "gaussian-ls": "Gaussian least squares",
    "gaussian-identity-fit": "Gaussian Identity, non-negative fit",
}
#: The methods :func:`gaussian_runs` runs by default (the fit arm is asked for by name: with the seed of a
#: Gaussian Identity run and alone in ``methods``, it projects that run's very releases).
DEFAULT_METHODS = ("gaussian-identity", "gaussian-ls")


def _l2(neighbours: str) -> float:
    if neighbours not in ("replace-one", "add-remove"):
        raise ValueError(f"neighbours must be one of replace-one|add-remove, got {neighbours!r}")
    return math.sqrt(2.0) if neighbours == "replace-one" else 1.0


def gaussian_sensitivity(queries: RangeQueries | None, neighbours: str = "replace-one") -> float:
    """The L2 sensitivity Δ₂ of the released vector: the histogram (``queries`` None: √2 under replace-one, 1 under
    add-remove) or the workload's answers (√(2·max_j c_j) or √(max_j c_j), c_j the queries covering cell j)."""
    base = _l2(neighbours)
    if queries is None:
        return base
    cover = least_squares_sensitivity(queries, "add-remove")  # max_j c_j
    return base * math.sqrt(cover)


def project_simplex(v: np.ndarray, total: float) -> np.ndarray:
    """The Euclidean projection of ``v`` onto {x ≥ 0, Σx = total} (sort-based, Duchi et al. 2008): the fit of
    :func:`gaussian_identity` with ``fit=True``, and each step of MST's
    (:func:`~dpcompendium.chapters.mwem.mst.fit_two_way`)."""
    u = np.sort(v)[::-1]
    css = np.cumsum(u) - total
    k = np.arange(1, v.size + 1)
    r = int(np.nonzero(u - css / k > 0)[0][-1])
    return np.maximum(v - css[r] / (r + 1), 0.0)


def gaussian_identity(
    x: ArrayLike,
    rho: float,
    rng: np.random.Generator,
    *,
    fit: bool = False,
    neighbours: str = "replace-one",
    size: int | None = None,
) -> np.ndarray:
    """x̂ = x + N(0, σ²) per cell, σ = Δ₂/√(2ρ) (Δ₂ = :func:`gaussian_sensitivity`): ρ-zCDP (``bun2016concentrated``,
    Prop. 1.6). Unbiased; a query over L cells has variance Lσ². ``size`` releases at once (shape ``(size, *x.shape)``).
    ``fit``: each release projected onto {x ≥ 0, Σx = n} (:func:`project_simplex`, the projection MST's fit uses; the
    arm ``gaussian-identity-fit``): n = Σx, public, under replace-one; under add-remove the release's own total, at
    least 1. Post-processing: the same ρ-zCDP."""
    arr, rho, rng, reps = prepare_histogram(x, check_epsilon(rho, "rho"), rng, size)
    sigma = gaussian_sensitivity(None, neighbours) / math.sqrt(2.0 * rho)
    rel = arr + rng.normal(0.0, sigma, size=(reps, *arr.shape))
    if fit:
        n = float(arr.sum())
        rel = np.stack(
            [
                project_simplex(r, n if neighbours == "replace-one" else max(1.0, float(r.sum())))
                for r in rel.reshape(reps, -1)
            ]
        ).reshape(rel.shape)
    return finish_releases(rel, size)


def gaussian_least_squares(
    x: ArrayLike,
    rho: float,
    rng: np.random.Generator,
    *,
    queries: RangeQueries,
    neighbours: str = "replace-one",
    size: int | None = None,
) -> np.ndarray:
    """Every query of ``queries`` plus N(0, σ²), σ = Δ₂(A)/√(2ρ) (:func:`gaussian_sensitivity`), then the
    least-squares histogram x̂ = A⁺y: ρ-zCDP (the estimate is post-processing)."""
    arr, rho, rng, reps = prepare_histogram(x, check_epsilon(rho, "rho"), rng, size)
    if not isinstance(queries, RangeQueries) or queries.shape != arr.shape:
        raise ValueError(f"queries must be a RangeQueries on shape {arr.shape}, got {queries!r}")
    sigma = gaussian_sensitivity(queries, neighbours) / math.sqrt(2.0 * rho)
    y = queries.answer(arr) + rng.normal(0.0, sigma, size=(reps, queries.m))
    return finish_releases(least_squares_estimate(queries, y), size)


def gaussian_claim(
    epsilon: float,
    delta: float,
    method: str = "gaussian-identity",
    *,
    neighbours: str = "replace-one",
    queries: RangeQueries | None = None,
) -> PrivacyClaim:
    """The guarantee of ``method`` (an id of :data:`GAUSSIAN_METHODS`) at AIM's budget: ρ = ``rho_for`` (ε, δ),
    spent once, stated as (ε, δ)-DP by the conversion of ``bun2016concentrated`` (as :func:`~.pgm.aim_claim`).
    ``queries``: the workload least squares measures (its sensitivity is stated when given)."""
    e, dl = check_epsilon(epsilon), check_delta(delta)
    if method not in GAUSSIAN_METHODS:
        raise ValueError(f"method must be one of {'|'.join(GAUSSIAN_METHODS)}, got {method!r}")
    rho = rho_for(e, dl)
    if method in ("gaussian-identity", "gaussian-identity-fit"):
        sens = _text("claims.mwem.gauss_sens_identity", l2=tex(f"{_l2(neighbours):.4g}"))
    else:
        l2 = None if queries is None else gaussian_sensitivity(queries, neighbours)
        sens = _text(
            "claims.mwem.gauss_sens_ls",
            l2=Md("√(2 max_j c_j)", "\\sqrt{2 \\max_j c_j}") if l2 is None else tex(f"{l2:.4g}"),
        )
    return PrivacyClaim(
        _text(f"claims.mwem.mech_{method}"),
        neighbours,
        sens,
        dp_epsilon(rho, dl),
        dl,
        conditions=(
            _text(
                "claims.mwem.gauss_fit_cond_zcdp"
                if method == "gaussian-identity-fit"
                else "claims.mwem.gauss_cond_zcdp",
                rho=tex(f"{rho:.4g}"),
            ),
            PUBLIC_DOMAIN,
            *(
                (_text("claims.mwem.aim_cond_public_n"),)
                if method == "gaussian-identity-fit" and neighbours == "replace-one"
                else ()
            ),
        ),
    )


def gaussian_runs(
    hist: ArrayLike,
    queries: RangeQueries,
    epsilons: Sequence[float],
    delta: float,
    *,
    reps: int,
    seed: int | np.random.SeedSequence,
    methods: Sequence[str] = DEFAULT_METHODS,
    neighbours: str = "replace-one",
) -> pd.DataFrame:
    """Each method of ``methods`` (ids of :data:`GAUSSIAN_METHODS`) at every ε (ρ = ``rho_for`` (ε, δ)), ``reps``
    releases each (vectorized): one row per (method, epsilon, rep) with the workload errors of the release
    (:func:`~dpcompendium.chapters.mwem.core.workload_errors`). Method k at the i-th ε draws from child i of child k
    of ``SeedSequence(seed)`` (its :func:`~dpcompendium.chapters.mwem.core.budget_runner` at child k)."""
    for m in methods:
        if m not in GAUSSIAN_METHODS:
            raise ValueError(f"methods must be among {'|'.join(GAUSSIAN_METHODS)}, got {m!r}")
    fits = {  # each arm's fit at ρ, ``size`` releases at once
        "gaussian-identity": gaussian_identity,
        "gaussian-identity-fit": functools.partial(gaussian_identity, fit=True),
        "gaussian-ls": functools.partial(gaussian_least_squares, queries=queries),
    }
    return pd.concat(
        [
            budget_runner(fits[m], name=m, batched=True, doc="")(
                hist, queries, epsilons, delta, reps=reps, seed=ss, neighbours=neighbours
            )
            for m, ss in zip(methods, child_seeds(seed, len(methods)), strict=True)
        ],
        ignore_index=True,
    )
