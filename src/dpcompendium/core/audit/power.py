"""How many samples an empirical audit's verdict needs: the audit's analogue of a comparison's ``runs_needed``
(issue 50: sample sizes chosen from each verdict's power, not from habit).

A split-selection audit (:func:`~dpcompendium.core.audit.empirical.empirical_audit`) with ``n`` samples per input
chooses its event on ``n // 2`` of them and counts it on the other ``n_ev = n - n // 2``: ``k_num ~ Bin(n_ev, p)``
and ``k_den ~ Bin(n_ev, q)`` in the direction it reports, and its bound ``ln((p_lo(k_num) - δ) / q_hi(k_den))``
increases with ``k_num`` and decreases with ``k_den``. With ``k_num`` at its lower ``β``-quantile and ``k_den`` at its
upper ``β``-quantile, ``β = (1 - power) / 2``, both bounds hold together with probability at least ``power`` (union
bound), so the bound computed from those two counts is exceeded with probability at least ``power``. Were the event
and its true frequencies the ones observed, :func:`samples_needed` is the smallest ``n`` whose bound so computed
exceeds a target — the claimed ε for a violation. It takes the event as fixed: a smaller selection half may choose a
worse one, which a safety factor on the estimate covers; and the observed frequencies are themselves estimates.
"""

from __future__ import annotations

import math

from scipy.stats import binom

from .events import epsilon_lower_bound
from .result import AuditResult

__all__ = ["bound_at", "samples_needed"]


def _frequencies(result: AuditResult) -> tuple[float, float]:
    """(p, q): the chosen event's frequencies in the reported direction (numerator, denominator)."""
    if result.audit != "empirical":
        raise ValueError(f"an empirical audit's result is needed, got a {result.audit!r} audit")
    if not (math.isfinite(result.p_a) and math.isfinite(result.p_b)):
        raise ValueError(
            f"the result has no event frequencies (p_a={result.p_a!r}, p_b={result.p_b!r})"
        )
    backward = result.event.endswith("M(D') over M(D)")
    return (result.p_b, result.p_a) if backward else (result.p_a, result.p_b)


def bound_at(result: AuditResult, n_samples: int, quantile: float = 0.5) -> float:
    """The bound an audit of ``n_samples`` per input would report on ``result``'s event, at its confidence and δ,
    with the numerator's count at its lower ``quantile`` and the denominator's at its upper one (0.5: the typical
    bound; ``(1 - power) / 2``: a bound exceeded with probability at least ``power``)."""
    if not (0 < quantile <= 0.5):
        raise ValueError(f"quantile must be in (0, 0.5], got {quantile!r}")
    p, q = _frequencies(result)
    n_ev = int(n_samples) - int(n_samples) // 2
    if n_ev < 1:
        raise ValueError(f"n_samples must be at least 2, got {n_samples!r}")
    k_num = float(binom.ppf(quantile, n_ev, p))
    k_den = float(binom.isf(quantile, n_ev, q)) if q > 0 else 0.0
    k_den = min(max(k_den, 0.0), float(n_ev))
    return float(
        epsilon_lower_bound(
            k_num, n_ev, k_den, n_ev, delta=result.claimed_delta, confidence=result.confidence
        )
    )


def samples_needed(
    result: AuditResult, power: float = 0.9, target: float | None = None, limit: int = 10**10
) -> float:
    """The samples per input (even) with which an audit bounds ε above ``target`` (default: the claimed ε, the
    verdict "violated") with probability at least ``power``, on ``result``'s event at its observed frequencies
    (module docstring). ``math.inf`` when the event's own ratio ``(p - δ)/q`` does not exceed ``e^target`` (no
    number of samples does it) or more than ``limit`` are needed."""
    if not (isinstance(power, float | int) and 0 < power < 1):
        raise ValueError(f"power must be in (0, 1), got {power!r}")
    target = result.claimed_epsilon if target is None else float(target)
    p, q = _frequencies(result)
    if not (p - result.claimed_delta > math.exp(target) * q):
        return math.inf
    beta = (1 - power) / 2

    def exceeds(n: int) -> bool:
        return bound_at(result, n, beta) > target

    lo, hi = 20, 40
    while not exceeds(hi):
        lo, hi = hi, 2 * hi
        if hi > limit:
            return math.inf
    while hi - lo > max(2, lo // 1000):  # to 0.1 %
        mid = (lo + hi) // 2
        lo, hi = (lo, mid) if exceeds(mid) else (mid, hi)
    return float(hi + (hi % 2))
