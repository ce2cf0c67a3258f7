"""Monte-Carlo sweeps: a parameter grid × repetitions → a tidy DataFrame; event counts over chunked samples."""

from dpcompendium.core.experiments.chunked import count_events, count_events_many
from dpcompendium.core.experiments.sweep import grid_cells, summarize, sweep

__all__ = ["count_events", "count_events_many", "grid_cells", "summarize", "sweep"]
