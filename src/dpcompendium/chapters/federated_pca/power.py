"""The DP noisy power method :cite:`fedpca_hardt2014noisy,fedpca_balcan2016improved`, central or federated.

Start from a random orthonormal ``X₀`` (d × k, data-independent) and iterate ``L`` times
``Y_l = A X_{l−1} + G_l``, ``X_l = QR(Y_l)``, with ``G_l`` iid ``N(0, σ²)`` (d × k). Under replace-one neighbours
(rows in the unit ball, n public) ``‖(A′ − A)X‖_F = ‖(yyᵀ − xxᵀ)X‖_F/n ≤ ‖yyᵀ − xxᵀ‖_F ‖X‖₂/n ≤ √2/n`` for any
orthonormal ``X`` (``‖yyᵀ − xxᵀ‖_F² = ‖y‖⁴ + ‖x‖⁴ − 2(xᵀy)² ≤ 2``, attained by orthogonal unit vectors), so every
iteration is a Gaussian mechanism of sensitivity ``Δ = √2/n`` — the sensitivity of Analyze Gauss — chosen
adaptively. ``L`` adaptive Gaussian mechanisms
compose *exactly* into one of sensitivity ``Δ√L`` at the same σ (Gaussian differential privacy,
:cite:`audit_dong2022gaussian`), so ``σ`` is the Gaussian calibration at ``(Δ√L, ε, δ)``. Federated: each site sends
``A_iX + G_i`` with ``G_i ~ N(0, σ²/s)`` under secure aggregation, and the server sees exactly ``AX + G`` — the
same law, with the same coalition bound as :func:`~dpcompendium.chapters.federated_pca.coalition_epsilon`.
"""

from __future__ import annotations

import math

import numpy as np

from ...core.mechanisms.gaussian import calibrated_sigma, gaussian_claim
from ...core.messages import message, tex
from ...core.privacy import PrivacyClaim
from ...core.validation import check_delta, check_epsilon, check_int, check_rng
from .core import Calibration

__all__ = ["POWER_ITERS", "noisy_power_pca", "power_noise_scale", "power_privacy_claim"]

#: The number of iterations ``L`` of the chapter's noisy power method (a constant of the method, public).
POWER_ITERS = 10


def _sens(n: int, iters: int) -> float:
    return (
        math.sqrt(2.0)
        / check_int(n, "n", minimum=1)
        * math.sqrt(check_int(iters, "iters", minimum=1))
    )


def power_noise_scale(
    epsilon: float,
    delta: float,
    n: int,
    *,
    iters: int = POWER_ITERS,
    calibration: Calibration = "classical",
) -> float:
    """σ of every iteration: the Gaussian calibration at sensitivity ``(√2/n)√L`` (exact composition of L Gaussian
    mechanisms of sensitivity √2/n)."""
    return calibrated_sigma(_sens(n, iters), epsilon, delta, calibration)


def noisy_power_pca(
    data,
    k: int,
    epsilon: float,
    delta: float,
    rng: np.random.Generator,
    *,
    iters: int = POWER_ITERS,
    reps: int | None = None,
    calibration: Calibration = "classical",
) -> np.ndarray:
    """The noisy power method on the pooled ``A`` of ``data`` (a
    :class:`~dpcompendium.chapters.federated_pca.SiteData`): an orthonormal d × k basis (a stack with ``reps``)."""
    rng = check_rng(rng)
    d = data.d
    k = check_int(k, "k", minimum=1, maximum=d)
    sigma = power_noise_scale(epsilon, delta, data.n, iters=iters, calibration=calibration)
    size = () if reps is None else (check_int(reps, "reps", minimum=1),)
    a = data.second_moment
    x = np.linalg.qr(rng.standard_normal((*size, d, k)))[0]
    for _ in range(check_int(iters, "iters", minimum=1)):
        x = np.linalg.qr(a @ x + sigma * rng.standard_normal((*size, d, k)))[0]
    return x


def _noisy_power(
    a: np.ndarray, k: int, sigmas: np.ndarray, iters: int, rng: np.random.Generator
) -> np.ndarray:
    """The noisy power method on ``a`` at each σ of ``sigmas`` (m,) → (m, d, k): what ``m`` calls of
    :func:`noisy_power_pca` (``reps=None``) at those σ compute, drawing the same numbers in the same order (each
    run's start, then its ``iters`` noise matrices), batched over the runs (one QR call per iteration)."""
    d = a.shape[-1]
    sig = np.asarray(sigmas, dtype=float)[:, None, None]
    g = rng.standard_normal((sig.shape[0], iters + 1, d, k))
    x = np.linalg.qr(g[:, 0])[0]
    for it in range(1, iters + 1):
        x = np.linalg.qr(a @ x + sig * g[:, it])[0]
    return x


def power_privacy_claim(
    epsilon: float,
    delta: float,
    n: int,
    *,
    iters: int = POWER_ITERS,
    calibration: Calibration = "classical",
) -> PrivacyClaim:
    """(ε, δ)-DP under replace-one (n public) for the released basis, when the Gaussian calibration at
    ``(√2/n)√L`` is valid (:func:`~dpcompendium.core.mechanisms.gaussian_claim`)."""
    eps, dlt = check_epsilon(epsilon), check_delta(delta)
    sens = _sens(n, iters)
    claim = PrivacyClaim(
        message("claims.fedpca.mech_power", iters=str(iters)),
        "replace-one",
        message("claims.fedpca.sens_power", iters=str(iters), sens=tex(f"{sens:.6g}")),
        eps,
        dlt,
        True,
        "",
        (
            message("claims.fedpca.cond_power_public"),
            message("claims.fedpca.cond_power_federated"),
        ),
    )
    g = gaussian_claim(sens, eps, dlt, calibration)
    return claim.with_conditions(*g.conditions) if g.private else claim.failing(g.why)
