"""The binding of the book's PDF (``dpcompendium.book.pdf``) without Chromium: the parts of ``_toc.yml``, the page
numbers stamped through a volume, the bookmarks rebuilt from the pages' headings, the contents' numbers."""

from __future__ import annotations

import re

from pypdf import PdfReader, PdfWriter

from dpcompendium.book import pdf


def test_toc_parts_cover_every_page_once_in_order():
    parts = pdf.toc_parts()
    assert parts[0] == ("", ["book/intro"])
    flat = [p for _, pages in parts for p in pages]
    assert flat == pdf.toc_pages()
    captions = [c for c, _ in parts[1:]]
    assert "Chapters" in captions and all(captions)


def stamped(reader: PdfReader, i: int) -> list[str]:
    found: list[str] = []

    def visit(text, cm, tm, font, size):
        if text.strip() and font and font.get("/BaseFont") == "/Helvetica":
            found.append(text.strip())

    reader.pages[i].extract_text(visitor_text=visit)
    return found


def test_stamp_numbers_every_page_but_the_first(tmp_path):
    writer = PdfWriter()
    for _ in range(5):
        writer.add_blank_page(*pdf.A4)
    pdf._stamp(writer, first=1)
    path = tmp_path / "v.pdf"
    with open(path, "wb") as fh:
        writer.write(fh)
    reader = PdfReader(path)
    assert stamped(reader, 0) == []
    assert [stamped(reader, i) for i in range(1, 5)] == [["2"], ["3"], ["4"], ["5"]]


def test_outline_nests_headings_and_contents_numbers_follow_the_pages(tmp_path):
    H = pdf.Heading
    chapter = pdf.Entry("notebooks/x", tmp_path / "x.pdf", "1. X", start=3, pages=4)
    chapter.headings = [H("1. X", 0, 800.0, [H("1.1. A", 1, 700.0), H("1.2. B", 3, 500.0)])]
    intro = pdf.Entry("book/intro", tmp_path / "i.pdf", "Intro", start=0, pages=3)
    intro.headings = [H("Intro", 0, 800.0)]
    parts = [("", [intro]), ("Chapters", [chapter])]
    numbers = pdf._numbers(parts, offset=2)
    assert numbers[("book/intro", -1)] == 3
    assert numbers[("notebooks/x", -1)] == 6
    assert [numbers[("notebooks/x", i)] for i in (0, 1)] == [7, 9]
    html = pdf._front_html("T", "S", "M", "W", parts, numbers)
    rows = re.findall(
        r'<span class="t">([^<]*)</span><span class="d"></span><span class="n">(\d+)', html
    )
    assert rows == [("Intro", "3"), ("1. X", "6"), ("1.1. A", "7"), ("1.2. B", "9")]
    writer = PdfWriter()
    for _ in range(10):
        writer.add_blank_page(*pdf.A4)
    pdf._add_outline(writer, chapter.headings, 5, None)
    path = tmp_path / "o.pdf"
    with open(path, "wb") as fh:
        writer.write(fh)
    reader = PdfReader(path)
    top, children = reader.outline
    assert top.title == "1. X" and reader.get_destination_page_number(top) == 5
    assert [(c.title, reader.get_destination_page_number(c)) for c in children] == [
        ("1.1. A", 6),
        ("1.2. B", 8),
    ]
