"""``make bench``: each chapter's wall time at its defaults, and ``make test``'s stage times, in speed units (issue 50).

Budgets are in *speed units* (``../shared/tools/speed_unit.py``: a fixed single-core workload timed on this machine),
because seconds measured on two machines, or on one machine under two loads, are not comparable. This tool measures
the unit right before and right after the timed work, in the same run, and divides by their mean::

    .venv/bin/python tools/bench.py                 # every chapter and the primer, two at a time (as the book runs them)
    .venv/bin/python tools/bench.py mwem hiera      # some of them
    .venv/bin/python tools/bench.py --cells 5       # and each one's 5 slowest cells (the profile issue 50 asks for)
    .venv/bin/python tools/bench.py --stages-only   # only the stage times of the last make test

Each chapter is executed as the execution store executes it (``dpcompendium.book.execution.execute_notebook``: one
BLAS thread, the inline backend, ``PYTHONHASHSEED=0``), ``--jobs`` at a time (default 2, the store's). The result goes
to ``_build/bench/chapters.json``; when an earlier result is there, each chapter's ratio to it is printed, so a
regression shows as a ratio and not as seconds from another load. The stage times are those ``tools/run_tests.py``
recorded (``_build/test-reports/stages.json``, with the unit it measured after the stages).

The exit status is 1 when a chapter exceeds its budget (``--budget``, default 25 units) — a report, not a test: budgets
are checked by benchmarks, not by timed unit tests (CONTRIBUTING).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import statistics
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "_build" / "bench"
STAGES = ROOT / "_build" / "test-reports" / "stages.json"
SPEED_UNIT = ROOT.parent / "shared" / "tools" / "speed_unit.py"
INLINE = "module://matplotlib_inline.backend_inline"

#: issue 50's budgets, in units
CHAPTER_BUDGET = 25.0
STAGE_BUDGETS = {"total": 360.0, "pdf": 90.0}


def speed_unit() -> float:
    """This machine's speed unit now (s); raises SystemExit where the script is not beside the clone."""
    if not SPEED_UNIT.is_file():
        raise SystemExit(f"bench: the speed unit script {SPEED_UNIT} is not beside the clone")
    out = subprocess.run(
        [sys.executable, str(SPEED_UNIT), "--json"], capture_output=True, text=True, check=True
    )
    return float(json.loads(out.stdout)["unit_s"])


def notebooks() -> dict[str, Path]:
    """Every executed page (the chapters and the primer), by stem."""
    pages = [
        *sorted((ROOT / "notebooks").glob("*.ipynb")),
        *sorted((ROOT / "book").glob("*.ipynb")),
    ]
    return {p.stem: p for p in pages}


def _stamp(text: str) -> dt.datetime:
    return dt.datetime.fromisoformat(text.replace("Z", "+00:00"))


def cell_times(nb) -> list[tuple[float, int, str]]:
    """(seconds, cell index, first source line) of every executed code cell, from nbclient's recorded timing."""
    rows = []
    for i, cell in enumerate(nb.cells):
        m = cell.get("metadata", {}).get("execution", {})
        if "iopub.execute_input" in m and "shell.execute_reply" in m:
            s = (
                _stamp(m["shell.execute_reply"]) - _stamp(m["iopub.execute_input"])
            ).total_seconds()
            first = next(
                (ln for ln in cell.source.splitlines() if ln.strip() and not ln.startswith("#")), ""
            )
            rows.append((s, i, first[:70]))
    return rows


def run_one(path: Path) -> dict:
    from dpcompendium.book.execution import execute_notebook
    from dpcompendium.core.parallel import ONE_BLAS_THREAD

    env = {"MPLBACKEND": INLINE, "PYTHONHASHSEED": "0", **ONE_BLAS_THREAD}
    nb, wall, peak = execute_notebook(path, env=env)
    cells = cell_times(nb)
    return {"wall_s": wall, "cells_s": sum(c[0] for c in cells), "peak_mib": peak, "cells": cells}


def _fmt_ratio(now: float, before: float | None) -> str:
    return f"{now / before:5.2f}x" if before else "    —"


def bench_chapters(names: list[str], jobs: int, top: int, budget: float) -> int:
    pages = notebooks()
    unknown = [n for n in names if n not in pages]
    if unknown:
        raise SystemExit(f"bench: unknown chapter {unknown[0]!r} (one of: {', '.join(pages)})")
    names = names or list(pages)
    previous = {}
    if (OUT / "chapters.json").is_file():
        previous = json.loads((OUT / "chapters.json").read_text()).get("chapters", {})
    u0 = speed_unit()
    t0 = time.perf_counter()
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        results = dict(zip(names, pool.map(lambda n: run_one(pages[n]), names), strict=True))
    elapsed = time.perf_counter() - t0
    u1 = speed_unit()
    unit = statistics.fmean([u0, u1])
    over = 0
    print(f"bench: speed unit {u0:.3f} s before, {u1:.3f} s after (mean {unit:.3f} s); {jobs} at a time; "
          f"{elapsed:.0f} s in all")  # fmt: skip
    print(f"{'chapter':<15} {'seconds':>8} {'units':>7} {'budget':>7} {'vs last':>8}  peak MiB")
    for n in names:
        r = results[n]
        units = r["wall_s"] / unit
        r["units"] = units
        flag = "" if units <= budget else "  OVER"
        over += units > budget
        last = previous.get(n, {}).get("units")
        print(f"{n:<15} {r['wall_s']:8.1f} {units:7.1f} {budget:7.0f} {_fmt_ratio(units, last):>8}  "
              f"{r['peak_mib'] or 0:8.0f}{flag}")  # fmt: skip
        if top:
            for s, i, first in sorted(r["cells"], reverse=True)[:top]:
                print(f"    {s:6.1f} s  cell {i:>3}  {first}")
    OUT.mkdir(parents=True, exist_ok=True)
    record = {
        "when": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "unit_s": unit,
        "jobs": jobs,
        "chapters": {**previous, **{n: {k: v for k, v in r.items()} for n, r in results.items()}},
    }
    (OUT / "chapters.json").write_text(json.dumps(record, indent=1))
    return 1 if over else 0


def report_stages() -> None:
    if not STAGES.is_file():
        print("bench: no stage times yet (make test writes _build/test-reports/stages.json)")
        return
    data = json.loads(STAGES.read_text())
    unit = data.get("unit_s")
    print(
        f"make test of {data.get('when', '?')}: speed unit {unit or float('nan'):.3f} s (measured after the stages)"
    )
    cpu = data.get("cpu_s", {})  # each stage's CPU time (tools/run_tests.py), when it was recorded
    for name, seconds, status in data["stages"]:
        u = seconds / unit if unit else float("nan")
        budget = STAGE_BUDGETS.get(name)
        note = f"  budget {budget:.0f}" + ("  OVER" if u > budget else "") if budget else ""
        used = f"  CPU {cpu[name]:8.1f} s" if name in cpu else ""
        print(f"    {name:<12} {seconds:8.1f} s {u:7.0f} units{used}  {status}{note}")
    if "lanes" in data:  # which lane of the base ended last (tools/run_tests.py)
        sys.path.insert(0, str(ROOT / "tools"))
        from run_tests import lanes_line

        print("    " + lanes_line(data["lanes"]))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "chapters",
        nargs="*",
        help="chapter notebooks by stem (default: every chapter and the primer)",
    )
    ap.add_argument(
        "--jobs", type=int, default=2, help="chapters executed at a time (default 2, the store's)"
    )
    ap.add_argument(
        "--cells", type=int, default=3, metavar="K", help="print each chapter's K slowest cells"
    )
    ap.add_argument(
        "--budget", type=float, default=CHAPTER_BUDGET, help="a chapter's budget in units (25)"
    )
    ap.add_argument(
        "--stages-only", action="store_true", help="only the last make test's stage times"
    )
    args = ap.parse_args(argv)
    if args.jobs < 1:
        raise SystemExit(f"bench: --jobs must be >= 1, got {args.jobs}")
    os.chdir(ROOT)
    code = (
        0 if args.stages_only else bench_chapters(args.chapters, args.jobs, args.cells, args.budget)
    )
    report_stages()
    return code


if __name__ == "__main__":
    sys.exit(main())
