"""Exact audits of mechanisms with a finite output space.

For output distributions P (input D) and Q (neighbour D') over a finite set, the mechanism is ε-DP on that pair iff
ε ≥ max_o |ln P(o) − ln Q(o)|, and (ε, δ)-DP iff δ ≥ max(H_ε(P‖Q), H_ε(Q‖P)) with the hockey-stick divergence
H_ε(P‖Q) = Σ_o max(P(o) − e^ε Q(o), 0) (Dwork & Roth 2014, [dwork2014algorithmic]). The mechanism's ε is the
largest such value over neighbouring inputs; an audit over a chosen set of pairs is exact for those pairs.
(The exact ε of the Gaussian mechanism, :func:`~dpcompendium.core.mechanisms.gaussian.gaussian_epsilon`, lives with the
mechanism; :mod:`dpcompendium.core.audit` re-exports it.)
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Sequence

import numpy as np
from numpy.typing import ArrayLike

from ..privacy import PrivacyClaim
from ..validation import check_array, check_int
from .result import AuditResult, audit_result, claimed_privacy

__all__ = [
    "exact_audit",
    "exact_delta",
    "exact_epsilon",
    "exact_epsilon_at_delta",
]


def _pair(probs_a: ArrayLike, probs_b: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    p = check_array(probs_a, "probs_a", ndim=1)
    q = check_array(probs_b, "probs_b", ndim=1)
    if p.shape != q.shape:
        raise ValueError(
            f"probs_a and probs_b must have the same shape, got {p.shape} and {q.shape}"
        )
    for name, d in (("probs_a", p), ("probs_b", q)):
        if np.any(d < 0) or abs(d.sum() - 1.0) > 1e-6:
            raise ValueError(
                f"{name} must be a probability vector (>= 0, sum 1), got sum {d.sum()!r}"
            )
    return p, q


def _log_ratios(p: np.ndarray, q: np.ndarray) -> np.ndarray:
    """|ln p − ln q| per output; +inf where exactly one is zero, 0 where both are."""
    with np.errstate(divide="ignore", invalid="ignore"):
        r = np.abs(np.log(p) - np.log(q))
    return np.where((p == 0) & (q == 0), 0.0, r)


def exact_epsilon(probs_a: ArrayLike, probs_b: ArrayLike) -> float:
    """max_o |ln P(o) − ln Q(o)| over a finite output space (+inf if the supports differ)."""
    p, q = _pair(probs_a, probs_b)
    return float(_log_ratios(p, q).max())


def exact_delta(probs_a: ArrayLike, probs_b: ArrayLike, epsilon: float) -> float:
    """The smallest δ for which the pair is (ε, δ)-indistinguishable: max(H_ε(P‖Q), H_ε(Q‖P))."""
    p, q = _pair(probs_a, probs_b)
    e = math.exp(float(epsilon))
    return float(max(np.maximum(p - e * q, 0).sum(), np.maximum(q - e * p, 0).sum()))


def exact_epsilon_at_delta(probs_a: ArrayLike, probs_b: ArrayLike, delta: float) -> float:
    """The smallest ε ≥ 0 with δ(ε) ≤ ``delta`` (bisection; δ(ε) is non-increasing); +inf if none."""
    p, q = _pair(probs_a, probs_b)
    if delta <= 0:
        return exact_epsilon(p, q)
    r = _log_ratios(p, q)
    finite = r[np.isfinite(r)]
    hi = float(finite.max()) if finite.size else 0.0
    if exact_delta(p, q, hi) > delta:  # the mass on outputs one input never produces exceeds δ
        return math.inf
    if exact_delta(p, q, 0.0) <= delta:
        return 0.0
    lo = 0.0
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        lo, hi = (mid, hi) if exact_delta(p, q, mid) > delta else (lo, mid)
        if hi - lo < 1e-13:
            break
    return hi


def exact_audit(
    distributions: ArrayLike,
    *,
    claimed_epsilon: float | None = None,
    claimed_delta: float = 0.0,
    claim: PrivacyClaim | None = None,
    pairs: Iterable[tuple[int, int]] | None = None,
    mechanism: str = "",
    outputs: Sequence | None = None,
) -> AuditResult:
    """Exact ε of a mechanism given its output distribution for every input of interest.

    ``distributions[i, o]`` = P[M(x_i) = o]. ``pairs`` lists the neighbouring input pairs (default: every pair, as
    in local DP where any two inputs of a user are neighbours). With ``claimed_delta > 0`` the audited value is the
    smallest ε for which every pair is (ε, δ)-indistinguishable at the claimed δ. The claim: ``claimed_epsilon``
    (and ``claimed_delta``), validated here, or a validated ``claim``
    (:func:`~dpcompendium.core.audit.result.claimed_privacy`).
    """
    claimed = claimed_privacy(claimed_epsilon, claimed_delta, claim)
    delta = claimed[1]
    P = check_array(distributions, "distributions", ndim=2)
    m = P.shape[0]
    if np.any(P < 0) or np.any(np.abs(P.sum(axis=1) - 1.0) > 1e-6):
        raise ValueError("distributions must have rows that are probability vectors (>= 0, sum 1)")
    pair_list = list(itertools.combinations(range(m), 2)) if pairs is None else list(pairs)
    if not pair_list:
        raise ValueError("pairs must list at least one pair of input indices, got none")
    for i, j in pair_list:
        check_int(i, "pairs[i]", minimum=0, maximum=m - 1)
        check_int(j, "pairs[j]", minimum=0, maximum=m - 1)
    best = (-1.0, 0, 0, 0)
    for i, j in pair_list:
        if delta > 0:
            eps = exact_epsilon_at_delta(P[i], P[j], delta)
            o = int(np.argmax(_log_ratios(P[i], P[j])))
        else:
            r = _log_ratios(P[i], P[j])
            o = int(np.argmax(r))
            eps = float(r[o])
        if eps > best[0]:
            best = (eps, i, j, o)
    eps, i, j, o = best
    label = outputs[o] if outputs is not None else o
    event = f"output {label!s} (inputs {i} vs {j})"
    return audit_result(mechanism, "exact", claimed, eps, 1.0, event, P[i, o], P[j, o])
