"""A pytest plugin: the CPU time (user + system) of each test, and the slowest ``--cpu-durations=N`` by CPU.

Wall durations (``--durations``) on a machine shared by several jobs measure the load as much as the test; issue 50
counts CPU. Each phase (setup, call, teardown) is timed by ``resource.getrusage`` of the process that runs it and of its
children that have ended (a subprocess a test waits for, a kernel it shut down, Chromium's processes once closed):
what a test makes another live process compute (a module-scoped Chromium, a pool that outlives the test) is counted
where that process ends. Under pytest-xdist each worker times its own tests and the controller prints the table.

    python -m pytest -p cpudurations --cpu-durations=40 tests ...   (tools/ on PYTHONPATH)
"""

from __future__ import annotations

import resource

import pytest

_KEY = "cpu_s"


def _cpu() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def pytest_addoption(parser) -> None:
    parser.addoption(
        "--cpu-durations",
        type=int,
        default=None,
        metavar="N",
        help="show the N phases (setup, call, teardown) of tests with the most CPU time (0: all)",
    )


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    start = getattr(item, "_cpu_start", None)
    if start is not None:
        # an attribute of the report (pytest-xdist sends a report's attributes to the controller), not a user
        # property, which the JUnit XML would keep for the teardown only
        setattr(report, _KEY, round(_cpu() - start, 3))


def _timed(phase: str):
    @pytest.hookimpl(hookwrapper=True)
    def hook(item, *args):
        item._cpu_start = _cpu()
        yield

    hook.__name__ = f"pytest_runtest_{phase}"
    return hook


pytest_runtest_setup = _timed("setup")
pytest_runtest_call = _timed("call")
pytest_runtest_teardown = _timed("teardown")

_ROWS: list[tuple[float, str, str]] = []


def pytest_runtest_logreport(report) -> None:
    value = getattr(report, _KEY, None)
    if value is not None:
        _ROWS.append((float(value), report.when, report.nodeid))


def pytest_terminal_summary(terminalreporter, config) -> None:
    n = config.getoption("--cpu-durations")
    if n is None or not _ROWS:
        return
    rows = sorted(_ROWS, reverse=True)
    total = sum(r[0] for r in rows)
    terminalreporter.write_sep("=", f"CPU time (user + system) by test phase: {total:.1f} s in all")
    for cpu, when, nodeid in rows if n == 0 else rows[:n]:
        terminalreporter.write_line(f"{cpu:8.2f}s {when:<8} {nodeid}")
