"""Range-query workloads over a 1-D histogram, and the error metrics of the chapter.

A workload is a set of half-open ranges ``[lo, hi)`` over the bins; its answers on a histogram ``x`` are
``P[hi] - P[lo]`` with ``P`` the prefix sums of ``x`` (so a whole workload costs O(n + |W|)). Metrics:

- :func:`workload_mse` — mean over queries of ``(Wx - Wx̂)²``;
- :func:`scaled_l1` — DPBench's scaled per-query L1 error ``‖Wx - Wx̂‖₁ / (|W| · scale)``, scale = number of
  records ``Σx`` (``hay2016principled``).

Both are vectorized over leading axes of the estimate (e.g. repetitions).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from ...core.validation import check_array, check_epsilon, check_int, check_rng

__all__ = [
    "RangeWorkload",
    "all_prefixes",
    "identity_expected_mse",
    "random_ranges",
    "scaled_l1",
    "workload_answers",
    "workload_mse",
]


@dataclass(frozen=True)
class RangeWorkload:
    """Ranges ``[lo[q], hi[q])`` over ``n`` bins (``0 <= lo < hi <= n``)."""

    lo: np.ndarray
    hi: np.ndarray
    n: int
    name: str = "ranges"

    def __post_init__(self) -> None:
        lo, hi = np.asarray(self.lo), np.asarray(self.hi)
        if lo.shape != hi.shape or lo.ndim != 1 or lo.size == 0:
            raise ValueError(
                f"lo and hi must be non-empty 1-D arrays of one shape, got {lo.shape}, {hi.shape}"
            )
        if np.any(lo < 0) or np.any(hi > self.n) or np.any(hi <= lo):
            raise ValueError(f"ranges must satisfy 0 <= lo < hi <= n={self.n}")

    @property
    def lengths(self) -> np.ndarray:
        return self.hi - self.lo

    def __len__(self) -> int:
        return int(self.lo.size)


def random_ranges(
    n: int, n_queries: int, lengths: tuple[int, int], rng: np.random.Generator
) -> RangeWorkload:
    """``n_queries`` ranges with length uniform on the integers of ``lengths`` (inclusive) and a uniform start."""
    n = check_int(n, "n", minimum=1)
    n_queries = check_int(n_queries, "n_queries", minimum=1)
    rng = check_rng(rng)
    if not (isinstance(lengths, tuple | list) and len(lengths) == 2):
        raise ValueError(f"lengths must be a pair (min, max), got {lengths!r}")
    lmin = check_int(lengths[0], "lengths[0]", minimum=1, maximum=n)
    lmax = check_int(lengths[1], "lengths[1]", minimum=lmin, maximum=n)
    length = rng.integers(lmin, lmax + 1, size=n_queries)
    lo = rng.integers(0, n - length + 1)
    return RangeWorkload(lo, lo + length, n, name=f"random ranges {lmin}-{lmax}")


def all_prefixes(n: int) -> RangeWorkload:
    """The ``n`` prefix ranges ``[0, t)``, t = 1..n."""
    n = check_int(n, "n", minimum=1)
    return RangeWorkload(np.zeros(n, dtype=np.int64), np.arange(1, n + 1), n, name="all prefixes")


def workload_answers(workload: RangeWorkload, x: ArrayLike) -> np.ndarray:
    """Answers of every range on ``x`` (shape ``(..., n)``) → shape ``(..., |W|)``."""
    arr = check_array(x, "x", ndim=(1, 2))
    if arr.shape[-1] != workload.n:
        raise ValueError(f"x must have {workload.n} bins, got shape {arr.shape}")
    prefix = np.concatenate([np.zeros((*arr.shape[:-1], 1)), np.cumsum(arr, axis=-1)], axis=-1)
    return prefix[..., workload.hi] - prefix[..., workload.lo]


def workload_mse(workload: RangeWorkload, x: ArrayLike, estimate: ArrayLike) -> np.ndarray | float:
    """Mean squared error over the workload, (1/|W|) Σ_q (q(x) - q(x̂))², per leading index of ``estimate``."""
    err = workload_answers(workload, estimate) - workload_answers(workload, x)
    out = np.mean(err**2, axis=-1)
    return float(out) if np.ndim(out) == 0 else out


def scaled_l1(
    workload: RangeWorkload, x: ArrayLike, estimate: ArrayLike, scale: float | None = None
) -> np.ndarray | float:
    """DPBench's error ‖Wx - Wx̂‖₁ / (|W| · scale), scale = Σx unless given (``hay2016principled``)."""
    true = np.asarray(x, dtype=float)
    s = float(true.sum()) if scale is None else float(scale)
    if not s > 0:
        raise ValueError(f"scale must be > 0, got {s!r}")
    err = workload_answers(workload, estimate) - workload_answers(workload, true)
    out = np.mean(np.abs(err), axis=-1) / s
    return float(out) if np.ndim(out) == 0 else out


def identity_expected_mse(workload: RangeWorkload, epsilon: float) -> float:
    """Closed form for Identity: a range of L bins carries the sum of L Lap(1/ε) draws, variance 2L/ε²; so the
    workload MSE has expectation (2/ε²) · mean(L)."""
    eps = check_epsilon(epsilon)
    return 2.0 / eps**2 * float(np.mean(workload.lengths))
