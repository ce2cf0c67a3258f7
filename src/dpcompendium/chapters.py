"""The chapter registry and the chapter contract.

A chapter is a notebook ``notebooks/<id>.ipynb`` whose first markdown cell starts with ``# Title`` and which has one
code cell tagged ``parameters`` (papermill's convention). Every line of that cell is ``name = literal  # help``;
the help may end with a constraint in brackets that the CLI enforces before anything runs:

- ``[>0]``, ``[<1]`` (strict), ``[min 1]``, ``[max 10]`` (inclusive) — bounds, combinable with commas:
  ``[>0, <1]``, ``[min 0, max 1]`` (``>=``/``<=`` are accepted too, but papermill's parameter inspection trips on a
  second ``=`` in a line);
- ``[a|b|c]`` — a choice among strings.

For a list parameter the constraint applies to every element. A value must have the default's type: an int where
the default is an int, a number where it is a float, a list (of the default elements' type) where it is a list.
"""

from __future__ import annotations

import ast
import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import nbformat

from .paths import repo_root

__all__ = ["CHAPTER_IDS", "Chapter", "Parameter", "chapters", "get_chapter", "validate_parameters"]

#: Chapter ids in book order.
CHAPTER_IDS = ("dp-mean", "mwem", "histograms", "federated-pca", "hiera", "privacy-audit")

_CONSTRAINT = re.compile(r"\[([^\[\]]*)\]\s*$")
_BOUND = re.compile(r"^(>=|<=|>|<|min|max)\s*(-?[0-9.eE+\-]+|inf)$")
_OPS = {"min": ">=", "max": "<="}


@dataclass(frozen=True)
class Parameter:
    name: str
    default: Any
    help: str
    constraint: str = ""

    def check(self, value: Any) -> Any:
        """Return ``value`` if it fits this parameter's type and constraint, else raise a one-line ValueError."""
        _check_type(self.name, value, self.default)
        if self.constraint:
            items = value if isinstance(value, list) else [value]
            for item in items:
                _check_constraint(self.name, item, self.constraint)
        return value


@dataclass(frozen=True)
class Chapter:
    id: str
    title: str
    notebook: Path
    parameters: dict[str, Parameter] = field(default_factory=dict)


def _type_name(v: Any) -> str:
    return "list" if isinstance(v, list) else type(v).__name__


def _check_scalar(name: str, value: Any, default: Any) -> None:
    if default is None:
        return
    if isinstance(default, bool):
        ok = isinstance(value, bool)
    elif isinstance(default, int):
        ok = isinstance(value, int) and not isinstance(value, bool)
    elif isinstance(default, float):
        ok = isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)
    elif isinstance(default, str):
        ok = isinstance(value, str)
    else:
        ok = isinstance(value, type(default))
    if not ok:
        raise ValueError(f"parameter {name} must be {_type_name(default)}, got {value!r}")


def _check_type(name: str, value: Any, default: Any) -> None:
    if isinstance(default, list):
        if not isinstance(value, list) or not value:
            raise ValueError(f"parameter {name} must be a non-empty list, got {value!r}")
        elems = [d for d in default if d is not None]
        if elems and all(isinstance(d, list) for d in elems):
            for v in value:
                _check_type(name, v, elems[0])
            return
        proto: Any = None
        if elems:
            if any(isinstance(d, float) for d in elems):
                proto = 0.0
            elif all(isinstance(d, bool) for d in elems):
                proto = False
            elif all(isinstance(d, int) for d in elems):
                proto = 0
            elif all(isinstance(d, str) for d in elems):
                proto = ""
        for v in value:
            _check_scalar(name, v, proto)
        return
    _check_scalar(name, value, default)


def _check_constraint(name: str, value: Any, constraint: str) -> None:
    if "|" in constraint or (constraint and not _BOUND.match(constraint.split(",")[0].strip())):
        choices = [c.strip() for c in constraint.split("|")]
        if str(value) not in choices:
            raise ValueError(f"parameter {name} must be one of {'|'.join(choices)}, got {value!r}")
        return
    for part in constraint.split(","):
        m = _BOUND.match(part.strip())
        if not m:
            continue
        op, bound = _OPS.get(m.group(1), m.group(1)), float(m.group(2))
        ok = {">": value > bound, ">=": value >= bound, "<": value < bound, "<=": value <= bound}[
            op
        ]
        if not ok:
            raise ValueError(f"parameter {name} must be {op} {m.group(2)}, got {value!r}")


def _parse_parameters(source: str, notebook: Path) -> dict[str, Parameter]:
    params: dict[str, Parameter] = {}
    lines = source.splitlines()
    tree = ast.parse(source)
    for node in tree.body:
        if not (
            isinstance(node, ast.Assign)
            and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name)
        ):
            raise ValueError(
                f"{notebook.name}: the parameters cell may hold only 'name = literal  # help' lines"
            )
        name = node.targets[0].id
        try:
            default = ast.literal_eval(node.value)
        except ValueError as exc:
            raise ValueError(
                f"{notebook.name}: parameter {name} must have a literal default"
            ) from exc
        line = lines[node.lineno - 1]
        comment = line.split("#", 1)[1].strip() if "#" in line[node.value.end_col_offset :] else ""
        constraint = ""
        m = _CONSTRAINT.search(comment)
        if m:
            constraint = m.group(1).strip()
            comment = comment[: m.start()].strip()
        params[name] = Parameter(name, default, comment, constraint)
    return params


def _load_chapter(chapter_id: str, root: Path) -> Chapter:
    path = root / "notebooks" / f"{chapter_id}.ipynb"
    nb = nbformat.read(path, as_version=4)
    title = chapter_id
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            m = re.search(r"^#\s+(.+)$", cell.source, flags=re.M)
            if m:
                title = m.group(1).strip()
                break
    cells = [
        c
        for c in nb.cells
        if c.cell_type == "code" and "parameters" in c.get("metadata", {}).get("tags", [])
    ]
    if len(cells) != 1:
        raise ValueError(
            f"{path.name} must have exactly one cell tagged 'parameters', found {len(cells)}"
        )
    return Chapter(chapter_id, title, path, _parse_parameters(cells[0].source, path))


def chapters(root: Path | None = None) -> list[Chapter]:
    """Every chapter whose notebook exists, in book order."""
    root = root or repo_root()
    return [
        _load_chapter(cid, root)
        for cid in CHAPTER_IDS
        if (root / "notebooks" / f"{cid}.ipynb").is_file()
    ]


def get_chapter(chapter_id: str, root: Path | None = None) -> Chapter:
    """One chapter by id; ValueError naming the id if unknown."""
    root = root or repo_root()
    if chapter_id not in CHAPTER_IDS or not (root / "notebooks" / f"{chapter_id}.ipynb").is_file():
        known = ", ".join(c.id for c in chapters(root))
        raise ValueError(f"chapter must be one of {known}, got {chapter_id!r}")
    return _load_chapter(chapter_id, root)


def validate_parameters(chapter: Chapter, values: dict[str, Any]) -> dict[str, Any]:
    """Check names, types and constraints of user-supplied parameter values; return them unchanged."""
    for name, value in values.items():
        if name not in chapter.parameters:
            known = ", ".join(chapter.parameters)
            raise ValueError(
                f"unknown parameter {name!r} for chapter {chapter.id} (known: {known})"
            )
        chapter.parameters[name].check(value)
    return values
