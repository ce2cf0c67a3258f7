"""Privacy audits: does each mechanism of the book deliver the ε it claims? (chapter ``privacy-audit``)

- :mod:`.exact` — exact ε (and δ) of mechanisms with a finite output space: max |ln P(o) − ln Q(o)| over outputs and
  neighbouring inputs; the exact ε of the Gaussian mechanism (Balle & Wang 2018).
- :mod:`.empirical` — Clopper–Pearson lower bounds on ε from samples of M(D) and M(D'), events searched over
  intervals of a statistic on one half of the samples and evaluated on the other (or Bonferroni-corrected), in the
  style of StatDP [ding2018detecting] and DP-Sniper [bichsel2021dpsniper]; (ε, δ) audits at the claimed δ.
- :mod:`.planted` — three deliberately broken mechanisms the audits must catch.
- :mod:`.floating` — Mironov's floating-point attack on textbook Laplace sampling [mironov2012significance] and the
  snapping mechanism as a hardened option.
- :mod:`.user` — coursework mode: :func:`audit_callable` audits a user's own function ``f(data, rng, **params)``
  (``dpcompendium audit TARGET``) through :func:`sample_outputs`, on built-in families of neighbouring inputs.
- :mod:`.spec` — :class:`AuditSpec` (raw neighbouring datasets + the whole pipeline), :func:`are_neighbours`,
  :func:`run_audit`: the one path every audit (book or user code) goes through.
- :mod:`.catalog` (with :mod:`.adapters`) — every mechanism of the book with its claim and audit; ``run_catalog``
  produces the chapter's ``audit.csv``.
"""

from .catalog import (
    COLUMNS,
    CatalogEntry,
    catalog,
    grr_distributions,
    laplace_samplers,
    missing_chapters,
    run_catalog,
    value_events,
)
from .empirical import (
    Sampler,
    clopper_pearson,
    coverage_experiment,
    empirical_audit,
    epsilon_lower_bound,
    interval_cuts,
)
from .exact import (
    exact_audit,
    exact_delta,
    exact_epsilon,
    exact_epsilon_at_delta,
    gaussian_delta,
    gaussian_epsilon,
)
from .floating import (
    low_bit_event,
    low_bit_frequencies,
    numpy_laplace_from_uniforms,
    snapping_claim,
    snapping_epsilon,
    snapping_laplace,
)
from .planted import (
    grr_wrong_keep,
    grr_wrong_keep_probabilities,
    laplace_half_sensitivity,
    laplace_scale_epsilon,
    planted_claim,
    planted_true_epsilon,
)
from .result import AuditResult, verdict
from .spec import AuditSpec, are_neighbours, check_neighbours, run_audit
from .user import (
    AuditReport,
    UserCodeError,
    audit_callable,
    input_pairs,
    load_target,
    sample_outputs,
)

__all__ = [
    "COLUMNS",
    "AuditReport",
    "AuditResult",
    "AuditSpec",
    "CatalogEntry",
    "Sampler",
    "UserCodeError",
    "are_neighbours",
    "audit_callable",
    "catalog",
    "check_neighbours",
    "clopper_pearson",
    "coverage_experiment",
    "empirical_audit",
    "epsilon_lower_bound",
    "exact_audit",
    "exact_delta",
    "exact_epsilon",
    "exact_epsilon_at_delta",
    "gaussian_delta",
    "gaussian_epsilon",
    "grr_distributions",
    "grr_wrong_keep",
    "grr_wrong_keep_probabilities",
    "input_pairs",
    "interval_cuts",
    "laplace_half_sensitivity",
    "laplace_samplers",
    "laplace_scale_epsilon",
    "load_target",
    "low_bit_event",
    "low_bit_frequencies",
    "missing_chapters",
    "numpy_laplace_from_uniforms",
    "planted_claim",
    "planted_true_epsilon",
    "run_audit",
    "run_catalog",
    "sample_outputs",
    "snapping_claim",
    "snapping_epsilon",
    "snapping_laplace",
    "value_events",
    "verdict",
]
