"""What every part of coursework mode shares: its constants and its error."""

from __future__ import annotations

from ...core.privacy import NEIGHBOUR_RELATIONS

FAMILIES = ("scalar", "dataset", "histogram", "ldp", "category", "queries")
NEIGHBOURS = NEIGHBOUR_RELATIONS
#: Outputs per chunk of :func:`sample_outputs` (the unit of work a distributed runner would schedule).
CHUNK_SIZE = 100_000
#: A discrete output with at most this many distinct values gets singleton events (and a bar chart).
MAX_DISCRETE = 50
_REPRO_SAMPLES = 32


class UserCodeError(ValueError):
    """The audited function misbehaves (raises, returns NaN, ignores ``rng``, wrong output shape)."""
