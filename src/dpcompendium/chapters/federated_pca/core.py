"""Shared pieces of private PCA: noise calibration, the symmetric Gaussian noise matrix, subspaces and metrics.

Conventions. Data are rows ``x ∈ R^d`` with ``‖x‖₂ ≤ 1``; a site holds ``X_i ∈ R^{N_i × d}`` and its *scatter*
``S_i = X_iᵀX_i``; the pooled second-moment matrix is ``A = (1/n) Σ_i S_i`` with ``n = Σ_i N_i`` public. Every
protocol reveals the exact n (and the site sizes N_i), so the relation that makes them private is replace-one
(the default); add-remove with an exact n is not a private relation (see :func:`~dpcompendium.chapters.federated_pca.privacy_claim`).

Sensitivity of ``A`` (measured, as in Analyze Gauss :cite:`dwork2014analyze`, on the upper triangle including the
diagonal, the only entries that receive independent noise):

- add-remove neighbours: adding or removing one row changes ``nA`` by ``xxᵀ``, ``‖xxᵀ‖_F = ‖x‖² ≤ 1``, so ``Δ = 1/n``
  (the source's value :cite:`src_fedpca`);
- replace-one neighbours: ``xxᵀ − yyᵀ`` has upper-triangle norm up to ``√2`` (``x = e₁, y = e₂``), so ``Δ = √2/n``.
"""

from __future__ import annotations

import functools
import math
from typing import Literal

import numpy as np
import pandas as pd
from scipy import linalg

from ...core._jit import compiled
from ...core.mechanisms.gaussian import analytic_gaussian_sigma, calibrated_sigma
from ...core.validation import check_array, check_int, check_rng

__all__ = [
    "CELL_KEY",
    "aligned_cells",
    "analytic_gaussian_sigma",
    "captured_energy",
    "clip_rows",
    "noise_scale",
    "normalize_rows",
    "scatter",
    "sensitivity",
    "symmetric_gaussian",
    "top_k_eigh",
    "top_k_subspace",
]

Neighbours = Literal["add-remove", "replace-one"]
Calibration = Literal["classical", "analytic", "auto"]


def sensitivity(n: int, neighbours: Neighbours = "replace-one") -> float:
    """L2 sensitivity of ``A = XᵀX/n`` for rows in the unit ball: ``1/n`` (add-remove) or ``√2/n`` (replace-one)."""
    n = check_int(n, "n", minimum=1)
    if neighbours == "add-remove":
        return 1.0 / n
    if neighbours == "replace-one":
        return math.sqrt(2.0) / n
    raise ValueError(f"neighbours must be 'add-remove' or 'replace-one', got {neighbours!r}")


# a pure function of hashable scalars, asked ~3·10⁴ times by the sweeps (the analytic σ is a root search)
@functools.lru_cache(maxsize=65536)
def noise_scale(
    epsilon: float,
    delta: float,
    n: int,
    *,
    neighbours: Neighbours = "replace-one",
    calibration: Calibration = "classical",
) -> float:
    """τ for the noise on ``A = XᵀX/n``: classical ``τ = Δ√(2 ln(1.25/δ))/ε`` :cite:`dwork2014algorithmic`
    (proved for ε < 1; the source uses it for every ε, and :func:`~dpcompendium.core.mechanisms.gaussian_claim` says
    where it fails), the analytic calibration (any ε) or ``auto`` (classical where valid, else analytic)."""
    sens = sensitivity(n, neighbours)
    return calibrated_sigma(sens, epsilon, delta, calibration)


def symmetric_gaussian(
    d: int, sigma: float | np.ndarray, rng: np.random.Generator, size: tuple[int, ...] = ()
) -> np.ndarray:
    """Symmetric ``d × d`` noise: upper triangle (with diagonal) iid ``N(0, σ²)``, mirrored below (Analyze Gauss).
    Only the ``d(d+1)/2`` upper entries are drawn, in row-major order.

    ``sigma`` may be an array broadcastable to ``size`` (one σ per matrix); the result has shape ``size + (d, d)``.
    """
    d = check_int(d, "d", minimum=1)
    z = _packed_gaussian(d, sigma, rng, size)
    # one gather builds both triangles (a scatter into the upper and one into the lower triangle costs twice it)
    return _unpack_symmetric(z, d)


def _packed_gaussian(
    d: int, sigma: float | np.ndarray, rng: np.random.Generator, size: tuple[int, ...] = ()
) -> np.ndarray:
    """The draws of :func:`symmetric_gaussian` before they are mirrored: ``size + (d(d+1)/2,)``, entry ``t`` the
    noise of the ``t``-th upper-triangle position in row-major order (and of its mirror image), the same numbers
    from the same ``rng`` state. Sums that are elementwise (noise plus a matrix, fixed-point encoding, a sum over
    sites) can run on these ``d(d+1)/2`` entries and be mirrored once at the end (``_unpack_symmetric``)."""
    d = check_int(d, "d", minimum=1)
    rng = check_rng(rng)
    sig = np.asarray(sigma, dtype=float)
    if np.any(~np.isfinite(sig)) or np.any(sig < 0):
        raise ValueError(f"sigma must be finite and >= 0, got {sigma!r}")
    # only the d(d+1)/2 entries that are drawn; σ on them: the same products as on the matrix
    z = rng.standard_normal(size=(*size, d * (d + 1) // 2))
    z *= np.broadcast_to(sig, size)[..., None]
    return z


def _lower_packed(a: np.ndarray) -> np.ndarray:
    """The lower triangle of each matrix in ``a`` (…, d, d) in the order of ``_packed_gaussian``'s entries: entry
    ``t`` is ``a[j, i]`` for the ``t``-th upper position ``(i, j)``, the mirror image that the eigensolvers read
    (:func:`top_k_eigh` reads the lower triangle)."""
    a = np.asarray(a, dtype=float)
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise ValueError(f"a must be a stack of square matrices, got shape {a.shape}")
    d = a.shape[-1]
    return np.take(a.reshape(*a.shape[:-2], d * d), _triangle_positions(d)[1], axis=-1)


def _unpack_symmetric(z: np.ndarray, d: int) -> np.ndarray:
    """The symmetric ``d × d`` matrices whose upper triangle (row-major, diagonal included) and its mirror image hold
    ``z``'s entries (…, d(d+1)/2) → (…, d, d): the inverse of ``_lower_packed`` on symmetric matrices."""
    z = np.asarray(z)
    if z.shape[-1] != d * (d + 1) // 2:
        raise ValueError(
            f"z must have d(d+1)/2 = {d * (d + 1) // 2} entries last, got shape {z.shape}"
        )
    return np.take(z, _mirror_gather(d), axis=-1).reshape(*z.shape[:-1], d, d)


@functools.cache
def _triangle_positions(d: int) -> tuple[np.ndarray, np.ndarray]:
    """Flat positions of the upper triangle (row-major, diagonal included) and of their mirror images."""
    i, j = np.triu_indices(d)
    up, lo = i * d + j, j * d + i
    up.flags.writeable = lo.flags.writeable = False
    return up, lo


@functools.cache
def _mirror_gather(d: int) -> np.ndarray:
    """For each flat position of a d × d matrix, the index of its upper-triangle entry (row-major, diagonal
    included) in the drawn vector: entry (i, j) and (j, i) both read entry ``min(i,j), max(i,j)``."""
    up, lo = _triangle_positions(d)
    pos = np.empty(d * d, dtype=np.intp)
    pos[up] = pos[lo] = np.arange(up.size)
    pos.flags.writeable = False
    return pos


def scatter(x: np.ndarray) -> np.ndarray:
    """The scatter matrix ``XᵀX`` of rows ``x`` (n × d)."""
    x = check_array(x, "x", ndim=2)
    return x.T @ x


def normalize_rows(x: np.ndarray) -> np.ndarray:
    """``x / ‖x‖₂`` row by row (the source's step 2); zero rows stay zero."""
    x = check_array(x, "x", ndim=2)
    norms = np.linalg.norm(x, axis=1, keepdims=True)
    return np.divide(x, norms, out=np.zeros_like(x), where=norms > 0)


def clip_rows(x: np.ndarray, clip_norm: float) -> np.ndarray:
    """Norm clipping, then scaling into the unit ball: ``x · min(1, C/‖x‖₂) / C`` row by row, ``C = clip_norm``
    (public). Unlike :func:`normalize_rows` it keeps every row of norm ≤ C as it is (up to the public factor 1/C),
    so the second moment it estimates is the data's own wherever rows are inside the ball; rows outside are pulled
    onto its surface, the bias that buys a smaller Δ relative to the signal."""
    x = check_array(x, "x", ndim=2)
    c = float(clip_norm)
    if not (np.isfinite(c) and c > 0):
        raise ValueError(f"clip_norm must be finite and > 0, got {clip_norm!r}")
    norms = np.linalg.norm(x, axis=1, keepdims=True)
    return x * (np.minimum(1.0, c / np.maximum(norms, 1e-300)) / c)


@functools.cache
def _syevx(d: int):
    """LAPACK ``dsyevx`` and the workspace size ``scipy.linalg.eigh`` gives it for a d × d matrix."""
    syevx, syevx_lwork = linalg.get_lapack_funcs(("syevx", "syevx_lwork"), (np.empty((1, 1)),))
    return syevx, linalg.lapack._compute_lwork(syevx_lwork, n=d, lower=1)


#: ``dlamch('S')`` and ``dlamch('P')``: the safe minimum and the relative machine precision LAPACK's bisection uses.
_SAFMIN = 2.2250738585072014e-308
_ULP = 2.220446049250313e-16


def _top_tridiagonal_loop(dg, e, k, w):
    """The ``k`` largest eigenvalues of the symmetric tridiagonal matrix with diagonal ``dg`` (n) and off-diagonal
    ``e`` (n − 1), ascending, into ``w`` (k): LAPACK ``dstebz``'s bisection on Sturm counts, with its pivot guard and
    its stopping rule for ``abstol = 0`` (width below ``max(ulp·‖T‖, pivmin, 2·ulp·max(|a|, |b|))``; Gershgorin start
    widened as it does), the midpoint returned — but the k intervals advanced together, so that their independent
    recurrences overlap (``dstebz`` first brackets the index range, then refines one interval after another). False
    (``w`` unset) where ``dstebz`` would split the matrix into blocks: an off-diagonal entry negligible against its
    neighbours."""
    n = dg.shape[0]
    e2max = 0.0
    for i in range(n - 1):
        e2max = max(e2max, e[i] * e[i])
        if e[i] * e[i] <= abs(dg[i] * dg[i + 1]) * _ULP * _ULP + _SAFMIN:
            return False  # dstebz would split the matrix into blocks here
    pivmin = _SAFMIN * max(1.0, e2max)
    gl = dg[0]
    gu = dg[0]
    for i in range(n):
        r = 0.0
        if i > 0:
            r += abs(e[i - 1])
        if i < n - 1:
            r += abs(e[i])
        gl = min(gl, dg[i] - r)
        gu = max(gu, dg[i] + r)
    tnorm = max(abs(gl), abs(gu))
    gl = gl - 2.1 * tnorm * _ULP * n - 4.2 * pivmin
    gu = gu + 2.1 * tnorm * _ULP * n + 4.2 * pivmin
    atol = max(_ULP * tnorm, pivmin)
    a = np.empty(k)
    b = np.empty(k)
    x = np.empty(k)
    q = np.empty(k)
    cnt = np.empty(k, np.int64)
    for j in range(k):
        a[j] = gl
        b[j] = gu
    for _ in range(4 * 64):
        for j in range(k):
            x[j] = 0.5 * (a[j] + b[j])
            t = dg[0] - x[j]
            if abs(t) < pivmin:
                t = -pivmin
            q[j] = t
            cnt[j] = 1 if t <= 0.0 else 0
        for i in range(1, n):
            e2 = e[i - 1] * e[i - 1]
            for j in range(k):
                t = dg[i] - e2 / q[j] - x[j]
                if abs(t) < pivmin:
                    t = -pivmin
                q[j] = t
                if t <= 0.0:
                    cnt[j] += 1
        done = True
        for j in range(k):
            # the eigenvalue of ascending index n - k + j: at most that many below a, more below b
            if cnt[j] <= n - k + j:
                a[j] = x[j]
            else:
                b[j] = x[j]
            if b[j] - a[j] >= max(atol, 2.0 * _ULP * max(abs(a[j]), abs(b[j]))):
                done = False
        if done:
            break
    for j in range(k):
        w[j] = 0.5 * (a[j] + b[j])
    return True


_top_tridiagonal = compiled(_top_tridiagonal_loop)


@functools.cache
def _sytrd(d: int):
    """LAPACK ``dsytrd`` and its workspace size for a d × d matrix."""
    sytrd, sytrd_lwork = linalg.get_lapack_funcs(("sytrd", "sytrd_lwork"), (np.empty((1, 1)),))
    return sytrd, linalg.lapack._compute_lwork(sytrd_lwork, n=d, lower=1)


def _top_k_bisect(m: np.ndarray, k: int):
    """The top-k eigenpairs of one symmetric matrix ``m`` (lower triangle read), ascending like ``syevx``'s: LAPACK
    ``dsytrd``, the k largest eigenvalues of the tridiagonal matrix by ``_top_tridiagonal_loop``, their vectors
    by LAPACK ``dstein``, and the back-transformation ``dormtr`` makes (for a lower ``dsytrd``: ``dormqr`` on the
    reflectors below the subdiagonal) — ``dsyevx``'s steps with the bisection's k intervals advanced together.
    ``None`` where ``dsyevx`` would split the tridiagonal matrix into blocks or ``dstein`` does not converge: the
    caller falls back to ``syevx``."""
    d = m.shape[0]
    sytrd, lwork = _sytrd(d)
    c, dg, e, tau, info = sytrd(m, lower=1, lwork=lwork)
    w = np.empty(k)
    if info != 0 or not _top_tridiagonal()(dg, e, k, w):
        return None
    z, info = linalg.lapack.dstein(dg, e, w, _ones_int(d), _split(d))
    if info != 0:
        return None
    if d > 1:
        z[1:], _, info = linalg.lapack.dormqr("L", "N", c[1:, :-1], tau, z[1:], 64 * k)
        if info != 0:
            return None
    return w, z


@functools.cache
def _ones_int(d: int) -> np.ndarray:
    """``dstein``'s ``iblock``: every eigenvalue in block 1 (no split)."""
    return np.ones(d, dtype=np.int32)


@functools.cache
def _split(d: int) -> np.ndarray:
    """``dstein``'s ``isplit``: one block ending at row d."""
    return np.full(d, d, dtype=np.int32)


#: The engines of :func:`top_k_eigh`.
EIGH_ENGINES = ("syevx", "bisect")


def top_k_eigh(a: np.ndarray, k: int, engine: str = "syevx") -> tuple[np.ndarray, np.ndarray]:
    """The ``k`` largest (algebraic) eigenvalues, descending, and their orthonormal eigenvectors of each symmetric
    matrix in ``a`` (…, d, d) → ((…, k), (…, d, k)), lower triangle read. LAPACK ``syevx`` for the index range
    ``d−k+1..d``: the call ``scipy.linalg.eigh(m, subset_by_index=[d−k, d−1], driver="evx")`` makes, with the same
    workspace, so bit-identical to it (tested), without its per-call overhead (the sweeps make ~3·10⁴ calls on
    matrices of d ≤ 113; the overhead is 10–60 % of a call). A loop over the stacked matrices (sites ×
    repetitions, never records): ``numpy.linalg.eigh`` on the stack computes every eigenpair and is slower from
    d ≈ 50 on.

    ``engine="bisect"`` (opt-in, not what the chapter runs) takes ``syevx``'s steps with its bisection compiled and
    the k intervals advanced together (``_top_tridiagonal_loop``), about 0.7x the time per call from d ≈ 30 on
    (issue 50), but only 0.93x the energy sweep's CPU time at the chapter's defaults (37.0 against 39.7 s): too little
    to change the chapter's bits for. The same eigenpairs to rounding, not bit for bit (tested against ``syevx``;
    captured energies within 7·10⁻¹⁵ over the default sweep), with ``syevx`` wherever the tridiagonal matrix
    splits."""
    a = np.asarray(a, dtype=float)
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise ValueError(f"a must be a stack of square matrices, got shape {a.shape}")
    d = a.shape[-1]
    k = check_int(k, "k", minimum=1, maximum=d)
    if engine not in EIGH_ENGINES:
        raise ValueError(f"engine must be one of {EIGH_ENGINES}, got {engine!r}")
    syevx, lwork = _syevx(d)
    flat = a.reshape(-1, d, d)
    vals = np.empty((flat.shape[0], k))
    vecs = np.empty((flat.shape[0], d, k))
    for i, m in enumerate(flat):
        if engine == "bisect":
            found_wz = _top_k_bisect(m, k)
            if found_wz is not None:
                vals[i], vecs[i] = found_wz[0][::-1], found_wz[1][:, ::-1]
                continue
        w, v, found, _, info = syevx(
            m, compute_v=1, range="I", il=d - k + 1, iu=d, lower=1, lwork=lwork
        )
        if info != 0 or found != k:
            raise np.linalg.LinAlgError(
                f"a must be a stack of symmetric matrices whose eigenpairs converge: syevx info={info}"
            )
        vals[i], vecs[i] = w[k - 1 :: -1], v[:, k - 1 :: -1]
    return vals.reshape(*a.shape[:-2], k), vecs.reshape(*a.shape[:-2], d, k)


def top_k_subspace(a: np.ndarray, k: int) -> np.ndarray:
    """Orthonormal eigenvectors of the ``k`` largest (algebraic) eigenvalues of symmetric ``a`` (…, d, d) → (…, d, k).

    The noisy matrices are symmetric by construction; see :func:`top_k_eigh`.
    """
    return top_k_eigh(a, k)[1]


def captured_energy(a: np.ndarray, v: np.ndarray) -> np.ndarray | float:
    """``q = tr(VᵀAV) / Σ_{j≤k} λ_j(A)``: the energy of ``A`` captured by the k-dim subspace ``V``, relative to the
    best k-dim subspace (1 for the non-private top-k subspace) :cite:`imtiaz2018distributed`. ``v`` may be stacked."""
    a = check_array(a, "a", ndim=2)
    v = np.asarray(v, dtype=float)
    if v.ndim < 2 or v.shape[-2] != a.shape[0]:
        raise ValueError(f"v must have shape (..., {a.shape[0]}, k), got {v.shape}")
    k = v.shape[-1]
    best = float(np.sum(np.linalg.eigvalsh(a)[::-1][:k]))
    q = np.einsum("...ik,...ik->...", v, a @ v) / best  # tr(Vᵀ A V) with A V one BLAS product
    return float(q) if np.ndim(q) == 0 else q


#: The cells of :func:`~dpcompendium.chapters.federated_pca.energy_table` two methods are compared on.
CELL_KEY = ["dataset", "split", "epsilon", "sites"]


def aligned_cells(
    energy: pd.DataFrame, method: str, reference: str
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The rows of ``method`` and of ``reference`` in an energy table, indexed by their cell (:data:`CELL_KEY`) and
    sorted, so that the two frames align row by row; ValueError unless both have the same, non-empty set of cells."""
    a = energy[energy.method == method].set_index(CELL_KEY).sort_index()
    b = energy[energy.method == reference].set_index(CELL_KEY).sort_index()
    if a.empty or not a.index.equals(b.index):
        raise ValueError(
            f"method and reference must have the same cells, got {method!r} and {reference!r}"
        )
    return a, b
