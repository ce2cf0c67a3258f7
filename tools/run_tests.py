"""Run every stage of ``make test``, time each one, stop at the first failure.

The book's own tests, the *base*: (1) unit and property tests of the library (two workers, pytest-xdist), (2) every
chapter notebook under nbval, two chapters at a time, each executed once: ``tools/nbcapture.py`` keeps nbval's
executions in ``_build/.execution``; it runs on the baseline code paths of ``tools/portable.py`` (numpy's SIMD
dispatch off, numba and OpenBLAS for a generic CPU), so every chapter's checked cells, recorded natively, are compared
(as numbers: ``dpcompendium.book.nbcompare``) with another CPU's results; (3) the strict book build (``-W -n --keep-going``), which reuses those executions
and executes no chapter (the execution report page says so), (4) every page of the built HTML in headless Chromium
(one browser per worker, two workers, one visit per page), (5) *portable*: the tests marked ``numerics`` again with numpy's run-time SIMD dispatch off and numba and
OpenBLAS compiling for a generic CPU, so a result that holds only on this CPU's code paths fails here
(``tools/portable.py``). Then (6) the *integration*
stage, after the base has passed: whole programs run again at other settings (tests marked ``integration``: each chapter at a drawn parameter
set, the documented commands and the exercises' commands, a rerun's page in Chromium, a Dask cluster). It is the
part of ``make test`` that "Build once" (issue 14) lets go past its 5-minute target, so its time is printed apart:
the line ``base passed in ...`` is the time of the book's own tests.

The unit stage needs nothing the chain notebooks → book → browser → portable makes, so it runs *beside* it (its output goes to
``_build/test-reports/unit.log`` and is printed when all are done; a failure on either side stops the other). With at
least 4 cores it starts at once, beside the whole chain. On fewer cores it starts when the notebooks stage has
passed, beside the book build and the browser check only: the notebooks stage keeps both cores busy (two chapter
kernels and their worker processes), the single-threaded book build and the browser check do not. Measured on this
project's 2-core machine: beside the whole chain the cores were oversubscribed (unit stage 11.1 min beside an 8.8-min
chain, against about 10 min in all serially, and kernel start-ups timed out); beside book and browser only, make test
took 11.1 min against 12.5–13.3 min with the browser check waiting for the unit stage. ``--serial`` runs the stages
one after another; ``--overlap`` starts the unit stage at once. The wall time of each stage is printed as it ends,
then which of the base's two lanes (the chain, the unit stage beside it) ended last and by how much (time cut from
the other lane does not shorten the base), then a table of all stages with each one's CPU time (user + system of its whole process tree: what issue 50 counts on
a shared machine, where wall times measure the load too; ``stages.json`` keeps both), and last a plain closing line that counts every test of every stage
(``N passed, N failed, N skipped``), read from each stage's JUnit XML report.

The Chinese edition (issue 38) is part of the chain: the book stage builds both editions (``dpcompendium book
--strict``: the English book, then ``_build/html/zh_CN`` from the same executions, none executed again, warnings as
errors), and the *zh* stage after the English browser check runs the edition's tests (``tests/test_book_zh.py``,
``tests/test_generated_i18n.py``, the Chinese figures of ``tests/test_figures_zh.py``) and the browser checks of
``tests/test_book_browser.py`` on its pages (``DPCOMPENDIUM_BROWSER_LANG=zh_CN``). ``--english-only`` leaves the
edition out (the book stage builds English only, no zh stage).

With ``--pdf`` (``.ci/run`` passes it), a last stage follows: the built book printed to PDF by
Chromium, bound into a book and checked (``tests/test_book_pdf.py``: both editions printed at once, one per core, each
PDF's text read once for every check, by poppler's ``pdftotext``), timed apart and counted in the closing line; ``make test`` alone does not run it (``make pdf`` prints the PDF).

    python tools/run_tests.py [--from STAGE] [--only STAGE] [--serial | --overlap] [--english-only] [--pdf]
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import re
import shlex
import subprocess
import sys
import time
import tomllib
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
import portable  # noqa: E402  (tools/portable.py: the portable stage)

BIN = Path(sys.executable).parent
INLINE = "module://matplotlib_inline.backend_inline"
REPORTS = ROOT / "_build" / "test-reports"
#: The stage that runs beside the others (it needs nothing they make).
BESIDE = "unit"
#: The stage that runs last, alone, once the base (every other stage) has passed.
LAST = "integration"
#: After the English browser check: the Chinese edition's tests and the browser checks on its pages.
ZH = "zh"
#: With --pdf, after LAST: the PDF of the book, printed, bound and checked (minutes: see tests/test_book_pdf.py).
PDF = "pdf"
#: Cores from which the unit stage starts at once, beside every other stage; below, it starts after AFTER.
OVERLAP_MIN_CORES = 4
#: On fewer cores, the stage whose end starts the unit stage (the one that keeps every core busy).
AFTER = "notebooks"
#: How often a running stage is asked whether it has ended (s): the end of a stage is seen within this time (a
#: stage that ends at once costs no more: the stand-in stages of tests/test_run_tests.py end in milliseconds).
POLL_S = 0.05
#: Workers of the unit and notebook stages (the machine's cores, at most 2 by default).
JOBS = os.environ.get("DPCOMPENDIUM_TEST_JOBS", str(min(2, os.cpu_count() or 1)))


def tools_path() -> str:
    return os.pathsep.join(filter(None, [str(ROOT / "tools"), os.environ.get("PYTHONPATH")]))


#: the chapter folders, each with its manifest (not moved with ROOT in tests: the hint is the project's)
CHAPTERS_DIR = ROOT / "src" / "dpcompendium" / "chapters"


def hint_s() -> dict[str, float]:
    """The chapters' run times (s) at their defaults on this project's 2-core machine, two at a time (measured in make
    test): the scheduling hint of a fresh clone, which has no recorded execution yet. Each chapter's manifest
    (``time_hint_s``) declares its own, by notebook."""
    hints = {}
    for path in sorted(CHAPTERS_DIR.glob("*/manifest.toml")):
        manifest = tomllib.loads(path.read_text(encoding="utf8"))
        hints[Path(manifest["notebook"]).stem] = float(manifest.get("time_hint_s", 60.0))
    return hints


def makespan(times: list[float], workers: int) -> float:
    """When the last of ``times`` ends if each, in this order, starts on the first worker free (as pytest-xdist hands
    out files one at a time)."""
    free = [0.0] * max(1, workers)
    for t in times:
        k = free.index(min(free))
        free[k] += t
    return max(free)


def schedule_order(times: dict[str, float], workers: int) -> list[str]:
    """The order of ``times``' keys whose greedy schedule on ``workers`` ends first (every order is tried up to 8
    items, ties to longest-first; beyond, longest first). Longest-first alone can leave a mid-length chapter last on
    one core: 68, 60, 50, 42, 28, 13 s end at 138 s longest-first, at 131 s in the best order."""
    longest = sorted(times, key=lambda k: -times[k])
    if len(longest) > 8:
        return longest
    best, best_end = longest, makespan([times[k] for k in longest], workers)
    for order in itertools.permutations(longest):
        end = makespan([times[k] for k in order], workers)
        if end < best_end - 1e-9:
            best, best_end = list(order), end
    return best


#: The executable book pages that are not chapters (book/*.ipynb, run under nbval beside the chapters; the same globs as
#: dpcompendium.book.execution.EXECUTED_NOTEBOOKS): their wall time on a fresh clone, in s.
PAGE_HINT_S = {"primer": 20.0}


def notebooks_in_schedule_order() -> list[str]:
    """The chapter notebooks and the executable book pages in the order pytest-xdist should hand them out: :func:`schedule_order` of their last
    recorded execution times (``_build/.execution``), or of the manifests' :func:`hint_s` on a fresh clone (60 s for a chapter in neither)."""
    store = ROOT / "_build" / ".execution"
    hints = hint_s()

    def last_time(nb: Path) -> float:
        try:
            return float(json.loads((store / f"{nb.stem}.json").read_text())["wall_time_s"])
        except (OSError, ValueError, KeyError):
            return hints.get(nb.stem, PAGE_HINT_S.get(nb.stem, 60.0))

    pages = [
        *sorted((ROOT / "notebooks").glob("*.ipynb")),
        *sorted((ROOT / "book").glob("*.ipynb")),
    ]
    nbs = {str(nb.relative_to(ROOT)): last_time(nb) for nb in pages}
    return schedule_order(dict(sorted(nbs.items())), int(JOBS))


def marked_files(marker: str) -> list[str]:
    """The test files that name ``marker`` (``tests/test_*.py``, by their text): the only files that can hold a test
    marked with it, since a test is marked in its own file (no conftest or helper module adds or defines a marker:
    tests/test_run_tests.py checks). The integration stage collects these, not all of ``tests`` (68 tests of 5 400:
    each of its two workers imported every test module, about 9 s of CPU, for 5 s; issue 50)."""
    word = re.compile(rf"\b{re.escape(marker)}\b")
    return [
        str(p.relative_to(ROOT))
        for p in sorted((ROOT / "tests").glob("test_*.py"))
        if word.search(p.read_text(encoding="utf-8"))
    ]


def stages() -> list[tuple[str, list[str], dict[str, str]]]:
    py = sys.executable
    dpc = str(BIN / "dpcompendium") if (BIN / "dpcompendium").exists() else "dpcompendium"

    nb_env = {"MPLBACKEND": INLINE, "PYTHONPATH": tools_path()}
    # every chapter and the primer on the baseline code paths, their checked cells compared as numbers with outputs
    # recorded natively (tools/portable.py; DPCOMPENDIUM_NOTEBOOK_PATHS=native keeps this machine's)
    nb_paths = portable.notebook_env()

    def junit(name: str) -> str:
        return f"--junitxml={REPORTS / f'{name}.xml'}"

    def tests_on_workers(name: str, marker: str, files: list[str] | None = None) -> list[str]:
        """pytest over tests/ selected by ``marker``, on JOBS workers; a worker that runs out of tests takes queued
        ones from the other (worksteal: no idle tail); the slowest tests by wall time and by CPU time
        (``tools/cpudurations.py``: on a shared machine the wall time measures the load as much as the test)."""
        return [py, "-m", "pytest", *(files or ["tests"]), "-m", marker, "-n", JOBS, "--dist", "worksteal", "--durations=12",
                "-p", "cpudurations", "--cpu-durations=12", junit(name)]  # fmt: skip

    tools_env = {"PYTHONPATH": tools_path()}

    return [
        (
            "unit",
            tests_on_workers("unit", "not book and not extended and not integration"),
            tools_env,
        ),
        (
            "notebooks",
            [
                py,
                "-m",
                "pytest",
                "--nbval-lax",
                "--nbval-cell-timeout=1800",
                "-p",
                "no:cacheprovider",
                "-p",
                "nbcapture",
                *(["-p", "portable"] if nb_paths else []),
                "-n",
                JOBS,
                "--dist",
                "loadfile",
                # keep the scheduled order below (xdist's default reorders files by their number of cells, which
                # left the longest chapter last, alone on one core for half a minute)
                "--no-loadscope-reorder",
                junit("notebooks"),
                *notebooks_in_schedule_order(),
            ],
            {**nb_env, **nb_paths},
        ),
        # both editions: the English book, then the Chinese one from the same executions (none executed again)
        ("book", [dpc, "book", "--strict"], {}),
        (
            "browser",
            [
                py,
                "-m",
                "pytest",
                "-m",
                "book and not integration",
                "-n",
                JOBS,
                # the tests of one page on one worker, which loads the page once per width (test_book_browser.visit;
                # the grouping by parameter: tests/conftest.py)
                "--dist",
                "loadgroup",
                junit("browser"),
                "tests/test_book_browser.py",
            ],
            {},
        ),
        # the Chinese edition (built by the book stage from the same executions): its tests (tests/test_book_zh.py,
        # the generated sentences, the figures) and the browser checks on its pages (DPCOMPENDIUM_BROWSER_LANG); the
        # Chinese reruns are the integration stage's (tests/test_chapter_fuzz.py: every other chapter's page)
        (
            ZH,
            [
                py,
                "-m",
                "pytest",
                "-m",
                "zh or (book and not integration)",
                "-n",
                JOBS,
                "--dist",
                "loadgroup",
                junit(ZH),
                "tests/test_book_zh.py",
                "tests/test_book_browser.py",
                "tests/test_generated_i18n.py",
                "tests/test_figures_zh.py",
            ],
            {"DPCOMPENDIUM_BROWSER_LANG": "zh_CN"},
        ),
        # the numerics-sensitive tests again, with numpy's run-time SIMD
        # dispatch off and numba and OpenBLAS compiling for a generic CPU: what another machine computes
        # (tools/portable.py)
        ("portable", portable.command(py, junit("portable")), {**portable.reduced_env(), **nb_env}),
        (
            "integration",
            tests_on_workers(
                "integration", "integration and not extended", marked_files("integration")
            ),
            tools_env,
        ),
        # with --pdf only (.ci/run): the book printed to PDF by Chromium and checked, after everything else
        ("pdf", [py, "-m", "pytest", "-m", "pdf", junit("pdf"), "tests/test_book_pdf.py"], {}),
    ]


def _fmt(seconds: float) -> str:
    return f"{seconds:7.1f} s" if seconds < 120 else f"{seconds / 60:7.1f} min"


#: The project's unit of speed (issue 50): a fixed single-core workload timed on this machine, beside the clone.
SPEED_UNIT = ROOT.parent / "shared" / "tools" / "speed_unit.py"


def speed_unit() -> float | None:
    """The speed unit of this machine now (s), measured by ``../shared/tools/speed_unit.py`` (about 4 units of
    work), or None where that script is not beside the clone: budgets are in units, since seconds on two machines are
    not comparable."""
    if not SPEED_UNIT.is_file():
        return None
    out = subprocess.run(
        [sys.executable, str(SPEED_UNIT), "--json"], capture_output=True, text=True, check=False
    )
    try:
        return float(json.loads(out.stdout)["unit_s"])
    except (ValueError, KeyError):
        return None


def test_counts(names: list[str]) -> tuple[int, int, int]:
    """(passed, failed, skipped) over the JUnit XML reports of the stages ``names`` (errors count as failed)."""
    passed = failed = skipped = 0
    for name in names:
        path = REPORTS / f"{name}.xml"
        if not path.is_file():
            continue
        for suite in ET.parse(path).getroot().iter("testsuite"):
            n, f, e, sk = (int(suite.get(k, 0)) for k in ("tests", "failures", "errors", "skipped"))
            passed += n - f - e - sk
            failed += f + e
            skipped += sk
    return passed, failed, skipped


#: The CPU time (user + system, s) of each stage that has ended, by name: the stage's process and every process under
#: it that was waited for (``os.wait4``'s resource usage). Issue 50 counts CPU: on a machine shared by several jobs the
#: wall time of a stage measures the load as much as the stage.
STAGE_CPU: dict[str, float] = {}


#: What the Makefile unexports, left out of every stage's environment too, so that ``tools/run_tests.py`` run by hand
#: (``--only STAGE``, as issue 50's measurements do) runs the stages as ``make test`` does. Some machines set
#: ``PYTHONDONTWRITEBYTECODE=1`` (this project's do): then every Python process of a stage compiles the library and
#: the test modules again and pytest rewrites every test module's asserts again (measured: collecting the unit stage,
#: 11.2 CPU-s per worker instead of 7.3; the Makefile's note: a chapter's imports 8.7 s instead of 2.7 s).
NOT_INHERITED = ("PYTHONDONTWRITEBYTECODE",)


def stage_environ(extra_env: dict[str, str]) -> dict[str, str]:
    """The environment of a stage: this process's, without :data:`NOT_INHERITED`, plus the stage's own."""
    env = {k: v for k, v in os.environ.items() if k not in NOT_INHERITED}
    return {**env, **extra_env}


class Stage:
    """One stage as a child process; ``log`` set: its output goes to that file (a stage running beside others)."""

    def __init__(
        self, name: str, cmd: list[str], extra_env: dict[str, str], log: Path | None = None
    ):
        self.name, self.cmd, self.log = name, cmd, log
        (REPORTS / f"{name}.xml").unlink(missing_ok=True)
        out = open(log, "w") if log else None  # noqa: SIM115 - closed in wait()
        self._out = out
        self.t0 = time.perf_counter()
        self.proc = subprocess.Popen(
            cmd,
            cwd=ROOT,
            env=stage_environ(extra_env),
            stdout=out,
            stderr=subprocess.STDOUT if out else None,
            start_new_session=True,
        )
        self.elapsed: float | None = None
        self.stopped = False

    def poll(self) -> int | None:
        if self.proc.returncode is None:
            try:  # reaped here, not by Popen.poll, for the resource usage of the stage's whole process tree
                pid, status, usage = os.wait4(self.proc.pid, os.WNOHANG)
            except ChildProcessError:
                pid = 0
            if pid == self.proc.pid:
                self.proc.returncode = os.waitstatus_to_exitcode(status)
                STAGE_CPU[self.name] = usage.ru_utime + usage.ru_stime
        code = self.proc.poll()
        if code is not None and self.elapsed is None:
            self.elapsed = time.perf_counter() - self.t0
            if self._out:
                self._out.close()
        return code

    def wait(self, other: Stage | None = None) -> int:
        """Wait for this stage; if ``other`` (running beside) fails first, stop this one and return that failure."""
        while (code := self.poll()) is None:
            if other is not None and other.poll() not in (None, 0):
                self.stop()
                return other.proc.returncode
            time.sleep(POLL_S)
        return code

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.stopped = True
            try:
                os.killpg(self.proc.pid, 15)
                self.proc.wait(timeout=30)
            except (ProcessLookupError, subprocess.TimeoutExpired):
                os.killpg(self.proc.pid, 9)
        self.poll()

    def print_log(self) -> None:
        if self.log and self.log.is_file():
            print(f"==> output of the {self.name} stage (ran beside the others):", flush=True)
            sys.stdout.write(self.log.read_text())
            sys.stdout.flush()


def main(argv: list[str] | None = None) -> int:
    names = [s[0] for s in stages()]
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--from", dest="start", choices=names, help="start at this stage")
    parser.add_argument("--only", choices=names, help="run only this stage")
    order = parser.add_mutually_exclusive_group()
    order.add_argument("--serial", action="store_true", help="run the stages one after another")
    order.add_argument(
        "--overlap",
        action="store_true",
        help=f"start the unit stage at once, beside every other stage (default from {OVERLAP_MIN_CORES} cores; "
        f"on fewer, it starts after the {AFTER} stage)",
    )
    parser.add_argument(
        "--english-only",
        action="store_true",
        help=f"leave the Chinese edition out: the book stage builds the English book only, no {ZH} stage",
    )
    parser.add_argument(
        "--units",
        action="store_true",
        help="after the stages, measure the speed unit (../shared/tools/speed_unit.py) and give each stage in units",
    )
    parser.add_argument(
        "--pdf",
        action="store_true",
        help=f"after the {LAST} stage, the {PDF} stage: the book printed to PDF and checked (.ci/run)",
    )
    args = parser.parse_args(argv)
    todo = stages()
    if not (
        args.pdf or args.only == PDF
    ):  # make test itself does not print the PDF (make pdf, .ci/run do)
        todo = [s for s in todo if s[0] != PDF]
    if args.english_only:
        todo = [
            (n, [*cmd, "--english-only"] if n == "book" else cmd, env)
            for n, cmd, env in todo
            if n != ZH
        ]
    if args.only:
        todo = [s for s in todo if s[0] == args.only]
    elif args.start:
        todo = todo[names.index(args.start) :]
    REPORTS.mkdir(parents=True, exist_ok=True)
    n_stages = len(todo)
    # the integration stage runs last, alone, once every other stage has passed (then, with --pdf, the pdf stage)
    last = [s for s in todo if s[0] in (LAST, PDF) and len(todo) > 1]
    todo = [s for s in todo if s not in last]
    t_start = time.perf_counter()

    beside: Stage | None = None
    chain = todo
    cores = os.cpu_count() or 1
    after = None if args.overlap or cores >= OVERLAP_MIN_CORES else AFTER
    if not args.serial and len(todo) > 1 and todo[0][0] == BESIDE:
        chain = todo[1:]
        if after not in [n for n, _, _ in chain]:
            after = None

    def start_beside() -> Stage:
        name, cmd, extra_env = todo[0]
        others = [n for n, _, _ in chain]
        others = others[others.index(after) + 1 :] if after else others
        print(f"==> [1/{n_stages}] {name}: {shlex.join(cmd)}", flush=True)
        print(
            f"    (beside the other stages: {', '.join(others) or 'none left'}; output in "
            f"{(REPORTS / f'{name}.log').relative_to(ROOT)})",
            flush=True,
        )
        return Stage(name, cmd, extra_env, log=REPORTS / f"{name}.log")

    if chain is not todo and after is None:
        beside = start_beside()

    times: list[tuple[str, float, str]] = []
    code = 0
    offset = len(todo) - len(chain)
    for i, (name, cmd, extra_env) in enumerate(chain, start=1 + offset):
        if name == "notebooks" and not sorted((ROOT / "notebooks").glob("*.ipynb")):
            print(f"==> [{i}/{n_stages}] {name}: skipped (no notebook in notebooks/)", flush=True)
            times.append((name, 0.0, "skipped"))
        else:
            code = run_stage(i, n_stages, name, cmd, extra_env, times, beside)
            if code != 0 or times[-1][2] == "stopped":
                break
        if name == after and chain is not todo:
            beside = start_beside()
    chain_end = time.perf_counter() - t_start  # the chain's last stage has ended (or failed)
    if (
        code == 0 and chain is not todo and beside is None
    ):  # nothing left to run beside: the unit stage alone
        beside = start_beside()

    if beside is not None:
        if code != 0:
            beside.stop()
        else:
            code = beside.wait()
        beside.print_log()
        status = (
            "stopped"
            if beside.stopped
            else (
                "ok" if beside.proc.returncode == 0 else f"FAILED (exit {beside.proc.returncode})"
            )
        )
        times.insert(0, (beside.name, beside.elapsed or 0.0, f"{status} (beside the others)"))
        if code == 0 and beside.proc.returncode != 0:
            code = beside.proc.returncode

    base = time.perf_counter() - t_start
    lanes = None
    if beside is not None and beside.elapsed is not None and chain is not todo and chain:
        start = beside.t0 - t_start
        lanes = {
            "chain": [n for n, _, _ in chain],
            "chain_end_s": round(chain_end, 1),
            "beside": beside.name,
            "beside_start_s": round(start, 1),
            "beside_end_s": round(start + beside.elapsed, 1),
        }
    if last and code == 0:
        names_base = ", ".join(n for n, _, _ in todo)
        print(f"==> base passed in {_fmt(base).strip()} ({names_base})", flush=True)
        for k, (name, cmd, extra_env) in enumerate(last, start=n_stages - len(last) + 1):
            code = run_stage(k, n_stages, name, cmd, extra_env, times, None)
            if code != 0:
                break

    total = time.perf_counter() - t_start
    unit = speed_unit() if args.units else None

    def units(t: float) -> str:
        return f"  {t / unit:6.0f} units" if unit else ""

    def cpu(name: str) -> str:
        return f"  CPU {_fmt(STAGE_CPU[name])}" if name in STAGE_CPU else ""

    def cpu_of(names: list[str]) -> str:
        return (
            f"  CPU {_fmt(sum(STAGE_CPU[n] for n in names))}"
            if set(names) <= set(STAGE_CPU)
            else ""
        )

    if lanes is not None:  # before the table, whose lines are the stages
        print("==> " + lanes_line(lanes), flush=True)
    print(
        "==> make test: wall time per stage (and its CPU time, user + system)"
        + (f" (speed unit {unit:.2f} s, measured after the stages)" if unit else ""),
        flush=True,
    )
    for n, t, status in times:
        if n == last[0][0] if last else False:
            print(
                f"    {'base':<11} {_fmt(base)}{units(base)}{cpu_of([m for m, _, _ in todo])}  "
                f"({', '.join(m for m, _, _ in todo)})",
                flush=True,
            )
        print(f"    {n:<11} {_fmt(t)}{units(t)}{cpu(n)}  {status}", flush=True)
    if last:
        print(
            f"    {'total':<11} {_fmt(total)}{units(total)}{cpu_of([n for n, _, _ in times])}",
            flush=True,
        )
    record_stage_times(times, base, total, unit, [m for m, _, _ in todo] if last else [], lanes)
    passed, failed, skipped = test_counts([n for n, _, _ in times])
    # The plain closing line: every test of every stage.
    print(f"{passed} passed, {failed} failed, {skipped} skipped", flush=True)
    return code


def lanes_line(lanes: dict) -> str:
    """Which of the two lanes of the base ended last, and by how much: the chain (notebooks → book → … one after
    another) or the stage beside it. Only the later one decides when the base ends, so time cut from the other lane
    (up to this margin) does not shorten ``make test`` (issue 50: what to cut first)."""
    chain, beside = lanes["chain_end_s"], lanes["beside_end_s"]
    later = f"the {lanes['beside']} stage" if beside > chain else "the chain"
    return (
        f"lanes: the chain ({' → '.join(lanes['chain'])}) ended at {chain:.0f} s, the {lanes['beside']} stage "
        f"(from {lanes['beside_start_s']:.0f} s) at {beside:.0f} s: {later} decided the base, "
        f"{abs(beside - chain):.0f} s after the other"
    )


def record_stage_times(
    times: list[tuple[str, float, str]],
    base: float,
    total: float,
    unit: float | None,
    base_names: list[str],
    lanes: dict | None = None,
) -> None:
    """Write the stage times of this run, with the speed unit measured after them, to ``stages.json`` beside the
    JUnit reports (``tools/bench.py`` reports them in units)."""
    stages = [[n, t, s] for n, t, s in times]
    if base_names:
        stages.append(["base", base, "+".join(base_names)])
        stages.append(["total", total, ""])
    record = {
        "when": time.strftime("%Y-%m-%dT%H:%M:%S"),
        "unit_s": unit,
        "stages": stages,
        "cpu_s": {n: round(STAGE_CPU[n], 1) for n, _, _ in times if n in STAGE_CPU},
    }
    if lanes is not None:  # when each lane of the base ended (s from the start): lanes_line
        record["lanes"] = lanes
    REPORTS.mkdir(parents=True, exist_ok=True)
    (REPORTS / "stages.json").write_text(json.dumps(record, indent=1))


def run_stage(
    i: int,
    n: int,
    name: str,
    cmd: list[str],
    extra_env: dict[str, str],
    times: list[tuple[str, float, str]],
    beside: Stage | None,
) -> int:
    """Run one stage of the chain in the foreground (stopped if ``beside`` fails first); record its time in
    ``times``; return its exit code (or the failure of ``beside``)."""
    print(f"==> [{i}/{n}] {name}: {shlex.join(cmd)}", flush=True)
    stage = Stage(name, cmd, extra_env)
    code = stage.wait(other=beside)
    if stage.stopped:  # the stage beside failed
        times.append((name, stage.elapsed or 0.0, "stopped"))
        return code
    times.append((name, stage.elapsed, "ok" if code == 0 else f"FAILED (exit {code})"))
    if code == 0:
        print(f"==> {name} passed in {_fmt(stage.elapsed).strip()}", flush=True)
    return code


if __name__ == "__main__":
    sys.exit(main())
