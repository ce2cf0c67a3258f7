"""Helpers that chapter notebooks call: where results go, and how tables and figures are written.

Tables are tidy CSV written with a fixed float format, so the same seed gives byte-identical files. Figures are
written as PNG and SVG (SVG with a fixed hash salt and no date, so they are reproducible too).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from pathlib import Path

import matplotlib as mpl
import pandas as pd

from .paths import repo_root

__all__ = ["FLOAT_FORMAT", "closest", "output_dir", "save_figure", "save_table", "skipped"]

#: 12 significant digits: stable across platforms, far below Monte-Carlo error.
FLOAT_FORMAT = "%.12g"


def output_dir(path: str | Path | None, chapter: str) -> Path:
    """The folder a chapter writes into: ``path`` if given, else ``<repo>/_build/results/<chapter>``. Created if needed."""
    out = Path(path) if path else repo_root() / "_build" / "results" / chapter
    out.mkdir(parents=True, exist_ok=True)
    return out


def save_table(df: pd.DataFrame, name: str, out: str | Path) -> Path:
    """Write ``df`` as ``<out>/<name>.csv`` (tidy, no index, fixed float format); return the path."""
    path = Path(out) / (name if name.endswith(".csv") else f"{name}.csv")
    df.to_csv(path, index=False, float_format=FLOAT_FORMAT, lineterminator="\n")
    return path


def save_figure(fig, name: str, out: str | Path) -> list[Path]:
    """Write ``fig`` as ``<out>/<name>.png`` and ``.svg``; return both paths."""
    paths = []
    with mpl.rc_context({"svg.hashsalt": "dpcompendium"}):
        for ext, meta in (("png", {"Software": None}), ("svg", {"Date": None})):
            path = Path(out) / f"{name}.{ext}"
            fig.savefig(path, dpi=150 if ext == "png" else None, metadata=meta, bbox_inches="tight")
            paths.append(path)
    return paths


def skipped(what: str, why: str) -> str:
    """Print a visible one-line note that ``what`` is skipped for the parameters of this run, and ``why``.

    A chapter calls it where a comparison or a claim only makes sense at some settings (the source's table needs
    its own epsilon values, an assertion holds at the default configuration only), instead of failing.
    """
    note = f"Note: {what} skipped for these parameters because {why}."
    print(note)
    return note


def closest(values: Iterable[float], target: float = 1.0) -> float:
    """The element of ``values`` closest to ``target`` on a log scale (``target`` itself when present)."""
    vals = [float(v) for v in values]
    if not vals:
        raise ValueError("values must be non-empty, got []")
    return min(vals, key=lambda v: (abs(math.log(v / target)), v))
