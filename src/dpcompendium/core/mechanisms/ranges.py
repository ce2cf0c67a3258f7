"""Data-independent range-query mechanisms over a d-dimensional histogram, vectorized over repetitions.

Every mechanism is ``f(x, epsilon, rng, *, <options>, neighbours="add-remove", size=None)``: ``x`` is a histogram of
counts of any shape, the result a noisy (or inferred) histogram of the same shape, or ``(size, *x.shape)`` for
``size`` independent releases. All are *linear*: the release is x + B·z with z a vector of independent Laplace draws
of one scale b and B a fixed reconstruction matrix, so the expected squared error of any linear query q is
2b²‖qB‖² (:func:`linear_expected_mse`).

- :func:`identity` — Lap(Δ/ε) on every cell (``dwork2006calibrating``).
- :func:`least_squares` — measure a set of range queries A with Lap(Δ_A/ε), Δ_A the largest number of queries that
  cover one cell; return the least-squares (minimum-norm) estimate A⁺y: the matrix mechanism's estimator
  (``li2015matrix``) with A as its strategy.
- :func:`hb` — a b-ary hierarchy of box counts with Lap((h+1)Δ/ε) on every node and least-squares consistency
  (``hay2010boosting``), b chosen as in ``qardaji2013understanding`` (:func:`hb_branching`).
- :func:`privelet` — Haar wavelet coefficients with Lap(Δ·Π_a(m_a+1)/ε), inverted (``xiao2011differential``).

Neighbours: ``"add-remove"`` (one record added or removed: one cell moves by 1, so every L1 sensitivity below is
that of one unit vector) or ``"replace-one"`` (one record moves from one cell to another: two unit vectors, so every
sensitivity doubles, Δ = 2). :func:`range_claim` states each mechanism's guarantee as a
:class:`~dpcompendium.core.privacy.PrivacyClaim`.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence

import numpy as np
from numpy.typing import ArrayLike

from ..experiments.ranges import RangeQueries
from ..messages import message, tex
from ..privacy import PrivacyClaim
from ..validation import check_array, check_epsilon, check_int, check_rng

__all__ = [
    "RANGE_NEIGHBOURS",
    "finish_releases",
    "haar_forward",
    "haar_inverse",
    "hb",
    "hb_branching",
    "hb_height",
    "hb_inference",
    "hb_strategy",
    "identity",
    "least_squares",
    "least_squares_estimate",
    "least_squares_sensitivity",
    "linear_expected_mse",
    "neighbour_factor",
    "prepare_histogram",
    "privelet",
    "privelet_scale",
    "range_claim",
]

#: The neighbour relations the range mechanisms calibrate for: Δ is 1 (add-remove) or 2 (replace-one) unit moves.
RANGE_NEIGHBOURS = ("add-remove", "replace-one")


def neighbour_factor(neighbours: str) -> float:
    """How many unit vectors one neighbour step moves the histogram by: 1 (add-remove) or 2 (replace-one)."""
    if neighbours not in RANGE_NEIGHBOURS:
        raise ValueError(
            f"neighbours must be one of {'|'.join(RANGE_NEIGHBOURS)}, got {neighbours!r}"
        )
    return 1.0 if neighbours == "add-remove" else 2.0


def prepare_histogram(
    x: ArrayLike,
    epsilon: float,
    rng: np.random.Generator,
    size: int | None,
    *,
    ndim: int | None = None,
) -> tuple[np.ndarray, float, np.random.Generator, int]:
    """Validate (histogram of counts ≥ 0, of ``ndim`` dimensions if given; ε; rng; size): return the float
    histogram, ε, rng and the number of releases (1 when ``size`` is None). The prologue of the histogram
    mechanisms (here, :mod:`~dpcompendium.core.mechanisms.dawa` and the histograms chapter)."""
    arr = check_array(x, "x", ndim=ndim)
    if np.any(arr < 0):
        raise ValueError(f"x must be a histogram of counts >= 0, found {arr[arr < 0].ravel()[0]!r}")
    eps = check_epsilon(epsilon)
    rng = check_rng(rng)
    reps = 1 if size is None else check_int(size, "size", minimum=1)
    return arr.astype(float), eps, rng, reps


def finish_releases(out: np.ndarray, size: int | None) -> np.ndarray:
    """The releases ``out`` (size, ...) as returned: the one release when ``size`` is None."""
    return out[0] if size is None else out


# ------------------------------------------------------------------------------------------------ Identity
def identity(
    x: ArrayLike,
    epsilon: float,
    rng: np.random.Generator,
    *,
    neighbours: str = "add-remove",
    size: int | None = None,
) -> np.ndarray:
    """x̂ = x + Lap(Δ/ε) per cell (``dwork2006calibrating``); Δ = 1 (add-remove) or 2 (replace-one).

    ε-DP; unbiased, variance 2(Δ/ε)² per cell, so a query over L cells has variance 2L(Δ/ε)².
    """
    arr, eps, rng, reps = prepare_histogram(x, epsilon, rng, size)
    scale = neighbour_factor(neighbours) / eps
    return finish_releases(arr + rng.laplace(0.0, scale, size=(reps, *arr.shape)), size)


# ------------------------------------------------------------------------------------------------ least squares
def least_squares_sensitivity(queries: RangeQueries, neighbours: str = "add-remove") -> float:
    """L1 sensitivity of the answers to ``queries``: the largest number of queries covering one cell (add-remove;
    twice that under replace-one, an upper bound: the record leaves one cell and enters another)."""
    cover = _adjoint(queries, np.ones((1, queries.m)))[0]
    return neighbour_factor(neighbours) * float(cover.max())


def _adjoint(queries: RangeQueries, z: np.ndarray) -> np.ndarray:
    """Aᵀz for the 0/1 query matrix A of ``queries``: Σ_k z_k 1_box(k), for z of shape (R, m) → (R, *shape).

    A d-dimensional difference array (±z_k at the 2^d corners of box k) integrated by cumulative sums: O(R(m2^d + N)).
    """
    reps = z.shape[0]
    d = queries.ndim
    ext = tuple(n + 1 for n in queries.shape)
    size = math.prod(ext)
    diff = np.zeros(reps * size)
    offsets = (np.arange(reps) * size)[:, None]
    for corner in np.ndindex(*(2,) * d):
        idx = tuple(
            queries.hi[:, a] + 1 if bit else queries.lo[:, a] for a, bit in enumerate(corner)
        )
        flat = np.ravel_multi_index(idx, ext)
        sign = -1.0 if sum(corner) % 2 else 1.0
        diff += np.bincount(
            (offsets + flat).ravel(), weights=(sign * z).ravel(), minlength=reps * size
        )
    out = diff.reshape((reps, *ext))
    for axis in range(1, d + 1):
        out = np.cumsum(out, axis=axis)
    return out[(slice(None), *(slice(0, n) for n in queries.shape))]


def _overlaps(queries: RangeQueries) -> np.ndarray:
    """AAᵀ: the number of cells two queries share, m × m (product over dimensions of the intervals' overlaps)."""
    out = np.ones((queries.m, queries.m))
    for a in range(queries.ndim):
        lo, hi = queries.lo[:, a], queries.hi[:, a]
        out *= np.clip(
            np.minimum(hi[:, None], hi[None, :]) - np.maximum(lo[:, None], lo[None, :]) + 1, 0, None
        )
    return out


@functools.lru_cache(maxsize=16)
def _ls_solver(queries: RangeQueries) -> tuple[str, np.ndarray]:
    """The factor that maps noisy answers y (R, m) to the least-squares estimate A⁺y.

    m ≤ N: A⁺ = Aᵀ(AAᵀ)⁺, and (AAᵀ)⁺ (m × m) is returned as ``("gram", G⁺)`` (AAᵀ has a closed form); m > N:
    ``("pinv", A⁺ᵀ)`` (m × N). Pseudo-inverses cut eigenvalues below 1e-10 of the largest. Cached per workload
    object (a :class:`RangeQueries` is immutable).
    """
    if queries.m <= queries.size:
        gram = _overlaps(queries)
        w, v = np.linalg.eigh(gram)
        keep = w > 1e-10 * w.max()
        return "gram", (v[:, keep] / w[keep]) @ v[:, keep].T
    a = queries.matrix()
    return "pinv", np.linalg.pinv(a, rcond=1e-10).T


def least_squares(
    x: ArrayLike,
    epsilon: float,
    rng: np.random.Generator,
    *,
    queries: RangeQueries,
    neighbours: str = "add-remove",
    size: int | None = None,
) -> np.ndarray:
    """Measure every query of ``queries`` (the strategy A) with Lap(Δ_A/ε), return the least-squares estimate.

    y = Ax + Lap(Δ_A/ε)^m, x̂ = A⁺y (the minimum-norm least-squares solution; ``li2015matrix``'s estimator).
    Δ_A = max over cells of the number of queries covering it (:func:`least_squares_sensitivity`), doubled under
    replace-one. ε-DP. Unbiased for Ax: the answers Ax̂ = AA⁺y are the projection of y on A's column space; cells that
    no query separates share their estimate (the minimum-norm solution spreads a count evenly). Expected squared
    error of a query q: 2(Δ_A/ε)²‖qA⁺‖² (:func:`linear_expected_mse`).
    """
    arr, eps, rng, reps = prepare_histogram(x, epsilon, rng, size)
    if not isinstance(queries, RangeQueries) or queries.shape != arr.shape:
        raise ValueError(f"queries must be a RangeQueries on shape {arr.shape}, got {queries!r}")
    scale = least_squares_sensitivity(queries, neighbours) / eps
    y = queries.answer(arr) + rng.laplace(0.0, scale, size=(reps, queries.m))
    return finish_releases(least_squares_estimate(queries, y), size)


def least_squares_estimate(queries: RangeQueries, y: np.ndarray) -> np.ndarray:
    """A⁺y for the 0/1 matrix A of ``queries`` and answers y (R, m): the minimum-norm least-squares histogram,
    shape ``(R, *shape)``. 1-D workloads with m·N > 4·10⁶ go through the interval graph (``_prefix_least_squares``, sparse,
    O(m + N) per release after one factorisation); the others through a dense pseudo-inverse. Both cached per
    workload object."""
    y = np.atleast_2d(np.asarray(y, dtype=float))
    if queries.ndim == 1 and queries.m * queries.size > 4_000_000:
        return _prefix_least_squares(queries, y)
    kind, factor = _ls_solver(queries)
    if kind == "gram":
        return _adjoint(queries, y @ factor)
    return (y @ factor).reshape((y.shape[0], *queries.shape))


@functools.lru_cache(maxsize=16)
def _prefix_system(queries: RangeQueries):
    """The factorisations of :func:`_prefix_least_squares` for a 1-D workload (cached per workload object)."""
    import scipy.sparse as sp
    from scipy.sparse.csgraph import connected_components
    from scipy.sparse.linalg import splu

    n = queries.shape[0]
    lo, hi1 = queries.lo[:, 0], queries.hi[:, 0] + 1
    pos = np.unique(np.concatenate([[0, n], lo, hi1]))  # prefix positions c_t that matter
    k = pos.size
    a, b = np.searchsorted(pos, lo), np.searchsorted(pos, hi1)
    m = lo.size
    inc = sp.csr_matrix(
        (
            np.concatenate([-np.ones(m), np.ones(m)]),
            (np.tile(np.arange(m), 2), np.concatenate([a, b])),
        ),
        shape=(m, k),
    )
    n_comp, comp = connected_components(inc.T @ inc, directed=False)
    # pin node 0 (c_0 = 0) and one node per other component (its offset is chosen in the second step)
    root = np.full(n_comp, -1)
    root[comp[0]] = 0
    for node in range(k):
        if root[comp[node]] < 0:
            root[comp[node]] = node
    free = np.ones(k, dtype=bool)
    free[root] = False
    lap = (inc.T @ inc).tocsc()[free][:, free]
    fit = splu(lap.tocsc()) if free.any() else None
    # second step: component offsets o (the component of node 0 fixed at 0) minimising the energy
    # Σ_j (d_j + o_{comp(j+1)} − o_{comp(j)})²/ℓ_j over the atoms between consecutive positions
    ell = np.diff(pos).astype(float)
    c0, c1 = comp[:-1], comp[1:]
    cross = c0 != c1
    rows = np.arange(k - 1)[cross]
    d_mat = sp.csr_matrix(
        (
            np.concatenate([np.ones(rows.size), -np.ones(rows.size)]),
            (np.tile(rows, 2), np.concatenate([c1[cross], c0[cross]])),
        ),
        shape=(k - 1, n_comp),
    )
    wts = sp.diags(1.0 / ell)
    keep = np.ones(n_comp, dtype=bool)
    keep[comp[0]] = False
    energy = (d_mat.T @ wts @ d_mat).tocsc()[keep][:, keep]
    offs = splu(energy.tocsc()) if keep.any() else None
    return pos, inc, free, fit, comp, keep, d_mat, wts, offs


def _prefix_least_squares(queries: RangeQueries, y: np.ndarray) -> np.ndarray:
    """Minimum-norm least squares for 1-D ranges through prefix sums c_t = Σ_{i<t} x_i: a range is c_{hi+1} − c_lo,
    so the fit is a least-squares problem on the graph whose nodes are the ranges' end points (a sparse Laplacian,
    one node of every connected component pinned); the fitted differences fix c up to one offset per component
    (c_0 = 0 fixes the one holding position 0), and the minimum-norm histogram is the one whose prefix sums are
    linear between consecutive end points, with the offsets minimising Σ_j (Δc_j)²/ℓ_j (a second sparse system).
    Equal to A⁺y (tested)."""
    pos, inc, free, fit, comp, keep, d_mat, wts, offs = _prefix_system(queries)
    reps = y.shape[0]
    c = np.zeros((reps, pos.size))
    if fit is not None:
        rhs = (inc.T @ y.T)[free]
        c[:, free] = fit.solve(np.ascontiguousarray(rhs)).T
    d = np.diff(c, axis=1)  # (R, k − 1)
    o = np.zeros((reps, comp.max() + 1))
    if offs is not None:
        rhs = -(d_mat.T @ (wts @ d.T))[keep]
        o[:, keep] = offs.solve(np.ascontiguousarray(rhs)).T
    c = c + o[:, comp]
    ell = np.diff(pos)
    per_cell = np.diff(c, axis=1) / ell
    return np.repeat(per_cell, ell, axis=1)


# ------------------------------------------------------------------------------------------------ Hb
def hb_height(n: int, branching: int) -> int:
    """h = ⌈log_b n⌉ (at least 1), by integer arithmetic: the tree over b^h ≥ n leaves per side has h + 1 levels."""
    h = 1
    while branching**h < n:
        h += 1
    return h


def hb_branching(shape: Sequence[int] | int) -> int:
    """The branching factor of ``qardaji2013understanding`` (as DPBench's HB computes it).

    1-D, N cells: the b in 2 … N minimising (b − 1)h³ − 2(b + 1)h²/3 with h = ⌈log_b N⌉ (the average variance of a
    random range query, up to a factor). 2-D, side n = max(shape): the b in 2 … n minimising b(n − 1)h². Other
    dimensions: 2. The first minimiser wins ties.
    """
    dims = (int(shape),) if isinstance(shape, int | np.integer) else tuple(int(s) for s in shape)
    if len(dims) == 1:
        n = dims[0]
        if n < 2:
            return 2
        cost = [
            ((b - 1) * hb_height(n, b) ** 3 - 2 * (b + 1) * hb_height(n, b) ** 2 / 3, b)
            for b in range(2, n + 1)
        ]
        return min(cost)[1]
    if len(dims) == 2:
        n = max(dims)
        if n < 3:
            return 2
        return min((b * (n - 1) * hb_height(n, b) ** 2, b) for b in range(2, n + 1))[1]
    return 2


def _morton(shape_pad: tuple[int, ...], b: int, h: int) -> np.ndarray:
    """Flat C-order cell indices of a (b^h)^d grid listed in base-b Morton order (interleaved digits, most
    significant first), so that the cells of every node of the b^d-ary tree are contiguous."""
    d = len(shape_pad)
    grid = np.arange(math.prod(shape_pad)).reshape(shape_pad)
    split = grid.reshape(
        sum(((b,) * h for _ in range(d)), ())
    )  # axis a*h + l: digit l (msb first) of dim a
    order = [a * h + level for level in range(h) for a in range(d)]
    return split.transpose(order).ravel()


def hb_inference(noisy: Sequence[np.ndarray], k: int) -> np.ndarray:
    """Least-squares consistent leaves of a complete k-ary tree from equal-variance noisy node counts.

    ``noisy[0]`` holds the leaves (R, k^h), ``noisy[i]`` the nodes of level i + 1 (R, k^{h−i}), the root last.
    ``hay2010boosting``: bottom-up z_v = (k^i − k^{i−1})/(k^i − 1)·ỹ_v + (k^{i−1} − 1)/(k^i − 1)·Σ_children z_u at
    level i (leaves i = 1); top-down ȳ_u = z_u + (ȳ_parent − Σ_siblings z_w)/k. Equals A⁺ỹ for the tree's query
    matrix A (tested).
    """
    reps = noisy[0].shape[0]
    z = [noisy[0]]
    for i in range(2, len(noisy) + 1):
        child_sum = z[-1].reshape(reps, -1, k).sum(axis=2)
        w_self = (k**i - k ** (i - 1)) / (k**i - 1)
        w_child = (k ** (i - 1) - 1) / (k**i - 1)
        z.append(w_self * noisy[i - 1] + w_child * child_sum)
    est = z[-1]
    for i in range(len(noisy) - 2, -1, -1):
        zc = z[i].reshape(reps, -1, k)
        est = (zc + ((est - zc.sum(axis=2)) / k)[..., None]).reshape(reps, -1)
    return est


def hb_strategy(shape: Sequence[int], branching: int) -> RangeQueries:
    """The boxes Hb measures on a histogram of ``shape``: every node of the b-ary tree (b^d-ary in d dimensions)
    over the grid padded to (b^h)^d, clipped to ``shape`` (nodes entirely in the padding are dropped). For tests and
    closed forms: Hb's release equals the least-squares estimate from these answers (on the padded grid)."""
    shape = tuple(int(s) for s in shape)
    b = check_int(branching, "branching", minimum=2)
    h = hb_height(max(shape), b)
    los, his = [], []
    for level in range(h + 1):
        width = b ** (h - level)
        starts = [np.arange(0, b**h, width)] * len(shape)
        grid = np.stack(np.meshgrid(*starts, indexing="ij"), axis=-1).reshape(-1, len(shape))
        keep = np.all(grid < np.asarray(shape), axis=1)
        lo = grid[keep]
        los.append(lo)
        his.append(np.minimum(lo + width - 1, np.asarray(shape) - 1))
    return RangeQueries(shape, np.concatenate(los), np.concatenate(his), name=f"Hb tree (b = {b})")


def hb(
    x: ArrayLike,
    epsilon: float,
    rng: np.random.Generator,
    *,
    branching: int | None = None,
    neighbours: str = "add-remove",
    size: int | None = None,
) -> np.ndarray:
    """Hb: a b-ary hierarchy of box counts with least-squares consistency (``hay2010boosting``,
    ``qardaji2013understanding``).

    Each side is padded with zeros to b^h (h = ⌈log_b max(shape)⌉); every node of the b^d-ary tree (all h + 1
    levels, root included) gets Lap((h + 1)Δ/ε): a record lies in one node per level, L1 sensitivity (h + 1)Δ,
    Δ = 1 (add-remove) or 2 (replace-one). ε-DP. The leaves are the least-squares estimate (:func:`hb_inference`),
    cropped to ``shape``. ``branching=None`` takes :func:`hb_branching` (16 for 4096 cells in 1-D).
    """
    arr, eps, rng, reps = prepare_histogram(x, epsilon, rng, size)
    b = (
        hb_branching(arr.shape)
        if branching is None
        else check_int(branching, "branching", minimum=2)
    )
    d = arr.ndim
    h = hb_height(max(arr.shape), b)
    side = b**h
    pad = np.zeros((side,) * d)
    pad[tuple(slice(0, n) for n in arr.shape)] = arr
    order = _morton(pad.shape, b, h)
    leaves = pad.ravel()[order]
    k = b**d
    levels = [leaves]
    for _ in range(h):
        levels.append(levels[-1].reshape(-1, k).sum(axis=1))
    scale = (h + 1) * neighbour_factor(neighbours) / eps
    noisy = [lvl + rng.laplace(0.0, scale, size=(reps, lvl.size)) for lvl in levels]
    est_leaves = hb_inference(noisy, k)
    out = np.empty((reps, side**d))
    out[:, order] = est_leaves
    out = out.reshape((reps, *pad.shape))[(slice(None), *(slice(0, n) for n in arr.shape))]
    return finish_releases(np.ascontiguousarray(out), size)


# ------------------------------------------------------------------------------------------------ Privelet
def haar_forward(v: np.ndarray, axis: int = -1) -> np.ndarray:
    """Unnormalised Haar transform along ``axis`` (length 2^m): m rounds of (pairwise sums | pairwise differences)
    on the leading block; coefficient 0 is the total, the others are differences of the two halves of a dyadic
    block. A unit vector has m + 1 nonzero coefficients, each ±1: L1 norm m + 1."""
    y = np.moveaxis(np.array(v, dtype=float), axis, -1)
    n = y.shape[-1]
    while n > 1:
        a, b = y[..., 0:n:2].copy(), y[..., 1:n:2].copy()
        y[..., : n // 2] = a + b
        y[..., n // 2 : n] = a - b
        n //= 2
    return np.moveaxis(y, -1, axis)


def haar_inverse(y: np.ndarray, axis: int = -1) -> np.ndarray:
    """Inverse of :func:`haar_forward` along ``axis``: a block's halves are (sum ± difference)/2, from the top."""
    x = np.moveaxis(np.array(y, dtype=float), axis, -1)
    total = x.shape[-1]
    n = 1
    while n < total:
        s, dd = x[..., :n].copy(), x[..., n : 2 * n].copy()
        x[..., 0 : 2 * n : 2] = (s + dd) / 2.0
        x[..., 1 : 2 * n : 2] = (s - dd) / 2.0
        n *= 2
    return np.moveaxis(x, -1, axis)


def privelet_scale(shape: Sequence[int], epsilon: float, neighbours: str = "add-remove") -> float:
    """Privelet's Laplace scale Δ·Π_a(m_a + 1)/ε, m_a = ⌈log₂ n_a⌉: the L1 sensitivity of the tensor Haar
    coefficients is Π_a(m_a + 1) per unit vector."""
    eps = check_epsilon(epsilon)
    prod = math.prod(max(0, math.ceil(math.log2(int(n)))) + 1 if int(n) > 1 else 1 for n in shape)
    return neighbour_factor(neighbours) * prod / eps


def privelet(
    x: ArrayLike,
    epsilon: float,
    rng: np.random.Generator,
    *,
    neighbours: str = "add-remove",
    size: int | None = None,
) -> np.ndarray:
    """Privelet (``xiao2011differential``): Laplace noise on the Haar wavelet coefficients, then the inverse.

    Every axis is padded with zeros to 2^{m_a}; the unnormalised Haar transform (:func:`haar_forward`) is applied
    along every axis; every coefficient gets Lap(Δ·Π_a(m_a + 1)/ε) (:func:`privelet_scale`; equivalent to Xiao et
    al.'s weighted noise on normalised coefficients); the inverse transform gives the release, cropped to ``shape``.
    ε-DP. In 1-D a cell's variance is 2b²(4^{−m} + Σ_{j=1}^{m} 4^{−j}) and a range's error grows as m³/ε², not
    with its length.
    """
    arr, eps, rng, reps = prepare_histogram(x, epsilon, rng, size)
    pad_shape = tuple(2 ** math.ceil(math.log2(n)) if n > 1 else 1 for n in arr.shape)
    pad = np.zeros(pad_shape)
    pad[tuple(slice(0, n) for n in arr.shape)] = arr
    coef = pad
    for axis in range(arr.ndim):
        coef = haar_forward(coef, axis)
    scale = privelet_scale(arr.shape, eps, neighbours)
    noisy = coef + rng.laplace(0.0, scale, size=(reps, *pad_shape))
    for axis in range(1, arr.ndim + 1):
        noisy = haar_inverse(noisy, axis)
    out = noisy[(slice(None), *(slice(0, n) for n in arr.shape))]
    return finish_releases(np.ascontiguousarray(out), size)


# ------------------------------------------------------------------------------------------------ closed forms
def linear_expected_mse(workload: RangeQueries, reconstruction: np.ndarray, scale: float) -> float:
    """E[(1/m) Σ_q (q(x̂) − q(x))²] = (2b²/m)‖WB‖²_F for a release x̂ = x + Bz, z i.i.d. Lap(b).

    ``reconstruction`` is B (N × number of noise draws) over the cells in C order. Identity: B = I; least squares
    and Hb: B = A⁺ for the measured queries A; Privelet: the inverse Haar matrix.
    """
    w = workload.matrix()
    return 2.0 * scale**2 * float(np.sum((w @ reconstruction) ** 2)) / workload.m


# ------------------------------------------------------------------------------------------------ claims
#: each method's sensitivity statement: a message of core/claim_messages.py, with the neighbour factor ``f``
_SENSITIVITY = {m: f"claims.ranges.{m}" for m in ("identity", "least_squares", "hb", "privelet")}


def range_claim(method: str, epsilon: float, neighbours: str = "add-remove") -> PrivacyClaim:
    """The privacy claim of :func:`identity`, :func:`least_squares`, :func:`hb` or :func:`privelet` (``method`` is
    the function's name): ε-DP under ``neighbours``, the Laplace mechanism on the stated sensitivity, then
    post-processing (least-squares inference, inverse transform)."""
    if method not in _SENSITIVITY:
        raise ValueError(f"method must be one of {'|'.join(_SENSITIVITY)}, got {method!r}")
    f = neighbour_factor(neighbours)
    return PrivacyClaim(
        method,
        neighbours,  # type: ignore[arg-type]
        message(_SENSITIVITY[method], f=tex(f"{f:g}")),
        check_epsilon(epsilon),
        conditions=(message("claims.ranges.public"),),
    )
