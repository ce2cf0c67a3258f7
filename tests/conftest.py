"""Shared fixtures. Statistical tests use fixed seeds and tolerances derived from the variance (z = 5 unless said)."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

# As the Makefile does: use ../shared/data (beside the checkout) as the data cache when nothing else is configured.
_SHARED = Path(__file__).resolve().parents[2] / "shared" / "data"
if "DPCOMPENDIUM_DATA_DIR" not in os.environ and (_SHARED / "SHA256SUMS").is_file():
    os.environ["DPCOMPENDIUM_DATA_DIR"] = str(_SHARED)
    os.environ.setdefault("DPCOMPENDIUM_OFFLINE", "1")

#: The largest difference, in ulp, between two implementations of one float64 elementary function (exp, expm1, log,
#: pow, …) this project allows: numpy's SIMD kernels (chosen by CPU at run time) and libm (glibc lists its errors per
#: function in its manual, 1–2 ulp for exp, expm1, log on x86-64) are each within a few ulp of the true value, not
#: equal to each other (book/reproducibility.md). A compiled kernel that calls libm where its numpy reference calls
#: numpy agrees with it to tolerances derived from this bound.
LIBM_ULPS = 4

#: z-score for Monte-Carlo tolerances: a correct implementation fails a given check with probability < 1e-6.
Z = 5.0


@pytest.fixture
def rng() -> np.random.Generator:
    return np.random.default_rng(20260207)


def mc_tol(variance: float, n: int, z: float = Z) -> float:
    """Tolerance for a sample mean of n iid draws with the given variance: z·sqrt(variance/n)."""
    return z * float(np.sqrt(variance / n))


#: Modules whose tests take seconds (their summed times, measured alone on this project's 2-core machine), collected
#: first, in this order, each kept together (one computation of a module fixture). pytest-xdist's worksteal gives
#: each worker a contiguous share of the collection and lets an idle worker take the tail of another's queue: with
#: the long tests at the front, none is left running alone at the end (the miniature-book test, 15 s, used to end
#: the unit stage on one worker while the other idled).
SLOW_FIRST = (
    # the integration stage's longest: none may start last, alone (a 36-s Dask run did, a 40-s tail on one core)
    "tests/test_parallel_dask.py",  # 55 s: three chapter runs at once on a local cluster, worker kills
    "tests/test_book_browser.py",  # integration: the README's rerun and its page in Chromium, 26-30 s
    "tests/test_documented_commands.py",  # 46 s: the README's chapter runs
    "tests/test_otter_assignment.py",  # integration: ~30 s of CPU (otter assign, three gradings): first, beside
    # the chapters' runs on the other worker, never alone at the end
    "tests/test_chapter_fuzz.py",  # 80 s: one drawn parameter set per chapter, 10-19 s each
    "tests/test_audit_benchmark.py",  # 41 s
    "tests/test_execution.py",  # 22 s: jupyter-book builds of a miniature repository
    "tests/test_audit_catalog.py",  # 18 s: the whole catalogue at 2·10⁵ samples, import checks
    "tests/test_cli.py",  # 11 s: chapters run through the command line
    "tests/test_run_tests.py",  # 8 s: make test's runner on stand-in stages
    "tests/test_histograms.py",  # 6 s
    "tests/test_cli_chapters.py",  # 5 s
    "tests/test_audit.py",  # 5 s
)


def pytest_collection_modifyitems(config, items):
    rank = {path: i for i, path in enumerate(SLOW_FIRST)}
    items.sort(key=lambda item: rank.get(item.nodeid.split("::")[0], len(SLOW_FIRST)))  # stable


@pytest.hookimpl(tryfirst=True)
def pytest_xdist_make_scheduler(config, log):
    """``--dist loadgroup`` (the browser stage, tools/run_tests.py): the tests that share a parameter id run on one
    worker. tests/test_book_browser.py parametrizes its checks by page, and the tests of a page read that page's one
    visit per width (``test_book_browser.visit``). xdist's own loadgroup (``xdist_group`` marks) rewrites
    ``item._nodeid``, which pytest 9 no longer reads: with it, the tests of one page went to either worker."""
    if config.getvalue("dist") != "loadgroup":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class ByParameter(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            name = nodeid.rpartition("::")[2]
            return name[name.index("[") :] if name.endswith("]") and "[" in name else nodeid

    return ByParameter(config, log)
