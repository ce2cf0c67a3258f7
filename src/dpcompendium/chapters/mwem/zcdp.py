"""Zero-concentrated DP (zCDP) in closed form, for MWEM with Gaussian measurements (``bun2016concentrated``).

The four facts the ``zcdp`` variant of :func:`~dpcompendium.chapters.mwem.core.mwem` rests on:

- the Gaussian mechanism N(0, σ²) on a query of L2 sensitivity Δ is ρ = Δ²/(2σ²)-zCDP (``bun2016concentrated``,
  Prop. 1.6);
- the exponential mechanism at ε (P(r) ∝ exp(ε·u(r)/(2Δu))) is ε-DP and ε-bounded-range, hence ε²/8-zCDP
  (``cesar2021bounding``, Lemma 3.2 with Prop. 3.3);
- composition adds ρ (adaptively; ``bun2016concentrated``, Lemma 2.3);
- ρ-zCDP implies (ρ + 2√(ρ ln(1/δ)), δ)-DP for every δ > 0 (``bun2016concentrated``, Prop. 1.3).

Inverting the last: the largest ρ that converts to (ε, δ) is ρ = (√(ln(1/δ) + ε) − √(ln(1/δ)))²
(:func:`rho_for`). The forward forms are the core's (:mod:`dpcompendium.core.accounting`: ``gaussian_rho``, ``exponential_rho``,
``zcdp_epsilon``); this module adds their inverse and MWEM's split of ρ. A numerical accountant (RDP or
privacy-loss distributions) would be tighter still.
"""

from __future__ import annotations

import math

from ...core.accounting import exponential_rho, gaussian_rho, zcdp_epsilon
from ...core.validation import check_delta, check_epsilon, check_int

__all__ = [
    "dp_epsilon",
    "mwem_zcdp_parameters",
    "rho_for",
    "rounds_at_equal_noise",
]


def dp_epsilon(rho: float, delta: float) -> float:
    """ε = ρ + 2√(ρ ln(1/δ)): ρ-zCDP implies (ε, δ)-DP (``bun2016concentrated``, Prop. 1.3;
    :func:`dpcompendium.core.accounting.zcdp_epsilon` with ``method="bun-steinke"``, the conversion this variant
    is calibrated with; the optimal conversion of that function is tighter still)."""
    return zcdp_epsilon(rho, delta, method="bun-steinke")


def rho_for(epsilon: float, delta: float) -> float:
    """The largest ρ whose conversion :func:`dp_epsilon` is (ε, δ): ρ = (√(ln(1/δ) + ε) − √ln(1/δ))²."""
    e = check_epsilon(epsilon)
    d = check_delta(delta)
    L = math.log(1.0 / d)
    # (√(L + ε) − √L)² written as ε²/(√(L + ε) + √L)², free of cancellation for small ε
    return e * e / (math.sqrt(L + e) + math.sqrt(L)) ** 2


def mwem_zcdp_parameters(epsilon: float, delta: float, T: int) -> dict[str, float]:
    """MWEM's per-round parameters when its T rounds are accounted in zCDP to reach (ε, δ)-DP.

    ρ = :func:`rho_for` (ε, δ), half to the selections and half to the measurements: each of the T selections is an
    exponential mechanism at ε₀ = √(8·ρ/(2T)) = 2√(ρ/T) (score sensitivity 1), each measurement adds N(0, σ²) with
    σ = √(T/ρ) to a count of sensitivity 1 (ρ/(2T) = 1/(2σ²)). Returns rho, selection_rho, measurement_rho,
    epsilon0 (per selection), sigma (per measurement) and the converted epsilon (equal to ``epsilon``).
    """
    e = check_epsilon(epsilon)
    d = check_delta(delta)
    T = check_int(T, "T", minimum=1)
    rho = rho_for(e, d)
    eps0 = 2.0 * math.sqrt(rho / T)
    sigma = math.sqrt(T / rho)
    sel = T * exponential_rho(eps0)
    meas = T * gaussian_rho(sigma)
    return {
        "rho": rho,
        "selection_rho": sel,
        "measurement_rho": meas,
        "epsilon0": eps0,
        "sigma": sigma,
        "epsilon": dp_epsilon(sel + meas, d),
    }


def rounds_at_equal_noise(epsilon: float, delta: float, T: int) -> float:
    """How many rounds the zCDP accounting allows with the per-round noise of pure-DP MWEM with T rounds.

    Pure DP (basic composition): Laplace scale 2T/ε, standard deviation 2√2·T/ε. zCDP: σ(T') = √(T'/ρ).
    Equal noise at T' = 8ρT²/ε² (≈ 2T²/ln(1/δ) for small ε); the selection is then sharper too
    (ε₀(T') = ε/(√2·T) > ε/(2T)). Above T = ln(1/δ)/2 or so, the zCDP variant buys rounds.
    """
    e = check_epsilon(epsilon)
    T = check_int(T, "T", minimum=1)
    return 8.0 * rho_for(e, delta) * T * T / (e * e)
