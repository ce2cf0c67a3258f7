"""The built book in a real headless Chromium, with the network cut off.

For every page in ``_toc.yml``: it loads (HTTP 200); every resource it asks for is served locally (any request to a
host other than 127.0.0.1 is recorded, aborted and fails the test, so the book provably works offline); math is
typeset by the local MathJax (no raw TeX delimiters left, no MathJax error); every ``<img>`` has loaded
(``naturalWidth > 0``); every figure a chapter declares is on its page with an image; no cell output holds a traceback.
Coursework mode: on every chapter page the exercise solutions (sphinx-exercise, ``:class: dropdown``) are hidden when
the page loads and shown by a click on their title; every Library reference page documents Python objects. Each page
is loaded once (``test_page`` runs every check of the page in that visit: most of a visit is MathJax typesetting).

The page of a rerun (``dpcompendium run``) and the settle helper's own test need Chromium but no built book: they are
marked ``integration`` and run in the last stage of ``make test``. The rerun page is checked as the book renders it:
figures numbered with their captions, figure and theorem references and citations resolved in the page, the
chapter's works cited listed, references to the rest of the book linked to the online book, no raw key.

Needs ``_build/html`` (``make book`` or ``dpcompendium book``) and Debian's ``/usr/bin/chromium``, driven through the
``playwright`` package (never ``playwright install``). Skips, with the reason, only when ``_build/html`` does not
exist; a missing Chromium fails (``apt-get install chromium``; ``.ci/run`` installs it).
"""

from __future__ import annotations

import contextlib
import functools
import http.server
import json
import os
import re
import shutil
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from _chapter_ids import DP_MEAN

from dpcompendium.book.pdf import toc_pages

pytestmark = pytest.mark.book

ROOT = Path(os.environ.get("DPCOMPENDIUM_REPO") or Path(__file__).resolve().parents[1])
#: DPCOMPENDIUM_BROWSER_LANG=zh_CN: the same checks on the pages of the Chinese edition (the zh stage of make test).
HTML = ROOT / "_build" / "html" / os.environ.get("DPCOMPENDIUM_BROWSER_LANG", "")
CHROMIUM = os.environ.get("DPCOMPENDIUM_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
LOCAL_HOSTS = {"127.0.0.1"}
#: The window the pages are read in (a laptop's browser, full width): nothing may scroll sideways at this width.
VIEWPORT_WIDTH = 1400
#: A figure is displayed at no less than this share of its drawn physical size (natural px / dpi × 96 CSS px).
MIN_DISPLAY_SHARE = 0.85
#: An alt text that is only a file name (MyST-NB's default for an output image: its hash) says nothing.
FILE_NAME_ALT = re.compile(r"^(?:.*/)?[\w.-]*\.(?:png|jpe?g|svg|gif)$|^[0-9a-f]{16,}$", re.I)
#: Paths of the machine that built the book, which no chapter may show a reader.
BUILD_PATHS = ("/tmp/", "/root/", str(ROOT) + "/")
#: Text that betrays math MathJax did not typeset: TeX delimiters, or a $...$ span holding a TeX command.
RAW_TEX = re.compile(r"\\\(|\\\)|\\\[|\\\]|\$\$|\\begin\{|\$[^$\s][^$\n]*\\[A-Za-z]+[^$\n]*\$")
TRACEBACK = re.compile(
    r"Traceback \(most recent call last\)|^\s*Cell In\[\d+\]|Error\s+Traceback", re.M
)


def declared_figures(page: str) -> list[str]:
    """Names of the figures a chapter notebook declares in its cells' ``mystnb.figure`` metadata."""
    path = ROOT / f"{page}.ipynb"
    if not path.is_file():
        return []
    nb = json.loads(path.read_text(encoding="utf8"))
    names = []
    for cell in nb.get("cells", []):
        fig = (cell.get("metadata", {}).get("mystnb") or {}).get("figure") or {}
        if fig.get("name"):
            names.append(fig["name"])
    return names


PAGES = toc_pages()  # every page of _toc.yml (root first), without suffix, in book order
CHAPTER_PAGES = [p for p in PAGES if p.startswith("notebooks/")]
#: the chapters and the executable book pages (book/primer.ipynb): exercises, figures and readability are checked alike
EXECUTED_PAGES = CHAPTER_PAGES + [
    p for p in PAGES if p.startswith("book/") and (ROOT / f"{p}.ipynb").is_file()
]
API_PAGES = [p for p in PAGES if p.startswith("book/api/") and not p.endswith("/index")]
#: Pages whose generated text, tables and code are checked for the book's voice (issue 33), at 1400 and 390 px.
VOICE_PAGES = CHAPTER_PAGES + [p for p in PAGES if p.endswith("/coursework")]
#: The width of a phone (an iPhone 12–15 in portrait): the voice checks hold there too.
PHONE_WIDTH = 390
#: Markup that reached the page as text: bold marks, backticks, dollars, a TeX command, a TeX sub/superscript.
RAW_MARKUP = re.compile(r"\*\*|`|\$|\\[A-Za-z]+|\^\{|_\{")
#: Maths written in ASCII instead of typeset.
ASCII_MATHS = re.compile(r"\beps(?:_\w+)?\b|>=|<=|\bLap\(|\bsqrt\(|\d\s?\*\s?\d")
#: A line of scaffolding in a code cell the reader sees.
SCAFFOLD_LINE = re.compile(
    r"^\s*(?:from myst_nb import glue|from dpcompendium\.book\.prose import glue|glue\(|import warnings|"
    r"warnings\.\w+\(|#\s*fmt:|#\s*dpcompendium run reads one|%matplotlib|if (?:CHECK|check_text)\b)"
)


def voice_problems(info: dict) -> list[str]:
    """What on a page (``info`` from INSPECT) is not in the book's voice: raw markup or ASCII maths in its visible
    text (code and typeset maths aside), a visible line of glue, import, warnings or pragma scaffolding, a table with
    pandas' default integer index, a table cell holding a ``$``."""
    problems = []
    text = info["text"]
    for pattern, what in ((RAW_MARKUP, "raw markup"), (ASCII_MATHS, "ASCII maths")):
        for m in list(pattern.finditer(text))[:3]:
            problems.append(f"{what} {text[max(0, m.start() - 50) : m.end() + 50]!r}")
    lines = [line for line in info["codeLines"] if SCAFFOLD_LINE.match(line)]
    if lines:
        problems.append(f"{len(lines)} lines of scaffolding shown, e.g. {lines[:3]}")
    for t in info["tables"]:
        first = t["first"]
        if len(first) >= 2 and first == [str(i) for i in range(len(first))] and not t["corner"]:
            problems.append(f"a table with a default integer index (first column {first[:4]}…)")
        if t["dollar"]:
            problems.append(f"table cells holding a $: {t['dollar']}")
    return problems


def test_voice_problems_finds_each_kind():
    info = {
        "text": "a **bold** claim: Lap(2*60/eps) with eps_eff >= 1, $x$ and e^{x}",
        "codeLines": ["from myst_nb import glue", "x = 1", "# fmt: off"],
        "tables": [{"first": ["0", "1", "2"], "corner": "", "dollar": ["$\\sum"]}],
    }
    found = " ".join(voice_problems(info))
    for what in (
        "raw markup",
        "ASCII maths",
        "2 lines of scaffolding",
        "default integer index",
        "holding a $",
    ):
        assert what in found, what
    clean = {"text": "P-HP at ε = 1", "codeLines": ["x = 1"], "tables": [{"first": ["P-HP"], "corner": "method",
             "dollar": []}]}  # fmt: skip
    assert voice_problems(clean) == []


def _missing(what: str) -> None:
    ci = " (CI=true)" if os.environ.get("CI", "").lower() in {"1", "true", "yes"} else ""
    pytest.fail(
        f"{what}{ci}: install Debian's chromium with 'apt-get install chromium' (.ci/run does)"
    )


@pytest.fixture(scope="module")
def server():
    """Serve _build/html on 127.0.0.1 (a free port) from a thread; yield the base URL."""
    if not HTML.is_dir():
        pytest.skip(f"the book is not built: no {HTML} (run 'make book' first)")
    with serve(HTML) as url:
        yield url


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:  # keep pytest's output clean
        pass


class _SlowHandler(_QuietHandler):
    """Answers ``/slow`` after 4 s (a request that stays in flight), anything else as files."""

    def do_GET(self) -> None:
        if self.path == "/slow":
            time.sleep(4)
            self.send_response(200)
            self.send_header("Content-Length", "2")
            self.end_headers()
            self.wfile.write(b"ok")
            return
        super().do_GET()


@contextlib.contextmanager
def offline_chromium():
    """A fresh headless Chromium profile in which every request is routed: non-local ones are recorded and aborted
    (``context.external_requests``)."""
    if not (Path(CHROMIUM).is_file() and os.access(CHROMIUM, os.X_OK)):
        _missing(f"no Chromium at {CHROMIUM}")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:  # pragma: no cover - the lock installs playwright
        _missing("the playwright package is not installed")
    profile = tempfile.mkdtemp(prefix="dpcompendium-chromium-")
    pw = sync_playwright().start()
    context = None
    try:
        context = pw.chromium.launch_persistent_context(
            profile,
            executable_path=CHROMIUM,
            headless=True,
            args=CHROMIUM_ARGS,
            service_workers="block",
            offline=False,
            viewport={"width": VIEWPORT_WIDTH, "height": 1000},
        )
        context.set_default_timeout(120_000)
        external: list[str] = []

        def route(route, request):
            url = request.url
            parts = urlsplit(url)
            if parts.scheme in {"data", "blob", "about"} or parts.hostname in LOCAL_HOSTS:
                route.continue_()
            else:
                external.append(url)
                route.abort("internetdisconnected")

        context.route("**/*", route)
        context.external_requests = external  # type: ignore[attr-defined]
        yield context
    finally:
        if context is not None:
            context.close()
        pw.stop()
        shutil.rmtree(profile, ignore_errors=True)


@contextlib.contextmanager
def serve(directory: Path):
    """Serve ``directory`` on 127.0.0.1 (a free port) from a thread; yield the base URL."""
    handler = functools.partial(_QuietHandler, directory=str(directory))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
    finally:
        httpd.shutdown()
        httpd.server_close()


@pytest.fixture(scope="module")
def chromium():
    """One offline Chromium per module: Playwright's sync API allows one running instance per thread."""
    with offline_chromium() as context:
        yield context


@pytest.fixture(scope="module")
def browser_context(server, chromium):
    return chromium


#: How long the requests a page makes may stay in flight once it has been inspected.
SETTLE_S = 30.0


def track_requests(tab) -> set:
    """The requests of ``tab`` in flight, kept up to date by its events (a live set)."""
    pending: set = set()
    tab.on("request", lambda r: pending.add(r))
    tab.on("requestfinished", lambda r: pending.discard(r))
    tab.on("requestfailed", lambda r: pending.discard(r))
    return pending


def wait_for_requests(tab, pending: set) -> list[str]:
    """Wait until no request of ``tab`` is in flight at two samples 150 ms apart (at most SETTLE_S); return the URLs
    still in flight then (empty when settled). Not Playwright's ``networkidle`` (500 ms without any request): a page
    whose scripts keep fetching small files never reaches it on a slow machine, and it names no request."""
    deadline = time.monotonic() + SETTLE_S
    quiet = 0
    while time.monotonic() < deadline:
        tab.wait_for_timeout(150)  # lets Playwright deliver the page's events
        quiet = quiet + 1 if not pending else 0
        if quiet >= 2:
            return []
    return sorted(r.url for r in pending)


@pytest.mark.integration  # needs Chromium, not the built book
def test_wait_for_requests_names_a_request_still_in_flight(chromium, tmp_path, monkeypatch):
    """The settle step of test_page: a request still in flight when time is up is reported by its URL; once it has
    finished, the page counts as settled."""
    (tmp_path / "index.html").write_text(
        "<html><body><script>fetch('/slow')</script></body></html>"
    )
    httpd = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(_SlowHandler, directory=str(tmp_path))
    )
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    monkeypatch.setattr(sys.modules[__name__], "SETTLE_S", 1.0)
    tab = chromium.new_page()
    try:
        pending = track_requests(tab)
        tab.goto(f"http://127.0.0.1:{httpd.server_address[1]}/index.html", wait_until="load")
        assert [u.rsplit("/", 1)[-1] for u in wait_for_requests(tab, pending)] == ["slow"]
        monkeypatch.setattr(sys.modules[__name__], "SETTLE_S", 15.0)
        assert wait_for_requests(tab, pending) == []
    finally:
        tab.close()
        httpd.shutdown()
        httpd.server_close()


# JavaScript run in the page: wait for MathJax, force lazy images to load, then report what the test checks.
INSPECT = """
async () => {
  const out = {};
  if (window.MathJax && MathJax.startup && MathJax.startup.promise) {
    await MathJax.startup.promise;
  }
  out.mathjax = !!(window.MathJax && MathJax.startup && MathJax.version);
  const imgs = Array.from(document.images);
  for (const img of imgs) { if (img.loading === 'lazy') img.loading = 'eager'; }
  await Promise.all(imgs.map(img => img.complete ? null : new Promise(r => {
    img.addEventListener('load', r); img.addEventListener('error', r); setTimeout(r, 15000);
  })));
  out.images = imgs.length;
  out.broken = imgs.filter(i => !(i.complete && i.naturalWidth > 0)).map(i => i.getAttribute('src'));
  const main = document.querySelector('main') || document.body;
  out.mathNodes = main.querySelectorAll('.math').length;
  out.untypeset = Array.from(main.querySelectorAll('.math'))
    .filter(n => !n.querySelector('mjx-container')).map(n => n.textContent.slice(0, 80));
  out.mjx = main.querySelectorAll('mjx-container').length;
  out.mathErrors = Array.from(main.querySelectorAll('mjx-merror'))
    .map(n => (n.getAttribute('data-mjx-error') || n.textContent).slice(0, 80));
  const clone = main.cloneNode(true);
  clone.querySelectorAll('pre, code, script, style, mjx-container, .cell_input, textarea').forEach(n => n.remove());
  out.text = clone.innerText;
  out.outputs = Array.from(main.querySelectorAll('.cell_output')).map(n => n.innerText);
  out.tracebackNodes = main.querySelectorAll('.output.traceback, .cell_output .traceback').length;
  out.figures = Array.from(main.querySelectorAll('figure[id], div.figure[id]')).map(f => ({
    id: f.id, imgs: f.querySelectorAll('img').length}));
  // readability: what scrolls sideways in a code cell, how large every image is shown, its alt text
  // shown: laid out and not inside a collapsed block (a hide-input cell's code, a closed dropdown)
  const shown = el => el.getClientRects().length > 0 && !el.closest('details:not([open])');
  const label = el => (el.closest('div.cell_output') ? 'output' : 'code') + ' <' + el.tagName.toLowerCase() +
    (el.className && typeof el.className === 'string' ? '.' + el.className.trim().split(/\\s+/).join('.') : '') + '>';
  out.sideways = Array.from(main.querySelectorAll('div.cell, div.cell pre, div.cell div, div.cell table'))
    .filter(el => shown(el) && el.scrollWidth > el.clientWidth + 1)
    .map(el => ({what: label(el), over: el.scrollWidth - el.clientWidth,
                 text: (el.innerText || '').trim().split('\\n')[0].slice(0, 100)}));
  out.imgs = imgs.filter(shown).map(i => ({src: i.currentSrc || i.src, alt: i.getAttribute('alt') || '',
    natural: i.naturalWidth, shown: i.getBoundingClientRect().width}));
  out.visible = main.innerText;
  // the book's voice (issue 33): the code lines a reader sees, and every table's first column and cells
  out.codeLines = Array.from(main.querySelectorAll('div.cell_input pre')).filter(shown)
    .flatMap(p => p.innerText.split('\\n'));
  out.tables = Array.from(main.querySelectorAll('table')).filter(t => !t.closest('.cell_input, .highlight'))
    .map(t => {
      const rows = Array.from(t.querySelectorAll('tbody tr'));
      const head = t.querySelector('thead tr:last-child');
      const cellText = c => { const k = c.cloneNode(true); k.querySelectorAll('mjx-container').forEach(n => n.remove());
        return k.innerText.trim(); };
      return {first: rows.map(r => r.cells[0] ? cellText(r.cells[0]) : ''),
              corner: head && head.cells[0] ? cellText(head.cells[0]) : null,
              dollar: Array.from(t.querySelectorAll('td, th')).map(cellText).filter(x => x.includes('$')).slice(0, 3)};
    });
  out.pageWidth = document.documentElement.scrollWidth;
  return out;
}
"""


@pytest.mark.parametrize("page", PAGES)
def test_page(browser_context, server, page):
    failed: list[str] = []
    tab = browser_context.new_page()
    tab.on("requestfailed", lambda r: failed.append(f"{r.url} ({r.failure})"))
    tab.on(
        "response",
        lambda r: failed.append(f"{r.url} (HTTP {r.status})") if r.status >= 400 else None,
    )
    pending = track_requests(tab)
    n_external = len(browser_context.external_requests)
    try:
        response = tab.goto(f"{server}/{page}.html", wait_until="load")
        assert response is not None and response.status == 200, (
            f"{page}.html: HTTP {response and response.status}"
        )
        info = tab.evaluate(INSPECT)
        # the checks of particular pages, in the same visit (a page is loaded once: most of a visit is MathJax)
        solutions = tab.evaluate(SOLUTIONS) if page in EXECUTED_PAGES else None
        n_objects = tab.evaluate(API_OBJECTS) if page in API_PAGES else None
        unsettled = wait_for_requests(tab, pending)
    finally:
        tab.close()
    assert not unsettled, (
        f"{page}: requests still in flight {SETTLE_S:g} s after the page was inspected: {unsettled}"
    )

    external = browser_context.external_requests[n_external:]
    assert not external, f"{page}: requests left the machine: {external}"
    local_failures = [f for f in failed if urlsplit(f.split(" ")[0]).hostname in LOCAL_HOSTS]
    assert not local_failures, f"{page}: resources failed to load: {local_failures}"

    if info["mathNodes"]:
        assert info["mathjax"], f"{page}: has math but MathJax did not load"
        assert not info["untypeset"], f"{page}: math not typeset: {info['untypeset'][:3]}"
        assert info["mjx"] >= info["mathNodes"], (
            f"{page}: {info['mjx']} typeset of {info['mathNodes']} math nodes"
        )
    assert not info["mathErrors"], f"{page}: MathJax errors: {info['mathErrors'][:3]}"
    raw = RAW_TEX.search(info["text"])
    assert raw is None, (
        f"{page}: raw TeX left in the page: {info['text'][max(0, raw.start() - 40) : raw.end() + 40]!r}"
    )

    assert not info["broken"], f"{page}: images that did not load: {info['broken']}"

    assert info["tracebackNodes"] == 0, f"{page}: an error output is rendered in the page"
    for text in info["outputs"]:
        m = TRACEBACK.search(text)
        assert m is None, (
            f"{page}: a cell output holds a traceback: {text[max(0, m.start() - 40) : m.end() + 200]!r}"
        )

    if page in EXECUTED_PAGES:
        check_readable(page, info)
    if page in VOICE_PAGES:
        problems = voice_problems(info)
        assert not problems, f"{page} at {VIEWPORT_WIDTH} px: " + "; ".join(problems[:8])

    figures = {f["id"]: f["imgs"] for f in info["figures"]}
    for name in declared_figures(page):
        assert name in figures, (
            f"{page}: declared figure {name!r} is not in the page (no image output?)"
        )
        assert figures[name] >= 1, f"{page}: figure {name!r} holds no image"
    if solutions is not None:
        check_solutions(page, solutions)
    if n_objects is not None:
        assert n_objects > 0, f"{page}: no documented Python object (autodoc produced nothing?)"


@pytest.fixture(scope="module")
def phone_tab(browser_context):
    """One tab at :data:`PHONE_WIDTH` px (the pages are read again as on a phone)."""
    tab = browser_context.new_page()
    tab.set_viewport_size({"width": PHONE_WIDTH, "height": 844})
    yield tab
    tab.close()


@pytest.mark.parametrize("page", VOICE_PAGES)
def test_page_on_a_phone(phone_tab, server, page):
    """The book's voice at 390 px: the same checks of text, code and tables as at 1400 px (what a narrow
    layout reveals: tables and code boxes re-flowed, hidden sidebars); a screenshot is kept in
    ``_build/screenshots/`` for a human look."""
    response = phone_tab.goto(f"{server}/{page}.html", wait_until="load")
    assert response is not None and response.status == 200
    info = phone_tab.evaluate(INSPECT)
    shots = ROOT / "_build" / "screenshots"
    shots.mkdir(parents=True, exist_ok=True)
    phone_tab.screenshot(path=str(shots / f"{page.replace('/', '-')}-{PHONE_WIDTH}.png"))
    problems = voice_problems(info)
    assert not problems, f"{page} at {PHONE_WIDTH} px: " + "; ".join(problems[:8])


def png_dpi(path: Path) -> float | None:
    """The resolution a PNG was drawn at (its ``pHYs`` chunk, pixels per metre), or None if it declares none."""
    data = path.read_bytes()[:4096]
    i = data.find(b"pHYs")
    if data[:8] != b"\x89PNG\r\n\x1a\n" or i < 0 or data[i + 12] != 1:  # unit 1: metre
        return None
    return int.from_bytes(data[i + 4 : i + 8], "big") * 0.0254


def check_readable(page: str, info: dict) -> None:
    """A chapter page read at VIEWPORT_WIDTH px: no code cell or output scrolls sideways; every image is shown at
    no less than MIN_DISPLAY_SHARE of its physical size (the dpi it was drawn at, from its file) and has an alt
    text that says something (not a file name); no path of the build machine in the page's visible text."""
    assert not info["sideways"], (
        f"{page}: {len(info['sideways'])} code cells or outputs scroll sideways at {VIEWPORT_WIDTH} px, e.g. "
        f"{info['sideways'][:5]}"
    )
    small, no_alt = [], []
    for img in info["imgs"]:
        name = urlsplit(img["src"]).path.rsplit("/", 1)[-1]
        path = HTML / urlsplit(img["src"]).path.lstrip("/")
        dpi = png_dpi(path) if path.suffix == ".png" and path.is_file() else None
        physical = img["natural"] * 96 / (dpi or 96)
        if img["shown"] < MIN_DISPLAY_SHARE * physical:
            small.append(
                f"{name}: {img['shown']:.0f} px shown of {physical:.0f} px ({dpi or 96:.0f} dpi)"
            )
        alt = img["alt"].strip()
        if len(alt) < 10 or FILE_NAME_ALT.match(alt):
            no_alt.append(f"{name}: alt {alt!r}")
    assert not small, (
        f"{page}: figures shown smaller than {MIN_DISPLAY_SHARE:.0%} of their size: {small}"
    )
    assert not no_alt, f"{page}: images without an alt text that says what they show: {no_alt}"
    leaks = sorted({p for p in BUILD_PATHS if p in info["visible"]})
    assert not leaks, f"{page}: build paths in the page's visible text: " + "; ".join(
        info["visible"][max(0, info["visible"].find(p) - 60) :][:160] for p in leaks
    )


# JavaScript run in a chapter page: the state of every exercise solution, before and after a click on its title.
SOLUTIONS = """
async () => {
  const shown = el => {
    const body = el.querySelector(':scope > .admonition-title ~ *');
    if (!body) return false;
    const style = getComputedStyle(body);
    return style.visibility !== 'hidden' && body.getBoundingClientRect().height > 0;
  };
  const sols = Array.from(document.querySelectorAll('main div.solution'));
  const before = sols.map(el => ({id: el.id, shown: shown(el), button: !!el.querySelector('button.toggle-button')}));
  for (const el of sols) {
    const button = el.querySelector('button.toggle-button');
    if (button) button.click();
  }
  await new Promise(r => setTimeout(r, 800));
  const after = sols.map(el => shown(el));
  return {exercises: document.querySelectorAll('main div.exercise').length, before, after};
}
"""

API_OBJECTS = "() => document.querySelectorAll('main dl.py.function, main dl.py.class, main dl.py.data').length"


def check_solutions(page: str, info: dict) -> None:
    """Coursework mode on a chapter page (``info`` from SOLUTIONS): at least 3 exercises, a solution for each,
    every solution hidden when the page loads, with a toggle button, and shown by a click on it."""
    assert info["exercises"] >= 3, (
        f"{page}: {info['exercises']} exercises rendered, need at least 3"
    )
    assert len(info["before"]) >= info["exercises"], f"{page}: fewer solutions than exercises"
    visible = [s["id"] for s in info["before"] if s["shown"]]
    assert not visible, f"{page}: solutions visible when the page loads: {visible}"
    no_button = [s["id"] for s in info["before"] if not s["button"]]
    assert not no_button, f"{page}: solutions without a toggle button: {no_button}"
    assert all(info["after"]), f"{page}: a click on the toggle button did not show every solution"


def test_chapter_and_library_pages_are_in_the_toc():
    """test_page checks the solutions of CHAPTER_PAGES and the objects of API_PAGES: neither list may be empty."""
    assert len(CHAPTER_PAGES) >= 6 and len(API_PAGES) >= 5, (CHAPTER_PAGES, API_PAGES)


def test_every_toc_page_was_built():
    if not HTML.is_dir():
        pytest.skip(f"the book is not built: no {HTML}")
    missing = [p for p in PAGES if not (HTML / f"{p}.html").is_file()]
    assert not missing, f"pages in _toc.yml with no HTML: {missing}"


# ---- the page of a rerun: dpcompendium run writes DIR/CHAPTER/index.html (needs no built book)

#: A fast chapter at a reduced size (the shape of a user's rerun; figures, math and headline numbers included).
RERUN = [DP_MEAN, "-p", "reps", "5", "-p", "epsilons", "[0.5, 2]", "-p", "ns", "[100]"]
RERUN += ["-p", "evidence_draws", "2000", "-p", "seed", "7"]


@pytest.fixture(scope="module")
def rerun_dir(tmp_path_factory):
    import subprocess
    import sys

    out = tmp_path_factory.mktemp("rerun")
    exe = Path(sys.executable).with_name("dpcompendium")
    proc = subprocess.run(
        [str(exe), "run", *RERUN, "--out", str(out), "--pdf"],
        capture_output=True,
        text=True,
        timeout=1800,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    return out / RERUN[0]


@pytest.mark.integration  # a rerun through the CLI, then its page in Chromium (needs no built book)
def test_rerun_page(rerun_dir, chromium):
    failed: list[str] = []
    context = chromium
    seen = len(context.external_requests)
    with serve(rerun_dir) as url:
        tab = context.new_page()
        tab.on("requestfailed", lambda r: failed.append(f"{r.url} ({r.failure})"))
        tab.on(
            "response",
            lambda r: failed.append(f"{r.url} (HTTP {r.status})") if r.status >= 400 else None,
        )
        response = tab.goto(f"{url}/index.html", wait_until="load")
        assert response is not None and response.status == 200
        info = tab.evaluate(INSPECT)
        refs = tab.evaluate(REFERENCES)
        prov = tab.inner_text("#provenance")
        headline = tab.inner_text("section.headline")
        external = list(context.external_requests[seen:])
        tab.close()
    assert not external, f"requests left the machine: {external}"
    assert not failed, f"resources failed to load: {failed}"
    # the provenance block: changed parameters, seed, version, commit, lock hash, date, wall time
    for text in (
        "reps = 5",
        "epsilons = [0.5, 2]",
        "ns = [100]",
        "seed = 7",
        "git commit",
        "SHA-256",
    ):
        assert text in prov, f"{text!r} not in the provenance block: {prov!r}"
    assert re.search(r"\b[0-9a-f]{64}\b", prov), "no lock hash"
    assert re.search(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC", prov) and re.search(r"[\d.]+ s", prov)
    assert "this run" in headline and "default run" in headline
    # --pdf: the page printed by Chromium beside it (dpcompendium.pdf), figures and all
    from pypdf import PdfReader

    pdf = PdfReader(rerun_dir / "index.pdf")
    assert "differential privacy" in pdf.pages[0].extract_text().replace("\ufb00", "ff")
    assert sum(len(p.images) for p in pdf.pages) >= len(declared_figures(f"notebooks/{DP_MEAN}"))
    # every figure is there and loaded
    declared = declared_figures(f"notebooks/{DP_MEAN}")
    assert info["images"] >= len(declared) > 0
    assert not info["broken"], f"images that did not load: {info['broken']}"
    # math typeset by the local MathJax, nothing raw left
    assert info["mathNodes"] > 0 and info["mathjax"]
    assert not info["untypeset"], f"math not typeset: {info['untypeset'][:3]}"
    assert info["mjx"] >= info["mathNodes"]
    assert not info["mathErrors"], f"MathJax errors: {info['mathErrors'][:3]}"
    raw = RAW_TEX.search(info["text"])
    assert raw is None, f"raw TeX left: {info['text'][max(0, raw.start() - 40) : raw.end() + 40]!r}"
    check_rerun_references(refs, info["text"], declared)
    problems = voice_problems(info)  # the rerun's page speaks with the book's voice
    assert not problems, "rerun page: " + "; ".join(problems[:8])


# JavaScript run in a rerun's page: figures and their captions, cross-references, citations, links to the book.
REFERENCES = """
() => {
  const main = document.querySelector('main') || document.body;
  const resolved = a => !!document.getElementById(decodeURIComponent(a.getAttribute('href').slice(1)));
  return {
    figures: Array.from(main.querySelectorAll('figure[id]')).map(f => ({
      id: f.id, captions: f.querySelectorAll('figcaption').length,
      number: (f.querySelector('.caption-number') || {}).textContent || '',
      caption: ((f.querySelector('figcaption') || {}).innerText || '').trim()})),
    numrefs: Array.from(main.querySelectorAll('a.reference.internal[href^="#fig-"]')).map(a => ({
      text: a.textContent.trim(), resolved: resolved(a)})),
    proofs: Array.from(main.querySelectorAll('a.reference.internal[href^="#thm-"], a.reference.internal[href^="#def-"]'))
      .map(a => ({text: a.textContent.trim(), resolved: resolved(a)})),
    citations: Array.from(main.querySelectorAll('.bibtex-citation a[href^="#"]')).map(a => ({
      text: a.textContent.trim(), resolved: resolved(a)})),
    entries: main.querySelectorAll('.citation-list .citation').length,
    book: Array.from(main.querySelectorAll('a.external-book')).map(a => ({href: a.href, text: a.textContent.trim()})),
  };
}
"""
#: a label or bibliography key shown as text instead of its target
RAW_KEY = re.compile(
    r"\b(?:fig|thm|def|lem|prop|ex)-[a-z0-9]+(?:-[a-z0-9]+)+\b|\{(?:cite|numref|prf:|glue|doc\})|\?\?"
)


def check_rerun_references(refs: dict, text: str, declared: list[str]) -> None:
    """A rerun's page as the book renders it: every declared figure numbered with one caption, every figure
    reference and citation resolved within the page to its number or author and year, the chapter's works cited
    listed, references to the rest of the book pointing to the online book with the target's title; no raw key."""
    from dpcompendium.book.rerun_page import BOOK_URL

    figures = {f["id"]: f for f in refs["figures"]}
    for name in declared:
        assert name in figures, f"figure {name} is not on the rerun page"
    for f in refs["figures"]:
        assert f["captions"] == 1 and re.fullmatch(r"Fig\. \d+", f["number"].strip()), f
        assert len(f["caption"]) > len(f["number"]) + 10, f"figure {f['id']}: no caption text"
    assert refs["numrefs"] and all(
        r["resolved"] and re.fullmatch(r"Fig\. \d+", r["text"]) for r in refs["numrefs"]
    ), refs["numrefs"]
    assert all(r["resolved"] and r["text"] for r in refs["proofs"]), refs["proofs"]
    keys = set(re.findall(r"@\w+\{([^,\s]+),", (ROOT / "book" / "references.bib").read_text()))
    assert refs["citations"] and all(
        r["resolved"] and r["text"] not in keys for r in refs["citations"]
    ), refs["citations"][:5]
    assert refs["entries"] >= 3, "the chapter's works cited are not listed"
    assert refs["book"] and all(
        r["href"].startswith(BOOK_URL + "/") and r["text"] and not RAW_KEY.search(r["text"])
        for r in refs["book"]
    ), refs["book"]
    raw = RAW_KEY.search(text)
    assert raw is None, f"raw key left: {text[max(0, raw.start() - 40) : raw.end() + 40]!r}"


# ---- maths that fits, figures that open full size, and a phone's width (issue #33's reader checks)

#: A phone's window (an iPhone 12–15 in portrait): only tables and figures that open full size may scroll sideways.
PHONE_WIDTH = 390
#: The pages a reader reads on a phone: every chapter, the primer and the coursework page (its command transcripts).
READING_PAGES = [p for p in PAGES if p.startswith("notebooks/")] + [
    p for p in PAGES if p in ("book/primer", "book/coursework")
]

# JavaScript run in a page (MathJax done, images loaded): display equations wider than their box, images of
# figures that do not open full size, and, when the window is narrow, what scrolls sideways or runs past the window.
LAYOUT = """
async () => {
  if (window.MathJax && MathJax.startup && MathJax.startup.promise) { await MathJax.startup.promise; }
  const imgs = Array.from(document.images);
  for (const img of imgs) { if (img.loading === 'lazy') img.loading = 'eager'; }
  await Promise.all(imgs.map(img => img.complete ? null : new Promise(r => {
    img.addEventListener('load', r); img.addEventListener('error', r); setTimeout(r, 15000);
  })));
  if (window.dpcFitMath) window.dpcFitMath();
  await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
  const main = document.querySelector('main') || document.body;
  const shown = el => el.getClientRects().length > 0 && !el.closest('details:not([open])');
  const text = el => (el.innerText || el.textContent || '').trim().split('\\n')[0].slice(0, 80);
  const out = {width: window.innerWidth};
  out.wideMath = Array.from(main.querySelectorAll('mjx-container[display="true"]')).filter(shown).map(c => {
    const box = c.parentElement.getBoundingClientRect();
    const math = (c.querySelector('mjx-math') || c).getBoundingClientRect();
    const over = Math.max(c.scrollWidth - c.clientWidth, math.width - box.width, math.right - box.right);
    return {over: Math.round(over), tex: (c.parentElement.textContent || '').trim().slice(0, 80)};
  }).filter(m => m.over > 1);
  // a figure's image opens full size: it is a link to an image file at least as large as it is shown
  out.figures = Array.from(main.querySelectorAll('figure img')).filter(shown).map(img => {
    const a = img.closest('a[href]');
    return {src: img.getAttribute('src'), link: a ? a.getAttribute('href') : null,
            natural: img.naturalWidth, shown: img.getBoundingClientRect().width};
  });
  // what may scroll sideways: a box whose overflow is a table, or a figure's image that opens full size
  const allowed = el => {
    const table = el.tagName === 'TABLE' ? el : el.querySelector('table');
    if (table && table.scrollWidth >= el.scrollWidth - 2) return true;
    const img = el.querySelector('img');
    return !!(el.closest('figure') && img && img.closest('a[href]') && img.scrollWidth >= el.scrollWidth - 2);
  };
  out.scrolls = Array.from(main.querySelectorAll('*')).filter(el => {
    if (!shown(el) || el.scrollWidth <= el.clientWidth + 1) return false;
    const ox = getComputedStyle(el).overflowX;
    return ox === 'auto' || ox === 'scroll' || (ox === 'hidden' && el.tagName === 'PRE');
  }).filter(el => !allowed(el)).map(el => ({tag: el.tagName.toLowerCase() + '.' +
      (typeof el.className === 'string' ? el.className.trim().split(/\\s+/).join('.') : ''),
      over: el.scrollWidth - el.clientWidth, text: text(el)}));
  // anything laid out past the window's right edge (outside a box that may scroll)
  const scroller = el => { for (let p = el.parentElement; p && p !== main; p = p.parentElement) {
      const ox = getComputedStyle(p).overflowX;
      if (ox === 'auto' || ox === 'scroll' || ox === 'hidden' || ox === 'clip') return p; }
    return null; };
  out.past = Array.from(main.querySelectorAll('p, li, pre, table, img, mjx-container, figure, dl, h1, h2, h3'))
    .filter(el => shown(el) && el.getBoundingClientRect().right > window.innerWidth + 1 && !scroller(el))
    .map(el => ({tag: el.tagName.toLowerCase(), right: Math.round(el.getBoundingClientRect().right),
                 text: text(el)}));
  out.page = document.documentElement.scrollWidth;
  return out;
}
"""


def page_layout(context, server: str, page: str, width: int) -> dict:
    """LAYOUT of ``page`` read in a window ``width`` px wide."""
    tab = context.new_page()
    try:
        tab.set_viewport_size({"width": width, "height": 900})
        response = tab.goto(f"{server}/{page}.html", wait_until="load")
        assert response is not None and response.status == 200, f"{page}: HTTP {response}"
        return tab.evaluate(LAYOUT)
    finally:
        tab.close()


@pytest.mark.parametrize("page", READING_PAGES)
def test_display_math_fits_and_figures_open_full_size(browser_context, server, page):
    """At 1400 px no display equation is wider than its box (long ones are broken with aligned/split), and the
    image of every figure is a link to its file, at least as large as the figure is shown."""
    info = page_layout(browser_context, server, page, VIEWPORT_WIDTH)
    assert not info["wideMath"], (
        f"{page}: display equations wider than their box at {VIEWPORT_WIDTH} px: {info['wideMath']}"
    )
    closed = [
        f["src"]
        for f in info["figures"]
        if not f["link"]
        or not re.search(r"\.(png|svg|jpe?g)$", f["link"])
        or f["natural"] < f["shown"] - 1
    ]
    assert not closed, f"{page}: figures that do not open full size: {closed}"
    if page in CHAPTER_PAGES:
        assert info["figures"], f"{page}: no figure found"


@pytest.mark.parametrize("page", READING_PAGES)
def test_phone_nothing_scrolls_sideways_but_tables_and_figures(browser_context, server, page):
    """At 390 px (a phone): the page itself does not scroll sideways, nothing runs past the window's edge, and the
    only boxes that scroll sideways hold a table or a figure that opens full size (code and the coursework page's
    transcripts wrap, display maths is fitted); figures are not shrunk below MIN_DISPLAY_SHARE of their size."""
    info = page_layout(browser_context, server, page, PHONE_WIDTH)
    assert info["page"] <= info["width"] + 1, (
        f"{page}: the page is {info['page']} px wide in a {info['width']} px window; past the edge: "
        f"{info['past'][:5]}"
    )
    assert not info["past"], f"{page}: past the window's right edge: {info['past'][:5]}"
    assert not info["scrolls"], (
        f"{page}: scrolls sideways at {PHONE_WIDTH} px (only tables and figures may): {info['scrolls'][:5]}"
    )
    assert not info["wideMath"], (
        f"{page}: display maths wider than the column: {info['wideMath'][:3]}"
    )
    small = []
    for f in info["figures"]:
        hits = list(HTML.glob("_images/" + Path(f["src"]).name))
        dpi = png_dpi(hits[0]) if hits and hits[0].suffix == ".png" else None
        physical = f["natural"] * 96 / (dpi or 96)
        if f["shown"] < MIN_DISPLAY_SHARE * physical:
            small.append(f"{Path(f['src']).name}: {f['shown']:.0f} of {physical:.0f} px")
    assert not small, f"{page}: figures shrunk at {PHONE_WIDTH} px: {small}"
