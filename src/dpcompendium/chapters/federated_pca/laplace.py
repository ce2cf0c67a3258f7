"""Laplace input perturbation of ``A = XᵀX/n``: a covariance mechanism that is pure ε-DP.

The release is ``Â = A + L`` with ``L`` symmetric, its upper triangle (diagonal included) iid
``Lap(Δ₁/ε)`` and mirrored below, then the top-k eigenvectors of ``Â`` (post-processing). It is the Laplace
mechanism :cite:`dwork2006calibrating` on the ``d(d+1)/2`` distinct entries of ``A``, the pure-ε baseline that
:cite:`jiang2016wishart` compare the Wishart mechanism with (input perturbation, as in
:cite:`dwork2014analyze`, whose Gaussian version is Analyze Gauss).

Sensitivity (replace-one neighbours, ``n`` public, rows in the unit ball after public preprocessing): row ``x``
becomes ``y`` and the triangle changes by ``M_ij/n`` with ``M = xxᵀ − yyᵀ``. Let ``S`` be the symmetric ±1
matrix of the signs of ``M`` and ``s`` its diagonal. Then

``Σ_{i≤j} |M_ij| = ½ Σ_{i,j} S_ij M_ij + ½ Σ_i s_i M_ii = ½(xᵀSx − yᵀSy) + ½ Σ_i s_i (x_i² − y_i²)``.

``xᵀSx ≤ max(λ_max(S), 0)`` and ``−yᵀSy ≤ max(−λ_min(S), 0)``; the squares of these two sum to at most
``Σ λ² = ‖S‖_F² = d²``, so their sum is at most ``√2·d``; the diagonal term is at most ``‖x‖² + ‖y‖² ≤ 2``. Hence

``Δ₁ = (d/√2 + 1)/n`` (:func:`laplace_sensitivity`),

a factor ``√2(d + 1)/(d + √2)`` (1.41 at ``d = 108``) below the triangle-inequality bound ``(d + 1)/n``. It is
nearly attained (:func:`laplace_worst_pair`): split the coordinates into blocks of ``p = ⌈d/2⌉`` and ``q = ⌊d/2⌋``
and take ``x, y`` the unit eigenvectors of the two extreme eigenvalues of ``W = (S + diag s)/2`` with ``S`` = +1
inside the first block, −1 elsewhere; on the block-constant vectors ``W`` is the 2 × 2 matrix
``[[(p+1)/2, −√(pq)/2], [−√(pq)/2, −(q+1)/2]]``, so the change is its spread
``√((d + 2)²/4 + pq)`` (:func:`laplace_worst_change`): within 2.8 % of the bound at ``d = 13``, 0.4 % at
``d = 108``; for ``d ≤ 5`` an enumeration of every sign pattern (the tests) finds it is the supremum. The noise is symmetric
because only the upper triangle is drawn; the mirrored entries carry no further information, so the release is
ε-DP with δ = 0.
"""

from __future__ import annotations

import math

import numpy as np

from ...core.messages import message, number
from ...core.privacy import PrivacyClaim
from ...core.validation import check_delta, check_epsilon, check_int, check_rng
from .core import _unpack_symmetric, top_k_subspace

__all__ = [
    "laplace_noise",
    "laplace_pca",
    "laplace_privacy_claim",
    "laplace_scale",
    "laplace_sensitivity",
    "laplace_slack",
    "laplace_subspaces",
    "laplace_worst_change",
    "laplace_worst_pair",
]


def laplace_sensitivity(d: int, n: int) -> float:
    """``Δ₁ = (d/√2 + 1)/n``: a bound on the ℓ1 sensitivity of the upper triangle (diagonal included) of
    ``A = XᵀX/n`` under replace-one neighbours, rows in the unit ball (the module's derivation), within
    ``(d/√2 + 1)/√((d + 2)²/4 + ⌊d²/4⌋)`` of the change of :func:`laplace_worst_pair`."""
    return (check_int(d, "d", minimum=1) / math.sqrt(2) + 1) / check_int(n, "n", minimum=1)


def laplace_worst_change(d: int, n: int) -> float:
    """``√((d + 2)²/4 + pq)/n`` with ``p = ⌈d/2⌉``, ``q = ⌊d/2⌋`` (``1/n`` for ``d = 1``): the ℓ1 change of the
    triangle that the pair of :func:`laplace_worst_pair` makes, a lower bound on the sensitivity."""
    d = check_int(d, "d", minimum=1)
    n = check_int(n, "n", minimum=1)
    if d == 1:
        return 1.0 / n
    p, q = (d + 1) // 2, d // 2
    return math.sqrt((d + 2) ** 2 / 4 + p * q) / n


def laplace_slack(d: int) -> float:
    """How far :func:`laplace_sensitivity` may exceed the true sensitivity, as a fraction: the bound over the change
    of :func:`laplace_worst_pair`, minus 1 (0.028 at ``d = 13``, 0.0038 at ``d = 108``)."""
    return laplace_sensitivity(d, 1) / laplace_worst_change(d, 1) - 1.0


def laplace_worst_pair(d: int) -> tuple[np.ndarray, np.ndarray]:
    """Two unit rows ``x → y`` whose change of the upper triangle, ``Σ_{i≤j} |x_i x_j − y_i y_j|``, is
    ``n`` times :func:`laplace_worst_change` (the module): constant on a block of ``⌈d/2⌉`` coordinates and on the
    rest, from the two extreme eigenvectors of a 2 × 2 matrix. For ``d = 1``: ``(1) → (0)``."""
    d = check_int(d, "d", minimum=1)
    if d == 1:
        return np.ones(1), np.zeros(1)
    p, q = (d + 1) // 2, d // 2
    r = math.sqrt(p * q) / 2
    _, vec = np.linalg.eigh(np.array([[(p + 1) / 2, -r], [-r, -(q + 1) / 2]]))
    block = np.repeat([1.0 / math.sqrt(p), 1.0 / math.sqrt(q)], [p, q])
    return block * np.repeat(vec[:, 1], [p, q]), block * np.repeat(vec[:, 0], [p, q])


def laplace_scale(epsilon: float, d: int, n: int) -> float:
    """The Laplace scale ``b = Δ₁/ε = (d/√2 + 1)/(nε)`` of every upper-triangle entry."""
    return laplace_sensitivity(d, n) / check_epsilon(epsilon)


def laplace_noise(
    d: int, scale: float | np.ndarray, rng: np.random.Generator, size: tuple[int, ...] = ()
) -> np.ndarray:
    """Symmetric ``d × d`` noise: upper triangle (with diagonal) iid ``Lap(b)``, mirrored below; shape
    ``size + (d, d)``. Only the ``d(d+1)/2`` upper entries are drawn, in row-major order. ``scale`` (``b``) may be
    an array broadcastable to ``size`` (one scale per matrix)."""
    d = check_int(d, "d", minimum=1)
    rng = check_rng(rng)
    b = np.asarray(scale, dtype=float)
    if not (np.all(np.isfinite(b)) and np.all(b > 0)):
        raise ValueError(f"scale must be finite and > 0, got {scale!r}")
    z = rng.laplace(0.0, 1.0, size=(*size, d * (d + 1) // 2))
    z *= np.broadcast_to(b, size)[..., None]
    return _unpack_symmetric(z, d)


def laplace_subspaces(
    a: np.ndarray, n: int, k: int, epsilons, rng: np.random.Generator
) -> np.ndarray:
    """The top-k eigenvectors of ``A + L`` at every ε (one draw each, in order): (len(ε), d, k)."""
    a = np.asarray(a, dtype=float)
    d = a.shape[0]
    k = check_int(k, "k", minimum=1, maximum=d)
    scales = np.array([laplace_scale(e, d, n) for e in epsilons])
    return top_k_subspace(a + laplace_noise(d, scales, rng, size=(len(scales),)), k)


def laplace_pca(x: np.ndarray, k: int, epsilon: float, rng: np.random.Generator) -> np.ndarray:
    """The d × k subspace that Laplace input perturbation releases from the rows ``x`` (each in the unit ball;
    ``n`` = its rows, public): ε-DP under replace-one neighbours (:func:`laplace_privacy_claim`)."""
    x = np.asarray(x, dtype=float)
    if x.ndim != 2 or (np.linalg.norm(x, axis=1) > 1 + 1e-9).any():
        raise ValueError(f"x must be a 2-D array of rows in the unit ball, got shape {x.shape}")
    n = x.shape[0]
    return laplace_subspaces(x.T @ x / n, n, k, [epsilon], rng)[0]


def laplace_privacy_claim(
    epsilon: float, delta: float = 0.0, n: int | None = None, d: int | None = None
) -> PrivacyClaim:
    """Laplace input perturbation's claim: ε-DP (δ = 0) under replace-one neighbours, rows in the unit ball, ``n``
    public. With ``delta > 0`` the claim is stated at that δ (an ε-DP mechanism is (ε, δ)-DP for every δ), as a
    comparison with an (ε, δ) arm needs. ``n`` and ``d`` give the sensitivity's value when known."""
    eps = check_epsilon(epsilon)
    dlt = 0.0 if delta == 0 else check_delta(delta)
    if n is not None and d is not None:
        sens = message(
            "claims.fedpca.sens_laplace_value", value=number(laplace_sensitivity(d, n), 3)
        )
    else:
        sens = message("claims.fedpca.sens_laplace")
    return PrivacyClaim(
        message("claims.fedpca.mech_laplace"),
        "replace-one",
        sens,
        eps,
        dlt,
        True,
        message("claims.fedpca.why_laplace") if dlt > 0 else "",
        (message("claims.fedpca.cond_wishart"),),
    )
