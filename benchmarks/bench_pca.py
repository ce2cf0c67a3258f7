"""Wall-time budget of the federated-pca chapter: the whole notebook at its default parameters in at most 25 speed units (issue 50; benchmarks/conftest.py).

Run: ``pytest benchmarks/bench_pca.py -o python_files='bench_*.py'`` (pytest-benchmark; one round each, the chapter is
deterministic so more rounds only measure the machine's load).
"""

from __future__ import annotations

import os

import pytest
from conftest import CHAPTER_BUDGET_UNITS

from dpcompendium.book.contract import get_chapter
from dpcompendium.chapters import federated_pca as P
from dpcompendium.chapters.registry import chapter_id

FEDERATED_PCA = chapter_id("dpcompendium.chapters.federated_pca")

BUDGET_UNITS = CHAPTER_BUDGET_UNITS


def _defaults() -> dict:
    p = {p.name: p.default for p in get_chapter(FEDERATED_PCA).parameters.values()}
    # delta per dataset, as the chapter sets it: delta = delta_n / n
    return {**p, "delta": P.dataset_deltas(p["datasets"], p["delta_n"], p["seed"])}


def test_bench_energy_sweep_at_default_parameters(benchmark, unit):
    """The chapter's hot path: captured energy of every method over datasets × splits × sites × ε × reps."""
    p = _defaults()
    runs = benchmark.pedantic(
        P.energy_runs,
        args=(p["datasets"], p["epsilons"], p["delta"], p["sites"], p["k"], p["reps"], p["seed"]),
        kwargs={"splits": p["splits"], "n_jobs": p["n_jobs"], "calibration": p["calibration"]},
        rounds=1,
        iterations=1,
    )
    assert set(runs.method) == set(P.UTILITY_METHODS)
    assert benchmark.stats.stats.max / unit < BUDGET_UNITS


def test_bench_svm_table_at_default_parameters(benchmark, unit):
    """The second sweep: cross-validated LinearSVC accuracy on the projections of every method's subspace."""
    p = _defaults()
    svm = benchmark.pedantic(
        P.svm_table,
        args=(
            p["datasets"],
            p["epsilons"],
            p["delta"],
            p["svm_sites"],
            p["k"],
            p["svm_reps"],
            p["seed"],
        ),
        kwargs={
            "max_rows": p["svm_max_rows"],
            "n_jobs": p["n_jobs"],
            "calibration": p["calibration"],
        },
        rounds=1,
        iterations=1,
    )
    assert set(svm.method) == {*P.UTILITY_METHODS, P.END_TO_END}
    assert benchmark.stats.stats.max / unit < BUDGET_UNITS


def test_bench_chapter_notebook(benchmark, tmp_path, unit):
    """The whole chapter, executed as the book executes it (papermill, default parameters)."""
    papermill = pytest.importorskip("papermill")
    ch = get_chapter(FEDERATED_PCA)
    os.environ.setdefault("MPLBACKEND", "Agg")

    def run():
        papermill.execute_notebook(
            str(ch.notebook),
            str(tmp_path / f"{FEDERATED_PCA}.ipynb"),
            parameters={"output_dir": str(tmp_path / "results")},
            cwd=str(ch.notebook.parent),
            progress_bar=False,
        )

    benchmark.pedantic(run, rounds=1, iterations=1)
    for name in ("energy", "svm", "attack"):
        assert (tmp_path / "results" / f"{name}.csv").is_file()
    assert benchmark.stats.stats.max / unit < BUDGET_UNITS
