"""Re-record the stored outputs of a chapter's checked cells (tagged ``nbval-check-output``) from a fresh execution on
this machine's **native** code paths.

The stored outputs are the reference nbval compares every later execution with (as numbers, within the printed
precision: ``dpcompendium.book.nbcompare``). ``make test`` executes the chapters on the *baseline* code paths
(``tools/portable.py``), so that every chapter meets another CPU's code paths than the one its reference was recorded
on; this tool therefore refuses to record under a reduced environment (``NPY_DISABLE_CPU_FEATURES`` or
``NUMBA_CPU_NAME`` set; ``OPENBLAS_CORETYPE`` is set by some machines for OpenBLAS's sake and is allowed), and it executes the notebook itself rather than copy make test's execution::

    .venv/bin/python tools/record_headlines.py notebooks/hiera.ipynb [notebooks/mwem.ipynb ...]

It changes only the outputs and execution counts of the checked cells (ids, sources and metadata are kept) and prints
which cells changed. ``--from-store`` copies them from the execution the book build stored (``_build/.execution``)
instead of executing again, if that execution is of the notebook as it is now (its key) and ran on the native code
paths with one BLAS thread and ``PYTHONHASHSEED=0`` (its record's ``code_paths``); otherwise it refuses::

    .venv/bin/python tools/record_headlines.py --from-store notebooks/*.ipynb book/primer.ipynb

The chapter's key does not cover stored outputs, so recording does not make the stored execution stale.
"""

from __future__ import annotations

import argparse
import copy
import os
import sys
from pathlib import Path

import nbformat

from dpcompendium.book.execution import (
    DEFAULT_INPUTS,
    DEFAULT_STORE,
    chapter_key,
    execute_notebook,
    inputs_digest,
    load_record,
)
from dpcompendium.core.parallel import ONE_BLAS_THREAD

CHECKED = "nbval-check-output"


#: The code paths a stored execution must have run on to be recorded from (``--from-store``).
RECORDABLE = {"PYTHONHASHSEED": "0", **ONE_BLAS_THREAD}


def stored_execution(notebook: Path, root: Path) -> tuple[nbformat.NotebookNode, float]:
    """The book build's stored execution of ``notebook`` (and its wall time), if it is of the notebook as it is now
    and ran on the native code paths with :data:`RECORDABLE`; ValueError naming what does not hold."""
    store = root / DEFAULT_STORE
    rec = load_record(store, notebook.stem)
    if rec is None:
        raise ValueError(
            f"notebook {notebook}: no stored execution in {store} (build the book first)"
        )
    if rec.key != chapter_key(notebook, inputs_digest(root, DEFAULT_INPUTS)):
        raise ValueError(
            f"notebook {notebook}: the stored execution is of another version (build the book first)"
        )
    paths = rec.code_paths
    wrong = {k: paths.get(k) for k, v in RECORDABLE.items() if paths.get(k) != v}
    wrong.update(
        {k: paths[k] for k in ("NPY_DISABLE_CPU_FEATURES", "NUMBA_CPU_NAME") if paths.get(k)}
    )
    if wrong:
        raise ValueError(
            f"notebook {notebook}: the stored execution ran with {wrong}, not on the native code paths with one "
            "BLAS thread and PYTHONHASHSEED=0"
        )
    return nbformat.read(store / f"{notebook.stem}.ipynb", as_version=4), rec.wall_time_s


def record(notebook: Path, from_store: bool = False) -> list[str]:
    """Execute ``notebook`` (or take the book build's stored execution) and copy its checked cells' outputs into it;
    the ids of the cells whose output changed."""
    source = nbformat.read(notebook, as_version=4)
    env = {
        "MPLBACKEND": "module://matplotlib_inline.backend_inline",
        **RECORDABLE,
    }
    if from_store:
        executed, wall = stored_execution(notebook, Path(__file__).resolve().parents[1])
    else:
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
    parser.add_argument(
        "--from-store",
        action="store_true",
        help="copy the outputs from the book build's stored execution instead of executing again",
    )
    args = parser.parse_args(argv)
    reduced = [k for k in ("NPY_DISABLE_CPU_FEATURES", "NUMBA_CPU_NAME") if os.environ.get(k)]
    if reduced:
        print(
            f"record_headlines: error: {', '.join(reduced)} set: record on the native code paths (unset them)",
            file=sys.stderr,
        )
        return 2
    for nb in args.notebooks:
        try:
            record(nb.resolve(), from_store=args.from_store)
        except ValueError as err:
            print(f"record_headlines: error: {err}", file=sys.stderr)
            return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
