"""Wall-time budget of the dp-mean chapter: the whole notebook at its default parameters in at most 25 speed units (issue 50; benchmarks/conftest.py).

Run: ``pytest benchmarks/bench_mean.py -o python_files='bench_*.py'`` (pytest-benchmark; one round each, the
chapter is deterministic so more rounds only measure the machine's load).
"""

from __future__ import annotations

import os

import pytest
from conftest import CHAPTER_BUDGET_UNITS

from dpcompendium.book.contract import get_chapter
from dpcompendium.chapters import dp_mean as M
from dpcompendium.chapters.registry import chapter_id

DP_MEAN = chapter_id("dpcompendium.chapters.dp_mean")

BUDGET_UNITS = CHAPTER_BUDGET_UNITS


def _defaults() -> dict:
    return {p.name: p.default for p in get_chapter(DP_MEAN).parameters.values()}


def test_bench_sweep_at_default_parameters(benchmark, unit):
    """The Monte-Carlo sweep alone (the chapter's hot path)."""
    p = _defaults()
    data = M.build_data(p["datasets"], p["ns"], p["seed"])
    errors = benchmark.pedantic(
        M.error_sweep,
        args=(data, p["epsilons"], p["reps"], p["seed"]),
        kwargs={"n_jobs": p["n_jobs"]},
        rounds=1,
        iterations=1,
    )
    assert len(errors) == len(data) * len(M.SWEEP_METHODS) * len(p["epsilons"])
    assert benchmark.stats.stats.max / unit < BUDGET_UNITS


def test_bench_chapter_notebook(benchmark, tmp_path, unit):
    """The whole chapter, executed as the book executes it (papermill, default parameters)."""
    papermill = pytest.importorskip("papermill")
    ch = get_chapter(DP_MEAN)
    os.environ.setdefault("MPLBACKEND", "Agg")

    def run():
        papermill.execute_notebook(
            str(ch.notebook),
            str(tmp_path / f"{DP_MEAN}.ipynb"),
            parameters={"output_dir": str(tmp_path / "results")},
            cwd=str(ch.notebook.parent),
            progress_bar=False,
        )

    benchmark.pedantic(run, rounds=1, iterations=1)
    assert (tmp_path / "results" / "errors.csv").is_file()
    assert benchmark.stats.stats.max / unit < BUDGET_UNITS
