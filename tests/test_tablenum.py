"""Numbered table captions (issue 49, F12): ``dpcompendium.book.tablenum``'s pure parts. The built pages are checked
by ``tests/test_book_apparatus.py``."""

from __future__ import annotations

import itertools

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
