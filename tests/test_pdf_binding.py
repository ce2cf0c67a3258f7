"""The binding of the book's PDF (``dpcompendium.book.pdf``) without Chromium: the parts of ``_toc.yml``, the page
numbers stamped through a volume, the bookmarks rebuilt from the pages' headings, the contents' numbers."""

from __future__ import annotations

import re

import pytest
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


def test_running_heads_name_the_page_and_the_section_in_effect(tmp_path):
    """A page's running head is its title and the section in effect (the first starting on the page, else the last
    started before it); a page's first page and the front matter have none."""
    H = pdf.Heading
    chapter = pdf.Entry("notebooks/x", tmp_path / "x.pdf", "1. X", start=3, pages=5)
    chapter.headings = [H("1. X", 0, 800.0, [H("1.1. A", 0, 700.0), H("1.2. B", 2, 500.0),
                                             H("1.3. C", 2, 200.0)])]  # fmt: skip
    intro = pdf.Entry("book/intro", tmp_path / "i.pdf", "Intro", start=0, pages=3)
    intro.headings = [H("Intro", 0, 800.0)]
    heads = pdf.running_heads([("", [intro]), ("Chapters", [chapter])], offset=2)
    assert heads == {
        3: ("Intro", ""),
        4: ("Intro", ""),
        6: ("1. X", "1.1. A"),
        7: ("1. X", "1.2. B"),
        8: ("1. X", "1.3. C"),
        9: ("1. X", "1.3. C"),
    }
    html = pdf._heads_html(list(heads.values()))
    assert html.count('class="p"') == len(heads) and "1.3. C" in html
    # Chinese has no italic (the renderer would slant the CJK glyphs): the Chinese volume's heads are upright
    zh = pdf._heads_html(list(heads.values()), "zh_CN")
    assert '<html lang="zh-CN">' in zh and ":lang(zh) .h .c { font-style: normal; }" in zh


def test_a_running_head_names_the_short_titles(tmp_path):
    """A running head holds the short titles of the page and of its section, up to their colons (reader review 5,
    m8: "4. Federated PCA under differential priv…" and "4.6. Captured energy: … a fall for DPdis…" were cut), in
    either language; the page's title is never cut in the printed head."""
    H = pdf.Heading
    title = (
        "4. Federated PCA under differential privacy: the shared-seed protocol, its flaw and a fix"
    )
    section = (
        "4.6. Captured energy: central level for the pooled-noise protocols, a fall for DPdisPCA"
    )
    chapter = pdf.Entry("notebooks/f", tmp_path / "f.pdf", title, start=0, pages=2)
    chapter.headings = [H(title, 0, 800.0, [H(section, 1, 700.0)])]
    assert pdf.running_heads([("", [chapter])], offset=0) == {
        1: ("4. Federated PCA under differential privacy", "4.6. Captured energy")
    }
    assert pdf.short_title("5.4. 实验二：HierA 与统一的本地差分隐私均值机制") == "5.4. 实验二"
    assert pdf.short_title("3. MWEM: private synthetic histograms") == "3. MWEM"
    # a colon without a space is no end of a short title (a ratio, a time)
    assert pdf.short_title("2.1. Odds 3:1 against") == "2.1. Odds 3:1 against"
    assert ".h .c { flex: 0 0 auto;" in pdf._heads_html([("4. F", "4.6. C")])


def test_overlay_draws_over_the_chosen_pages_only(tmp_path):
    """The overlay's page j is drawn over the volume's page pages[j], after (over) the page's own content."""
    from pypdf.generic import DecodedStreamObject, DictionaryObject, NameObject

    over = PdfWriter()
    for word in ("HEADONE", "HEADTWO"):
        page = over.add_blank_page(*pdf.A4)
        font = DictionaryObject({NameObject("/Type"): NameObject("/Font"),
                                 NameObject("/Subtype"): NameObject("/Type1"),
                                 NameObject("/BaseFont"): NameObject("/Courier")})  # fmt: skip
        page[NameObject("/Resources")] = DictionaryObject(
            {NameObject("/Font"): DictionaryObject({NameObject("/F1"): over._add_object(font)})}
        )
        content = DecodedStreamObject()
        content.set_data(f"BT /F1 8 Tf 50 820 Td ({word}) Tj ET".encode())
        page[NameObject("/Contents")] = over._add_object(content)
    with open(tmp_path / "heads.pdf", "wb") as fh:
        over.write(fh)
    writer = PdfWriter()
    for _ in range(4):
        writer.add_blank_page(*pdf.A4)
    pdf._overlay(writer, [1, 3], tmp_path / "heads.pdf")
    pdf._stamp(writer, first=1)
    with open(tmp_path / "v.pdf", "wb") as fh:
        writer.write(fh)
    reader = PdfReader(tmp_path / "v.pdf")
    texts = [reader.pages[i].extract_text() for i in range(4)]
    assert "HEADONE" in texts[1] and "HEADTWO" in texts[3]
    assert "HEAD" not in texts[0] + texts[2]
    assert [stamped(reader, i) for i in range(1, 4)] == [["2"], ["3"], ["4"]]


CMAP = b"""/CIDInit /ProcSet findresource begin
12 dict begin
begincmap
/CMapName /Adobe-Identity-UCS def
1 begincodespacerange
<00> <FF>
endcodespacerange
2 beginbfchar
<35> <2F0A>
<41> <5B57>
endbfchar
2 beginbfrange
<50> <52> <2ED3>
<60> <61> [<2F45> <0041>]
endbfrange
endcmap
end
"""


def test_mended_cmap_maps_radicals_to_their_ideographs_in_chars_and_ranges():
    """A /ToUnicode map whose text is a radical (U+2F0A for 入, U+2ED3 for 长) is rewritten with the ideograph, in
    single entries and in both forms of ranges; other entries keep their text; a map without radicals is left."""
    mapping = {0x2F0A: 0x5165, 0x2ED3: 0x957F, 0x2F45: 0x65B9}
    mended = pdf._mended_cmap(CMAP, mapping)
    pairs = dict(re.findall(rb"<([0-9A-F]+)> <([0-9A-F]+)>", mended.split(b"endcodespacerange")[1]))
    text = {int(k, 16): bytes.fromhex(v.decode()).decode("utf-16-be") for k, v in pairs.items()}
    assert text == {
        0x35: "入",
        0x41: "字",
        0x50: "长",
        0x51: "\u2ed4",
        0x52: "\u2ed5",
        0x60: "方",
        0x61: "A",
    }
    assert mended.startswith(CMAP.split(b"endcodespacerange")[0]) and mended.rstrip().endswith(
        b"end"
    )
    assert pdf._mended_cmap(CMAP, {0x2F00: 0x4E00}) is None


def test_radicals_map_to_the_ideographs_of_the_same_glyph():
    """With a Chinese font installed (CI installs Noto CJK): 入, 方, 门, 长 and the simplified 户 (not NFKC's 戶)."""
    import pytest

    mapping = pdf.radical_ideographs()
    if not mapping:
        pytest.skip("no font for Chinese (fc-match :lang=zh-cn)")
    for radical, ideograph in [
        ("⼊", "入"),
        ("⽅", "方"),
        ("⻔", "门"),
        ("⻓", "长"),
        ("⼾", "户"),
    ]:
        assert chr(mapping[ord(radical)]) == ideograph
    assert all(0x2E80 <= r < 0x2FE0 and r != i for r, i in mapping.items())


def test_book_pdfs_waits_for_every_edition_and_names_the_ones_that_failed(tmp_path):
    """book_pdfs prints the other editions in processes of their own and, once every one has ended, raises naming
    each edition that failed (here both: no built HTML), the other process's own message included."""
    html = tmp_path / "html"
    called = []
    with pytest.raises(RuntimeError) as err:
        pdf.book_pdfs(
            html,
            tmp_path / "pdf",
            pages=["book/intro"],
            langs=["en", "zh_CN"],
            ready=lambda lang, book: called.append(lang),
        )
    text = str(err.value)
    assert "en: pages not built in" in text and str(html) in text, text
    assert "zh_CN: exit status 1" in text and str(html / "zh_CN") in text, text
    assert called == []  # an edition that failed is handed to no one


def test_book_pdfs_hands_each_edition_to_ready_as_soon_as_it_is_printed(tmp_path, monkeypatch):
    """``ready(lang, book)`` is called for the edition printed in this process as soon as it is printed, while the
    other still prints (its process here ends only after that call), then for the other once its process ended:
    tests/test_book_pdf.py reads the first edition's files meanwhile."""
    import threading

    calls = []
    first_handed = threading.Event()

    class OtherEdition:  # the other edition's process: it prints until the first edition has been handed over
        def __init__(self, cmd, **kwargs):
            self.cmd, self.returncode = cmd, None

        def communicate(self):
            assert first_handed.wait(30), (
                "the first edition was not handed over while the other printed"
            )
            self.returncode = 0
            return None, ""

    def print_here(html, out, pages, lang):
        book = tmp_path / f"{lang}.pdf"
        book.write_bytes(b"%PDF-1.7")
        return book

    def ready(lang, book):
        calls.append((lang, book))
        first_handed.set()

    monkeypatch.setattr(pdf.subprocess, "Popen", OtherEdition)
    monkeypatch.setattr(pdf, "book_pdf", print_here)
    made = pdf.book_pdfs(tmp_path / "html", tmp_path / "pdf", langs=["en", "zh_CN"], ready=ready)
    other = tmp_path / "pdf" / pdf.edition_pdf("zh_CN")
    assert calls == [("en", tmp_path / "en.pdf"), ("zh_CN", other)]
    assert made == {"en": tmp_path / "en.pdf", "zh_CN": other}
