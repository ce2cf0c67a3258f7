"""Wall-time budget of the privacy-audit chapter: the whole notebook at its default parameters in at most 25 speed units (issue 50; benchmarks/conftest.py).

Run: ``pytest benchmarks/bench_audit.py -o python_files='bench_*.py'`` (pytest-benchmark; one round each, the
chapter is deterministic so more rounds only measure the machine's load).
"""

from __future__ import annotations

import os

import numpy as np
import pytest
from conftest import CHAPTER_BUDGET_UNITS

from dpcompendium.book.contract import get_chapter
from dpcompendium.chapters import privacy_audit as A
from dpcompendium.chapters.registry import chapter_id

PRIVACY_AUDIT = chapter_id("dpcompendium.chapters.privacy_audit")

BUDGET_UNITS = CHAPTER_BUDGET_UNITS


def _defaults() -> dict:
    return {p.name: p.default for p in get_chapter(PRIVACY_AUDIT).parameters.values()}


def test_bench_catalog_at_default_parameters(benchmark, unit):
    """The catalogue audit alone (the chapter's hot path): every mechanism of the book."""
    p = _defaults()
    table = benchmark.pedantic(
        A.run_catalog,
        kwargs={
            "n_samples": p["n_samples"],
            "confidence": p["confidence"],
            "seed": p["seed"],
            "n_jobs": p["n_jobs"],
        },
        rounds=1,
        iterations=1,
    )
    assert (table["verdict"] == table["expected"]).all()
    assert benchmark.stats.stats.max / unit < BUDGET_UNITS


def test_bench_empirical_audit_throughput(benchmark, unit):
    """10^7 Laplace samples per input audited in one call (the 'seconds, not minutes' requirement)."""
    res = benchmark.pedantic(
        A.empirical_audit,
        args=(lambda n, g: g.laplace(0.0, 1.0, n), lambda n, g: 1.0 + g.laplace(0.0, 1.0, n)),
        kwargs={"claimed_epsilon": 1.0, "n_samples": 10**7, "rng": np.random.default_rng(0)},
        rounds=1,
        iterations=1,
    )
    assert 0.98 < res.audited_epsilon <= 1.0
    assert benchmark.stats.stats.max / unit < 25.0


def test_bench_chapter_notebook(benchmark, tmp_path, unit):
    """The whole chapter, executed as the book executes it (papermill, default parameters)."""
    papermill = pytest.importorskip("papermill")
    ch = get_chapter(PRIVACY_AUDIT)
    os.environ.setdefault("MPLBACKEND", "Agg")

    def run():
        papermill.execute_notebook(
            str(ch.notebook),
            str(tmp_path / f"{PRIVACY_AUDIT}.ipynb"),
            parameters={"output_dir": str(tmp_path / "results")},
            cwd=str(ch.notebook.parent),
            progress_bar=False,
        )

    benchmark.pedantic(run, rounds=1, iterations=1)
    assert (tmp_path / "results" / "audit.csv").is_file()
    assert benchmark.stats.stats.max / unit < BUDGET_UNITS
