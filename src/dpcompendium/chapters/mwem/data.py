"""The coursework report's data, transcribed into ``data/shipped/mwem/`` (see its ``PROVENANCE.md``).

- :func:`report_histogram` — the "childMentalHealth" histograms printed in the report: 14 age bins (1-D) and
  14 age × 4 satisfaction bins (2-D); both total n = 1 013 184 and the 2-D rows sum to the 1-D bins.
- :func:`report_queries_1d` — the 60 one-dimensional range queries printed with every 1-D run.
- :func:`reference_errors` — the course's reference error table; :func:`report_errors` — the report's own averages.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ...core.data import shipped_path
from ...core.experiments import RangeQueries
from ...core.validation import check_int

__all__ = ["reference_errors", "report_errors", "report_histogram", "report_queries_1d"]


def report_histogram(dim: int = 1) -> np.ndarray:
    """The report's real histogram: shape (14,) for ``dim=1`` (age), (14, 4) for ``dim=2`` (age × satisfaction)."""
    dim = check_int(dim, "dim", minimum=1, maximum=2)
    if dim == 1:
        df = pd.read_csv(shipped_path("mwem/histogram_1d.csv"))
        return df.sort_values("age_bin")["count"].to_numpy(dtype=float)
    df = pd.read_csv(shipped_path("mwem/histogram_2d.csv"))
    table = (
        df.pivot(index="age_bin", columns="satisfaction_bin", values="count")
        .sort_index()
        .sort_index(axis=1)
    )
    return table.to_numpy(dtype=float)


def report_queries_1d() -> RangeQueries:
    """The 60 range queries (inclusive bin-index pairs) of the report's 1-D runs, in the printed order."""
    df = pd.read_csv(shipped_path("mwem/queries_1d.csv")).sort_values("query")
    return RangeQueries((14,), df["lo"].to_numpy(), df["hi"].to_numpy())


def _table(name: str, dim: int) -> pd.DataFrame:
    dim = check_int(dim, "dim", minimum=1, maximum=2)
    df = pd.read_csv(shipped_path(f"mwem/{name}.csv"))
    return df[df["dim"] == dim].drop(columns="dim").reset_index(drop=True)


def reference_errors(dim: int = 1) -> pd.DataFrame:
    """The course's reference table (averages over 100 runs): epsilon, max_error, min_error, mse, mean_error."""
    return _table("reference_errors", dim)


def report_errors(dim: int = 1) -> pd.DataFrame:
    """The report's own 100-run averages, same columns as :func:`reference_errors`."""
    return _table("report_errors", dim)
