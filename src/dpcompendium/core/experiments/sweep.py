"""A small sweep runner.

``sweep(func, grid, reps, seed)`` calls ``func(**cell, rng=...)`` for every cell of the parameter grid (the
Cartesian product of ``grid``'s lists, in order) and every repetition, and returns one tidy row per returned record.

Seeding: ``SeedSequence(seed).spawn(n_cells)`` gives each cell its own stream and each cell's sequence spawns one
child per repetition, so a row depends only on (seed, cell index, rep) — byte-identical tables whatever ``n_jobs``
and whatever joblib backend runs the tasks. With ``DPCOMPENDIUM_SCHEDULER`` set (``dpcompendium run CHAPTER
--scheduler ADDRESS|local:N``) the cells run on that Dask cluster through joblib's Dask backend
(:mod:`dpcompendium.core.parallel`); a cell lost with its worker is rerun by Dask and gives the same rows.

Vectorized mode (``vectorized=True``): ``func(**cell, reps=reps, rng=rng)`` is called once per cell with the cell's
generator and must return records that carry a ``rep`` field; use it when the repetitions batch into one numpy call.
"""

from __future__ import annotations

import itertools
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import joblib
import numpy as np
import pandas as pd
from tqdm import tqdm  # not tqdm.auto: it warns in kernels without ipywidgets

from ..parallel import joblib_backend
from ..rng import make_rng
from ..validation import check_int

Record = Mapping[str, Any]


def grid_cells(grid: Mapping[str, Sequence[Any]]) -> list[dict[str, Any]]:
    """Cartesian product of the grid's value lists, as a list of dicts (last key varies fastest)."""
    for key, values in grid.items():
        if isinstance(values, str | bytes) or not isinstance(values, Iterable):
            raise ValueError(f"grid[{key!r}] must be a list of values, got {values!r}")
    keys = list(grid)
    return [
        dict(zip(keys, combo, strict=True))
        for combo in itertools.product(*(list(grid[k]) for k in keys))
    ]


def _as_records(out: Record | Iterable[Record]) -> list[dict[str, Any]]:
    if isinstance(out, Mapping):
        return [dict(out)]
    if isinstance(out, pd.DataFrame):
        return out.to_dict("records")
    return [dict(r) for r in out]


def _run_cell(func, cell, cell_seed, reps, vectorized):
    rows: list[dict[str, Any]] = []
    if vectorized:
        for rec in _as_records(func(**cell, reps=reps, rng=make_rng(cell_seed))):
            if "rep" not in rec:
                raise ValueError(
                    "a vectorized sweep function must return records with a 'rep' field"
                )
            rows.append({**cell, **rec})
        return rows
    for rep, rep_seed in enumerate(cell_seed.spawn(reps)):
        for rec in _as_records(func(**cell, rng=make_rng(rep_seed))):
            rows.append({**cell, "rep": rep, **rec})
    return rows


def sweep(
    func: Callable[..., Record | Iterable[Record]],
    grid: Mapping[str, Sequence[Any]],
    reps: int,
    seed: int,
    *,
    n_jobs: int = 1,
    vectorized: bool = False,
    progress: bool | None = None,
    desc: str | None = None,
) -> pd.DataFrame:
    """Run ``func`` over ``grid`` × ``reps`` and return a tidy DataFrame (grid columns, ``rep``, then the records').

    ``progress=None`` shows a tqdm bar only when stderr is a terminal.
    """
    reps = check_int(reps, "reps", minimum=1)
    seed = check_int(seed, "seed", minimum=0)
    cells = grid_cells(grid)
    if not cells:
        raise ValueError("grid must have at least one cell, got an empty grid")
    cell_seeds = np.random.SeedSequence(seed).spawn(len(cells))
    show = sys.stderr.isatty() if progress is None else progress
    tasks = (
        joblib.delayed(_run_cell)(func, cell, ss, reps, vectorized)
        for cell, ss in zip(cells, cell_seeds, strict=True)
    )
    rows: list[dict[str, Any]] = []
    with joblib_backend(n_jobs) as n_jobs:
        results = joblib.Parallel(n_jobs=n_jobs, return_as="generator")(tasks)
        for chunk in tqdm(
            results,
            total=len(cells),
            disable=not show,
            desc=desc or getattr(func, "__name__", "sweep"),
        ):
            rows.extend(chunk)
    return pd.DataFrame.from_records(rows)


def summarize(
    runs: pd.DataFrame,
    by: Sequence[str],
    metrics: Mapping[str, Callable[[pd.Series], float]] | None = None,
    error: str = "error",
) -> pd.DataFrame:
    """Collapse per-repetition rows to one row per group: ``reps``, ``mae`` and ``rmse`` of column ``error`` by default."""
    if metrics is None:
        metrics = {
            "mae": lambda e: float(np.mean(np.abs(e))),
            "rmse": lambda e: float(np.sqrt(np.mean(np.square(e)))),
        }
    grouped = runs.groupby(list(by), sort=False)[error]
    out = grouped.size().rename("reps").to_frame()
    for name, fn in metrics.items():
        out[name] = grouped.apply(fn)
    return out.reset_index()
