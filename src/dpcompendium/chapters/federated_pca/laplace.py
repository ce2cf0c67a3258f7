"""Laplace input perturbation of ``A = XᵀX/n``: a covariance mechanism that is pure ε-DP.

The release is ``Â = A + L`` with ``L`` symmetric, its upper triangle (diagonal included) iid
``Lap(Δ₁/ε)`` and mirrored below, then the top-k eigenvectors of ``Â`` (post-processing). It is the Laplace
mechanism :cite:`dwork2006calibrating` on the ``d(d+1)/2`` distinct entries of ``A``, the pure-ε baseline that
:cite:`jiang2016wishart` compare the Wishart mechanism with (input perturbation, as in
:cite:`dwork2014analyze`, whose Gaussian version is Analyze Gauss).

Sensitivity (replace-one neighbours, ``n`` public, rows in the unit ball after public preprocessing): the entries
change by ``(x_i x_j − y_i y_j)/n`` when row ``x`` becomes ``y``, so

``Σ_{i≤j} |x_i x_j − y_i y_j| ≤ Σ_{i≤j} |x_i||x_j| + Σ_{i≤j} |y_i||y_j|``, and
``Σ_{i≤j} |x_i||x_j| = (‖x‖₁² + ‖x‖₂²)/2 ≤ (d‖x‖₂² + ‖x‖₂²)/2 ≤ (d + 1)/2`` (Cauchy–Schwarz: ``‖x‖₁ ≤ √d‖x‖₂``).

Hence ``Δ₁ = (d + 1)/n`` (:func:`laplace_sensitivity`). The bound is within a factor 2 of the supremum: the pair
``x = (1, …, 1)/√d → y = 0`` changes the triangle by ``(d + 1)/(2n)`` in ℓ1. The noise is symmetric because only
the upper triangle is drawn; the mirrored entries carry no further information, so the release is ε-DP with δ = 0.
"""

from __future__ import annotations

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
    "laplace_subspaces",
]


def laplace_sensitivity(d: int, n: int) -> float:
    """``Δ₁ = (d + 1)/n``: the ℓ1 sensitivity of the upper triangle (diagonal included) of ``A = XᵀX/n`` under
    replace-one neighbours, rows in the unit ball (the module's derivation)."""
    return (check_int(d, "d", minimum=1) + 1) / check_int(n, "n", minimum=1)


def laplace_scale(epsilon: float, d: int, n: int) -> float:
    """The Laplace scale ``b = Δ₁/ε = (d + 1)/(nε)`` of every upper-triangle entry."""
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
