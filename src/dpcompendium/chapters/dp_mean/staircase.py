"""The staircase mechanism for one number, and its gain over the Laplace mechanism on the chapter's mean
[geng2014optimal, geng2016optimal].

For a query of sensitivity Δ, the staircase noise has the symmetric density, for x ≥ 0 in period k = ⌊x/Δ⌋,

    f_γ(x) = a(γ)·bᵏ on [kΔ, (k + γ)Δ),   a(γ)·bᵏ⁺¹ on [(k + γ)Δ, (k + 1)Δ),
    b = e^{−ε},  a(γ) = (1 − b) / (2Δ(γ + b(1 − γ))),

so that f_γ(x)/f_γ(x + d) ≤ e^{ε} for every |d| ≤ Δ: adding it to the query is ε-DP for any γ ∈ [0, 1]. Among
data-independent additive noises for one query of sensitivity Δ, the staircase with the right γ minimizes the
expected cost; for the cost x² (the mean squared error) that γ is

    γ* = ((b(1 + b)/2)^{1/3} − b) / (1 − b)

(Geng & Viswanath's −b/(1 − b) + (b − 2b² + 2b⁴ − b⁵)^{1/3}/(2^{1/3}(1 − b)²), with b − 2b² + 2b⁴ − b⁵ =
b(1 − b)³(1 + b) factored out so that it stays accurate as ε → 0), and for the cost |x| it is 1/(1 + e^{ε/2}).
Its MSE over the Laplace mechanism's 2(Δ/ε)² tends to 1 as ε → 0 and to 0 as ε grows (:func:`staircase_mse`).

:func:`staircase_noise` draws it by the inverse of its tail: with tail probability t ∈ (0, 1], the period is
K = ⌊ln t / ln b⌋ and the rest of t's mass in that period places the draw in its first (width γΔ) or second step.
:func:`laplace_from_tail` draws the Laplace noise from the same t, so the two arms of :func:`staircase_errors` run
on the same random numbers, repetition by repetition (a paired comparison).
"""

from __future__ import annotations

import math
from typing import Any, Literal

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

from ...core.messages import message, tex
from ...core.privacy import PrivacyClaim
from ...core.rng import generators
from ...core.validation import check_bounds, check_epsilon, check_int, check_rng
from .estimators import _inputs, _out, _shape

__all__ = [
    "COSTS",
    "laplace_from_tail",
    "noisy_average_staircase",
    "staircase_claim",
    "staircase_errors",
    "staircase_from_tail",
    "staircase_gamma",
    "staircase_mae",
    "staircase_mse",
    "staircase_noise",
    "staircase_summary",
]

#: the costs the optimal γ is given for: "l2" (x², the MSE the chapter measures) and "l1" (|x|)
COSTS: tuple[str, ...] = ("l2", "l1")


def _check_cost(cost: Any) -> str:
    if cost not in COSTS:
        raise ValueError(f"cost must be one of {list(COSTS)}, got {cost!r}")
    return cost


def _check_gamma(gamma: Any) -> float:
    if isinstance(gamma, bool) or not isinstance(gamma, int | float) or not 0.0 <= gamma <= 1.0:
        raise ValueError(f"gamma must be a number in [0, 1], got {gamma!r}")
    return float(gamma)


def _check_sensitivity(sensitivity: Any) -> float:
    if (
        isinstance(sensitivity, bool)
        or not isinstance(sensitivity, int | float)
        or not (math.isfinite(sensitivity) and sensitivity > 0)
    ):
        raise ValueError(f"sensitivity must be a finite number > 0, got {sensitivity!r}")
    return float(sensitivity)


def staircase_gamma(epsilon: float, cost: Literal["l2", "l1"] = "l2") -> float:
    """The optimal γ of the staircase noise at ``epsilon`` for the ``cost`` "l2" (x²) or "l1" (|x|)
    [geng2016optimal]: ((b(1 + b)/2)^{1/3} − b)/(1 − b) with b = e^{−ε}, or 1/(1 + e^{ε/2})."""
    eps = check_epsilon(epsilon)
    if _check_cost(cost) == "l1":
        return 1.0 / (1.0 + math.exp(eps / 2.0))
    b = math.exp(-eps)
    return ((b * (1.0 + b) / 2.0) ** (1.0 / 3.0) - b) / -math.expm1(-eps)


def _moments(epsilon: float, gamma: float) -> tuple[float, float, float, float]:
    """(E K, E K², E O, E O²) of |X|/Δ = K + O: K the period (geometric, P(K ≥ k) = bᵏ), O the offset in it."""
    b = math.exp(-epsilon)
    one_b = -math.expm1(-epsilon)
    p0 = gamma / (gamma + b * (1.0 - gamma))  # the first step's share of a period's mass
    ek, ek2 = b / one_b, b * (1.0 + b) / (one_b * one_b)
    eo = p0 * gamma / 2.0 + (1.0 - p0) * (1.0 + gamma) / 2.0
    eo2 = p0 * gamma * gamma / 3.0 + (1.0 - p0) * (1.0 + gamma + gamma * gamma) / 3.0
    return ek, ek2, eo, eo2


def staircase_mse(epsilon: float, sensitivity: float = 1.0, gamma: float | None = None) -> float:
    """E X² of the staircase noise: Δ²(E K² + 2 E K E O + E O²), with K, O of the module's sampler; ``gamma``
    defaults to the optimum for x² (:func:`staircase_gamma`)."""
    eps, sens = check_epsilon(epsilon), _check_sensitivity(sensitivity)
    g = staircase_gamma(eps) if gamma is None else _check_gamma(gamma)
    ek, ek2, eo, eo2 = _moments(eps, g)
    return sens * sens * (ek2 + 2.0 * ek * eo + eo2)


def staircase_mae(epsilon: float, sensitivity: float = 1.0, gamma: float | None = None) -> float:
    """E |X| of the staircase noise: Δ(E K + E O); ``gamma`` defaults to the optimum for |x|."""
    eps, sens = check_epsilon(epsilon), _check_sensitivity(sensitivity)
    g = staircase_gamma(eps, "l1") if gamma is None else _check_gamma(gamma)
    ek, _, eo, _ = _moments(eps, g)
    return sens * (ek + eo)


def _tails(rng: np.random.Generator, shape: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
    """(sign ±1, tail probability t ∈ (0, 1]) of ``shape``, the random numbers both noises are drawn from."""
    sign = np.where(rng.random(shape) < 0.5, -1.0, 1.0)
    return sign, 1.0 - rng.random(shape)


def staircase_from_tail(
    sign: ArrayLike, tail: ArrayLike, epsilon: float, sensitivity: float, gamma: float
) -> np.ndarray:
    """The staircase noise whose |X| has tail probability ``tail`` (P(|X| ≥ x) = t), with ``sign``: the inverse of
    its distribution, vectorized (see the module)."""
    eps, sens, g = check_epsilon(epsilon), _check_sensitivity(sensitivity), _check_gamma(gamma)
    t = np.asarray(tail, dtype=float)
    if t.size and not (np.all(t > 0) and np.all(t <= 1)):
        raise ValueError(f"tail must lie in (0, 1], got values in [{t.min()}, {t.max()}]")
    b = math.exp(-eps)
    k = np.floor(np.log(t) / -eps)  # bᵏ ≥ t > bᵏ⁺¹
    # the share of period k's mass above t, in [0, 1): (bᵏ − t)/(bᵏ(1 − b))
    w = np.clip(-np.expm1(np.log(t) + k * eps) / -math.expm1(-eps), 0.0, np.nextafter(1.0, 0.0))
    p0 = g / (g + b * (1.0 - g))
    first = w < p0
    with np.errstate(divide="ignore", invalid="ignore"):
        offset = np.where(
            first,
            g * w / p0 if p0 > 0 else 0.0,
            g + (1.0 - g) * (w - p0) / (1.0 - p0) if p0 < 1 else g,
        )
    return np.asarray(sign, dtype=float) * (k + offset) * sens


def laplace_from_tail(sign: ArrayLike, tail: ArrayLike, scale: float) -> np.ndarray:
    """Laplace noise of ``scale`` whose |X| has tail probability ``tail``: sign·(−scale·ln t)."""
    t = np.asarray(tail, dtype=float)
    if t.size and not (np.all(t > 0) and np.all(t <= 1)):
        raise ValueError(f"tail must lie in (0, 1], got values in [{t.min()}, {t.max()}]")
    return np.asarray(sign, dtype=float) * (-_check_sensitivity(scale) * np.log(t))


def staircase_noise(
    epsilon: float,
    sensitivity: float,
    rng: np.random.Generator,
    size: int | tuple[int, ...] | None = None,
    *,
    gamma: float | None = None,
) -> np.ndarray | float:
    """Staircase noise for a query of ``sensitivity`` Δ at ``epsilon`` (ε-DP when added to the query, for any
    γ ∈ [0, 1]; ``gamma`` defaults to the optimum for x², :func:`staircase_gamma`) [geng2016optimal]."""
    eps, sens = check_epsilon(epsilon), _check_sensitivity(sensitivity)
    check_rng(rng)
    g = staircase_gamma(eps) if gamma is None else _check_gamma(gamma)
    sign, tail = _tails(rng, _shape(size))
    return _out(staircase_from_tail(sign, tail, eps, sens, g))


def noisy_average_staircase(
    x: ArrayLike,
    epsilon: float,
    bounds: Any,
    rng: np.random.Generator,
    size: int | tuple[int, ...] | None = None,
    *,
    gamma: float | None = None,
    clamp: bool = True,
) -> np.ndarray | float:
    """The staircase mean: Π_[a,b]((s + X)/n), X the staircase noise of sensitivity Δ = b − a at ε
    (:func:`staircase_noise`) — method 3 with the staircase in place of Lap(Δ/ε).

    ε-DP under replace-one with public n ≥ 1: the sum of values in [a, b] moves by at most Δ when one record is
    replaced, the staircase protects any shift of at most Δ at ε, and clamping is post-processing
    [geng2016optimal]. ``clamp=False``: the plain staircase average."""
    arr, eps, lo, hi = _inputs(x, epsilon, bounds, rng)
    n = arr.size
    if n == 0:
        raise ValueError("x must hold at least one record (n public, n >= 1)")
    noise = np.asarray(staircase_noise(eps, hi - lo, rng, size, gamma=gamma))
    y = (arr.sum() + noise) / n
    return _out(np.clip(y, lo, hi) if clamp else y)


def staircase_claim(
    epsilon: float, bounds: Any, n: int = 1, gamma: float | None = None
) -> PrivacyClaim:
    """The staircase mean's claim: ε-DP under replace-one with public n ≥ 1, sensitivity (b − a)/n of the mean,
    the staircase's γ (default: optimal for x²) a stated condition [geng2016optimal]."""
    eps = check_epsilon(epsilon)
    lo, hi = check_bounds(bounds)
    n = check_int(n, "n", minimum=1)
    g = staircase_gamma(eps) if gamma is None else _check_gamma(gamma)
    return PrivacyClaim(
        message("claims.dpmean.mech_staircase"),
        "replace-one",
        message("claims.dpmean.sens_staircase", x=tex(f"{(hi - lo) / n:g}")),
        eps,
        0.0,
        conditions=(
            message("claims.dpmean.cond_staircase_gamma", gamma=tex(f"{g:.4g}")),
            message("claims.dpmean.n_public"),
        ),
    )


noisy_average_staircase.privacy_claim = staircase_claim  # type: ignore[attr-defined]


def staircase_errors(
    data: dict[tuple[str, int], tuple[np.ndarray, tuple[float, float]]],
    epsilons: ArrayLike,
    reps: int,
    seed: int | np.random.SeedSequence,
) -> pd.DataFrame:
    """The squared errors of the clamped staircase mean (γ optimal for x²) and of method 3, the clamped Laplace mean
    Π_[a,b]((s + Lap(Δ/ε))/n), on the same random numbers: one row per (dataset, n, ε, repetition), with columns
    ``se_staircase`` and ``se_laplace``. Each (dataset, n, ε) cell has its own stream (``SeedSequence.spawn``, in
    the order of ``data`` then ``epsilons``); both arms are ε-DP under replace-one with public n."""
    reps = check_int(reps, "reps", minimum=1)
    eps_list = [check_epsilon(e) for e in np.atleast_1d(np.asarray(epsilons, dtype=float))]
    cells = [(key, e) for key in data for e in eps_list]
    streams = generators(seed, len(cells))
    parts = []
    for ((name, n), e), rng in zip(cells, streams, strict=True):
        x, (lo, hi) = data[(name, n)]
        x = np.asarray(x, dtype=float)
        mu, s, delta = float(x.mean()), float(x.sum()), hi - lo
        sign, tail = _tails(rng, (reps,))
        stair = staircase_from_tail(sign, tail, e, delta, staircase_gamma(e))
        lap = laplace_from_tail(sign, tail, delta / e)
        parts.append(
            pd.DataFrame(
                {
                    "dataset": name,
                    "n": x.size,
                    "epsilon": e,
                    "rep": np.arange(reps),
                    "se_staircase": (np.clip((s + stair) / x.size, lo, hi) - mu) ** 2,
                    "se_laplace": (np.clip((s + lap) / x.size, lo, hi) - mu) ** 2,
                }
            )
        )
    return pd.concat(parts, ignore_index=True)


def staircase_summary(runs: pd.DataFrame) -> pd.DataFrame:
    """Per (dataset, n, ε) cell of :func:`staircase_errors`: both arms' MSE, their ratio r (staircase over
    Laplace), the exact ratio without clamping, E X²/(2(Δ/ε)²) (:func:`staircase_mse`, the same for every Δ), and
    z = (ln r − ln exact)/se, se the paired delta-method standard error of ln r (the variance of
    L_s/mean L_s − L_l/mean L_l over the repetitions; nan with fewer than two)."""
    rows = []
    for (name, n, e), g in runs.groupby(["dataset", "n", "epsilon"], sort=False):
        ls, ll = g["se_staircase"].to_numpy(), g["se_laplace"].to_numpy()
        ms, ml = float(ls.mean()), float(ll.mean())
        exact = staircase_mse(e) / (2.0 / (e * e))
        se = (
            float((ls / ms - ll / ml).std(ddof=1) / math.sqrt(ls.size)) if ls.size > 1 else math.nan
        )
        ratio = ms / ml
        z = (math.log(ratio) - math.log(exact)) / se if se > 0 else math.nan
        rows.append(
            {
                "dataset": name,
                "n": n,
                "epsilon": e,
                "mse_staircase": ms,
                "mse_laplace": ml,
                "mse_ratio": ratio,
                "exact": exact,
                "z": z,
            }
        )
    return pd.DataFrame(rows)
