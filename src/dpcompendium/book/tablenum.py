"""Numbered table captions, as the figures are numbered (issue 49, F12: "Table 2.3: …" beside "Fig. 2.3").

A chapter shows its tables as cell outputs: HTML from :class:`dpcompendium.core.tables.ReadableTable`, whose
``caption`` becomes the table's ``<caption>``. Sphinx numbers figures (``numfig``: "Fig. 2.3", the chapter's number
and the figure's place in it) but not such tables: to Sphinx they are raw HTML. This post-transform numbers them
at build time, for the HTML builders of both editions: every captioned table of a page, in the order the page shows
them, gets ``<span class="caption-number">Table 2.3 </span>`` at the start of its caption — the markup and the words
of a figure's number (``numfig_format["table"]``, which Sphinx translates: "表 2.3" in the Chinese edition), and
the chapter's number as its figures take it (the enclosing section's number, cut to ``numfig_secnum_depth``:
the chapter's, in this book), counted per that number as Sphinx counts figures. A table
without a caption is not numbered, as Sphinx numbers no uncaptioned figure. Each edition shows one output per
language, so both editions number the same tables alike. A rerun's page
(:mod:`dpcompendium.book.rerun_page`) numbers its tables as its figures, too.

It is Sphinx-only (the chapters' kernels never import it), so changing it re-executes no chapter; the numbering is
:func:`number_captions`, a pure function tested on its own (``tests/test_tablenum.py``), and on the built pages by
``tests/test_book_apparatus.py``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from docutils import nodes
from sphinx.transforms.post_transforms import SphinxPostTransform

#: A table's caption in a chapter's HTML output: its opening tag (kept), then the caption's content.
CAPTION = re.compile(r"(<caption\b[^>]*>)(?!<span class=\"caption-number\">)")
#: The class of the number's span, the one Sphinx gives a figure's number.
NUMBER_CLASS = "caption-number"


def number_captions(html: str, next_number: Callable[[], str]) -> str:
    """``html`` with a number at the start of each table caption that has none yet, in order: ``next_number()``
    gives each number's text ("Table 2.3"), which goes in a ``caption-number`` span followed by a space, as a
    figure's."""
    return CAPTION.sub(
        lambda m: f'{m.group(1)}<span class="{NUMBER_CLASS}">{next_number()} </span>', html
    )


def section_prefix(
    secnumbers: dict[str, tuple[int, ...]], sections: list[str], depth: int
) -> tuple[int, ...]:
    """The number a table's number starts with, as Sphinx gives a figure's: the section number of the innermost of
    the table's enclosing ``sections`` (their ids, innermost first) that ``secnumbers`` (Sphinx's
    ``toc_secnumbers`` of the page: ``"#id"`` → number, ``""`` → the page's own) numbers, else the page's, cut to
    ``depth`` (``numfig_secnum_depth``: 1 gives the chapter's number, "Table 2.3"); empty when the page is not
    numbered."""
    for sid in sections:
        if secnumbers.get("#" + sid):
            return tuple(secnumbers["#" + sid][:depth])
    return tuple((secnumbers.get("") or ())[:depth])


class NumberTableCaptions(SphinxPostTransform):
    """Numbers the captioned tables of a page's raw HTML outputs (see the module)."""

    default_priority = 500  # after MyST-NB's choice of the output's mime type (4) and the glue (5)
    formats = ("html",)

    def run(self, **kwargs: Any) -> None:
        if not self.config.numfig:
            return
        secnumbers = self.env.toc_secnumbers.get(self.env.docname, {})
        depth = self.config.numfig_secnum_depth
        fmt = self.config.numfig_format.get("table", "Table %s")
        counts: dict[tuple[int, ...], int] = {}

        # Sphinx's own tables with a title (a generated ``list-table``'s caption, ``messages.table``; a ``{table}``
        # directive) share the counter, in the page's order: Sphinx counts them apart from the raw outputs, which
        # would give two tables one number (reader review 3, M4)
        own = self.env.toc_fignumbers.setdefault(self.env.docname, {}).setdefault("table", {})
        for node in list(self.document.findall(_numbered)):
            sections = [
                a["ids"][0] for a in _ancestors(node) if isinstance(a, nodes.section) and a["ids"]
            ]
            prefix = section_prefix(secnumbers, sections, depth)
            if isinstance(node, nodes.table):
                if node["ids"] and prefix:
                    counts[prefix] = counts.get(prefix, 0) + 1
                    own[node["ids"][0]] = (*prefix, counts[prefix])
                continue

            def next_number(prefix: tuple[int, ...] = prefix) -> str:
                counts[prefix] = counts.get(prefix, 0) + 1
                return fmt % ".".join(str(n) for n in (*prefix, counts[prefix]))

            text = number_captions(node.astext(), next_number)
            new = nodes.raw("", text, format=node["format"])
            new.source, new.line = node.source, node.line
            node.replace_self(new)


def _numbered(node: nodes.Node) -> bool:
    """A table this transform numbers: a raw HTML output with a caption, or a Sphinx table with a title."""
    if isinstance(node, nodes.raw):
        return "html" in node.get("format", "").split() and "<caption" in node.astext()
    return isinstance(node, nodes.table) and any(isinstance(c, nodes.title) for c in node.children)


def _ancestors(node: nodes.Node) -> list[nodes.Node]:
    """``node``'s enclosing nodes, innermost first."""
    out = []
    while node.parent is not None:
        node = node.parent
        out.append(node)
    return out


#: The class that makes a prose table cards on a phone (``_static/dpcompendium.css``, the claims' card rules).
CARDS_CLASS = "dpc-cards"


def is_prose_table(node: nodes.Node) -> bool:
    """A table the page's text writes (a markdown table, or one in a ``{table}`` directive, captioned or not), not
    one a chapter's code renders: no ``dpc-`` class (the claims, generated verdict tables, the rerun box's
    parameters, the execution report) and not inside a cell's output."""
    if not isinstance(node, nodes.table):
        return False
    if any(str(c).startswith("dpc-") for c in node.get("classes", [])):
        return False
    return not any(
        isinstance(a, nodes.Element) and "cell_output" in a.get("classes", [])
        for a in _ancestors(node)
    )


class ProseTableCards(SphinxPostTransform):
    """Marks the prose tables of a page (:func:`is_prose_table`: "Comparison with the source", "Where the source is
    wrong", the primer's notation) with :data:`CARDS_CLASS`, so that on a phone each row is a card, as the claims
    are (reader review 5, M2: hiera's errata table was 783 px in a 358-px column, because its caption had made
    the page's script pass it by). A wide screen and print keep the table; dpcompendium.js copies each column's
    name into its cells' ``data-label`` for the card's labels."""

    default_priority = 510
    formats = ("html",)

    def run(self, **kwargs: Any) -> None:
        for node in self.document.findall(is_prose_table):
            if CARDS_CLASS not in node["classes"]:
                node["classes"].append(CARDS_CLASS)


def setup(app) -> dict[str, Any]:
    app.add_post_transform(NumberTableCaptions)
    app.add_post_transform(ProseTableCards)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
