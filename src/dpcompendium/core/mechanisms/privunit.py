"""PrivUnitG: ε-LDP mean estimation of vectors of bounded ℓ2 norm [asi2022optimal, bhowmick2018protection]; and
ProjUnit [asi2023fast], PrivUnitG in a public random k-dimensional projection (:func:`projunit`).

One user holds v ∈ ℝ^d with ‖v‖₂ ≤ C (the clip norm, public). The report:

1. *Randomized rounding to the sphere*: u = ±v/‖v‖, the sign + with probability (1 + ‖v‖/C)/2, so that
   C·E[u] = v (a zero vector takes ±e₁ with probability 1/2 each).
2. *PrivUnitG* on the unit vector u [asi2022optimal, algorithm PrivUnitG]: draw U ~ N(0, I_d) conditioned on
   ⟨U, u⟩ ≥ γ with probability p, on ⟨U, u⟩ < γ otherwise — ⟨U, u⟩ is a truncated normal, the part of U
   orthogonal to u stays N(0, I − uuᵀ) — and send C·U/m.

Privacy (local neighbours: any two inputs of one user). The output density given u is
φ_d(U)·(p/q if ⟨U, u⟩ ≥ γ else (1 − p)/(1 − q)) with q = P(⟨U, u⟩ ≥ γ) = Φ(−γ), so the ratio for two inputs is
at most (p/q)/((1 − p)/(1 − q)), attained for d ≥ 2: ε_used = logit(p) − logit(q) exactly. The rounding is
a randomised map from v to a unit vector, so the whole report is ε_used-LDP for every ‖v‖ ≤ C. The budget is
split ε = ε₀ + ε₁ with p = e^ε₀/(1 + e^ε₀) and q = 1/(1 + e^ε₁) [asi2022optimal, section 3].

Unbiasedness: E[U] = E[⟨U, u⟩]·u and E[⟨U, u⟩] = φ(γ)·(p/q − (1 − p)/(1 − q)) = m, so E[C·U/m] = C·E[u] = v.
(The paper draws U ~ N(0, σ²I) with σ² = 1/d and γ = σΦ⁻¹(1 − q); U/m does not depend on σ, so σ = 1 here.)

Calibration (:func:`privunitg_params`), CPU-independent: ε₀ is taken on the declared grid ε·k/128,
k = 0, …, 127, the one with the smallest E‖C·U/m‖² = C²(d − 1 + E⟨U, u⟩²)/m² (closed form); p is rounded down to
a multiple of 2⁻⁴⁰ and γ down to a multiple of 2⁻²⁰ minus one step (both exact binary numbers, each rounding only
lowers the privacy loss), and ε_used is recomputed from the rounded p and γ and checked ≤ ε — the margin of the
rounding (≥ 10⁻⁷) is far above the floating-point error of that check.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike
from scipy.special import log_ndtr, ndtr, ndtri

from ..messages import message, tex
from ..privacy import PrivacyClaim
from ..validation import check_array, check_epsilon, check_int, check_rng, check_sensitivity

__all__ = [
    "EPS0_GRID",
    "PrivUnitGParams",
    "clip_l2",
    "privunitg",
    "privunitg_claim",
    "privunitg_params",
    "privunitg_rows",
    "projunit",
    "projunit_claim",
    "projunit_decode",
    "projunit_scale",
]

#: ε₀ is chosen among ε·k/EPS0_GRID, k = 0, …, EPS0_GRID − 1 (ε₁ = ε − ε₀ > 0).
EPS0_GRID = 128
_P_STEP = 2.0**-40  # p is rounded down to a multiple of this
_T_STEP = 2.0**-20  # γ is rounded down to a multiple of this, minus one step


@dataclass(frozen=True)
class PrivUnitGParams:
    """PrivUnitG's parameters for budget ``epsilon`` in dimension ``d`` (:func:`privunitg_params`).

    ``eps0``: the grid value of ε₀; ``p``: the probability of the cap ⟨U, u⟩ ≥ γ; ``gamma``: γ (in units of the
    Gaussian's σ); ``q`` = Φ(−γ); ``m``: the unbiasing scale; ``variance``: E‖U/m‖² (per unit clip norm);
    ``eps_used``: the exact LDP level logit(p) − logit(q) of the values used (≤ ``epsilon``)."""

    epsilon: float
    d: int
    eps0: float
    p: float
    gamma: float
    q: float
    m: float
    variance: float
    eps_used: float


def _logit_gap(p: np.ndarray, t: np.ndarray) -> np.ndarray:
    """logit(p) − logit(Φ(−t)): the LDP level of PrivUnitG with cap probability p and threshold t."""
    return np.log(p) - np.log1p(-p) + log_ndtr(t) - log_ndtr(-t)


def privunitg_params(epsilon: float, d: int) -> PrivUnitGParams:
    """Calibrate PrivUnitG for ε and dimension d ≥ 2 on the declared grid of ε₀ (module docstring)."""
    eps = check_epsilon(epsilon)
    d = check_int(d, "d", minimum=2)
    eps0 = eps * np.arange(EPS0_GRID) / EPS0_GRID
    eps1 = eps - eps0
    # p = e^ε₀/(1 + e^ε₀), rounded down
    p = np.floor(np.exp(-np.logaddexp(0.0, -eps0)) / _P_STEP) * _P_STEP
    t_exact = -ndtri(np.exp(-np.logaddexp(0.0, eps1)))  # Φ⁻¹(1 − q), q = 1/(1 + e^ε₁)
    t = (np.floor(t_exact / _T_STEP) - 1.0) * _T_STEP
    q = ndtr(-t)
    pdf = np.exp(-0.5 * t * t) / math.sqrt(2.0 * math.pi)
    diff = p / q - (1.0 - p) / (1.0 - q)
    m = pdf * diff
    second = 1.0 + t * pdf * diff  # E⟨U, u⟩²
    var = (d - 1.0 + second) / (m * m)
    i = int(np.argmin(var))
    used = float(_logit_gap(p[i], t[i]))
    # the roundings only lower the loss: this cannot fail unless the numerics do
    if not used <= eps:
        raise ValueError(f"PrivUnitG calibration spends {used!r} > epsilon = {eps!r}")
    return PrivUnitGParams(
        eps,
        d,
        float(eps0[i]),
        float(p[i]),
        float(t[i]),
        float(q[i]),
        float(m[i]),
        float(var[i]),
        used,
    )


def clip_l2(v: ArrayLike, clip_norm: float) -> np.ndarray:
    """Rows of ``v`` (last axis) scaled down to ℓ2 norm at most ``clip_norm``: v·min(1, C/‖v‖)."""
    a = check_array(v, "v", ndim=None)
    c = check_sensitivity(clip_norm, "clip_norm")
    norm = _norms(a)
    scale = np.minimum(1.0, c / np.maximum(norm, np.finfo(float).tiny))
    return a * scale[..., None]


def privunitg(
    v: ArrayLike,
    epsilon: float,
    rng: np.random.Generator,
    *,
    clip_norm: float = 1.0,
    params: PrivUnitGParams | None = None,
) -> np.ndarray:
    """Each row of ``v`` (shape (..., d), d ≥ 2, ‖row‖₂ ≤ ``clip_norm``) privatized by PrivUnitG, ε-LDP under
    local neighbours (any two rows of norm ≤ C), unbiased: E[output] = row. Vectorized over the leading axes.

    Draws, in this order: one uniform array (3, ...) (rounding sign, cap or not, the truncated normal's quantile),
    then the Gaussian (..., d). ``params``: a calibration of :func:`privunitg_params` for this ε and d (default:
    computed). The relation, sensitivity and conditions: :func:`privunitg_claim`.
    """
    rng = check_rng(rng)
    a = check_array(v, "v", ndim=None)
    if a.ndim < 1 or a.shape[-1] < 2:
        raise ValueError(
            f"v must have rows of dimension d >= 2 on its last axis, got shape {a.shape}"
        )
    c = check_sensitivity(clip_norm, "clip_norm")
    eps = check_epsilon(epsilon)
    params = _calibration(params, eps, a.shape[-1], "d")
    return privunitg_rows(a, _clipped_norms(a, c), params, rng, clip_norm=c)


def _calibration(params: PrivUnitGParams | None, eps: float, d: int, what: str) -> PrivUnitGParams:
    """PrivUnitG's calibration for (ε, d): ``params`` checked against them, or computed if None (``what`` names
    the dimension in the error: ``d``, ``d=k``)."""
    if params is None:
        return privunitg_params(eps, d)
    if params.d != d or params.epsilon != eps:
        raise ValueError(
            f"params must be calibrated for epsilon={eps!r}, {what}={d}, got epsilon={params.epsilon!r}, d={params.d}"
        )
    return params


def _norms(a: np.ndarray) -> np.ndarray:
    """The ℓ2 norms of the rows of ``a`` (last axis)."""
    return np.sqrt(np.einsum("...i,...i->...", a, a))


def _clipped_norms(a: np.ndarray, c: float) -> np.ndarray:
    """The row norms of ``a``, refused (one line) where a row is longer than the clip norm ``c``."""
    norm = _norms(a)
    if np.any(norm > c * (1.0 + 1e-12)):
        raise ValueError(
            f"v must have rows of l2 norm <= clip_norm = {c!r}, got {float(norm.max())!r}"
        )
    return norm


def privunitg_rows(
    a: np.ndarray,
    norm: np.ndarray,
    params: PrivUnitGParams,
    rng: np.random.Generator,
    *,
    clip_norm: float,
) -> np.ndarray:
    """:func:`privunitg` without its checks, for a caller that clipped the rows itself: ``a`` (..., d) float rows,
    ``norm`` (...) their ℓ2 norms, each ≤ ``clip_norm``; ``params`` calibrated for d. The same draws and numbers
    as :func:`privunitg` (which calls it)."""
    c = clip_norm
    zero = norm == 0.0
    u = a * (1.0 / np.where(zero, 1.0, norm))[..., None]
    if zero.any():
        u[zero, 0] = 1.0  # a zero row rounds to ±e₁
    draws = rng.random((3, *a.shape[:-1]))
    # randomized rounding: +u with probability (1 + ‖v‖/C)/2, so C·E[±u] = v
    keep = draws[0] < 0.5 * (1.0 + np.minimum(norm / c, 1.0))
    # ⟨U, ±u⟩ = α: Φ(−α) uniform on (0, q] in the cap (prob. p), Φ(α) uniform on (0, 1 − q] below it
    cap = draws[1] < params.p
    x = ndtri((1.0 - draws[2]) * np.where(cap, params.q, ndtr(params.gamma)))
    # U = Z + (α − ⟨Z, ±u⟩)(±u) = Z + (±α − ⟨Z, u⟩) u
    alpha = np.where(cap == keep, -x, x)
    z = rng.standard_normal(a.shape)
    alpha -= np.einsum("...i,...i->...", z, u)
    u *= alpha[..., None]
    z += u
    z *= c / params.m
    return z


def privunitg_claim(epsilon: float, *, clip_norm: float = 1.0) -> PrivacyClaim:
    """The claim of one PrivUnitG report (:func:`privunitg`): ε-LDP, local neighbours (any two inputs of one user),
    every input of ℓ2 norm ≤ C (clipped before the mechanism)."""
    eps = check_epsilon(epsilon)
    c = check_sensitivity(clip_norm, "clip_norm")
    return PrivacyClaim(
        message("claims.privunit.mech"),
        "local",
        message("claims.privunit.sens", c=tex(f"{c:g}")),
        eps,
        conditions=(message("claims.privunit.cond_clip", c=tex(f"{c:g}")),),
    )


# ProjUnit [asi2023fast]: PrivUnitG in a public random k-dimensional projection (referee 12, §3)


def projunit_scale(d: int, k: int) -> float:
    """E‖P u‖ for a unit vector u of ℝ^d and P the orthogonal projection on a uniformly random k-dimensional
    subspace: ‖P u‖² ~ Beta(k/2, (d − k)/2), so E‖P u‖ = Γ((k + 1)/2) Γ(d/2) / (Γ(k/2) Γ((d + 1)/2)) (1 when k = d).
    ProjUnit's decoder divides by it (:func:`projunit_decode`)."""
    d = check_int(d, "d", minimum=2)
    k = check_int(k, "k", minimum=2, maximum=d)
    if k == d:
        return 1.0
    return math.exp(
        math.lgamma((k + 1) / 2)
        + math.lgamma(d / 2)
        - math.lgamma(k / 2)
        - math.lgamma((d + 1) / 2)
    )


def projunit(
    v: ArrayLike,
    epsilon: float,
    rng: np.random.Generator,
    *,
    k: int = 2,
    clip_norm: float = 1.0,
    params: PrivUnitGParams | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """ProjUnit [asi2023fast]: each row of ``v`` (shape (n, d), ‖row‖₂ ≤ ``clip_norm``) rounded to a unit vector u
    as by :func:`privunitg` (C·E[u] = row), projected by its own random W (k, d) with orthonormal rows — a uniformly
    random k-dimensional subspace, drawn independently of the data (the QR factor of a Gaussian matrix) — and the unit
    vector W u/‖W u‖ privatized by PrivUnitG in k dimensions (``params``: a calibration for ε and k). Returns
    (W (n, k, d), z (n, k)), the user's report; :func:`projunit_decode` turns it into an unbiased estimate.

    Privacy: W does not depend on the data; given W, z is PrivUnitG's output on a unit vector of ℝ^k, ε_used-LDP for
    any two inputs; so (W, z) is ε-LDP, local neighbours (:func:`projunit_claim`). Draws, in this order: the Gaussian
    (n, d, k) of the projections, the uniforms (3, n) and the Gaussian (n, k) of :func:`privunitg_rows`."""
    rng = check_rng(rng)
    a = check_array(v, "v", ndim=2)
    n, d = a.shape
    if d < 2:
        raise ValueError(f"v must have rows of dimension d >= 2, got shape {a.shape}")
    k = check_int(k, "k", minimum=2, maximum=d)
    c = check_sensitivity(clip_norm, "clip_norm")
    eps = check_epsilon(epsilon)
    params = _calibration(params, eps, k, "d=k")
    norm = _clipped_norms(a, c)
    q, r = np.linalg.qr(rng.standard_normal((n, d, k)))  # (n, d, k): orthonormal columns
    w = np.swapaxes(
        q * np.sign(np.diagonal(r, axis1=1, axis2=2))[:, None, :], 1, 2
    )  # Haar, (n, k, d)
    # the rounding of privunitg_rows, on the projected direction: u = ±v/‖v‖ with C·E[u] = v, then W u/‖W u‖.
    # Projecting v itself and keeping its norm: W v/‖W v‖ has the same direction as W u up to u's sign, and the
    # rounding's sign is drawn by privunitg_rows from ‖v‖/C, so the pair (direction, sign) is as for u.
    pv = np.einsum("nkd,nd->nk", w, a)
    pnorm = _norms(pv)
    unit = pv / np.where(pnorm > 0.0, pnorm, 1.0)[:, None]
    unit[pnorm == 0.0] = 0.0  # a zero row (or one W annihilates): privunitg_rows rounds it to ±e1
    z = privunitg_rows(
        unit * np.minimum(norm / c, 1.0)[:, None],
        np.minimum(norm / c, 1.0),
        params,
        rng,
        clip_norm=1.0,
    )
    return w, z


def projunit_decode(w: np.ndarray, z: np.ndarray, *, clip_norm: float = 1.0) -> np.ndarray:
    """The collector's unbiased estimates (n, d) of ProjUnit's reports (W (n, k, d), z (n, k); :func:`projunit`):
    C·Wᵀz / E‖P u‖ (:func:`projunit_scale`). E[Wᵀz | W, u] = W u/‖W u‖ lifted back, whose mean over W is E‖P u‖·u
    (the component orthogonal to u averages to zero by symmetry)."""
    c = check_sensitivity(clip_norm, "clip_norm")
    _, k, d = w.shape
    return np.einsum("nkd,nk->nd", w, z) * (c / projunit_scale(d, k))


def projunit_claim(epsilon: float, *, k: int = 2, clip_norm: float = 1.0) -> PrivacyClaim:
    """The claim of one ProjUnit report (:func:`projunit`): ε-LDP, local neighbours (any two inputs of one user),
    every input of ℓ2 norm ≤ C (clipped before the mechanism), the projection public and independent of the data."""
    eps = check_epsilon(epsilon)
    c = check_sensitivity(clip_norm, "clip_norm")
    k = check_int(k, "k", minimum=2)
    return PrivacyClaim(
        message("claims.projunit.mech", k=str(k)),
        "local",
        message("claims.privunit.sens", c=tex(f"{c:g}")),
        eps,
        conditions=(
            message("claims.privunit.cond_clip", c=tex(f"{c:g}")),
            message("claims.projunit.cond_public"),
        ),
    )
