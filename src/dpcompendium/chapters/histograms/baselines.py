"""Baseline DP histogram publishers: Identity, Uniform, Hb, Privelet, least squares, DAWA, AHP and P-HP.

Every function has the signature ``f(x, epsilon, rng, *, <parameters>, size=None)``: ``x`` is a histogram of
counts (n bins), the result is the noisy histogram, shape ``(n,)`` or ``(size, n)`` for ``size`` independent
releases (vectorized over repetitions). Neighbours: add-remove (one record more or less changes one bin by 1, so the
histogram has L1 sensitivity 1); every function is ε-DP under that relation (see ``privacy_claim`` in
:mod:`dpcompendium.chapters.histograms`).
"""

from __future__ import annotations

import functools
import math

import numpy as np
from numpy.typing import ArrayLike

from ...core._jit import compiled
from ...core.experiments import RangeQueries
from ...core.mechanisms import laplace_mechanism
from ...core.mechanisms.dawa import dawa as core_dawa
from ...core.mechanisms.ranges import hb
from ...core.mechanisms.ranges import least_squares as core_least_squares
from ...core.mechanisms.ranges import privelet as core_privelet
from ...core.validation import check_epsilon, check_int, check_sensitivity
from ._common import finish, prepare, release_groups, split_budget

__all__ = [
    "PHP_VARIANTS",
    "ahp",
    "dawa",
    "hierarchical",
    "identity",
    "least_squares",
    "php",
    "php_budget",
    "php_depth",
    "php_levelwise",
    "php_partition",
    "privelet",
    "uniform",
]


def identity(
    x: ArrayLike, epsilon: float, rng: np.random.Generator, *, size: int | None = None
) -> np.ndarray:
    """x̂_i = x_i + Lap(1/ε) (``dwork2006calibrating``). ε-DP, add-remove, Δ₁ = 1; variance 2/ε² per bin."""
    arr, eps, rng, reps = prepare(x, epsilon, rng, size)
    return finish(laplace_mechanism(arr, 1.0, eps, rng, size=(reps, arr.size)), size)


def uniform(
    x: ArrayLike, epsilon: float, rng: np.random.Generator, *, size: int | None = None
) -> np.ndarray:
    """x̂_i = (Σx + Lap(1/ε)) / n: only the total is measured (DPBench's Uniform, ``hay2016principled``).

    ε-DP, add-remove, Δ₁(Σx) = 1.
    """
    arr, eps, rng, reps = prepare(x, epsilon, rng, size)
    total = laplace_mechanism(arr.sum(), 1.0, eps, rng, size=(reps, 1))
    return finish(np.broadcast_to(total / arr.size, (reps, arr.size)).copy(), size)


def hierarchical(
    x: ArrayLike,
    epsilon: float,
    rng: np.random.Generator,
    *,
    branching: int | None = None,
    size: int | None = None,
) -> np.ndarray:
    """Hb: a b-ary tree of range counts with least-squares consistency (``hay2010boosting``,
    ``qardaji2013understanding``): :func:`dpcompendium.core.mechanisms.ranges.hb` under add-remove neighbours.

    The domain is padded with zeros to N = b^h bins; all h + 1 levels (root included) get Lap((h+1)/ε) noise
    (a record touches one node per level: Δ₁ = h + 1, ε-DP add-remove); the leaves of the least-squares
    consistent tree are the release. ``branching=None``: Qardaji et al.'s choice (16 for 4096 bins).
    """
    arr, eps, rng, _ = prepare(x, epsilon, rng, size)
    return hb(arr, eps, rng, branching=branching, size=size)


def privelet(
    x: ArrayLike, epsilon: float, rng: np.random.Generator, *, size: int | None = None
) -> np.ndarray:
    """Privelet (``xiao2011differential``): :func:`dpcompendium.core.mechanisms.ranges.privelet` (add-remove)."""
    arr, eps, rng, _ = prepare(x, epsilon, rng, size)
    return core_privelet(arr, eps, rng, size=size)


def least_squares(
    x: ArrayLike,
    epsilon: float,
    rng: np.random.Generator,
    *,
    workload: RangeQueries,
    size: int | None = None,
) -> np.ndarray:
    """Least squares over the workload itself (the matrix mechanism's estimator with the workload as strategy):
    :func:`dpcompendium.core.mechanisms.ranges.least_squares` with ``queries=workload`` (add-remove)."""
    arr, eps, rng, _ = prepare(x, epsilon, rng, size)
    return core_least_squares(arr, eps, rng, queries=workload, size=size)


#: The deviation kernel of the chapter's DAWA partitions (:func:`dpcompendium.core.mechanisms.dawa.dawa_deviations`):
#: the O(n log n) merge sort, as mwem's; about twice as fast as the core's default (Fenwick trees) on the noisy
#: histograms of the ``private`` variant. It may pick another of two partitions whose costs tie to the last bit, with
#: the same guarantee (issue 50); the audit keeps the core's default.
DAWA_ENGINE = "merge"


def dawa(
    x: ArrayLike,
    epsilon: float,
    rng: np.random.Generator,
    *,
    workload: RangeQueries,
    ratio: float = 0.25,
    calibration: str = "proved",
    size: int | None = None,
) -> np.ndarray:
    """DAWA (``li2014data``) for ``workload``: :func:`dpcompendium.core.mechanisms.dawa.dawa` (add-remove), its
    partition's deviations by the merge kernel (``DAWA_ENGINE``)."""
    arr, eps, rng, _ = prepare(x, epsilon, rng, size)
    return core_dawa(
        arr,
        eps,
        rng,
        workload=workload,
        ratio=ratio,
        calibration=calibration,
        size=size,
        engine=DAWA_ENGINE,
    )


# ---------------------------------------------------------------------------------------------------------------
# AHP
# ---------------------------------------------------------------------------------------------------------------


def _ahp_lookahead(s: np.ndarray, c: float) -> np.ndarray:
    """For sorted rows s (ascending), E*(j) = min_{m≥1} (s_j − mean(s_j..s_{j+m−1}))² + c/m², exactly.

    The bracket is non-decreasing in m on sorted data, so a block of lengths [m0, m1] certifies the minimum when
    its last value plus c/(n − j)² (the smallest possible noise term) exceeds the best so far. Inside a run of equal
    values the bracket is 0, so the scan starts at the end of the run.
    """
    reps, n = s.shape
    prefix = np.concatenate([np.zeros((reps, 1)), np.cumsum(s, axis=1)], axis=1)
    cols = np.arange(n)
    change = np.where(s[:, 1:] != s[:, :-1], cols[1:], n)
    marks = np.concatenate([change, np.full((reps, 1), n)], axis=1)
    run_end = np.minimum.accumulate(marks[:, ::-1], axis=1)[:, ::-1]
    run_len = run_end - cols  # lengths 1..run_len have a zero bracket
    best = c / run_len.astype(float) ** 2
    rr, jj = np.nonzero(run_end < n)
    m0 = run_len[rr, jj] + 1
    width = 8
    while rr.size:
        ms = m0[:, None] + np.arange(width)
        ends = jj[:, None] + ms
        valid = ends <= n
        ends = np.minimum(ends, n)
        mean = (prefix[rr[:, None], ends] - prefix[rr, jj][:, None]) / ms
        val = (s[rr, jj][:, None] - mean) ** 2 + c / ms**2
        val[~valid] = np.inf
        cur = np.minimum(best[rr, jj], val.min(axis=1))
        best[rr, jj] = cur
        last = ms[:, -1]
        last_end = jj + last
        done = last_end >= n
        mean_last = (prefix[rr, np.minimum(last_end, n)] - prefix[rr, jj]) / last
        bound = (s[rr, jj] - mean_last) ** 2 + c / (n - jj) ** 2
        done |= bound >= cur
        keep = ~done
        rr, jj, m0 = rr[keep], jj[keep], m0[keep] + width
        width *= 2
    return best


def _ahp_lookahead_loop(s, prefix, c, best):  # pragma: no cover - run compiled
    """:func:`_ahp_lookahead` bin by bin (compiled by :data:`_ahp_lookahead_scan`): the same blocks of lengths
    (8, 16, 32, … after the run of equal values), the same operations on each, the same stopping bound, so the
    same minima. ``prefix`` (R, n + 1) the prefix sums of the rows; fills ``best`` (R, n)."""
    reps, n = s.shape
    for r in range(reps):
        run_end = n
        for j in range(n - 1, -1, -1):
            if j + 1 < n and s[r, j + 1] != s[r, j]:
                run_end = j + 1
            run_len = run_end - j
            cur = c / float(run_len * run_len)
            if run_end < n:
                m0 = run_len + 1
                width = 8
                while True:
                    for m in range(m0, m0 + width):
                        if j + m > n:
                            break
                        mean = (prefix[r, j + m] - prefix[r, j]) / m
                        d = s[r, j] - mean
                        val = d * d + c / float(m * m)
                        if val < cur:
                            cur = val
                    last = m0 + width - 1
                    last_end = j + last
                    if last_end >= n:
                        break
                    mean_last = (prefix[r, last_end] - prefix[r, j]) / last
                    d = s[r, j] - mean_last
                    if d * d + c / float((n - j) * (n - j)) >= cur:
                        break
                    m0 += width
                    width *= 2
            best[r, j] = cur


_ahp_lookahead_scan = compiled(_ahp_lookahead_loop)


def _ahp_tables(
    s: np.ndarray, c: float, *, engine: str = "numba"
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """What the greedy scan reads, for sorted rows s: prefix sums of s and of s² (a zero column first), and the
    look-ahead costs E* of :func:`_ahp_lookahead` (``engine="numba"``: its compiled loop, the same values)."""
    zero = np.zeros((s.shape[0], 1))
    prefix = np.concatenate([zero, np.cumsum(s, axis=1)], axis=1)
    prefix2 = np.concatenate([zero, np.cumsum(s**2, axis=1)], axis=1)
    if engine == "numpy":
        return prefix, prefix2, _ahp_lookahead(s, c)
    star = np.empty(s.shape)
    _ahp_lookahead_scan()(np.ascontiguousarray(s), prefix, float(c), star)
    return prefix, prefix2, star


def _ahp_greedy_py(s: np.ndarray, c: float) -> np.ndarray:
    """AHP's greedy clustering of sorted rows: start a new cluster at j when extending the current one costs at
    least the look-ahead cost of starting afresh. Cluster cost = SSE + c/size. Returns cluster-start flags.
    The numpy reference of :func:`_ahp_greedy` (vectorized over rows, a Python loop over the n bins)."""
    reps, n = s.shape
    prefix, prefix2, star = _ahp_tables(s, c, engine="numpy")
    rows = np.arange(reps)
    start = np.zeros(reps, dtype=np.int64)
    last = np.full(reps, c)
    starts = np.zeros((reps, n), dtype=bool)
    starts[:, 0] = True
    for j in range(1, n):
        length = j + 1 - start
        tot = prefix[:, j + 1] - prefix[rows, start]
        sse = np.maximum(prefix2[:, j + 1] - prefix2[rows, start] - tot**2 / length, 0.0)
        now = sse + c / length
        cut = now >= last + star[:, j]
        starts[:, j] = cut
        start = np.where(cut, j, start)
        last = np.where(cut, c, now)
    return starts


def _ahp_greedy_loop(prefix, prefix2, star, c, starts):  # pragma: no cover - run compiled
    """The greedy scan of :func:`_ahp_greedy_py`, row by row, in loops (compiled by :data:`_ahp_greedy_scan`):
    the same operations in the same order on each row, so the same flags."""
    reps, n = starts.shape
    for r in range(reps):
        start = 0
        last = c
        starts[r, 0] = True
        for j in range(1, n):
            length = j + 1 - start
            tot = prefix[r, j + 1] - prefix[r, start]
            sse = max(prefix2[r, j + 1] - prefix2[r, start] - tot**2 / length, 0.0)
            now = sse + c / length
            cut = now >= last + star[r, j]
            starts[r, j] = cut
            if cut:
                start = j
                last = c
            else:
                last = now


_ahp_greedy_scan = compiled(_ahp_greedy_loop)


def _ahp_greedy(s: np.ndarray, c: float) -> np.ndarray:
    """:func:`_ahp_greedy_py` with its sequential scan over the bins compiled (numba): the same flags."""
    starts = np.zeros(s.shape, dtype=bool)
    _ahp_greedy_scan()(*_ahp_tables(s, c), float(c), starts)
    return starts


def ahp(
    x: ArrayLike,
    epsilon: float,
    rng: np.random.Generator,
    *,
    eta: float = 0.35,
    ratio: float = 0.85,
    size: int | None = None,
) -> np.ndarray:
    """AHP (``zhang2014towards``): noisy counts with ε₁ = ratio·ε, thresholding, sorting, greedy clustering, then
    Lap(1/ε₂) on every cluster's true sum (ε₂ = ε − ε₁), spread uniformly over the cluster.

    Threshold: noisy counts ≤ η·ln(n)/ε₁ become 0. Clustering cost of a cluster C of sorted noisy counts:
    SSE(C) + 2/(ε₂²|C|) (approximation + noise error). Defaults ratio = 0.85, η = 0.35 are DPBench's
    (``hay2016principled``). ε-DP, add-remove: ε₁ for the noisy histogram (Δ₁ = 1; thresholding, sorting and
    clustering are post-processing), ε₂ for the cluster sums (disjoint clusters, Δ₁ = 1).
    """
    arr, eps, rng, reps = prepare(x, epsilon, rng, size)
    eps1, eps2 = split_budget(eps, ratio)
    eta = check_sensitivity(eta, "eta")
    n = arr.size
    noisy = arr + rng.laplace(0.0, 1.0 / eps1, size=(reps, n))
    noisy = np.where(noisy <= eta * math.log(n) / eps1, 0.0, noisy)
    order = np.argsort(noisy, axis=1, kind="stable")
    s = np.take_along_axis(noisy, order, axis=1)
    starts = _ahp_greedy(s, 2.0 / eps2**2)
    labels_sorted = np.cumsum(starts, axis=1) - 1
    labels = np.empty_like(labels_sorted)
    np.put_along_axis(labels, order, labels_sorted, axis=1)
    return finish(release_groups(arr, labels, n, eps2, rng), size)


# ---------------------------------------------------------------------------------------------------------------
# P-HP
# ---------------------------------------------------------------------------------------------------------------


class _SAE:
    """Sum of absolute deviations from the mean of any bin range [a, t), in O(1) per query after an
    O(n·U) table (U distinct counts): SAE = Σ|x_i − μ| = 2(c·μ − L), with c and L the count and sum of the
    x_i ≤ μ in the range (because Σ(x_i − μ) = 0)."""

    def __init__(self, x: np.ndarray) -> None:
        self.values = np.unique(x)
        rank = np.searchsorted(self.values, x)
        n, u = x.size, self.values.size
        onehot = np.zeros((n + 1, u + 1))
        onehot[np.arange(1, n + 1), rank + 1] = 1.0
        self.count = np.cumsum(np.cumsum(onehot, axis=0), axis=1)
        onehot[np.arange(1, n + 1), rank + 1] = x
        self.total = np.cumsum(np.cumsum(onehot, axis=0), axis=1)
        self.prefix = np.concatenate([[0.0], np.cumsum(x)])

    @staticmethod
    def of(x: np.ndarray) -> _SAE:
        """The table of histogram ``x``, built once for consecutive calls on the same histogram (a sweep calls P-HP
        for every ε and variant of a dataset in a row; the table of a 4096-bin DPBench histogram with ~10³ distinct
        counts takes half a second). The table is only read."""
        return _sae_of_bytes(np.ascontiguousarray(x, dtype=float).tobytes())

    def __call__(self, a: np.ndarray, t: np.ndarray) -> np.ndarray:
        mu = (self.prefix[t] - self.prefix[a]) / (t - a)
        k = np.searchsorted(self.values, mu, side="right")
        # count[t, k] etc. as flat indices into the C-ordered tables: one `take` each (3× faster than indexing the
        # tables with two index arrays; the same entries)
        stride = self.count.shape[1]
        at, aa = t * stride + k, a * stride + k
        count, total = self.count.reshape(-1), self.total.reshape(-1)
        c = count.take(at) - count.take(aa)
        low = total.take(at) - total.take(aa)
        return np.maximum(2.0 * (c * mu - low), 0.0)


@functools.lru_cache(maxsize=1)
def _sae_of_bytes(data: bytes) -> _SAE:
    sae = _SAE(np.frombuffer(data, dtype=float))
    for table in (sae.values, sae.count, sae.total, sae.prefix):
        table.flags.writeable = False  # shared by the calls that reuse it
    return sae


def _php_sae(prefix, values, count, total, a, b):  # pragma: no cover - run compiled
    """SAE[a, b) by :class:`_SAE`'s formula, with the same operations (compiled inside :data:`_php_choose_scan`)."""
    mu = (prefix[b] - prefix[a]) / (b - a)
    lo, hi = 0, values.shape[0]
    while lo < hi:  # searchsorted right
        mid = (lo + hi) >> 1
        if values[mid] <= mu:
            lo = mid + 1
        else:
            hi = mid
    c = count[b, lo] - count[a, lo]
    low = total[b, lo] - total[a, lo]
    return max(2.0 * (c * mu - low), 0.0)


_php_sae_scan = compiled(_php_sae)


def _php_choose_loop(
    prefix, values, count, total, aa, bb, noise_err, scale, u, out_t, out_split, out_gain
):  # pragma: no cover - run compiled
    """The decisions of :func:`_php_choose_py`, part by part (compiled by :data:`_php_choose_scan`): for part
    [a, b) its candidates stop (position 0) and t = a + 1 … b − 1 in that order, with scores as the reference
    computes them (:func:`_php_sae`); the exponential mechanism by inverse CDF with the part's uniform ``u[p]``:
    weights exp(scale·(score − the part's largest score)), summed in candidate order, and the first candidate whose
    running sum exceeds u·(the sum) is chosen (the last one of positive weight if rounding leaves none)."""
    m_max = 0
    for p in range(aa.shape[0]):
        m_max = max(m_max, bb[p] - aa[p])
    score = np.empty(max(m_max, 1))
    weight = np.empty(max(m_max, 1))
    for p in range(aa.shape[0]):
        a, b = aa[p], bb[p]
        m = b - a
        stop = -(_php_sae(prefix, values, count, total, a, b) + noise_err)
        score[0] = stop
        top = stop
        for t in range(a + 1, b):
            left = _php_sae(prefix, values, count, total, a, t)
            right = _php_sae(prefix, values, count, total, t, b)
            s = -(left + right + 2.0 * noise_err)
            score[t - a] = s
            if s > top:
                top = s
        acc = 0.0
        for i in range(m):
            w = math.exp(scale * (score[i] - top))
            weight[i] = w
            acc += w
        target = u[p] * acc
        pick = -1
        run = 0.0
        for i in range(m):
            run += weight[i]
            if run > target:
                pick = i
                break
        if pick < 0:
            for i in range(m - 1, -1, -1):
                if weight[i] > 0:
                    pick = i
                    break
        out_t[p] = a + pick if pick > 0 else 0
        out_split[p] = pick > 0
        out_gain[p] = score[pick] - stop


_php_choose_scan = compiled(_php_choose_loop, _php_sae_scan)


def _php_choose(
    sae: _SAE,
    rr: np.ndarray,
    aa: np.ndarray,
    bb: np.ndarray,
    noise_err: float,
    scale: float,
    rng: np.random.Generator,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`_php_choose_py` with the scores and the choice compiled (numba): the same uniforms (one per part, in
    part order), so the same decisions."""
    u = rng.random(aa.size)
    t = np.empty(aa.size, dtype=np.int64)
    is_split = np.empty(aa.size, dtype=bool)
    gain = np.empty(aa.size)
    _php_choose_scan()(
        sae.prefix,
        sae.values,
        sae.count,
        sae.total,
        np.ascontiguousarray(aa, dtype=np.int64),
        np.ascontiguousarray(bb, dtype=np.int64),
        float(noise_err),
        float(scale),
        u,
        t,
        is_split,
        gain,
    )
    return t, is_split, gain


def _php_choose_py(
    sae: _SAE,
    rr: np.ndarray,
    aa: np.ndarray,
    bb: np.ndarray,
    noise_err: float,
    scale: float,
    rng: np.random.Generator,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One exponential-mechanism decision for every part [a, b) at once: "stop" (score −(SAE[a,b) + e)) or a split
    point t ∈ (a, b) (score −(SAE[a,t) + SAE[t,b) + 2e)), e = ``noise_err``; probabilities ∝ exp(scale·score),
    sampled by inverse CDF with one uniform per part (candidates in the order stop, a + 1, …, b − 1; issue 50: the
    Gumbel-max draw it replaces took one Gumbel variate per candidate, about half of P-HP's time). Returns (chosen
    split point or 0 for stop, is_split, score(chosen) − score(stop)). The numpy reference of :func:`_php_choose`."""
    m = bb - aa  # candidates per part: stop + (m − 1) split points
    seg = np.repeat(np.arange(m.size), m)
    pos = np.arange(seg.size) - np.repeat(np.cumsum(m) - m, m)
    a_c, b_c = aa[seg], bb[seg]
    t = a_c + pos
    split = pos > 0
    stop_score = -(sae(aa, bb) + noise_err)
    score = np.empty(seg.size)
    score[~split] = stop_score
    score[split] = -(sae(a_c[split], t[split]) + sae(t[split], b_c[split]) + 2.0 * noise_err)
    u = rng.random(m.size)
    starts = np.cumsum(m) - m
    top = np.maximum.reduceat(score, starts) if m.size else np.zeros(0)
    w = np.exp(scale * (score - top[seg]))
    pick = np.empty(m.size, dtype=np.int64)
    for p in range(m.size):  # each part's running sum, in candidate order
        run = np.cumsum(w[starts[p] : starts[p] + m[p]])
        hit = np.flatnonzero(run > u[p] * run[-1])
        pick[p] = hit[0] if hit.size else np.flatnonzero(w[starts[p] : starts[p] + m[p]] > 0)[-1]
    chosen = starts + pick
    is_split = pick > 0
    return np.where(is_split, t[chosen], 0), is_split, score[chosen] - stop_score


def php_depth(n: int) -> int:
    """The authors' tree depth ⌊log₂ n⌋ (``int(math.log(n, 2))`` in their code), at least 1."""
    n = check_int(n, "n", minimum=1)
    return max(1, n.bit_length() - 1)


def php_budget(
    epsilon: float, n: int, *, depth: int | None = None, ratio: float = 0.5
) -> dict[str, float]:
    """P-HP's budget accounting (authors' procedure, :func:`php`) for n bins.

    ``decision``: ε_cluster/(2·depth), the budget of one stop/split decision; ``decision_levels``: the most
    decisions one record meets (depth − 1, at least 1); ``partitioning`` = decision·decision_levels;
    ``allocated_partitioning`` = decision·depth = ε_cluster/2; ``selection`` = ε_cluster/2 (the final choice);
    ``counts`` = ε_count. ``total`` = partitioning + selection + counts ≤ ``allocated`` =
    allocated_partitioning + selection + counts = ε.
    """
    eps = check_epsilon(epsilon)
    eps_cluster, eps_count = split_budget(eps, ratio)
    n = check_int(n, "n", minimum=1)
    d = php_depth(n) if depth is None else check_int(depth, "depth", minimum=1)
    decision = eps_cluster / (2.0 * d)
    levels = float(max(1, d - 1)) if n >= 2 else 0.0
    out = {
        "decision": decision,
        "decision_levels": levels,
        "partitioning": decision * levels,
        "allocated_partitioning": decision * d,
        "selection": eps_cluster / 2.0,
        "counts": eps_count,
    }
    out["total"] = out["partitioning"] + out["selection"] + out["counts"]
    out["allocated"] = out["allocated_partitioning"] + out["selection"] + out["counts"]
    return out


def php_partition(
    x: ArrayLike,
    epsilon: float,
    rng: np.random.Generator,
    *,
    depth: int | None = None,
    max_parts: int = 2000,
    ratio: float = 0.5,
    size: int | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """The partition step of P-HP as its authors implemented it (see :func:`php`), vectorized over repetitions.

    Returns ``(starts, n_candidates)``: ``starts`` (R, n) bool marks the first bin of every part of the selected
    partition, ``n_candidates`` (R,) the number of intermediate partitions the final selection chose among.
    """
    arr, eps, rng, reps = prepare(x, epsilon, rng, size)
    eps_cluster, eps_count = split_budget(eps, ratio)
    n = arr.size
    d = php_depth(n) if depth is None else check_int(depth, "depth", minimum=1)
    cap = check_int(max_parts, "max_parts", minimum=1)
    noise_err = 1.0 / eps_count  # b = Δ/ε_count: the expected |noise| of one part's sum
    decide_scale = (
        eps_cluster / (2.0 * d) / (2.0 * 2.0)
    )  # EM: ε_cluster/(2·depth) per decision, Δu = 2
    final_scale = eps_cluster / 2.0 / (2.0 * 2.0)  # EM: ε_cluster/2 for the final choice, Δu = 2
    last_level = max(
        1, d - 1
    )  # parts at level d are finished when created (the root is always decided)
    sae = _SAE.of(arr)
    parts = np.ones(reps, dtype=np.int64)
    alive = np.ones(reps, dtype=bool)
    rr = np.arange(reps) if n >= 2 else np.zeros(0, dtype=np.int64)
    aa = np.zeros(rr.size, dtype=np.int64)
    bb = np.full(rr.size, n, dtype=np.int64)
    rec_r, rec_lvl, rec_a, rec_t, rec_split, rec_delta = [], [], [], [], [], []
    for level in range(1, last_level + 1):
        if rr.size == 0:
            break
        t, is_split, gain = _php_choose(sae, rr, aa, bb, noise_err, decide_scale, rng)
        # The authors decide one part at a time, breadth first (level by level, left to right), while the number of
        # parts is < n and <= max_parts; parts are sorted by (rep, start), so the executed decisions are a prefix.
        ones = is_split.astype(np.int64)
        run = np.cumsum(ones)
        first = np.searchsorted(rr, rr, side="left")
        before = parts[rr] + run - ones - (run[first] - ones[first])
        done = (before <= cap) & (before < n)
        alive &= np.bincount(rr[~done], minlength=reps) == 0
        rr, aa, bb, t, is_split, gain = (
            rr[done],
            aa[done],
            bb[done],
            t[done],
            is_split[done],
            gain[done],
        )
        parts += np.bincount(rr, weights=is_split, minlength=reps).astype(np.int64)
        rec_r.append(rr)
        rec_lvl.append(np.full(rr.size, level))
        rec_a.append(aa)
        rec_t.append(t)
        rec_split.append(is_split)
        rec_delta.append(-gain)
        keep = is_split & alive[rr]
        cr = np.concatenate([rr[keep], rr[keep]])
        ca = np.concatenate([aa[keep], t[keep]])
        cb = np.concatenate([t[keep], bb[keep]])
        nxt = cb - ca >= 2
        order = np.lexsort((ca[nxt], cr[nxt]))
        rr, aa, bb = cr[nxt][order], ca[nxt][order], cb[nxt][order]
    starts = np.zeros((reps, n), dtype=bool)
    starts[:, 0] = True
    if not rec_r:
        return starts, np.ones(reps, dtype=np.int64)
    r_all = np.concatenate(rec_r)
    order = np.lexsort((np.concatenate(rec_a), np.concatenate(rec_lvl), r_all))
    r_all = r_all[order]
    t_all = np.concatenate(rec_t)[order]
    s_all = np.concatenate(rec_split)[order]
    delta = np.concatenate(rec_delta)[order]
    # Candidates of the final selection: the initial partition and the partition after every decision, except
    # after a last decision that is a stop (the authors' loop then ends without recording it).
    last = np.append(r_all[1:] != r_all[:-1], True)
    cand = ~(last & ~s_all)
    r_c, t_c, s_c, d_c = r_all[cand], t_all[cand], s_all[cand], delta[cand]
    first = np.searchsorted(r_c, np.arange(reps), side="left")
    err0 = sae(np.zeros(1, dtype=np.int64), np.full(1, n))[0] + noise_err
    csum = np.cumsum(d_c)
    base = np.concatenate([[0.0], csum])[
        first
    ]  # cumulative error change before each rep's first decision
    total = err0 + csum - base[r_c]
    key0 = -err0 * final_scale + rng.gumbel(size=reps)
    key = -total * final_scale + rng.gumbel(size=r_c.size)
    best = np.full(reps, -np.inf)
    np.maximum.at(best, r_c, key)
    rank = np.arange(r_c.size) - first[r_c]
    win = (key == best[r_c]) & (key > key0[r_c])
    chosen = np.full(reps, -1)
    chosen[r_c[win]] = rank[win]
    use = s_c & (rank <= chosen[r_c])
    starts[r_c[use], t_c[use]] = True
    counts = np.bincount(r_c, minlength=reps) + 1
    return starts, counts


def _php_levelwise_partition(
    sae: _SAE,
    n: int,
    eps1: float,
    eps2: float,
    depth: int | None,
    rng: np.random.Generator,
    reps: int,
) -> np.ndarray:
    """The partition of P-HP's level-wise reading (``php(..., variant="level-wise")``): starts (R, n) bool."""
    d = max(1, math.ceil(math.log2(n))) if depth is None else check_int(depth, "depth", minimum=1)
    starts = np.zeros((reps, n), dtype=bool)
    starts[:, 0] = True
    final = np.zeros((reps, n), dtype=bool)
    for _ in range(d):
        rr, aa = np.nonzero(starts)
        nxt = np.append(aa[1:], n)
        same_row = np.append(rr[1:] == rr[:-1], False)
        bb = np.where(same_row, nxt, n)
        act = ~final[rr, aa] & (bb - aa >= 2)
        if not act.any():
            break
        rr, aa, bb = rr[act], aa[act], bb[act]
        t, is_split, _ = _php_choose(sae, rr, aa, bb, 1.0 / eps2, eps1 / d / (2.0 * 2.0), rng)
        final[rr[~is_split], aa[~is_split]] = True
        starts[rr[is_split], t[is_split]] = True
    return starts


#: The two readings of P-HP's procedure (:func:`php`'s ``variant``).
PHP_VARIANTS = ("private", "level-wise")


def php(
    x: ArrayLike,
    epsilon: float,
    rng: np.random.Generator,
    *,
    variant: str = "private",
    depth: int | None = None,
    max_parts: int = 2000,
    ratio: float = 0.5,
    size: int | None = None,
) -> np.ndarray:
    """P-HP (``acs2012differentially``) as its authors implemented it (the code DPBench runs, ``hay2016principled``).

    ε_cluster = ratio·ε partitions the ordered bins, ε_count = ε − ε_cluster measures the parts; b = 1/ε_count.

    1. Top-down bisection, breadth first. Every unfinished part [a, b) gets one exponential-mechanism decision with
       budget ε_cluster/(2·depth) and score sensitivity Δu = 2: "stop" (score −(SAE[a,b) + b)) or a split at t
       (score −(SAE[a,t) + SAE[t,b) + 2b)), SAE = Σ|x_i − mean| (Δ = 2). Parts of one bin or at level ``depth``
       (root = level 1; default ⌊log₂ n⌋, so depth − 1 levels of decisions) are finished; the loop stops when the
       partition has more than ``max_parts`` parts (2000 in DPBench; at most ``max_parts`` + 1 parts).
    2. The partition after every decision (and the initial one) is a candidate: a second exponential mechanism with
       budget ε_cluster/2 and Δu = 2 picks one with score −Σ_parts (SAE + b). A "stop" repeats the current partition,
       so a partition appears once per decision taken while it was current.
    3. Every part's true mean gets Lap(b)/m (Lap(1/ε_count) on its sum), clamped at 0, and is spread over its bins.

    ε-DP, add-remove: a record lies in one part per level, so it meets at most depth − 1 < depth decisions
    (≤ ε_cluster/2 by sequential composition; decisions on disjoint parts compose in parallel), the final selection
    spends ε_cluster/2 (a total error moves by ≤ 2), the part sums ε_count (Δ₁ = 1, disjoint parts); total ≤ ε.

    Deviations from the authors' code (none changes the distribution on DPBench's inputs except (a), a corner case):
    (a) when a split leaves every part finished, their loop calls the split step once more on the last part (a
    finished part at level ``depth``); if that draw splits it, parts beyond ``depth`` keep being split with no
    budget left for them — we end the loop there instead; (b) for n < 4 (depth 1) their level-2 parts are never
    marked finished — we finish them, as the budget requires; (c) decisions of one level are drawn together (each
    by inverse CDF from one uniform), which has the same distribution as their one-at-a-time draws because each
    decision depends only on its own part; (d) randomness comes from ``rng`` (theirs mixes numpy's and Python's global generators).

    ``variant="level-wise"`` (also :func:`php_levelwise`) is a level-wise reading of the bisection that is **not**
    the authors' procedure (this chapter's earlier P-HP; kept to show how much the published procedure's details
    matter): ``depth`` levels (default ⌈log₂ n⌉) of decisions with ε₁/depth each (ε₁ = ratio·ε; the authors spend
    ε_cluster/(2·depth)), no final selection among intermediate partitions (the last one is released), no cap on the
    parts (``max_parts`` is not used), no clamping at 0. Scores as above. ε-DP, add-remove: parts of a level are
    disjoint (parallel composition), levels compose sequentially (ε₁), the part sums have Δ₁ = 1 (ε₂ = ε − ε₁).
    """
    arr, eps, rng, reps = prepare(x, epsilon, rng, size)
    if variant not in PHP_VARIANTS:
        raise ValueError(f"variant must be one of {'|'.join(PHP_VARIANTS)}, got {variant!r}")
    eps_cluster, eps_count = split_budget(eps, ratio)
    if variant == "level-wise":
        starts = _php_levelwise_partition(
            _SAE.of(arr), arr.size, eps_cluster, eps_count, depth, rng, reps
        )
    else:
        starts, _ = php_partition(
            arr, eps, rng, depth=depth, max_parts=max_parts, ratio=ratio, size=reps
        )
    labels = np.cumsum(starts, axis=1) - 1
    out = release_groups(arr, labels, arr.size, eps_count, rng)
    return finish(out if variant == "level-wise" else np.maximum(out, 0.0), size)


#: P-HP's level-wise reading, ``php(..., variant="level-wise")`` (see :func:`php`); not the authors' procedure.
php_levelwise = functools.partial(php, variant="level-wise")
