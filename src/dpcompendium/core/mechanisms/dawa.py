"""DAWA (``li2014data``): a private partition of the domain into buckets of similar counts, then a workload-aware
hierarchical measurement of the bucket counts, answered by least squares.

1. **Partition** (ε₁ = ratio·ε). The cost of a bucket B of a 1-D histogram is its L1 deviation
   dev(B) = Σ_{i∈B} abs(x_i − mean_B(x)) (the error of spreading its count evenly) plus 1/ε₂ (the expected absolute
   noise of its measured count). Buckets of length 2^j ending at every cell (DPBench's approximate L1 partition,
   ``hay2016principled``) get the noisy cost dev(B) + Δ/ε₂ + Lap(λ_B); a dynamic programme returns the
   partition into such buckets with the least total noisy cost (ties: the longer last bucket). Adding a record to
   cell i moves dev(B) by at most Δ_L = 2(1 − 1/L) for every bucket B ∋ i of length L.
   *Privacy of the partition.* Every bucket's cost is noisy, single cells included, and not clamped. Fix every
   noise draw but that of the bucket B_P ∋ i of the released partition P; P wins iff that draw lies below a
   threshold (the buckets of competitors that share B_P compare as before), and one record moves the threshold by at most Δ_{L_P} + Δ_max
   (L_P the length of B_P: its own cost moves by Δ_{L_P}, a competitor's by up to Δ_max = 2(1 − 1/n)). With λ_B = (Δ_{L_B} + Δ_max)/ε₁ =
   2(2 − 1/L_B − 1/n)/ε₁ every released partition has probability ratio ≤ e^{ε₁} (``calibration="proved"``, the
   default). DPBench's code (``calibration="authors"``) uses half that scale, (2 − 1/L_B − 1/n)/ε₁, no noise on
   single cells, and clamps every noisy cost at Δ/ε₂, and counts the partition as ε₁. It is not ε₁-DP: the clamp
   makes a bucket's cost flat below Δ/ε₂, so a small shift of the competitors' costs can empty the event "P wins"
   (the half-line argument fails), and a cell that is a bucket of its own has no noise to absorb the shift; the
   histograms chapter's audit finds a partition whose probability moves by e^{3} at ε₁ = 1 (:func:`dawa_claim` is
   then not private). Without the clamp, the costs may be negative; the programme still finds the least total.
2. **Measurement** (ε₂ = ε − ε₁). On the buckets, a binary hierarchy (a node's left child takes ⌊n/2⌋ of its
   buckets; a block that no workload query tells apart is one leaf) whose node queries are weighted greedily, bottom
   up: a node keeps weight 1 − p for its own total and passes p to its subtree, p on the grid 1, 0.99, …, 0.01
   minimising the workload's expected squared error on the node's block, err(p) = (Σ err_children −
   (1 − p)²‖W_v u‖²/(p² + (1 − p)²k))/p², with u = (M_children)⁻¹1 and k = 1ᵀu (Sherman–Morrison for the added
   total; W_v the workload, reduced to buckets, on the node's block). The weights on every root-to-leaf path sum to
   1, so the weighted queries have L1 sensitivity Δ: Lap(Δ/ε₂) on each, then the least-squares bucket counts by a
   two-pass tree algorithm, spread evenly over each bucket's cells. DPBench's greedyH searches the same grid with a
   heuristic of its own (it scores (QᵀQ)² with a depth discount); we minimise the exact local error.

Δ = 1 under add-remove, 2 under replace-one. 2-D histograms are laid out along a Hilbert curve first (as DPBench's
DAWA 2-D), so a box query becomes a union of intervals. ε-DP in total (ε₁ + ε₂) with ``calibration="proved"``.
The partition's programme is compiled with numba (:func:`dawa_partition` ``engine="compiled"``, the default); a numpy
reference (``engine="numpy"``) gives bit-identical partitions. So is the greedy hierarchy's bottom-up pass
(:func:`greedy_hierarchy` ``engine``; weights equal to a few ulp, bit-identical on the chapters' workloads), and
the least squares (:func:`tree_least_squares` ``engine``: bit-identical). :func:`dawa` reduces the workload to the
buckets of all repetitions at once (``_reduce_pieces_forest``: the per-repetition pieces and weights, bit for bit).
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from .._jit import compiled
from ..experiments.ranges import RangeQueries
from ..messages import message, tex
from ..privacy import PrivacyClaim
from ..validation import check_array, check_epsilon, check_int, check_rng
from .ranges import neighbour_factor, prepare_histogram

__all__ = [
    "DAWA_CALIBRATIONS",
    "GreedyTree",
    "dawa",
    "dawa_claim",
    "dawa_deviations",
    "dawa_partition",
    "greedy_hierarchy",
    "hilbert_order",
    "noise_deviation",
    "tree_least_squares",
    "workload_pieces",
]

#: How the partition step is made private (``calibration``). ``"proved"``: partition noise scale 2(2 − 1/L − 1/n)/ε₁ on every bucket, single cells included, no clamp (ε₁-DP
#: by the argument of the module docstring);
#: ``"authors"``: DPBench's (2 − 1/L − 1/n)/ε₁, no noise on single cells, costs clamped at Δ/ε₂ (counted as ε₁;
#: it is not ε₁-DP).
#: ``"noisy-histogram"``: ε₁ buys a noisy histogram x̃ = x + Lap(Δ/ε₁)ⁿ and the least-cost partition is computed on
#: x̃ with no further noise (post-processing), each bucket's deviation less the mean deviation of the noise alone
#: (:func:`noise_deviation`, data-independent): ε₁-DP by the Laplace mechanism.
DAWA_CALIBRATIONS = ("proved", "authors", "noisy-histogram")

#: The grid of p (the share a node passes to its subtree): 1, 0.99, …, 0.01, as DPBench's greedyH.
_P_GRID = 1.0 - np.arange(100) / 100.0


# ------------------------------------------------------------------------------------------------ deviations
def _deviations_numpy(x: np.ndarray) -> np.ndarray:
    """dev of every bucket of length 2^j ending at cell i: (n, J+1), inf where 2^j > i + 1 (numpy reference).

    dev = (c_≤ − c_>)·μ − s_≤ + s_> with c, s the count and sum of the bucket's values ≤ μ and > μ, μ = S/L: exact
    for integer counts (the sums are exact in float64), as the compiled kernel computes it.
    """
    n = x.size
    levels = math.floor(math.log2(n)) + 1
    out = np.full((n, levels), np.inf)
    out[:, 0] = 0.0
    for j in range(1, levels):
        length = 2**j
        win = np.lib.stride_tricks.sliding_window_view(x, length)  # (n − L + 1, L)
        total = win.sum(axis=1)
        mu = total / length
        low = win <= mu[:, None]
        c_low = low.sum(axis=1).astype(float)
        s_low = np.where(low, win, 0.0).sum(axis=1)
        c_high = length - c_low
        s_high = total - s_low
        out[length - 1 :, j] = (c_low - c_high) * mu - s_low + s_high
    return out


def _deviations_loop(x, sorted_vals, ranks, out):  # pragma: no cover - run compiled
    """Compiled kernel of :func:`dawa_deviations`: per level, slide the window over Fenwick trees of the counts and
    sums by rank of value; the values ≤ μ are the ranks below searchsorted(sorted_vals, μ, 'right')."""
    n = x.shape[0]
    levels = out.shape[1]
    m = sorted_vals.shape[0]
    for i in range(n):
        out[i, 0] = 0.0
    for j in range(1, levels):
        length = 1 << j
        cnt = np.zeros(m + 1)
        sm = np.zeros(m + 1)
        total = 0.0
        for t in range(n):
            r = ranks[t] + 1
            while r <= m:
                cnt[r] += 1.0
                sm[r] += x[t]
                r += r & (-r)
            total += x[t]
            if t >= length:
                r = ranks[t - length] + 1
                while r <= m:
                    cnt[r] -= 1.0
                    sm[r] -= x[t - length]
                    r += r & (-r)
                total -= x[t - length]
            if t >= length - 1:
                mu = total / length
                lo, hi = 0, m
                while lo < hi:  # searchsorted right
                    mid = (lo + hi) // 2
                    if sorted_vals[mid] <= mu:
                        lo = mid + 1
                    else:
                        hi = mid
                r = lo
                c_low = 0.0
                s_low = 0.0
                while r > 0:
                    c_low += cnt[r]
                    s_low += sm[r]
                    r -= r & (-r)
                c_high = length - c_low
                s_high = total - s_low
                out[t, j] = (c_low - c_high) * mu - s_low + s_high
            else:
                out[t, j] = np.inf
    return out


def _deviations_merge_loop(x, out):  # pragma: no cover - run compiled
    """Kernel of :func:`dawa_deviations` ``engine="merge"``. Level by level (L = 2^j), the cells are sorted by value within
    aligned blocks of L (a bottom-up merge sort, one merge pass per level); a window ending in block k covers a
    suffix of block k − 1 and a prefix of block k, and in each of the two sorted blocks a pointer marks the values
    ≤ μ (the window's mean, from the running total of the numpy reference's order), moved as μ changes: the count
    and sum of the window's values ≤ μ are updated as cells enter, leave or cross μ. O(n) per level (plus the cells
    a mean crosses), O(n log n) in all."""
    n = x.shape[0]
    levels = out.shape[1]
    for i in range(n):
        out[i, 0] = 0.0
    pos = np.arange(n)  # cells sorted by value within aligned blocks of the current length
    val = x.copy()
    pos2 = np.empty(n, dtype=np.int64)
    val2 = np.empty(n)
    tot = np.empty(n)
    for j in range(1, levels):
        length = 1 << j
        half = length >> 1
        for b in range(0, n, length):  # merge the sorted halves of every aligned block
            i1, e1 = b, min(b + half, n)
            i2, e2 = e1, min(b + length, n)
            o = b
            while i1 < e1 and i2 < e2:
                if val[i2] < val[i1]:
                    val2[o] = val[i2]
                    pos2[o] = pos[i2]
                    i2 += 1
                else:
                    val2[o] = val[i1]
                    pos2[o] = pos[i1]
                    i1 += 1
                o += 1
            while i1 < e1:
                val2[o] = val[i1]
                pos2[o] = pos[i1]
                i1 += 1
                o += 1
            while i2 < e2:
                val2[o] = val[i2]
                pos2[o] = pos[i2]
                i2 += 1
                o += 1
        pos, pos2 = pos2, pos
        val, val2 = val2, val
        total = 0.0
        for t in range(n):  # the window sums, as the numpy reference's running total
            total += x[t]
            if t >= length:
                total -= x[t - length]
            tot[t] = total
        for t in range(min(length - 1, n)):
            out[t, j] = np.inf
        k = 1
        while (
            k * length <= n
        ):  # windows ending in block k (and, for k = 1, the one that is block 0)
            a0, a1 = (k - 1) * length, k * length
            a2 = min(a1 + length, n)
            t = a1 - 1
            mu = tot[t] / length
            c_low = 0.0
            s_low = 0.0
            pa = a0  # block k − 1: its values ≤ μ are val[a0:pa]
            while pa < a1 and val[pa] <= mu:
                c_low += 1.0
                s_low += val[pa]
                pa += 1
            pb = a1  # block k: val[a1:pb]
            while pb < a2 and val[pb] <= mu:
                pb += 1
            if k == 1:
                c_high = length - c_low
                s_high = tot[t] - s_low
                out[t, j] = (c_low - c_high) * mu - s_low + s_high
            for t in range(a1, a2):
                first = t - length + 1
                v = x[t - length]
                if v <= mu:
                    c_low -= 1.0
                    s_low -= v
                v = x[t]
                if v <= mu:
                    c_low += 1.0
                    s_low += v
                mu = tot[t] / length
                # the window is the cells of block k − 1 from ``first`` and those of block k up to t
                while pa < a1 and val[pa] <= mu:
                    if pos[pa] >= first:
                        c_low += 1.0
                        s_low += val[pa]
                    pa += 1
                while pa > a0 and val[pa - 1] > mu:
                    pa -= 1
                    if pos[pa] >= first:
                        c_low -= 1.0
                        s_low -= val[pa]
                while pb < a2 and val[pb] <= mu:
                    if pos[pb] <= t:
                        c_low += 1.0
                        s_low += val[pb]
                    pb += 1
                while pb > a1 and val[pb - 1] > mu:
                    pb -= 1
                    if pos[pb] <= t:
                        c_low -= 1.0
                        s_low -= val[pb]
                c_high = length - c_low
                s_high = tot[t] - s_low
                out[t, j] = (c_low - c_high) * mu - s_low + s_high
            k += 1
    return out


_deviations_merge_kernel = compiled(_deviations_merge_loop)
_deviations_kernel = compiled(_deviations_loop)


def dawa_deviations(x: ArrayLike, *, engine: str = "compiled") -> np.ndarray:
    """The L1 deviation of every dyadic bucket of a 1-D histogram: (n, ⌊log₂ n⌋ + 1), entry (i, j) for the bucket
    of length 2^j ending at cell i (inf where it would start before cell 0). ``engine``: ``"compiled"`` (Fenwick trees,
    O(n log² n)), ``"merge"`` (a merge sort swept level by level, O(n log n), about 3× faster on 65 536 cells) or
    ``"numpy"`` (sliding windows, O(n²)); equal bit for bit on integer counts (every sum is exact), a few ulp of the
    bucket's total apart on real values (the sums in another order). ``"merge"`` is not the default: on a noisy
    histogram two partitions often cost exactly the same in exact arithmetic (buckets whose cells keep their side of
    the mean), and the programme's choice between them then follows those ulp (on ADULT at ε₁ = 0.025, 3 runs of 5
    change 2 bucket starts), so switching would change the chapters' stored DAWA results."""
    arr = check_array(x, "x", ndim=1)
    if engine == "numpy":
        return _deviations_numpy(arr)
    n = arr.size
    levels = math.floor(math.log2(n)) + 1
    if engine == "merge":
        return _deviations_merge_kernel()(
            np.ascontiguousarray(arr, dtype=float), np.empty((n, levels))
        )
    if engine != "compiled":
        raise ValueError(f"engine must be compiled|merge|numpy, got {engine!r}")
    sorted_vals, ranks = np.unique(
        arr, return_inverse=True
    )  # ranks: searchsorted(sorted_vals, arr)
    ranks = ranks.astype(np.int64)
    return _deviations_kernel()(arr, sorted_vals, ranks, np.empty((n, levels)))


# ------------------------------------------------------------------------------------------------ partition
def _partition_numpy(score: np.ndarray) -> np.ndarray:
    """Least-cost partitions for scores (R, n, J): returns starts (R, n) bool (numpy reference, loop over cells)."""
    reps, n, levels = score.shape
    cum = np.zeros((reps, n + 1))
    choice = np.zeros((reps, n), dtype=np.int64)
    lengths = 2 ** np.arange(levels)
    for i in range(n):
        valid = lengths <= i + 1
        lens = lengths[valid]
        cand = cum[:, i + 1 - lens] + score[:, i, : lens.size]
        # ties go to the longer bucket: argmin over the reversed level axis
        j = lens.size - 1 - np.argmin(cand[:, ::-1], axis=1)
        choice[:, i] = j
        cum[:, i + 1] = cand[np.arange(reps), j]
    starts = np.zeros((reps, n), dtype=bool)
    for r in range(reps):
        end = n
        while end > 0:
            start = end - int(lengths[choice[r, end - 1]])
            starts[r, start] = True
            end = start
    return starts


def _partition_row_loop(score, cum, choice, starts):  # pragma: no cover - run compiled
    """One repetition of the least-cost partition: the scores (n, J), the scratch ``cum`` (n + 1) and ``choice``
    (n), the starts (n) set in place. The step of :func:`_partition_loop` and :func:`_partition_scored_loop` (each
    calls it compiled)."""
    n, levels = score.shape
    cum[0] = 0.0
    for i in range(n):
        best = np.inf
        bj = 0
        for j in range(levels):
            length = 1 << j
            if length > i + 1:
                break
            c = cum[i + 1 - length] + score[i, j]
            if c <= best:
                best = c
                bj = j
        cum[i + 1] = best
        choice[i] = bj
    end = n
    while end > 0:
        start = end - (1 << choice[end - 1])
        starts[start] = True
        end = start


_partition_row_kernel = compiled(_partition_row_loop)


def _partition_loop(score, starts):  # pragma: no cover - run compiled
    """Compiled kernel of the least-cost partition: the same programme as :func:`_partition_numpy`."""
    reps, n, _ = score.shape
    cum = np.zeros(n + 1)
    choice = np.zeros(n, dtype=np.int64)
    for r in range(reps):
        _partition_row_loop(score[r], cum, choice, starts[r])
    return starts


_partition_kernel = compiled(_partition_loop, _partition_row_kernel)


def _partition_scored_loop(
    dev, base, draws, scales, clamp, starts
):  # pragma: no cover - run compiled
    """:func:`_partition_loop` on the costs dev + Δ/ε₂ + draw·λ_j (clamped below at Δ/ε₂ when ``clamp``), each
    computed with the numpy reference's operations ((dev + base) + draw·λ, then the clamp): the same costs bit for
    bit, one repetition's (n, J) at a time instead of the (R, n, J) arrays."""
    reps, n, levels = draws.shape
    cum = np.zeros(n + 1)
    choice = np.zeros(n, dtype=np.int64)
    score = np.empty((n, levels))
    for r in range(reps):
        for i in range(n):
            for j in range(levels):
                if (1 << j) > i + 1:
                    break
                sc = (dev[i, j] + base) + draws[r, i, j] * scales[j]
                if clamp and sc < base:
                    sc = base
                score[i, j] = sc
        _partition_row_loop(score, cum, choice, starts[r])
    return starts


_partition_scored_kernel = compiled(_partition_scored_loop, _partition_row_kernel)


def _partition_scales(n: int, eps1: float, factor: float, calibration: str) -> np.ndarray:
    """λ_j for buckets of length 2^j. ``proved``: (Δ_L + Δ_max)/ε₁ for every length, single cells included (their
    dev is always 0, but the noise on their cost is what absorbs a competitor's shift when the record's cell is a
    bucket of its own); ``authors``: half of it, and no noise on single cells (DPBench's code)."""
    if calibration not in DAWA_CALIBRATIONS:
        raise ValueError(
            f"calibration must be one of {'|'.join(DAWA_CALIBRATIONS)}, got {calibration!r}"
        )
    levels = math.floor(math.log2(n)) + 1
    lengths = 2.0 ** np.arange(levels)
    kappa = 2.0 if calibration == "proved" else 1.0
    scales = kappa * factor * (2.0 - 1.0 / lengths - 1.0 / n) / eps1
    if calibration == "authors":
        scales[0] = 0.0
    return scales


def dawa_partition(
    x: ArrayLike,
    epsilon: float,
    rng: np.random.Generator,
    *,
    ratio: float = 0.25,
    calibration: str = "proved",
    neighbours: str = "add-remove",
    size: int | None = None,
    engine: str = "compiled",
) -> np.ndarray:
    """DAWA's private partition of a 1-D histogram (step 1 of :func:`dawa`; ε₁ = ratio·ε, ε₂ = ε − ε₁ enters the
    costs as Δ/ε₂): starts (R, n) bool (or (n,)) marking the first cell of every bucket. ε₁-DP with
    ``calibration="proved"`` (2ε₁ with ``"authors"``). ``engine="numpy"`` runs the numpy reference."""
    arr = check_array(x, "x", ndim=1)
    eps = check_epsilon(epsilon)
    rng = check_rng(rng)
    reps = 1 if size is None else check_int(size, "size", minimum=1)
    eps1, eps2 = _split(eps, ratio)
    factor = neighbour_factor(neighbours)
    n = arr.size
    if calibration == "noisy-histogram":
        return _partition_noisy_histogram(arr, eps1, eps2, factor, rng, reps, engine, size is None)
    dev = dawa_deviations(arr, engine=engine)
    scales = _partition_scales(n, eps1, factor, calibration)
    base = factor / eps2
    chunk = max(1, 4_000_000 // (n * dev.shape[1]))
    out = np.zeros((reps, n), dtype=bool)
    for r0 in range(0, reps, chunk):
        r1 = min(reps, r0 + chunk)
        draws = rng.laplace(0.0, 1.0, size=(r1 - r0, n, dev.shape[1]))
        if engine == "numpy":
            score = dev + base + draws * scales
            if calibration == "authors":
                score = np.maximum(score, base)  # DPBench clamps each noisy cost at Δ/ε₂
            out[r0:r1] = _partition_numpy(score)
        else:  # the same costs, computed in the programme's loop (no temporaries)
            out[r0:r1] = _partition_scored_kernel()(
                dev,
                base,
                draws,
                scales,
                calibration == "authors",
                np.zeros((r1 - r0, n), dtype=np.bool_),
            )
    return out[0] if size is None else out


@functools.lru_cache(maxsize=8)
def noise_deviation(n: int, samples: int = 4000) -> tuple[np.ndarray, np.ndarray]:
    """Mean and standard deviation of Σ_{i∈B} abs(Z_i − mean_B Z) for B of length 2^j (j = 0 … ⌊log₂ n⌋), Z_i iid
    standard Laplace: the deviation that noise of scale 1 alone gives a bucket, by Monte Carlo on a fixed seed
    (data-independent)."""
    n = check_int(n, "n", minimum=1)
    levels = math.floor(math.log2(n)) + 1
    gen = np.random.default_rng(20140601)
    mean, sd = np.zeros(levels), np.zeros(levels)
    for j in range(1, levels):
        z = gen.laplace(0.0, 1.0, size=(max(64, samples >> max(0, j - 4)), 2**j))
        dev = np.abs(z - z.mean(axis=1, keepdims=True)).sum(axis=1)
        mean[j], sd[j] = float(dev.mean()), float(dev.std(ddof=1))
    return mean, sd


def _partition_noisy_histogram(
    arr: np.ndarray,
    eps1: float,
    eps2: float,
    factor: float,
    rng: np.random.Generator,
    reps: int,
    engine: str,
    single: bool,
) -> np.ndarray:
    """The ``"noisy-histogram"`` partition: x̃ = x + Lap(Δ/ε₁) per cell and repetition (the only use of the data),
    then the least-cost partition of x̃ (post-processing) with DAWA's cost, the deviation estimated from x̃: a bucket
    of length L costs dev(B; x̃) − (Δ/ε₁)·m_L + Δ/ε₂, with m_L the mean deviation of the noise alone
    (:func:`noise_deviation`), so that a flat stretch costs what it costs without noise, on average. (Counting only
    deviations above the noise's, or clamping at 0, over-merges dense histograms at small ε.)"""
    n = arr.size
    scale = factor / eps1
    correction = scale * noise_deviation(n)[0]
    base = factor / eps2
    noisy = arr[None, :] + rng.laplace(0.0, scale, size=(reps, n))
    out = np.zeros((reps, n), dtype=bool)
    if n <= 64:  # small domains (the audits): all repetitions at once, by sliding windows
        levels = correction.size
        dev = np.full((reps, n, levels), np.inf)
        dev[:, :, 0] = 0.0
        for j in range(1, levels):
            win = np.lib.stride_tricks.sliding_window_view(noisy, 2**j, axis=1)
            dev[:, 2**j - 1 :, j] = np.abs(win - win.mean(axis=2, keepdims=True)).sum(axis=2)
        score = dev - correction + base
        if engine == "numpy":
            out[:] = _partition_numpy(score)
        else:  # the same programme compiled (the reference's trace-back is a Python loop over repetitions)
            out[:] = _partition_kernel()(score, out)
        return out[0] if single else out
    for r in range(reps):
        dev = dawa_deviations(noisy[r], engine=engine)
        score = (dev - correction + base)[None]
        if engine == "numpy":
            out[r] = _partition_numpy(score)[0]
        else:
            out[r] = _partition_kernel()(score, np.zeros((1, n), dtype=np.bool_))[0]
    return out[0] if single else out


def _split(eps: float, ratio: float) -> tuple[float, float]:
    if (
        isinstance(ratio, bool)
        or not isinstance(ratio, int | float)
        or not 0.0 < float(ratio) < 1.0
    ):
        raise ValueError(f"ratio must be in (0, 1), got {ratio!r}")
    return float(ratio) * eps, (1.0 - float(ratio)) * eps


# ------------------------------------------------------------------------------------------------ workload pieces
def hilbert_order(side: int) -> tuple[np.ndarray, np.ndarray]:
    """Row and column of the t-th cell along a Hilbert curve over a side × side grid (side a power of 2)."""
    side = check_int(side, "side", minimum=1)
    if side & (side - 1):
        raise ValueError(f"side must be a power of 2, got {side}")
    t = np.arange(side * side)
    rx_, ry_ = np.zeros_like(t), np.zeros_like(t)
    xx, yy = np.zeros_like(t), np.zeros_like(t)
    s = 1
    while s < side:
        rx_ = 1 & (t // 2)
        ry_ = 1 & (t ^ rx_)
        # rotate the quadrant
        flip = (ry_ == 0) & (rx_ == 1)
        xx = np.where(flip, s - 1 - xx, xx)
        yy = np.where(flip, s - 1 - yy, yy)
        swap = ry_ == 0
        xx, yy = np.where(swap, yy, xx), np.where(swap, xx, yy)
        xx = xx + s * rx_
        yy = yy + s * ry_
        t = t // 4
        s *= 2
    return xx, yy


@functools.lru_cache(maxsize=16)
def workload_pieces(
    workload: RangeQueries,
) -> tuple[int, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The workload on DAWA's 1-D layout: ``(n, query, lo, hi, order)``. 1-D: one interval per query, ``order`` the
    identity. 2-D: the cells are laid out along a Hilbert curve over the grid padded to a power-of-2 square
    (``order[t]`` is the C-order index of the t-th cell, −1 for padding) and every box becomes the maximal runs of
    consecutive curve positions it covers. Cached per workload object."""
    if workload.ndim == 1:
        n = workload.shape[0]
        q = np.arange(workload.m)
        return n, q, workload.lo[:, 0].copy(), workload.hi[:, 0].copy(), np.arange(n)
    if workload.ndim != 2:
        raise ValueError(f"workload must be 1-D or 2-D for DAWA, got shape {workload.shape}")
    n1, n2 = workload.shape
    side = 1 << max(0, math.ceil(math.log2(max(n1, n2))))
    hx, hy = hilbert_order(side)
    inside = (hx < n1) & (hy < n2)
    order = np.where(inside, hx * n2 + np.minimum(hy, n2 - 1), -1)
    pos = np.full((side, side), -1, dtype=np.int64)
    pos[hx, hy] = np.arange(side * side)
    qs, ts = [], []
    for k in range(workload.m):
        block = pos[
            workload.lo[k, 0] : workload.hi[k, 0] + 1, workload.lo[k, 1] : workload.hi[k, 1] + 1
        ]
        ts.append(np.sort(block.ravel()))
        qs.append(np.full(block.size, k))
    t = np.concatenate(ts)
    q = np.concatenate(qs)
    new = np.ones(t.size, dtype=bool)
    new[1:] = (q[1:] != q[:-1]) | (t[1:] != t[:-1] + 1)
    first = np.flatnonzero(new)
    last = np.append(first[1:], t.size) - 1
    return side * side, q[first], t[first], t[last], order


def _pieces_in_buckets(q, lo, hi, ba, bb, bstart, bend, size, nb: int):
    """The intervals [lo, hi] of queries ``q`` (first and last bucket ``ba``, ``bb`` among the buckets starting at
    ``bstart``, ending at ``bend``, of ``size`` cells; ``nb`` buckets) as pieces (query, first bucket, last bucket,
    weight): the fully covered buckets, weight 1, then the partial pieces (an interval inside one bucket, its
    left and its right end) at the covered fraction, those of one query in one bucket merged."""
    fa = np.where(lo == bstart[ba], ba, ba + 1)  # first fully covered bucket
    fb = np.where(hi == bend[bb], bb, bb - 1)  # last fully covered bucket
    full = fa <= fb
    same = ba == bb
    left = ~full & same  # inside one bucket, not covering it
    lpart = ~same & (fa > ba)
    rpart = ~same & (fb < bb)
    pq = np.concatenate([q[left], q[lpart], q[rpart]])
    pb = np.concatenate([ba[left], ba[lpart], bb[rpart]])
    pw = np.concatenate(
        [
            (hi[left] - lo[left] + 1) / size[ba[left]],
            (bend[ba[lpart]] - lo[lpart] + 1) / size[ba[lpart]],
            (hi[rpart] - bstart[bb[rpart]] + 1) / size[bb[rpart]],
        ]
    )
    key, inv = np.unique(pq.astype(np.int64) * nb + pb, return_inverse=True)
    pw = np.bincount(inv, weights=pw, minlength=key.size)
    pq, pb = key // nb, key % nb
    fq = q[full]
    return (
        np.concatenate([fq, pq]),
        np.concatenate([fa[full], pb]),
        np.concatenate([fb[full], pb]),
        np.concatenate([np.ones(fq.size), pw]),
    )


def _reduce_pieces(pieces, starts: np.ndarray):
    """The workload's intervals reduced to buckets (``starts``: first cell of every bucket): pieces
    (query, first bucket, last bucket, weight) pairwise disjoint within a query, weight 1 on fully covered buckets
    and the covered fraction on a partly covered one (partial pieces of one query in one bucket are merged)."""
    _, q, lo, hi, _ = pieces
    bstart = np.flatnonzero(starts)
    nb = bstart.size
    bend = np.append(bstart[1:], starts.size) - 1
    size = (bend - bstart + 1).astype(float)
    ba = np.searchsorted(bstart, lo, side="right") - 1
    bb = np.searchsorted(bstart, hi, side="right") - 1
    return (nb, *_pieces_in_buckets(q, lo, hi, ba, bb, bstart, bend, size, nb))


def _reduce_pieces_forest(pieces, starts: np.ndarray, m: int):
    """:func:`_reduce_pieces` for every row of ``starts`` (R, n) at once, laid side by side as :func:`dawa`'s forest
    takes them: ``(offs, query, first bucket, last bucket, weight)`` with row r's buckets numbered from ``offs[r]``
    and its query ids shifted by r·m. The same pieces and weights as the rows' calls (a merged weight sums the same
    terms in the same order), in another order (:func:`greedy_hierarchy` sorts them)."""
    _, q, lo, hi, _ = pieces
    reps, n = starts.shape
    bstart = np.flatnonzero(starts)  # r·n + first cell, every row starting a bucket at its cell 0
    offs = np.concatenate([[0], np.cumsum(np.bincount(bstart // n, minlength=reps))])
    nbt = int(offs[-1])
    bend = np.append(bstart[1:], reps * n) - 1
    size = (bend - bstart + 1).astype(float)
    shift = np.arange(reps)[:, None]
    lo_g, hi_g = (lo[None, :] + n * shift).ravel(), (hi[None, :] + n * shift).ravel()
    q_g = (q[None, :] + m * shift).ravel()
    label = (
        np.cumsum(starts, axis=None) - 1
    )  # the bucket of every cell (the searchsorted of _reduce_pieces)
    ba, bb = label[lo_g], label[hi_g]
    return (offs, *_pieces_in_buckets(q_g, lo_g, hi_g, ba, bb, bstart, bend, size, nbt))


# ------------------------------------------------------------------------------------------------ greedy hierarchy
def _paint(lo: np.ndarray, hi: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For disjoint blocks [lo_j, hi_j): every covered position and the index j of its block."""
    length = hi - lo
    owner = np.repeat(np.arange(lo.size), length)
    pos = (
        np.arange(owner.size)
        - np.repeat(np.cumsum(length) - length, length)
        + np.repeat(lo, length)
    )
    return pos, owner


def _build_tree_numpy(bounds: np.ndarray, change: np.ndarray) -> tuple[np.ndarray, ...]:
    """The hierarchy's nodes level by level (numpy reference of :func:`_build_tree`): ``(lo, hi, depth, parent,
    left)`` for the roots [bounds_i, bounds_{i+1}) and the sorted piece boundaries ``change``."""
    n_roots = bounds.size - 1
    los, his = [bounds[:-1]], [bounds[1:]]
    deps, pars = [np.zeros(n_roots, dtype=np.int64)], [np.full(n_roots, -1)]
    count = n_roots
    lefts = []
    level_lo, level_hi, first = los[0], his[0], 0
    depth = 0
    while level_lo.size:
        inside = np.searchsorted(change, level_lo, side="right") < np.searchsorted(
            change, level_hi, side="left"
        )
        split = (level_hi - level_lo > 1) & inside
        left = np.full(level_lo.size, -1)
        k = int(split.sum())
        left[split] = count + 2 * np.arange(k)
        lefts.append(left)
        mid = level_lo[split] + (level_hi[split] - level_lo[split]) // 2
        child_lo = np.stack([level_lo[split], mid], axis=1).ravel()
        child_hi = np.stack([mid, level_hi[split]], axis=1).ravel()
        parent = np.repeat(first + np.flatnonzero(split), 2)
        depth += 1
        first = count
        count += 2 * k
        if k:
            los.append(child_lo)
            his.append(child_hi)
            deps.append(np.full(2 * k, depth))
            pars.append(parent)
        level_lo, level_hi = child_lo, child_hi
    lo_n, hi_n = np.concatenate(los), np.concatenate(his)
    dep, par, left = np.concatenate(deps), np.concatenate(pars), np.concatenate(lefts)
    return lo_n, hi_n, dep, par, left


def _build_tree_loop(bounds, mark, lo_n, hi_n, dep, par, left):  # pragma: no cover - run compiled
    """Compiled kernel of :func:`_build_tree`: the nodes level by level into arrays of capacity ≥ 2·nb + roots;
    returns the number of nodes. A node splits iff it has two buckets or more and a marked boundary strictly
    inside (lo, hi) (a prefix count of ``mark`` instead of binary searches)."""
    nb = mark.shape[0] - 1
    before = np.zeros(nb + 2, dtype=np.int64)  # before[i]: marked positions < i
    for i in range(nb + 1):
        before[i + 1] = before[i] + (1 if mark[i] else 0)
    n_roots = bounds.shape[0] - 1
    for i in range(n_roots):
        lo_n[i] = bounds[i]
        hi_n[i] = bounds[i + 1]
        dep[i] = 0
        par[i] = -1
    count = n_roots
    first = 0
    last = n_roots
    depth = 0
    while first < last:
        depth += 1
        for v in range(first, last):
            lo = lo_n[v]
            hi = hi_n[v]
            if hi - lo > 1 and before[hi] - before[lo + 1] > 0:
                left[v] = count
                mid = lo + (hi - lo) // 2
                lo_n[count] = lo
                hi_n[count] = mid
                lo_n[count + 1] = mid
                hi_n[count + 1] = hi
                dep[count] = depth
                dep[count + 1] = depth
                par[count] = v
                par[count + 1] = v
                count += 2
            else:
                left[v] = -1
        first = last
        last = count
    return count


_build_tree_kernel = compiled(_build_tree_loop)


def _build_tree(bounds: np.ndarray, mark: np.ndarray) -> tuple[np.ndarray, ...]:
    """The hierarchy's nodes level by level, compiled: the same arrays as :func:`_build_tree_numpy` (``mark``: the
    piece boundaries as a boolean array over positions 0 … nb)."""
    cap = 2 * (mark.size - 1) + bounds.size
    lo_n, hi_n, dep, par, left = (np.empty(cap, dtype=np.int64) for _ in range(5))
    nn = _build_tree_kernel()(bounds, mark, lo_n, hi_n, dep, par, left)
    return lo_n[:nn], hi_n[:nn], dep[:nn], par[:nn], left[:nn]


@dataclass(frozen=True)
class GreedyTree:
    """DAWA's weighted hierarchy over ``nb`` buckets (:func:`greedy_hierarchy`). Nodes are listed level by level
    (root first, each level in increasing position): block [``lo``, ``hi``), ``depth``, ``parent`` (−1 for the
    root), ``left`` (index of the left child, the right one follows; −1 for a leaf), ``weight`` of the node's own
    total query (0: not measured; a leaf's is the product of the shares passed down to it) and ``err``, per root, the
    expected squared workload error per unit noise variance of the chosen weights."""

    nb: int
    lo: np.ndarray
    hi: np.ndarray
    depth: np.ndarray
    parent: np.ndarray
    left: np.ndarray
    weight: np.ndarray
    err: np.ndarray

    @property
    def leaf(self) -> np.ndarray:
        return self.left < 0


def greedy_hierarchy(
    nb: int,
    pq: np.ndarray,
    pa: np.ndarray,
    pb: np.ndarray,
    pw: np.ndarray,
    *,
    roots: np.ndarray | None = None,
    engine: str = "compiled",
) -> GreedyTree:
    """The weighted binary hierarchy of DAWA's step 2 over ``nb`` buckets for the reduced workload pieces
    (query ``pq``, buckets ``pa`` … ``pb``, weight ``pw``; :func:`workload_pieces` reduced to buckets).

    A node's left child takes ⌊size/2⌋ of its buckets; a block of one bucket, or one on which every query's weight
    is constant (no piece boundary strictly inside), is a leaf (its buckets are estimated evenly). Bottom up, every
    internal node chooses the share p it passes to its subtree (own weight 1 − p) on the grid 1, 0.99, …, 0.01
    minimising err(p) (module docstring); vectorized over the nodes of a level. ``roots`` (boundaries
    0 = r_0 < … < r_R = nb) builds a forest, one tree per block [r_i, r_{i+1}) (independent problems laid side by
    side: no piece may cross a boundary, and query ids must differ between blocks); ``err`` then has one entry per
    root.

    ``engine``: ``"compiled"`` (the bottom-up levels in one numba kernel, ``_greedy_levels_loop``: per
    level O(buckets + pieces) with a bucket → node map, no temporaries) or ``"numpy"`` (the vectorized reference);
    they perform the same IEEE operations but sum a query's partial pieces in a node in another order, so the
    weights agree to a few ulp (``tests/test_core_range_mechanisms.py``).
    """
    # sorted by (query, first bucket): np.lexsort((pa, pq)), as one stable sort of a combined key
    order = np.argsort(np.asarray(pq, dtype=np.int64) * (nb + 1) + pa, kind="stable")
    pq, pa, pb, pw = pq[order], pa[order], pb[order], pw[order]
    if engine not in ("compiled", "numpy"):
        raise ValueError(f"engine must be compiled|numpy, got {engine!r}")
    mark = np.zeros(nb + 1, dtype=bool)  # the piece boundaries, sorted (np.unique without a sort)
    mark[pa] = True
    mark[pb + 1] = True
    change = np.flatnonzero(mark)
    d2 = np.bincount(pa, pw**2, nb + 1) - np.bincount(pb + 1, pw**2, nb + 1)
    colsq_cum = np.concatenate([[0.0], np.cumsum(np.cumsum(d2)[:nb])])
    # the tree, level by level
    bounds = np.array([0, nb]) if roots is None else np.asarray(roots, dtype=np.int64)
    n_roots = bounds.size - 1
    if engine == "compiled":
        lo_n, hi_n, dep, par, left = _build_tree(bounds, mark)
    else:
        lo_n, hi_n, dep, par, left = _build_tree_numpy(bounds, change)
    nn = lo_n.size
    leaf = left < 0
    u = np.zeros(nb)
    k_node = np.zeros(nn)
    err = np.zeros(nn)
    p_own = np.ones(nn)
    lv = np.flatnonzero(leaf)
    length = hi_n[lv] - lo_n[lv]
    pos, owner = _paint(lo_n[lv], hi_n[lv])
    u[pos] = 1.0 / length[owner]
    k_node[lv] = 1.0
    err[lv] = (colsq_cum[hi_n[lv]] - colsq_cum[lo_n[lv]]) / length
    p2 = _P_GRID**2
    w2 = (1.0 - _P_GRID) ** 2
    if engine == "compiled":
        _greedy_levels()(pq, pa, pb, pw, lo_n, hi_n, dep, left, u, k_node, err, p_own, _P_GRID)
    for dlev in range(int(dep.max()) if engine == "numpy" else -1, -1, -1):
        nodes = np.flatnonzero(~leaf & (dep == dlev))
        if nodes.size == 0:
            continue
        ucum = np.concatenate([[0.0], np.cumsum(u)])
        s, e = lo_n[nodes], hi_n[nodes]  # disjoint, increasing
        lc = left[nodes]
        k_ch = k_node[lc] + k_node[lc + 1]
        sumerr = err[lc] + err[lc + 1]
        # ‖W_v u‖²: a piece covering a whole node contributes (w·k_ch)² alone (pieces of one query are disjoint);
        # partial overlaps are summed per (query, node) first
        j1 = np.searchsorted(s, pa, side="left")
        j2 = np.searchsorted(e, pb + 1, side="right") - 1
        ok = j1 <= j2
        fullc = np.bincount(j1[ok], pw[ok] ** 2, nodes.size + 1) - np.bincount(
            j2[ok] + 1, pw[ok] ** 2, nodes.size + 1
        )
        full_w2 = np.cumsum(fullc)[: nodes.size]
        ja = np.searchsorted(s, pa, side="right") - 1
        jb = np.searchsorted(s, pb, side="right") - 1
        # candidates (piece, end): pieces are sorted by (query, position), so the candidates' (query, node) keys come
        # out sorted and equal keys are adjacent: summed by runs, no sort
        jj = np.stack([ja, jb], axis=1)
        at = np.stack([pa, pb], axis=1)
        jc = np.maximum(jj, 0)
        hit = (jj >= 0) & (at < e[jc])
        hit[:, 1] &= jb != ja  # a piece with both ends in one node is counted once
        partial = ~((pa[:, None] <= s[jc]) & (pb[:, None] >= e[jc] - 1))
        use = (hit & partial).ravel()
        jv = jc.ravel()[use]
        qv = np.repeat(pq, 2)[use]
        a_ = np.repeat(pa, 2)[use]
        b_ = np.repeat(pb, 2)[use]
        val = np.repeat(pw, 2)[use] * (
            ucum[np.minimum(b_, e[jv] - 1) + 1] - ucum[np.maximum(a_, s[jv])]
        )
        if val.size:
            new_run = np.ones(val.size, dtype=bool)
            new_run[1:] = (qv[1:] != qv[:-1]) | (jv[1:] != jv[:-1])
            run = np.flatnonzero(new_run)
            agg = np.add.reduceat(val, run)
            part_sq = np.bincount(jv[run], weights=agg**2, minlength=nodes.size)
        else:
            part_sq = np.zeros(nodes.size)
        mv = part_sq + full_w2 * k_ch**2
        table = (
            sumerr[:, None]
            - w2[None, :] * mv[:, None] / (p2[None, :] + w2[None, :] * k_ch[:, None])
        ) / p2
        g = np.argmin(table, axis=1)  # first minimiser: the largest p among ties
        p = _P_GRID[g]
        err[nodes] = table[np.arange(nodes.size), g]
        scale = 1.0 / (p**2 + w2[g] * k_ch)
        pos, owner = _paint(s, e)
        u[pos] *= scale[owner]
        k_node[nodes] = k_ch * scale
        p_own[nodes] = p
    reach = np.ones(nn)
    for dlev in range(1, int(dep.max()) + 1):
        v = np.flatnonzero(dep == dlev)
        reach[v] = reach[par[v]] * p_own[par[v]]
    weight = np.where(leaf, reach, reach * (1.0 - p_own))
    return GreedyTree(nb, lo_n, hi_n, dep, par, left, weight, err[:n_roots].copy())


def _greedy_levels_loop(
    pq, pa, pb, pw, lo_n, hi_n, dep, left, u, k_node, err, p_own, grid
):  # pragma: no cover
    """Compiled kernel of :func:`greedy_hierarchy`'s bottom-up pass (run compiled): the numpy reference's
    operations level by level, with the nodes of a level found through a bucket → node map instead of binary
    searches. Pieces are sorted by (query, first bucket); updates ``u``, ``k_node``, ``err`` and ``p_own``."""
    nb = u.shape[0]
    nn = lo_n.shape[0]
    npieces = pq.shape[0]
    ng = grid.shape[0]
    p2 = np.empty(ng)
    w2 = np.empty(ng)
    for g in range(ng):
        p2[g] = grid[g] ** 2
        w2[g] = (1.0 - grid[g]) ** 2
    ucum = np.empty(nb + 1)
    le_s = np.empty(nb + 1, dtype=np.int64)  # nodes of the level starting at or before position x
    lt_s = np.empty(nb + 1, dtype=np.int64)  # ... strictly before x
    # nodes of the level ending (exclusive end) at or before x
    le_e = np.empty(nb + 2, dtype=np.int64)
    mark_s = np.zeros(nb + 1, dtype=np.int64)
    mark_e = np.zeros(nb + 2, dtype=np.int64)
    nodes = np.empty(nn, dtype=np.int64)
    top = 0
    for v in range(nn):
        top = max(top, dep[v])
    level_start = np.zeros(
        top + 2, dtype=np.int64
    )  # nodes are listed level by level: depth is non-decreasing
    for v in range(nn):
        level_start[dep[v] + 1] = v + 1
    for dlev in range(top, -1, -1):
        k = 0
        for v in range(
            level_start[dlev], level_start[dlev + 1]
        ):  # the level's internal nodes, by position
            if left[v] >= 0:
                nodes[k] = v
                k += 1
        if k == 0:
            continue
        ucum[0] = 0.0
        for i in range(nb):
            ucum[i + 1] = ucum[i] + u[i]
        for i in range(k):
            mark_s[lo_n[nodes[i]]] = 1
            mark_e[hi_n[nodes[i]]] = 1
        acc_s = 0
        acc_e = 0
        for x in range(nb + 1):
            acc_s += mark_s[x]
            le_s[x] = acc_s
            lt_s[x] = acc_s - mark_s[x]
            acc_e += mark_e[x]
            le_e[x] = acc_e
        le_e[nb + 1] = acc_e + mark_e[nb + 1]
        plus = np.zeros(k + 1)
        minus = np.zeros(k + 1)
        part_sq = np.zeros(k)
        run_q = -1
        run_j = -1
        run_val = 0.0
        for i in range(npieces):
            a = pa[i]
            b = pb[i]
            w = pw[i]
            j1 = lt_s[a]
            j2 = le_e[b + 1] - 1
            if j1 <= j2:  # nodes the piece covers whole
                plus[j1] += w * w
                minus[j2 + 1] += w * w
            ja = le_s[a] - 1
            jb = le_s[b] - 1
            for end in range(2):
                jj = ja if end == 0 else jb
                at = a if end == 0 else b
                if jj < 0:
                    continue
                s = lo_n[nodes[jj]]
                e = hi_n[nodes[jj]]
                if at >= e or (end == 1 and jb == ja):
                    continue
                if a <= s and b >= e - 1:  # covers the node: counted in plus/minus
                    continue
                val = w * (ucum[min(b, e - 1) + 1] - ucum[max(a, s)])
                if pq[i] == run_q and jj == run_j:
                    run_val += val
                else:
                    if run_j >= 0:
                        part_sq[run_j] += run_val * run_val
                    run_q = pq[i]
                    run_j = jj
                    run_val = val
        if run_j >= 0:
            part_sq[run_j] += run_val * run_val
        full_w2 = 0.0
        for i in range(k):
            full_w2 += plus[i] - minus[i]
            v = nodes[i]
            lc = left[v]
            k_ch = k_node[lc] + k_node[lc + 1]
            sumerr = err[lc] + err[lc + 1]
            mv = part_sq[i] + full_w2 * k_ch**2
            best = np.inf
            bg = 0
            for g in range(ng):
                t = (sumerr - w2[g] * mv / (p2[g] + w2[g] * k_ch)) / p2[g]
                if t < best:
                    best = t
                    bg = g
            err[v] = best
            p = grid[bg]
            scale = 1.0 / (p**2 + w2[bg] * k_ch)
            for x in range(lo_n[v], hi_n[v]):
                u[x] *= scale
            k_node[v] = k_ch * scale
            p_own[v] = p
        for i in range(k):
            mark_s[lo_n[nodes[i]]] = 0
            mark_e[hi_n[nodes[i]]] = 0


_greedy_levels = compiled(_greedy_levels_loop)


def _tree_least_squares_loop(
    weight, left, parent, lo, hi, y, counts
):  # pragma: no cover - run compiled
    """Compiled kernel of :func:`tree_least_squares`: the numpy reference's operations node by node (children
    before parents bottom up, parents before children top down: nodes are listed level by level), the same IEEE
    operations in the same order for every value, so the same bits."""
    nn = weight.shape[0]
    prec = np.zeros(nn)
    var = np.zeros(nn)
    child_var = np.zeros(nn)
    for v in range(nn):
        if weight[v] > 0:
            prec[v] = weight[v] * weight[v]
    for v in range(nn - 1, -1, -1):
        lc = left[v]
        if lc < 0:
            var[v] = 1.0 / prec[v] if prec[v] != 0.0 else np.inf
        else:
            cv = var[lc] + var[lc + 1]
            child_var[v] = cv
            var[v] = 1.0 / (prec[v] + 1.0 / cv) if prec[v] > 0 else cv
    est = np.zeros(nn)
    child_sum = np.zeros(nn)
    final = np.zeros(nn)
    for r in range(y.shape[0]):
        for v in range(nn - 1, -1, -1):
            z = y[r, v] / weight[v] if weight[v] > 0 else 0.0
            lc = left[v]
            if lc < 0:
                est[v] = z
            else:
                cs = est[lc] + est[lc + 1]
                child_sum[v] = cs
                est[v] = var[v] * (prec[v] * z + cs / child_var[v]) if prec[v] > 0 else cs
        for v in range(nn):
            p = parent[v]
            if p < 0:
                final[v] = est[v]
            else:
                final[v] = est[v] + var[v] / child_var[p] * (final[p] - child_sum[p])
            if left[v] < 0:
                share = final[v] / (hi[v] - lo[v])
                for x in range(lo[v], hi[v]):
                    counts[r, x] = share
    return counts


_tree_least_squares_kernel = compiled(_tree_least_squares_loop)


def tree_least_squares(tree: GreedyTree, y: np.ndarray, *, engine: str = "compiled") -> np.ndarray:
    """Least-squares bucket counts (R, nb) from y (R, nodes): y_v = weight_v·(count of block v) + noise, equal
    noise on every measured node. Two passes over the levels: bottom up, a node's estimate combines its own
    measurement and its children's (inverse-variance weights); top down, the discrepancy between a node and the sum
    of its children is shared in proportion to their variances. Leaves that are blocks spread evenly.
    ``engine``: ``"compiled"`` (one numba pass, ``_tree_least_squares_loop``) or ``"numpy"`` (the vectorized
    reference, level by level); equal bit for bit."""
    if engine == "compiled":
        yy = np.ascontiguousarray(y, dtype=float)
        counts = np.zeros((yy.shape[0], tree.nb))
        return _tree_least_squares_kernel()(
            np.ascontiguousarray(tree.weight, dtype=float),
            np.ascontiguousarray(tree.left, dtype=np.int64),
            np.ascontiguousarray(tree.parent, dtype=np.int64),
            np.ascontiguousarray(tree.lo, dtype=np.int64),
            np.ascontiguousarray(tree.hi, dtype=np.int64),
            yy,
            counts,
        )
    if engine != "numpy":
        raise ValueError(f"engine must be compiled|numpy, got {engine!r}")
    w = tree.weight
    meas = w > 0
    z = np.where(meas, y / np.where(meas, w, 1.0), 0.0)
    prec = np.where(meas, w**2, 0.0)
    est = np.zeros_like(z)
    var = np.zeros(w.size)
    leaf = tree.leaf
    est[:, leaf] = z[:, leaf]
    var[leaf] = 1.0 / prec[leaf]
    child_sum = np.zeros_like(z)
    child_var = np.zeros(w.size)
    top = int(tree.depth.max())
    for dlev in range(top, -1, -1):
        v = np.flatnonzero(~leaf & (tree.depth == dlev))
        if v.size == 0:
            continue
        lc = tree.left[v]
        cs = est[:, lc] + est[:, lc + 1]
        cv = var[lc] + var[lc + 1]
        child_sum[:, v], child_var[v] = cs, cv
        own = prec[v] > 0
        var[v] = np.where(own, 1.0 / (prec[v] + 1.0 / cv), cv)
        est[:, v] = np.where(own, var[v] * (prec[v] * z[:, v] + cs / cv), cs)
    final = est.copy()
    for dlev in range(1, top + 1):
        v = np.flatnonzero(tree.depth == dlev)
        p = tree.parent[v]
        final[:, v] = est[:, v] + var[v] / child_var[p] * (final[:, p] - child_sum[:, p])
    lv = np.flatnonzero(leaf)
    pos, owner = _paint(tree.lo[lv], tree.hi[lv])
    counts = np.zeros((y.shape[0], tree.nb))
    counts[:, pos] = final[:, lv[owner]] / (tree.hi[lv] - tree.lo[lv])[owner]
    return counts


def dawa(
    x: ArrayLike,
    epsilon: float,
    rng: np.random.Generator,
    *,
    workload: RangeQueries,
    ratio: float = 0.25,
    calibration: str = "proved",
    neighbours: str = "add-remove",
    size: int | None = None,
    engine: str = "compiled",
) -> np.ndarray:
    """DAWA (``li2014data``; see the module docstring): partition with ε₁ = ratio·ε, measure the buckets for
    ``workload`` with ε₂ = ε − ε₁, least squares, spread evenly. 1-D or 2-D histograms (2-D along a Hilbert curve).
    ε-DP (add-remove or replace-one) with ``calibration="proved"``; see :func:`dawa_claim`. ``engine``: the
    partition's deviation kernel (:func:`dawa_deviations`; ``"merge"`` is faster and may pick another of two
    equal-cost partitions; the privacy claim is the same whatever the engine)."""
    arr, eps, rng, reps = prepare_histogram(x, epsilon, rng, size)
    if not isinstance(workload, RangeQueries) or workload.shape != arr.shape:
        raise ValueError(f"workload must be a RangeQueries on shape {arr.shape}, got {workload!r}")
    _, eps2 = _split(eps, ratio)
    factor = neighbour_factor(neighbours)
    pieces = workload_pieces(workload)
    n, order = pieces[0], pieces[4]
    flat = np.zeros(n)
    inside = order >= 0
    flat[inside] = arr.ravel()[order[inside]]
    starts = dawa_partition(
        flat,
        eps,
        rng,
        ratio=ratio,
        calibration=calibration,
        neighbours=neighbours,
        size=reps,
        engine=engine,
    )
    out = np.empty((reps, arr.size))
    cells = order[inside]
    batch = 64
    for r0 in range(0, reps, batch):
        r1 = min(reps, r0 + batch)
        # the repetitions' problems side by side: a forest with one tree per repetition
        sb = starts[r0:r1]
        offs, pq, pa, pb, pw = _reduce_pieces_forest(pieces, sb, workload.m)
        n_buckets = int(offs[-1])
        tree = greedy_hierarchy(n_buckets, pq, pa, pb, pw, roots=offs)
        labels = (
            np.cumsum(sb, axis=None).reshape(sb.shape) - 1
        )  # bucket of every cell, numbered across the forest
        bsum = np.bincount(labels.ravel(), weights=np.tile(flat, r1 - r0), minlength=n_buckets)
        bcum = np.concatenate([[0.0], np.cumsum(bsum)])
        true = bcum[tree.hi] - bcum[tree.lo]
        y = tree.weight * true + rng.laplace(0.0, factor / eps2, size=tree.weight.size)
        counts = tree_least_squares(tree, y[None, :])[0]
        dens = counts / np.bincount(labels.ravel(), minlength=n_buckets)
        out[r0:r1, cells] = dens[labels[:, inside]]
    out = out.reshape((reps, *arr.shape))
    return out[0] if size is None else out


def dawa_claim(
    epsilon: float,
    *,
    ratio: float = 0.25,
    calibration: str = "proved",
    neighbours: str = "add-remove",
) -> PrivacyClaim:
    """DAWA's guarantee: ε-DP (ε₁ + ε₂) with ``calibration="proved"`` or ``"noisy-histogram"``; with ``"authors"`` (DPBench's code) the claim
    is not private, with the reason."""
    eps = check_epsilon(epsilon)
    eps1, eps2 = _split(eps, ratio)
    f = neighbour_factor(neighbours)
    if calibration not in DAWA_CALIBRATIONS:
        raise ValueError(
            f"calibration must be one of {'|'.join(DAWA_CALIBRATIONS)}, got {calibration!r}"
        )
    numbers = {"f": tex(f"{f:g}"), "e1": tex(f"{eps1:.4g}"), "e2": tex(f"{eps2:.4g}")}
    sens = message("claims.dawa.sens_proved", **numbers)
    conds = (message("claims.dawa.public"),)
    if calibration == "noisy-histogram":
        sens = message("claims.dawa.sens_noisy_histogram", **numbers)
        return PrivacyClaim(
            message("claims.dawa.mech_noisy_histogram"),
            neighbours,
            sens,
            eps,
            conditions=conds,  # type: ignore[arg-type]
        )
    if calibration == "proved":
        return PrivacyClaim("dawa", neighbours, sens, eps, conditions=conds)  # type: ignore[arg-type]
    return PrivacyClaim(
        message("claims.dawa.mech_authors"),
        neighbours,  # type: ignore[arg-type]
        sens,
        eps,
        private=False,
        why=message("claims.dawa.why_authors", e1=numbers["e1"]),
        conditions=conds,
    )
