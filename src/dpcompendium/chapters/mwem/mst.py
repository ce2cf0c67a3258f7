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
three measurements (Private-PGM's objective on one clique: :func:`fit_two_way`, accelerated projected gradient on a
growing working set of cells, not mbi's mirror descent, whose JAX program would be compiled again for every
compressed shape), spread back over the merged values. ``mst(..., compress=False)`` is the same without the
compression (every value kept; the arm that separates the compression from the fit, referee 14, M1). It spends
2ρ/3 of its ρ: ρ-zCDP (a fortiori), non-adaptive except for the compression, which reads only noisy one-way counts
(post-processing). Neighbours as AIM's (:data:`.pgm.NEIGHBOURS`): replace-one with public n (Δ₂ = √2, n the
estimate's total) or add-remove (Δ₂ = 1). The estimated histogram is rounded to :data:`.pgm.GRID` of a count
(CPU-independent digits, as AIM's).

**The independence arm** (:func:`independence`, referee 15, M1): on Adult 2-D AIM's size penalty excludes the
two-way marginal, so AIM measures only the one-way marginals and releases the independence model fitted to them.
The non-adaptive arm at AIM's ρ measures both one-way marginals (ρ/2 each, σ = Δ₂/√ρ), fits each to total n and
releases their product: AIM against it says whether AIM's adaptivity adds anything beyond that model, while the arms
between Gaussian Identity and MST (:data:`PART_STEPS`) decompose MST, not AIM.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from ...core.messages import Md, message, tex
from ...core.privacy import PrivacyClaim
from ...core.validation import check_array, check_delta, check_epsilon, check_int, check_rng
from .core import PUBLIC_DOMAIN, _text, budget_runner
from .gaussian import gaussian_claim
from .gaussian import project_simplex as _project_simplex
from .pgm import GRID, NEIGHBOURS
from .zcdp import dp_epsilon, rho_for

__all__ = [
    "IND_NAME",
    "MST_NAME",
    "MST_NC_NAME",
    "PART_ARMS",
    "PART_STEPS",
    "MSTResult",
    "fit_two_way",
    "independence",
    "independence_claim",
    "independence_runs",
    "independence_sigma",
    "measure_marginals",
    "mst",
    "mst_claim",
    "mst_runs",
    "mst_sigmas",
    "part_claim",
    "parts_family",
    "parts_reading",
]

#: The method's name in the chapter's tables (its registration's id is ``"mst"``).
MST_NAME = "MST"
#: MST without the domain compression (its registration's id is ``"mst-nc"``): the same three measurements at the
#: same σ's, the fit on every cell (referee 14, M1: it separates the compression from the fit).
MST_NC_NAME = "MST, no compression"
#: The non-adaptive independence arm (its registration's id is ``"independence"``; referee 15, M1 and its comparator):
#: both one-way marginals at ρ/2 each, each fitted to total n, and their product.
IND_NAME = "Independence, one-way marginals"


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


def _fit_cells(
    rows: np.ndarray,
    cols: np.ndarray,
    y1: Sequence[np.ndarray],
    w: Sequence[np.ndarray],
    sd1: float,
    y2: np.ndarray,
    sd2: float,
    total: float,
    iters: int,
    start: np.ndarray | None = None,
) -> np.ndarray:
    """:func:`fit_two_way`'s problem with every cell but (``rows``, ``cols``) held at 0 (``y2``: their measurements):
    projected gradient with constant momentum (V-FISTA, Beck 2017, Thm 10.42) at step 1/L, L = 1/sd2² + (the most
    cells in a row + in a column)/sd1² bounding the Hessian; the 2-way term makes the loss μ = 1/sd2²-strongly
    convex, so with κ = L/μ, after one plain step from ``start`` (default: the projection of y2),
    ‖x_k − x*‖² ≤ κ(1 − 1/√κ)^k‖x₋₁ − x*‖²: it runs at most the k that shrink that distance by 10⁻¹² (and at most
    ``iters``), and stops earlier once no entry moves by more than 10⁻⁹ of a count (the estimate is rounded to
    :data:`.pgm.GRID`, so CPU-independent digits do not rest on a fixed step count: ``book/reproducibility.md``)."""
    shape = (len(w[0]), len(w[1]))
    lip = 1.0 / sd2**2 + (np.bincount(rows).max() + np.bincount(cols).max()) / sd1**2
    root = math.sqrt(lip * sd2**2)
    steps = min(
        iters, math.ceil((2.0 * math.log(1e-12) - 2.0 * math.log(root)) / math.log1p(-1.0 / root))
    )
    beta = (root - 1.0) / (root + 1.0)
    w0, w1 = w[0][rows], w[1][cols]

    def step(z: np.ndarray) -> np.ndarray:
        r0 = np.bincount(rows, z, shape[0])[rows] * w0 - y1[0][rows]
        r1 = np.bincount(cols, z, shape[1])[cols] * w1 - y1[1][cols]
        g = (z - y2) / sd2**2 + (r0 * w0 + r1 * w1) / sd1**2
        return _project_simplex(z - g / lip, total)

    x = step(_project_simplex(y2, total) if start is None else start)
    z = x
    for _ in range(steps):
        x_new = step(z)
        z = x_new + beta * (x_new - x)
        if np.abs(x_new - x).max() <= 1e-9:
            return x_new
        x = x_new
    return x


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
    ``merged[a]`` = k > 0 values were merged, scaled by 1/√k as the measurement is).

    The minimiser is sparse (a few hundred of Adult 2-D's 65 536 cells), so it is solved on a working set of cells,
    the others held at 0 (``_fit_cells``, accelerated projected gradient), starting from the support of the
    projection of y2 onto the constraint set; then every cell held at 0 whose gradient would move it up (the KKT
    condition g_c + θ ≥ 0, θ the multiplier of Σx, violated by more than 10⁻⁶ of a count per sd2²) joins the set,
    and the fit is repeated until none does. The set grows at each repetition, so this ends; the result is the
    minimiser over all cells to the solver's precision. Without compression this costs a few fits of a few hundred
    cells where the whole grid would take ~950 accelerated steps on 65 536 cells. mbi's mirror descent solves the
    same problem (``tests/test_mwem_mst.py`` checks one against the other)."""
    shape = y2.shape
    w = []
    for a, k in enumerate(merged):
        wa = np.ones(shape[a])
        if k:
            wa[-1] = 1.0 / math.sqrt(k)
        w.append(wa)
    flat = y2.ravel()
    active = _project_simplex(flat.copy(), total) > 0
    tol = 1e-6 / sd2**2
    x = None
    while True:
        idx = np.flatnonzero(active)
        rows, cols = np.divmod(idx, shape[1])
        start = None if x is None else x.ravel()[idx]  # the last fit, the new cells at 0: feasible
        xs = _fit_cells(rows, cols, y1, w, sd1, flat[idx], sd2, total, iters, start)
        x = np.zeros(flat.size)
        x[idx] = xs
        x = x.reshape(shape)
        r0 = (x.sum(axis=1) * w[0] - y1[0]) * w[0] / sd1**2
        r1 = (x.sum(axis=0) * w[1] - y1[1]) * w[1] / sd1**2
        pos = xs > 0
        theta = float(
            np.mean(-((xs[pos] - flat[idx][pos]) / sd2**2 + r0[rows[pos]] + r1[cols[pos]]))
        )
        slack = (-y2 / sd2**2 + r0[:, None] + r1[None, :] + theta).ravel()
        grow = ~active & (slack < -tol)
        if not grow.any():
            return x
        active |= grow


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
    compress: bool = True,
    iters: int = 2000,
) -> MSTResult:
    """MST on a histogram ``hist`` of two attributes at ρ-zCDP (``mckenna2021winning``; what it reduces to there:
    the module). ``compress``: False skips the domain compression (every value kept: the two-way marginal of the
    whole domain is measured, at the same σ₂, and fitted), the arm that separates the compression from the fit.
    ``iters``: the most steps of each fit (:func:`fit_two_way`). Privacy: :func:`mst_claim`."""
    h = check_array(hist, "hist", ndim=2)
    if np.any(h < 0):
        raise ValueError("hist must be non-negative, got a negative count")
    rho = check_epsilon(rho, "rho")
    rng = check_rng(rng)
    iters = check_int(iters, "iters", minimum=1)
    if not isinstance(compress, bool | np.bool_):
        raise ValueError(f"compress must be True or False, got {compress!r}")
    sd1, sd2 = mst_sigmas(rho, neighbours)
    # (1) the one-way marginals, then the compression (it reads only these noisy counts)
    ys = measure_marginals(h, [(0,), (1,)], sd1, rng)
    comp = [
        _compress(y, sd1) if compress else (np.ones(y.size, dtype=bool), y.copy(), 0) for y in ys
    ]
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


def mst_claim(
    epsilon: float, delta: float, *, neighbours: str = "replace-one", compress: bool = True
) -> PrivacyClaim:
    """MST's privacy statement on two attributes at the budget of the chapter's zCDP MWEM: ρ = ``rho_for`` (ε, δ),
    of which the measurements spend 2ρ/3 (:func:`mst_sigmas`), stated as (ε, δ)-DP by the conversion of
    ``bun2016concentrated`` at the ρ reserved (as :func:`~.pgm.aim_claim`). The estimate is post-processing.
    ``compress`` False: the arm without the domain compression (the same measurements; nothing merged)."""
    e, dl = check_epsilon(epsilon), check_delta(delta)
    if neighbours not in NEIGHBOURS:
        raise ValueError(f"neighbours must be one of {'|'.join(NEIGHBOURS)}, got {neighbours!r}")
    if not isinstance(compress, bool | np.bool_):
        raise ValueError(f"compress must be True or False, got {compress!r}")
    rho = rho_for(e, dl)
    sd1, sd2 = mst_sigmas(rho, neighbours)
    return _marginals_claim(
        "mst" if compress else "mst_nc",
        neighbours,
        rho,
        dl,
        s1=tex(f"{sd1:.4g}"),
        s2=tex(f"{sd2:.4g}"),
    )


def _marginals_claim(kind: str, neighbours: str, rho: float, dl: float, **sigmas) -> PrivacyClaim:
    """The claim of Gaussian marginal measurements spending at most ρ (zCDP) under ``neighbours``, stated as
    (ε, δ)-DP at ρ (``bun2016concentrated``): mechanism ``claims.mwem.mech_<kind>``, condition
    ``claims.mwem.<kind>_cond_zcdp`` with ρ and the ``sigmas``, the public domain and, under replace-one, n public."""
    return PrivacyClaim(
        _text(f"claims.mwem.mech_{kind}"),
        neighbours,
        _text("claims.mwem.mst_sens", l2=tex(f"{NEIGHBOURS[neighbours][0]:.4g}")),
        dp_epsilon(rho, dl),
        dl,
        conditions=(
            _text(f"claims.mwem.{kind}_cond_zcdp", rho=tex(f"{rho:.4g}"), **sigmas),
            PUBLIC_DOMAIN,
            *((_text("claims.mwem.aim_cond_public_n"),) if neighbours == "replace-one" else ()),
        ),
    )


mst_runs = budget_runner(
    mst,
    name=lambda compress=True, **_: MST_NAME if compress else MST_NC_NAME,
    ndim=2,
    doc="""MST (:func:`mst`, ``options`` its keywords: ``neighbours``, ``compress``, ``iters``) at every ε (ρ =
    ``rho_for`` (ε, δ)), ``reps`` repetitions each: one row per (epsilon, rep) with ``method`` = :data:`MST_NAME`
    (:data:`MST_NC_NAME` when ``compress`` is False) and the workload errors of its estimate
    (:func:`~.core.workload_errors`). Repetition r at the k-th ε draws from child r of child k of
    ``SeedSequence(seed)`` (:func:`~.core.budget_runner`).""",
)


def independence_sigma(rho: float, neighbours: str = "replace-one") -> float:
    """The independence arm's noise standard deviation at ρ: σ = Δ₂/√ρ (two one-way marginals at ρ/2 each)."""
    rho = check_epsilon(rho, "rho")
    if neighbours not in NEIGHBOURS:
        raise ValueError(f"neighbours must be one of {'|'.join(NEIGHBOURS)}, got {neighbours!r}")
    return NEIGHBOURS[neighbours][0] / math.sqrt(rho)


def independence(
    hist: ArrayLike, rho: float, rng: np.random.Generator, *, neighbours: str = "replace-one"
) -> MSTResult:
    """The non-adaptive independence model at ρ-zCDP (referee 15's comparator for AIM on two attributes, where AIM
    measures only the one-way marginals): both one-way marginals of ``hist`` with Gaussian noise σ =
    :func:`independence_sigma` (ρ/2 each, the same replace-one L2 sensitivity as MST's one-way measurements), each
    projected onto the non-negative vectors of total n (n public under replace-one; under add-remove the mean of the
    two noisy totals, at least 1), and the product x̂ = m₁ m₂ᵀ / n (the maximum-entropy fit of the two), rounded to
    :data:`.pgm.GRID` of a count. Returns an :class:`MSTResult` (every value kept, ``sigmas`` = (σ, σ), ρ spent).
    Privacy: :func:`independence_claim`."""
    h = check_array(hist, "hist", ndim=2)
    if np.any(h < 0):
        raise ValueError("hist must be non-negative, got a negative count")
    rng = check_rng(rng)
    sd = independence_sigma(rho, neighbours)
    ys = measure_marginals(h, [(0,), (1,)], sd, rng)
    if neighbours == "replace-one":
        total = float(h.sum())
    else:
        total = max(1.0, float(np.mean([y.sum() for y in ys])))
    m0, m1 = (_project_simplex(y, total) for y in ys)
    est = np.round(np.outer(m0, m1) / total / GRID) * GRID
    keep = tuple(np.ones(k, dtype=bool) for k in h.shape)
    return MSTResult(est, keep, (sd, sd), float(rho))


def independence_claim(
    epsilon: float, delta: float, *, neighbours: str = "replace-one"
) -> PrivacyClaim:
    """The independence arm's privacy statement at the budget of the chapter's zCDP MWEM: ρ = ``rho_for`` (ε, δ),
    all of it spent by the two one-way measurements (ρ/2 each), stated as (ε, δ)-DP by the conversion of
    ``bun2016concentrated`` (as :func:`~.pgm.aim_claim`); the fits and the product are post-processing."""
    e, dl = check_epsilon(epsilon), check_delta(delta)
    if neighbours not in NEIGHBOURS:
        raise ValueError(f"neighbours must be one of {'|'.join(NEIGHBOURS)}, got {neighbours!r}")
    rho = rho_for(e, dl)
    return _marginals_claim(
        "independence", neighbours, rho, dl, s=tex(f"{independence_sigma(rho, neighbours):.4g}")
    )


independence_runs = budget_runner(
    independence,
    name=IND_NAME,
    ndim=2,
    doc="""The independence arm (:func:`independence`, ``options``: ``neighbours``) at every ε, ``reps`` repetitions
    each: one row per (epsilon, rep) with ``method`` = :data:`IND_NAME` and the workload errors of its estimate
    (streams as :func:`mst_runs`).""",
)


#: The arms beside AIM on Adult 2-D at its ρ (referee 13, §3; referee 14, M1): registry id → the name of its rows
#: in the chapter's tables. Gaussian Identity; the fit alone (its releases projected onto the non-negative histograms
#: of total n); MST without compression (the three measurements, fitted on every cell); MST; the independence model
#: on the two one-way marginals at ρ/2 each (referee 15, M1: what AIM releases here when it measures only those).
PART_ARMS = {
    "gaussian-identity": "Gaussian Identity",
    "mst": MST_NAME,
    "gaussian-identity-fit": "Gaussian Identity, non-negative fit",
    "mst-nc": MST_NC_NAME,
    "independence": IND_NAME,
}
#: The steps from Gaussian Identity to MST, each a contrast of two arms at one guarantee: (step, the arm with it,
#: the arm without it) — the fit, the measured one-way marginals (with the two-way one at ρ/3 instead of ρ), the
#: domain compression.
PART_STEPS = (
    ("fit", "gaussian-identity-fit", "gaussian-identity"),
    ("marginals", "mst-nc", "gaussian-identity-fit"),
    ("compression", "mst", "mst-nc"),
)


def part_claim(method: str, epsilon: float, delta: float) -> PrivacyClaim:
    """The claim of an arm of :data:`PART_ARMS` at ρ = ``rho_for`` (ε, δ), replace-one: all state AIM's (ε, δ)."""
    if method not in PART_ARMS:
        raise ValueError(f"method must be one of {'|'.join(PART_ARMS)}, got {method!r}")
    if method.startswith("mst"):
        return mst_claim(epsilon, delta, compress=method == "mst")
    if method == "independence":
        return independence_claim(epsilon, delta)
    return gaussian_claim(epsilon, delta, method)


def parts_family(
    values_of: Callable[[str, float], ArrayLike],
    epsilons: Sequence[float],
    delta: float,
    rng: np.random.Generator,
    *,
    quantity,
    head: Sequence = (),
):
    """AIM against every arm of :data:`PART_ARMS`, and every step of :data:`PART_STEPS`, at each ε where both sides
    have at least 2 runs: two-sided bootstrap-t tests (:class:`~dpcompendium.core.comparison.Comparison`, one
    guarantee: AIM's, :func:`~.pgm.aim_claim` with d = 2), Holm-corrected as one family with the results ``head``
    (comparisons made before, e.g. AIM against the zcdp variant). ``values_of(name, eps)``: the repetitions' errors
    of the rows named ``name`` (:data:`~.pgm.AIM_NAME` or a value of :data:`PART_ARMS`). The draws: AIM against
    Gaussian Identity and MST at each ε in turn, then against the two other arms, then the steps, then AIM against the
    independence arm at each ε (referee 15, M1: last, so the earlier draws are unchanged). Each comparison's
    ``setting`` is its ε alone ("ε = 1"): its arms name the pair, so a label of pair and setting names each arm once
    (referee 17, m3: "AIM vs MST, MST, ε = 1" doubled the arm). Returns (the
    corrected results, head first; an index: ("aim", arm id, ε) or ("step", step, ε) → position)."""
    from ...core import comparison
    from .pgm import AIM_NAME, aim_claim

    eps_list = [check_epsilon(e, "epsilons") for e in epsilons]
    dl = check_delta(delta)
    rows, index = list(head), {}

    def add(key, a_id, a_claim, a_vals, b_id, b_vals, e, setting):
        if len(a_vals) < 2 or len(b_vals) < 2:
            return
        index[key] = len(rows)
        rows.append(
            comparison.Comparison(
                quantity,
                comparison.Arm.of(a_id, a_claim, a_vals),
                comparison.Arm.of(b_id, part_claim(b_id, e, dl), b_vals),
                test="bootstrap-t",
                setting=setting,
            ).result(rng)
        )

    def vals(name, e):
        return np.asarray(values_of(name, e), dtype=float)

    for arms in (("gaussian-identity", "mst"), ("gaussian-identity-fit", "mst-nc")):
        for e in eps_list:
            for m in arms:
                add(
                    ("aim", m, e),
                    "aim",
                    aim_claim(e, dl, 2),
                    vals(AIM_NAME, e),
                    m,
                    vals(PART_ARMS[m], e),
                    e,
                    f"ε = {e:g}",
                )
    for e in eps_list:
        for step, a, b in PART_STEPS:
            add(
                ("step", step, e),
                a,
                part_claim(a, e, dl),
                vals(PART_ARMS[a], e),
                b,
                vals(PART_ARMS[b], e),
                e,
                f"ε = {e:g}",
            )
    for e in eps_list:
        add(
            ("aim", "independence", e),
            "aim",
            aim_claim(e, dl, 2),
            vals(AIM_NAME, e),
            "independence",
            vals(PART_ARMS["independence"], e),
            e,
            f"ε = {e:g}",
        )
    return comparison.holm(rows), index


def aim_measured(runs: int, two_way_runs: int) -> Md:
    """The sentence on AIM's measured marginals on Adult 2-D: in how many of its ``runs`` it measured only the two
    one-way marginals and in how many the two-way one too; "each of its 120 runs …, none the two-way" where none did
    (native review 8, S5: "in 120 of its 120 runs …, and the two-way marginal too in 0")."""
    runs, two = (
        check_int(runs, "runs", minimum=0),
        check_int(two_way_runs, "two_way_runs", minimum=0),
    )
    if two > runs:
        raise ValueError(f"two_way_runs ({two}) must not exceed runs ({runs})")
    if runs and two == 0:
        return message("mwem.db_aim_measured_all", runs=str(runs))
    return message("mwem.db_aim_measured", one=str(runs - two), runs=str(runs), two=str(two))


def parts_reading(results: Sequence, index: dict, two_way_runs: int = 0) -> dict | None:
    """What :func:`parts_family`'s ``results`` (its ``index``) say together, for the chapter's reading of AIM's gap
    (referee 14, M1; referee 15, M1): each arm's error over AIM's (``"gid"``, ``"fit"``, ``"nc"``, ``"mst"``,
    ``"ind"``: lists over ε, AIM's ratios inverted), AIM's verdicts against each arm in words with their spans
    (``"gid_tally"`` …, :func:`~dpcompendium.core.comparison.verdict_tally`), ``"counts"`` (``m`` settings; per step of :data:`PART_STEPS` how
    often the arm with the part is shown lower and higher, ``fit_lo`` …, ``marg_lo`` …, ``comp_lo`` …; AIM against
    MST without compression, ``sel_lo``/``sel_hi``; against MST, ``mst_lo``/``mst_hi``; against Gaussian Identity,
    ``gid_lo``; against the independence arm, ``ind_lo``/``ind_hi``), the steps of MST's chain shown to lower the
    error in every setting, in some and in none (``"every"``, ``"some"``, ``"never"``), and ``"aim_model"``:
    ``"independence"`` when none of AIM's runs measured the two-way marginal (``two_way_runs``, a count ≥ 0, is 0:
    AIM's estimate is then the independence model, and the chain decomposes MST, not AIM), else ``"two-way"``.
    None when an arm or a step lacks a setting the others have."""
    two_way_runs = check_int(two_way_runs, "two_way_runs", minimum=0)

    def res(kind, key):
        return [results[i] for (k, m, _e), i in index.items() if k == kind and m == key]

    arms = {short: res("aim", key) for short, key in _SHORT.items()}
    steps = {st: res("step", st) for st, _a, _b in PART_STEPS}
    m = len(arms["gid"])
    if not m or any(len(v) != m for v in (*arms.values(), *steps.values())):
        return None

    def lo(rs):
        return sum(r.outcome == "better" for r in rs)

    def hi(rs):
        return sum(r.outcome == "worse" for r in rs)

    counts = {"m": m, "gid_lo": lo(arms["gid"]), "sel_lo": lo(arms["nc"]), "sel_hi": hi(arms["nc"])}
    counts |= {"mst_lo": lo(arms["mst"]), "mst_hi": hi(arms["mst"])}
    counts |= {"ind_lo": lo(arms["ind"]), "ind_hi": hi(arms["ind"])}
    for st, short in (("fit", "fit"), ("marginals", "marg"), ("compression", "comp")):
        counts |= {f"{short}_lo": lo(steps[st]), f"{short}_hi": hi(steps[st])}
    from ...core.comparison import verdict_tally

    return {
        **{short: [1.0 / r.ratio for r in rs] for short, rs in arms.items()},
        # AIM's verdicts against each arm as the comparison objects word them, with their spans: the ratios where
        # shown, the intervals where not separated (referee 17, m5: never a span of point ratios for those)
        **{f"{short}_tally": verdict_tally(rs) for short, rs in arms.items()},
        # the counts alone, for the page's opening summary (at most 300 characters)
        **{f"{short}_count": verdict_tally(rs, spans=False) for short, rs in arms.items()},
        "counts": counts,
        "every": [st for st, rs in steps.items() if lo(rs) == m],
        "some": [st for st, rs in steps.items() if 0 < lo(rs) < m],
        "never": [st for st, rs in steps.items() if lo(rs) == 0],
        "aim_model": "independence" if two_way_runs == 0 else "two-way",
    }


#: :func:`parts_reading`'s short names of the arms of :data:`PART_ARMS`.
_SHORT = {
    "gid": "gaussian-identity",
    "fit": "gaussian-identity-fit",
    "nc": "mst-nc",
    "mst": "mst",
    "ind": "independence",
}
