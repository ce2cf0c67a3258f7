"""MST (``mckenna2021winning``, the NIST 2018 winner) on two attributes, with Private-PGM's estimate
(``mckenna2019graphical``) solved on its one clique (:func:`fit_two_way`; the authors' library ``mbi`` solves the same
problem by mirror descent, and ``tests/test_mwem_mst.py`` checks the two against each other).

MST spends a budget ρ (zCDP) in three equal parts: (1) every one-way marginal with Gaussian noise (the d of them share
ρ/3: each has σ₁ = Δ₂·√(3d/(2ρ))); (2) the selection of a maximum spanning tree of the attribute graph, d − 1
exponential-mechanism draws sharing ρ/3; (3) the two-way marginal of every edge of the tree (d − 1 of them sharing ρ/3:
σ₂ = Δ₂·√(3(d − 1)/(2ρ))); then the estimate of the distribution from all measurements. Before (2) the authors' code
*compresses the domain*: the values of an attribute whose noisy one-way count is below 3σ₁ are merged into one value
(their measurement re-expressed as the sum over the merged values, scaled to noise σ₁), and the merged value's mass
is spread back uniformly over the values it holds.

**On two attributes** the graph has one edge, so the spanning tree is that edge whatever the data: the selection is
a draw from one candidate, data-independent, and costs nothing, while MST as published still reserves ρ/3 for it.
MST then reduces to: both one-way marginals at σ₁ = Δ₂·√(3/ρ), domain compression, the full two-way marginal of the
compressed domain at σ₂ = Δ₂·√(3/(2ρ)), and the least-squares fit of a non-negative histogram with total n to these
three measurements (Private-PGM's objective on one clique: :func:`fit_two_way`, a fixed number of projected-gradient
steps, not mbi's mirror descent, whose JAX program would be compiled again for every compressed shape), spread back
over the merged values. It spends
2ρ/3 of its ρ: ρ-zCDP (a fortiori), non-adaptive except for the compression, which reads only noisy one-way counts
(post-processing). Neighbours as AIM's (:data:`.pgm.NEIGHBOURS`): replace-one with public n (Δ₂ = √2, n the
estimate's total) or add-remove (Δ₂ = 1). The estimated histogram is rounded to :data:`.pgm.GRID` of a count
(CPU-independent digits, as AIM's).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

from ...core.experiments import RangeQueries
from ...core.messages import tex
from ...core.privacy import PrivacyClaim
from ...core.validation import check_array, check_delta, check_epsilon, check_int, check_rng
from .core import PUBLIC_DOMAIN, _text
from .pgm import GRID, NEIGHBOURS, budget_runs
from .zcdp import dp_epsilon, rho_for

__all__ = [
    "MST_NAME",
    "MSTResult",
    "fit_two_way",
    "measure_marginals",
    "mst",
    "mst_claim",
    "mst_runs",
    "mst_sigmas",
]

#: The method's name in the chapter's tables (its registration's id is ``"mst"``).
MST_NAME = "MST"


@dataclass
class MSTResult:
    """One MST run: the estimated histogram (``estimate``, the data's shape), the values kept per attribute by the
    compression (``kept``: boolean masks), the noise standard deviations of the one-way and two-way measurements
    (``sigmas``), and the zCDP the measurements spent (``rho_spent``, 2ρ/3: the selection's third is reserved)."""

    estimate: np.ndarray
    kept: tuple[np.ndarray, ...]
    sigmas: tuple[float, float]
    rho_spent: float


def mst_sigmas(rho: float, neighbours: str = "replace-one") -> tuple[float, float]:
    """MST's noise standard deviations on two attributes at ρ: (σ₁, σ₂) = (Δ₂√(3/ρ), Δ₂√(3/(2ρ))) — the two one-way
    marginals ρ/6 each, the two-way marginal ρ/3."""
    rho = check_epsilon(rho, "rho")
    if neighbours not in NEIGHBOURS:
        raise ValueError(f"neighbours must be one of {'|'.join(NEIGHBOURS)}, got {neighbours!r}")
    l2 = NEIGHBOURS[neighbours][0]
    return l2 * math.sqrt(3.0 / rho), l2 * math.sqrt(3.0 / (2.0 * rho))


def _project_simplex(v: np.ndarray, total: float) -> np.ndarray:
    """The Euclidean projection of ``v`` onto {x ≥ 0, Σx = total} (sort-based, Duchi et al. 2008)."""
    u = np.sort(v)[::-1]
    css = np.cumsum(u) - total
    k = np.arange(1, v.size + 1)
    r = int(np.nonzero(u - css / k > 0)[0][-1])
    return np.maximum(v - css[r] / (r + 1), 0.0)


def fit_two_way(
    y1: Sequence[np.ndarray],
    merged: Sequence[int],
    sd1: float,
    y2: np.ndarray,
    sd2: float,
    total: float,
    iters: int = 2000,
) -> np.ndarray:
    """Private-PGM's estimate on one clique (both attributes): the histogram x ≥ 0 with Σx = ``total`` that minimises
    Σ_a ‖M_a x − y1_a‖²/sd1² + ‖x − y2‖²/sd2², M_a the compressed one-way marginal of axis a (its last entry, when
    ``merged[a]`` = k > 0 values were merged, scaled by 1/√k as the measurement is), by ``iters`` projected-gradient
    steps of size 1/L (L = 1/sd2² + (c₀ + c₁)/sd1² bounds the Hessian; the 2-way term makes the loss
    1/sd2²-strongly convex, so the error contracts by at least 1 − (1/sd2²)/L per step): as many steps as shrink
    the initial distance by 10⁻¹², at most ``iters``. A fixed-iteration IEEE
    scheme; mbi's mirror descent solves the same problem (``tests/test_mwem_mst.py`` checks one against the other)."""
    shape = y2.shape
    w = []
    for a, k in enumerate(merged):
        wa = np.ones(shape[a])
        if k:
            wa[-1] = 1.0 / math.sqrt(k)
        w.append(wa)
    lip = 1.0 / sd2**2 + (shape[0] + shape[1]) / sd1**2
    # the steps that shrink the initial distance by 1e-12 (the contraction 1 − μ/L, μ = 1/sd2²), at most ``iters``:
    # a step count fixed by the compressed shape and the noise, not by a stopping test
    steps = min(iters, math.ceil(math.log(1e-12) / math.log1p(-1.0 / (sd2**2 * lip))))
    x = _project_simplex(y2.ravel().copy(), total).reshape(shape)
    for _ in range(steps):
        r0 = (x.sum(axis=1) * w[0] - y1[0]) * w[0] / sd1**2
        r1 = (x.sum(axis=0) * w[1] - y1[1]) * w[1] / sd1**2
        g = (x - y2) / sd2**2 + r0[:, None] + r1[None, :]
        x = _project_simplex((x - g / lip).ravel(), total).reshape(shape)
    return x


def measure_marginals(
    h: np.ndarray,
    cliques: Sequence[tuple[int, ...]],
    sd: float,
    rng: np.random.Generator,
    size: int | None = None,
) -> list[np.ndarray]:
    """MST's Gaussian measurements: each marginal of ``cliques`` of the 2-D histogram ``h`` (flattened) plus
    N(0, sd²) per cell, in order (the draws :func:`mst` makes; ``size``: that many independent draws, shape
    (``size``, cells), for an audit)."""
    lead = () if size is None else (check_int(size, "size", minimum=1),)
    out = []
    for c in cliques:
        m = h.ravel() if len(c) == 2 else h.sum(axis=1 - c[0])
        out.append(m + rng.normal(0.0, sd, (*lead, m.size)))
    return out


def _compress(y: np.ndarray, sd: float) -> tuple[np.ndarray, np.ndarray, int]:
    """The authors' ``compress_domain`` for one attribute: keep values with y ≥ 3 sd; the others become one value
    measured by their sum / √k. Returns (kept mask, the compressed measurement, k: values merged, 0 if none)."""
    keep = y >= 3.0 * sd
    k = int((~keep).sum())
    if k == 0:
        return keep, y.copy(), 0
    return keep, np.append(y[keep], y[~keep].sum() / math.sqrt(k)), k


def _compress_hist(h: np.ndarray, kept: Sequence[np.ndarray]) -> np.ndarray:
    """The histogram on the compressed domain: kept values first (in order), the merged value last."""
    out = h
    for a, keep in enumerate(kept):
        parts = [np.compress(keep, out, axis=a)]
        if not keep.all():
            parts.append(np.compress(~keep, out, axis=a).sum(axis=a, keepdims=True))
        out = np.concatenate(parts, axis=a)
    return out


def _expand(p: np.ndarray, kept: Sequence[np.ndarray]) -> np.ndarray:
    """The compressed estimate spread back: a merged value's mass uniformly over the values it holds."""
    out = p
    for a, keep in enumerate(kept):
        k = int((~keep).sum())
        idx = np.where(keep, np.cumsum(keep) - 1, int(keep.sum()))
        out = np.take(out, idx, axis=a)
        if k:
            scale = np.where(keep, 1.0, 1.0 / k)
            out = out * scale.reshape([-1 if i == a else 1 for i in range(out.ndim)])
    return out


def mst(
    hist: ArrayLike,
    rho: float,
    rng: np.random.Generator,
    *,
    neighbours: str = "replace-one",
    iters: int = 2000,
) -> MSTResult:
    """MST on a histogram ``hist`` of two attributes at ρ-zCDP (``mckenna2021winning``; what it reduces to there:
    the module). ``iters``: mirror-descent iterations of the estimate. Privacy: :func:`mst_claim`."""
    h = check_array(hist, "hist", ndim=2)
    if np.any(h < 0):
        raise ValueError("hist must be non-negative, got a negative count")
    rho = check_epsilon(rho, "rho")
    rng = check_rng(rng)
    iters = check_int(iters, "iters", minimum=1)
    sd1, sd2 = mst_sigmas(rho, neighbours)
    # (1) the one-way marginals, then the compression (it reads only these noisy counts)
    ys = measure_marginals(h, [(0,), (1,)], sd1, rng)
    comp = [_compress(y, sd1) for y in ys]
    kept = tuple(c[0] for c in comp)
    # (2) the spanning tree: the one edge (0, 1), whatever the data (ρ/3 reserved, nothing drawn)
    # (3) the two-way marginal of the compressed domain
    hc = _compress_hist(h, kept)
    (y2,) = measure_marginals(hc, [(0, 1)], sd2, rng)
    if neighbours == "replace-one":
        total = float(h.sum())
    else:  # the minimum-variance total of the three measurements (mbi's rule), at least 1
        sums = [ys[0].sum(), ys[1].sum(), y2.sum()]
        var = [h.shape[0] * sd1**2, h.shape[1] * sd1**2, hc.size * sd2**2]
        total = max(1.0, float(np.average(sums, weights=1.0 / np.asarray(var))))
    p = fit_two_way(
        [c[1] for c in comp], [c[2] for c in comp], sd1, y2.reshape(hc.shape), sd2, total, iters
    )
    est = np.round(_expand(p, kept) / GRID) * GRID
    return MSTResult(est, kept, (sd1, sd2), 2.0 * rho / 3.0)


def mst_claim(epsilon: float, delta: float, *, neighbours: str = "replace-one") -> PrivacyClaim:
    """MST's privacy statement on two attributes at the budget of the chapter's zCDP MWEM: ρ = ``rho_for`` (ε, δ),
    of which the measurements spend 2ρ/3 (:func:`mst_sigmas`), stated as (ε, δ)-DP by the conversion of
    ``bun2016concentrated`` at the ρ reserved (as :func:`~.pgm.aim_claim`). The estimate is post-processing."""
    e, dl = check_epsilon(epsilon), check_delta(delta)
    if neighbours not in NEIGHBOURS:
        raise ValueError(f"neighbours must be one of {'|'.join(NEIGHBOURS)}, got {neighbours!r}")
    rho = rho_for(e, dl)
    sd1, sd2 = mst_sigmas(rho, neighbours)
    return PrivacyClaim(
        "MST (Private-PGM estimate)",
        neighbours,
        _text("claims.mwem.mst_sens", l2=tex(f"{NEIGHBOURS[neighbours][0]:.4g}")),
        dp_epsilon(rho, dl),
        dl,
        conditions=(
            _text(
                "claims.mwem.mst_cond_zcdp",
                rho=tex(f"{rho:.4g}"),
                s1=tex(f"{sd1:.4g}"),
                s2=tex(f"{sd2:.4g}"),
            ),
            PUBLIC_DOMAIN,
            *((_text("claims.mwem.aim_cond_public_n"),) if neighbours == "replace-one" else ()),
        ),
    )


def mst_runs(
    hist: ArrayLike,
    queries: RangeQueries,
    epsilons: Sequence[float],
    delta: float,
    *,
    reps: int,
    seed: int | np.random.SeedSequence,
    neighbours: str = "replace-one",
    iters: int = 2000,
) -> pd.DataFrame:
    """MST at every ε (ρ = ``rho_for`` (ε, δ)), ``reps`` repetitions each: one row per (epsilon, rep) with ``method``
    = :data:`MST_NAME` and the workload errors of its estimate (:func:`~.core.workload_errors`). Repetition r at the
    k-th ε draws from child r of child k of ``SeedSequence(seed)`` (:func:`~.pgm.budget_runs`)."""
    return budget_runs(
        hist,
        queries,
        epsilons,
        delta,
        reps=reps,
        seed=seed,
        name=MST_NAME,
        run=lambda h, rho, rng: mst(h, rho, rng, neighbours=neighbours, iters=iters),
        ndim=2,
    )
