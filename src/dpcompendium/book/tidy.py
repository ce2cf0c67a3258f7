"""Scaffolding off the page, still executed: the rules, the notebook tidier and a Sphinx extension.

A chapter's code cells carry scaffolding the reader does not need: the glue calls that hand numbers to the text,
``from myst_nb import glue``, warnings filters, ``# fmt: off`` pragmas, the contract's ``# dpcompendium run reads
one …`` comment, ``%matplotlib inline``, cells that only assert the chapter's claims. All of it runs (under nbval and
in the book's execution); none of it is shown.

- :func:`tidy_notebook` (``tools/nbtidy.py``, idempotent, ``tests/test_tidy.py`` fails when a chapter breaks the
  convention): a cell that is only scaffolding is tagged ``remove-cell``; glue comes from
  :func:`dpcompendium.book.prose.glue` (every glued value is MyST), and the text pastes it with
  the ``{glue:md}`` role (``key:myst``) (``{glue:text}`` with a format spec stays).
- :func:`display_source`: the code of a mixed cell as the page shows it, its scaffolding lines left out; the
  parameters cell without its pragmas and with floats as written (``math.log(2)``, not ``0.6931471805599453``).
- The Sphinx extension (``setup``, listed in ``_config.yml``; rerun pages load it too) applies
  :func:`display_source` to every code cell on the page, shades text pasted with ``{glue:md}`` like
  ``{glue:text}`` (``span.pasted-text``), and folds the code that computes (:func:`folds`): a code cell's source
  is collapsed behind one button (MyST-NB's ``hide-input``, its outputs shown) unless the cell is tagged
  :data:`SHOW_CODE` (code that teaches: a derivation in code, the library call a reader should see) or is the
  parameters cell. The reading path is then the text, the figures, the tables and the sentences the run glued;
  every computation is one click away, and the notebook itself is not changed. The parameters cell is not on the
  page as code: :mod:`dpcompendium.book.rerun_box` replaces it with the "Rerun this chapter" box.
"""

from __future__ import annotations

import ast
import math
import re
from typing import Any

__all__ = [
    "GLUE_IMPORT",
    "REMOVE",
    "SHOW_CODE",
    "checks_only",
    "display_source",
    "folds",
    "is_scaffolding",
    "nice_float",
    "setup",
    "tidy_markdown",
    "tidy_notebook",
]

#: The import every chapter gets ``glue`` from: values glued as MyST.
GLUE_IMPORT = "from dpcompendium.book.prose import glue"
#: The tag of a cell that runs but is not on the page.
REMOVE = "remove-cell"
#: Tags that already keep a cell's code off the page.
_OFF_PAGE = {"remove-cell", "remove-input", "hide-input", "hide-cell"}
#: The tag of a code cell that teaches: its code is shown on the page (every other code cell is folded, :func:`folds`).
SHOW_CODE = "show-code"

_PRAGMA_LINE = re.compile(
    r"^\s*#\s*(?:fmt:\s*(?:off|on|skip)|noqa\b|type:\s*ignore|ruff:\s*noqa|"
    r"dpcompendium run reads one\b|pragma\b)",
    re.IGNORECASE,
)
_TRAILING_PRAGMA = re.compile(
    r"\s*#\s*(?:fmt:\s*skip|noqa(?::\s*[\w, ]+)?|type:\s*ignore(?:\[[^\]]*\])?|pragma:[^#]*)\s*$"
)
_MAGIC = re.compile(r"^\s*[%!]")
_GLUE_TEXT = re.compile(r"\{glue:text\}`([^`:]+)`")
_MYST_NB_GLUE = re.compile(r"^from myst_nb import glue[ \t]*$", re.MULTILINE)
_SETUP_CALLS = {"filterwarnings", "simplefilter", "set_option", "seterr", "use_book_style"}


def _parse(source: str) -> ast.Module | None:
    """``source`` parsed with its IPython magics blanked (line numbers kept); None if it does not parse."""
    lines = ["" if _MAGIC.match(line) else line for line in source.splitlines()]
    try:
        return ast.parse("\n".join(lines))
    except SyntaxError:
        return None


def _call_name(node: ast.AST) -> str:
    if isinstance(node, ast.Call):
        f = node.func
        return f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
    return ""


def _is_scaffold_stmt(stmt: ast.stmt) -> bool:
    """A statement the reader does not need: a glue call, the glue import, a warnings filter, a display option."""
    if isinstance(stmt, ast.ImportFrom):
        names = {a.name for a in stmt.names}
        return names == {"glue"} or stmt.module == "warnings"
    if isinstance(stmt, ast.Import):
        return {a.name for a in stmt.names} <= {"warnings"}
    if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
        name = _call_name(stmt.value)
        if name == "glue":
            return True
        if name in _SETUP_CALLS and name != "use_book_style":
            return True
    return False


def is_check(stmt: ast.stmt) -> bool:
    """An assertion, or an if/for whose body holds assertions and nothing a reader sees (no call but print)."""
    if isinstance(stmt, ast.Assert):
        return True
    if isinstance(stmt, ast.If | ast.For):
        body = stmt.body + stmt.orelse
        return any(is_check(b) for b in body) and all(
            is_check(b) or isinstance(b, ast.Assign | ast.Expr) for b in body
        )
    return False


def checks_only(source: str) -> bool:
    """A cell that only checks: assignments and assertions, at least one assertion, nothing displayed."""
    tree = _parse(source)
    if tree is None or not tree.body:
        return False
    return (
        any(isinstance(n, ast.Assert) for n in ast.walk(tree))
        and all(is_check(s) or isinstance(s, ast.Assign) for s in tree.body)
        and not any(
            _call_name(n) in {"glue", "save_table", "show_figure", "display"}
            for n in ast.walk(tree)
        )
    )


def is_scaffolding(source: str) -> bool:
    """A cell with nothing for the reader: only glue (with the assignments that feed it, but nothing displayed),
    setup lines (glue import, warnings filters, magics), pragmas and comments, or only checks."""
    tree = _parse(source)
    if tree is None:
        return False
    if not tree.body:
        return bool(source.strip())  # comments and magics only
    if checks_only(source):
        return True
    shown = [
        s
        for s in tree.body
        if not _is_scaffold_stmt(s)
        and not isinstance(s, ast.Assign | ast.AnnAssign | ast.AugAssign)
        and not (isinstance(s, ast.If | ast.For) and _only_glue(s))
    ]
    glues = any(_call_name(n) == "glue" for n in ast.walk(tree))
    last_displays = isinstance(tree.body[-1], ast.Expr) and not _is_scaffold_stmt(tree.body[-1])
    return (
        not shown and (glues or all(_is_scaffold_stmt(s) for s in tree.body)) and not last_displays
    )


def _only_glue(stmt: ast.stmt) -> bool:
    """An if/for/with block of glue calls, assignments and checks (the verdicts for the text)."""
    body = list(getattr(stmt, "body", [])) + list(getattr(stmt, "orelse", []))
    for s in body:
        if isinstance(s, ast.If | ast.For):
            if not _only_glue(s):
                return False
        elif not (
            _is_scaffold_stmt(s)
            or isinstance(s, ast.Assign | ast.AnnAssign | ast.AugAssign | ast.Assert | ast.Pass)
        ):
            return False
    return True


# ---------------------------------------------------------------------------------------------------- the page
def nice_float(x: float) -> str:
    """A float literal as a reader would write it: ``0.6931471805599453`` → ``math.log(2)``; a float with few
    digits as it is (``0.05``)."""
    text = repr(float(x))
    if len(text.replace("-", "").replace(".", "").lstrip("0")) < 10 or not math.isfinite(x):
        return text
    sign = "-" if x < 0 else ""
    ax = abs(x)
    candidates = [(f"math.log({k})", math.log(k)) for k in range(2, 11)]
    candidates += [(f"math.sqrt({k})", math.sqrt(k)) for k in (2, 3, 5, 6, 7, 8, 10)]
    candidates += [("math.pi", math.pi), ("math.e", math.e)]
    candidates += [(f"1 / {k}", 1 / k) for k in (3, 6, 7, 9, 11, 12)]
    candidates += [
        (f"{j} / {k}", j / k) for k in (3, 6, 7, 9) for j in range(2, k) if math.gcd(j, k) == 1
    ]
    for name, value in candidates:
        if math.isclose(ax, value, rel_tol=1e-15):
            return sign + name
    return f"{x:.6g}"


_FLOAT = re.compile(r"(?<![\w.])(-?\d+\.\d{9,}(?:e[-+]?\d+)?)(?![\w.])")


def display_source(source: str, parameters: bool = False) -> str:
    """The code of a cell as the page shows it: pragma comments and trailing pragmas, magics, the glue import,
    warnings filters and glue calls (with the comment lines right above them) left out; with ``parameters`` (the
    parameters cell), long float literals written as a reader would (:func:`nice_float`)."""
    lines = source.splitlines()
    drop = [False] * len(lines)
    for i, line in enumerate(lines):
        if _PRAGMA_LINE.match(line) or _MAGIC.match(line):
            drop[i] = True
    dedent = [0] * len(lines)
    tree = _parse(source)
    if tree is not None:
        _hide(tree.body, lines, drop, dedent)
    kept = [
        _TRAILING_PRAGMA.sub("", line[min(cut, len(line) - len(line.lstrip())) :])
        for line, d, cut in zip(lines, drop, dedent, strict=True)
        if not d
    ]
    if parameters:
        kept = [_FLOAT.sub(lambda m: nice_float(float(m.group(1))), line) for line in kept]
    text = "\n".join(kept)
    text = re.sub(r"\n{3,}", "\n\n", text)
    return text.strip("\n")


def _hide(body: list[ast.stmt], lines: list[str], drop: list[bool], dedent: list[int]) -> bool:
    """Mark the scaffolding of ``body`` (at any depth) to drop; returns True when all of ``body`` is dropped.
    Dropped: scaffolding statements, checks (asserts, ``if CHECK:`` blocks), blocks of glue only, and the header of a
    ``with warnings.catch_warnings():`` (its body shown, dedented); each with the comment lines right above it."""

    def mark(first: int, last: int) -> None:
        for k in range(first - 1, last):
            drop[k] = True
        k = first - 2
        while k >= 0 and lines[k].lstrip().startswith("#"):
            drop[k] = True
            k -= 1

    all_dropped = True
    for stmt in body:
        end = stmt.end_lineno or stmt.lineno
        if (
            _is_scaffold_stmt(stmt)
            or is_check(stmt)
            or (isinstance(stmt, ast.If | ast.For) and _only_glue(stmt) and _glues(stmt))
        ):
            mark(stmt.lineno, end)
            continue
        if isinstance(stmt, ast.With) and all(
            _call_name(item.context_expr) == "catch_warnings" for item in stmt.items
        ):
            inner = stmt.body[0].lineno
            if _hide(stmt.body, lines, drop, dedent):
                mark(stmt.lineno, end)
                continue
            for k in range(stmt.lineno - 1, inner - 1):
                drop[k] = True
            shift = stmt.body[0].col_offset - stmt.col_offset
            for k in range(inner - 1, end):
                dedent[k] += shift
            all_dropped = False
            continue
        blocks = [b for b in (getattr(stmt, f, None) for f in ("body", "orelse", "finalbody")) if b]
        if blocks and not isinstance(stmt, ast.FunctionDef | ast.ClassDef):
            hidden = [_hide(b, lines, drop, dedent) for b in blocks]
            if all(hidden):
                mark(stmt.lineno, end)
                continue
        all_dropped = False
    return all_dropped


def _glues(stmt: ast.stmt) -> bool:
    return any(_call_name(n) == "glue" for n in ast.walk(stmt))


# ------------------------------------------------------------------------------------------------ the notebooks
def tidy_markdown(text: str) -> str:
    """a ``{glue:text}`` role without a format spec (``key``) as ``{glue:md}`` (``key:myst``): glued values are MyST."""
    return _GLUE_TEXT.sub(lambda m: f"{{glue:md}}`{m.group(1)}:myst`", text)


def tidy_notebook(nb) -> list[str]:
    """Apply the convention to ``nb`` (an nbformat notebook, changed in place); returns what changed (empty: the
    notebook follows it). Idempotent."""
    changes: list[str] = []
    for i, cell in enumerate(nb.cells):
        if cell.cell_type == "markdown":
            new = tidy_markdown(cell.source)
            if new != cell.source:
                changes.append(f"cell {i}: {{glue:text}} → {{glue:md}}")
                cell.source = new
            continue
        if cell.cell_type != "code":
            continue
        meta = cell.metadata
        fig = (meta.get("mystnb") or {}).get("figure") or {}
        if fig.get("caption"):
            new = tidy_markdown(fig["caption"])
            if new != fig["caption"]:
                changes.append(f"cell {i}: caption {{glue:text}} → {{glue:md}}")
                fig["caption"] = new
        new = _MYST_NB_GLUE.sub(GLUE_IMPORT, cell.source)
        if new != cell.source:
            changes.append(f"cell {i}: glue from dpcompendium.book.prose")
            cell.source = new
        tags = list(meta.get("tags", []))
        if (
            "parameters" in tags
            or REMOVE in tags
            or {"keep_output", "nbval-check-output"} & set(tags)
        ):
            continue
        if is_scaffolding(cell.source):
            tags = [t for t in tags if t not in _OFF_PAGE] + [REMOVE]
            meta["tags"] = tags
            changes.append(f"cell {i}: tagged {REMOVE}")
    return changes


# ------------------------------------------------------------------------------------------- Sphinx extension
def _shaded_glue_md_role():
    from docutils import nodes
    from myst_nb.ext.glue.roles import PasteMarkdownRole

    class ShadedPasteMarkdownRole(PasteMarkdownRole):
        """MyST-NB's ``glue:md`` role, its output wrapped in ``span.pasted-text`` as ``glue:text``'s is."""

        def run(self):
            found, messages = super().run()
            if not found:
                return found, messages
            wrap = nodes.inline("", "", *found, classes=["pasted-text"])
            self.set_source_info(wrap)
            return [wrap], messages

    return ShadedPasteMarkdownRole()


def folds(tags) -> bool:
    """Whether the book folds the code of a cell with these ``tags``: every code cell but those tagged
    :data:`SHOW_CODE`, the parameters cell and those whose code is already off the page (``remove-input``,
    ``hide-input``, ``hide-cell``, ``remove-cell``)."""
    tags = set(tags or ())
    return not (tags & ({SHOW_CODE, "parameters"} | _OFF_PAGE))


def _fold(app, doctree) -> None:
    """Fold the code of every code cell :func:`folds` (MyST-NB's ``hide-input``: the source collapsed behind a
    button in the edition's language, the outputs shown); the cell gets the class ``dpc-folded``."""
    from docutils import nodes

    show = getattr(app.config, "nb_code_prompt_show", "Show code cell {type}")
    hide = getattr(app.config, "nb_code_prompt_hide", "Hide code cell {type}")
    for cell in list(doctree.findall(nodes.container)):
        if cell.get("nb_element") != "cell_code" or cell.get("hide_mode"):
            continue
        if not cell.children or cell.children[0].get("nb_element") != "cell_code_source":
            continue
        if not folds((cell.get("cell_metadata") or {}).get("tags")):
            continue
        cell["hide_mode"] = "input"
        cell["prompt_show"], cell["prompt_hide"] = show, hide
        cell["classes"] = [*cell.get("classes", []), "dpc-folded"]


def _on_doctree_read(app, doctree) -> None:
    """Every code cell of the page shown through :func:`display_source` (the parameters cell is the "Rerun this
    chapter" box by now: :mod:`dpcompendium.book.rerun_box`, loaded by :func:`setup`, runs first); an input left
    empty is removed; the code that computes folded (:func:`folds`)."""
    from docutils import nodes

    for block in list(doctree.findall(nodes.literal_block)):
        parent = block.parent
        if parent is None or "cell_input" not in parent.get("classes", []):
            continue
        cell = parent.parent
        params = cell is not None and "tag_parameters" in cell.get("classes", [])
        old = block.astext()
        new = display_source(old, parameters=params)
        if new == old:
            continue
        if not new.strip():
            parent.parent.remove(parent)
            continue
        block.children = []
        block += nodes.Text(new)
        block.rawsource = new
    _fold(app, doctree)


def _on_builder_inited(app) -> None:
    """The book's stylesheet (tables for reading, claims tables) on a page built without
    :mod:`dpcompendium.book.sphinxext` (a rerun's page); the book's build adds it there."""
    from pathlib import Path

    static = str(Path(__file__).with_name("_static"))
    if app.builder.format == "html" and static not in app.config.html_static_path:
        app.config.html_static_path.append(static)
        app.add_css_file("dpcompendium.css")


def setup(app) -> dict[str, Any]:
    from myst_nb.ext.glue.domain import NbGlueDomain

    app.setup_extension("myst_nb")
    app.setup_extension(
        "dpcompendium.book.rerun_box"
    )  # the parameters cell as a box, before the code is shown
    NbGlueDomain.roles = {**NbGlueDomain.roles, "md": _shaded_glue_md_role()}
    app.connect("doctree-read", _on_doctree_read)
    app.connect(
        "builder-inited", _on_builder_inited, priority=600
    )  # after sphinxext's (priority 500)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
