"""Privacy audits: does each mechanism of the book deliver the ε it claims? (this chapter's library code)

The auditing engine is :mod:`dpcompendium.core.audit` (re-exported here); coursework mode, ``dpcompendium audit`` on
a user's own function, is :mod:`dpcompendium.book.usercode`.

- :mod:`.exact` — exact ε (and δ) of mechanisms with a finite output space: max |ln P(o) − ln Q(o)| over outputs and
  neighbouring inputs; the exact ε of the Gaussian mechanism (Balle & Wang 2018).
- :mod:`.empirical` — Clopper–Pearson lower bounds on ε from samples of M(D) and M(D'), events searched over
  intervals of a statistic on one half of the samples and evaluated on the other (or Bonferroni-corrected), in the
  style of StatDP [ding2018detecting] and DP-Sniper [bichsel2021dpsniper]; (ε, δ) audits at the claimed δ.
- :mod:`.planted` — three deliberately broken mechanisms the audits must catch.
- :mod:`.floating` — Mironov's floating-point attack on textbook Laplace sampling [mironov2012significance] and the
  snapping mechanism as a hardened option.
- :mod:`.spec` — :class:`AuditSpec` (raw neighbouring datasets + the whole pipeline), :func:`are_neighbours`,
  :func:`run_audit`: the one path every audit (book or user code) goes through.
- :mod:`.catalog` — discovers every chapter's audit specs (``dpcompendium/chapters/<folder>/audits.py``; this
  chapter's planted and floating-point rows in :mod:`.audits`); ``run_catalog`` produces the chapter's ``audit.csv``.
"""

from dpcompendium.chapters.privacy_audit.catalog import (
    COLUMNS,
    CORE,
    CatalogEntry,
    audit_modules,
    catalog,
    grr_distributions,
    laplace_samplers,
    missing_chapters,
    row_confidence,
    run_catalog,
    value_events,
)
from dpcompendium.chapters.privacy_audit.floating import (
    low_bit_event,
    low_bit_frequencies,
    numpy_laplace_from_uniforms,
    snapping_claim,
    snapping_epsilon,
    snapping_laplace,
)
from dpcompendium.chapters.privacy_audit.planted import (
    grr_wrong_keep,
    grr_wrong_keep_probabilities,
    laplace_half_sensitivity,
    laplace_scale_epsilon,
    planted_claim,
    planted_true_epsilon,
)
from dpcompendium.core.audit.chunked import empirical_audit_chunked
from dpcompendium.core.audit.empirical import (
    Sampler,
    clopper_pearson,
    coverage_experiment,
    empirical_audit,
    epsilon_lower_bound,
    interval_cuts,
)
from dpcompendium.core.audit.exact import (
    exact_audit,
    exact_delta,
    exact_epsilon,
    exact_epsilon_at_delta,
    gaussian_delta,
    gaussian_epsilon,
)
from dpcompendium.core.audit.result import AuditResult, verdict
from dpcompendium.core.audit.spec import AuditSpec, are_neighbours, check_neighbours, run_audit

__all__ = [
    "COLUMNS",
    "CORE",
    "AuditResult",
    "AuditSpec",
    "CatalogEntry",
    "Sampler",
    "are_neighbours",
    "audit_modules",
    "catalog",
    "check_neighbours",
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
    "grr_distributions",
    "grr_wrong_keep",
    "grr_wrong_keep_probabilities",
    "interval_cuts",
    "laplace_half_sensitivity",
    "laplace_samplers",
    "laplace_scale_epsilon",
    "low_bit_event",
    "low_bit_frequencies",
    "missing_chapters",
    "numpy_laplace_from_uniforms",
    "planted_claim",
    "planted_true_epsilon",
    "row_confidence",
    "run_audit",
    "run_catalog",
    "snapping_claim",
    "snapping_epsilon",
    "snapping_laplace",
    "value_events",
    "verdict",
]
