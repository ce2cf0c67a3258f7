"""The "Rerun this chapter" box: the parameters cell out of the narrative, as a box a reader can use.

A chapter's parameters cell (tagged ``parameters``, one ``name = literal  # help [constraint]`` line per parameter,
``# require:`` lines between them: the chapter contract) is executed as any cell, but on the page it is not code in the
reading path: at build time (``doctree-read``, :func:`replace_parameters_cell`) its cell is replaced by a collapsed
admonition titled "Rerun this chapter" that shows

- a table of the parameters: name, value, what it sets (the line's help) and the values it may take (the
  constraint, as maths: ``[min 0.01, max 100]`` → ``≥ 0.01, ≤ 100``), ``output_dir`` left out (``--out`` sets it);
- the constraints between parameters (the ``# require:`` lines, with their reasons);
- the command line that reruns the chapter: on a book page ``dpcompendium run <id>`` with the seed and the first
  other parameter at the page's values (:func:`example_values`), on a rerun's page the command of that run
  (:meth:`dpcompendium.book.preflight.RunPlan.command`, stored in the cell's metadata by
  ``dpcompendium.book.rerun_page.with_run_parameters``, which also writes the run's values into the cell).

The box's own words come from the message catalogue (``dpcompendium.core.messages``, ids ``rerun_box.*``) in the
edition's language; the parameters' help texts and the reasons of the ``# require:`` lines are the notebook's, shown in
another edition from the catalogue ``locales/<lang>/LC_MESSAGES/parameters.po`` (:func:`parameter_text`; English
where it lacks one; ``dpcompendium i18n update`` adds the missing ones, :func:`extract_parameter_texts`). A Sphinx extension
(:func:`setup`), loaded by :mod:`dpcompendium.book.tidy` (the book and the rerun pages).
"""

from __future__ import annotations

import ast
import functools
from functools import lru_cache
from pathlib import Path
from typing import Any

from .contract import Chapter, Parameter, Requirement, parse_parameters_cell

#: The online book (``dpcompendium.book.rerun_page`` links pages outside a rerun's chapter to it; on paper the rerun
#: box writes a chapter's address out, :func:`online_url`).
BOOK_URL = "https://dpcompendium.github.io/dpcompendium"

__all__ = [
    "COMMAND_KEY",
    "RESERVED",
    "box",
    "constraint_text",
    "example_values",
    "extract_parameter_texts",
    "online_url",
    "parameter_text",
    "parameter_texts",
    "parameters_source",
    "replace_parameters_cell",
    "requirement_nodes",
    "requirement_text",
    "setup",
]

#: Key of the parameters cell's ``dpcompendium`` metadata holding a rerun's command line.
COMMAND_KEY = "command"
#: Parameters the box does not list (``--out`` sets ``output_dir``).
RESERVED = frozenset({"output_dir"})
#: The box's classes: a collapsed admonition (sphinx-togglebutton's ``dropdown``), styled by dpcompendium.css.
CLASSES = ["dpc-rerun", "dropdown"]


def constraint_text(constraint: str) -> str:
    """A constraint of the contract as a reader reads it: ``min 0.01, max 100`` → ``≥ 0.01, ≤ 100``; ``>0, <1`` →
    ``> 0, < 1``; ``a|b|c`` → ``a | b | c``; "" for none."""
    constraint = constraint.strip()
    if not constraint:
        return ""
    if "|" in constraint:
        return " | ".join(c.strip() for c in constraint.split("|"))
    signs = {"min": "≥", "max": "≤", ">": ">", "<": "<"}
    parts = []
    for part in constraint.split(","):
        part = part.strip()
        for word, sign in signs.items():
            if part.startswith(word):
                part = f"{sign} {part[len(word) :].strip()}"
                break
        parts.append(part)
    return ", ".join(parts)


#: A comparison of a ``# require:`` expression as the box writes it.
_COMPARISON_SIGNS = {
    ast.Lt: "<",
    ast.LtE: "≤",
    ast.Gt: ">",
    ast.GtE: "≥",
    ast.Eq: "=",
    ast.NotEq: "≠",
}
_ARITHMETIC_SIGNS = {ast.Add: "+", ast.Sub: "−", ast.Mult: "×", ast.Div: "/"}
#: Marks a parameter's name in a rendered requirement (shown as code: the name a reader types after ``-p``).
_NAME = "\x00"


def _template(msgid: str, lang: str) -> str:
    from ..core.messages import CATALOGUE

    return CATALOGUE.get(lang, {}).get(msgid) or CATALOGUE["en"][msgid]


def requirement_text(expression: str, lang: str = "en") -> str:
    """A ``# require:`` expression as a sentence in ``lang`` (reader review F5: not Python): ``k <= 13 or "wine"
    not in datasets`` → "k ≤ 13, or datasets does not include “wine”"; ``len(query_lengths) == 2 and
    query_lengths[0] < query_lengths[1]`` → "the length of query_lengths = 2, and element 1 of query_lengths <
    element 2 of query_lengths". Its words come from the templates ``rerun_box.req_*`` of the message catalogue;
    each parameter's name is marked by ``\\x00`` on both sides (:func:`requirement_nodes` shows it as code). An
    expression the renderer does not know is returned as it is written."""
    try:
        tree = ast.parse(expression.strip(), mode="eval").body
        return _render_requirement(tree, lang)
    except (SyntaxError, ValueError, KeyError):
        return expression


def _render_requirement(node: ast.AST, lang: str, top: bool = True) -> str:
    def sub(n: ast.AST) -> str:
        return _render_requirement(n, lang, top=False)

    t = functools.partial(_template, lang=lang)
    if isinstance(node, ast.BoolOp):
        key = "rerun_box.req_and" if isinstance(node.op, ast.And) else "rerun_box.req_or"
        text = sub(node.values[0])
        for value in node.values[1:]:
            text = t(key) % {"a": text, "b": sub(value)}
        return text
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        return t("rerun_box.req_not") % {"a": sub(node.operand)}
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return "−" + sub(node.operand)
    if isinstance(node, ast.Compare):
        parts, left = [], node.left
        for op, right in zip(node.ops, node.comparators, strict=True):
            if isinstance(op, ast.In | ast.NotIn):
                key = "rerun_box.req_in" if isinstance(op, ast.In) else "rerun_box.req_not_in"
                parts.append(t(key) % {"item": sub(left), "list": sub(right)})
            else:
                parts.append(f"{sub(left)} {_COMPARISON_SIGNS[type(op)]} {sub(right)}")
            left = right
        text = parts[0]
        for part in parts[1:]:
            text = t("rerun_box.req_and") % {"a": text, "b": part}
        return text
    if isinstance(node, ast.BinOp):
        return f"{sub(node.left)} {_ARITHMETIC_SIGNS[type(node.op)]} {sub(node.right)}"
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and len(node.args) == 1:
        key = {
            "len": "rerun_box.req_len",
            "min": "rerun_box.req_min",
            "max": "rerun_box.req_max",
            "sum": "rerun_box.req_sum",
            "abs": "rerun_box.req_abs",
        }[node.func.id]
        return t(key) % {"x": sub(node.args[0])}
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):
        index = node.slice.value
        if not isinstance(index, int) or isinstance(index, bool) or index < 0:
            raise ValueError(f"index must be a non-negative int, got {index!r}")
        return t("rerun_box.req_item") % {"x": sub(node.value), "i": str(index + 1)}
    if isinstance(node, ast.Name):
        return f"{_NAME}{node.id}{_NAME}"
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return t("rerun_box.req_quoted") % {"s": node.value}
    if isinstance(node, ast.Constant) and isinstance(node.value, int | float):
        return f"{node.value:g}" if isinstance(node.value, float) else str(node.value)
    raise ValueError(f"node must be a known form of a requirement, got {ast.dump(node)}")


def requirement_nodes(expression: str, lang: str = "en") -> list:
    """:func:`requirement_text` as docutils nodes: words as text, each parameter's name as code; an expression the
    renderer does not know stays code, as written."""
    from docutils import nodes

    text = requirement_text(expression, lang)
    if text == expression:
        return [nodes.literal(expression, expression)]
    out = []
    for i, part in enumerate(text.split(_NAME)):
        if part:
            out.append(nodes.literal(part, part) if i % 2 else nodes.Text(part))
    return out


def example_values(params: dict[str, Parameter], values: dict[str, Any]) -> dict[str, Any]:
    """The values a book page's command shows: ``seed`` and the first other parameter of the cell (but
    ``output_dir``), each at the page's value, so that the command reruns the page as it is."""
    names = [n for n in params if n not in RESERVED]
    shown = [n for n in names if n == "seed"][:1] + [n for n in names if n != "seed"][:1]
    return {n: values[n] for n in shown}


def parameters_source(chapter: Chapter, values: dict[str, Any]) -> str:
    """The parameters cell of ``chapter`` with ``values`` (every parameter) as its literals, each line's help and
    constraint and the ``# require:`` lines kept: what a rerun's page shows in its box."""
    lines = []
    for name, p in chapter.parameters.items():
        comment = p.help + (f" [{p.constraint}]" if p.constraint else "")
        lines.append(f"{name} = {values[name]!r}" + (f"  # {comment}" if comment else ""))
    for req in chapter.requires:
        lines.append(f"# require: {req.expression}" + (f"  # {req.why}" if req.why else ""))
    return "\n".join(lines)


def _value_text(value: Any) -> str:
    from .tidy import nice_float

    if isinstance(value, float):
        return nice_float(value)
    if isinstance(value, list):
        return "[" + ", ".join(_value_text(v) for v in value) + "]"
    return repr(value)


#: The catalogue of the parameters' help texts and the requirements' reasons, under ``locales/<lang>/LC_MESSAGES/``.
PARAMETERS_CATALOGUE = "parameters.po"


def _parameters_po(lang: str, locale_dir: Path | None = None) -> Path:
    from ..core.paths import repo_root

    return Path(locale_dir or repo_root() / "locales") / lang / "LC_MESSAGES" / PARAMETERS_CATALOGUE


@lru_cache(maxsize=8)
def _parameter_catalogue(lang: str, locale_dir: Path | None = None) -> dict[str, str]:
    from babel.messages.pofile import read_po

    path = _parameters_po(lang, locale_dir)
    if not path.is_file():
        return {}
    with path.open("rb") as f:
        cat = read_po(f, locale=lang)
    return {m.id: m.string for m in cat if m.id and m.string and not m.fuzzy}


def parameter_text(text: str, lang: str, locale_dir: Path | None = None) -> str:
    """A parameter's help text or a requirement's reason (English, the notebook's) in ``lang``: its translation in
    ``parameters.po``, or ``text`` as it is (English, or a text the catalogue lacks)."""
    if not text or not lang or lang.startswith("en"):
        return text
    return _parameter_catalogue(lang, locale_dir).get(text, text)


def parameter_texts(root: Path) -> list[tuple[str, str]]:
    """(chapter id, text) of every parameter's help and every requirement's reason of every chapter, in order."""
    from .contract import chapters

    out: list[tuple[str, str]] = []
    for ch in chapters(Path(root)):
        out += [
            (ch.id, p.help) for name, p in ch.parameters.items() if p.help and name not in RESERVED
        ]
        out += [(ch.id, r.why) for r in ch.requires if r.why]
    return out


def extract_parameter_texts(
    root: Path, lang: str, locale_dir: Path | None = None
) -> tuple[int, int]:
    """Add to ``parameters.po`` of ``lang`` every help text and reason of the chapters that it lacks (untranslated,
    with the chapter's id as the translator's context comment). Returns (entries, untranslated)."""
    from babel.messages.catalog import Catalog
    from babel.messages.pofile import read_po, write_po

    path = _parameters_po(lang, locale_dir or Path(root) / "locales")
    if path.is_file():
        with path.open("rb") as f:
            cat = read_po(f, locale=lang)
    else:
        cat = Catalog(locale=lang, project="dpcompendium", charset="utf-8", fuzzy=False)
    for chapter_id, text in parameter_texts(root):
        if text not in cat:
            cat.add(text, "", auto_comments=[chapter_id])
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as f:
        write_po(f, cat, width=0, no_location=True)
    _parameter_catalogue.cache_clear()
    entries = [m for m in cat if m.id]
    return len(entries), sum(not m.string for m in entries)


def _words(lang: str) -> dict[str, str]:
    from ..core.messages import message

    ids = (
        "title",
        "intro",
        "intro_rerun",
        "parameter",
        "value",
        "meaning",
        "allowed",
        "requires",
    )
    return {i: message(f"rerun_box.{i}").in_language(lang) for i in ids}


def box(
    chapter_id: str,
    params: dict[str, Parameter],
    requires: tuple[Requirement, ...],
    values: dict[str, Any],
    command: str,
    lang: str = "en",
    rerun: bool = False,
    docname: str | None = None,
):
    """The box (a docutils admonition): the parameters with ``values``, the constraints between them and
    ``command``, its words in ``lang``; ``rerun``: the page of a rerun (its values are that run's). ``docname``: the
    chapter's page in the book (``notebooks/<id>``), whose online address the printed sentence writes out."""
    from docutils import nodes

    w = _words(lang)
    admonition = nodes.admonition("", classes=list(CLASSES))
    admonition += nodes.title(w["title"], w["title"])
    # on paper the parameters table (a page in some chapters) gives way to one sentence that names where to read it
    # (reader review F4): the screen-only parts are hidden in print, the print-only sentence on screen
    admonition += nodes.paragraph(
        text=w["intro_rerun" if rerun else "intro"], classes=["dpc-screen-only"]
    )
    from ..core.messages import message

    # on paper a link is not followed (reader review F11): the sentence writes the online page's address out, the
    # page of the chapter in the edition's language (a link too, for a reader of the PDF on screen)
    url = online_url(docname or f"notebooks/{chapter_id}", lang)
    printed = message("rerun_box.intro_print", chapter=chapter_id, url=_URL_SLOT).in_language(lang)
    before, after = printed.replace("`", "").split(_URL_SLOT)
    admonition += nodes.paragraph(
        "",
        "",
        nodes.Text(before),
        nodes.reference(url, url, refuri=url),
        nodes.Text(after),
        classes=["dpc-print-only"],
    )
    admonition += nodes.literal_block(
        command, command, language="bash", classes=["dpc-rerun-command"]
    )
    table = nodes.table(classes=["dpc-rerun-parameters", "dpc-screen-only"])
    group = nodes.tgroup(cols=4)
    table += group
    for width in (2, 3, 5, 2):
        group += nodes.colspec(colwidth=width)
    head, body = nodes.thead(), nodes.tbody()
    group += head
    group += body

    def row(cells) -> nodes.row:
        r = nodes.row()
        for cell in cells:
            entry = nodes.entry()
            entry += cell if isinstance(cell, nodes.Node) else nodes.paragraph(text=cell)
            r += entry
        return r

    head += row([w["parameter"], w["value"], w["meaning"], w["allowed"]])
    for name, p in params.items():
        if name in RESERVED:
            continue
        value = _value_text(values.get(name, p.default))
        body += row(
            [
                nodes.paragraph("", "", nodes.literal(name, name)),
                nodes.paragraph("", "", nodes.literal(value, value)),
                parameter_text(p.help, lang),
                constraint_text(p.constraint),
            ]
        )
    admonition += table
    if requires:
        admonition += nodes.paragraph(text=w["requires"], classes=["dpc-screen-only"])
        items = nodes.bullet_list(classes=["dpc-screen-only"])
        for req in requires:
            para = nodes.paragraph("", "", *requirement_nodes(req.expression, lang))
            if req.why:
                why = parameter_text(req.why, lang)
                para += nodes.Text(f"（{why}）" if why != req.why else f" ({why})")
            items += nodes.list_item("", para)
        admonition += items
    return admonition


#: Where the address goes in the printed sentence (a slot the message renders as it is, replaced by a link).
_URL_SLOT = "@@URL@@"


def online_url(docname: str, lang: str = "en") -> str:
    """The address of the book's page ``docname`` in the online edition of ``lang`` (as the PDF's table notes name
    it): ``https://…/notebooks/dp-mean.html``, ``https://…/zh_CN/notebooks/dp-mean.html``."""
    return f"{BOOK_URL}{'' if lang == 'en' else '/' + lang}/{docname}.html"


def _chapter_id(app, docname: str) -> str:
    """The chapter id of the page: a rerun's page names its chapter's docname in ``dpc_rerun_docname``."""
    try:
        rerun_doc = app.config.dpc_rerun_docname
    except AttributeError:  # the book's build: no rerun
        rerun_doc = None
    return Path(rerun_doc or docname).name


def replace_parameters_cell(app, doctree) -> None:
    """Replace the page's parameters cell by its "Rerun this chapter" box (the cell stays executed; its code and
    outputs are not on the page)."""
    from docutils import nodes

    for cell in list(doctree.findall(nodes.container)):
        if cell.get("nb_element") != "cell_code":
            continue
        meta = cell.get("cell_metadata") or {}
        if "parameters" not in (meta.get("tags") or []):
            continue
        blocks = [
            b
            for b in cell.findall(nodes.literal_block)
            if "cell_input" in b.parent.get("classes", [])
        ]
        if not blocks:
            continue
        source = blocks[0].astext()
        try:
            params, requires = parse_parameters_cell(source)
        except (ValueError, SyntaxError):
            continue  # not a contract's cell (a page that is no chapter): left as it is
        values = {n: p.default for n, p in params.items()}
        docname = app.env.docname
        chapter_id = _chapter_id(app, docname)
        stored = (meta.get("dpcompendium") or {}).get(COMMAND_KEY)
        if stored:
            command = stored
        else:
            from .preflight import run_command

            command = run_command(chapter_id, example_values(params, values))
        lang = app.config.language or "en"
        # replaced, not replace_self: the box takes none of the cell's classes (a box, not a code cell)
        try:
            book_doc = app.config.dpc_rerun_docname or docname
        except AttributeError:  # the book's build: the page is the chapter's
            book_doc = docname
        box_node = box(
            chapter_id,
            params,
            requires,
            values,
            command,
            lang,
            rerun=bool(stored),
            docname=book_doc,
        )
        cell.parent.replace(cell, box_node)


def setup(app) -> dict[str, Any]:
    """Sphinx extension (loaded by :mod:`dpcompendium.book.tidy`): the box replaces the parameters cell when a page
    is read, before tidy shows and folds the page's code (``doctree-read``, priority 400 < tidy's 500)."""
    app.connect("doctree-read", replace_parameters_cell, priority=400)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
