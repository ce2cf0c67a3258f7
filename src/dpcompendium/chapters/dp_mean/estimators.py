"""Four ways to release the average of values in declared bounds [a, b] (the source {cite}`src_dpmean`).

Notation: x₁…xₙ ∈ [a, b], Δ = b − a, s = Σxᵢ, m = (a + b)/2, μ = s/n. Every estimator is vectorized over
repetitions: ``size`` independent releases from one call (``size=None`` → one float). The source rounds every
answer to 2 decimals; rounding is post-processing (it cannot hurt privacy) and is left out here because at large
nε it would dominate the error.

Neighbour relations (Kifer & Machanavajjhala {cite}`dpmean_kifer2011nofreelunch`):
- replace-one (bounded DP, public n): |s − s'| ≤ Δ, the count needs no noise;
- add-remove (unbounded DP): |s − s'| ≤ max(|a|, |b|) and |n − n'| = 1.

Every estimator has a ``privacy_claim(epsilon, bounds, ...)`` attribute returning a
:class:`~dpcompendium.PrivacyClaim`.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, Literal

import numpy as np
from numpy.typing import ArrayLike

from ...core.mechanisms import laplace_mechanism
from ...core.messages import Md, message, named, tex
from ...core.privacy import PrivacyClaim
from ...core.validation import check_bounds, check_epsilon, check_in_domain, check_rng

__all__ = [
    "CLAMPED_ADD_REMOVE_THRESHOLD",
    "METHODS",
    "VARIANTS",
    "Variant",
    "clamped_add_remove_loss",
    "composition_epsilon",
    "effective_claim",
    "empty_branch_loss",
    "empty_branch_probabilities",
    "noisy_average_clamped",
    "noisy_average_composition",
    "noisy_average_normalized",
    "noisy_average_resampling",
    "privacy_claim",
    "resampling_acceptance",
]

Variant = Literal["as-written", "corrected"]
VARIANTS: tuple[str, ...] = ("as-written", "corrected")
NEIGHBOURS: tuple[str, ...] = ("replace-one", "add-remove")

#: Below this acceptance probability rejection sampling would take ~1e6 draws per release: refuse instead.
MIN_ACCEPTANCE = 1e-6


# ---------------------------------------------------------------------------------------------------- helpers
def _check_variant(variant: Any) -> str:
    if variant not in VARIANTS:
        raise ValueError(f"variant must be one of {'|'.join(VARIANTS)}, got {variant!r}")
    return variant


def _check_neighbours(neighbours: Any) -> str:
    if neighbours not in NEIGHBOURS:
        raise ValueError(f"neighbours must be one of {'|'.join(NEIGHBOURS)}, got {neighbours!r}")
    return neighbours


def _shape(size: int | tuple[int, ...] | None) -> tuple[int, ...]:
    if size is None:
        return ()
    shape = (size,) if isinstance(size, int | np.integer) else tuple(size)
    if any(isinstance(k, bool) or not isinstance(k, int | np.integer) or k < 0 for k in shape):
        raise ValueError(f"size must be None, a non-negative int or a tuple of them, got {size!r}")
    return tuple(int(k) for k in shape)


def _inputs(
    x: ArrayLike, epsilon: float, bounds: Any, rng: Any
) -> tuple[np.ndarray, float, float, float]:
    eps = check_epsilon(epsilon)
    lo, hi = check_bounds(bounds)
    arr = check_in_domain(x, (lo, hi), "x")
    if arr.ndim != 1:
        raise ValueError(f"x must be one-dimensional, got shape {arr.shape}")
    check_rng(rng)
    return arr, eps, lo, hi


def _claim_args(
    epsilon: float, bounds: Any, variant: Any, neighbours: Any
) -> tuple[float, float, float, str, str]:
    """The arguments of a claim, validated once: (ε, a, b, variant, neighbours)."""
    eps = check_epsilon(epsilon)
    lo, hi = check_bounds(bounds)
    return eps, lo, hi, _check_variant(variant), _check_neighbours(neighbours)


def _mech(method: str, variant: str) -> Md:
    """The name of a claim's mechanism: "composition (as-written)", in each language (:mod:`~dpcompendium.core.messages`)."""
    return message("claims.method_variant", method=named(method), variant=named(variant))


def _out(y: np.ndarray) -> np.ndarray | float:
    return float(y) if np.ndim(y) == 0 else y


def _noisy_ratio(
    s: float, n: int, sum_scale_sens: float, eps: float, mid: float, shift: float, rng, shape
) -> np.ndarray:
    """(s + Lap(2Δ_s/ε)) / (n + Lap(2/ε)) + shift, or ``mid`` where the noisy count is ≤ 1 (source's rule)."""
    noisy_s = np.asarray(laplace_mechanism(s, sum_scale_sens, eps / 2, rng, size=shape))
    noisy_c = np.asarray(laplace_mechanism(float(n), 1.0, eps / 2, rng, size=shape))
    safe_c = np.where(noisy_c <= 1.0, 1.0, noisy_c)
    return np.where(noisy_c <= 1.0, mid, noisy_s / safe_c + shift)


# ------------------------------------------------------------------------------------------ 1. composition
def composition_epsilon(
    epsilon: float, bounds: Any, variant: Variant = "as-written", neighbours: str = "add-remove"
) -> float:
    """ε actually guaranteed by method 1's release of (noisy sum, noisy count) {cite}`dwork2006calibrating`.

    The sum gets Lap(2S/ε) with S = Δ (as-written) or S = max(|a|, |b|) (corrected); the count gets Lap(2/ε).
    add-remove: ε_sum = (ε/2)·max(|a|,|b|)/S and ε_count = ε/2; replace-one: ε_sum = (ε/2)·Δ/S, ε_count = 0.
    The average is post-processing of the pair, so its loss is at most ε_sum + ε_count (exactly that for the pair).
    """
    eps, lo, hi, variant, neighbours = _claim_args(epsilon, bounds, variant, neighbours)
    delta, big = hi - lo, max(abs(lo), abs(hi))
    scale_sens = delta if variant == "as-written" else big
    if neighbours == "add-remove":
        return eps / 2 * big / scale_sens + eps / 2
    return eps / 2 * delta / scale_sens


def noisy_average_composition(
    x: ArrayLike,
    epsilon: float,
    bounds: Any,
    rng: np.random.Generator,
    size: int | tuple[int, ...] | None = None,
    variant: Variant = "as-written",
) -> np.ndarray | float:
    """Method 1: (s + Lap(2S/ε)) / (n + Lap(2/ε)), or (a + b)/2 when the noisy count is ≤ 1.

    Sequential composition of two ε/2 releases {cite}`dwork2014algorithmic` (Thm 3.14), neighbours add-remove.
    As written S = Δ = b − a, but under add-remove the sum's sensitivity is max(|a|, |b|), which exceeds Δ unless
    a ≤ 0 ≤ b: then the release is only ``composition_epsilon(...)``-DP (> ε). ``variant="corrected"`` uses
    S = max(|a|, |b|) and is ε-DP under add-remove.
    """
    arr, eps, lo, hi = _inputs(x, epsilon, bounds, rng)
    variant = _check_variant(variant)
    sens = (hi - lo) if variant == "as-written" else max(abs(lo), abs(hi))
    y = _noisy_ratio(float(arr.sum()), arr.size, sens, eps, (lo + hi) / 2, 0.0, rng, _shape(size))
    return _out(y)


def _claim_composition(
    epsilon: float, bounds: Any, variant: Variant = "as-written", neighbours: str = "add-remove"
) -> PrivacyClaim:
    lo, hi = check_bounds(bounds)
    delta, big = hi - lo, max(abs(lo), abs(hi))
    eff = composition_epsilon(epsilon, bounds, variant, neighbours)
    eps = check_epsilon(epsilon)
    if neighbours == "add-remove":
        sens = message("claims.dpmean.sens_sum_count_add_remove", big=tex(f"{big:g}"))
    else:
        sens = message("claims.dpmean.sens_sum_count_replace_one", d=tex(f"{delta:g}"))
    scale = delta if variant == "as-written" else big
    private = eff <= eps * (1 + 1e-12)
    why = (
        ""
        if private
        else message(
            "claims.dpmean.why_composition",
            scale=tex(f"{scale:g}"),
            big=f"{big:g}",
            eff=tex(f"{eff:.4g}"),
            eps=tex(f"{eps:g}"),
        )
    )
    return PrivacyClaim(_mech("composition", variant), neighbours, sens, eps, 0.0, private, why)  # type: ignore[arg-type]


# -------------------------------------------------------------------------------------------- 2. resampling
def resampling_acceptance(
    sum_x: float, n: int, epsilon: float, bounds: Any, variant: Variant = "as-written"
) -> float:
    """Z(s) = P(a ≤ (s + L)/n ≤ b), L ~ Lap(β), β = Δ/ε (as-written) or 2Δ/ε (corrected).

    Z(s) = 1 − ½e^{−(nb − s)/β} − ½e^{−(s − na)/β}: the truncated-Laplace normalizing constant, i.e. the
    acceptance probability of one draw of method 2.
    """
    eps = check_epsilon(epsilon)
    lo, hi = check_bounds(bounds)
    beta = (hi - lo) / eps * (1.0 if _check_variant(variant) == "as-written" else 2.0)
    up, down = max(n * hi - sum_x, 0.0), max(sum_x - n * lo, 0.0)
    return float(1.0 - 0.5 * math.exp(-up / beta) - 0.5 * math.exp(-down / beta))


def noisy_average_resampling(
    x: ArrayLike,
    epsilon: float,
    bounds: Any,
    rng: np.random.Generator,
    size: int | tuple[int, ...] | None = None,
    variant: Variant = "as-written",
) -> np.ndarray | float:
    """Method 2: (s + Lap(β))/n with the true n, redrawn until it falls in [a, b]; uniform on [a, b] if n = 0.

    Neighbours replace-one (public n), sum sensitivity Δ. The output is a Laplace truncated to [a, b], with
    density ∝ exp(−|ny − s|/β)/Z(s). As written (β = Δ/ε) it is NOT ε-DP: the normalizer Z(s) changes with the
    data and the loss is ε + ln Z(s')/Z(s) (the source says so; cf. the bounded Laplace mechanism
    {cite}`dpmean_holohan2020bounded`). ``variant="corrected"`` uses β = 2Δ/ε: then Z(s')/Z(s) ≤ e^{Δ/β} and the
    release is ε-DP. Rejection sampling is done in batches over repetitions.
    """
    arr, eps, lo, hi = _inputs(x, epsilon, bounds, rng)
    variant = _check_variant(variant)
    shape = _shape(size)
    total = math.prod(shape)
    n = arr.size
    if n == 0:
        return _out(rng.uniform(lo, hi, size=shape))
    s = float(arr.sum())
    accept = resampling_acceptance(s, n, eps, (lo, hi), variant)
    if accept < MIN_ACCEPTANCE:
        raise ValueError(
            f"epsilon={eps:g} with n={n} gives acceptance probability {accept:.2g}: too small for resampling"
        )
    sens = (hi - lo) * (1.0 if variant == "as-written" else 2.0)
    out = np.empty(max(total, 1))
    filled = 0
    want = max(total, 1)
    while filled < want:
        pending = want - filled
        batch = min(math.ceil(pending / accept * 1.1) + 8, 1 << 22)
        draws = np.asarray(laplace_mechanism(s, sens, eps, rng, size=batch)) / n
        ok = draws[(draws >= lo) & (draws <= hi)][:pending]
        out[filled : filled + ok.size] = ok
        filled += ok.size
    return _out(out[0] if size is None else out[:total].reshape(shape))


def _claim_resampling(
    epsilon: float, bounds: Any, variant: Variant = "as-written", neighbours: str = "replace-one"
) -> PrivacyClaim:
    eps, lo, hi, variant, neighbours = _claim_args(epsilon, bounds, variant, neighbours)
    sens = message("claims.dpmean.sens_sum_public_n", d=tex(f"{hi - lo:g}"))
    if neighbours == "add-remove":
        why = message("claims.dpmean.why_true_count")
        return PrivacyClaim(_mech("resampling", variant), "add-remove", sens, eps, 0.0, False, why)
    if variant == "corrected":
        return PrivacyClaim(
            _mech("resampling", "corrected"), "replace-one", sens, eps, 0.0, True, ""
        )
    why = message("claims.dpmean.why_resampling")
    return PrivacyClaim(
        _mech("resampling", "as-written"), "replace-one", sens, eps, 0.0, False, why
    )


# ----------------------------------------------------------------------------------------------- 3. clamped
def empty_branch_probabilities(epsilon: float) -> tuple[float, float, float]:
    """The source's answer for n = 0: a w.p. ½e^{−ε/2}, Uniform[a, b] w.p. 1 − e^{−ε/2}, b w.p. ½e^{−ε/2}."""
    e = math.exp(-check_epsilon(epsilon) / 2)
    return 0.5 * e, 1.0 - e, 0.5 * e


def empty_branch_loss(epsilon: float) -> float:
    """Largest privacy loss between the n = 0 answer and clamp(x + Lap(Δ/ε)) for any one record x ∈ [a, b].

    Atoms: ratio at most e^{ε/2}. Continuous parts, u = ε/2: uniform density (1 − e^{−u})/Δ against the Laplace
    density (ε/2Δ)e^{−|y−x|ε/Δ} ∈ [(ε/2Δ)e^{−ε}, ε/2Δ]. The loss is
    max(u, ε + ln((1 − e^{−u})/u), ln(u/(1 − e^{−u}))) = ε + ln((1 − e^{−u})/u) < ε: the empty branch is ε-DP
    against every singleton (add-remove), which is all an empty dataset's neighbours are.
    """
    eps = check_epsilon(epsilon)
    u = eps / 2
    g = -math.expm1(-u) / u  # (1 − e^{−u})/u ∈ (0, 1)
    return max(u, eps + math.log(g), -math.log(g))


def noisy_average_clamped(
    x: ArrayLike,
    epsilon: float,
    bounds: Any,
    rng: np.random.Generator,
    size: int | tuple[int, ...] | None = None,
    clamp: bool = True,
) -> np.ndarray | float:
    """Method 3: Π_[a,b]((s + Lap(Δ/ε))/n) with the true n; the three-point answer of
    :func:`empty_branch_probabilities` if n = 0.

    ε-DP under replace-one with public n ≥ 1 (sum sensitivity Δ; clamping Π is post-processing)
    {cite}`dwork2006calibrating`. Under add-remove the true n sets the noise scale Δ/(nε): the worst-case loss is
    max(ε, ln 2 + ε/2) (:func:`clamped_add_remove_loss`), so it is ε-DP under add-remove exactly when ε ≥ 2 ln 2
    (witness D = {a}, D' = {a, b}, output near (a + b)/2: density ratio 2e^{ε/2}). ``clamp=False`` gives the plain
    Laplace average with public n (MSE 2(Δ/(nε))²).
    """
    arr, eps, lo, hi = _inputs(x, epsilon, bounds, rng)
    shape = _shape(size)
    n = arr.size
    if n == 0:
        p_lo, _, p_hi = empty_branch_probabilities(eps)
        u = rng.random(shape)
        mid = rng.uniform(lo, hi, size=shape)
        return _out(np.where(u < p_lo, lo, np.where(u < p_lo + p_hi, hi, mid)))
    y = np.asarray(laplace_mechanism(float(arr.sum()), hi - lo, eps, rng, size=shape)) / n
    if clamp:
        y = np.clip(y, lo, hi)
    return _out(y)


#: Method 3 is ε-DP under add-remove iff ε ≥ 2 ln 2 (:func:`clamped_add_remove_loss`).
CLAMPED_ADD_REMOVE_THRESHOLD = 2.0 * math.log(2.0)


def clamped_add_remove_loss(epsilon: float) -> float:
    """Worst-case privacy loss of method 3 under add-remove: max(ε, ln 2 + ε/2).

    D of n records with mean μ, D' = D ∪ {x}: the interior density ratio f_D'/f_D is
    ((n+1)/n)·exp((ε/Δ)(n|y − μ| − (n+1)|y − μ'|)), largest at y = μ' where it is ln(1 + 1/n) + εn|x − μ|/((n+1)Δ)
    ≤ ln(1 + 1/n) + εn/(n+1), attained by μ = a, x = b; over n ≥ 1 it exceeds ε only at n = 1 ((n+1) ln(1 + 1/n)
    decreases from 2 ln 2), giving ln 2 + ε/2. The reverse ratio, the atoms at a and b (ratio e^{ε(x−a)/Δ}) and the
    n = 0 branch (:func:`empty_branch_loss`) stay ≤ ε.
    """
    eps = check_epsilon(epsilon)
    return max(eps, math.log(2.0) + eps / 2.0)


def _claim_clamped(
    epsilon: float, bounds: Any, variant: Variant = "as-written", neighbours: str = "replace-one"
) -> PrivacyClaim:
    eps = check_epsilon(epsilon)
    lo, hi = check_bounds(bounds)
    if variant != "as-written":
        raise ValueError(f"variant must be as-written for the clamped method, got {variant!r}")
    neighbours = _check_neighbours(neighbours)
    sens = message("claims.dpmean.sens_sum_mean", d=tex(f"{hi - lo:g}"))
    if neighbours == "add-remove":
        cond = message("claims.dpmean.cond_clamped_add_remove")
        if eps >= CLAMPED_ADD_REMOVE_THRESHOLD:
            return PrivacyClaim(named("clamped"), "add-remove", sens, eps, 0.0, True, "", (cond,))
        why = message(
            "claims.dpmean.why_clamped_add_remove",
            loss=tex(f"{clamped_add_remove_loss(eps):.4g}"),
            ratio=tex(f"{2 * math.exp(eps / 2):.3g}"),
        )
        return PrivacyClaim(named("clamped"), "add-remove", sens, eps, 0.0, False, why)
    return PrivacyClaim(
        named("clamped"),
        "replace-one",
        sens,
        eps,
        0.0,
        True,
        "",
        (message("claims.dpmean.n_public"),),
    )


# -------------------------------------------------------------------------------------------- 4. normalized
def noisy_average_normalized(
    x: ArrayLike,
    epsilon: float,
    bounds: Any,
    rng: np.random.Generator,
    size: int | tuple[int, ...] | None = None,
    variant: Variant = "as-written",
    clamp: bool = False,
) -> np.ndarray | float:
    """Method 4: (Σ(xᵢ − m) + Lap(σ)) / (n + Lap(2/ε)) + m, or m when the noisy count is ≤ 1; m = (a + b)/2.

    Neighbours add-remove. Centring cuts the sum's sensitivity to Δ/2 (each xᵢ − m ∈ [−Δ/2, Δ/2]). As written the
    noise is still σ = 2Δ/ε, so the sum spends ε/4 and the whole release is (3ε/4)-DP — private but
    over-noised. ``variant="corrected"`` uses its own reduction, σ = 2(Δ/2)/ε = Δ/ε: ε-DP. ``clamp=True`` clamps
    the answer to [a, b] (post-processing).
    """
    arr, eps, lo, hi = _inputs(x, epsilon, bounds, rng)
    variant = _check_variant(variant)
    mid = (lo + hi) / 2
    sens = (hi - lo) if variant == "as-written" else (hi - lo) / 2
    centred = float(np.sum(arr - mid))
    y = _noisy_ratio(centred, arr.size, sens, eps, mid, mid, rng, _shape(size))
    if clamp:
        y = np.clip(y, lo, hi)
    return _out(y)


def _claim_normalized(
    epsilon: float, bounds: Any, variant: Variant = "as-written", neighbours: str = "add-remove"
) -> PrivacyClaim:
    eps, lo, hi, variant, neighbours = _claim_args(epsilon, bounds, variant, neighbours)
    if neighbours == "replace-one":
        sens = message("claims.dpmean.sens_centred_replace_one", d=tex(f"{hi - lo:g}"))
        spent = eps / 2 if variant == "as-written" else eps
        why = message("claims.dpmean.why_spends", spent=f"{spent:.4g}") if spent < eps else ""
        return PrivacyClaim(_mech("normalized", variant), "replace-one", sens, eps, 0.0, True, why)
    sens = message("claims.dpmean.sens_centred_add_remove", x=tex(f"{(hi - lo) / 2:g}"))
    why = message("claims.dpmean.why_normalized", spent=f"{0.75 * eps:.4g}")
    return PrivacyClaim(
        _mech("normalized", variant),
        "add-remove",
        sens,
        eps,
        0.0,
        True,
        why if variant == "as-written" else "",
    )


noisy_average_composition.privacy_claim = _claim_composition  # type: ignore[attr-defined]
noisy_average_resampling.privacy_claim = _claim_resampling  # type: ignore[attr-defined]
noisy_average_clamped.privacy_claim = _claim_clamped  # type: ignore[attr-defined]
noisy_average_normalized.privacy_claim = _claim_normalized  # type: ignore[attr-defined]

#: name → (estimator, its neighbour relation as designed).
METHODS: dict[str, tuple[Callable[..., Any], str]] = {
    "composition": (noisy_average_composition, "add-remove"),
    "resampling": (noisy_average_resampling, "replace-one"),
    "clamped": (noisy_average_clamped, "replace-one"),
    "normalized": (noisy_average_normalized, "add-remove"),
}


def _method(method: str) -> tuple[Any, str]:
    """(estimator, design neighbour relation) of ``method``; ValueError naming it if unknown."""
    if method not in METHODS:
        raise ValueError(f"method must be one of {'|'.join(METHODS)}, got {method!r}")
    return METHODS[method]


def privacy_claim(
    method: str,
    epsilon: float,
    bounds: Any,
    variant: Variant = "as-written",
    neighbours: str | None = None,
) -> PrivacyClaim:
    """The privacy claim of ``method`` (a key of :data:`METHODS`); ``neighbours`` defaults to its design relation."""
    func, design = _method(method)
    return func.privacy_claim(epsilon, bounds, variant, neighbours or design)  # type: ignore[attr-defined]


def effective_claim(
    method: str,
    epsilon: float,
    bounds: Any,
    variant: Variant = "as-written",
    neighbours: str | None = None,
) -> PrivacyClaim:
    """What ``method`` run at nominal ε actually guarantees: a :class:`~dpcompendium.PrivacyClaim` whose ε is the
    worst-case loss of the code as run, not the nominal budget (:func:`privacy_claim` states the nominal one).

    composition: ε_eff = (ε/2)·S_true/S + ε/2 (add-remove) or (ε/2)·Δ/S (replace-one), :func:`composition_epsilon`;
    resampling: ε (corrected) or, as written, ε + ln(2 − e^{−ε}) < 2ε under replace-one — the loss
    ε + ln Z(s')/Z(s) is largest for (a,…,a) vs (a,…,a,b) (ln Z is concave) and increases with n to that limit
    (:func:`~dpcompendium.chapters.dp_mean.analysis.resampling_pair_loss`); no guarantee under add-remove (the true n is
    released); clamped: ε (replace-one) or max(ε, ln 2 + ε/2) (add-remove, :func:`clamped_add_remove_loss`); normalized: the centred sum spends (ε/2)·S_true/S and the count ε/2 under
    add-remove (¾ε as written), (ε/2)·Δ/S under replace-one. ``why`` records the nominal ε
    {cite}`dwork2014algorithmic`.
    """
    _, design = _method(method)
    eps, lo, hi, variant, neighbours = _claim_args(epsilon, bounds, variant, neighbours or design)
    nominal = privacy_claim(
        method, eps, (lo, hi), variant if method != "clamped" else "as-written", neighbours
    )
    delta = hi - lo
    conditions: tuple[str, ...] = nominal.conditions
    if method == "composition":
        eff = composition_epsilon(eps, (lo, hi), variant, neighbours)
    elif method == "resampling":
        if neighbours == "add-remove":
            return nominal
        eff = eps if variant == "corrected" else eps + math.log(2.0 - math.exp(-eps))
        if variant == "as-written":
            conditions = (
                *conditions,
                "supremum over n of the worst pair (a,…,a) vs (a,…,a,b): ε + ln(2 − e^{−ε}) < 2ε",
            )
    elif method == "clamped":
        if variant != "as-written":
            raise ValueError(f"variant must be as-written for the clamped method, got {variant!r}")
        eff = eps if neighbours == "replace-one" else clamped_add_remove_loss(eps)
        conditions = ("n >= 1 public (replace-one)",) if neighbours == "replace-one" else ()
    else:
        scale_sens = delta if variant == "as-written" else delta / 2
        if neighbours == "add-remove":
            eff = eps / 2 * (delta / 2) / scale_sens + eps / 2
        else:
            eff = eps / 2 * delta / scale_sens
    return PrivacyClaim(
        f"{method} ({variant}), as run",
        nominal.neighbours,
        nominal.sensitivity,
        float(eff),
        why=f"nominal eps = {eps:g}",
        conditions=conditions,
    )
