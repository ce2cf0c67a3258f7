"""Local differential privacy for numeric data: graded (hierarchical) collection with HierA [src_hiera].

- :mod:`~dpcompendium.chapters.hiera.levels` — the domain's privacy levels and their budgets.
- :mod:`~dpcompendium.chapters.hiera.numeric` — user-side numeric mechanisms: Duchi/Harmony, PM, Hybrid, graded Laplace.
- :mod:`~dpcompendium.chapters.hiera.hiera` — LHP (user side), PLC and the HierA estimator (collector side), exact privacy.
- :mod:`~dpcompendium.chapters.hiera.simulate` — Monte-Carlo repetitions of the mean estimators, exact in distribution.
- :mod:`~dpcompendium.chapters.hiera.sgd` — LDP mini-batch SGD for linear regression and its cross-validation.
- :mod:`~dpcompendium.chapters.hiera.datasets` — the chapter's datasets.

GRR is the core :func:`dpcompendium.core.mechanisms.grr_privatise` (re-exported); LHP applies the same GRR with the budget
of each user's own level, vectorised over users in :func:`~dpcompendium.chapters.hiera.hiera.lhp_privatise`.
:func:`privacy_claim` states the privacy of one report for every method of the chapter.
"""

from ...core.mechanisms import grr_frequencies, grr_privatise, grr_probabilities
from .hiera import (
    calibrate_base_epsilon,
    compensation_weights,
    hiera_claim,
    hiera_estimate,
    hiera_expand,
    hiera_mean,
    hiera_variance,
    level_transition,
    lhp_counts,
    lhp_exact_epsilon,
    lhp_output_probabilities,
    lhp_pair_epsilons,
    lhp_privatise,
    plc,
    plc_counts,
    plc_keep_probability,
    privacy_claim,
    privacy_table,
)
from .levels import (
    DEFAULT_EDGES,
    HIERA_MULTIPLIERS,
    PUBLIC_SCALING,
    SGD_TEXT_MULTIPLIERS,
    level_bounds,
    level_of,
    schedule,
)
from .numeric import (
    duchi_privatise,
    duchi_variance,
    graded_laplace_privatise,
    graded_laplace_variance,
    harmony_privatise,
    harmony_variance,
    hybrid_alpha,
    hybrid_privatise,
    hybrid_variance,
    numeric_claim,
    pm_privatise,
    pm_variance,
)

__all__ = [
    "DEFAULT_EDGES",
    "HIERA_MULTIPLIERS",
    "PUBLIC_SCALING",
    "SGD_TEXT_MULTIPLIERS",
    "calibrate_base_epsilon",
    "compensation_weights",
    "duchi_privatise",
    "duchi_variance",
    "graded_laplace_privatise",
    "graded_laplace_variance",
    "grr_frequencies",
    "grr_privatise",
    "grr_probabilities",
    "harmony_privatise",
    "harmony_variance",
    "hiera_claim",
    "hiera_estimate",
    "hiera_expand",
    "hiera_mean",
    "hiera_variance",
    "hybrid_alpha",
    "hybrid_privatise",
    "hybrid_variance",
    "level_bounds",
    "level_of",
    "level_transition",
    "lhp_counts",
    "lhp_exact_epsilon",
    "lhp_output_probabilities",
    "lhp_pair_epsilons",
    "lhp_privatise",
    "numeric_claim",
    "plc",
    "plc_counts",
    "plc_keep_probability",
    "pm_privatise",
    "pm_variance",
    "privacy_claim",
    "privacy_table",
    "schedule",
]

#: the chapter's experiment modules, imported when first used (``hiera.simulate``, ``hiera.sgd``, ...)
_LAZY = ("datasets", "plots", "sgd", "simulate")


def __getattr__(name: str):
    if name in _LAZY:
        import importlib

        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
