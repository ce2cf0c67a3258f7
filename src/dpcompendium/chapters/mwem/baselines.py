"""Non-adaptive baselines for MWEM on the same workload (``hay2016principled``): least squares over every workload
query measured with Laplace noise (the matrix mechanism's estimator with the workload itself as its strategy);
Identity is :func:`~dpcompendium.chapters.mwem.core.identity_histogram`.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from ...core.experiments import RangeQueries
from ...core.mechanisms import laplace_mechanism
from ...core.privacy import PrivacyClaim
from ...core.validation import check_array, check_epsilon, check_int, check_rng

__all__ = ["least_squares_claim", "least_squares_workload", "workload_sensitivity"]

#: the largest domain for which the exact replace-one sensitivity is computed (an N × N Gram matrix)
_EXACT_MAX_CELLS = 4096


def workload_sensitivity(queries: RangeQueries, neighbours: str = "replace-one") -> float:
    """The L1 sensitivity of the vector of all workload answers W·B.

    Add-remove: the largest number of queries that contain one cell, max_x c(x). Replace-one (a record moves from
    cell x to cell y): max over x ≠ y of the number of queries containing exactly one of them,
    c(x) + c(y) − 2·#(queries containing both), computed exactly from the Gram matrix WᵀW up to
    4096 cells (above, the bound 2·max_x c(x)).
    """
    if neighbours not in ("replace-one", "add-remove"):
        raise ValueError(f"neighbours must be replace-one|add-remove, got {neighbours!r}")
    W = queries.matrix().astype(float)  # (m, N)
    c = W.sum(axis=0)
    if neighbours == "add-remove":
        return float(c.max())
    if W.shape[1] < 2:
        return 0.0 if W.shape[1] == 0 else float(c.max())
    if W.shape[1] > _EXACT_MAX_CELLS:
        return float(2.0 * c.max())
    both = W.T @ W
    diff = c[:, None] + c[None, :] - 2.0 * both
    np.fill_diagonal(diff, 0.0)
    return float(diff.max())


def least_squares_workload(
    hist: ArrayLike,
    queries: RangeQueries,
    epsilon: float,
    rng: np.random.Generator,
    *,
    neighbours: str = "replace-one",
    reps: int = 1,
) -> np.ndarray:
    """Measure every workload query with Laplace noise, then fit the histogram by least squares.

    y = W·B + Lap(Δ_W/ε)^m, Δ_W = :func:`workload_sensitivity`; x̂ = W⁺y (the minimum-norm least-squares solution,
    ``numpy.linalg.pinv``), so that the released answers W·x̂ are the projection of y on the range of W: consistent,
    and never noisier than y. ε-DP under ``neighbours`` (Laplace mechanism on a vector of L1 sensitivity Δ_W, then
    post-processing). Returns x̂, shape ``(reps, *hist.shape)``; vectorized over repetitions.
    """
    h = check_array(hist, "hist", ndim=None)
    if h.shape != queries.shape:
        raise ValueError(f"hist must have the workload's shape {queries.shape}, got {h.shape}")
    eps = check_epsilon(epsilon)
    rng = check_rng(rng)
    reps = check_int(reps, "reps", minimum=1)
    W = queries.matrix().astype(float)
    sens = workload_sensitivity(queries, neighbours)
    y = laplace_mechanism(queries.answer(h), sens, eps, rng, size=(reps, queries.m))
    x = y @ np.linalg.pinv(W).T  # (reps, N)
    return x.reshape(reps, *h.shape)


def least_squares_claim(
    epsilon: float, queries: RangeQueries, neighbours: str = "replace-one"
) -> PrivacyClaim:
    """ε-DP: the Laplace mechanism on the m workload answers (L1 sensitivity :func:`workload_sensitivity`), then
    least squares (post-processing)."""
    return PrivacyClaim(
        "least squares over all workload queries",
        neighbours,
        f"L1 {workload_sensitivity(queries, neighbours):g} for the {queries.m} workload answers",
        check_epsilon(epsilon),
    )
