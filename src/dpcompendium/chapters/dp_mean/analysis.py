"""Exact calculations for the DP-average chapter: closed-form errors and exact output probabilities.

Error of a release y of the mean μ = s/n of x ∈ [a, b]^n, Δ = b − a, β_n = Δ/(nε) (the noise scale on the mean):

- Laplace average, public n: y = μ + Lap(β_n): MSE = 2β_n², MAE = β_n {cite}`dwork2006calibrating`.
- clamped (method 3): y = Π_[a,b](μ + Lap(β_n)), with v₊ = (b − μ)/β_n and v₋ = (μ − a)/β_n:
  MSE = β_n²[2 − (1 + v₊)e^{−v₊} − (1 + v₋)e^{−v₋}], MAE = (β_n/2)[2 − e^{−v₊} − e^{−v₋}].
- resampling (method 2): y = μ + Lap(β) conditioned on [a, b] (β = β_n or 2β_n), Z = 1 − ½e^{−v₊} − ½e^{−v₋}:
  MSE = β²[4 − g(v₊) − g(v₋)]/(2Z), g(v) = e^{−v}(2 + 2v + v²); MAE = β[2 − h(v₊) − h(v₋)]/(2Z),
  h(v) = e^{−v}(1 + v).
- noisy ratio (methods 1, 4), first order in 1/(nε): y − μ ≈ (L_s − (μ − c)L_c)/n with L_s ~ Lap(σ_s),
  L_c ~ Lap(2/ε) and c the centring (0 or m): MSE ≈ 2(σ_s² + (μ − c)²(2/ε)²)/n², and, with b₁ = σ_s/n,
  b₂ = |μ − c|(2/ε)/n, MAE ≈ (b₁² + b₁b₂ + b₂²)/(b₁ + b₂) (mean absolute value of a sum of two Laplaces).
  Ignores the ``count ≤ 1`` fallback and the ratio's heavy tail, so it is only good when nε ≫ 1.
"""

from __future__ import annotations

import itertools
import math
from typing import Any

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike
from scipy import stats

from ...core.validation import check_bounds, check_epsilon, check_in_domain, check_int, check_rng
from .estimators import (
    _check_variant,
    empty_branch_probabilities,
    noisy_average_resampling,
    resampling_acceptance,
)

__all__ = [
    "clamped_laplace_error",
    "clamped_output_law",
    "closed_form_error",
    "event_probability",
    "laplace_error",
    "ratio_first_order_error",
    "resampling_evidence",
    "resampling_pair_loss",
    "truncated_laplace_error",
]


def _check_mu(mu: float, lo: float, hi: float) -> float:
    if not (isinstance(mu, int | float | np.floating) and math.isfinite(mu) and lo <= mu <= hi):
        raise ValueError(f"mu must be a finite number in [{lo:g}, {hi:g}], got {mu!r}")
    return float(mu)


def _check_scale(scale: float) -> float:
    if not (isinstance(scale, int | float | np.floating) and math.isfinite(scale) and scale > 0):
        raise ValueError(f"scale must be finite and > 0, got {scale!r}")
    return float(scale)


def laplace_error(n: int, epsilon: float, bounds: Any) -> tuple[float, float]:
    """(MAE, MSE) of μ + Lap(Δ/(nε)): (β_n, 2β_n²)."""
    n = check_int(n, "n", minimum=1)
    lo, hi = check_bounds(bounds)
    beta = (hi - lo) / (n * check_epsilon(epsilon))
    return beta, 2 * beta**2


def clamped_laplace_error(mu: float, scale: float, bounds: Any) -> tuple[float, float]:
    """(MAE, MSE) of Π_[a,b](μ + Lap(scale)) as an estimate of μ ∈ [a, b] (formulas in the module docstring)."""
    lo, hi = check_bounds(bounds)
    mu, beta = _check_mu(mu, lo, hi), _check_scale(scale)
    vp, vm = (hi - mu) / beta, (mu - lo) / beta
    mae = beta / 2 * (2 - math.exp(-vp) - math.exp(-vm))
    mse = beta**2 * (2 - (1 + vp) * math.exp(-vp) - (1 + vm) * math.exp(-vm))
    return mae, mse


def truncated_laplace_error(mu: float, scale: float, bounds: Any) -> tuple[float, float]:
    """(MAE, MSE) of μ + Lap(scale) conditioned on [a, b], as an estimate of μ ∈ [a, b]."""
    lo, hi = check_bounds(bounds)
    mu, beta = _check_mu(mu, lo, hi), _check_scale(scale)
    vp, vm = (hi - mu) / beta, (mu - lo) / beta
    z = 1 - 0.5 * math.exp(-vp) - 0.5 * math.exp(-vm)
    g = [math.exp(-v) * (2 + 2 * v + v * v) for v in (vp, vm)]
    h = [math.exp(-v) * (1 + v) for v in (vp, vm)]
    return beta * (2 - h[0] - h[1]) / (2 * z), beta**2 * (4 - g[0] - g[1]) / (2 * z)


def ratio_first_order_error(
    mu_offset: float, n: int, sum_scale: float, epsilon: float
) -> tuple[float, float]:
    """First-order (MAE, MSE) of (S + L_s)/(n + L_c), L_s ~ Lap(sum_scale), L_c ~ Lap(2/ε); mu_offset = μ − c."""
    n = check_int(n, "n", minimum=1)
    eps = check_epsilon(epsilon)
    b1 = _check_scale(sum_scale) / n
    b2 = abs(float(mu_offset)) * 2 / eps / n
    return (b1 * b1 + b1 * b2 + b2 * b2) / (b1 + b2), 2 * (b1 * b1 + b2 * b2)


def closed_form_error(
    method: str, variant: str, mu: float, n: int, epsilon: float, bounds: Any
) -> tuple[float, float, str]:
    """(MAE, MSE, kind) for a sweep method label; kind is ``exact``, ``first-order`` or ``none`` (NaN errors).

    Labels: ``composition``, ``resampling``, ``clamped``, ``laplace-public-n``, ``normalized``,
    ``normalized-clamped`` (see :data:`dpcompendium.chapters.dp_mean.experiments.SWEEP_METHODS`).
    """
    lo, hi = check_bounds(bounds)
    eps = check_epsilon(epsilon)
    n = check_int(n, "n", minimum=1)
    if method == "centred-clamped" and variant == "replace-one":  # method 3's release, in law
        return (*clamped_laplace_error(mu, (hi - lo) / (n * epsilon), bounds), "exact")
    if method in (
        "normalized-clamped",
        "gaussian",
        "private-bounds",
        "coinpress",
        "centred",
        "centred-clamped",
    ):
        return math.nan, math.nan, "none"
    variant = _check_variant(variant)
    delta, beta_n = hi - lo, (hi - lo) / (n * eps)
    if method == "laplace-public-n":
        return (*laplace_error(n, eps, bounds), "exact")
    if method == "clamped":
        return (*clamped_laplace_error(mu, beta_n, bounds), "exact")
    if method == "resampling":
        scale = beta_n * (1.0 if variant == "as-written" else 2.0)
        return (*truncated_laplace_error(mu, scale, bounds), "exact")
    if method == "composition":
        sens = delta if variant == "as-written" else max(abs(lo), abs(hi))
        return (*ratio_first_order_error(mu, n, 2 * sens / eps, eps), "first-order")
    if method == "normalized":
        sens = delta if variant == "as-written" else delta / 2
        return (*ratio_first_order_error(mu - (lo + hi) / 2, n, 2 * sens / eps, eps), "first-order")
    raise ValueError(f"method must be a sweep method label, got {method!r}")


# -------------------------------------------------------------------------------- exact output probabilities
def _laplace_mass(lo: float, hi: float, scale: float) -> float:
    """P(lo ≤ L ≤ hi) for L ~ Lap(scale), accurate in both tails."""
    if hi <= lo:
        return 0.0
    # the unfrozen distribution: freezing one per call cost ~1 ms (docstring construction), same numbers
    lap = stats.laplace
    if lo >= 0:
        return float(lap.sf(lo, scale=scale) - lap.sf(hi, scale=scale))
    if hi <= 0:
        return float(lap.cdf(hi, scale=scale) - lap.cdf(lo, scale=scale))
    return float(1.0 - lap.cdf(lo, scale=scale) - lap.sf(hi, scale=scale))


def event_probability(
    method: str,
    x: ArrayLike,
    epsilon: float,
    bounds: Any,
    event: tuple[float, float],
    *,
    variant: str = "as-written",
    closed: bool = True,
) -> float:
    """Exact P(y ∈ event) for ``method`` ``"resampling"`` (method 2) or ``"clamped"`` (method 3) on data ``x``.

    ``event = (lo, hi)``: the interval [lo, hi] (``closed=True``) or (lo, hi). Method 2: Laplace mass of the
    event divided by the normalizer Z(s); method 3: Laplace mass of the interior part plus the atoms
    P(y = a) = P(L ≤ na − s), P(y = b) = P(L ≥ nb − s). Empty data: the methods' n = 0 answers.
    """
    a, b = check_bounds(bounds)
    eps = check_epsilon(epsilon)
    arr = check_in_domain(x, (a, b), "x")
    variant = _check_variant(variant)
    lo, hi = (float(event[0]), float(event[1])) if len(event) == 2 else (math.nan, math.nan)
    if not (math.isfinite(lo) and math.isfinite(hi)) or lo > hi:
        raise ValueError(
            f"event must be a pair (lo, hi) of finite numbers with lo <= hi, got {event!r}"
        )

    def contains(v: float) -> bool:
        return lo <= v <= hi if closed else lo < v < hi

    il, ih = max(lo, a), min(hi, b)  # interior part of the event
    n, s, delta = arr.size, float(arr.sum()), b - a
    if method == "resampling":
        if n == 0:
            return max(ih - il, 0.0) / delta
        beta = delta / eps * (1.0 if variant == "as-written" else 2.0)
        return _laplace_mass(n * il - s, n * ih - s, beta) / resampling_acceptance(
            s, n, eps, bounds, variant
        )
    if method == "clamped":
        if n == 0:
            p_a, p_mid, p_b = empty_branch_probabilities(eps)
            return p_a * contains(a) + p_b * contains(b) + p_mid * max(ih - il, 0.0) / delta
        beta = delta / eps
        interior = _laplace_mass(n * il - s, n * ih - s, beta) if il < ih else 0.0
        atom_a = _laplace_mass(-math.inf, n * a - s, beta)
        atom_b = _laplace_mass(n * b - s, math.inf, beta)
        return interior + atom_a * contains(a) + atom_b * contains(b)
    raise ValueError(f"method must be one of resampling|clamped, got {method!r}")


def clamped_output_law(x: ArrayLike, epsilon: float, bounds: Any, bins: int = 600) -> np.ndarray:
    """Exact law of method 3's output coarsened to a finite space: P(y = a), P(y in each of ``bins`` equal open
    intervals of (a, b)), P(y = b) (the interval ends have probability 0). An exact audit of this coarsening
    (post-processing) lower-bounds the mechanism's ε and tends to it as the bins shrink."""
    a, b = check_bounds(bounds)
    bins = check_int(bins, "bins", minimum=1)
    edges = np.linspace(a, b, bins + 1)
    inner = [
        event_probability("clamped", x, epsilon, bounds, (lo, hi), closed=False)
        for lo, hi in itertools.pairwise(edges)
    ]
    law = np.array(
        [
            event_probability("clamped", x, epsilon, bounds, (a, a)),
            *inner,
            event_probability("clamped", x, epsilon, bounds, (b, b)),
        ]
    )
    return law / law.sum()


def resampling_pair_loss(n: int, epsilon: float, bounds: Any, variant: str = "as-written") -> float:
    """Privacy loss of method 2 at output y = a for D = (a,…,a) and D' = (a,…,a,b), n records each:

    ln f_D(a)/f_D'(a) = Δ/β + ln Z(s')/Z(s), s = na, s' = na + Δ. As written (β = Δ/ε) this is
    ε + ln[(1 − ½e^{−ε} − ½e^{−(n−1)ε}) / (½(1 − e^{−nε}))] > ε for every n ≥ 2 (= ε for n = 1);
    corrected (β = 2Δ/ε) it stays ≤ ε.
    """
    n = check_int(n, "n", minimum=1)
    eps = check_epsilon(epsilon)
    a, b = check_bounds(bounds)
    variant = _check_variant(variant)
    delta = b - a
    beta = delta / eps * (1.0 if variant == "as-written" else 2.0)
    z = resampling_acceptance(n * a, n, eps, bounds, variant)
    z2 = resampling_acceptance(n * a + delta, n, eps, bounds, variant)
    return delta / beta + math.log(z2 / z)


def resampling_evidence(
    n: int,
    epsilon: float,
    bounds: Any,
    width: float,
    draws: int,
    rng: np.random.Generator,
    variants: tuple[str, ...] = ("as-written", "corrected"),
) -> pd.DataFrame:
    """Method 2 on D = (a,…,a) and D' = (a,…,a,b) (n records each, replace-one neighbours), event y ≤ a + width.

    One row per (variant, dataset): exact probability, simulated frequency from ``draws`` releases, its standard
    error; plus ``ratio`` = P_D/P_D' (exact) and ``e_eps`` for comparison. ε-DP requires ratio ≤ e^ε.
    """
    n = check_int(n, "n", minimum=2)
    draws = check_int(draws, "draws", minimum=1)
    eps = check_epsilon(epsilon)
    a, b = check_bounds(bounds)
    rng = check_rng(rng)
    if not (math.isfinite(width) and 0 < width <= b - a):
        raise ValueError(f"width must be in (0, {b - a:g}], got {width!r}")
    d = np.full(n, a)
    d2 = d.copy()
    d2[-1] = b
    rows = []
    for variant in variants:
        probs = {}
        for name, data in (("D", d), ("D'", d2)):
            exact = event_probability(
                "resampling", data, eps, bounds, (a, a + width), variant=variant
            )
            sim = noisy_average_resampling(data, eps, bounds, rng, size=draws, variant=variant)
            freq = float(np.mean(sim <= a + width))
            probs[name] = exact
            rows.append(
                {
                    "variant": variant,
                    "dataset": name,
                    "n": n,
                    "epsilon": eps,
                    "event": f"y <= {a + width:g}",
                    "exact": exact,
                    "simulated": freq,
                    "se": math.sqrt(max(freq * (1 - freq), 1e-300) / draws),
                    "draws": draws,
                }
            )
        for r in rows[-2:]:
            r["ratio"] = probs["D"] / probs["D'"]
            r["e_eps"] = math.exp(eps)
    return pd.DataFrame(rows)
