"""HDMM (``mckenna2018optimizing``) for a 1-D range workload: the matrix mechanism with an optimised p-Identity
strategy, then least squares.

For one dimension HDMM's OPT₀ searches the p-Identity strategies A = [I; Θ]·D: Θ ≥ 0 (p × n) adds p weighted
aggregates to the n bins, and D = diag(1/s), s_j = 1 + Σ_i Θ_ij, scales every column to L1 norm 1 (sensitivity 1
under add-remove neighbours). Θ minimises the expected total squared error of the workload W under the least-squares
estimate, ‖W A⁺‖²_F (times 2Δ²/ε² for Laplace noise), by L-BFGS-B. The release is y = A x + Lap(Δ/ε) and the least-
squares histogram x̂ = (AᵀA)⁻¹Aᵀy.

(AᵀA)⁻¹ is diagonal plus low rank and goes through Woodbury with a p × p system — no n × n matrix is formed. With y_I the n identity measurements (weights a = 1/s) and y_B the p
aggregates (B = Θ/s),

    AᵀA = diag(a²) + BᵀB,  (AᵀA)⁻¹ = Dg⁻¹ − Dg⁻¹Bᵀ M⁻¹ B Dg⁻¹,  M = I_p + B Dg⁻¹ Bᵀ,  Dg = diag(a²),

    ‖W A⁺‖²_F = tr((AᵀA)⁻¹ WᵀW) = Σ_j c_j / a_j² − tr(M⁻¹ Y Yᵀ),  Y = B Dg⁻¹ Wᵀ,

c_j the number of queries that cover bin j.

Cost (issue 47: a few CPU-seconds per chapter run). Θ is constant on blocks of k bins (:func:`hdmm_block`: k = 16
for DPBench's 4096 bins, 256 coarse columns) while the identity part keeps every bin, so W enters the search only
through the blocks' Gram matrix (n/k × n/k, built once in O(m·(n/k)²)) and an evaluation costs O(p·(n/k)² + p²·n/k),
whatever the number of queries; p = 64 aggregates
(:func:`hdmm_p`; the paper's n/16 = 256 with 200 iterations gives a 5 % lower expected error on the chapter's
workload at eight times the cost) and at most :data:`HDMM_MAXITER` = 100 iterations: about one CPU-second per workload, once per process.

CPU independence (``book/reproducibility.md``): the optimiser's iterates carry the CPU's rounding, so the strategy
actually used is the optimum rounded to the grid of multiples of 2⁻²⁰ (:data:`HDMM_GRID`), the weights a_j and B_ij
separately; the sensitivity Δ = max_j (a_j + Σ_i B_ij) is computed exactly from those grid values (sums of multiples
of 2⁻²⁰ below 2³² are exact in float64), and the noise scale is Δ/ε, so the release is ε-DP for the matrix that runs
whatever the optimiser returned. The grid does not make the strategy the same bits on every CPU (the iterates diverge
by more than a grid step: measured in ``book/reproducibility.md``); its expected error moves by less than 0.1 %.
"""

from __future__ import annotations

import functools

import numpy as np
from numpy.typing import ArrayLike
from scipy import optimize

from ...core.experiments import RangeQueries
from ...core.validation import check_epsilon, check_int
from ._common import finish, prepare

__all__ = [
    "HDMM_COARSE",
    "HDMM_GRID",
    "HDMM_MAXITER",
    "HdmmStrategy",
    "hdmm",
    "hdmm_block",
    "hdmm_expected_mse",
    "hdmm_objective",
    "hdmm_p",
    "hdmm_strategy",
]

#: the grid of the strategy's entries: multiples of 2⁻²⁰
HDMM_GRID = 2.0**-20
#: the least number of coarse columns of Θ (:func:`hdmm_block`)
HDMM_COARSE = 256
#: the L-BFGS-B iterations of the strategy search (a fixed cap: its cost is part of the chapter's run)
HDMM_MAXITER = 100


def hdmm_p(n: int) -> int:
    """The number of aggregates p for a domain of n bins: n/64 (64 for DPBench's 4096 bins), at least 1. The paper's
    p = n/16 (256, 200 iterations) lowers the expected error on the chapter's workload by 5 % at eight times the
    optimisation time (measured: 170.5 against 179.5 at ε = 1, 9 s against 1.1 s of CPU)."""
    return max(1, check_int(n, "n", minimum=1) // 64)


def _bounds(workload: RangeQueries) -> tuple[np.ndarray, np.ndarray]:
    if not isinstance(workload, RangeQueries) or workload.ndim != 1:
        raise ValueError(f"workload must be a 1-D RangeQueries, got {workload!r}")
    return workload.lo[:, 0].astype(np.int64), workload.hi[:, 0].astype(np.int64) + 1


def hdmm_block(n: int) -> int:
    """The width of the blocks on which Θ is constant: the largest power of two k dividing n with n/k ≥ 256
    (:data:`HDMM_COARSE`; 16 for DPBench's 4096 bins), 1 for n < 512."""
    n = check_int(n, "n", minimum=1)
    k = 1
    while n % (2 * k) == 0 and n // (2 * k) >= HDMM_COARSE:
        k *= 2
    return k


#: queries per chunk when the blocks' Gram matrix is accumulated (a chunk of overlaps is CHUNK × n/k floats)
_CHUNK = 16_384


@functools.lru_cache(maxsize=16)
def _block_gram(workload: RangeQueries, block: int) -> tuple[np.ndarray, np.ndarray]:
    """OᵀO and 1ᵀO for O = W(I ⊗ 1_k), the number of bins query q shares with block b (m × n/k): the workload as the
    coarse strategy sees it (for block 1, WᵀW and the coverage c). Accumulated over chunks of queries, so memory
    does not grow with m."""
    lo, hi = _bounds(workload)
    edges = np.arange(0, workload.shape[0] + 1, block)
    nc = edges.size - 1
    gram, g = np.zeros((nc, nc)), np.zeros(nc)
    for start in range(0, lo.size, _CHUNK):
        a, b = lo[start : start + _CHUNK], hi[start : start + _CHUNK]
        o = np.clip(
            np.minimum(b[:, None], edges[None, 1:]) - np.maximum(a[:, None], edges[None, :-1]),
            0,
            None,
        ).astype(float)
        gram += o.T @ o
        g += o.sum(axis=0)
    return gram, g


def hdmm_objective(
    theta: np.ndarray, workload: RangeQueries, *, block: int = 1, gradient: bool = True
) -> float | tuple[float, np.ndarray]:
    """‖W A⁺‖²_F for the p-Identity strategy A = [I; Θ]·D (``mckenna2018optimizing``), and its gradient.

    ``theta`` is Θ (p × n) for ``block=1``; for ``block=k`` it is the coarse Θ_c (p × n/k) and Θ = Θ_c ⊗ 1ᵀ_k (every
    aggregate constant on blocks of k bins; the identity part keeps every bin), the gradient then in Θ_c. The column
    sums s = 1 + 1ᵀΘ are then constant on blocks too, so W enters only through the blocks' Gram matrix G = OᵀO,
    O = W(I ⊗ 1_k), and g = 1ᵀO (g_b = Σ_{j∈b} c_j, c_j the queries covering bin j; ``_block_gram``). With
    S = diag(s), Z = ΘS, M = I + kΘΘᵀ, U = M⁻¹Z and R = UG:
    F = Σ_b g_b s_b² − Σ(Z∘R),  ∂F/∂Θ = −2RS + 2kRUᵀΘ + 1_p(2g∘s − 2·1ᵀ(R∘Θ))ᵀ.
    An evaluation costs O(p(n/k)² + p²·n/k), whatever the number of queries.
    """
    n = workload.shape[0]
    coarse = np.asarray(theta, dtype=float)
    if coarse.ndim != 2 or coarse.shape[1] * block != n:
        raise ValueError(f"theta must have shape (p, {n // block}), got {coarse.shape}")
    gram, g = _block_gram(workload, block)
    s = 1.0 + coarse.sum(axis=0)
    z = coarse * s
    m_mat = np.eye(coarse.shape[0]) + block * (coarse @ coarse.T)
    u = np.linalg.solve(m_mat, z)
    r = u @ gram
    value = float(np.dot(g, s**2) - np.sum(z * r))
    if not gradient:
        return value
    grad = -2.0 * r * s + 2.0 * g * s - 2.0 * np.sum(r * coarse, axis=0)
    return value, grad + 2.0 * block * ((r @ u.T) @ coarse)


class HdmmStrategy:
    """The strategy that runs: identity weights ``a`` (n,) and aggregates ``b`` (p, n), all on the grid
    :data:`HDMM_GRID`, its exact L1 sensitivity ``sensitivity`` = max_j (a_j + Σ_i b_ij) (add-remove), the
    optimiser's objective before rounding (``optimised``), its number of iterations (``iterations``) and the width of
    the blocks on which a and B are constant (``block``). Holds the
    Woodbury factor of (AᵀA)⁻¹ for the least-squares step."""

    def __init__(
        self, a: np.ndarray, b: np.ndarray, optimised: float, iterations: int, block: int = 1
    ) -> None:
        if a.size % block or np.any(a.reshape(-1, block) != a[::block, None]):
            raise ValueError(
                f"block must divide the bins and a be constant on its blocks, got {block!r}"
            )
        self.a, self.b, self.block = a, b, int(block)
        self.sensitivity = float(np.max(a + b.sum(axis=0)))
        self.optimised, self.iterations = float(optimised), int(iterations)
        self._dinv = 1.0 / a**2
        self._bd = b * self._dinv  # B Dg⁻¹ (p, n)
        self._m = np.eye(b.shape[0]) + self._bd @ b.T  # M = I + B Dg⁻¹ Bᵀ

    @property
    def p(self) -> int:
        return self.b.shape[0]

    def measure(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """A x: the weighted bins (n,) and the aggregates (p,)."""
        return self.a * x, self.b @ x

    def solve(self, y_id: np.ndarray, y_agg: np.ndarray) -> np.ndarray:
        """(AᵀA)⁻¹Aᵀy for measurements y_id (R, n), y_agg (R, p): the least-squares histograms (R, n)."""
        rhs = self.a * y_id + y_agg @ self.b  # Aᵀy
        t = rhs * self._dinv
        corr = np.linalg.solve(self._m, self._bd @ rhs.T).T  # M⁻¹ B Dg⁻¹ Aᵀy
        return t - corr @ self._bd

    def total_squared_error(self, workload: RangeQueries) -> float:
        """‖W A⁺‖²_F of this (rounded) strategy: Σ_j c_j/a_j² − tr(M⁻¹YYᵀ), Y = B Dg⁻¹ Wᵀ; a and B are constant on
        blocks of ``block`` bins, so YYᵀ = Z G Zᵀ with Z the blocks' columns of B Dg⁻¹ and G the blocks' Gram matrix
        (``_block_gram``): memory and time do not grow with the number of queries."""
        _bounds(workload)
        k = self.block
        gram, g = _block_gram(workload, k)
        zc = self._bd[:, ::k]
        t = np.linalg.solve(self._m, zc @ gram)
        return float(np.dot(g, self._dinv[::k]) - np.sum(zc * t))


def _on_grid(v: np.ndarray) -> np.ndarray:
    return np.floor(v / HDMM_GRID) * HDMM_GRID


@functools.lru_cache(maxsize=16)
def _strategy(workload: RangeQueries, p: int, block: int, maxiter: int) -> HdmmStrategy:
    n = workload.shape[0]
    nc = n // block
    # HDMM's random start, from a fixed stream: the strategy is data-independent and the same in every run
    theta0 = np.random.default_rng(np.random.SeedSequence([47, n, p, block])).random((p, nc))
    scale = 1.0 / max(1, workload.m)  # an objective of order one for the optimiser's tolerances

    def fun(t: np.ndarray) -> tuple[float, np.ndarray]:
        value, grad = hdmm_objective(t.reshape(p, nc), workload, block=block)
        return value * scale, grad.ravel() * scale

    res = optimize.minimize(
        fun,
        theta0.ravel(),
        jac=True,
        method="L-BFGS-B",
        bounds=[(0.0, None)] * (p * nc),
        options={"maxiter": maxiter},
    )
    theta = np.repeat(res.x.reshape(p, nc), block, axis=1)
    s = 1.0 + theta.sum(axis=0)
    a = np.maximum(_on_grid(1.0 / s), HDMM_GRID)
    b = _on_grid(theta / s)  # rounded down: every column's L1 norm stays <= 1
    return HdmmStrategy(a, b, res.fun / scale, res.nit, block)


def hdmm_strategy(
    workload: RangeQueries,
    *,
    p: int | None = None,
    block: int | None = None,
    maxiter: int = HDMM_MAXITER,
) -> HdmmStrategy:
    """HDMM's OPT₀ strategy for a 1-D range workload (``mckenna2018optimizing``): Θ (p × n, default p = n/16)
    from L-BFGS-B on :func:`hdmm_objective` (bounds Θ ≥ 0, at most ``maxiter`` iterations, a fixed random start),
    rounded to :data:`HDMM_GRID`. Data-independent; computed once per (workload, p, maxiter) per process."""
    _bounds(workload)
    n = workload.shape[0]
    p = hdmm_p(n) if p is None else check_int(p, "p", minimum=1)
    k = hdmm_block(n) if block is None else check_int(block, "block", minimum=1)
    if n % k:
        raise ValueError(f"block must divide the {n} bins, got {block!r}")
    maxiter = check_int(maxiter, "maxiter", minimum=1)
    return _strategy(workload, p, k, maxiter)


def hdmm(
    x: ArrayLike,
    epsilon: float,
    rng: np.random.Generator,
    *,
    workload: RangeQueries,
    p: int | None = None,
    size: int | None = None,
) -> np.ndarray:
    """HDMM (``mckenna2018optimizing``) on a 1-D histogram: y = A x + Lap(Δ/ε) for the optimised p-Identity strategy
    A of ``workload`` (:func:`hdmm_strategy`), then the least-squares histogram (AᵀA)⁻¹Aᵀy by Woodbury.

    ε-DP, add-remove neighbours: one record changes x by a unit vector e_j, so A x by column j of A, whose L1 norm is
    at most Δ = max_j (a_j + Σ_i b_ij) ≤ 1, computed on the rounded matrix that runs. Draws: the n + p Laplace
    variates of each repetition, row-major over (repetition, measurement: bins then aggregates)."""
    arr, eps, rng, reps = prepare(x, epsilon, rng, size)
    strategy = hdmm_strategy(workload, p=p)
    if workload.shape != arr.shape:
        raise ValueError(f"workload must be on {arr.size} bins, got {workload.shape[0]}")
    y_id, y_agg = strategy.measure(arr)
    noise = rng.laplace(0.0, strategy.sensitivity / eps, size=(reps, arr.size + strategy.p))
    est = strategy.solve(y_id + noise[:, : arr.size], y_agg + noise[:, arr.size :])
    return finish(est, size)


def hdmm_expected_mse(workload: RangeQueries, epsilon: float, *, p: int | None = None) -> float:
    """The workload MSE HDMM has in expectation: 2(Δ/ε)²·‖W A⁺‖²_F / |W| for the strategy that runs."""
    eps = check_epsilon(epsilon)
    strategy = hdmm_strategy(workload, p=p)
    return (
        2.0
        * (strategy.sensitivity / eps) ** 2
        * strategy.total_squared_error(workload)
        / workload.m
    )
