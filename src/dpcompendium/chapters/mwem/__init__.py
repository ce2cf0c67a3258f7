"""MWEM synthetic data over d-dimensional histograms with range-query workloads (``hardt2012simple``).

- :mod:`.queries` — :class:`RangeQueries` (prefix-sum answers, masks, query matrix), :func:`random_range_queries`;
- :mod:`.core` — :func:`mwem` / :func:`mwem_sweep` with ``variant="standard" | "coursework"``, the MW step, the
  selection law, privacy accounting and claims, the Identity baseline, workload errors;
- :mod:`.analysis` — averages over repetitions, bootstrap intervals, comparison with the course's reference table;
- :mod:`.data` — the coursework report's histograms, queries and tables (``data/shipped/mwem``).
"""

from ...core.experiments import bootstrap_mean_ci  # the one implementation (core)
from .analysis import METRICS, compare_with_reference, summarize_runs
from .core import (
    COURSEWORK_SCORE_SCALE,
    DATA_DOMAIN_WHY,
    DOMAINS,
    PUBLIC_DOMAIN,
    VARIANTS,
    MWEMResult,
    SweepResult,
    first_round_probabilities,
    identity_histogram,
    multiplicative_weights_step,
    mwem,
    mwem_sweep,
    privacy_accounting,
    privacy_claim,
    selection_probabilities,
    spent_claim,
    workload_errors,
)
from .data import reference_errors, report_errors, report_histogram, report_queries_1d
from .queries import RangeQueries, random_range_queries

__all__ = [
    "COURSEWORK_SCORE_SCALE",
    "DATA_DOMAIN_WHY",
    "DOMAINS",
    "METRICS",
    "PUBLIC_DOMAIN",
    "VARIANTS",
    "MWEMResult",
    "RangeQueries",
    "SweepResult",
    "bootstrap_mean_ci",
    "compare_with_reference",
    "first_round_probabilities",
    "identity_histogram",
    "multiplicative_weights_step",
    "mwem",
    "mwem_sweep",
    "privacy_accounting",
    "privacy_claim",
    "random_range_queries",
    "reference_errors",
    "report_errors",
    "report_histogram",
    "report_queries_1d",
    "selection_probabilities",
    "spent_claim",
    "summarize_runs",
    "workload_errors",
]
