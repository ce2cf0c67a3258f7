"""Wall-time budget of the histograms chapter: the whole notebook at its default (paper-scale) parameters must run in
under 2 minutes; plus per-method timings of one 20-repetition release of ADULT at ε = 1.

Run with ``make bench`` (needs the DPBench data: ``DPCOMPENDIUM_DATA_DIR``)."""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np
import pytest
from conftest import CHAPTER_BUDGET_UNITS

import dpcompendium.chapters.histograms as H
from dpcompendium.core.data import load_dpbench
from dpcompendium.core.paths import repo_root

BUDGET_UNITS = CHAPTER_BUDGET_UNITS


def test_chapter_wall_time(benchmark, tmp_path: Path, unit):
    papermill = pytest.importorskip("papermill")
    notebook = repo_root() / "notebooks" / "histograms.ipynb"

    def run() -> float:
        start = time.perf_counter()
        papermill.execute_notebook(
            str(notebook),
            str(tmp_path / "histograms.ipynb"),
            parameters={"output_dir": str(tmp_path / "out")},
            cwd=str(notebook.parent),
            progress_bar=False,
        )
        return time.perf_counter() - start

    elapsed = benchmark.pedantic(run, rounds=1, iterations=1)
    assert elapsed / unit < BUDGET_UNITS, (
        f"chapter took {elapsed:.1f} s = {elapsed / unit:.1f} units, budget {BUDGET_UNITS:.0f}"
    )


@pytest.mark.parametrize("method", list(H.METHODS))
def test_release_adult_20_reps(benchmark, method, unit):
    x = load_dpbench("ADULT").astype(float)
    benchmark.pedantic(
        lambda: H.release(method, x, 1.0, np.random.default_rng(0), size=20), rounds=3, iterations=1
    )
