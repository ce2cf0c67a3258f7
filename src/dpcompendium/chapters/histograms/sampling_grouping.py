"""The source's method: DP histogram publication by sampling-based grouping (``src_histograms``).

Steps of the source (S1–S6): split ε = ε₁ + ε₂; pick k group centres among the bins k-means++ style (first at
random, each next one by roulette on the distance d(i) to the nearest chosen centre); assign every other bin to a
group with the exponential mechanism, score u(h_i, g_j) = −|h_i − c_j|, Δu = 1, budget ε₁,

    Pr[bin i → g_j] = exp(ε₁ u(h_i, g_j) / (2Δu)) / Σ_{l=1..k} exp(ε₁ u(h_i, g_l) / (2Δu))

(the formula the text lost, reconstructed from its description and ``mcsherry2007mechanism``); replace every bin by
its group's mean, add Laplace noise with ε₂ and restore the bin order.

Two independent questions, kept apart:

* **Privacy of the grouping (centres).** ``variant="as-written"``: centres are chosen from the true counts and their
  true counts c_j enter every score. It is **not** ε-DP (see ``privacy_claim``): the centre choice spends no
  budget and can put zero probability on an event that a neighbour makes possible, and one record in a centre bin
  moves the scores of all n − k bins. ``variant="private"`` spends ε₀ = centre_share·ε on a noisy histogram
  h̃ = h + Lap(1/ε₀), chooses the centres on h̃ and uses their noisy counts c̃_j in the scores (post-processing), so a
  record moves one bin's score only (parallel composition over bins: ε₁). Total ε₀ + ε₁ + ε₂ = ε.
* **Reading of S5** ("add Laplace noise of size ε₂" to the group means, with no sensitivity stated). Reading
  ``mean``: Lap(1/ε₂) on each group mean (sensitivity taken as 1). Reading ``sum``: noise scaled to the group's
  sensitivity, Lap(1/ε₂) on each group sum, i.e. Lap(1/(m_j ε₂)) on the mean of a group of m_j bins (a mean's
  sensitivity is 1/m_j). Both are ε₂-DP for a fixed grouping; the text supports either.

A variant name is ``"<centres>"`` or ``"<centres>:<reading>"``; the defaults are ``"as-written"`` = true centres with
reading ``mean`` and ``"private"`` = noisy centres with reading ``sum`` (see :data:`SG_VARIANTS`).
"""

from __future__ import annotations

import itertools
from typing import Literal

import numpy as np
from numpy.typing import ArrayLike
from scipy.special import log_softmax, softmax

from ...core._jit import compiled
from ...core.mechanisms import exponential_probabilities
from ...core.validation import check_array, check_epsilon, check_int, check_rng, check_sensitivity
from ._common import finish, group_means, prepare, share

__all__ = [
    "READINGS",
    "SG_VARIANTS",
    "VARIANTS",
    "assign_groups",
    "centre_pair_probabilities",
    "grouping_log_probability",
    "grouping_loss_per_bin",
    "grouping_privacy_loss",
    "kmeanspp_centres",
    "partition_probabilities",
    "sampling_grouping",
]

Variant = Literal[
    "as-written", "private", "as-written:mean", "as-written:sum", "private:mean", "private:sum"
]
#: How the centres are chosen: from the true counts (the patent's text) or from a noisy histogram.
VARIANTS: tuple[str, ...] = ("as-written", "private")
#: The two readings of S5: Lap(1/ε₂) on each group mean, or on each group sum (scaled to the group's sensitivity).
READINGS: tuple[str, ...] = ("mean", "sum")
#: Every (centres, reading) combination the chapter runs; the bare names carry the default reading.
SG_VARIANTS: tuple[str, ...] = ("as-written", "as-written:sum", "private", "private:mean")
_DEFAULT_READING = {"as-written": "mean", "private": "sum"}


def parse_variant(variant: str) -> tuple[str, str]:
    """``"<centres>[:<reading>]"`` → (centres ∈ :data:`VARIANTS`, reading ∈ :data:`READINGS`)."""
    centres, _, reading = str(variant).partition(":")
    if centres not in VARIANTS or (reading and reading not in READINGS):
        allowed = "|".join(f"{c}[:{'|'.join(READINGS)}]" for c in VARIANTS)
        raise ValueError(f"variant must be one of {allowed}, got {variant!r}")
    return centres, reading or _DEFAULT_READING[centres]


def _kmeanspp_loop(v, first, u, power, centres):  # pragma: no cover - run compiled
    """The k-means++ draws of :func:`kmeanspp_centres`, row by row (compiled by :data:`_kmeanspp_scan`): ``first``
    (R,) the first centres, ``u`` (k − 1, R) the uniforms of the next ones; fills ``centres`` (R, k). One pass over
    the bins per centre updates the running weights w = d^power with the previous centre and accumulates their
    cumulative sums; the draw is a binary search."""
    reps, n = v.shape
    k = centres.shape[1]
    w = np.empty(n)
    cdf = np.empty(n)
    chosen = np.zeros(n, dtype=np.bool_)
    for r in range(reps):
        c = first[r]
        centres[r, 0] = c
        chosen[:] = False
        chosen[c] = True
        for i in range(n):
            d = abs(v[r, i] - v[r, c])
            w[i] = d * d if power == 2.0 else d**power
        prev = -1
        for j in range(1, k):
            acc = 0.0
            if prev < 0:
                for i in range(n):
                    acc += w[i]
                    cdf[i] = acc
            else:
                for i in range(n):
                    d = abs(v[r, i] - v[r, prev])
                    d = d * d if power == 2.0 else d**power
                    if d < w[i]:
                        w[i] = d
                    acc += w[i]
                    cdf[i] = acc
            if cdf[n - 1] <= 0:  # every remaining d is 0: uniform among the unchosen bins
                acc = 0.0
                for i in range(n):
                    acc += 0.0 if chosen[i] else 1.0
                    cdf[i] = acc
            idx = min(np.searchsorted(cdf, u[j - 1, r] * cdf[n - 1], side="right"), n - 1)
            centres[r, j] = idx
            chosen[idx] = True
            prev = idx


_kmeanspp_scan = compiled(_kmeanspp_loop)


#: bins per block of the sorted k-means++ sampler (:func:`kmeanspp_centres`, ``engine="sorted"``)
KMEANSPP_BLOCK = 64
#: the k-means++ samplers of :func:`kmeanspp_centres`: ``"sorted"`` (the default, incremental over the bins in value
#: order) and ``"scan"`` (every bin per centre, in bin order: the privacy audit's, whose recorded bounds it drew)
KMEANSPP_ENGINES = ("sorted", "scan")


def _lower_outwards_loop(sv, w, vc, power, p, stop, step):  # pragma: no cover - run compiled
    """From sorted position p (the new centre, value ``vc``) in direction ``step`` (±1) up to ``stop``: lower each
    weight ``w[q]`` to |sv[q] − vc|^power until a bin the new centre does not lower; return the last position
    lowered (p if none). Called compiled by :func:`_kmeanspp_sorted_loop`, once each way."""
    last = p
    for q in range(p + step, stop, step):
        d = abs(sv[q] - vc)
        d = d * d if power == 2.0 else d**power
        if d < w[q]:
            w[q] = d
            last = q
        else:
            break
    return last


def _kmeanspp_sorted_loop(
    v, order, first, u, power, block, centres
):  # pragma: no cover - run compiled
    """The k-means++ draws of :func:`kmeanspp_centres` (``engine="sorted"``), row by row (compiled by
    :data:`_kmeanspp_sorted_scan`), on the bins in value order (``order`` (R, n): each row's stable argsort).
    The weights w = d^power are kept in that order; a new centre at sorted position p lowers only the weights of the
    bins from p outwards up to the first one it does not lower (values are sorted, so beyond it every bin is at least
    as close to an earlier centre), and the sums of the blocks of ``block`` bins it touched are recomputed. The draw
    of uniform u: the first block whose running sum of block sums exceeds u·W (W the sum of the block sums, each a
    sequential sum), then the first bin of it whose running sum within the block exceeds the rest; every remaining
    d = 0 (W = 0): uniform among the unchosen bins in bin order, as the scan does. ``first`` (R,) the first centres,
    ``u`` (k − 1, R) the uniforms of the next ones; fills ``centres`` (R, k)."""
    reps, n = v.shape
    k = centres.shape[1]
    nb = (n + block - 1) // block
    sv = np.empty(n)
    w = np.empty(n)
    bs = np.empty(nb)
    inv = np.empty(n, dtype=np.int64)
    chosen = np.zeros(n, dtype=np.bool_)  # by sorted position
    for r in range(reps):
        for p in range(n):
            sv[p] = v[r, order[r, p]]
            inv[order[r, p]] = p
            chosen[p] = False
        c = first[r]
        centres[r, 0] = c
        p = inv[c]
        chosen[p] = True
        vc = sv[p]
        for q in range(n):
            d = abs(sv[q] - vc)
            w[q] = d * d if power == 2.0 else d**power
        lo, hi = 0, n - 1
        for j in range(1, k):
            for b in range(lo // block, hi // block + 1):  # the blocks whose weights changed
                acc = 0.0
                for q in range(b * block, min(n, (b + 1) * block)):
                    acc += w[q]
                bs[b] = acc
            total = 0.0
            for b in range(nb):
                total += bs[b]
            p = -1
            if total <= 0:  # every remaining d is 0: uniform among the unchosen bins, in bin order
                cnt = 0.0
                for i in range(n):
                    cnt += 0.0 if chosen[inv[i]] else 1.0
                target = u[j - 1, r] * cnt
                acc = 0.0
                idx = n - 1
                for i in range(n):
                    acc += 0.0 if chosen[inv[i]] else 1.0
                    if acc > target:
                        idx = i
                        break
                p = inv[idx]
            else:
                target = u[j - 1, r] * total
                acc = 0.0
                bsel = -1
                for b in range(nb):
                    if acc + bs[b] > target:
                        bsel = b
                        break
                    acc += bs[b]
                if bsel >= 0:
                    rest = target - acc
                    local = 0.0
                    for q in range(bsel * block, min(n, (bsel + 1) * block)):
                        local += w[q]
                        if local > rest:
                            p = q
                            break
                if (
                    p < 0
                ):  # rounding at the top of a block or of W: the last bin of positive weight there
                    b0 = bsel if bsel >= 0 else nb - 1
                    for b in range(b0, -1, -1):
                        for q in range(min(n, (b + 1) * block) - 1, b * block - 1, -1):
                            if w[q] > 0:
                                p = q
                                break
                        if p >= 0:
                            break
            centres[r, j] = order[r, p]
            chosen[p] = True
            vc = sv[p]
            w[p] = 0.0
            hi = _lower_outwards_loop(sv, w, vc, power, p, n, 1)
            lo = _lower_outwards_loop(sv, w, vc, power, p, -1, -1)


_kmeanspp_sorted_scan = compiled(_kmeanspp_sorted_loop, compiled(_lower_outwards_loop))


def _value_order(v: np.ndarray) -> np.ndarray:
    """Each row's stable argsort (ties in bin order), the same on every CPU: one sort when every row is the same
    (true counts), else numpy's default sort with its runs of equal values put in bin order."""
    reps, n = v.shape
    if reps > 1 and bool((v == v[0]).all()):
        return np.broadcast_to(np.argsort(v[0], kind="stable"), (reps, n))
    order = np.argsort(v, axis=1)
    sv = np.take_along_axis(v, order, axis=1)
    tie = sv[:, 1:] == sv[:, :-1]
    for r in np.flatnonzero(tie.any(axis=1)):
        order[r] = np.argsort(v[r], kind="stable")
    return order


def kmeanspp_centres(
    values: ArrayLike,
    k: int,
    rng: np.random.Generator,
    *,
    power: float = 2.0,
    engine: str = "sorted",
) -> np.ndarray:
    """k-means++ seeding over bins (``src_histograms`` step S2): the first centre uniform, each next one with
    probability ∝ d(i)^power, d(i) = min over chosen centres c of |v_i − v_c| (power = 2 is k-means++; when every
    remaining d is 0 the next centre is uniform among unchosen bins). ``values`` (R, n) → centre indices (R, k).
    Not private by itself: it reads ``values`` without noise. Compiled (numba); the uniforms are drawn up front (R
    first centres, then (k − 1)·R uniforms), the same stream for both ``engine`` values, which are two exact
    samplers of the same distribution that turn a uniform into a bin differently:

    - ``"sorted"`` (default): the bins in value order, where a new centre lowers the weights of a run of bins around
      it only, and the draw searches block sums (``KMEANSPP_BLOCK`` bins each) — about O(n log n + k·n/64) per
      row instead of O(k·n) (issue 50: 4× faster at k = 32, 200× at k = n); numpy reference
      ``_kmeanspp_sorted_py``;
    - ``"scan"``: every bin per centre, cumulative weights in bin order (the chapter's sampler until issue 50;
      the privacy audit's, whose recorded bounds it drew); numpy reference ``_kmeanspp_centres_py``."""
    v = check_array(values, "values", ndim=(1, 2))
    v = np.ascontiguousarray(np.atleast_2d(v), dtype=float)
    rng = check_rng(rng)
    reps, n = v.shape
    k = check_int(k, "k", minimum=1, maximum=n)
    power = check_sensitivity(power, "power")
    if engine not in KMEANSPP_ENGINES:
        raise ValueError(f"engine must be one of {'|'.join(KMEANSPP_ENGINES)}, got {engine!r}")
    first = rng.integers(0, n, size=reps)
    u = rng.random((k - 1, reps))
    centres = np.empty((reps, k), dtype=np.int64)
    if engine == "scan":
        _kmeanspp_scan()(v, first, u, float(power), centres)
    else:
        order = np.ascontiguousarray(_value_order(v), dtype=np.int64)
        _kmeanspp_sorted_scan()(v, order, first, u, float(power), KMEANSPP_BLOCK, centres)
    return centres


def _kmeanspp_centres_py(values: np.ndarray, k: int, rng: np.random.Generator, power: float = 2.0):
    """The numpy reference of :func:`kmeanspp_centres` (vectorized over rows, one cumulative sum per centre)."""
    v = np.atleast_2d(values)
    reps, n = v.shape
    rows = np.arange(reps)
    centres = np.empty((reps, k), dtype=np.int64)
    centres[:, 0] = rng.integers(0, n, size=reps)
    chosen = np.zeros((reps, n), dtype=bool)
    chosen[rows, centres[:, 0]] = True
    # w = d(i)^power, kept as the running minimum over chosen centres (chosen bins have d = 0)
    w = np.abs(v - v[rows, centres[:, 0]][:, None]) ** power
    tmp = np.empty_like(w)
    for j in range(1, k):
        cdf = np.cumsum(w, axis=1)
        empty = cdf[:, -1] <= 0
        if empty.any():
            cdf[empty] = np.cumsum(~chosen[empty], axis=1)
        u = rng.random((reps, 1)) * cdf[:, -1:]
        idx = np.minimum((cdf <= u).sum(axis=1), n - 1)
        centres[:, j] = idx
        chosen[rows, idx] = True
        np.subtract(v, v[rows, idx][:, None], out=tmp)
        np.abs(tmp, out=tmp)
        np.power(tmp, power, out=tmp)
        np.minimum(w, tmp, out=w)
    return centres


def _kmeanspp_sorted_py(
    values: np.ndarray,
    k: int,
    rng: np.random.Generator,
    power: float = 2.0,
    block: int = KMEANSPP_BLOCK,
) -> np.ndarray:
    """The numpy reference of :func:`kmeanspp_centres` (``engine="sorted"``): the same draws and the same sums
    (sequential, by ``cumsum``), with every weight recomputed for every centre instead of the compiled kernel's
    outward update; vectorized over rows."""
    v = np.ascontiguousarray(np.atleast_2d(values), dtype=float)
    reps, n = v.shape
    first = rng.integers(0, n, size=reps)
    u = rng.random((k - 1, reps))
    order = _value_order(v)
    sv = np.take_along_axis(v, order, axis=1)
    inv = np.argsort(order, axis=1)
    rows = np.arange(reps)
    nb = -(-n // block)
    centres = np.empty((reps, k), dtype=np.int64)
    centres[:, 0] = first
    p = inv[rows, first]
    chosen = np.zeros((reps, n), dtype=bool)  # by sorted position
    chosen[rows, p] = True
    w = np.abs(sv - sv[rows, p][:, None]) ** power
    padded = np.zeros((reps, nb * block))
    for j in range(1, k):
        padded[:, :n] = w
        bs = np.cumsum(padded.reshape(reps, nb, block), axis=2)[:, :, -1]
        run = np.cumsum(bs, axis=1)
        total = run[:, -1]
        target = u[j - 1] * total
        b = np.minimum((run <= target[:, None]).sum(axis=1), nb - 1)
        acc = np.where(b > 0, run[rows, np.maximum(b - 1, 0)], 0.0)
        local = np.cumsum(padded.reshape(reps, nb, block)[rows, b], axis=1)
        q = (local <= (target - acc)[:, None]).sum(axis=1)
        pos = b * block + q
        bad = (q >= block) | (pos >= n) | ((run[:, -1] > target) == False)  # noqa: E712
        for r in np.flatnonzero(bad | (total <= 0)):
            if total[r] <= 0:
                free = np.cumsum(~chosen[r][inv[r]]).astype(float)
                idx = min(int(np.searchsorted(free, u[j - 1, r] * free[-1], side="right")), n - 1)
                pos[r] = inv[r, idx]
            else:
                top = min(n, (b[r] + 1) * block) if run[r, -1] > target[r] else n
                pos[r] = np.flatnonzero(w[r, :top] > 0)[-1]
        centres[:, j] = order[rows, pos]
        chosen[rows, pos] = True
        np.minimum(w, np.abs(sv - sv[rows, pos][:, None]) ** power, out=w)
    return centres


def assign_groups(
    x: np.ndarray,
    centres: np.ndarray,
    centre_values: np.ndarray,
    epsilon1: float,
    rng: np.random.Generator,
) -> np.ndarray:
    """Step S3: every non-centre bin i joins group j with the exponential mechanism on u = −|x_i − c_j|, Δu = 1,
    budget ε₁ (one independent draw per bin; the draw order of the source does not matter because the centres do
    not move). Centre j is in group j. Returns labels (R, n). Bins with equal counts share one probability vector,
    computed once; each bin is sampled by inverse CDF (one uniform, a binary search in its value's CDF), so memory
    is O(R·U·k) for U distinct counts, not O(R·n·k). The draws are compiled (numba; numpy reference
    ``_assign_groups_py``, the same labels)."""
    values, inverse = np.unique(x, return_inverse=True)
    reps, k = centres.shape
    scores = -np.abs(values[None, :, None] - centre_values[:, None, :])  # (R, distinct counts, k)
    cdf = np.cumsum(exponential_probabilities(scores, 1.0, epsilon1), axis=-1)
    cdf /= cdf[..., -1:]
    u = rng.random((reps, x.size))
    labels = np.empty((reps, x.size), dtype=np.int64)
    _assign_scan()(np.ascontiguousarray(cdf), inverse.astype(np.int64).ravel(), u, labels)
    np.put_along_axis(labels, centres, np.broadcast_to(np.arange(k), centres.shape), axis=1)
    return labels


def _assign_loop(cdf, inverse, u, labels):  # pragma: no cover - run compiled
    """The inverse-CDF draws of :func:`assign_groups`, bin by bin (compiled by :data:`_assign_scan`): bin i of row r
    takes the first group j with cdf[r, v, j] + 2q ≥ u[r, i] + 2q, v = inverse[i], q = r·U + v (the arithmetic of
    the numpy reference :func:`_assign_groups_py`, which lays the CDFs side by side on one axis, 2 apart: the same
    floating-point comparisons, so the same labels), capped at k − 1. A binary search over the k groups."""
    reps, n = u.shape
    n_values, k = cdf.shape[1], cdf.shape[2]
    for r in range(reps):
        for i in range(n):
            v = inverse[i]
            off = 2.0 * (r * n_values + v)
            target = off + u[r, i]
            lo, hi = 0, k
            while lo < hi:  # first j with cdf + off >= target
                mid = (lo + hi) >> 1
                if cdf[r, v, mid] + off < target:
                    lo = mid + 1
                else:
                    hi = mid
            labels[r, i] = min(lo, k - 1)


_assign_scan = compiled(_assign_loop)


def _assign_groups_py(
    x: np.ndarray,
    centres: np.ndarray,
    centre_values: np.ndarray,
    epsilon1: float,
    rng: np.random.Generator,
) -> np.ndarray:
    """The numpy reference of :func:`assign_groups`: every row's CDF side by side on one increasing axis (row q
    shifted by 2q), one ``searchsorted`` for all bins of all repetitions."""
    values, inverse = np.unique(x, return_inverse=True)
    reps, k = centres.shape
    scores = -np.abs(values[None, :, None] - centre_values[:, None, :])  # (R, distinct counts, k)
    cdf = np.cumsum(exponential_probabilities(scores, 1.0, epsilon1), axis=-1)
    cdf /= cdf[..., -1:]
    rows = (
        np.arange(reps)[:, None] * values.size + inverse[None, :]
    )  # (R, n): row of each bin's CDF
    offset = (
        2.0 * np.arange(reps * values.size)[:, None]
    )  # rows side by side on one increasing axis
    flat = (cdf.reshape(-1, k) + offset).ravel()
    u = rng.random((reps, x.size))
    pos = np.searchsorted(flat, (offset[rows, 0] + u).ravel(), side="left").reshape(reps, x.size)
    labels = np.minimum(pos - rows * k, k - 1)
    np.put_along_axis(labels, centres, np.broadcast_to(np.arange(k), centres.shape), axis=1)
    return labels


def sampling_grouping(
    x: ArrayLike,
    epsilon: float,
    rng: np.random.Generator,
    *,
    variant: Variant = "private",
    k: int = 32,
    power: float = 2.0,
    eps1_share: float = 0.4,
    centre_share: float = 0.2,
    size: int | None = None,
    return_groups: bool = False,
    engine: str = "sorted",
) -> np.ndarray | tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Sampling-based grouping (``src_histograms``). ε₁ = eps1_share·ε for the grouping; with ``private`` centres
    ε₀ = centre_share·ε for the centres and ε₂ = ε − ε₀ − ε₁, with ``as-written`` centres ε₂ = ε − ε₁.

    ``variant`` = ``"<centres>[:<reading>]"`` (module docstring): centres ``as-written`` | ``private``, S5 reading
    ``mean`` (Lap(1/ε₂) on each group mean) | ``sum`` (Lap(1/(m_j ε₂)) on the mean of a group of m_j bins).
    ``private`` centres: ε-DP, add-remove, under either reading (ε₀: noisy histogram, Δ₁ = 1; ε₁: exponential
    mechanism per bin on that bin's own count, Δu = 1, parallel over bins; ε₂: the mean of a group has Δ = 1/m_j ≤ 1,
    disjoint groups). ``as-written`` centres: not DP under either reading (see
    :func:`dpcompendium.chapters.histograms.privacy_claim`).

    Returns the noisy histogram, shape (n,) or (size, n); with ``return_groups`` also the group labels and the
    centre indices, shapes (…, n) and (…, k). ``engine``: the k-means++ sampler of S2 (:func:`kmeanspp_centres`).
    """
    arr, eps, rng, reps = prepare(x, epsilon, rng, size)
    centres_from, reading = parse_variant(variant)
    n = arr.size
    k = check_int(k, "k", minimum=1, maximum=n)
    e1 = share(eps1_share, "eps1_share")
    if centres_from == "private":
        e0 = share(centre_share, "centre_share")
        if e0 + e1 >= 1.0:
            raise ValueError(f"centre_share + eps1_share must be < 1, got {e0 + e1!r}")
    else:
        e0 = 0.0
    eps0, eps1 = e0 * eps, e1 * eps
    eps2 = eps - eps0 - eps1
    rows = np.arange(reps)[:, None]
    if centres_from == "private":
        seeds = arr + rng.laplace(0.0, 1.0 / eps0, size=(reps, n))
    else:
        seeds = np.broadcast_to(arr, (reps, n))
    centres = kmeanspp_centres(seeds, k, rng, power=power, engine=engine)
    centre_values = seeds[rows, centres]
    labels = assign_groups(arr, centres, centre_values, eps1, rng)
    sums, sizes = group_means(arr, labels, k)
    means = sums / sizes
    scale = 1.0 / (eps2 * sizes) if reading == "sum" else np.full(sizes.shape, 1.0 / eps2)
    noisy = means + rng.laplace(0.0, 1.0, size=means.shape) * scale
    out = finish(np.take_along_axis(noisy, labels, axis=1), size)
    if return_groups:
        return out, finish(labels, size), finish(centres, size)
    return out


# ---------------------------------------------------------------------------------------------------------------
# Exact privacy-loss evidence
# ---------------------------------------------------------------------------------------------------------------


def centre_pair_probabilities(x: ArrayLike, *, power: float = 2.0) -> np.ndarray:
    """Exact P[centre set = {i, j}] of the as-written seeding with k = 2 (first centre uniform, second ∝ d^power):
    P{i, j} = (w_ij / W_i + w_ji / W_j) / n with w_ij = |x_i − x_j|^power, W_i = Σ_j w_ij. Two bins with equal
    counts are never both centres (probability 0); a neighbour that separates their counts makes it positive."""
    v = check_array(x, "x", ndim=1)
    n = v.size
    w = np.abs(v[None, :] - v[:, None]) ** power  # row: first centre, column: second centre
    np.fill_diagonal(w, 0.0)
    tot = w.sum(axis=1, keepdims=True)
    uniform = (1.0 - np.eye(n)) / max(n - 1, 1)
    cond = np.where(tot > 0, w / np.where(tot > 0, tot, 1.0), uniform)
    return (cond + cond.T) / n


def partition_probabilities(
    x: ArrayLike, k: int, epsilon1: float, *, power: float = 2.0
) -> dict[tuple[int, ...], float]:
    """Exact distribution of the grouping (the partition of the bins, which the published histogram reveals as its
    pattern of equal values) under the as-written steps S2–S3, by enumeration: every ordered centre sequence with
    its k-means++ probability, times every assignment of the other bins with its exponential-mechanism probability.
    Partitions are keyed by canonical labels (first-appearance order). For tiny histograms only (n ≤ 8)."""
    v = check_array(x, "x", ndim=1)
    n = v.size
    if n > 8:
        raise ValueError(f"x must have at most 8 bins for exact enumeration, got {n}")
    k = check_int(k, "k", minimum=1, maximum=n)
    eps1 = check_epsilon(epsilon1, "epsilon1")
    out: dict[tuple[int, ...], float] = {}
    for seq in itertools.permutations(range(n), k):
        prob = 1.0 / n
        for j in range(1, k):
            chosen = list(seq[:j])
            d = np.min(np.abs(v[:, None] - v[chosen][None, :]), axis=1) ** power
            d[chosen] = 0.0
            w = d if d.sum() > 0 else np.isin(np.arange(n), chosen, invert=True).astype(float)
            prob *= w[seq[j]] / w.sum()
        if prob == 0.0:
            continue
        others = [i for i in range(n) if i not in seq]
        em = softmax(-eps1 * np.abs(v[others][:, None] - v[list(seq)][None, :]) / 2.0, axis=1)
        for assign in itertools.product(range(k), repeat=len(others)):
            labels = np.empty(n, dtype=np.int64)
            labels[list(seq)] = np.arange(k)
            labels[others] = assign
            p = prob * float(np.prod(em[np.arange(len(others)), list(assign)])) if others else prob
            _, canon = np.unique(labels, return_index=True)
            order = np.argsort(canon)
            relabel = np.empty(k, dtype=np.int64)
            relabel[np.unique(labels)[order]] = np.arange(k)
            key = tuple(int(c) for c in relabel[labels])
            out[key] = out.get(key, 0.0) + p
    return out


def grouping_log_probability(
    x: ArrayLike,
    centres: ArrayLike,
    centre_values: ArrayLike,
    labels: ArrayLike,
    epsilon1: float,
) -> float:
    """log P[grouping = labels | centres] for step S3: Σ over non-centre bins of the exponential mechanism's
    log-probability log softmax(−ε₁|x_i − c_j|/2) at the chosen group. Compare two neighbours to measure the
    privacy loss of the grouping step."""
    v = check_array(x, "x", ndim=1)
    eps1 = check_epsilon(epsilon1, "epsilon1")
    c = np.asarray(centres, dtype=np.int64)
    cv = check_array(centre_values, "centre_values", ndim=1)
    lab = np.asarray(labels, dtype=np.int64)
    logp = log_softmax(-eps1 * np.abs(v[:, None] - cv[None, :]) / 2.0, axis=1)
    mask = np.ones(v.size, dtype=bool)
    mask[c] = False
    return float(logp[np.arange(v.size), lab][mask].sum())


def grouping_privacy_loss(
    x: ArrayLike,
    neighbour: ArrayLike,
    centres: ArrayLike,
    centre_values: ArrayLike,
    neighbour_centre_values: ArrayLike,
    epsilon1: float,
) -> float:
    """Exact ε of step S3 for a pair of histograms with fixed centres (the max-divergence, the largest value of the
    privacy loss over the outputs): max over groupings G of
    |log P[G | x] − log P[G | x']|. The draws are independent per bin, so the worst grouping picks per bin the group
    with the largest (or smallest) log-ratio: loss = max(Σ_i max_j d_ij, Σ_i max_j −d_ij), d_ij the difference of
    the exponential mechanism's log-probabilities. With public centre values and x' = x ± one record the loss is at
    most ε₁; with the centres' true counts in the scores it grows with the number of bins."""
    v = check_array(x, "x", ndim=1)
    w = check_array(neighbour, "neighbour", ndim=1)
    eps1 = check_epsilon(epsilon1, "epsilon1")
    c = np.asarray(centres, dtype=np.int64)
    cv = check_array(centre_values, "centre_values", ndim=1)
    cw = check_array(neighbour_centre_values, "neighbour_centre_values", ndim=1)
    mask = np.ones(v.size, dtype=bool)
    mask[c] = False
    lp = log_softmax(-eps1 * np.abs(v[mask, None] - cv[None, :]) / 2.0, axis=1)
    lq = log_softmax(-eps1 * np.abs(w[mask, None] - cw[None, :]) / 2.0, axis=1)
    d = lp - lq
    return float(max(d.max(axis=1).sum(), (-d).max(axis=1).sum()))


def grouping_loss_per_bin(x: ArrayLike, centre_values: ArrayLike, epsilon1: float) -> np.ndarray:
    """Exact ε (max-divergence) of step S3 for the neighbour that adds one record to bin i, for every i at once, when the centre
    values are public (fixed): only bin i's draw changes, so the loss is max_j |log p_ij − log p′_ij| ≤ ε₁."""
    v = check_array(x, "x", ndim=1)
    cv = check_array(centre_values, "centre_values", ndim=1)
    eps1 = check_epsilon(epsilon1, "epsilon1")
    lp = log_softmax(-eps1 * np.abs(v[:, None] - cv[None, :]) / 2.0, axis=1)
    lq = log_softmax(-eps1 * np.abs(v[:, None] + 1.0 - cv[None, :]) / 2.0, axis=1)
    return np.abs(lp - lq).max(axis=1)
