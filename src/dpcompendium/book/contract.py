"""The chapter registry and the chapter contract.

A chapter is a notebook ``notebooks/<id>.ipynb`` whose first markdown cell starts with ``# Title`` and which has one
code cell tagged ``parameters`` (papermill's convention). Every line of that cell is ``name = literal  # help``;
the help may end with a constraint in brackets that the CLI enforces before anything runs:

- ``[>0]``, ``[<1]`` (strict), ``[min 1]``, ``[max 10]`` (inclusive) — bounds, combinable with commas:
  ``[>0, <1]``, ``[min 0, max 1]``. ``>=``/``<=`` are refused (papermill's parameter inspection skips a line with a
  second ``=``): write ``min``/``max``;
- ``[a|b|c]`` — a choice among strings.

For a list parameter the constraint applies to every element, and the elements must be distinct. A value must have
the default's type: an int where the default is an int, a number where it is a float, a list (of the default
elements' type) where it is a list.

Constraints between parameters are comment lines of the same cell (papermill skips comment lines):

    # require: centre_share + eps1_share < 1
    # require: k <= 13 or "wine" not in datasets  # wine has 13 columns

Each is a Python boolean expression over parameter names, evaluated by a restricted evaluator (names, literals,
arithmetic, comparisons, ``and``/``or``/``not``, and the functions ``len min max sum set all any abs``; nothing
else) on the defaults overridden by the user's values, before anything runs; a trailing comment says why, and
appears in the error message.
"""

from __future__ import annotations

import ast
import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import nbformat

from ..chapters import registry
from ..core.paths import repo_root

__all__ = [
    "Chapter",
    "Parameter",
    "Requirement",
    "chapter_ids",
    "chapters",
    "get_chapter",
    "parse_parameters_cell",
    "required_datasets",
    "safe_eval",
    "validate_parameters",
]


def chapter_ids(root: Path | None = None) -> tuple[str, ...]:
    """Chapter ids in book order: the chapters' manifests (:mod:`dpcompendium.chapters.registry`), ordered by
    ``_toc.yml``."""
    return registry.chapter_ids(root)


def __getattr__(name: str) -> Any:
    if (
        name == "CHAPTER_IDS"
    ):  # chapter ids in book order, read from the manifests when first asked for
        return chapter_ids()
    if (
        name == "CHAPTER_DATASETS"
    ):  # each chapter's (registry name, condition) pairs, from its manifest
        return {m.id: m.datasets for m in registry.manifests()}
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


_CONSTRAINT = re.compile(r"\[([^\[\]]*)\]\s*$")
_BOUND = re.compile(r"^(>|<|min|max)\s*(-?[0-9.eE+\-]+|inf)$")
_REQUIRE = re.compile(r"^\s*#\s*require:\s*(.+?)\s*$")
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
class Requirement:
    """A constraint between parameters: ``# require: <expression>`` in the parameters cell."""

    expression: str
    names: tuple[str, ...]
    why: str = ""

    def check(self, values: dict[str, Any]) -> None:
        """Raise a one-line ValueError naming the parameters and their values if the expression is false."""
        try:
            ok = safe_eval(self.expression, values)
        except (TypeError, ValueError, ArithmeticError) as exc:
            raise ValueError(
                f"parameters must satisfy {self.expression}: {type(exc).__name__}: {exc}"
            ) from exc
        if not ok:
            shown = ", ".join(f"{n} = {values[n]!r}" for n in self.names)
            why = f" ({self.why})" if self.why else ""
            raise ValueError(f"parameters must satisfy {self.expression}{why}, got {shown}")


@dataclass(frozen=True)
class Chapter:
    id: str
    title: str
    notebook: Path
    parameters: dict[str, Parameter] = field(default_factory=dict)
    requires: tuple[Requirement, ...] = ()
    manifest: registry.Manifest | None = None

    @property
    def defaults(self) -> dict[str, Any]:
        return {name: p.default for name, p in self.parameters.items()}


# ---- the restricted evaluator of ``# require:`` expressions


def _too_large(exponent: Any) -> Any:
    raise ValueError(f"require: exponent {exponent!r} is too large (at most 64)")


_FUNCS = {
    "len": len,
    "min": min,
    "max": max,
    "sum": sum,
    "set": set,
    "all": all,
    "any": any,
    "abs": abs,
}
_BINOPS = {
    ast.Add: lambda a, b: a + b,
    ast.Sub: lambda a, b: a - b,
    ast.Mult: lambda a, b: a * b,
    ast.Div: lambda a, b: a / b,
    ast.FloorDiv: lambda a, b: a // b,
    ast.Mod: lambda a, b: a % b,
    ast.Pow: lambda a, b: a**b if abs(b) <= 64 else _too_large(b),
}
_CMPOPS = {
    ast.Lt: lambda a, b: a < b,
    ast.LtE: lambda a, b: a <= b,
    ast.Gt: lambda a, b: a > b,
    ast.GtE: lambda a, b: a >= b,
    ast.Eq: lambda a, b: a == b,
    ast.NotEq: lambda a, b: a != b,
    ast.In: lambda a, b: a in b,
    ast.NotIn: lambda a, b: a not in b,
}


def _require_names(expression: str) -> tuple[str, ...]:
    """The parameter names of an expression, in order of appearance (called functions excluded)."""
    tree = ast.parse(expression, mode="eval")
    funcs = {id(n.func) for n in ast.walk(tree) if isinstance(n, ast.Call)}
    found = sorted(
        (n.col_offset, n.id)
        for n in ast.walk(tree)
        if isinstance(n, ast.Name) and id(n) not in funcs
    )
    return tuple(dict.fromkeys(name for _, name in found))


def _eval(node: ast.AST, env: dict[str, Any]) -> Any:
    if isinstance(node, ast.Expression):
        return _eval(node.body, env)
    if isinstance(node, ast.Constant) and isinstance(node.value, int | float | str | bool):
        return node.value
    if isinstance(node, ast.Name):
        if node.id not in env:
            raise ValueError(f"require: unknown name {node.id!r}")
        return env[node.id]
    if isinstance(node, ast.List | ast.Tuple | ast.Set):
        items = [_eval(e, env) for e in node.elts]
        return set(items) if isinstance(node, ast.Set) else items
    if isinstance(node, ast.BoolOp):
        if isinstance(node.op, ast.And):
            return all(_eval(v, env) for v in node.values)
        return any(_eval(v, env) for v in node.values)
    if isinstance(node, ast.UnaryOp):
        v = _eval(node.operand, env)
        if isinstance(node.op, ast.Not):
            return not v
        if isinstance(node.op, ast.USub):
            return -v
        if isinstance(node.op, ast.UAdd):
            return +v
    if isinstance(node, ast.BinOp) and type(node.op) in _BINOPS:
        return _BINOPS[type(node.op)](_eval(node.left, env), _eval(node.right, env))
    if isinstance(node, ast.Compare):
        left = _eval(node.left, env)
        for op, comp in zip(node.ops, node.comparators, strict=True):
            right = _eval(comp, env)
            if not _CMPOPS[type(op)](left, right):
                return False
            left = right
        return True
    if isinstance(node, ast.Subscript) and not isinstance(node.slice, ast.Slice):
        seq, index = _eval(node.value, env), _eval(node.slice, env)
        if (
            not isinstance(seq, list | tuple)
            or not isinstance(index, int)
            or isinstance(index, bool)
        ):
            raise ValueError(
                f"require: only a list indexed by an integer is allowed ({ast.unparse(node)})"
            )
        if not -len(seq) <= index < len(seq):
            raise ValueError(f"require: index out of range in {ast.unparse(node)}")
        return seq[index]
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in _FUNCS
        and not node.keywords
    ):
        return _FUNCS[node.func.id](*(_eval(a, env) for a in node.args))
    raise ValueError(f"require: {type(node).__name__} is not allowed ({ast.unparse(node)})")


def safe_eval(expression: str, values: dict[str, Any]) -> Any:
    """Evaluate a ``# require:`` expression over ``values`` with a restricted AST evaluator.

    Allowed: names of ``values``, int/float/str/bool literals, lists/tuples/sets of them, ``+ - * / // % **``,
    comparisons (chained, ``in``), ``and``/``or``/``not``, and calls of ``len min max sum set all any abs``.
    Anything else (attributes, subscripts, comprehensions, lambdas, other calls) is a ValueError.
    """
    try:
        tree = ast.parse(expression, mode="eval")
    except SyntaxError as exc:
        raise ValueError(f"require: {expression!r} is not a Python expression") from exc
    return _eval(tree, values)


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


def _check_type(name: str, value: Any, default: Any, top: bool = True) -> None:
    if isinstance(default, list):
        if not isinstance(value, list) or not value:
            raise ValueError(f"parameter {name} must be a non-empty list, got {value!r}")
        keys = {float(v) if isinstance(v, int | float) else repr(v) for v in value}
        if top and len(keys) != len(value):
            raise ValueError(f"parameter {name} must not repeat an element, got {value!r}")
        elems = [d for d in default if d is not None]
        if elems and all(isinstance(d, list) for d in elems):
            for v in value:
                _check_type(name, v, elems[0], top=False)
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
            # a range of two bounds is named whole: "must be <= 10000 (range: min 2, max 10000)"
            whole = f" (range: {constraint})" if "," in constraint else ""
            raise ValueError(f"parameter {name} must be {op} {m.group(2)}{whole}, got {value!r}")


def _parse_requires(
    source: str, notebook: Path, params: dict[str, Parameter]
) -> tuple[Requirement, ...]:
    requires = []
    for line in source.splitlines():
        m = _REQUIRE.match(line)
        if not m:
            continue
        expression, why = m.group(1), ""
        if "#" in expression:  # a trailing comment says why
            expression, why = (part.strip() for part in expression.split("#", 1))
        try:
            names = _require_names(expression)
            unknown = [n for n in names if n not in params]
            if unknown:
                raise ValueError(f"unknown parameter {unknown[0]!r}")
            safe_eval(expression, {n: p.default for n, p in params.items()})
        except (ValueError, SyntaxError, TypeError) as exc:
            raise ValueError(f"{notebook.name}: bad '# require: {expression}': {exc}") from exc
        requires.append(Requirement(expression, names, why))
    return tuple(requires)


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
            if ">=" in constraint or "<=" in constraint or "=" in constraint:
                raise ValueError(
                    f"{notebook.name}: parameter {name}: write [min x]/[max x], not {constraint!r}"
                )
        params[name] = Parameter(name, default, comment, constraint)
    return params


def parse_parameters_cell(
    source: str, where: str = "the parameters cell"
) -> tuple[dict[str, Parameter], tuple[Requirement, ...]]:
    """The parameters and the ``# require:`` lines of a parameters cell's ``source`` (the chapter contract); a
    one-line ``ValueError`` naming ``where`` if it breaks the contract."""
    path = Path(where)
    params = _parse_parameters(source, path)
    return params, _parse_requires(source, path, params)


def _load_chapter(
    chapter_id: str, root: Path, manifest: registry.Manifest | None = None
) -> Chapter:
    if manifest is None:
        manifest = registry.get_manifest(chapter_id, root)
    path = root / manifest.notebook
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
    params = _parse_parameters(cells[0].source, path)
    requires = _parse_requires(cells[0].source, path, params)
    return Chapter(chapter_id, title, path, params, requires, manifest)


def chapters(root: Path | None = None) -> list[Chapter]:
    """Every chapter (a manifest whose notebook exists and ``_toc.yml`` lists), in book order."""
    root = root or repo_root()
    return [
        _load_chapter(m.id, root, m)
        for m in registry.manifests(root)
        if (root / m.notebook).is_file()
    ]


def get_chapter(chapter_id: str, root: Path | None = None) -> Chapter:
    """One chapter by id; ValueError naming the id if unknown."""
    root = root or repo_root()
    found = {m.id: m for m in registry.manifests(root)}
    if chapter_id not in found or not (root / found[chapter_id].notebook).is_file():
        known = ", ".join(c.id for c in chapters(root))
        raise ValueError(f"chapter must be one of {known}, got {chapter_id!r}")
    return _load_chapter(chapter_id, root, found[chapter_id])


def required_datasets(chapter: Chapter, values: dict[str, Any] | None = None) -> list[str]:
    """The registry names of the chapter's manifest (``datasets``) that ``chapter`` reads with its defaults
    overridden by ``values`` (validated first: :func:`validate_parameters`), in declaration order. A condition is an
    expression over the chapter's parameters in the syntax of ``# require:`` lines (:func:`safe_eval`); the dataset is
    needed when it holds for the run's values ("" = always)."""
    merged = {**chapter.defaults, **(values or {})}
    entries = chapter.manifest.datasets if chapter.manifest is not None else ()
    return [
        name
        for name, cond in entries
        # a condition over a parameter the notebook does not have cannot select the dataset (a miniature chapter
        # in tests); every condition evaluates on the book's own chapters (tests/test_data_cli.py)
        if not cond or (set(_require_names(cond)) <= set(merged) and safe_eval(cond, merged))
    ]


def validate_parameters(chapter: Chapter, values: dict[str, Any]) -> dict[str, Any]:
    """Check names, types and constraints of user-supplied parameter values, then every ``# require:`` line on
    the defaults overridden by ``values``; return ``values`` unchanged."""
    for name, value in values.items():
        if name not in chapter.parameters:
            known = ", ".join(chapter.parameters)
            raise ValueError(
                f"unknown parameter {name!r} for chapter {chapter.id} (known: {known})"
            )
        chapter.parameters[name].check(value)
    merged = {**chapter.defaults, **values}
    for req in chapter.requires:
        req.check(merged)
    return values
