"""Re-record the stored outputs of a chapter's checked cells (tagged ``nbval-check-output``) from a fresh execution on
this machine's **native** code paths.

The stored outputs are the reference nbval compares every later execution with (as numbers, within the printed
precision: ``dpcompendium.book.nbcompare``). ``make test`` executes the chapters on the *baseline* code paths
(``tools/portable.py``), so that every chapter meets another CPU's code paths than the one its reference was recorded
on; this tool therefore refuses to record under a reduced environment (``NPY_DISABLE_CPU_FEATURES`` or
``NUMBA_CPU_NAME`` set; ``OPENBLAS_CORETYPE`` is set by some machines for OpenBLAS's sake and is allowed), and it executes the notebook itself rather than copy make test's execution::

    .venv/bin/python tools/record_headlines.py notebooks/hiera.ipynb [notebooks/mwem.ipynb ...]

It changes only the outputs and execution counts of the checked cells (ids, sources and metadata are kept) and prints
which cells changed.
"""

from __future__ import annotations

import argparse
import copy
import os
import sys
from pathlib import Path

import nbformat

from dpcompendium.book.execution import execute_notebook
from dpcompendium.core.parallel import ONE_BLAS_THREAD

CHECKED = "nbval-check-output"


def record(notebook: Path) -> list[str]:
    """Execute ``notebook`` and copy its checked cells' outputs into it; the ids of the cells whose output changed."""
    source = nbformat.read(notebook, as_version=4)
    env = {
        "MPLBACKEND": "module://matplotlib_inline.backend_inline",
        "PYTHONHASHSEED": "0",
        **ONE_BLAS_THREAD,
    }
    executed, wall, _ = execute_notebook(notebook, env=env)
    changed = []
    src_code = [c for c in source.cells if c.cell_type == "code"]
    exe_code = [c for c in executed.cells if c.cell_type == "code"]
    for s, e in zip(src_code, exe_code, strict=True):
        if CHECKED not in s.metadata.get("tags", []):
            continue
        outputs = copy.deepcopy(e.outputs)
        if outputs != s.outputs:
            changed.append(s.get("id", "?"))
        s.outputs = outputs
        s.execution_count = e.execution_count
    nbformat.write(source, notebook)
    print(
        f"{notebook}: executed in {wall:.0f} s; checked cells changed: {', '.join(changed) or 'none'}"
    )
    return changed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("notebooks", nargs="+", type=Path)
    args = parser.parse_args(argv)
    reduced = [k for k in ("NPY_DISABLE_CPU_FEATURES", "NUMBA_CPU_NAME") if os.environ.get(k)]
    if reduced:
        print(
            f"record_headlines: error: {', '.join(reduced)} set: record on the native code paths (unset them)",
            file=sys.stderr,
        )
        return 2
    for nb in args.notebooks:
        record(nb)
    return 0


if __name__ == "__main__":
    sys.exit(main())
