"""PDF of the book, of each chapter, and of a rerun's page, printed by Debian's Chromium.

``make pdf`` (``python -m dpcompendium.book.pdf``) prints every page of the built book (``_build/html``, in the order of
``_toc.yml``) with headless Chromium driven by playwright (the ``/usr/bin/chromium`` the browser test uses; no
browser is downloaded), after MathJax has typeset the page, every image has loaded and every font is ready; the
book's print stylesheet (``_static/dpcompendium.css``, ``@media print``) hides the navigation and wraps code
instead of cutting it. It writes ``_build/pdf/<chapter>.pdf`` for each chapter and ``_build/pdf/dpcompendium.pdf``,
the whole book with one bookmark per page. The glossary's Chinese terms need a CJK font on the machine (Debian's
``fonts-noto-cjk``; ``.ci/run`` installs it): Chromium embeds it, so the terms are text in the PDF.
``dpcompendium run CHAPTER ... --pdf`` prints a rerun's page (``DIR/CHAPTER/index.pdf``) the same way.

    python -m dpcompendium.book.pdf [--html _build/html] [--out _build/pdf] [--page notebooks/<id> ...]
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import http.server
import os
import sys
import threading
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

from ..chapters.registry import toc_files
from ..core.paths import repo_root

__all__ = ["BOOK_PDF", "book_pdf", "chromium", "page_pdf", "print_pages", "toc_pages"]

#: The page is laid out PRINT_SCALE times narrower than A4's text width in CSS px and printed smaller: an A4 text
#: column (182 mm, 688 CSS px) then holds what the screen's 850 px column holds (tables, display math, code),
#: with body text at 0.8 × 16 px ≈ 9.6 pt.
PRINT_SCALE = 0.8
#: The file name of the whole book's PDF.
BOOK_PDF = "dpcompendium.pdf"
CHROMIUM = os.environ.get("DPCOMPENDIUM_CHROMIUM", "/usr/bin/chromium")
_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--font-render-hinting=none"]  # fmt: skip
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
_FOOTER = (
    '<div style="font-size:8px;width:100%;margin:0 14mm;color:#555;display:flex;justify-content:space-between">'
    '<span class="title"></span><span><span class="pageNumber"></span> / <span class="totalPages"></span></span></div>'
)


def toc_pages(toc: Path | None = None) -> list[str]:
    """Every page of ``_toc.yml`` (root first) without suffix, in book order."""
    return [str(Path(f).with_suffix("")) for f in toc_files(toc)]


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:
        pass


@contextlib.contextmanager
def _serve(directory: Path) -> Iterator[str]:
    httpd = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(_Quiet, directory=str(directory))
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


def print_pages(browser, jobs: Sequence[tuple[str, Path]]) -> list[str]:
    """Print each ``(url, pdf path)`` of ``jobs`` to A4 (the page's print stylesheet, a footer with its title and
    page numbers) once it is settled (MathJax done, images loaded, fonts ready); return the pages' titles."""
    titles = []
    tab = browser.new_page(viewport={"width": 1400, "height": 1000})
    try:
        tab.set_default_timeout(120_000)
        for url, out in jobs:
            tab.goto(url, wait_until="load")
            titles.append(tab.evaluate(_SETTLE))
            tab.emulate_media(media="print")
            Path(out).parent.mkdir(parents=True, exist_ok=True)
            tab.pdf(
                path=str(out),
                format="A4",
                print_background=True,
                display_header_footer=True,
                header_template="<span></span>",
                footer_template=_FOOTER,
                margin={"top": "14mm", "bottom": "16mm", "left": "14mm", "right": "14mm"},
                scale=PRINT_SCALE,
            )
            tab.emulate_media(media="screen")
    finally:
        tab.close()
    return titles


def book_pdf(
    html: Path | None = None, out: Path | None = None, pages: Sequence[str] | None = None
) -> Path:
    """Print the built book ``html`` (``_build/html``) into ``out`` (``_build/pdf``): one PDF per page in
    ``out/pages/``, each chapter also as ``out/<chapter>.pdf``, and the whole book as ``out/dpcompendium.pdf`` (the
    pages in ``_toc.yml`` order, one bookmark each). Returns the book's path."""
    from pypdf import PdfWriter

    root = repo_root()
    html = Path(html or root / "_build" / "html")
    out = Path(out or root / "_build" / "pdf")
    pages = list(pages or toc_pages())
    missing = [p for p in pages if not (html / f"{p}.html").is_file()]
    if missing:
        raise FileNotFoundError(f"pages not built in {html}: {missing} (run 'make book' first)")
    jobs = [(p, out / "pages" / (p.replace("/", "__") + ".pdf")) for p in pages]
    t0 = time.perf_counter()
    with _serve(html) as url, chromium() as browser:
        titles = print_pages(browser, [(f"{url}/{p}.html", f) for p, f in jobs])
    writer = PdfWriter()
    for (page, pdf), title in zip(jobs, titles, strict=True):
        start = len(writer.pages)
        writer.append(str(pdf), import_outline=False)
        writer.add_outline_item(title=title or page, page_number=start)
        if page.startswith("notebooks/"):
            (out / f"{Path(page).name}.pdf").write_bytes(pdf.read_bytes())
    writer.add_metadata({"/Title": "dpcompendium: differential privacy, executed"})
    book = out / BOOK_PDF
    tmp = book.with_suffix(".pdf.part")
    with open(tmp, "wb") as fh:
        writer.write(fh)
    tmp.replace(book)
    print(
        f"pdf: {book} ({len(writer.pages)} pages, {len(pages)} book pages) in "
        f"{time.perf_counter() - t0:.1f} s",
        flush=True,
    )
    return book


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
    args = parser.parse_args(argv)
    try:
        book_pdf(args.html, args.out, args.page)
    except FileNotFoundError as exc:
        print(f"dpcompendium.pdf: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
