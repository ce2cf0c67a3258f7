"""MWEM synthetic data over d-dimensional histograms with range-query workloads (``hardt2012simple``).

- :mod:`.queries` — :func:`random_range_queries`, the coursework's random workloads of
  :class:`~dpcompendium.core.experiments.ranges.RangeQueries` (the core's range-query type: prefix-sum answers, masks,
  query matrix);
- :mod:`.core` — :func:`mwem` / :func:`mwem_sweep` with ``variant="standard" | "coursework"``, the MW step, the
  selection law, privacy accounting and claims, the Identity baseline, workload errors;
- :mod:`.analysis` — averages over repetitions, bootstrap intervals, comparison with the course's reference table;
- :mod:`.zcdp` — zCDP in closed form (Gaussian, exponential mechanism, composition, conversion to (ε, δ)) for the
  ``zcdp`` variant;
- :mod:`.baselines` — Identity, least squares over all workload queries, Hb and DAWA (the core's mechanisms), and
  HDMM and PrivTree (the histograms chapter's, through the method registry; 1-D only), the baselines, replace-one;
- :mod:`.pgm` — AIM (``mckenna2022aim``) with the graphical-model estimation of the authors' library ``mbi``
  (jax, imported only when AIM runs);
- :mod:`.gaussian` — Gaussian Identity and Gaussian least squares at AIM's zCDP budget, the data-independent
  baselines AIM is compared with;
- :mod:`.mst` — MST (``mckenna2021winning``) on two attributes at AIM's budget, with Private-PGM's estimate on its
  one clique;
- :mod:`.data` — the coursework report's histograms, queries and tables (``data/shipped/mwem``).
"""

from ...core.experiments import RangeQueries, bootstrap_mean_ci  # the one implementation (core)
from . import (
    analysis,
    baselines,
    core,
    data,
    gaussian,  # noqa: F401  (the Gaussian baselines at AIM's budget)
    mst,  # noqa: F401  (MST on two attributes at AIM's budget)
    pgm,  # noqa: F401  (AIM; jax is imported only when it runs)
    queries,
    zcdp,
)
from .analysis import *  # noqa: F403
from .baselines import *  # noqa: F403
from .core import *  # noqa: F403
from .data import *  # noqa: F403
from .queries import *  # noqa: F403
from .zcdp import *  # noqa: F403

# the package's public names: each module's own (its ``__all__``) and the core's types it works with
__all__ = [
    "RangeQueries",
    "bootstrap_mean_ci",
    *analysis.__all__,
    *baselines.__all__,
    *core.__all__,
    *data.__all__,
    *queries.__all__,
    *zcdp.__all__,
]
