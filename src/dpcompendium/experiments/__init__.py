"""Monte-Carlo sweeps: a parameter grid × repetitions → a tidy DataFrame."""

from .sweep import grid_cells, summarize, sweep

__all__ = ["grid_cells", "summarize", "sweep"]
