"""PDF of the book, of each chapter, and of a rerun's page, printed by Debian's Chromium.

``make pdf`` (``python -m dpcompendium.book.pdf``) prints every page of the built book (``_build/html``, in the order of
``_toc.yml``) with headless Chromium driven by playwright (the ``/usr/bin/chromium`` the browser test uses; no
browser is downloaded), after MathJax has typeset the page, every image has loaded and every font is ready; the
book's print stylesheet (``_static/dpcompendium.css``, ``@media print``) hides the navigation and wraps code
instead of cutting it. Each page is loaded straight into the layout it is printed in (print media, the printed
column's width) and served without the scripts that print nothing (``NOT_PRINTED``: the search index, the icon
font, the navigation's scripts), so that Chromium lays it out once and runs only what the print shows.
Then it binds the pages into books (with pypdf, nothing else):

- ``_build/pdf/dpcompendium.pdf``, the book: a title page and a contents with page numbers (generated HTML,
  printed by the same Chromium), then the pages of ``_toc.yml`` but the Library reference, one page numbering from
  the title page to the end (stamped on every page but the title page: Chromium's footer would restart it in every
  chapter), running heads (the short titles of the page and of the section in effect on that page, up to their
  colons and never cut with "…" (:func:`short_title`), in the top margin of every page
  of the book but the front matter and each page's first: :func:`running_heads`, typeset by the same Chromium and
  laid over the pages), nested bookmarks (part → chapter → section → subsection, from the headings of each page:
  Chromium's document outline), each with a destination (a part's is its first page);
- ``_build/pdf/dpcompendium-api.pdf``, the Library reference as its own volume, bound the same way;
- ``_build/pdf/<chapter>.pdf``, each chapter: its pages of the book (the book's page numbers and bookmarks),
  ending with its references (the works it cites, taken from the book's bibliography page while it is printed);
- ``_build/pdf/report.json``: per printed page its title, pages, first page in its volume, references listed,
  display equations wider than the printed column (``tests/test_book_pdf.py`` checks there are none), its tables
  and each figure's printed share of its design size (figures print at their design size, never below ``FIGURE_MIN_SCALE`` of it).

The glossary's Chinese terms need a CJK font on the machine (Debian's ``fonts-noto-cjk``; ``.ci/run`` installs it):
Chromium embeds it, so the terms are text in the PDF. ``dpcompendium run CHAPTER ... --pdf`` prints a rerun's page
(``DIR/CHAPTER/index.pdf``) with Chromium's own footer (page n / N).

    python -m dpcompendium.book.pdf [--html _build/html] [--out _build/pdf] [--page notebooks/<id> ...]
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import functools
import html as htmllib
import http.server
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import yaml

from ..chapters.registry import toc_files
from ..core.paths import repo_root
from ..core.plotting import MIN_FONT_PT
from .i18n import text_in

__all__ = [
    "API_PDF",
    "BOOK_PDF",
    "Printed",
    "blank_shares",
    "book_pdf",
    "book_pdfs",
    "chromium",
    "edition_pdf",
    "page_pdf",
    "page_texts",
    "page_words",
    "print_pages",
    "running_heads",
    "short_title",
    "toc_pages",
    "toc_parts",
]

#: The page is laid out PRINT_SCALE times narrower than A4's text width in CSS px and printed smaller: an A4 text
#: column (182 mm, 688 CSS px) then holds what the screen's 850 px column holds (tables, display math, code),
#: with body text at 0.8 × 16 px ≈ 9.6 pt.
PRINT_SCALE = 0.8
#: The file names of the book's PDF and of the Library reference's volume.
BOOK_PDF = "dpcompendium.pdf"
API_PDF = "dpcompendium-api.pdf"


def edition_pdf(lang: str) -> str:
    """The file name of the book's PDF in edition ``lang``: ``dpcompendium-zh_CN.pdf``."""
    return BOOK_PDF if lang == "en" else f"{Path(BOOK_PDF).stem}-{lang}.pdf"


#: Pages under this folder make the Library reference's volume.
API_FOLDER = "book/api/"
CHROMIUM = os.environ.get("DPCOMPENDIUM_CHROMIUM", "/usr/bin/chromium")
_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--font-render-hinting=none"]  # fmt: skip
#: A4 in PostScript points, the page margins in mm (the footer sits in the bottom margin).
A4 = (595.28, 841.89)
MARGIN_MM = {"top": 14, "bottom": 16, "left": 14, "right": 14}
_MM = 72 / 25.4
#: The printed column in CSS px of the page's layout (A4 width less the margins, at PRINT_SCALE).
PRINT_WIDTH_PX = round((210 - MARGIN_MM["left"] - MARGIN_MM["right"]) / 25.4 * 96 / PRINT_SCALE)

#: Run in every page before its own scripts: the theme's light colours and sizes, as the theme's script (not served
#: for print: NOT_PRINTED) sets them (``html[data-theme="light"]``) from the page's first script, which reads them here.
_LIGHT = "try { localStorage.setItem('mode', 'light'); localStorage.setItem('theme', 'light'); } catch (e) {}"
#: Run in the page before printing: MathJax done, lazy images loaded, fonts ready; returns the page's title.
_SETTLE = """
async () => {
  if (window.MathJax && MathJax.startup && MathJax.startup.promise) { await MathJax.startup.promise; }
  const imgs = Array.from(document.images);
  for (const img of imgs) { if (img.loading === 'lazy') img.loading = 'eager'; }
  await Promise.all(imgs.map(img => img.complete ? null : new Promise(r => {
    img.addEventListener('load', r); img.addEventListener('error', r); setTimeout(r, 15000);
  })));
  await document.fonts.ready;
  const h1 = document.querySelector('main h1, article h1, h1');
  return (h1 ? h1.textContent : document.title).replace(/[#¶]\\s*$/, '').trim();
}
"""
#: Run in a page of the book before printing: the works it cites (links to the bibliography page), copied from the
#: bibliography page in the order they are listed there, end the page: in its last section when that is the
#: chapter's "References" (the prose naming the works, then the list), else in a new last section "Works cited" (both
#: in the edition's language);
#: returns how many. The bibliography page itself and pages that cite nothing are left as they are.
_REFERENCES = """
async ([bibliography, references, worksCited]) => {
  const main = document.querySelector('main article, article.bd-article, main') || document.body;
  const ids = new Set();
  for (const a of main.querySelectorAll('a[href*="bibliography.html#"]')) {
    ids.add(decodeURIComponent(a.getAttribute('href').split('#')[1]));
  }
  if (!ids.size) return 0;
  const text = await (await fetch(bibliography)).text();
  const doc = new DOMParser().parseFromString(text, 'text/html');
  const entries = Array.from(doc.querySelectorAll('div.citation[id]')).filter(e => ids.has(e.id));
  if (!entries.length) return 0;
  const top = main.querySelector('section') || main;
  const sections = top.querySelectorAll(':scope > section');
  const last = sections.length ? sections[sections.length - 1] : null;
  const heading = last && last.querySelector(':scope > h2, :scope > h3');
  let section = last;
  if (!(heading && heading.textContent.trim().replace(/\\s*#$/, '').endsWith(references))) {
    section = document.createElement('section');
    section.id = 'dpc-works-cited';
    const h2 = document.createElement('h2');
    h2.textContent = worksCited;
    section.appendChild(h2);
    top.appendChild(section);
  }
  const list = document.createElement('div');
  list.className = 'citation-list dpc-works-cited';
  list.setAttribute('role', 'list');
  for (const e of entries) {
    const copy = document.importNode(e, true);
    copy.removeAttribute('id');
    list.appendChild(copy);
  }
  section.appendChild(list);
  return entries.length;
}
"""
#: Run in the page in print media: the text of its headings in document order (Chromium's outline is built from
#: them, but joins the text of some, e.g. "The Gaussian mechanismThe Gaussian mechanism").
_HEADINGS = """
() => Array.from(document.querySelectorAll('h1, h2, h3, h4, h5, h6'))
  .filter(h => h.getClientRects().length > 0)
  .map(h => { const c = h.cloneNode(true); c.querySelectorAll('.headerlink').forEach(n => n.remove());
              return c.textContent.replace(/\\s+/g, ' ').trim(); })
"""
#: Run in the page laid out at the printed column's width (print media): the display equations wider than their
#: box, i.e. the ones the PDF would clip (MathJax's container scrolls on screen, and is cut in print).
WIDE_MATH = """
() => {
  const out = [];
  for (const c of document.querySelectorAll('main mjx-container[display="true"], article mjx-container[display="true"]')) {
    if (!c.getClientRects().length) continue;
    const box = c.parentElement.getBoundingClientRect();
    const math = (c.querySelector('mjx-math') || c).getBoundingClientRect();
    const over = Math.max(c.scrollWidth - c.clientWidth, math.width - box.width, math.right - box.right);
    if (over > 1) out.push({over: Math.round(over), tex: (c.parentElement.textContent || '').trim().slice(0, 80)});
  }
  return out;
}
"""
#: The tallest a table may be in the printed layout, in CSS px of the layout: a page's text area less its header
#: row repeated, so that no table spans more than two pages of the PDF (tests/test_book_pdf.py measures the pages
#: each table is on). The claims tables, cards in print (no longer laid out as tables), are not cut.
TABLE_MAX_PX = round(
    0.96 * (297 - MARGIN_MM["top"] - MARGIN_MM["bottom"]) / 25.4 * 96 / PRINT_SCALE
)
#: Run in a page of the book laid out for print: the claims tables become cards (a definition list per claim: not a
#: table on paper); a table taller than ``limit`` px is set in a smaller type
#: (``table.dpc-compact``, dpcompendium.css); if it is still too tall (a catalogue) it keeps the rows that fit and is
#: followed by a note (``note``: the rows shown, the rows in all, the online page that has the whole table). Returns
#: every table's rows, rows kept, height and height before (the catalogue is whole online and in its CSV).
_LONG_TABLES = """
([limit, note]) => {
  const main = document.querySelector('main article, article.bd-article, main') || document.body;
  // the claims tables as cards: per row its claim, then a definition list "column: value" (empty values left out)
  for (const t of main.querySelectorAll('table.dpc-claims')) {
    const names = Array.from(t.querySelectorAll('thead th')).map(th => th.textContent.trim());
    const list = document.createElement('div');
    list.className = 'dpc-claims-cards';
    for (const tr of t.querySelectorAll('tbody tr')) {
      const cells = Array.from(tr.cells);
      const card = document.createElement('div');
      card.className = 'dpc-card';
      const title = document.createElement('p');
      title.className = 'dpc-card-title';
      while (cells[0] && cells[0].firstChild) title.appendChild(cells[0].firstChild);
      const dl = document.createElement('dl');
      cells.slice(1).forEach((c, k) => {
        if (!c.textContent.trim() && !c.querySelector('mjx-container, li')) return;
        const dt = document.createElement('dt');
        dt.textContent = names[k + 1] || '';
        const dd = document.createElement('dd');
        while (c.firstChild) dd.appendChild(c.firstChild);
        dl.append(dt, dd);
      });
      card.append(title, dl);
      list.appendChild(card);
    }
    t.replaceWith(list);
  }
  const out = [];
  for (const t of main.querySelectorAll('table')) {
    if (t.closest('.cell_input, .highlight') || t.parentElement.closest('table') || !t.getClientRects().length) continue;
    const rows = Array.from(t.tBodies).flatMap(b => Array.from(b.rows));
    const box = t.getBoundingClientRect();
    const item = {rows: rows.length, kept: rows.length, height: Math.round(box.height), full: Math.round(box.height)};
    if (box.height > limit) {  // first set in a smaller type, then cut if it is still too tall
      t.classList.add('dpc-compact');
      item.height = Math.round(t.getBoundingClientRect().height);
    }
    if (t.getBoundingClientRect().height > limit && rows.length > 1) {
      const p = document.createElement('p');
      p.className = 'dpc-table-more';
      p.textContent = note;
      const after = t.closest('.pst-scrollable-table-container, .output, div.cell_output') || t;
      after.insertAdjacentElement('afterend', p);
      let kept = rows.length;
      while (kept > 1 && t.getBoundingClientRect().height + p.getBoundingClientRect().height > limit) {
        kept -= 1;
        rows[kept].remove();
      }
      p.textContent = note.replace('%(kept)s', kept).replace('%(rows)s', rows.length);
      item.kept = kept;
      item.height = Math.round(t.getBoundingClientRect().height);
    }
    out.push(item);
  }
  return out;
}
"""
#: Run in every page laid out for print, after ``_LONG_TABLES``: each table's caption becomes a block of its own just
#: before the table (``div.dpc-table-caption``, styled as the caption was), kept whole and with the table's first rows
#: by the print stylesheet. Chromium does not honour ``break-after: avoid`` between a ``<caption>`` and the table's
#: rows (inside one table box it breaks there freely: Tables 1.3, 3.19, 3.20 and 4.13 ended a page alone), but it
#: does between two blocks (tests/test_book_pdf.py prints a caption at every height of a page's foot). The page
#: on screen is unchanged. Returns how many captions it moved.
_CAPTIONS = """
() => {
  const main = document.querySelector('main article, article.bd-article, main') || document.body;
  const kept = ['font-size', 'font-style', 'font-weight', 'color', 'text-align', 'line-height', 'padding-top',
                'padding-bottom', 'margin-top', 'margin-bottom'];
  let moved = 0;
  for (const t of main.querySelectorAll('table')) {
    const c = t.caption;
    if (!c || t.closest('.cell_input, .highlight') || t.parentElement.closest('table')) continue;
    const style = getComputedStyle(c);
    const d = document.createElement('div');
    d.className = 'dpc-table-caption';
    for (const k of kept) d.style.setProperty(k, style.getPropertyValue(k));
    while (c.firstChild) d.appendChild(c.firstChild);
    c.remove();
    (t.closest('.pst-scrollable-table-container') || t).insertAdjacentElement('beforebegin', d);
    moved += 1;
  }
  return moved;
}
"""
#: A figure of the book prints at its design size (reader review F8: text of 4 pt on paper): the physical size its
#: width gives (CSS px at 96 per inch, ``dpcompendium.book.chapter``), so that a point of the figure is a
#: point on paper — never wider than the column, and a figure taller than FIGURE_MAX_HEIGHT_MM on paper (more than a
#: third of the text area: it would leave the page before it half empty when it moves to the next one) is shown
#: smaller, but never below FIGURE_MIN_SCALE of its size: its smallest text (plotting.MIN_FONT_PT) stays at least
#: FIGURE_MIN_TEXT_PT on paper (tests/test_book_pdf.py measures it in the PDF).
FIGURE_MIN_TEXT_PT = 7.0
FIGURE_MIN_SCALE = FIGURE_MIN_TEXT_PT / MIN_FONT_PT
FIGURE_MAX_HEIGHT_MM = 90
#: Run in a page laid out for print: every image with a width in px (its design size; its style's or its
#: attribute's) set at that size on paper
#: (``perInch``: layout px per printed inch), shrunk to ``maxHeight`` layout px if taller but not below ``minScale``;
#: returns each one's printed share of its design width.
_FIGURES = """
([perInch, minScale, maxHeight]) => {
  const main = document.querySelector('main article, article.bd-article, main') || document.body;
  const out = [];
  for (const img of main.querySelectorAll('img')) {
    // the design width: MyST-NB writes it as the image's style (width: 606px), a plain <img> as its attribute
    const w = parseFloat(img.style.width) || parseFloat(img.getAttribute('width'));
    if (!(w > 0) || !img.naturalWidth || !img.getClientRects().length) continue;
    const design = w / 96 * perInch;
    const tall = design * img.naturalHeight / img.naturalWidth;
    const scale = tall > maxHeight ? Math.max(minScale, maxHeight / tall) : 1;
    img.style.setProperty('width', `${design * scale}px`, 'important');
    img.style.setProperty('height', 'auto', 'important');
    img.style.setProperty('max-height', 'none', 'important');
    img.style.setProperty('max-width', '100%', 'important');
    out.push(Math.round(1000 * img.getBoundingClientRect().width / design) / 1000);
  }
  return out;
}
"""
#: The pages of a volume have no footer of Chromium's: the number is stamped, the running head laid over the top.
_NO_FOOTER = "<span></span>"
#: A rerun's page printed alone keeps Chromium's own page numbers.
_FOOTER = (
    '<div style="font-size:8px;width:100%;margin:0 14mm;color:#555;display:flex;justify-content:space-between">'
    '<span class="title"></span><span><span class="pageNumber"></span> / <span class="totalPages"></span></span></div>'
)


def toc_pages(toc: Path | None = None) -> list[str]:
    """Every page of ``_toc.yml`` (root first) without suffix, in book order."""
    return [str(Path(f).with_suffix("")) for f in toc_files(toc)]


def toc_parts(toc: Path | None = None) -> list[tuple[str, list[str]]]:
    """The parts of ``_toc.yml`` as ``(caption, pages)`` in book order, the root page first under the caption
    ``""``; pages without suffix."""
    path = Path(toc or repo_root() / "_toc.yml")
    data = yaml.safe_load(path.read_text(encoding="utf8"))
    parts: list[tuple[str, list[str]]] = [("", [str(Path(data["root"]).with_suffix(""))])]

    def walk(entries, into: list[str]) -> None:
        for entry in entries or []:
            if "file" in entry:
                into.append(str(Path(entry["file"]).with_suffix("")))
            for key in ("chapters", "sections"):
                walk(entry.get(key), into)

    for part in data.get("parts") or []:
        pages: list[str] = []
        walk(part.get("chapters"), pages)
        parts.append((part.get("caption", ""), pages))
    walk(data.get("chapters"), parts[0][1])
    return parts


#: The scripts of a built page that print nothing: the search (its index, ~0.4 MB a page parsed), the icon font's
#: script (1.5 MB: its icons are in the header and the navigation, hidden in print), bootstrap's and the themes'
#: scripts (navigation, dropdown menus, the dark-mode switch) and the copy buttons (hidden in print). When the book
#: is served for printing (:func:`_serve` with ``print_view``), each is answered with an empty script: the page
#: typesets, lays out and prints the same (its maths, toggles and claims tables keep their scripts), without
#: the seconds of parsing and running them in every printed page.
NOT_PRINTED = re.compile(
    r"/(searchindex\.js|_static/(searchtools\.js|language_data\.js|clipboard\.min\.js|copybutton\.js"
    r"|scripts/(fontawesome|bootstrap|pydata-sphinx-theme|sphinx-book-theme)\.js))$"
)


class _Quiet(http.server.SimpleHTTPRequestHandler):
    #: answer the scripts of NOT_PRINTED with an empty script (the server of a print)
    print_view = False

    def log_message(self, *args) -> None:
        pass

    def do_GET(self) -> None:
        if self.print_view and NOT_PRINTED.search(self.path.split("?", 1)[0].split("#", 1)[0]):
            self.send_response(200)
            self.send_header("Content-Type", "text/javascript")
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        # the page may go on before a request is answered (a navigation cancels what it still loads)
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            super().do_GET()


class _PrintView(_Quiet):
    print_view = True


@contextlib.contextmanager
def _serve(directory: Path, print_view: bool = False) -> Iterator[str]:
    """Serve ``directory`` on a free local port; with ``print_view``, without the scripts of NOT_PRINTED."""
    handler = _PrintView if print_view else _Quiet
    httpd = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(handler, directory=str(directory))
    )
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
    finally:
        httpd.shutdown()
        httpd.server_close()


@contextlib.contextmanager
def chromium():
    """A headless Debian Chromium (``DPCOMPENDIUM_CHROMIUM``, default ``/usr/bin/chromium``) through playwright."""
    if not (Path(CHROMIUM).is_file() and os.access(CHROMIUM, os.X_OK)):
        raise FileNotFoundError(
            f"no Chromium at {CHROMIUM}: install Debian's chromium ('apt-get install chromium')"
        )
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=_ARGS)
        try:
            yield browser
        finally:
            browser.close()


@dataclass
class Printed:
    """What printing one page found: its title, the works cited it lists last, its over-wide display equations, its
    tables' heights and rows kept, each figure's printed share of its design size."""

    title: str
    references: int = 0
    wide_math: list[dict] = field(default_factory=list)
    headings: list[str] = field(default_factory=list)
    tables: list[dict] = field(default_factory=list)
    figures: list[float] = field(default_factory=list)


def print_pages(
    browser,
    jobs: Sequence[tuple[str, Path]],
    *,
    bibliography: str | None = None,
    footer: str = _FOOTER,
    outline: bool = False,
    lang: str = "en",
    long_tables: bool = False,
) -> list[Printed]:
    """Print each ``(url, pdf path)`` of ``jobs`` to A4 (the page's print stylesheet, ``footer``, Chromium's
    document outline from the headings if ``outline``) once it is settled (MathJax done, images loaded, fonts
    ready). With ``bibliography`` (its URL), a page that cites works ends with them ("References"). With
    ``long_tables``, a table taller than ``TABLE_MAX_PX`` keeps the rows that fit, with a note naming the online
    page that has it whole (the page's path under the online book)."""
    from urllib.parse import urlsplit

    from .rerun_page import BOOK_URL

    found = []
    # every page is loaded, typeset and measured in the layout the PDF gets (print media, the printed column's width
    # in CSS px): laid out once for print, not first for a screen and then again
    tab = browser.new_page(viewport={"width": PRINT_WIDTH_PX, "height": 1000})
    try:
        tab.set_default_timeout(120_000)
        tab.emulate_media(media="print")
        tab.add_init_script(_LIGHT)
        for url, out in jobs:
            tab.goto(url, wait_until="load")
            item = Printed(title=tab.evaluate(_SETTLE))
            if bibliography and not url.endswith("/bibliography.html"):
                item.references = tab.evaluate(
                    _REFERENCES, [bibliography, _t("References", lang), _t("Works cited", lang)]
                )
            if long_tables:
                online = BOOK_URL + ("" if lang == "en" else f"/{lang}") + urlsplit(url).path
                note = _t("table-more", lang) % {
                    "kept": "%(kept)s",
                    "rows": "%(rows)s",
                    "url": online,
                }
                item.tables = tab.evaluate(_LONG_TABLES, [TABLE_MAX_PX, note])
            tab.evaluate(_CAPTIONS)
            item.figures = tab.evaluate(
                _FIGURES,
                [
                    96 / PRINT_SCALE,
                    FIGURE_MIN_SCALE,
                    FIGURE_MAX_HEIGHT_MM / 25.4 * 96 / PRINT_SCALE,
                ],
            )
            item.wide_math = tab.evaluate(WIDE_MATH)
            item.headings = tab.evaluate(_HEADINGS)
            Path(out).parent.mkdir(parents=True, exist_ok=True)
            tab.pdf(
                path=str(out),
                format="A4",
                print_background=True,
                display_header_footer=True,
                header_template="<span></span>",
                footer_template=footer,
                margin={k: f"{v}mm" for k, v in MARGIN_MM.items()},
                scale=PRINT_SCALE,
                outline=outline,
                tagged=outline,
            )
            found.append(item)
    finally:
        tab.close()
    return found


# ---- binding: front matter, one page numbering, nested bookmarks


def _clean(title: str) -> str:
    return re.sub(r"\s+", " ", title.replace("¶", "").rstrip("#")).strip()


@dataclass
class Heading:
    title: str
    page: int  # 0-based, in its own PDF
    top: float | None
    children: list[Heading] = field(default_factory=list)


def _outline(reader, titles: Sequence[str] = ()) -> list[Heading]:
    """The nested headings of a PDF Chromium printed with ``outline=True``; their ``titles`` in order (the page's
    headings as the page has them) replace Chromium's when there are as many."""

    def walk(items) -> list[Heading]:
        out: list[Heading] = []
        for item in items:
            if isinstance(item, list):
                if out:
                    out[-1].children.extend(walk(item))
                else:
                    out.extend(walk(item))
                continue
            top = item.get("/Top")
            out.append(
                Heading(
                    _clean(str(item.title)),
                    reader.get_destination_page_number(item),
                    None if top is None else float(top),
                )
            )
        return out

    found = walk(reader.outline)
    flat: list[Heading] = []

    def collect(hs: list[Heading]) -> None:
        for h in hs:
            flat.append(h)
            collect(h.children)

    collect(found)
    if titles and len(titles) == len(flat):
        for h, t in zip(flat, titles, strict=True):
            h.title = _clean(t)
    return found


@dataclass
class Entry:
    """A printed page of the book in a volume: where it starts and its headings (pages 0-based in the volume)."""

    page: str
    pdf: Path
    title: str
    start: int = 0
    pages: int = 0
    headings: list[Heading] = field(default_factory=list)
    titles: list[str] = field(default_factory=list)


_FRONT_CSS = """
@page { size: A4; margin: 22mm 20mm 20mm 20mm; }
body { font-family: "Noto Serif", "DejaVu Serif", "Noto Serif CJK SC", serif; color: #111; font-size: 10.5pt; }
.cover { height: 240mm; display: flex; flex-direction: column; justify-content: center; break-after: page; }
.cover h1 { font-size: 30pt; line-height: 1.15; margin: 0 0 8mm 0; font-weight: 600; }
.cover .sub { font-size: 14pt; color: #333; margin-bottom: 18mm; max-width: 140mm; }
.cover .who { font-size: 10.5pt; max-width: 140mm; line-height: 1.45; }
.cover .meta { margin-top: 24mm; font-size: 9pt; color: #555; }
h2.contents { font-size: 18pt; font-weight: 600; margin: 0 0 6mm 0; }
.part { font-weight: 700; font-size: 11pt; margin: 5mm 0 1.5mm 0; text-transform: uppercase; letter-spacing: .04em;
  color: #333; break-after: avoid; }
.e { display: flex; align-items: baseline; margin: 0.6mm 0; break-inside: avoid; }
.e .t { flex: 0 1 auto; padding-right: 2mm; }
.e .d { flex: 1 1 auto; border-bottom: 1px dotted #999; margin: 0 1mm; min-width: 6mm; transform: translateY(-1mm); }
.e .n { flex: 0 0 auto; min-width: 8mm; text-align: right; font-variant-numeric: tabular-nums; }
.l1 { font-weight: 600; margin-top: 2mm; }
.l2 { padding-left: 7mm; font-size: 9.5pt; }
"""


def _front_html(
    title: str, subtitle: str, meta: str, who: str, parts, numbers: dict, lang: str = "en"
) -> str:
    """The title page and the contents: ``parts`` as ``(caption, [Entry])``; ``numbers`` maps ``(page, i)`` to
    the printed page number of the entry's heading ``i`` (``-1``: the page itself)."""
    esc = htmllib.escape
    rows = []
    for caption, entries in parts:
        if caption:
            rows.append(f'<div class="part">{esc(caption)}</div>')
        for e in entries:
            rows.append(
                f'<div class="e l1"><span class="t">{esc(e.title)}</span><span class="d"></span>'
                f'<span class="n">{numbers[(e.page, -1)]}</span></div>'
            )
            top = e.headings[0].children if len(e.headings) == 1 else e.headings[1:]
            if e.page.startswith("notebooks/") or e.page.endswith("/primer"):
                for i, h in enumerate(top):
                    rows.append(
                        f'<div class="e l2"><span class="t">{esc(h.title)}</span><span class="d"></span>'
                        f'<span class="n">{numbers[(e.page, i)]}</span></div>'
                    )
    return (
        f'<!DOCTYPE html><html lang="{lang.replace("_", "-")}"><head><meta charset="utf-8">'
        f"<title>{esc(title)}</title><style>{_FRONT_CSS}</style></head><body>"
        f'<section class="cover"><h1>{esc(title)}</h1><div class="sub">{esc(subtitle)}</div>'
        f'<div class="who">{who}</div><div class="meta">{esc(meta)}</div></section>'
        f'<h2 class="contents">{esc(_t("Contents", lang))}</h2>{"".join(rows)}</body></html>'
    )


def _numbers(parts, offset: int) -> dict:
    numbers = {}
    for _, entries in parts:
        for e in entries:
            numbers[(e.page, -1)] = offset + e.start + 1
            for i, h in enumerate(_sections(e)):
                numbers[(e.page, i)] = offset + e.start + h.page + 1
    return numbers


def _sections(e: Entry) -> list[Heading]:
    """The sections of a printed page: the children of its one numbered heading, or its headings after the first."""
    return e.headings[0].children if len(e.headings) == 1 else e.headings[1:]


#: Where a heading's short title ends: at its colon (a Latin colon and a space, or a Chinese full-width colon).
_SHORT_TITLE_END = re.compile(r":\s|：")


def short_title(title: str) -> str:
    """A heading's short title, for a running head: the heading up to its colon, its number kept ("4.6. Captured
    energy: central level …, a fall for DPdisPCA" → "4.6. Captured energy"; "5.4. 实验二：…" → "5.4. 实验二"). A
    book's headings are written "short title: what it says", so a head names the chapter and the section in full
    words instead of cutting both with "…" (reader review 5, m8: "4. Federated PCA under differential priv…")."""
    return _SHORT_TITLE_END.split(title, maxsplit=1)[0].strip()


def running_heads(parts, offset: int) -> dict[int, tuple[str, str]]:
    """The running head of every page of a volume (0-based index in the volume → ``(title, section)``): the short
    title (:func:`short_title`) of the book's page it belongs to and of the section in effect on it (the first that
    starts on the page, else the last one started before it; ``""`` before the first). A page's first page (a
    chapter's opening) and the front matter (``offset`` pages) have none."""
    heads: dict[int, tuple[str, str]] = {}
    for _, entries in parts:
        for e in entries:
            sections = _sections(e)
            for p in range(1, e.pages):
                starting = [s for s in sections if s.page == p]
                before = [s for s in sections if s.page < p]
                now = starting[0] if starting else (before[-1] if before else None)
                heads[offset + e.start + p] = (
                    short_title(e.title),
                    short_title(now.title) if now else "",
                )
    return heads


_HEADS_CSS = """
@page { size: A4; margin: 0; }
html, body { margin: 0; padding: 0; }
body { font-family: "Noto Sans", "DejaVu Sans", "Noto Sans CJK SC", sans-serif; font-size: 8pt; color: #333; }
.p { height: 297mm; width: 210mm; position: relative; break-after: page; overflow: hidden; }
.p:last-child { break-after: auto; }
.h { position: absolute; left: %(left)smm; right: %(right)smm; top: 5.5mm; display: flex; gap: 4mm;
  justify-content: space-between; align-items: baseline; border-bottom: 0.5pt solid #999; padding-bottom: 0.8mm; }
.h span { white-space: nowrap; overflow: hidden; text-overflow: ellipsis; min-width: 0; }
/* the page's short title is never cut; a section's, only if the two could not share the line */
.h .c { flex: 0 0 auto; font-style: italic; }
/* Chinese has no italic: the font would be slanted by the renderer (fake italic) */
:lang(zh) .h .c { font-style: normal; }
.h .s { flex: 0 1 auto; text-align: right; }
"""


def _heads_html(heads: Sequence[tuple[str, str]], lang: str = "en") -> str:
    """One A4 page per running head, the head alone in its top margin (printed by Chromium, laid over the book)."""
    esc = htmllib.escape
    css = _HEADS_CSS % {"left": MARGIN_MM["left"], "right": MARGIN_MM["right"]}
    pages = "".join(
        f'<div class="p"><div class="h"><span class="c">{esc(title)}</span>'
        f'<span class="s">{esc(section)}</span></div></div>'
        for title, section in heads
    )
    return (
        f'<!DOCTYPE html><html lang="{lang.replace("_", "-")}"><head><meta charset="utf-8">'
        f"<style>{css}</style></head><body>{pages}</body></html>"
    )


def _print_heads(browser, path: Path, heads: Sequence[tuple[str, str]], lang: str = "en") -> None:
    html = path.with_suffix(".html")
    html.write_text(_heads_html(heads, lang), encoding="utf8")
    tab = browser.new_page()
    try:
        tab.goto(html.resolve().as_uri(), wait_until="load")
        tab.pdf(path=str(path), format="A4", print_background=False, prefer_css_page_size=True)
    finally:
        tab.close()


def _overlay(writer, pages: Sequence[int], overlay: Path) -> None:
    """Lay page ``j`` of the PDF ``overlay`` over page ``pages[j]`` of ``writer``, as a form XObject drawn after the
    page's own content (the page's content stream is not parsed: this stays fast on long pages)."""
    from pypdf import PdfReader
    from pypdf.generic import (
        ArrayObject,
        DecodedStreamObject,
        NameObject,
    )

    reader = PdfReader(overlay)
    if len(reader.pages) != len(pages):
        raise ValueError(f"overlay: {len(reader.pages)} pages for {len(pages)} pages of the volume")

    def stream(data: bytes, extra: dict | None = None):
        s = DecodedStreamObject()
        s.set_data(data)
        s.update(extra or {})
        return writer._add_object(s)

    push = stream(b"q\n")
    for src, i in zip(reader.pages, pages, strict=True):
        form = stream(
            src.get_contents().get_data(),
            {
                NameObject("/Type"): NameObject("/XObject"),
                NameObject("/Subtype"): NameObject("/Form"),
                NameObject("/BBox"): ArrayObject(src.mediabox),
                NameObject("/Resources"): src["/Resources"].clone(writer),
            },
        )
        page = writer.pages[i]
        draw = stream(b"Q q /DPCHead Do Q\n")
        _draw_over(page, push, draw, "/XObject", "/DPCHead", form)


def _draw_over(page, push, draw, kind: str, name: str, resource) -> None:
    """Wrap ``page``'s own content between the streams ``push`` (``q``) and ``draw`` (which restores the state and
    draws), and add ``resource`` to the page's resources of ``kind`` (``/XObject``, ``/Font``) as ``name``: the step
    :func:`_overlay` and :func:`_stamp` share."""
    from pypdf.generic import ArrayObject, DictionaryObject, NameObject

    contents = page.get("/Contents")
    old = contents.get_object() if contents is not None else None
    parts = list(old) if isinstance(old, ArrayObject) else ([contents] if contents else [])
    page[NameObject("/Contents")] = ArrayObject([push, *parts, draw])
    resources = page.get("/Resources")
    resources = resources.get_object() if resources is not None else DictionaryObject()
    page[NameObject("/Resources")] = resources
    named = resources.get(kind)
    named = named.get_object() if named is not None else DictionaryObject()
    named[NameObject(name)] = resource
    resources[NameObject(kind)] = named


def _stamp(writer, first: int = 1) -> None:
    """Stamp the page number (``first`` + index) at the bottom right of every page of ``writer`` but the first
    (the title page): a Helvetica text drawn after the page's own content, which is wrapped in ``q … Q``."""
    from pypdf.generic import (
        DecodedStreamObject,
        DictionaryObject,
        NameObject,
    )

    font = writer._add_object(
        DictionaryObject(
            {
                NameObject("/Type"): NameObject("/Font"),
                NameObject("/Subtype"): NameObject("/Type1"),
                NameObject("/BaseFont"): NameObject("/Helvetica"),
                NameObject("/Encoding"): NameObject("/WinAnsiEncoding"),
            }
        )
    )

    def stream(data: bytes):
        s = DecodedStreamObject()
        s.set_data(data)
        return writer._add_object(s)

    push = stream(b"q\n")
    for i, page in enumerate(writer.pages):
        if i == 0:
            continue
        text = str(first + i)
        size = 8.0
        width = float(page.mediabox.width)
        x = width - MARGIN_MM["right"] * _MM - 0.556 * size * len(text)
        y = 7.5 * _MM
        draw = stream(
            f"Q q BT /DPCPageNo {size:g} Tf 0.25 g {x:.2f} {y:.2f} Td ({text}) Tj ET Q\n".encode()
        )
        _draw_over(page, push, draw, "/Font", "/DPCPageNo", font)


#: The CJK radicals' code points (Kangxi radicals, CJK radicals supplement).
RADICALS = range(0x2E80, 0x2FE0)
_IDEOGRAPHS = ((0x4E00, 0x9FFF), (0x3400, 0x4DBF), (0x20000, 0x2A6DF), (0xF900, 0xFAFF))


@functools.cache
def radical_ideographs() -> dict[int, int]:
    """Radical code point → the unified ideograph drawn by the same glyph, in the font fontconfig picks for Chinese
    (``fc-match :lang=zh-cn``, Noto Sans CJK SC here); empty without fontconfig or such a font.

    Chromium's PDF writes each glyph's text (``/ToUnicode``) as the lowest code point the font maps to it, and Noto
    CJK draws e.g. the radical U+2F0A and the ideograph 入 (U+5165) with one glyph: the Chinese PDF's text read
    "⼊⻔" for 入门, so copying, searching or extracting it failed. :func:`_mend_cjk_text` maps the text back."""
    try:
        found = subprocess.run(
            ["fc-match", "-f", "%{file}|%{index}", ":lang=zh-cn"],
            capture_output=True,
            text=True,
            check=True,
            timeout=30,
        ).stdout
    except (OSError, subprocess.SubprocessError):
        return {}
    path, _, index = found.partition("|")
    if not path or not Path(path).is_file():
        return {}
    from fontTools.ttLib import TTFont

    font = TTFont(path, fontNumber=int(index or 0), lazy=True)
    cmap = font.getBestCmap() or {}
    font.close()
    by_glyph: dict[str, list[int]] = {}
    for cp, glyph in cmap.items():
        by_glyph.setdefault(glyph, []).append(cp)
    out = {}
    for radical in RADICALS:
        ideographs = [
            cp
            for cp in by_glyph.get(cmap.get(radical), [])
            if any(a <= cp <= b for a, b in _IDEOGRAPHS)
        ]
        if ideographs:
            out[radical] = min(ideographs)
    return out


_CMAP_BODY = re.compile(rb"endcodespacerange(.*)endcmap", re.S)
_HEX = rb"<([0-9A-Fa-f]+)>"


def _mended_cmap(data: bytes, mapping: dict[int, int]) -> bytes | None:
    """A ``/ToUnicode`` CMap with every radical of ``mapping`` in its text replaced by its ideograph, written as
    ``bfchar`` entries; None if it holds none."""
    body = _CMAP_BODY.search(data)
    if body is None:
        return None
    entries: list[tuple[bytes, str]] = []  # (source code as hex, its text)
    for block in re.finditer(rb"beginbfchar(.*?)endbfchar", body.group(1), re.S):
        for src, dst in re.findall(_HEX + rb"\s*" + _HEX, block.group(1)):
            entries.append((src, bytes.fromhex(dst.decode()).decode("utf-16-be")))
    for block in re.finditer(rb"beginbfrange(.*?)endbfrange", body.group(1), re.S):
        for lo, hi, rest in re.findall(
            _HEX + rb"\s*" + _HEX + rb"\s*(<[0-9A-Fa-f]+>|\[[^\]]*\])", block.group(1)
        ):
            width, a, b = len(lo), int(lo, 16), int(hi, 16)
            if rest.startswith(b"["):
                dsts = [
                    bytes.fromhex(d.decode()).decode("utf-16-be") for d in re.findall(_HEX, rest)
                ]
            else:
                first = bytes.fromhex(rest[1:-1].decode()).decode("utf-16-be")
                dsts = [first[:-1] + chr(ord(first[-1]) + k) for k in range(b - a + 1)]
            for k, dst in enumerate(dsts[: b - a + 1]):
                entries.append((f"{a + k:0{width}X}".encode(), dst))
    if not any(ord(ch) in mapping for _, text in entries for ch in text):
        return None
    lines = []
    for i in range(0, len(entries), 100):  # at most 100 entries per block (PDF 32000, 9.10.3)
        chunk = entries[i : i + 100]
        lines.append(f"{len(chunk)} beginbfchar".encode())
        for src, text in chunk:
            text = "".join(chr(mapping.get(ord(ch), ord(ch))) for ch in text)
            lines.append(
                b"<" + src + b"> <" + text.encode("utf-16-be").hex().upper().encode() + b">"
            )
        lines.append(b"endbfchar")
    return data[: body.start(1)] + b"\n" + b"\n".join(lines) + b"\n" + data[body.end(1) :]


def _mend_cjk_text(writer) -> int:
    """Replace the radicals that stand for ideographs in the text of every font of ``writer``'s pages
    (:func:`radical_ideographs`); returns how many ``/ToUnicode`` maps changed."""
    mapping = radical_ideographs()
    if not mapping:
        return 0
    seen: set[int] = set()
    changed = 0

    def fonts(resources):
        if resources is None:
            return
        resources = resources.get_object()
        yield from (resources.get("/Font") or {}).values()
        for xobject in (resources.get("/XObject") or {}).values():
            xobject = xobject.get_object()
            if xobject.get("/Subtype") == "/Form":
                yield from fonts(xobject.get("/Resources"))

    for page in writer.pages:
        for ref in fonts(page.get("/Resources")):
            font = ref.get_object()
            key = getattr(ref, "idnum", None) or id(font)
            if key in seen or "/ToUnicode" not in font:
                continue
            seen.add(key)
            stream = font["/ToUnicode"].get_object()
            mended = _mended_cmap(stream.get_data(), mapping)
            if mended is not None:
                stream.set_data(mended)  # the font's /ToUnicode stream, changed in place
                changed += 1
    return changed


def _add_outline(writer, headings: list[Heading], start: int, parent) -> None:
    from pypdf.generic import Fit

    for h in headings:
        fit = Fit.xyz(top=h.top) if h.top is not None else Fit.fit()
        item = writer.add_outline_item(
            title=h.title, page_number=start + h.page, parent=parent, fit=fit
        )
        _add_outline(writer, h.children, start, item)


def _bind(
    browser,
    out: Path,
    name: str,
    parts,
    *,
    title: str,
    subtitle: str,
    who: str,
    meta: str,
    lang: str = "en",
) -> tuple[Path, int, Any]:
    """One volume: front matter (title page, contents) printed by Chromium, then every entry's PDF; one page
    numbering stamped on all, bookmarks part → page → its headings. Returns the path, the front's pages and the
    volume's ``PdfWriter`` (its pages in memory, as written: :func:`_chapter_pdf` copies them from there instead of
    parsing the written file again — 5.6 of 10.3 s of CPU for the Chinese edition's chapters, whose CJK text
    Chromium draws in Type 3 fonts, thousands of small objects a page)."""
    from pypdf import PdfReader, PdfWriter

    start = 0
    readers = {}  # each page's PDF read once: for its outline here, for its pages when it is appended
    for _, entries in parts:
        for e in entries:
            reader = readers[e.page] = PdfReader(e.pdf)
            e.pages, e.start = len(reader.pages), start
            e.headings = _outline(reader, e.titles)
            if len(e.headings) == 1:  # the page's numbered heading, as Chromium's outline has it
                e.title = e.headings[0].title
            start += e.pages
    front_pdf = out / "pages" / f"_front_{name}.pdf"
    front_html = out / "pages" / f"_front_{name}.html"
    n_front = 2
    for _ in range(
        3
    ):  # the contents' length does not depend on its numbers but for wrapping: converge
        numbers = _numbers(parts, n_front)
        front_html.write_text(
            _front_html(title, subtitle, meta, who, parts, numbers, lang), encoding="utf8"
        )
        tab = browser.new_page()
        try:
            tab.goto(front_html.resolve().as_uri(), wait_until="load")
            tab.pdf(
                path=str(front_pdf), format="A4", print_background=True, prefer_css_page_size=True
            )
        finally:
            tab.close()
        got = len(PdfReader(front_pdf).pages)
        if got == n_front:
            break
        n_front = got
    heads = running_heads(parts, n_front)
    heads_pdf = out / "pages" / f"_heads_{name}.pdf"
    if heads:
        _print_heads(browser, heads_pdf, list(heads.values()), lang)
    writer = PdfWriter()
    writer.append(str(front_pdf), import_outline=False)
    writer.add_outline_item(title=_t("Title page", lang), page_number=0)
    writer.add_outline_item(title=_t("Contents", lang), page_number=1)
    for _, entries in parts:
        for e in entries:
            writer.append(readers[e.page], import_outline=False)
    # the bookmarks once every page is in: a bookmark made before its page is appended gets a page index instead
    # of the page (a destination viewers cannot follow: the parts' bookmarks had none)
    for caption, entries in parts:
        parent = (
            writer.add_outline_item(title=caption, page_number=n_front + entries[0].start)
            if caption
            else None
        )
        for e in entries:
            at = n_front + e.start
            if len(e.headings) == 1:
                _add_outline(writer, e.headings, at, parent)
            else:  # no single h1: the page's title, its headings under it
                item = writer.add_outline_item(title=e.title, page_number=at, parent=parent)
                _add_outline(writer, e.headings, at, item)
    if heads:
        _overlay(writer, list(heads), heads_pdf)
    _mend_cjk_text(writer)
    _stamp(writer, first=1)
    writer.add_metadata({"/Title": title, "/Author": _t("The dpcompendium authors", lang)})
    path = out / name
    tmp = path.with_suffix(".pdf.part")
    with open(tmp, "wb") as fh:
        writer.write(fh)
    tmp.replace(path)
    return path, n_front, writer


def _chapter_pdf(bound, entry: Entry, n_front: int, dest: Path) -> None:
    """A chapter's pages of the bound book (``bound``: the volume's ``PdfWriter`` as :func:`_bind` wrote it, or a
    ``PdfReader`` of the written file; its page numbers as in the book), with its own bookmarks."""
    from pypdf import PdfWriter

    writer = PdfWriter()
    first = n_front + entry.start
    for i in range(first, first + entry.pages):
        writer.add_page(bound.pages[i])
    _add_outline(writer, entry.headings, 0, None)
    writer.add_metadata({"/Title": entry.title})
    with open(dest, "wb") as fh:
        writer.write(fh)


def _commit(root: Path) -> str:
    try:
        return subprocess.run(
            ["git", "-C", str(root), "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


#: The texts of the front matter in the editions other than English (the title: ``dpcompendium.book.i18n.TITLES``).
_TEXTS = {
    "zh_CN": {
        "Contents": "目录",
        "Title page": "封面",
        "The dpcompendium authors": "dpcompendium 的作者们",
        "Foundations": "基础",
        "Chapters": "章节",
        "Reference": "参考",
        "subtitle": "一本可执行、可复现的差分隐私之书：五份原始材料，重新推导、重新实现、重新运行。",
        "who": "写给懂一些概率论和 Python、想看到差分隐私被认真对待的读者：五份关于差分隐私的短文，每一份都成为"
        "可以运行的一章，推导出它的隐私保证，重新计算它的实验，指出它的错误。先读入门（记号与基本机制）；"
        "之后各章可以按任意顺序阅读。",
        "Built from commit %(commit)s on %(date)s.": "由 commit %(commit)s 于 %(date)s 构建。",
        # a chapter's last section, and the section the PDF adds to a page that cites works outside it
        "References": "参考文献",
        "Works cited": "本页引用的文献",
        "table-more": "此处列出前 %(kept)s 行（共 %(rows)s 行）；完整的表见在线版本的本页：%(url)s",
    },
    "en": {
        "table-more": "The first %(kept)s of %(rows)s rows; the whole table is on this page of the online book: "
        "%(url)s",
    },
}


#: A text of the front matter in ``lang``: ``_t(text, lang="en")``.
_t = functools.partial(text_in, _TEXTS)


_WHO = (
    "For readers who know some probability and Python and want to see differential privacy done carefully: "
    "five short documents on DP, each turned into a chapter you can run, with its privacy guarantee derived, "
    "its experiments recomputed and its errors named. Start with the primer (notation and the basic "
    "mechanisms); the chapters can then be read in any order."
)


def book_pdf(
    html: Path | None = None,
    out: Path | None = None,
    pages: Sequence[str] | None = None,
    lang: str = "en",
) -> Path:
    """Print the built book ``html`` (``_build/html``) into ``out`` (``_build/pdf``) and bind it: the book
    (``dpcompendium.pdf``), the Library reference (``dpcompendium-api.pdf``), each chapter (``<chapter>.pdf``),
    one PDF per printed page in ``out/pages/`` and ``report.json``. ``pages`` limits what is printed (a subset of
    ``_toc.yml``). Returns the book's path.

    ``lang`` other than ``"en"``: the edition in that language (``_build/html/<lang>``, built by
    ``dpcompendium.book.i18n``), bound the same way (title page, contents, one page numbering, bookmarks) as
    ``out/dpcompendium-<lang>.pdf``, its front matter in that language; its chapters (``<chapter>.pdf``), pages and
    ``report.json`` go to ``out/<lang>/``. The Library reference, which is not translated, is not printed."""
    root = repo_root()
    html = Path(html or (root / "_build" / "html" / (lang if lang != "en" else "")))
    book_name = BOOK_PDF if lang == "en" else edition_pdf(lang)
    final = Path(out or root / "_build" / "pdf")
    out = final if lang == "en" else final / lang
    wanted = list(pages or toc_pages())
    if lang != "en":
        wanted = [p for p in wanted if not p.startswith(API_FOLDER)]
    missing = [p for p in wanted if not (html / f"{p}.html").is_file()]
    if missing:
        raise FileNotFoundError(f"pages not built in {html}: {missing} (run 'make book' first)")
    config = yaml.safe_load((root / "_config.yml").read_text(encoding="utf8")) or {}
    title = config.get("title", "dpcompendium")
    if lang != "en":
        from .i18n import TITLES

        title = TITLES.get(lang, title)
    t0 = time.perf_counter()
    (out / "pages").mkdir(parents=True, exist_ok=True)
    entries = {p: Entry(p, out / "pages" / (p.replace("/", "__") + ".pdf"), p) for p in wanted}
    bib = "book/bibliography"
    meta = _t("Built from commit %(commit)s on %(date)s.", lang) % {
        "commit": _commit(root),
        "date": dt.date.today().isoformat(),
    }
    with _serve(html, print_view=True) as url, chromium() as browser:
        printed = print_pages(
            browser,
            [(f"{url}/{p}.html", e.pdf) for p, e in entries.items()],
            bibliography=f"{url}/{bib}.html" if (html / f"{bib}.html").is_file() else None,
            footer=_NO_FOOTER,
            outline=True,
            lang=lang,
            long_tables=True,
        )
        for e, item in zip(entries.values(), printed, strict=True):
            e.title = _clean(item.title) or e.page
            e.titles = item.headings
        parts = [
            (_t(caption, lang), [entries[p] for p in ps if p in entries])
            for caption, ps in toc_parts(root / "_toc.yml")
        ]
        book_parts = [(c, [e for e in es if not e.page.startswith(API_FOLDER)]) for c, es in parts]
        api_parts = [(c, [e for e in es if e.page.startswith(API_FOLDER)]) for c, es in parts]
        book_parts = [(c, es) for c, es in book_parts if es]
        api_parts = [("", es) for _, es in api_parts if es]
        book, n_front, bound = _bind(
            browser,
            out,
            book_name,
            book_parts,
            title=title,
            subtitle=_t("subtitle", lang)
            if lang != "en"
            else "An executable, reproducible book on differential privacy: five sources, re-derived, "
            "re-implemented and re-run.",
            who=_t("who", lang) if lang != "en" else _WHO,
            meta=meta,
            lang=lang,
        )
        volumes = {book_name: (book_parts, n_front)}
        if api_parts:
            _, n_api, _ = _bind(
                browser,
                out,
                API_PDF,
                api_parts,
                title=f"{title} — Library reference",
                subtitle="The Python library behind the book, documented from its docstrings.",
                who="The companion volume of the book: every public module, class and function of "
                "<code>dpcompendium</code>, one part per subpackage.",
                meta=meta,
            )
            volumes[API_PDF] = (api_parts, n_api)
    from pypdf import PdfReader

    for _caption, es in book_parts:
        for e in es:
            if e.page.startswith("notebooks/"):
                _chapter_pdf(bound, e, n_front, out / f"{Path(e.page).name}.pdf")
    report = {
        "volumes": {},
        "pages": {},
        "seconds": round(time.perf_counter() - t0, 1),
    }
    for name, (vparts, front) in volumes.items():
        report["volumes"][name] = {"front_pages": front, "pages": len(PdfReader(out / name).pages)}
        for _, es in vparts:
            for e in es:
                item = printed[list(entries).index(e.page)]
                report["pages"][e.page] = {
                    "volume": name,
                    "title": e.title,
                    "first_page": front + e.start + 1,
                    "pages": e.pages,
                    **{k: v for k, v in asdict(item).items() if k != "title"},
                }
    (out / "report.json").write_text(json.dumps(report, indent=1, ensure_ascii=False), "utf8")
    # beside the HTML, where the pages' download buttons point (dpcompendium.book.sphinxext: pdf/<name>.pdf)
    (html / "pdf").mkdir(exist_ok=True)
    for made in [out / book_name, *(out / API_PDF for _ in [0] if API_PDF in volumes)]:
        shutil.copyfile(made, html / "pdf" / made.name)
    if lang != "en":  # the edition's book beside the English one
        shutil.copyfile(out / book_name, final / book_name)
        book = final / book_name
    for e in entries.values():
        if e.page.startswith("notebooks/") and (out / f"{Path(e.page).name}.pdf").is_file():
            shutil.copyfile(
                out / f"{Path(e.page).name}.pdf", html / "pdf" / f"{Path(e.page).name}.pdf"
            )
    print(
        f"pdf: {book} ({report['volumes'][book_name]['pages']} pages"
        + (
            f"; {API_PDF}: {report['volumes'][API_PDF]['pages']} pages"
            if API_PDF in volumes
            else ""
        )
        + f") in {report['seconds']:.1f} s",
        flush=True,
    )
    return book


def book_pdfs(
    html: Path | None = None,
    out: Path | None = None,
    pages: Sequence[str] | None = None,
    langs: Sequence[str] = ("en",),
    ready: Callable[[str, Path], None] | None = None,
) -> dict[str, Path]:
    """:func:`book_pdf` for every edition of ``langs`` at once: the first in this process, each other in a process of
    its own (``python -m dpcompendium.book.pdf --lang LANG``, its own Chromium). The editions share nothing but
    ``out`` (each its own files and folder in it), and printing is one core's work per edition (Chromium typesets and
    prints one page at a time), so a 2-core machine prints both in the time of the longer. ``html`` is the English
    book's folder (another edition's is ``html/<lang>``). ``ready(lang, book)``, if given, is called as soon as an
    edition is printed, while the others may still print (from another thread for those printed in a process of
    their own): ``tests/test_book_pdf.py`` starts reading the printed files there, on the core the finished edition
    leaves idle. Returns each edition's book; raises ``RuntimeError`` naming the editions that failed, once every
    one has ended."""
    langs = list(dict.fromkeys(langs))
    final = Path(out or repo_root() / "_build" / "pdf")
    ended: dict[str, tuple[int, str]] = {}

    def wait(lang: str, proc: subprocess.Popen) -> None:
        _, err = proc.communicate()
        ended[lang] = (proc.returncode, err)
        if proc.returncode == 0 and ready is not None:
            ready(lang, final / edition_pdf(lang))

    waiting = []
    for lang in langs[1:]:
        cmd = [sys.executable, "-m", "dpcompendium.book.pdf", "--lang", lang]
        if html is not None:
            cmd += ["--html", str(Path(html) / lang if lang != "en" else html)]
        if out is not None:
            cmd += ["--out", str(out)]
        for page in pages or []:
            cmd += ["--page", page]
        proc = subprocess.Popen(cmd, stderr=subprocess.PIPE, text=True)
        waiting.append(threading.Thread(target=wait, args=(lang, proc), daemon=True))
        waiting[-1].start()
    made: dict[str, Path] = {}
    failed: list[str] = []
    try:
        if langs:
            made[langs[0]] = book_pdf(html, out, pages, lang=langs[0])
            if ready is not None:
                ready(langs[0], made[langs[0]])
    except Exception as exc:  # the other editions are still waited for, then the failure is raised
        failed.append(f"{langs[0]}: {exc}")
    for thread in waiting:
        thread.join()
    for lang in langs[1:]:
        code, err = ended.get(lang, (-1, "not waited for"))
        if code:
            failed.append(f"{lang}: exit status {code}: {err.strip()[-2000:]}")
        else:
            sys.stderr.write(err)
            made[lang] = final / edition_pdf(lang)
    if failed:
        raise RuntimeError("printing failed: " + "; ".join(failed))
    return made


def blank_shares(pdf: Path, dpi: int = 12) -> list[float]:
    """For each page of ``pdf``, the share of the text area's height left empty below its last mark (the footer
    band excluded), from a coarse grey rendering by poppler's ``pdftoppm`` (Debian's ``poppler-utils``)."""
    exe = shutil.which("pdftoppm")
    if exe is None:
        raise FileNotFoundError(
            "no pdftoppm: install Debian's poppler-utils ('apt-get install poppler-utils')"
        )
    with tempfile.TemporaryDirectory(prefix="dpc-pdf-") as tmp:
        subprocess.run([exe, "-gray", "-r", str(dpi), str(pdf), f"{tmp}/p"], check=True)
        shares = []
        for png in sorted(Path(tmp).glob("p-*.pgm"), key=lambda p: int(p.stem.split("-")[-1])):
            data = png.read_bytes()
            # binary PGM: P5 <w> <h> <max>\n<pixels>
            head = re.match(rb"P5\s+(\d+)\s+(\d+)\s+(\d+)\s", data)
            w, h = int(head.group(1)), int(head.group(2))
            px = data[head.end() :]
            top = round(h * MARGIN_MM["top"] / 297)
            bottom = h - round(h * MARGIN_MM["bottom"] / 297)
            last = top
            for row in range(top, bottom):
                line = px[row * w : (row + 1) * w]
                if min(line) < 200:
                    last = row
            shares.append((bottom - 1 - last) / (bottom - top))
        return shares


def _poppler(tool: str) -> str:
    exe = shutil.which(tool)
    if exe is None:
        raise FileNotFoundError(
            f"no {tool}: install Debian's poppler-utils ('apt-get install poppler-utils')"
        )
    return exe


def page_texts(pdf: Path, mode: str = "raw") -> list[str]:
    """The text of every page of ``pdf``, by poppler's ``pdftotext`` in one pass over the file (pages split at its
    form feeds), read once for the whole file (pypdf's text extraction re-reads a CJK font's character map on
    every page: ~1 s a page). ``mode``: ``"raw"``, in the order the page draws it (as pypdf extracts: a contents
    line's title then its number, a reference's label then its entry); ``"reading"``, poppler's reading order
    (columns told apart); ``"layout"``, as laid out on the page."""
    flags = {"raw": ["-raw"], "reading": [], "layout": ["-layout"]}[mode]
    out = subprocess.run(
        [_poppler("pdftotext"), "-enc", "UTF-8", *flags, str(pdf), "-"],
        capture_output=True,
        check=True,
    ).stdout.decode("utf8")
    pages = out.split("\f")
    if pages and pages[-1] == "":  # pdftotext ends every page, the last one too, with a form feed
        pages.pop()
    return pages


_PAGE = re.compile(r'<page width="([\d.]+)" height="([\d.]+)">')
_WORD = re.compile(
    r'<word xMin="([\d.-]+)" yMin="([\d.-]+)" xMax="([\d.-]+)" yMax="([\d.-]+)">(.*?)</word>', re.S
)


def page_words(pdf: Path) -> list[tuple[float, float, list[tuple[str, float, float]]]]:
    """Every page of ``pdf`` as ``(width, height, words)``, each word ``(text, x, y)`` with the centre of its box
    in pt from the page's top left corner, in the order the page draws them (as :func:`page_texts` ``"raw"``), by
    poppler's ``pdftotext -bbox -raw`` in one pass over the file: what is drawn in a margin (a running head, a
    stamped page number) is told by where it is."""
    out = subprocess.run(
        [_poppler("pdftotext"), "-enc", "UTF-8", "-bbox", "-raw", str(pdf), "-"],
        capture_output=True,
        check=True,
    ).stdout.decode("utf8")
    pages = []
    chunks = _PAGE.split(out)  # [head, w, h, body, w, h, body, ...]
    for k in range(1, len(chunks), 3):
        words = [
            (htmllib.unescape(t), (float(x0) + float(x1)) / 2, (float(y0) + float(y1)) / 2)
            for x0, y0, x1, y1, t in _WORD.findall(chunks[k + 2])
        ]
        pages.append((float(chunks[k]), float(chunks[k + 1]), words))
    return pages


def page_images(pdf: Path) -> list[tuple[int, int, int, int, int]]:
    """Every image drawn in ``pdf`` as ``(page, width px, height px, x ppi, y ppi)`` (page 1-based; ppi: the image's
    pixels per printed inch where it is drawn), by poppler's ``pdfimages -list``; soft masks and JPEGs left out."""
    out = subprocess.run(
        [_poppler("pdfimages"), "-list", str(pdf)], capture_output=True, check=True
    ).stdout.decode("utf8")
    found = []
    # page num type width height color comp bpc enc interp object ID x-ppi y-ppi size ratio; a header and a rule
    for row in (line.split() for line in out.splitlines()[2:]):
        # Chromium draws the page's shadows as grey JPEGs at 300 ppi: left out (a figure is a PNG, Flate-encoded)
        if len(row) >= 16 and row[2] == "image" and row[8] != "jpeg":
            found.append((int(row[0]), int(row[3]), int(row[4]), int(row[-4]), int(row[-3])))
    return found


def page_pdf(page: Path, out: Path | None = None) -> Path:
    """Print one HTML file (a rerun's ``index.html``) to ``out`` (default: beside it, ``.pdf``); returns the path."""
    page = Path(page)
    out = Path(out or page.with_suffix(".pdf"))
    with _serve(page.parent) as url, chromium() as browser:
        print_pages(browser, [(f"{url}/{page.name}", out)])
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--html", type=Path, help="the built book (default: _build/html)")
    parser.add_argument("--out", type=Path, help="where the PDFs go (default: _build/pdf)")
    parser.add_argument("--page", action="append", help="only these pages (notebooks/<id>)")
    parser.add_argument(
        "--lang",
        action="append",
        help="the editions to print (default: en, then every other edition whose HTML is built: "
        "_build/html/<lang>)",
    )
    args = parser.parse_args(argv)
    from ..core.messages import EDITIONS

    langs = args.lang or [
        "en",
        *(
            lang
            for lang in EDITIONS
            if args.html is None and (repo_root() / "_build" / "html" / lang).is_dir()
        ),
    ]
    try:
        if len(langs) == 1:  # one edition (also what book_pdfs runs in each of its processes)
            book_pdf(args.html, args.out, args.page, lang=langs[0])
        else:
            book_pdfs(args.html, args.out, args.page, langs=langs)
    except (FileNotFoundError, RuntimeError) as exc:
        print(f"dpcompendium.pdf: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
