"""Budgets in speed units (issue 50): a benchmark divides its wall time by this machine's speed unit, measured once
per session by ``../shared/tools/speed_unit.py`` (the fixed single-core workload of the project's budgets), so that a
budget means the same on a fast and a slow machine and under another load."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

SPEED_UNIT = Path(__file__).resolve().parents[2] / "shared" / "tools" / "speed_unit.py"

#: every chapter at its defaults (issue 50)
CHAPTER_BUDGET_UNITS = 25.0


@pytest.fixture(scope="session")
def unit() -> float:
    """This machine's speed unit (s); the benchmarks are skipped where the script is not beside the clone."""
    if not SPEED_UNIT.is_file():
        pytest.skip(f"no speed unit script at {SPEED_UNIT}: budgets are in units")
    out = subprocess.run(
        [sys.executable, str(SPEED_UNIT), "--json"], capture_output=True, text=True, check=True
    )
    return float(json.loads(out.stdout)["unit_s"])
