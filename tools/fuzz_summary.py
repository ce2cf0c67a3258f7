"""Summarise a fuzz log (one JSON line per chapter run, written by tests/test_chapter_fuzz.py): runs passed and
failed per chapter, wall time, and every failing parameter set.

    python tools/fuzz_summary.py _build/fuzz.jsonl
"""

from __future__ import annotations

import json
import sys
from collections import defaultdict
from pathlib import Path


def main(argv: list[str] | None = None) -> int:
    path = Path((argv or sys.argv[1:] or ["_build/fuzz.jsonl"])[0])
    if not path.is_file():
        print(f"no fuzz log at {path}")
        return 0
    stats: dict[str, list[float]] = defaultdict(lambda: [0, 0, 0.0])
    failures = []
    for line in path.read_text().splitlines():
        rec = json.loads(line)
        s = stats[rec["chapter"]]
        s[0 if rec["code"] == 0 else 1] += 1
        s[2] += rec["seconds"]
        if rec["code"] != 0:
            failures.append(rec)
    print(f"{'chapter':<15} {'passed':>6} {'failed':>6} {'wall time':>10}")
    for chapter, (ok, bad, secs) in stats.items():
        print(f"{chapter:<15} {ok:>6} {bad:>6} {secs / 60:>8.1f} min")
    for rec in failures:
        print(f"FAILED {rec['chapter']} {json.dumps(rec['values'])}: {rec['error']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
