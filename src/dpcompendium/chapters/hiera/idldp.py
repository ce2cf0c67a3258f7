"""Input-discriminative LDP (IDLDP) for a mean: IDUE on the levels' edges after stochastic rounding.

Gu, Li, Cheng, Xiong and Cao [hiera_gu2020providing] protect each pair of inputs x, x′ at r(ε_x, ε_x′) = min(ε_x, ε_x′)
(MinID-LDP) and build IDUE: unary encoding whose bit i has its own probabilities. Their setting is categorical; for a
mean on [−1, 1] this module rounds the value stochastically onto the grid of the levels' ends
g_0 = −1 < g_1 < … < g_k = 1 (v ∈ [g_i, g_{i+1}] goes to g_{i+1} with probability (v − g_i)/(g_{i+1} − g_i), unbiased)
and sends IDUE of the grid index: bit i is 1 with probability a_i = e^{ρ_i/2}/(1 + e^{ρ_i/2}) if the index is i and
b_i = 1 − a_i otherwise (a symmetric split of each bit's budget ρ_i).

**Privacy.** Neighbour relation: local. Two grid indices i ≠ j give outputs whose likelihood ratio is at most
e^{(ρ_i + ρ_j)/2}; a value of level t is a mixture over its level's two ends, so two values of levels t, t′ are at
most max (ρ_i + ρ_j)/2 apart over ends i of t and j ≠ i of t′. :func:`idue_budgets` chooses the ρ that minimise the
variance subject to that being ≤ min(ε_t, ε_t′) for every pair of levels: the graded guarantee of the schedule.

**Estimator and variance.** m̂ = (1/n) Σ_u Σ_i g_i (y_ui − b_i)/(a_i − b_i), unbiased; every bit has variance
a_i b_i whatever the index, so Var(m̂) = n⁻² Σ_u (K + (g_{i+1} − v_u)(v_u − g_i)),
K = Σ_i g_i² a_i b_i/(a_i − b_i)² = Σ_i g_i² / (4 sinh²(ρ_i/4)).
"""

from __future__ import annotations

import functools
import itertools

import numpy as np
from numpy.typing import ArrayLike

from ...core.messages import message
from ...core.numerics import grid_compass_search, grid_step_down, snap_to_grid
from ...core.privacy import PrivacyClaim
from ...core.validation import check_array, check_in_domain, check_rng
from .levels import DEFAULT_EDGES, check_edges, check_schedule

__all__ = [
    "idue_budgets",
    "idue_claim",
    "idue_constant",
    "idue_estimate",
    "idue_grid",
    "idue_output_probabilities",
    "idue_pair_epsilons",
    "idue_privatise",
    "idue_variance",
]


def idue_grid(edges: ArrayLike = DEFAULT_EDGES) -> np.ndarray:
    """The rounding grid: −1, the interior edges, 1 (k + 1 points for k levels)."""
    e = check_edges(edges)
    return np.concatenate(([-1.0], e, [1.0]))


def _pair_constraints(k: int) -> list[tuple[int, int, int, int]]:
    """(i, j, t, t′): grid ends i of level t and j ≠ i of level t′ (level t has ends t and t + 1)."""
    out = []
    for t, u in itertools.product(range(k), repeat=2):
        for i in (t, t + 1):
            for j in (u, u + 1):
                if i != j:
                    out.append((i, j, t, u))
    return out


def idue_pair_epsilons(rho: ArrayLike, k: int) -> np.ndarray:
    """(k, k) matrix: the bound max (ρ_i + ρ_j)/2 on the log-ratio between values of levels t, t′ (tight at the
    levels' ends, which round to one grid point with certainty)."""
    r = check_array(rho, "rho", ndim=1)
    out = np.zeros((k, k))
    for i, j, t, u in _pair_constraints(k):
        out[t, u] = max(out[t, u], 0.5 * (r[i] + r[j]))
    return out


def idue_constant(rho: ArrayLike, grid: ArrayLike) -> float:
    """K = Σ_i g_i² / (4 sinh²(ρ_i/4)): the variance of one report beyond the rounding variance."""
    r = check_array(rho, "rho", ndim=1)
    return float(np.sum(np.square(grid) / (4.0 * np.sinh(r / 4.0) ** 2)))


def idue_budgets(epsilons: ArrayLike, *, edges: ArrayLike = DEFAULT_EDGES) -> np.ndarray:
    """Per grid point, the budget ρ_i of its bit: minimises K (:func:`idue_constant`) subject to
    (ρ_i + ρ_j)/2 ≤ min(ε_t, ε_t′) for the ends i of level t and j ≠ i of level t′ (linear constraints), over budgets
    on the grid of :func:`~dpcompendium.core.numerics.snap_to_grid`, where the constraints are checked exactly, by
    :func:`~dpcompendium.core.numerics.grid_compass_search`: the budgets have the same bits on every CPU.

    Start: ρ_i = min over the levels that touch g_i of min_t′ ε_t′ = min ε (every pair then sums to 2 min ε), rounded to the grid.
    """
    e = check_edges(edges)
    eps = check_schedule(epsilons, e.size + 1)
    return _idue_budgets(tuple(map(float, eps)), tuple(map(float, e))).copy()


@functools.lru_cache(maxsize=256)
def _idue_budgets(epsilons: tuple, edges: tuple) -> np.ndarray:
    """Cached body of :func:`idue_budgets` (hashable arguments; a read-only array)."""
    eps = np.asarray(epsilons)
    e = np.asarray(edges)
    k = eps.size
    grid = idue_grid(e)
    cons = _pair_constraints(k)
    a = np.zeros((len(cons), k + 1))
    rhs = np.empty(len(cons))
    for row, (i, j, t, u) in enumerate(cons):
        a[row, i] += 0.5
        a[row, j] += 0.5
        rhs[row] = min(eps[t], eps[u])
    start = np.full(k + 1, eps.min())
    weight = np.maximum(np.square(grid), 1e-6)  # a zero grid point still needs a positive budget

    def cost(r: np.ndarray) -> float:
        return float(np.sum(weight / (4.0 * np.sinh(r / 4.0) ** 2)))

    # The budgets the mechanism uses lie on the grid of core.numerics, where (ρ_i + ρ_j)/2 is computed without
    # rounding: the constraints are checked exactly, and a compass search on the grid (not SLSQP, whose answers
    # differed by 10⁻⁹ from one CPU's code paths to another's and decided between two near-equal schedules
    # differently) gives the same bits on every CPU.
    def feasible(r: np.ndarray) -> bool:
        return bool(np.all(a @ r <= rhs))

    s = snap_to_grid(start)
    while not feasible(s):
        s = grid_step_down(s)
    rho = grid_compass_search(
        [s], cost, feasible, lower=1e-3 * float(eps.min()), upper=2.0 * float(eps.max())
    )
    rho.setflags(write=False)
    return rho


def _probabilities(rho: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    a = 1.0 / (1.0 + np.exp(-rho / 2.0))
    return a, 1.0 - a


def _round(v: np.ndarray, grid: np.ndarray, u: np.ndarray) -> np.ndarray:
    """Grid index after stochastic rounding of v with the uniforms u."""
    lo = np.clip(np.searchsorted(grid, v, side="right") - 1, 0, grid.size - 2)
    up = u < (v - grid[lo]) / (grid[lo + 1] - grid[lo])
    return lo + up


def idue_privatise(
    values: ArrayLike,
    epsilons: ArrayLike,
    rng: np.random.Generator,
    *,
    edges: ArrayLike = DEFAULT_EDGES,
) -> np.ndarray:
    """User side: round each value onto :func:`idue_grid`, then IDUE with the budgets :func:`idue_budgets`.

    Returns an (n, k + 1) array of bits in {0, 1}. Local neighbours; meets the graded bound min(ε_t, ε_t′) between
    levels t, t′ (module docstring); as a whole it is max ε-LDP of :func:`idue_pair_epsilons`.
    """
    e = check_edges(edges)
    eps = check_schedule(epsilons, e.size + 1)
    rng = check_rng(rng)
    v = check_in_domain(check_array(values, "values", ndim=1), (-1.0, 1.0), "values")
    grid = idue_grid(e)
    a, b = _probabilities(idue_budgets(eps, edges=e))
    idx = _round(v, grid, rng.random(v.shape))
    p = np.where(np.arange(grid.size) == idx[:, None], a, b)
    return (rng.random(p.shape) < p).astype(np.int8)


def idue_estimate(
    ones: ArrayLike, n: ArrayLike, epsilons: ArrayLike, *, edges: ArrayLike = DEFAULT_EDGES
) -> np.ndarray | float:
    """Collector side: m̂ = Σ_i g_i (ones_i/n − b_i)/(a_i − b_i) from the counts of 1-bits (..., k + 1)."""
    e = check_edges(edges)
    eps = check_schedule(epsilons, e.size + 1)
    c = np.asarray(ones, dtype=float)
    a, b = _probabilities(idue_budgets(eps, edges=e))
    m = ((c / np.asarray(n, dtype=float)[..., None] - b) / (a - b)) @ idue_grid(e)
    return float(m) if np.ndim(m) == 0 else m


def idue_variance(
    values: ArrayLike, epsilons: ArrayLike, *, edges: ArrayLike = DEFAULT_EDGES
) -> float:
    """Var(m̂) = n⁻² Σ_u (K + (g_{i+1} − v_u)(v_u − g_i)) (module docstring)."""
    e = check_edges(edges)
    eps = check_schedule(epsilons, e.size + 1)
    v = check_in_domain(check_array(values, "values").ravel(), (-1.0, 1.0), "values")
    grid = idue_grid(e)
    lo = np.clip(np.searchsorted(grid, v, side="right") - 1, 0, grid.size - 2)
    rounding = (grid[lo + 1] - v) * (v - grid[lo])
    k_const = idue_constant(idue_budgets(eps, edges=e), grid)
    return float((v.size * k_const + rounding.sum()) / v.size**2)


def idue_output_probabilities(
    values: ArrayLike, epsilons: ArrayLike, *, edges: ArrayLike = DEFAULT_EDGES
) -> np.ndarray:
    """Exact law of the report: (..., 2^(k+1)) probabilities of the bit vectors (bit i = binary digit i)."""
    e = check_edges(edges)
    eps = check_schedule(epsilons, e.size + 1)
    v = check_in_domain(check_array(values, "values"), (-1.0, 1.0), "values")
    grid = idue_grid(e)
    m = grid.size
    a, b = _probabilities(idue_budgets(eps, edges=e))
    bits = (np.arange(2**m)[:, None] >> np.arange(m)) & 1  # (2^m, m)
    # P(y | index i) for each i: Π_j (a_j or b_j)^{y_j} (1 − ·)^{1 − y_j}
    p1 = np.where(np.eye(m, dtype=bool), a, b)  # [i, j]
    law = np.prod(np.where(bits[None, :, :] == 1, p1[:, None, :], 1.0 - p1[:, None, :]), axis=-1)
    lo = np.clip(np.searchsorted(grid, v, side="right") - 1, 0, m - 2)
    w_up = (v - grid[lo]) / (grid[lo + 1] - grid[lo])
    return (1.0 - w_up)[..., None] * law[lo] + w_up[..., None] * law[lo + 1]


def idue_claim(epsilons: ArrayLike, *, edges: ArrayLike = DEFAULT_EDGES) -> PrivacyClaim:
    """The claim of one IDUE-mean report: exact ε of the whole mechanism (every pair), with the graded bound
    min(ε_t, ε_t′) between levels t, t′ that its budgets meet stated in its name."""
    e = check_edges(edges)
    eps = check_schedule(epsilons, e.size + 1)
    rho = idue_budgets(eps, edges=e)
    levels = ", ".join(f"{x:.3g}" for x in eps)
    return PrivacyClaim(
        message("claims.hiera.mech_idue", levels=levels),
        "local",
        message("claims.hiera.sens_idue", k=str(eps.size + 1)),
        float(idue_pair_epsilons(rho, eps.size).max()),
    )
