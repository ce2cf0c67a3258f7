"""User-side numeric LDP mechanisms on [−1, 1], vectorized over users (one report per row).

Every function here runs on the user's device: it sees one user's value (a row) and returns that user's report.
Collector-side estimation is the plain average of the reports (all are unbiased), except for HierA
(:mod:`dpcompendium.chapters.hiera.hiera`). Neighbour relation: **local** (any two inputs of one user); sensitivity: the domain
[−1, 1] (width 2).

- Duchi et al.'s one-value mechanism (= Harmony for d = 1) [duchi2018minimax, nguyen2016collecting]:
  report ±C, C = (e^ε+1)/(e^ε−1), P(+C) = 1/2 + t(e^ε−1)/(2(e^ε+1)); Var = C² − t².
- Harmony for d attributes [nguyen2016collecting]: sample one coordinate j, report d·(Duchi of t_j) there, 0 elsewhere;
  Var_j = d·C² − t_j².
- Piecewise Mechanism (PM) [wang2019collecting]: Var = t²/(e^{ε/2}−1) + (e^{ε/2}+3)/(3(e^{ε/2}−1)²).
- Hybrid Mechanism (HM) [wang2019collecting]: PM with probability α = 1 − e^{−ε/2} (if ε > 0.61, else α = 0), Duchi
  otherwise; Var = α·Var_PM + (1−α)·Var_Duchi.
- Graded ("multi-level") Laplace [src_hiera]: t + Lap(2/ε_{level(t)}). *Not* ε-LDP for any finite ε as written (the
  noise scale reveals the level; the likelihood ratio is unbounded in the tails); ``variant="private"`` uses the
  smallest budget for everyone, which is min_t ε_t-LDP.
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import ArrayLike

from ...core.messages import message, named
from ...core.privacy import PrivacyClaim
from ...core.validation import check_array, check_epsilon, check_in_domain, check_int, check_rng
from .levels import DEFAULT_EDGES, check_edges, check_schedule

__all__ = [
    "HYBRID_THRESHOLD",
    "duchi_constant",
    "duchi_privatise",
    "duchi_variance",
    "graded_laplace_privatise",
    "graded_laplace_variance",
    "harmony_privatise",
    "harmony_variance",
    "hybrid_alpha",
    "hybrid_privatise",
    "hybrid_variance",
    "mean_lower_bound",
    "numeric_claim",
    "pm_constant",
    "pm_privatise",
    "pm_variance",
]

#: Below this ε the Hybrid Mechanism uses Duchi's mechanism only (Wang et al. 2019, eq. for α).
HYBRID_THRESHOLD = 0.61


def _values(values: ArrayLike) -> np.ndarray:
    return check_in_domain(check_array(values, "values", allow_empty=True), (-1.0, 1.0), "values")


# ---------------------------------------------------------------- Duchi / Harmony


def duchi_constant(epsilon: ArrayLike) -> np.ndarray | float:
    """C = (e^ε + 1)/(e^ε − 1) = 1/tanh(ε/2), the magnitude of a Duchi report."""
    return 1.0 / np.tanh(np.asarray(epsilon, dtype=float) / 2.0)


def _duchi_bits(values: np.ndarray, epsilon: ArrayLike, rng: np.random.Generator) -> np.ndarray:
    """±1 with P(+1) = (1 + t·tanh(ε/2))/2; ``epsilon`` broadcasts against ``values`` (per-user budgets)."""
    p_plus = 0.5 * (1.0 + values * np.tanh(np.asarray(epsilon, dtype=float) / 2.0))
    return np.where(rng.random(np.shape(values)) < p_plus, 1, -1).astype(np.int8)


def duchi_privatise(values: ArrayLike, epsilon: float, rng: np.random.Generator) -> np.ndarray:
    """User side: each t ∈ [−1, 1] becomes ±C with P(+C) = 1/2 + t(e^ε−1)/(2(e^ε+1)); ε-LDP, unbiased.

    Reference: duchi2018minimax (one-dimensional case); it is also Harmony for d = 1 [nguyen2016collecting].
    """
    eps = check_epsilon(epsilon)
    rng = check_rng(rng)
    v = _values(values)
    return _duchi_bits(v, eps, rng) * float(duchi_constant(eps))


def duchi_variance(t: ArrayLike, epsilon: float) -> np.ndarray | float:
    """Var = ((e^ε + 1)/(e^ε − 1))² − t²."""
    eps = check_epsilon(epsilon)
    return float(duchi_constant(eps)) ** 2 - np.square(t)


def harmony_privatise(x: ArrayLike, epsilon: float, rng: np.random.Generator) -> np.ndarray:
    """User side, d attributes per row: sample j uniformly, report d·(Duchi report of x_j) at j and 0 elsewhere.

    ε-LDP (one ε-LDP report; the sampled index is independent of the data). Unbiased for every coordinate
    [nguyen2016collecting]. Returns an (n, d) array.
    """
    eps = check_epsilon(epsilon)
    rng = check_rng(rng)
    arr = check_in_domain(check_array(x, "x", ndim=2), (-1.0, 1.0), "x")
    n, d = arr.shape
    j = rng.integers(0, d, size=n)
    rows = np.arange(n)
    out = np.zeros_like(arr)
    out[rows, j] = d * float(duchi_constant(eps)) * _duchi_bits(arr[rows, j], eps, rng)
    return out


def harmony_variance(t: ArrayLike, epsilon: float, d: int) -> np.ndarray | float:
    """Var_j = d·C² − t_j² (C the Duchi constant)."""
    d = check_int(d, "d", minimum=1)
    eps = check_epsilon(epsilon)
    return d * float(duchi_constant(eps)) ** 2 - np.square(t)


# ---------------------------------------------------------------- Piecewise and Hybrid


def pm_constant(epsilon: float) -> float:
    """C = (e^{ε/2} + 1)/(e^{ε/2} − 1): PM's output range is [−C, C]."""
    h = math.exp(check_epsilon(epsilon) / 2.0)
    return (h + 1.0) / (h - 1.0)


def _pm(values: np.ndarray, epsilon: ArrayLike, u: np.ndarray) -> np.ndarray:
    """Inverse-CDF sampling of PM with one uniform ``u`` per value; ``epsilon`` broadcasts.

    F⁻¹(u) = −C + u/ρ + clip(u − a, 0, p)·((C − 1)/p − 1/ρ), with p = e^{ε/2}/(e^{ε/2} + 1) the mass of [l, r],
    ρ = (1 − p)/(C + 1) the density outside it and a = ρ(l + C) the mass of [−C, l).
    """
    h = np.exp(np.asarray(epsilon, dtype=float) / 2.0)
    c = (h + 1.0) / (h - 1.0)
    p_in = h / (h + 1.0)
    rho = (1.0 - p_in) / (c + 1.0)
    a = rho * ((c + 1.0) / 2.0 * values + (c + 1.0) / 2.0)  # ρ·(l(t) + C)
    out = np.subtract(u, a)
    np.clip(out, 0.0, p_in, out=out)
    out *= (c - 1.0) / p_in - 1.0 / rho
    out += u / rho
    out -= c
    return out


def pm_privatise(values: ArrayLike, epsilon: float, rng: np.random.Generator) -> np.ndarray:
    """User side: Piecewise Mechanism [wang2019collecting]. ε-LDP, unbiased, output in [−C, C].

    With l(t) = (C+1)t/2 − (C−1)/2 and r(t) = l(t) + C − 1: uniform on [l(t), r(t)] with probability
    e^{ε/2}/(e^{ε/2}+1), else uniform on [−C, l(t)) ∪ (r(t), C]. Densities differ by the factor e^ε exactly.
    """
    eps = check_epsilon(epsilon)
    rng = check_rng(rng)
    v = _values(values)
    return _pm(v, eps, rng.random(v.shape))


def pm_variance(t: ArrayLike, epsilon: float) -> np.ndarray | float:
    """Var = t²/(e^{ε/2} − 1) + (e^{ε/2} + 3)/(3(e^{ε/2} − 1)²)."""
    h = math.exp(check_epsilon(epsilon) / 2.0)
    return np.square(t) / (h - 1.0) + (h + 3.0) / (3.0 * (h - 1.0) ** 2)


def hybrid_alpha(epsilon: float) -> float:
    """α = 1 − e^{−ε/2} for ε > 0.61, else 0: the probability that HM uses PM [wang2019collecting]."""
    eps = check_epsilon(epsilon)
    return 1.0 - math.exp(-eps / 2.0) if eps > HYBRID_THRESHOLD else 0.0


def hybrid_privatise(values: ArrayLike, epsilon: float, rng: np.random.Generator) -> np.ndarray:
    """User side: Hybrid Mechanism — PM with probability α, Duchi otherwise. ε-LDP (a mixture of ε-LDP reports)."""
    eps = check_epsilon(epsilon)
    rng = check_rng(rng)
    v = _values(values)
    use_pm = rng.random(v.shape) < hybrid_alpha(eps)
    pm = _pm(v, eps, rng.random(v.shape))
    duchi = _duchi_bits(v, eps, rng) * float(duchi_constant(eps))
    return np.where(use_pm, pm, duchi)


def hybrid_variance(t: ArrayLike, epsilon: float) -> np.ndarray | float:
    """Var = α·Var_PM(t) + (1 − α)·Var_Duchi(t) (both unbiased, so the mixture adds no between-term)."""
    a = hybrid_alpha(epsilon)
    return a * pm_variance(t, epsilon) + (1.0 - a) * duchi_variance(t, epsilon)


# ---------------------------------------------------------------- graded Laplace


def _graded_scales(
    v: np.ndarray, epsilons: np.ndarray, edges: np.ndarray, variant: str
) -> np.ndarray:
    if variant not in ("as-written", "private"):
        raise ValueError(f"variant must be 'as-written' or 'private', got {variant!r}")
    if variant == "private":
        return np.full(v.shape, 2.0 / epsilons.min())
    return 2.0 / epsilons[np.searchsorted(edges, v, side="right")]


def graded_laplace_privatise(
    values: ArrayLike,
    epsilons: ArrayLike,
    rng: np.random.Generator,
    *,
    edges: ArrayLike = DEFAULT_EDGES,
    variant: str = "as-written",
) -> np.ndarray:
    """User side: t + Lap(2/ε_{level(t)}) (``"as-written"``, the source's multi-level Laplace) [src_hiera].

    ``"as-written"`` is **not** ε-LDP for any finite ε: the ratio of the densities at y for two values with different
    scales b ≠ b' grows like exp(|y|·|1/b − 1/b'|). ``"private"`` adds Lap(2/min_t ε_t) to every value:
    min_t ε_t-LDP (sensitivity 2 on [−1, 1]) [dwork2006calibrating].
    """
    e = check_edges(edges)
    eps = check_schedule(epsilons, e.size + 1)
    rng = check_rng(rng)
    v = _values(values)
    return v + rng.laplace(0.0, 1.0, size=v.shape) * _graded_scales(v, eps, e, variant)


def graded_laplace_variance(
    t: ArrayLike,
    epsilons: ArrayLike,
    *,
    edges: ArrayLike = DEFAULT_EDGES,
    variant: str = "as-written",
) -> np.ndarray:
    """Var = 2·(2/ε_{level(t)})² (or 2·(2/min ε)² for ``"private"``)."""
    e = check_edges(edges)
    eps = check_schedule(epsilons, e.size + 1)
    v = _values(t)
    return 2.0 * _graded_scales(v, eps, e, variant) ** 2


def numeric_claim(
    method: str, epsilon: float, *, epsilons: ArrayLike | None = None, variant: str = "as-written"
):
    """The :class:`~dpcompendium.PrivacyClaim` of a numeric mechanism of this module (local neighbours)."""
    eps = check_epsilon(epsilon)
    sens = message("claims.hiera.sens_numeric")
    if method in ("duchi", "harmony", "pm", "hybrid"):
        return PrivacyClaim(
            mechanism=named(method), neighbours="local", sensitivity=sens, epsilon=eps
        )
    if method == "graded-laplace":
        sched = check_schedule(epsilons if epsilons is not None else [eps])
        if variant == "private":
            mech = message(
                "claims.method_variant", method=named("graded-laplace"), variant=named("private")
            )
            return PrivacyClaim(mech, "local", sens, float(sched.min()))
        if variant != "as-written":
            raise ValueError(f"variant must be 'as-written' or 'private', got {variant!r}")
        return PrivacyClaim(
            message("claims.hiera.mech_graded_as_written"),
            "local",
            sens,
            float(sched.min()),
            private=bool(np.all(sched == sched[0])),
            why=message("claims.hiera.why_graded"),
        )
    raise ValueError(
        f"method must be one of duchi, harmony, pm, hybrid, graded-laplace, got {method!r}"
    )


def mean_lower_bound(n: ArrayLike, epsilon: ArrayLike) -> np.ndarray | float:
    """Minimax lower bound on the MAE of any ε-LDP estimate of the mean of n i.i.d. values in [−1, 1].

    Le Cam's two-point method with the strong data-processing inequality of Duchi, Jordan and Wainwright
    [duchi2018minimax, Theorem 1]: for P_± on {−1, +1} with means ±δ, KL between the n reports ≤ 4n(e^ε − 1)²δ², so
    TV ≤ √2·√n·(e^ε − 1)·δ (Pinsker) and every estimator has max_± E|θ̂ − θ_±| ≥ (δ/2)(1 − TV). With
    δ = min(1, 1/(2√2·√n·(e^ε − 1))) this is 1/(8√2·√n·(e^ε − 1)) whenever δ < 1. It bounds the worst case over data
    distributions: one dataset may be estimated better. Only the pair of inputs −1, +1 is used, so it holds for
    every mechanism whose reports for −1 and +1 are ε-indistinguishable (the graded bound included).
    """
    nn = np.asarray(n, dtype=float)
    if np.any(nn < 1):
        raise ValueError(f"n must be >= 1, got {n!r}")
    eps = np.asarray(epsilon, dtype=float)
    if np.any(~(eps > 0)):
        raise ValueError(f"epsilon must be > 0, got {epsilon!r}")
    scale = np.sqrt(2.0 * nn) * np.expm1(eps)
    delta = np.minimum(1.0, 1.0 / (2.0 * scale))
    tv = np.minimum(1.0, scale * delta)
    out = 0.5 * delta * (1.0 - tv)
    return float(out) if out.ndim == 0 else out
