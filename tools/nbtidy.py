"""Scaffolding off the page: apply the book's notebook convention (dpcompendium.book.tidy) to the chapters.

    .venv/bin/python tools/nbtidy.py            # rewrite the executed notebooks in place, print what changed
    .venv/bin/python tools/nbtidy.py --check    # exit 1 if a notebook does not follow the convention

Idempotent: a second run changes nothing. What it does (see dpcompendium.book.tidy): a cell that is only scaffolding
(glue, setup lines, checks) is tagged remove-cell (it still runs under nbval and in the book); glue comes from
dpcompendium.book.prose (values glued as MyST); {glue:text}`key` becomes {glue:md}`key:myst`. Lines of scaffolding
inside a shown cell are left out of the page by the book's Sphinx extension, not here.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

import nbformat

from dpcompendium.book.execution import EXECUTED_NOTEBOOKS
from dpcompendium.book.tidy import tidy_notebook

ROOT = Path(__file__).resolve().parents[1]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "notebooks",
        nargs="*",
        type=Path,
        help="default: every executed notebook (notebooks/*.ipynb, book/*.ipynb)",
    )
    parser.add_argument(
        "--check", action="store_true", help="change nothing; exit 1 if a notebook would change"
    )
    args = parser.parse_args(argv)
    paths = args.notebooks or sorted(
        p for pattern in EXECUTED_NOTEBOOKS for p in ROOT.glob(pattern)
    )
    dirty = 0
    for path in paths:
        text = path.read_text(encoding="utf-8")
        nb = nbformat.reads(text, as_version=nbformat.NO_CONVERT)
        changes = tidy_notebook(nb)
        if not changes:
            continue
        dirty += 1
        print(f"{path.name}: " + "; ".join(changes))
        if not args.check:
            out = nbformat.writes(nb)
            path.write_text(out if out.endswith("\n") else out + "\n", encoding="utf-8")
            _sort_imports(path)
    return 1 if args.check and dirty else 0


def _sort_imports(path: Path) -> None:
    """The glue import moved to the first-party group: ruff's import sorting, as ``make lint-fix`` would."""
    ruff = Path(sys.executable).with_name("ruff")
    subprocess.run(
        [str(ruff), "check", "--select", "I", "--fix", "--quiet", str(path)],
        cwd=path.parent,
        check=False,
    )


if __name__ == "__main__":
    sys.exit(main())
