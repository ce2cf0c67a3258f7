"""The outcome of one privacy audit, as data (one row of the chapter's ``audit.csv``)."""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import Literal

from ..privacy import PrivacyClaim
from ..validation import check_delta, check_epsilon

__all__ = ["AuditResult", "audit_result", "claimed_privacy", "verdict"]

#: Relative slack for comparing an *exact* ε with its claim (floating-point rounding only).
EXACT_RTOL = 1e-9


def verdict(audited_epsilon: float, claimed_epsilon: float, audit: str) -> str:
    """``"violated"`` when the audited ε exceeds the claim (exact: beyond rounding; empirical: the lower bound)."""
    if audit == "exact":
        bad = audited_epsilon > claimed_epsilon * (1.0 + EXACT_RTOL) + 1e-12
    else:
        bad = audited_epsilon > claimed_epsilon
    return "violated" if bad else "holds"


def claimed_privacy(
    claimed_epsilon: float | None, claimed_delta: float, claim: PrivacyClaim | None
) -> tuple[float, float]:
    """The (ε, δ) an audit checks, validated once: from ``claim`` (a :class:`~dpcompendium.core.privacy.PrivacyClaim`,
    validated on construction: taken as it is) or else from ``claimed_epsilon`` > 0 and ``claimed_delta`` in
    [0, 1) (checked here, the one check of an engine function called with numbers)."""
    if claim is not None:
        if claimed_epsilon is not None:
            raise ValueError(
                f"claimed_epsilon and claim are exclusive, got claimed_epsilon={claimed_epsilon!r} and a claim"
            )
        return float(claim.epsilon), float(claim.delta)
    if claimed_epsilon is None:
        raise ValueError("claimed_epsilon is required (or claim), got neither")
    eps = check_epsilon(claimed_epsilon, "claimed_epsilon")
    return eps, 0.0 if claimed_delta == 0 else check_delta(claimed_delta, "claimed_delta")


@dataclass(frozen=True)
class AuditResult:
    """One audit.

    ``audited_epsilon`` is the exact ε (``audit="exact"``) or a lower bound on ε that holds with probability at
    least ``confidence`` (``audit="empirical"``). ``event`` names the witnessing output set, ``p_a``/``p_b`` are its
    (exact or estimated) probabilities under the two neighbouring inputs, ``n_samples`` the samples per input.
    """

    mechanism: str
    audit: Literal["exact", "empirical"]
    claimed_epsilon: float
    claimed_delta: float
    audited_epsilon: float
    confidence: float
    verdict: Literal["holds", "violated"]
    event: str = ""
    p_a: float = math.nan
    p_b: float = math.nan
    n_samples: int = 0

    def as_dict(self) -> dict:
        return asdict(self)


def audit_result(
    mechanism: str,
    audit: Literal["exact", "empirical"],
    claimed: tuple[float, float],
    audited_epsilon: float,
    confidence: float,
    event: str,
    p_a: float,
    p_b: float,
    n_samples: int = 0,
) -> AuditResult:
    """The :class:`AuditResult` of an exact or empirical audit of the ``claimed`` (ε, δ) (validated: from
    :func:`claimed_privacy`), its :func:`verdict` computed here, the one place for both kinds of audit."""
    claimed_epsilon, claimed_delta = claimed
    eps = float(audited_epsilon)
    return AuditResult(
        mechanism=mechanism,
        audit=audit,
        claimed_epsilon=claimed_epsilon,
        claimed_delta=float(claimed_delta),
        audited_epsilon=eps,
        confidence=confidence,
        verdict=verdict(eps, claimed_epsilon, audit),  # type: ignore[arg-type]
        event=event,
        p_a=float(p_a),
        p_b=float(p_b),
        n_samples=n_samples,
    )
