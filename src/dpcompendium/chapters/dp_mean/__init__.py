"""Differentially private averages: the four methods of the source {cite}`src_dpmean`, their privacy claims,
exact error formulas and exact output probabilities."""

from . import (
    analysis,
    data,
    estimators,
    experiments,
    modern,
    plots,
    staircase,
)
from .analysis import *  # noqa: F403
from .data import *  # noqa: F403
from .estimators import *  # noqa: F403
from .experiments import *  # noqa: F403
from .modern import *  # noqa: F403
from .plots import *  # noqa: F403
from .staircase import *  # noqa: F403

# the package's public names: each module's own (its ``__all__``)
__all__ = [
    *analysis.__all__,
    *data.__all__,
    *estimators.__all__,
    *experiments.__all__,
    *modern.__all__,
    *plots.__all__,
    *staircase.__all__,
]
