"""Monte-Carlo sweeps: a parameter grid × repetitions → a tidy DataFrame; event counts over chunked samples;
bootstrap intervals and run summaries; range-query workloads."""

from .chunked import count_events, count_events_many
from .ranges import RangeQueries
from .summary import bootstrap_mean, bootstrap_mean_ci, summarize_runs
from .sweep import grid_cells, summarize, sweep

__all__ = [
    "RangeQueries",
    "bootstrap_mean",
    "bootstrap_mean_ci",
    "count_events",
    "count_events_many",
    "grid_cells",
    "summarize",
    "summarize_runs",
    "sweep",
]
