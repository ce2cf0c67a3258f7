"""Local differential privacy for numeric data: graded (hierarchical) collection with HierA [src_hiera].

- :mod:`~dpcompendium.chapters.hiera.levels` — the domain's privacy levels and their budgets.
- :mod:`~dpcompendium.chapters.hiera.numeric` — user-side numeric mechanisms: Duchi/Harmony, PM, Hybrid, graded Laplace.
- :mod:`~dpcompendium.chapters.hiera.hiera` — LHP (user side), PLC and the HierA estimator (collector side), exact privacy,
  calibration to a uniform or a graded (input-discriminative) guarantee.
- :mod:`~dpcompendium.chapters.hiera.idldp` — IDUE for a mean: the input-discriminative baseline of Gu et al.
- :mod:`~dpcompendium.chapters.hiera.accounting` — LDP-SGD's total privacy over passes: composition and shuffling.
- :mod:`~dpcompendium.chapters.hiera.simulate` — Monte-Carlo repetitions of the mean estimators, exact in distribution.
- :mod:`~dpcompendium.chapters.hiera.sgd` — LDP mini-batch SGD for linear regression and its cross-validation.
- :mod:`~dpcompendium.chapters.hiera.datasets` — the chapter's datasets.
- :mod:`~dpcompendium.chapters.hiera.verdicts` — the chapter's comparisons (tested, Holm-corrected) and their sentences.

GRR is the core :func:`dpcompendium.core.mechanisms.grr_privatise` (re-exported); LHP applies the same GRR with the budget
of each user's own level, vectorised over users in :func:`~dpcompendium.chapters.hiera.hiera.lhp_privatise`.
:func:`privacy_claim` states the privacy of one report for every method of the chapter.
"""

from ...core.mechanisms import grr_frequencies, grr_privatise, grr_probabilities
from . import hiera, idldp, levels, numeric
from .hiera import *  # noqa: F403 (the names of its __all__)
from .idldp import *  # noqa: F403
from .levels import *  # noqa: F403
from .numeric import *  # noqa: F403

#: every public name of the modules above (each module's ``__all__``) and the core's GRR
__all__ = [
    "grr_frequencies",
    "grr_privatise",
    "grr_probabilities",
    *hiera.__all__,
    *idldp.__all__,
    *levels.__all__,
    *numeric.__all__,
]

#: the chapter's experiment modules, imported when first used (``hiera.simulate``, ``hiera.sgd``, ...)
_LAZY = ("accounting", "datasets", "plots", "sgd", "simulate", "verdicts")


def __getattr__(name: str):
    if name in _LAZY:
        import importlib

        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
