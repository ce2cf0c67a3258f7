"""Summarise a fuzz log (one JSON line per chapter run, written by tests/test_chapter_fuzz.py, tests/test_extremes.py
and tests/test_edge_fuzz.py): runs passed and failed per chapter and kind (random draws and fixed sets, extremes,
edge sets), wall time, and every failing parameter set.

    python tools/fuzz_summary.py _build/fuzz.jsonl
"""

from __future__ import annotations

import json
import sys
from collections import defaultdict
from pathlib import Path


def kind(rec: dict) -> str:
    """The kind of run a log line records: ``edge``, ``extreme`` or ``random`` (drawn, regression and far sets)."""
    if "edge" in rec:
        return "edge"
    if "extreme" in rec:
        return "extreme"
    return "random"


def main(argv: list[str] | None = None) -> int:
    path = Path((argv or sys.argv[1:] or ["_build/fuzz.jsonl"])[0])
    if not path.is_file():
        print(f"no fuzz log at {path}")
        return 0
    stats: dict[tuple[str, str], list[float]] = defaultdict(lambda: [0, 0, 0.0])
    failures = []
    for line in path.read_text().splitlines():
        rec = json.loads(line)
        s = stats[rec["chapter"], kind(rec)]
        passed = rec["code"] == (0 if rec.get("valid", True) else 2)  # an invalid extreme: refused
        s[0 if passed else 1] += 1
        s[2] += rec["seconds"]
        if not passed:
            failures.append(rec)
    print(f"{'chapter':<15} {'kind':<8} {'sets':>5} {'passed':>6} {'failed':>6} {'wall time':>10}")
    for (chapter, what), (ok, bad, secs) in sorted(stats.items()):
        print(f"{chapter:<15} {what:<8} {ok + bad:>5} {ok:>6} {bad:>6} {secs / 60:>8.1f} min")
    for rec in failures:
        label = f" edge set {rec['edge']}" if "edge" in rec else ""
        print(f"FAILED {rec['chapter']}{label} {json.dumps(rec['values'])}: {rec['error']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
