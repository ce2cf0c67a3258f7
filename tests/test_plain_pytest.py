"""Plain ``pytest`` (without make) runs the suite as ``make test`` does (issue 45, rough edges): ``tests/conftest.py``
sets every variable the Makefile exports, so a contributor's usual ``pytest`` gets no interactive figure backend
(the failure issue 45 names: ``tests/test_figures_zh.py::test_show_figure_keeps_the_english_files_and_adds_the_chinese_ones``
saw figures kept open), no threaded BLAS, the same hash seed. Checked in a process started without them, as a shell
without make starts pytest."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

TESTS = Path(__file__).resolve().parent
MAKEFILE = TESTS.parent / "Makefile"
#: ``export NAME ?= value`` / ``export NAME := value`` (a literal value: not one computed from make variables)
EXPORT = re.compile(r"^export\s+([A-Z_][A-Z0-9_]*)\s*[?:]?=\s*([^$\s#]+)\s*$", re.M)


def make_exports() -> dict[str, str]:
    """The variables the Makefile exports with a literal value."""
    return dict(EXPORT.findall(MAKEFILE.read_text(encoding="utf8")))


def test_the_makefile_exports_are_read():
    exports = make_exports()
    assert exports["MPLBACKEND"] == "Agg" and exports["PYTHONHASHSEED"] == "0"
    assert (
        "DPCOMPENDIUM_DATA_DIR" not in exports
    )  # computed from the checkout's place: conftest's own rule


def test_plain_pytest_sets_what_make_exports():
    exports = make_exports()
    env = {k: v for k, v in os.environ.items() if k not in exports}
    script = (
        "import json, os, sys; sys.path.insert(0, sys.argv[1]); import conftest; "
        "print(json.dumps({k: os.environ.get(k) for k in sys.argv[2:]}))"
    )
    out = subprocess.run(
        [sys.executable, "-c", script, str(TESTS), *exports],
        env=env,
        capture_output=True,
        text=True,
        check=True,
        cwd=TESTS.parent,
    ).stdout
    seen = json.loads(out.splitlines()[-1])
    assert seen == exports, {k: (seen[k], v) for k, v in exports.items() if seen[k] != v}
