"""DP histogram publication: the source's sampling-based grouping (``src_histograms``) against AHP, P-HP,
Hb, Privelet, least squares, HDMM, DAWA, PrivTree, Identity and Uniform, on range-query workloads (chapter ``histograms``).

Every publisher is ``f(x, epsilon, rng, *, <parameters>, size=None) -> noisy histogram`` and is vectorized over
``size`` repetitions. Neighbour relation throughout: add-remove (one record changes one bin by 1).
"""

from __future__ import annotations

from ...core.experiments import RangeQueries, bootstrap_mean_ci  # the one implementation (core)
from . import baselines as _baselines
from . import experiment as _experiment
from . import hdmm as _hdmm
from . import privtree as _privtree
from . import sampling_grouping as _sampling_grouping
from . import workloads as _workloads
from .baselines import *  # noqa: F403
from .experiment import *  # noqa: F403
from .hdmm import *  # noqa: F403
from .privtree import *  # noqa: F403
from .sampling_grouping import *  # noqa: F403
from .sampling_grouping import parse_variant  # not in its module's __all__
from .workloads import *  # noqa: F403

# the package's public names: each module's own (its ``__all__``; the modules under ``_`` names, as three of
# them share their name with their main function) and the core's types it works with
__all__ = [
    "RangeQueries",
    "bootstrap_mean_ci",
    "parse_variant",
    *_baselines.__all__,
    *_experiment.__all__,
    *_hdmm.__all__,
    *_privtree.__all__,
    *_sampling_grouping.__all__,
    *_workloads.__all__,
]
