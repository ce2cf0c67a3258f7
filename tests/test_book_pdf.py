"""The PDF of the book (``make pdf``: ``dpcompendium.book.pdf`` prints the built HTML with Debian's Chromium).

The module's fixture prints the book into ``_build/pdf`` (the files ``make pdf`` leaves there and the Pages workflow
publishes), then: the book has a page or more per page of ``_toc.yml`` and one bookmark per page; each chapter's PDF
holds the chapter's title and its figures (image objects, as many as the chapter declares); the glossary's Chinese
terms are text in the PDF (extracted from it, so drawn with a real CJK font, not boxes). Needs ``_build/html``
(``make book``) and ``/usr/bin/chromium``; skips when the book is not built, fails when Chromium is missing.
"""

from __future__ import annotations

import json
import os
import re
import unicodedata
from pathlib import Path

import pytest
from test_book_browser import CHAPTER_PAGES, HTML, PAGES, ROOT, declared_figures

pytestmark = [pytest.mark.book, pytest.mark.pdf]

OUT = ROOT / "_build" / "pdf"
CJK = re.compile(r"[\u4e00-\u9fff]+")


@pytest.fixture(scope="module")
def book():
    if not HTML.is_dir():
        pytest.skip(f"the book is not built: no {HTML} (run 'make book' first)")
    from dpcompendium.book import pdf

    if not os.access(pdf.CHROMIUM, os.X_OK):
        pytest.fail(f"no Chromium at {pdf.CHROMIUM}: apt-get install chromium (.ci/run does)")
    return pdf.book_pdf(HTML, OUT)


def chapter_title(page: str) -> str:
    nb = json.loads((ROOT / f"{page}.ipynb").read_text(encoding="utf8"))
    first = "".join(nb["cells"][0]["source"]).splitlines()[0]
    return first.lstrip("# ").strip()


def flat(text: str) -> str:
    """Extracted text as one line, ligatures (ﬀ, ﬁ) undone."""
    return re.sub(r"\s+", " ", unicodedata.normalize("NFKC", text))


def test_book_has_every_page_and_a_bookmark_each(book):
    from pypdf import PdfReader

    reader = PdfReader(book)
    per_page = [PdfReader(OUT / "pages" / (p.replace("/", "__") + ".pdf")) for p in PAGES]
    assert len(reader.pages) == sum(len(r.pages) for r in per_page) >= len(PAGES)
    assert len(reader.outline) == len(PAGES)
    titles = [item.title for item in reader.outline]
    for page in CHAPTER_PAGES:
        assert chapter_title(page) in " ".join(titles), (page, titles)


@pytest.mark.parametrize("page", CHAPTER_PAGES)
def test_chapter_pdf_has_its_title_and_figures(book, page):
    from pypdf import PdfReader

    reader = PdfReader(OUT / f"{Path(page).name}.pdf")
    first = flat(reader.pages[0].extract_text())
    assert chapter_title(page) in first, (chapter_title(page), first[:300])
    images = sum(len(p.images) for p in reader.pages)
    assert images >= len(declared_figures(page)) > 0, (page, images)


def test_glossary_chinese_terms_are_text(book):
    from pypdf import PdfReader

    terms = set(CJK.findall((ROOT / "book" / "glossary.md").read_text(encoding="utf8")))
    assert len(terms) > 50
    reader = PdfReader(OUT / "pages" / "book__glossary.pdf")
    # a term may wrap inside its table cell: compare without white space; NFKC as text extractors do (the CJK
    # font's Unicode map names some ideographs by their Kangxi-radical code points, 心 as U+2F3C)
    text = re.sub(r"\s+", "", flat("".join(p.extract_text() for p in reader.pages)))
    missing = sorted(t for t in terms if t not in text)
    assert not missing, (
        f"{len(missing)} of {len(terms)} Chinese terms not extractable: {missing[:10]}"
    )
