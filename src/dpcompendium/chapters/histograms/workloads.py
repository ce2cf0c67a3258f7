"""Range-query workloads over a 1-D histogram, and the error metrics of the chapter.

A workload is a :class:`~dpcompendium.core.experiments.ranges.RangeQueries` of half-open ranges ``[lo, hi)`` over the
bins (:meth:`~dpcompendium.core.experiments.ranges.RangeQueries.half_open`; stored, as every ``RangeQueries``, with
the inclusive bounds ``lo … hi − 1``); its answers on a histogram ``x`` are ``P[hi] - P[lo]`` with ``P`` the prefix
sums of ``x`` (so a whole workload costs O(n + |W|)). Metrics:

- :func:`workload_mse` — mean over queries of ``(Wx - Wx̂)²``;
- :func:`scaled_l1` — DPBench's scaled per-query L1 error ``‖Wx - Wx̂‖₁ / (|W| · scale)``, scale = number of
  records ``Σx`` (``hay2016principled``).

Both are vectorized over leading axes of the estimate (e.g. repetitions).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from ...core.experiments import RangeQueries
from ...core.validation import check_epsilon, check_int, check_rng

__all__ = [
    "all_prefixes",
    "identity_expected_mse",
    "random_ranges",
    "scaled_l1",
    "workload_mse",
]


def random_ranges(
    n: int, n_queries: int, lengths: tuple[int, int], rng: np.random.Generator
) -> RangeQueries:
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
    return RangeQueries.half_open(n, lo, lo + length, name=f"random ranges {lmin}-{lmax}")


def all_prefixes(n: int) -> RangeQueries:
    """The ``n`` prefix ranges ``[0, t)``, t = 1..n."""
    n = check_int(n, "n", minimum=1)
    return RangeQueries.half_open(
        n, np.zeros(n, dtype=np.int64), np.arange(1, n + 1), name="all prefixes"
    )


def _errors(workload: RangeQueries, x: ArrayLike, estimate: ArrayLike) -> np.ndarray:
    """q(x̂) − q(x) for every query (last axis), stored query-major (Fortran order for a batch of estimates): a mean
    over the queries then adds them one by one for each estimate, the summation order the chapter's tables were
    computed in (numpy's pairwise sum along a contiguous row rounds the last digit differently)."""
    return np.asfortranarray(workload.answer(estimate) - workload.answer(x))


def workload_mse(workload: RangeQueries, x: ArrayLike, estimate: ArrayLike) -> np.ndarray | float:
    """Mean squared error over the workload, (1/|W|) Σ_q (q(x) - q(x̂))², per leading index of ``estimate``."""
    out = np.mean(_errors(workload, x, estimate) ** 2, axis=-1)
    return float(out) if np.ndim(out) == 0 else out


def scaled_l1(
    workload: RangeQueries, x: ArrayLike, estimate: ArrayLike, scale: float | None = None
) -> np.ndarray | float:
    """DPBench's error ‖Wx - Wx̂‖₁ / (|W| · scale), scale = Σx unless given (``hay2016principled``)."""
    true = np.asarray(x, dtype=float)
    s = float(true.sum()) if scale is None else float(scale)
    if not s > 0:
        raise ValueError(f"scale must be > 0, got {s!r}")
    out = np.mean(np.abs(_errors(workload, true, estimate)), axis=-1) / s
    return float(out) if np.ndim(out) == 0 else out


def identity_expected_mse(workload: RangeQueries, epsilon: float) -> float:
    """Closed form for Identity: a range of L bins carries the sum of L Lap(1/ε) draws, variance 2L/ε²; so the
    workload MSE has expectation (2/ε²) · mean(L)."""
    eps = check_epsilon(epsilon)
    return 2.0 / eps**2 * float(np.mean(workload.lengths))
