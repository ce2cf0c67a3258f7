"""Privacy levels: the partition of the domain [−1, 1] into sub-intervals and their budgets.

A value v lies in level t = #{edges e : e ≤ v} (0-based here; the source numbers levels 1…k): with the source's edges
(−0.6, −0.2, 0.2, 0.6), level 0 is [−1, −0.6), …, level 4 is [0.6, 1]. Levels are ordered from the least to the most
sensitive, so budgets decrease: ε_0 > ε_1 > … > ε_{k−1} (the source's default {5ε, 4ε, 3ε, 2ε, ε}) [src_hiera].
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import ArrayLike

from ...core.messages import message
from ...core.validation import check_array, check_epsilon, check_in_domain

__all__ = [
    "DEFAULT_EDGES",
    "HIERA_MULTIPLIERS",
    "PUBLIC_SCALING",
    "SGD_TEXT_MULTIPLIERS",
    "check_edges",
    "check_schedule",
    "level_bounds",
    "level_of",
    "schedule",
]

#: Interior edges of the source's five equal sub-intervals of [−1, 1].
DEFAULT_EDGES: tuple[float, ...] = (-0.6, -0.2, 0.2, 0.6)
#: Budget multipliers of the mean-estimation section and of all the source's code: {5ε, 4ε, 3ε, 2ε, ε}.
HIERA_MULTIPLIERS: tuple[float, ...] = (5.0, 4.0, 3.0, 2.0, 1.0)
#: Budget multipliers that the SGD section's text states: {2ε, 1.75ε, 1.5ε, 1.25ε, ε}.
SGD_TEXT_MULTIPLIERS: tuple[float, ...] = (2.0, 1.75, 1.5, 1.25, 1.0)
#: The condition of every per-report claim of the chapter, whose domain is [−1, 1].
PUBLIC_SCALING = message("claims.hiera.public_scaling")  # its text: core/claim_messages.py


def check_edges(edges: ArrayLike, name: str = "edges") -> np.ndarray:
    """Strictly increasing interior edges inside (−1, 1)."""
    e = check_array(edges, name, ndim=1)
    if np.any(np.diff(e) <= 0) or e[0] <= -1 or e[-1] >= 1:
        raise ValueError(f"{name} must be strictly increasing inside (-1, 1), got {e.tolist()}")
    return e


def check_schedule(epsilons: ArrayLike, k: int | None = None, name: str = "epsilons") -> np.ndarray:
    """A budget per level: finite, > 0, non-increasing (level 0 is the least sensitive); length k if given."""
    eps = check_array(epsilons, name, ndim=1)
    for x in eps:
        check_epsilon(float(x), name)
    if np.any(np.diff(eps) > 0):
        raise ValueError(
            f"{name} must be non-increasing (least sensitive level first), got {eps.tolist()}"
        )
    if k is not None and eps.size != k:
        raise ValueError(f"{name} must have one budget per level ({k}), got {eps.size}")
    return eps


def schedule(base_epsilon: float, multipliers: Sequence[float] = HIERA_MULTIPLIERS) -> np.ndarray:
    """ε_t = multiplier_t · ε, e.g. {5ε, 4ε, 3ε, 2ε, ε}."""
    base = check_epsilon(base_epsilon, "base_epsilon")
    return check_schedule(np.asarray(multipliers, dtype=float) * base)


def level_of(values: ArrayLike, edges: ArrayLike = DEFAULT_EDGES) -> np.ndarray:
    """Level index (0-based) of each value in [−1, 1]: the number of edges ≤ v (source: ``user.get_level``)."""
    e = check_edges(edges)
    v = check_in_domain(values, (-1.0, 1.0), "values")
    return np.searchsorted(e, v, side="right").astype(np.int64)


def level_bounds(edges: ArrayLike = DEFAULT_EDGES) -> np.ndarray:
    """(k, 2) array of the closed hulls [lo_t, hi_t] of the level intervals."""
    e = check_edges(edges)
    lo = np.concatenate(([-1.0], e))
    hi = np.concatenate((e, [1.0]))
    return np.column_stack((lo, hi))
