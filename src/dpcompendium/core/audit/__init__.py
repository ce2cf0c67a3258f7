"""The auditing engine: does a mechanism deliver the ε it claims? Every chapter's audit specs use it.

- :mod:`.exact` — exact ε (and δ) of mechanisms with a finite output space (and, re-exported from
  :mod:`dpcompendium.core.mechanisms.gaussian`, the exact ε and δ of the Gaussian mechanism).
- :mod:`.empirical` — Clopper–Pearson lower bounds on ε from samples of M(D) and M(D'), events searched over
  intervals of a statistic on one half of the samples and evaluated on the other (or Bonferroni-corrected), in the
  style of StatDP [ding2018detecting] and DP-Sniper [bichsel2021dpsniper]; (ε, δ) audits at the claimed δ.
- :mod:`.chunked` — the counting of the same split-selection audit in chunks (10^8+ samples:
  ``empirical_audit(..., chunk_size=...)``).
- :mod:`.power` — the samples an empirical audit's verdict needs for a given power, on its event at the
  frequencies it observed (issue 50).
- :mod:`.profile` — whole-profile audits of (ε, δ) mechanisms: the certified privacy profile δ(ε) and trade-off
  curve of one pair from samples, and the Gaussian (μ-GDP) fit that extends it to small δ.
- :mod:`.spec` — :class:`AuditSpec` (raw neighbouring datasets + the whole pipeline), :func:`are_neighbours`,
  :func:`run_audit`: the one path every audit (book or user code) goes through.
"""

from ..mechanisms.gaussian import gaussian_delta, gaussian_epsilon
from .empirical import (
    Event,
    Sampler,
    clopper_pearson,
    coverage_experiment,
    empirical_audit,
    empirical_audit_chunked,
    epsilon_lower_bound,
    interval_cuts,
)
from .exact import exact_audit, exact_delta, exact_epsilon, exact_epsilon_at_delta
from .profile import ProfileAudit, claimed_profile, profile_audit
from .result import AuditResult, verdict
from .spec import (
    AuditSpec,
    are_neighbours,
    check_neighbours,
    neighbour_violation,
    run_audit,
    value_events,
)

__all__ = [
    "AuditResult",
    "AuditSpec",
    "Event",
    "ProfileAudit",
    "Sampler",
    "are_neighbours",
    "check_neighbours",
    "claimed_profile",
    "clopper_pearson",
    "coverage_experiment",
    "empirical_audit",
    "empirical_audit_chunked",
    "epsilon_lower_bound",
    "exact_audit",
    "exact_delta",
    "exact_epsilon",
    "exact_epsilon_at_delta",
    "gaussian_delta",
    "gaussian_epsilon",
    "interval_cuts",
    "neighbour_violation",
    "profile_audit",
    "run_audit",
    "value_events",
    "verdict",
]
