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

# What the Makefile exports, set here too, so that plain `pytest` (without make) runs the suite as make does: no
# figure windows (Agg: pyplot's figures are closed, not kept by an interactive backend), one BLAS thread per process,
# the same hash seed for subprocesses, Jupyter's kernel from .venv, the Chinese figures required (a machine without
# the CJK font fails the zh tests loudly instead of skipping the twins), no download. tests/test_plain_pytest.py
# checks that every literal export of the Makefile is here.
for _name, _value in {
    "MPLBACKEND": "Agg",
    "OMP_NUM_THREADS": "1",
    "OPENBLAS_NUM_THREADS": "1",
    "MKL_NUM_THREADS": "1",
    "PYDEVD_DISABLE_FILE_VALIDATION": "1",
    "JUPYTER_PLATFORM_DIRS": "1",
    "DPCOMPENDIUM_REQUIRE_CJK_FONT": "1",
    # never the network for data, wherever the data cache is (the Makefile's DPCOMPENDIUM_OFFLINE ?= 1)
    "DPCOMPENDIUM_OFFLINE": "1",
}.items():
    os.environ.setdefault(_name, _value)
# for subprocesses: this process's own seed is fixed at start-up
os.environ.setdefault("PYTHONHASHSEED", "0")
# As the Makefile's `unexport PYTHONDONTWRITEBYTECODE`: keep the bytecode of what is imported, here (pytest's rewritten
# test modules, read at each check of the flag) and in every process a test starts (kernels, dpcompendium runs, Dask
# and joblib workers), which would otherwise compile the library again from source each time (issue 50).
if os.environ.pop("PYTHONDONTWRITEBYTECODE", None) is not None:
    import sys

    sys.dont_write_bytecode = False


@pytest.fixture(autouse=True)
def _no_figure_left_open():
    """Every test starts with no pyplot figure open: a test that draws without closing must not change what the next
    one on its worker sees (the figure tests check that ``show_figure`` closes what it draws). Only where pyplot is
    already imported: importing it would cost every test its start-up."""
    import sys

    if "matplotlib.pyplot" in sys.modules:
        sys.modules["matplotlib.pyplot"].close("all")
    yield


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
    "tests/test_parallel_dask.py",  # 35 s: hiera's three small runs at once, a local cluster, worker kills
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


#: The integration stage's long tests, in seconds (clean clones of main, this 2-core machine), by node-id prefix; the
#: others count DEFAULT_SECONDS.
INTEGRATION_SECONDS = (
    ("tests/test_parallel_dask.py::test_chapter_tables_identical_with_scheduler_and_n_jobs", 25.0),
    ("tests/test_book_browser.py::test_rerun_page", 28.0),
    ("tests/test_documented_commands.py::test_documented_command_runs[dpcompendium run mwem", 25.0),
    (
        "tests/test_documented_commands.py::test_documented_command_runs[dpcompendium run dp-mean",
        14.0,
    ),
    ("tests/test_otter_assignment.py", 14.0),
    ("tests/test_chapter_fuzz.py", 12.0),
    ("tests/test_extremes.py", 8.5),
    ("tests/test_audit_benchmark.py::test_benchmark_at_claim_07_default_samples[numerical", 8.0),
    ("tests/test_robust.py", 6.0),
    (
        "tests/test_audit_benchmark.py::test_benchmark_at_claim_07_default_samples[sparse vector, Alg. 3]",
        6.0,
    ),
    ("tests/test_parallel_dask.py", 4.0),
    ("tests/test_book_browser.py", 6.0),
)
DEFAULT_SECONDS = 1.5
#: Modules whose tests share a module fixture (a Dask cluster; Chromium and the README's rerun): kept on one worker.
KEEP_TOGETHER = ("tests/test_parallel_dask.py", "tests/test_book_browser.py")


def _seconds(nodeid: str) -> float:
    return next(
        (s for prefix, s in INTEGRATION_SECONDS if nodeid.startswith(prefix)), DEFAULT_SECONDS
    )


def integration_order(items: list) -> list:
    """The integration stage's tests in an order for two workers under ``--dist worksteal``, which sends the first
    half of the collection (by count) to one worker and the rest to the other, lets an idle worker take the tail of
    the other's queue, and cannot take from a queue of two or fewer: two halves of equal count and balanced
    estimated time (longest first, :func:`_seconds`), each longest first, so that what is left at the end is short
    (the fuzz runs, 10-19 s each, had ended the stage on one core for 30-45 s)."""
    units: dict[str, list] = {}
    for item in items:
        path = item.nodeid.split("::")[0]
        units.setdefault(path if path in KEEP_TOGETHER else item.nodeid, []).append(item)
    ordered = sorted(units.values(), key=lambda u: sum(_seconds(i.nodeid) for i in u), reverse=True)
    capacity = [len(items) // 2, len(items) - len(items) // 2]
    bins: list[list] = [[], []]
    load = [0.0, 0.0]
    for unit in ordered:
        fits = [k for k in (0, 1) if sum(map(len, bins[k])) + len(unit) <= capacity[k]] or [0, 1]
        k = min(fits, key=lambda b: load[b])
        bins[k].append(unit)
        load[k] += sum(_seconds(i.nodeid) for i in unit)
    return [item for b in bins for unit in b for item in unit]


@pytest.hookimpl(trylast=True)  # after -m has deselected: the items are the stage's
def pytest_collection_modifyitems(config, items):
    rank = {path: i for i, path in enumerate(SLOW_FIRST)}
    items.sort(key=lambda item: rank.get(item.nodeid.split("::")[0], len(SLOW_FIRST)))  # stable
    if len(items) > 4 and all(item.get_closest_marker("integration") for item in items):
        items[:] = integration_order(items)


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
