"""What every empirical audit shares: events, their counts and the confidence bounds on ε they give.

The audit (:mod:`dpcompendium.core.audit.empirical`, in memory or with its evaluation counted in chunks by
:mod:`dpcompendium.core.audit.chunked`) builds on these: interval events of a statistic (:func:`interval_cuts`,
:func:`pooled_sorted`), Clopper–Pearson bounds (:func:`clopper_pearson`, :func:`epsilon_lower_bound`) and the result
of an audit.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from typing import Literal

import numpy as np
from numpy.typing import ArrayLike
from scipy.stats import beta, norm

from ..validation import check_int
from .result import AuditResult, audit_result

__all__ = [
    "Event",
    "Sampler",
    "clopper_pearson",
    "epsilon_lower_bound",
    "interval_cuts",
    "pooled_sorted",
    "select_event",
]

#: ``sampler(n, rng)`` returns n independent outputs of the mechanism on one fixed input, first axis = samples.
Sampler = Callable[[int, np.random.Generator], np.ndarray]
#: A named output event: ``(name, indicator)``; ``indicator(outputs)`` returns one bool per sample.
Event = tuple[str, Callable[[np.ndarray], np.ndarray]]


def _check_confidence(confidence: float) -> float:
    c = float(confidence)
    if not (0.0 < c < 1.0):
        raise ValueError(f"confidence must be in (0, 1), got {confidence!r}")
    return c


def clopper_pearson(
    successes: ArrayLike,
    trials: ArrayLike,
    confidence: float = 0.95,
    side: Literal["two-sided", "lower", "upper"] = "two-sided",
) -> tuple[np.ndarray, np.ndarray]:
    """Exact binomial confidence bounds (lo, hi) for p from k successes in n trials (Clopper & Pearson 1934).

    lo = Beta⁻¹(a; k, n − k + 1), hi = Beta⁻¹(1 − a; k + 1, n − k) with a = α/2 (two-sided) or α (one-sided; the
    other bound is then 0 or 1). lo = 0 when k = 0, hi = 1 when k = n.
    """
    c = _check_confidence(confidence)
    if side not in ("two-sided", "lower", "upper"):
        raise ValueError(f"side must be one of two-sided|lower|upper, got {side!r}")
    k = np.asarray(successes, dtype=float)
    n = np.asarray(trials, dtype=float)
    if np.any(n < 1) or np.any(k < 0) or np.any(k > n):
        raise ValueError(
            f"successes must lie in [0, trials] with trials >= 1, got {successes!r}/{trials!r}"
        )
    a = (1 - c) / 2 if side == "two-sided" else 1 - c
    lo = np.where(k > 0, beta.ppf(a, np.maximum(k, 1), n - k + 1), 0.0)
    hi = np.where(k < n, beta.ppf(1 - a, k + 1, np.maximum(n - k, 1)), 1.0)
    if side == "lower":
        hi = np.ones_like(hi)
    elif side == "upper":
        lo = np.zeros_like(lo)
    return lo, hi


def epsilon_lower_bound(
    k_a: ArrayLike,
    n_a: ArrayLike,
    k_b: ArrayLike,
    n_b: ArrayLike,
    *,
    delta: float = 0.0,
    confidence: float = 0.95,
) -> np.ndarray | float:
    """ε̂ = ln((p_lo − δ)/q_hi) ≥ 0: a (1 − α)-confidence lower bound on ε from one event's counts.

    k_a of n_a samples of M(D) and k_b of n_b samples of M(D') fell in the event; p_lo is the one-sided CP lower bound
    for P[M(D) ∈ S] and q_hi the one-sided CP upper bound for P[M(D') ∈ S], each at level α/2. Returns 0 (the
    trivial bound) when p_lo ≤ δ.
    """
    c = _check_confidence(confidence)
    half = 1 - (1 - c) / 2
    p_lo, _ = clopper_pearson(k_a, n_a, half, side="lower")
    _, q_hi = clopper_pearson(k_b, n_b, half, side="upper")
    num = p_lo - float(delta)
    with np.errstate(divide="ignore", invalid="ignore"):
        eps = np.where(num > 0, np.log(np.maximum(num, 1e-300) / q_hi), 0.0)
    eps = np.maximum(eps, 0.0)
    return float(eps) if eps.ndim == 0 else eps


def _wilson_score(k_a, n_a, k_b, n_b, delta: float, z: float) -> np.ndarray:
    """A cheap stand-in for :func:`epsilon_lower_bound` (Wilson intervals), used only to *choose* an event."""

    def wilson(k, n):
        p = np.clip(k / n, 0.0, 1.0)
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
        return centre - half, centre + half

    lo, _ = wilson(k_a, n_a)
    _, hi = wilson(k_b, n_b)
    num = lo - delta
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(num > 0, np.log(np.maximum(num, 1e-300) / np.maximum(hi, 1e-300)), 0.0)


def _selection_z(confidence: float, m: int) -> float:
    """z of a Bonferroni bound over m candidates: penalizes noisy small-count events when choosing one."""
    return float(norm.ppf(1 - (1 - confidence) / (2 * max(m, 1))))


def interval_cuts(pooled: ArrayLike, max_cuts: int = 160) -> np.ndarray:
    """Cut points for interval events: every distinct value if there are few, else quantiles of ``pooled`` with
    extra resolution in both tails (levels down to 10/n), always with ±inf at the ends."""
    x = np.asarray(pooled, dtype=float).ravel()
    max_cuts = check_int(max_cuts, "max_cuts", minimum=4)
    presorted = x.size > 1 and bool(np.all(x[1:] >= x[:-1])) and not bool((x == 0).any())
    # sorted (so no NaN) and no zero (no −0.0 beside 0.0): the distinct values without sorting again
    uniq = x[np.concatenate([[True], x[1:] != x[:-1]])] if presorted else np.unique(x)
    if uniq.size <= max_cuts:
        inner = uniq
    else:
        n = x.size
        n_tail = max(2, max_cuts // 4)
        tail = np.logspace(math.log10(max(10.0 / n, 1e-9)), math.log10(0.1), n_tail)
        mid = np.linspace(0.1, 0.9, max(2, max_cuts - 2 * n_tail))
        levels = np.unique(np.clip(np.concatenate([tail, mid, 1 - tail]), 0.0, 1.0))
        if presorted:  # the order statistics np.quantile would partition for, read off directly
            inner = np.unique(x[_inverted_cdf_index(n, levels)])
        else:
            inner = np.unique(np.quantile(x, levels, method="inverted_cdf"))
    return np.concatenate([[-np.inf], inner, [np.inf]])


def _inverted_cdf_index(n: int, levels: np.ndarray) -> np.ndarray:
    """The 0-based order statistic that ``np.quantile(x, levels, method="inverted_cdf")`` returns for ``n`` values
    (numpy's own arithmetic: index ``n·q − 1``, rounded up unless it is whole, at least 0); on a sorted ``x``,
    ``x[index]`` is that quantile, bit for bit, without the copy and partition of ``np.quantile``."""
    index = n * np.asarray(levels, dtype=float) - 1
    below = np.floor(index)
    out = np.where(index - below == 0, below, below + 1).astype(np.intp)
    out[out < 0] = 0
    return out


def pooled_sorted(sa: np.ndarray, sb: np.ndarray) -> np.ndarray:
    """Two sorted samples pooled for :func:`interval_cuts`: merged into one sorted array (the cuts are then found in
    linear time, the same cuts as from the concatenation: distinct values and order statistics do not depend on the
    order), or the plain concatenation if a zero or a NaN is present (np.unique keeps whichever of −0.0 and 0.0 its
    sort puts first, so there the order could change the sign of a cut)."""
    pooled = np.concatenate([sa, sb])
    if pooled.size and not bool(np.isnan(pooled).any()) and not bool((pooled == 0).any()):
        pooled.sort(kind="stable")
    return pooled


def _interval_counts(sorted_x: np.ndarray, cuts: np.ndarray) -> np.ndarray:
    """counts[i, j] = #{x in (cuts[i], cuts[j]]} (meaningful for i < j)."""
    c = np.searchsorted(sorted_x, cuts, side="right").astype(float)
    return c[None, :] - c[:, None]


def _check_events(events, statistic) -> None:
    """``events`` and ``statistic`` exclusive; ``events``, when given, not empty."""
    if events is not None and statistic is not None:
        raise ValueError("events and statistic are exclusive: events see the raw outputs, got both")
    if events is not None and len(events) == 0:
        raise ValueError("events must list at least one (name, indicator) pair, got none")


def _check_shape(name: str, out: np.ndarray, n: int) -> None:
    """A sampler asked for n outputs returned n (first axis)."""
    if np.ndim(out) == 0 or np.shape(out)[0] != n:
        raise ValueError(f"{name} must return {n} outputs (first axis), got shape {np.shape(out)}")


def _as_statistic(
    out: np.ndarray, statistic: Callable[[np.ndarray], np.ndarray] | None
) -> np.ndarray:
    if statistic is not None:
        s = np.asarray(statistic(out), dtype=float)
    else:
        s = np.asarray(out, dtype=float)
    if s.ndim != 1:
        raise ValueError(
            f"outputs must be scalar per sample (shape (n,)), got shape {s.shape}; pass statistic= to reduce them"
        )
    return s


def _as_bool(out: np.ndarray, event) -> np.ndarray:
    return np.asarray(event(out), dtype=bool)


def _in_interval(out: np.ndarray, lo: float, hi: float, statistic=None) -> np.ndarray:
    s = _as_statistic(out, statistic)
    return (s > lo) & (s <= hi)


def _best_direction(ka, n_a, kb, n_b, delta: float, c: float, valid=None) -> tuple[bool, int]:
    """The candidate with the best Wilson-score bound, in either direction: (forward, flat index); forward = M(D)
    over M(D'). ``valid`` masks the candidates (interval (i, j] with i < j), the Bonferroni z counts only those."""
    m = ka.size if valid is None else int(valid.sum())
    z = _selection_z(c, 2 * m)
    sab = _wilson_score(ka, n_a, kb, n_b, delta, z)
    sba = _wilson_score(kb, n_b, ka, n_a, delta, z)
    if valid is not None:
        sab, sba = np.where(valid, sab, -np.inf), np.where(valid, sba, -np.inf)
    forward = bool(sab.max() >= sba.max())
    return forward, int(np.argmax(sab if forward else sba))


def select_event(
    out_a, out_b, n_sel: int, statistic, events, max_cuts: int, delta: float, c: float
):
    """The event with the best Wilson-score bound on the selection samples ``out_a``, ``out_b`` (``n_sel`` each), in
    either direction: ``(name, indicator, forward)``. Among the given ``events``, or else among the intervals of
    ``statistic`` between the cut points of the pooled samples (:func:`interval_cuts`). The split audits (in memory
    and chunked) both choose here; ``indicator(outputs)`` then counts the event on the evaluation samples."""
    if events is not None:
        ka = np.array([_as_bool(out_a, fn).sum() for _, fn in events], dtype=float)
        kb = np.array([_as_bool(out_b, fn).sum() for _, fn in events], dtype=float)
        forward, e = _best_direction(ka, n_sel, kb, n_sel, delta, c)
        name, fn = events[e]
        return name, functools.partial(_as_bool, event=fn), forward
    sa = np.sort(_as_statistic(out_a, statistic))
    sb = np.sort(_as_statistic(out_b, statistic))
    cuts = interval_cuts(pooled_sorted(sa, sb), max_cuts)
    Ka, Kb = _interval_counts(sa, cuts), _interval_counts(sb, cuts)
    valid = np.triu(np.ones(Ka.shape, dtype=bool), k=1)
    forward, flat = _best_direction(Ka, n_sel, Kb, n_sel, delta, c, valid)
    i, j = np.unravel_index(flat, Ka.shape)
    lo, hi = float(cuts[i]), float(cuts[j])
    indicator = functools.partial(_in_interval, lo=lo, hi=hi, statistic=statistic)
    return f"statistic in ({lo:.6g}, {hi:.6g}]", indicator, forward


def _bound_result(mechanism, claimed_epsilon, delta, c, name, forward, ka, kb, n_ev, n_samples):
    """The result of a split audit: the chosen event counted ``ka`` and ``kb`` times in ``n_ev`` evaluation samples
    of each input, ε bounded in the chosen direction (:func:`epsilon_lower_bound`)."""
    num, den = (ka, kb) if forward else (kb, ka)
    eps = float(epsilon_lower_bound(num, n_ev, den, n_ev, delta=delta, confidence=c))
    return _result(
        mechanism, claimed_epsilon, delta, eps, c, name, forward, ka / n_ev, kb / n_ev, n_samples
    )


def _result(
    mechanism: str,
    claimed_epsilon: float,
    delta: float,
    eps: float,
    confidence: float,
    name: str,
    forward: bool,
    p_a: float,
    p_b: float,
    n_samples: int,
) -> AuditResult:
    """The :class:`AuditResult` of an empirical audit whose event ``name`` bounds ε at ``eps`` (in-memory and chunked
    audits alike): the direction is M(D) over M(D') when ``forward``, ``p_a``/``p_b`` the evaluation frequencies."""
    direction = "M(D) over M(D')" if forward else "M(D') over M(D)"
    event = f"{name}, {direction}"
    claimed = (claimed_epsilon, delta)
    return audit_result(
        mechanism, "empirical", claimed, eps, confidence, event, p_a, p_b, n_samples
    )
