"""Wall-time budget of the mwem chapter: the whole notebook at its default parameters in at most 25 speed units (issue 50; benchmarks/conftest.py).

Run: ``pytest benchmarks/bench_mwem.py -o python_files='bench_*.py'`` (pytest-benchmark; one round each — the
chapter is deterministic, so more rounds only measure the machine's load). The hot path is the 2-D sweep: T = 200
rounds × 20 replay passes = 402 000 sequential multiplicative-weights steps over 800 chains of 56 cells.
"""

from __future__ import annotations

import os

import pytest
from conftest import CHAPTER_BUDGET_UNITS

from dpcompendium.book.contract import get_chapter
from dpcompendium.chapters import mwem as M
from dpcompendium.chapters.registry import chapter_id
from dpcompendium.core.rng import make_rng

MWEM = chapter_id("dpcompendium.chapters.mwem")

BUDGET_UNITS = CHAPTER_BUDGET_UNITS


def _defaults() -> dict:
    return {p.name: p.default for p in get_chapter(MWEM).parameters.values()}


@pytest.mark.parametrize("dim", [1, 2])
def test_bench_sweep_at_default_parameters(benchmark, dim, unit):
    """Every variant of the defaults, four epsilons, ``reps`` repetitions, on the report's 1-D or 2-D data."""
    p = _defaults()
    hist = M.report_histogram(dim)
    if dim == 1:
        queries, T = M.report_queries_1d(), p["T_1d"]
    else:
        queries, T = (
            M.random_range_queries(hist.shape, p["q_size_2d"], make_rng(p["seed"])),
            p["T_2d"],
        )
    sw = benchmark.pedantic(
        M.mwem_sweep,
        args=(hist, queries, p["epsilons"], T),
        kwargs={
            "variants": p["variants"],
            "delta": p["delta"],
            "passes": p["mw_passes"],
            "reps": p["reps"],
            "seed": p["seed"],
            "n_jobs": p["n_jobs"],
        },
        rounds=1,
        iterations=1,
    )
    assert len(sw.runs) == len(p["variants"]) * len(p["epsilons"]) * p["reps"]
    assert benchmark.stats.stats.max / unit < BUDGET_UNITS


def test_bench_chapter_notebook(benchmark, tmp_path, unit):
    """The whole chapter, executed as the book executes it (papermill, default parameters)."""
    papermill = pytest.importorskip("papermill")
    ch = get_chapter(MWEM)
    os.environ.setdefault("MPLBACKEND", "Agg")

    def run():
        papermill.execute_notebook(
            str(ch.notebook),
            str(tmp_path / "mwem.ipynb"),
            parameters={"output_dir": str(tmp_path / "results")},
            cwd=str(ch.notebook.parent),
            progress_bar=False,
        )

    benchmark.pedantic(run, rounds=1, iterations=1)
    for name in (
        "errors_1d",
        "errors_2d",
        "errors_1d_runs",
        "errors_2d_runs",
        "reference_1d",
        "reference_2d",
    ):
        assert (tmp_path / "results" / f"{name}.csv").is_file()
    assert benchmark.stats.stats.max / unit < BUDGET_UNITS
