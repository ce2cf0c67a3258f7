"""Numbered table captions (issue 49, F12): ``dpcompendium.book.tablenum``'s pure parts. The built pages are checked
by ``tests/test_book_apparatus.py``."""

from __future__ import annotations

import itertools
import re

from docutils import nodes

from dpcompendium.book.tablenum import number_captions, section_prefix


def _numbers(fmt: str, prefix: tuple[int, ...]):
    counter = itertools.count(1)
    return lambda: fmt % ".".join(str(n) for n in (*prefix, next(counter)))


def test_each_caption_gets_the_next_number_in_page_order_as_a_figure_would():
    html = (
        '<table class="dpc-table"><caption>Bounds: a condition</caption><thead></thead></table>'
        '<table class="dpc-table"><thead></thead></table>'  # no caption: no number
        '<table><caption class="x">Energy at <span class="math">\\(\\varepsilon\\)</span></caption></table>'
    )
    out = number_captions(html, _numbers("Table %s", (4,)))
    assert out.count('<span class="caption-number">') == 2
    assert (
        '<caption><span class="caption-number">Table 4.1 </span>Bounds: a condition</caption>'
        in out
    )
    assert '<caption class="x"><span class="caption-number">Table 4.2 </span>Energy at ' in out
    # numbered once: a second pass (a page resolved again) adds nothing
    assert number_captions(out, _numbers("Table %s", (4,))) == out
    # the Chinese edition's words, from Sphinx's translated numfig_format
    zh = number_captions(html, _numbers("表 %s", (4,)))
    assert '<span class="caption-number">表 4.1 </span>' in zh
    assert number_captions("<table><thead></thead></table>", _numbers("Table %s", ())) == (
        "<table><thead></thead></table>"
    )


def test_the_prefix_is_the_enclosing_sections_number_cut_to_the_numfig_depth():
    numbers = {"": (3,), "#methods": (3, 2), "#methods-a": (3, 2, 1)}
    assert section_prefix(numbers, ["methods-a", "methods", "top"], 1) == (3,)
    assert section_prefix(numbers, ["methods-a", "methods", "top"], 2) == (3, 2)
    assert section_prefix(numbers, ["unnumbered", "methods"], 3) == (3, 2)
    assert section_prefix(numbers, ["top"], 1) == (3,)  # the page's own number
    assert section_prefix({}, ["top"], 1) == ()  # a page outside the numbered toctree
    assert section_prefix(numbers, ["methods"], 0) == ()


def test_a_generated_tables_title_and_a_raw_caption_share_one_counter_in_page_order(tmp_path):
    """A Sphinx table with a title (a generated ``list-table``'s caption) and a raw HTML output's captioned table are
    numbered by one counter in the page's order, so no two tables share a number (reader review 3, M4)."""
    from sphinx.application import Sphinx

    src = tmp_path / "src"
    src.mkdir()
    (src / "conf.py").write_text(
        "extensions = ['myst_parser', 'dpcompendium.book.tablenum']\n"
        "numfig = True\nnumfig_secnum_depth = 1\n"
    )
    (src / "index.md").write_text(
        "# Book\n\n```{toctree}\n:numbered:\nchap\n```\n", encoding="utf-8"
    )
    (src / "chap.md").write_text(
        "# Chapter\n\n## One\n\n"
        '```{raw} html\n<table class="dpc-table"><caption>First</caption><tr><td>1</td></tr></table>\n```\n\n'
        "```{list-table} Second\n:header-rows: 1\n\n* - a\n  - b\n* - 1\n  - 2\n```\n\n"
        '```{raw} html\n<table class="dpc-table"><caption>Third</caption><tr><td>3</td></tr></table>\n```\n',
        encoding="utf-8",
    )
    out = tmp_path / "out"
    app = Sphinx(
        str(src), str(src), str(out), str(tmp_path / "doctrees"), "html", status=None, warning=None
    )
    app.build()
    html = (out / "chap.html").read_text(encoding="utf-8")
    captions = [
        " ".join(re.sub(r"<[^>]+>", " ", c).replace("¶", "").split())
        for c in re.findall(r"<caption[^>]*>(.*?)</caption>", html, flags=re.S)
    ]
    # the numbers' word is Sphinx's translated "Table" (a worker that built the Chinese edition before may give 表)
    numbered = [re.sub(r"^(Table|表) ", "", c) for c in captions]
    assert numbered == ["1.1 First", "1.2 Second", "1.3 Third"], captions


_PAGE = """
Where the source is wrong
=========================

.. table:: Where the source's code departs from it

   ====  ======  ====
   #     where   here
   ====  ======  ====
   1     Alg. 3  the code's condition
   ====  ======  ====

=====  =====
what   here
=====  =====
a      b
=====  =====

.. table::
   :class: dpc-generated-table

   ===  ===
   x    y
   ===  ===
   1    2
   ===  ===

.. container:: output

   ===  ===
   n    ε
   ===  ===
   1    2
   ===  ===
"""


def test_prose_tables_captioned_or_not_are_cards_and_rendered_tables_are_not():
    """Reader review 5, M2: a captioned prose table (a ``{table}`` directive) was passed by (hiera's errata table,
    783 px on a phone); the renderer marks every table the page's text writes, and no table a chapter's code
    renders (a ``dpc-`` class, a cell's output)."""
    from docutils.core import publish_doctree, publish_from_doctree

    from dpcompendium.book.tablenum import CARDS_CLASS, ProseTableCards, is_prose_table

    doc = publish_doctree(_PAGE, settings_overrides={"report_level": 5})
    for box in doc.findall(nodes.container):
        # as MyST-NB names a cell's output (docutils would write cell-output)
        box["classes"] = ["cell_output"]
    tables = list(doc.findall(nodes.table))
    assert len(tables) == 4
    assert [is_prose_table(t) for t in tables] == [True, True, False, False]
    assert not is_prose_table(nodes.paragraph())
    ProseTableCards(doc).run()
    ProseTableCards(doc).run()  # marked once
    assert [t["classes"].count(CARDS_CLASS) for t in tables] == [1, 1, 0, 0]
    html = publish_from_doctree(doc, writer_name="html5").decode()
    assert len(re.findall(r'<table class="[^"]*\bdpc-cards\b', html)) == 2
