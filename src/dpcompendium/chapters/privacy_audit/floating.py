"""Floating-point attacks on textbook Laplace sampling, and Mironov's snapping mechanism as a hardened option.

numpy's ``Generator.laplace`` (used by :func:`dpcompendium.core.mechanisms.laplace_mechanism`) draws U on the grid
{k·2⁻⁵³} and returns ``loc − b·log(2 − 2U)`` or ``loc + b·log(2U)`` in double precision. The set of doubles it can
output is sparse and depends on the released value x, so x + noise is *porous*: some outputs are possible for one
input and impossible for its neighbour (Mironov, CCS 2012, [mironov2012significance]).

Concretely, for the query values f(D) = 0 and f(D') = 1: every output of M(D') in (0, 0.5) is 1 + n with
n ∈ (−1, −0.5), computed exactly (Sterbenz), hence a multiple of 2⁻⁵³; M(D) outputs the raw noise, and in (0, 0.5)
that is usually *not* a multiple of 2⁻⁵³. The event :func:`low_bit_event` therefore has probability 0 under M(D') and
a large probability under M(D): no finite ε holds.

:func:`snapping_laplace` is the snapping mechanism (Mironov 2012, §5.2):
clamp_B(⌊clamp_B(x) + S·λ·ln U⌉_Λ), λ = Δ/ε, Λ the smallest power of two ≥ λ, U uniform over *all* doubles in
(0, 1) (exponent from a geometric law, 52 random mantissa bits), so every output is a multiple of Λ whatever x.
Mironov proves (ε(1 + 2⁻⁴⁹ B/Δ))-DP for λ < B < 2⁴⁶λ assuming a correctly rounded ln; numpy's ``log`` is faithful
(≤ 1 ulp) but not proven correctly rounded, so the hardening here is the snapping (which removes the porosity) with
that caveat.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

from ...core.mechanisms import laplace_mechanism, release_shape
from ...core.privacy import PrivacyClaim
from ...core.rng import generators
from ...core.validation import check_array, check_epsilon, check_int, check_rng, check_sensitivity

__all__ = [
    "low_bit_event",
    "low_bit_frequencies",
    "numpy_laplace_from_uniforms",
    "snapping_claim",
    "snapping_epsilon",
    "snapping_laplace",
]

_GRID = 2.0**-53


def low_bit_event(lo: float = 0.0, hi: float = 0.5, grid: float = _GRID):
    """The event {lo < y < hi and y is not a multiple of ``grid``}, as a named indicator for the audit.

    With the defaults it separates the numpy-Laplace releases of f(D) = 0 and f(D') = 1 (module docstring).
    """
    name = f"output in ({lo:g}, {hi:g}) and not a multiple of 2^{math.log2(grid):g}"
    mantissa, exponent = math.frexp(grid)
    shift = 1 - exponent  # grid = 2^-shift when the mantissa is 1/2
    if mantissa == 0.5 and shift >= 0:
        # y is a multiple of 2^-shift iff y·2^shift is an integer; the scaling by a power of two is exact (it cannot
        # underflow; an overflow gives ±inf, an integer, as fmod gives 0 for such y): fmod's answer, 10× faster
        def indicator(y: np.ndarray) -> np.ndarray:
            y = np.asarray(y, dtype=float)
            with np.errstate(over="ignore", invalid="ignore"):
                z = np.ldexp(y, shift)
                return (y > lo) & (y < hi) & (np.trunc(z) != z)

    else:

        def indicator(y: np.ndarray) -> np.ndarray:
            y = np.asarray(y, dtype=float)
            with np.errstate(invalid="ignore"):  # fmod(±inf, grid) is NaN, outside the event
                return (y > lo) & (y < hi) & (np.fmod(y, grid) != 0.0)

    return name, indicator


def _uniform_full_precision(size: int | tuple[int, ...], rng: np.random.Generator) -> np.ndarray:
    """U uniform on (0, 1) over every double: U = (1 + M·2⁻⁵²)·2⁻ᴳ, G ~ Geometric(1/2) on {1, 2, …}, M on 52 bits."""
    g = rng.geometric(0.5, size=size)
    m = rng.integers(0, 2**52, size=size, dtype=np.int64)
    return np.ldexp(1.0 + m * 2.0**-52, -g)


def snapping_epsilon(epsilon: float, sensitivity: float, bound: float) -> float:
    """ε(1 + 2⁻⁴⁹ B/Δ): the guarantee of the snapping mechanism (Mironov 2012, Thm 1, in units of Δ)."""
    return check_epsilon(epsilon) * (
        1.0 + 2.0**-49 * check_sensitivity(bound, "bound") / check_sensitivity(sensitivity)
    )


def snapping_claim(epsilon: float, sensitivity: float, bound: float) -> PrivacyClaim:
    """Privacy statement of :func:`snapping_laplace`."""
    return PrivacyClaim(
        mechanism="snapping Laplace (Mironov 2012)",
        neighbours="add-remove",
        sensitivity=f"L1 sensitivity {sensitivity:g} of a query clamped to [-{bound:g}, {bound:g}]",
        epsilon=snapping_epsilon(epsilon, sensitivity, bound),
        why="assumes a correctly rounded log; numpy's log is faithful but not proven correctly rounded",
    )


def snapping_laplace(
    value: ArrayLike,
    sensitivity: float,
    epsilon: float,
    bound: float,
    rng: np.random.Generator,
    size: int | tuple[int, ...] | None = None,
) -> np.ndarray | float:
    """Snapping-mechanism release of ``value`` (elementwise; ``size`` as in ``laplace_mechanism``).

    Works in units of Δ: y = Δ·clamp_{B/Δ}(⌊clamp_{B/Δ}(x/Δ) + S·(1/ε)·ln U⌉_Λ), Λ = 2^⌈log₂(1/ε)⌉. Requires
    1/ε < B/Δ < 2⁴⁶/ε.
    """
    d = check_sensitivity(sensitivity)
    eps = check_epsilon(epsilon)
    b = check_sensitivity(bound, "bound") / d
    lam = 1.0 / eps
    if not (lam < b < 2.0**46 * lam):
        raise ValueError(
            f"bound must satisfy 1/epsilon < bound/sensitivity < 2^46/epsilon, got {bound!r}"
        )
    rng = check_rng(rng)
    v = check_array(value, "value", allow_empty=True) / d
    shape = release_shape(v.shape, size)
    big_lam = 2.0 ** math.ceil(math.log2(lam))
    sign = np.where(rng.random(shape) < 0.5, -1.0, 1.0)
    noise = sign * lam * np.log(_uniform_full_precision(shape, rng))
    y = np.clip(np.round((np.clip(v, -b, b) + noise) / big_lam) * big_lam, -b, b) * d
    return float(y) if y.ndim == 0 else y


def numpy_laplace_from_uniforms(u: ArrayLike, scale: float) -> np.ndarray:
    """numpy's ``Generator.laplace(0, scale)`` rebuilt from its uniforms U = ``Generator.random()`` (same stream):
    −b·log(2 − U − U) if U ≥ ½, else b·log(U + U), with the C library's ``log`` (``math.log``), in numpy's order
    of operations. Shows that the book's sampler is the textbook inverse-CDF sampler Mironov attacks.
    """
    b = check_sensitivity(scale, "scale")
    uu = check_array(u, "u", ndim=1)
    return np.array(
        [0.0 - b * math.log(2.0 - v - v) if v >= 0.5 else 0.0 + b * math.log(v + v) for v in uu]
    )


def low_bit_frequencies(
    epsilons: Sequence[float], n_samples: int, seed: int, *, bound: float = 100.0
) -> pd.DataFrame:
    """Frequency of :func:`low_bit_event` among releases of f(D) = 0 and f(D') = 1 (sensitivity 1), for the core
    ``laplace_mechanism`` and for :func:`snapping_laplace`; one generator per ε from ``generators(seed, …)``."""
    n = check_int(n_samples, "n_samples", minimum=1)
    eps_list = [check_epsilon(e, "epsilons") for e in epsilons]
    _, in_event = low_bit_event()
    rows = []
    for eps, g in zip(eps_list, generators(seed, len(eps_list)), strict=True):
        for sampler in ("numpy Generator.laplace", f"snapping (B = {bound:g})"):
            if sampler.startswith("numpy"):
                y0 = laplace_mechanism(0.0, 1.0, eps, g, size=n)
                y1 = laplace_mechanism(1.0, 1.0, eps, g, size=n)
            else:
                y0 = snapping_laplace(0.0, 1.0, eps, bound, g, size=n)
                y1 = snapping_laplace(1.0, 1.0, eps, bound, g, size=n)
            rows.append(
                {
                    "epsilon": eps,
                    "sampler": sampler,
                    "p_event_D": float(np.mean(in_event(y0))),
                    "p_event_Dprime": float(np.mean(in_event(y1))),
                    "n_samples": n,
                }
            )
    return pd.DataFrame(rows)
