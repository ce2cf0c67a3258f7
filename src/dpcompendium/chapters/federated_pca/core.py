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
from scipy import linalg

from ...core.mechanisms.gaussian import analytic_gaussian_sigma, calibrated_sigma
from ...core.validation import check_array, check_int, check_rng

__all__ = [
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
    rng = check_rng(rng)
    sig = np.asarray(sigma, dtype=float)
    if np.any(~np.isfinite(sig)) or np.any(sig < 0):
        raise ValueError(f"sigma must be finite and >= 0, got {sigma!r}")
    # only the d(d+1)/2 entries that are drawn; σ on them: the same products as on the matrix
    z = rng.standard_normal(size=(*size, d * (d + 1) // 2))
    z *= np.broadcast_to(sig, size)[..., None]
    # one gather builds both triangles (a scatter into the upper and one into the lower triangle costs twice it)
    return np.take(z, _mirror_gather(d), axis=-1).reshape(*size, d, d)


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


def top_k_eigh(a: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """The ``k`` largest (algebraic) eigenvalues, descending, and their orthonormal eigenvectors of each symmetric
    matrix in ``a`` (…, d, d) → ((…, k), (…, d, k)), lower triangle read. LAPACK ``syevx`` for the index range
    ``d−k+1..d``: the call ``scipy.linalg.eigh(m, subset_by_index=[d−k, d−1], driver="evx")`` makes, with the same
    workspace, so bit-identical to it (tested), without its per-call overhead (the sweeps make ~3·10⁴ calls on
    matrices of d ≤ 113; the overhead is 10–60 % of a call). A loop over the stacked matrices (sites ×
    repetitions, never records): ``numpy.linalg.eigh`` on the stack computes every eigenpair and is slower from
    d ≈ 50 on."""
    a = np.asarray(a, dtype=float)
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise ValueError(f"a must be a stack of square matrices, got shape {a.shape}")
    d = a.shape[-1]
    k = check_int(k, "k", minimum=1, maximum=d)
    syevx, lwork = _syevx(d)
    flat = a.reshape(-1, d, d)
    vals = np.empty((flat.shape[0], k))
    vecs = np.empty((flat.shape[0], d, k))
    for i, m in enumerate(flat):
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
