"""Baseline DP histogram publishers: Identity, Uniform, a hierarchical tree (H_b), AHP and P-HP.

Every function has the signature ``f(x, epsilon, rng, *, <parameters>, size=None)``: ``x`` is a histogram of
counts (n bins), the result is the noisy histogram, shape ``(n,)`` or ``(size, n)`` for ``size`` independent
releases (vectorized over repetitions). Neighbours: add-remove (one record more or less changes one bin by 1, so the
histogram has L1 sensitivity 1); every function is ε-DP under that relation (see :func:`privacy_claim` in
:mod:`dpcompendium.histograms`).
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import ArrayLike

from ..mechanisms import laplace_mechanism
from ..validation import check_int, check_sensitivity
from ._common import finish, prepare, release_groups, share

__all__ = ["ahp", "hierarchical", "identity", "php", "uniform"]


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
    branching: int = 16,
    size: int | None = None,
) -> np.ndarray:
    """H_b: a b-ary tree of range counts with least-squares consistency (``hay2010boosting``, ``qardaji2013understanding``).

    The domain is padded with zeros to N = b^h bins; all h + 1 levels (root included) get Lap((h+1)/ε) noise
    (a record touches one node per level: Δ₁ = h + 1, ε-DP add-remove). Constrained inference, with levels numbered
    i = 1 (leaves) … h+1 (root): bottom-up z_v = (b^i − b^{i−1})/(b^i − 1)·ỹ_v + (b^{i−1} − 1)/(b^i − 1)·Σ_children z_u;
    top-down ȳ_u = z_u + (ȳ_parent − Σ_siblings z_w)/b. The leaves ȳ are the released histogram.
    """
    arr, eps, rng, reps = prepare(x, epsilon, rng, size)
    b = check_int(branching, "branching", minimum=2)
    n = arr.size
    h = 1
    while b**h < n:
        h += 1
    levels = [np.zeros(b**h)]
    levels[0][:n] = arr
    for _ in range(h):
        levels.append(levels[-1].reshape(-1, b).sum(axis=1))
    scale = (h + 1) / eps
    noisy = [lvl + rng.laplace(0.0, scale, size=(reps, lvl.size)) for lvl in levels]
    z = [noisy[0]]
    for i in range(2, h + 2):
        child_sum = z[-1].reshape(reps, -1, b).sum(axis=2)
        w_self = (b**i - b ** (i - 1)) / (b**i - 1)
        w_child = (b ** (i - 1) - 1) / (b**i - 1)
        z.append(w_self * noisy[i - 1] + w_child * child_sum)
    est = z[-1]
    for i in range(h - 1, -1, -1):
        zc = z[i].reshape(reps, -1, b)
        est = (zc + ((est - zc.sum(axis=2)) / b)[..., None]).reshape(reps, -1)
    return finish(est[:, :n], size)


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


def _ahp_greedy(s: np.ndarray, c: float) -> np.ndarray:
    """AHP's greedy clustering of sorted rows: start a new cluster at j when extending the current one costs at
    least the look-ahead cost of starting afresh. Cluster cost = SSE + c/size. Returns cluster-start flags."""
    reps, n = s.shape
    prefix = np.concatenate([np.zeros((reps, 1)), np.cumsum(s, axis=1)], axis=1)
    prefix2 = np.concatenate([np.zeros((reps, 1)), np.cumsum(s**2, axis=1)], axis=1)
    star = _ahp_lookahead(s, c)
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


def ahp(
    x: ArrayLike,
    epsilon: float,
    rng: np.random.Generator,
    *,
    ratio: float = 0.85,
    eta: float = 0.35,
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
    ratio = share(ratio, "ratio")
    eta = check_sensitivity(eta, "eta")
    n = arr.size
    eps1, eps2 = ratio * eps, (1.0 - ratio) * eps
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

    def __call__(self, a: np.ndarray, t: np.ndarray) -> np.ndarray:
        mu = (self.prefix[t] - self.prefix[a]) / (t - a)
        k = np.searchsorted(self.values, mu, side="right")
        c = self.count[t, k] - self.count[a, k]
        low = self.total[t, k] - self.total[a, k]
        return np.maximum(2.0 * (c * mu - low), 0.0)


def php(
    x: ArrayLike,
    epsilon: float,
    rng: np.random.Generator,
    *,
    ratio: float = 0.5,
    depth: int | None = None,
    size: int | None = None,
) -> np.ndarray:
    """P-HP (``acs2012differentially``): recursive bisection of the ordered bins with the exponential mechanism, then
    Lap(1/ε₂) on every part's sum, spread uniformly.

    Budget ε₁ = ratio·ε for partitioning, ε₂ = ε − ε₁ for counts. At each of ``depth`` levels (default ⌈log₂ n⌉)
    every unfinished part [a, b) picks, with ε₁/depth, either "stop" (score −(SAE[a,b) + 1/ε₂)) or a split point t
    (score −(SAE[a,t) + SAE[t,b) + 2/ε₂)), 1/ε₂ being the expected absolute noise of one part; SAE = Σ|x_i − mean|
    has sensitivity 2. ε-DP, add-remove: parts of one level are disjoint (parallel composition), levels compose
    sequentially (ε₁), the part sums have Δ₁ = 1 (ε₂).
    """
    arr, eps, rng, reps = prepare(x, epsilon, rng, size)
    ratio = share(ratio, "ratio")
    n = arr.size
    d = max(1, math.ceil(math.log2(n))) if depth is None else check_int(depth, "depth", minimum=1)
    eps1, eps2 = ratio * eps, (1.0 - ratio) * eps
    eps_level = eps1 / d
    noise_err = 1.0 / eps2
    sae = _SAE(arr)
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
        m = bb - aa  # candidates per part: stop + (m − 1) split points
        seg = np.repeat(np.arange(m.size), m)
        pos = np.arange(seg.size) - np.repeat(np.cumsum(m) - m, m)
        a_c, b_c = aa[seg], bb[seg]
        t = a_c + pos
        split = pos > 0
        score = np.empty(seg.size)
        score[~split] = -(sae(aa, bb) + noise_err)
        score[split] = -(sae(a_c[split], t[split]) + sae(t[split], b_c[split]) + 2.0 * noise_err)
        key = score * (eps_level / (2.0 * 2.0)) + rng.gumbel(size=seg.size)
        order = np.lexsort((key, seg))
        pick = order[np.cumsum(m) - 1]
        stop = pos[pick] == 0
        final[rr[stop], aa[stop]] = True
        starts[rr[~stop], t[pick[~stop]]] = True
    labels = np.cumsum(starts, axis=1) - 1
    return finish(release_groups(arr, labels, n, eps2, rng), size)
