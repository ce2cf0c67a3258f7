"""Run every stage of ``make test`` in order, time each one, stop at the first failure.

Stages: (1) unit and property tests (two workers, pytest-xdist), (2) every chapter notebook under nbval, two chapters
at a time, each executed once: ``tools/nbcapture.py`` keeps nbval's executions in ``_build/.execution``, (3) the strict
book build (``-W -n --keep-going``), which reuses those executions and executes no chapter (the execution report page
says so), (4) the built HTML in headless Chromium. The wall time of each stage is printed as it ends;
the last stage's pytest prints the table of all stages in its terminal summary, so that the last line of the run is
pytest's own summary line.

    python tools/run_tests.py [--from STAGE] [--only STAGE]
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
INLINE = "module://matplotlib_inline.backend_inline"
TIMES_VAR = "DPCOMPENDIUM_STAGE_TIMES"
#: Workers of the unit and notebook stages (the machine's cores, at most 2 by default).
JOBS = os.environ.get("DPCOMPENDIUM_TEST_JOBS", str(min(2, os.cpu_count() or 1)))


def tools_path() -> str:
    return os.pathsep.join(filter(None, [str(ROOT / "tools"), os.environ.get("PYTHONPATH")]))


def notebooks_longest_first() -> list[str]:
    """The chapter notebooks, longest last execution first (pytest-xdist hands files out in this order)."""
    store = ROOT / "_build" / ".execution"
    # Without a recorded execution (a fresh clone), the order of the chapters' default run times in the last
    # measured build: a scheduling hint only.
    hint = ["hiera", "mwem", "histograms", "federated-pca", "privacy-audit", "dp-mean"]

    def last_time(nb: Path) -> float:
        try:
            return float(json.loads((store / f"{nb.stem}.json").read_text())["wall_time_s"])
        except (OSError, ValueError, KeyError):
            return -float(hint.index(nb.stem)) if nb.stem in hint else -len(hint)

    nbs = sorted((ROOT / "notebooks").glob("*.ipynb"))
    return [str(nb.relative_to(ROOT)) for nb in sorted(nbs, key=last_time, reverse=True)]


def stages() -> list[tuple[str, list[str], dict[str, str]]]:
    py = sys.executable
    dpc = str(BIN / "dpcompendium") if (BIN / "dpcompendium").exists() else "dpcompendium"
    return [
        (
            "unit",
            [
                py,
                "-m",
                "pytest",
                "tests",
                "-m",
                "not book and not extended",
                "-n",
                JOBS,
                "--durations=12",
            ],
            {},
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
                "-n",
                JOBS,
                "--dist",
                "loadfile",
                *notebooks_longest_first(),
            ],
            {"MPLBACKEND": INLINE, "PYTHONPATH": tools_path()},
        ),
        ("book", [dpc, "book", "--strict"], {}),
        (
            "browser",
            [py, "-m", "pytest", "-m", "book", "-p", "run_tests", "tests/test_book_browser.py"],
            {"PYTHONPATH": tools_path()},
        ),
    ]


def _fmt(seconds: float) -> str:
    return f"{seconds:7.1f} s" if seconds < 120 else f"{seconds / 60:7.1f} min"


def main(argv: list[str] | None = None) -> int:
    names = [s[0] for s in stages()]
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--from", dest="start", choices=names, help="start at this stage")
    parser.add_argument("--only", choices=names, help="run only this stage")
    args = parser.parse_args(argv)
    todo = stages()
    if args.only:
        todo = [s for s in todo if s[0] == args.only]
    elif args.start:
        todo = todo[names.index(args.start) :]

    times: list[tuple[str, float, str]] = []
    for i, (name, cmd, extra_env) in enumerate(todo, start=1):
        if name == "notebooks" and not sorted((ROOT / "notebooks").glob("*.ipynb")):
            print(f"==> [{i}/{len(todo)}] {name}: skipped (no notebook in notebooks/)", flush=True)
            times.append((name, 0.0, "skipped"))
            continue
        env = {**os.environ, **extra_env, TIMES_VAR: json.dumps(times)}
        print(f"==> [{i}/{len(todo)}] {name}: {shlex.join(cmd)}", flush=True)
        t0 = time.perf_counter()
        code = subprocess.call(cmd, cwd=ROOT, env=env)
        elapsed = time.perf_counter() - t0
        times.append((name, elapsed, "ok" if code == 0 else f"FAILED (exit {code})"))
        if code != 0:
            print(
                f"==> stage {name} failed after {_fmt(elapsed).strip()} (exit {code}); stages run:",
                flush=True,
            )
            for n, t, status in times:
                print(f"    {n:<10} {_fmt(t)}  {status}", flush=True)
            return code
        if i < len(todo):
            print(f"==> {name} passed in {_fmt(elapsed).strip()}", flush=True)
    return 0


# ---- pytest plugin (loaded with -p run_tests in the last stage): print the stage table before pytest's summary line


def pytest_terminal_summary(
    terminalreporter, exitstatus, config
):  # pragma: no cover - exercised by make test
    raw = os.environ.get(TIMES_VAR)
    if not raw:
        return
    terminalreporter.section("make test: wall time per stage")
    for name, seconds, status in json.loads(raw):
        terminalreporter.write_line(f"{name:<10} {_fmt(seconds)}  {status}")
    terminalreporter.write_line("browser    (this run: see the line below)")


if __name__ == "__main__":
    sys.exit(main())
