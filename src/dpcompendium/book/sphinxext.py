"""Sphinx extension: chapters executed once, never stale, and an execution report page.

Listed in ``_config.yml`` (``sphinx: config: extensions``). With MyST-NB's ``execute_notebooks: cache`` it

1. at ``builder-inited``, makes sure every chapter notebook has a stored execution under its current key
   (:func:`dpcompendium.book.execution.ensure_executed`: stale chapters are executed in parallel, ``dpc_execution_jobs``
   at a time) and puts the stored executions into jupyter-cache, so MyST-NB executes nothing itself;
2. at ``env-get-outdated``, marks for re-reading every chapter whose key changed since the last build (Sphinx alone
   re-reads a page only when its own file changed, which would keep numbers computed by an old library), and every
   page holding an execution report;
3. provides the ``execution-report`` directive: per chapter, wall time, peak kernel memory, the parameters it ran
   with, who executed it, whether this build took it from the store, the commit and the date;
4. provides the ``chapter`` role: ``{chapter}`dp-mean``` is a link to the chapter titled as its manifest
   (``chapters/<folder>/manifest.toml``) titles it, the one place a chapter's title is written (the notebook's
   ``# title`` must equal it: ``tests/test_book_contract.py``), so the landing page, the sidebar and the PDF agree;
5. links the glossary from the text: every English term of the glossary's tables (``book/glossary.md``, its second
   column, split at ``/``) gets an anchor on its row, and its first use on each chapter page and on the primer
   links to it (a ``std:ref`` to the row's anchor: in a rerun's one-chapter build it is the online book's);
6. makes the theme's download buttons give what a reader wants: on a chapter page the executed notebook (copied
   from the execution store to ``executed/<id>.ipynb``) and the chapter's PDF (``pdf/<id>.pdf``), elsewhere the
   book's PDF (``pdf/dpcompendium.pdf``, the Library reference's pages ``pdf/dpcompendium-api.pdf``), instead of the
   stripped source notebook and the browser's print dialogue (``dpcompendium.book.pdf`` writes the PDFs there).

Configuration values: ``dpc_execution_inputs`` (what every chapter depends on, default
``dpcompendium.book.execution.DEFAULT_INPUTS``), ``dpc_execution_store`` (default ``_build/.execution``),
``dpc_execution_jobs`` (default 2), ``dpc_execution_notebooks`` (a glob or a list of globs, default
``dpcompendium.book.execution.EXECUTED_NOTEBOOKS``: the chapters and the primer).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from docutils import nodes
from docutils.parsers.rst import Directive
from sphinx import addnodes
from sphinx.util import logging

from .execution import (
    DEFAULT_INPUTS,
    DEFAULT_STORE,
    EXECUTED_NOTEBOOKS,
    ExecutionRecord,
    chapter_key,
    ensure_executed,
    executed_notebooks,
    inputs_digest,
    load_record,
    populate_jupyter_cache,
)

logger = logging.getLogger(__name__)
_REPORT_DOCS = "dpc_execution_report_docs"
_KEYS = "dpc_execution_keys"


def _notebooks(app) -> list[Path]:
    patterns = app.config.dpc_execution_notebooks
    return executed_notebooks(
        Path(app.srcdir), [patterns] if isinstance(patterns, str) else list(patterns)
    )


def _store(app) -> Path:
    return Path(app.srcdir) / app.config.dpc_execution_store


def _docname(app, nb: Path) -> str:
    return nb.relative_to(Path(app.srcdir)).with_suffix("").as_posix()


def edition(app) -> str:
    """The language of the edition being built: ``"en"`` for the English book, else Sphinx's ``language``."""
    return app.config.language or "en"


def _on_builder_inited(app) -> None:
    app.dpc_execution_records = {}
    if getattr(app.config, "nb_execution_mode", None) != "cache":
        logger.info(
            "dpcompendium: execute_notebooks is not 'cache'; the execution store is not used"
        )
        return
    notebooks = _notebooks(app)
    if edition(app) != "en":
        # an edition in another language shows the English build's executions: it executes nothing
        app.dpc_execution_records = _stored_records(app, notebooks)
        populate_jupyter_cache(_cache_path(app), _store(app), notebooks, edition(app))
        return
    records = ensure_executed(
        Path(app.srcdir),
        notebooks,
        store=_store(app),
        inputs=app.config.dpc_execution_inputs,
        jobs=int(app.config.dpc_execution_jobs),
        timeout=int(getattr(app.config, "nb_execution_timeout", 1200) or 1200),
        log=logger.info,
    )
    # each edition shows the outputs of its language (dpcompendium.book.prose.show), from the same executions
    populate_jupyter_cache(_cache_path(app), _store(app), notebooks, edition(app))
    app.dpc_execution_records = records


def _cache_path(app) -> Path:
    return Path(
        app.config.nb_execution_cache_path or str(Path(app.outdir).parent / ".jupyter_cache")
    )


def _stored_records(app, notebooks: list[Path]) -> dict[str, ExecutionRecord]:
    """The stored execution of every chapter, for an edition that shows the English build's executions; a missing
    or stale one (the library or the notebook changed since) is a warning: build the English book first."""
    digest = inputs_digest(Path(app.srcdir), app.config.dpc_execution_inputs)
    records: dict[str, ExecutionRecord] = {}
    for nb in notebooks:
        rec = load_record(_store(app), nb.stem)
        if rec is None or rec.key != chapter_key(nb, digest):
            state = "not executed" if rec is None else "stale"
            logger.warning(
                f"dpcompendium: {nb.stem}: its stored execution is {state}; build the English book first "
                "(dpcompendium book builds both editions)"
            )
        if rec is not None:
            rec.reused = True
            records[nb.stem] = rec
    logger.info(f"execution: {len(records)} chapters from the execution store, none executed")
    return records


def _on_env_get_outdated(app, env, added, changed, removed) -> list[str]:
    records: dict[str, ExecutionRecord] = getattr(app, "dpc_execution_records", {})
    keys = {_docname(app, nb): records[nb.stem].key for nb in _notebooks(app) if nb.stem in records}
    previous: dict[str, str] = getattr(env, _KEYS, {})
    outdated = {
        doc
        for doc, key in keys.items()
        if previous.get(doc) != key and doc in env.found_docs and doc not in added
    }
    if outdated:
        logger.info(
            f"dpcompendium: re-reading chapters whose execution changed: {sorted(outdated)}"
        )
    setattr(env, _KEYS, {**previous, **keys})
    reports = set(getattr(env, _REPORT_DOCS, set())) - set(removed)
    return sorted(outdated | (reports & set(env.found_docs)))


def _on_env_purge_doc(app, env, docname) -> None:
    getattr(env, _REPORT_DOCS, set()).discard(docname)


def _on_env_merge_info(app, env, docnames, other) -> None:
    mine = getattr(env, _REPORT_DOCS, set())
    mine |= getattr(other, _REPORT_DOCS, set())
    setattr(env, _REPORT_DOCS, mine)


def _fmt_params(params: dict[str, Any], none: str = "(none)") -> str:
    return ", ".join(f"{k} = {v!r}" for k, v in params.items()) or none


def _row(cells: list[nodes.Node | str]) -> nodes.row:
    row = nodes.row()
    for cell in cells:
        entry = nodes.entry()
        if isinstance(cell, nodes.Node):
            entry += cell
        else:
            entry += nodes.paragraph(text=str(cell))
        row += entry
    return row


class ExecutionReport(Directive):
    """``{execution-report}``: the table of this build's chapter executions (no arguments, no content)."""

    has_content = False

    def run(self) -> list[nodes.Node]:
        env = self.state.document.settings.env
        app = env.app
        if not hasattr(env, _REPORT_DOCS):
            setattr(env, _REPORT_DOCS, set())
        getattr(env, _REPORT_DOCS).add(env.docname)
        records: dict[str, ExecutionRecord] = dict(getattr(app, "dpc_execution_records", {}))
        for nb in _notebooks(app):
            if nb.stem not in records:
                rec = load_record(_store(app), nb.stem)
                if rec is not None:
                    rec.reused = True
                    records[nb.stem] = rec
        text = REPORT_TEXT.get(edition(app), REPORT_TEXT["en"])
        if not records:
            return [nodes.paragraph(text=text["none_recorded"])]
        header = list(text["header"])
        table = nodes.table(classes=["dpc-execution-report"])
        tgroup = nodes.tgroup(cols=len(header))
        table += tgroup
        for width in (16, 10, 12, 18, 16, 12, 20):
            tgroup += nodes.colspec(colwidth=width)
        thead = nodes.thead()
        tgroup += thead
        thead += _row(header)
        tbody = nodes.tbody()
        tgroup += tbody
        paths = {nb.stem: nb for nb in _notebooks(app)}
        order = [stem for stem in paths if stem in records]
        details = nodes.definition_list()
        for chapter in order:
            rec = records[chapter]
            ref = addnodes.pending_xref(
                "",
                nodes.inline(text=chapter),
                refdomain="std",
                reftype="doc",
                reftarget="/" + _docname(app, paths[chapter]),
                refexplicit=True,
                refdoc=env.docname,
            )
            para = nodes.paragraph()
            para += ref
            mem = text["n/a"] if rec.peak_memory_mib is None else f"{rec.peak_memory_mib:,.0f} MiB"
            tbody += _row(
                [
                    para,
                    f"{rec.wall_time_s:.1f} s",
                    mem,
                    executor_name(rec.executor, text),
                    text["reused"] if rec.reused else text["executed"],
                    rec.commit,
                    rec.date,
                ]
            )
            item = nodes.definition_list_item()
            item += nodes.term(text=text["key"].format(chapter=chapter, key=rec.key[:12]))
            definition = nodes.definition()
            # code, not prose: no smart quotes, no Chinese punctuation (native review 6: [‘heights’，‘adult-age’])
            params = nodes.paragraph()
            if rec.parameters:
                params += nodes.literal(text=_fmt_params(rec.parameters))
            else:
                params += nodes.Text(text["no_parameters"])
            definition += params
            item += definition
            details += item
        total = sum(records[c].wall_time_s for c in order)
        summary = nodes.paragraph(
            text=text["summary"].format(
                n=len(order), total=total, now=sum(not records[c].reused for c in order)
            )
        )
        heading = nodes.paragraph(text=text["parameters"])
        out = [summary, table, heading, details]
        for (
            node
        ) in out:  # generated in the edition's language, with this build's numbers: not for gettext
            for element in node.findall(nodes.TextElement):
                element["translatable"] = False
        return out


#: The execution report's text, per edition (generated each build: not in the page's catalogue).
REPORT_TEXT: dict[str, dict[str, Any]] = {
    "en": {
        "header": (
            "Chapter",
            "Wall time",
            "Peak memory (kernel)",
            "Executed by",
            "This build",
            "Commit",
            "Date",
        ),
        "reused": "from the store",
        "executed": "executed now",
        "summary": "{n} chapters, {total:.0f} s of execution in all; {now} executed by this build.",
        "parameters": "Parameters of each execution (the chapters' defaults):",
        "key": "{chapter} (key {key})",
        "no_parameters": "(none)",
        "n/a": "n/a",
        "none_recorded": "No chapter execution is recorded: this build did not execute the chapters "
        "through the execution store (execute_notebooks is not 'cache').",
        "executors": {},
    },
    "zh_CN": {
        "header": ("章节", "运行时间", "峰值内存（内核）", "执行者", "本次构建", "提交", "日期"),
        "reused": "取自执行存储",
        "executed": "本次执行",
        "summary": "共 {n} 章，执行总计 {total:.0f} 秒；本次构建执行了 {now} 章。",
        "parameters": "每次执行的参数（各章的默认值）：",
        "key": "{chapter}（键 {key}）",
        "no_parameters": "（无）",
        "n/a": "未记录",
        "none_recorded": "没有记录任何章节的执行：本次构建没有通过执行存储执行各章"
        "（execute_notebooks 不是 'cache'）。",
        #: the programs that write execution records (``execution.ensure_executed``, ``tools/nbcapture.py``)
        "executors": {
            "book build (nbclient)": "图书构建（nbclient）",
            "nbval (make test)": "nbval（make test）",
        },
    },
}


def executor_name(executor: str, text: dict[str, Any]) -> str:
    """The program that executed a chapter (an execution record's ``executor``) in the edition's language; a name
    the edition has no translation for (``make_record``'s callers in tests) is shown as recorded."""
    return text["executors"].get(executor, executor)


STATIC = Path(__file__).with_name("_static")
#: An ``alt`` a figure image still has from the build (its hashed file name), to be replaced.
_HASHED = re.compile(r"^(?:.*/)?[0-9a-f]{16,}\.(?:png|jpe?g|svg|gif)$")


def _on_builder_inited_static(app) -> None:
    """The book's stylesheet (``_static/dpcompendium.css``: figures at their size, claims tables, phones, print
    rules) and script (``_static/dpcompendium.js``: display maths fitted to a phone's column)."""
    if app.builder.format == "html":
        app.config.html_static_path.append(str(STATIC))
        app.add_css_file("dpcompendium.css")
        app.add_js_file("dpcompendium.js")


def alt_in_language(alt: str, lang: str) -> str | None:
    """A figure's ``alt`` (a cell's ``mystnb.image.alt``, written in English) in ``lang``: its pair among the figure
    templates (:data:`dpcompendium.core.figure_messages.FIGURE_MESSAGES`, as a figure's other texts); ``None`` when
    none renders it (gettext does not extract an attribute: native review 9, R3)."""
    from ..core.messages import translate

    return translate(alt, lang)


def _on_doctree_read_alt(app, doctree) -> None:
    """Every image gets a text ``alt``: an image whose ``alt`` is missing or its hashed file name (a notebook output
    without ``mystnb.image.alt`` in its cell's metadata) takes the text of its figure's caption (in the edition's
    language already); an edition in another language puts a written ``alt`` in its language
    (:func:`alt_in_language`), or warns and leaves it English."""
    lang = edition(app)
    for image in doctree.findall(nodes.image):
        alt = image.get("alt", "")
        if alt and not _HASHED.match(alt):
            if lang != "en":
                translated = alt_in_language(alt, lang)
                if translated is None:
                    logger.warning(
                        "figure alt text has no %s template (add it to core/figure_messages.py): %s",
                        lang,
                        alt[:80],
                        location=image,
                    )
                else:
                    image["alt"] = translated
            continue
        parent = image.parent
        while parent is not None and not isinstance(parent, nodes.figure):
            parent = parent.parent
        caption = next(iter(parent.findall(nodes.caption)), None) if parent is not None else None
        if caption is not None:
            image["alt"] = " ".join(caption.astext().split())


def _on_doctree_read_narrow(app, doctree) -> None:
    """A figure image that has a one-column rendering (in the execution store's ``narrow`` folder under its own
    file name: :func:`dpcompendium.book.execution.extract_narrow_figures`) is followed by that rendering, as an
    image of class ``dpc-narrow`` (the wide one ``dpc-wide``): ``dpcompendium.css`` shows the one or the other by
    the screen's width (:data:`dpcompendium.core.plotting.NARROW_MAX_SCREEN_PX`); print keeps the wide one. Runs
    before Sphinx collects the page's images, so the file is copied into ``_images`` as every image is."""
    from ..core.plotting import DISPLAY_DPI
    from .chapter import FIGURE_DPI
    from .execution import NARROW_FIGURES

    folder = _store(app) / NARROW_FIGURES
    if not folder.is_dir():
        return
    srcdir = Path(app.srcdir).resolve()
    for image in list(doctree.findall(nodes.image)):
        path = folder / Path(image.get("uri", "")).name
        if "dpc-narrow" in image["classes"] or not path.is_file():
            continue
        data = path.read_bytes()
        width = round(int.from_bytes(data[16:20], "big") * DISPLAY_DPI / FIGURE_DPI)
        narrow = nodes.image(
            uri="/" + path.resolve().relative_to(srcdir).as_posix(),
            alt=image.get("alt", ""),
            width=f"{width}px",
            classes=["dpc-narrow"],
        )
        image["classes"].append("dpc-wide")
        image.parent.insert(image.parent.index(image) + 1, narrow)


def _chapter_role(name, rawtext, text, lineno, inliner, options=None, content=None):
    """``{chapter}`<id>```: a link to the chapter, with the title of its manifest (in a translated edition, the
    title its page's catalogue gives it: review 6, D7)."""
    from ..chapters.registry import get_manifest
    from .i18n import translated_title

    try:
        m = get_manifest(text.strip())
    except ValueError as exc:
        msg = inliner.reporter.error(str(exc), line=lineno)
        return [inliner.problematic(rawtext, rawtext, msg)], [msg]
    env = inliner.document.settings.env
    docname = Path(m.notebook).with_suffix("").as_posix()
    title = translated_title(m.title, docname, env.config.language or "en")
    ref = addnodes.pending_xref(
        rawtext,
        nodes.inline(text=title),
        refdomain="std",
        reftype="doc",
        reftarget="/" + docname,
        refexplicit=True,
        refdoc=env.docname,
    )
    return [ref], []


#: The glossary page, and the pages whose first use of a glossary term links to it.
GLOSSARY_DOC = "book/glossary"
_LINKED_DOCS = re.compile(r"^(notebooks/.+|book/primer)$")
#: Terms this short or generic link nothing (they would link ordinary words).
_MIN_TERM = 8


def glossary_rows(text: str) -> list[tuple[str, list[str]]]:
    """The body rows of the glossary's tables (``book/glossary.md``) in order, as ``(anchor, English terms)``: the
    second column of a row, split at ``/``, without parentheses or maths. The anchor is ``term-`` and the row's
    first term, slugged (a ``-2``, ``-3``… suffix when two rows start with the same term)."""
    rows: list[tuple[str, list[str]]] = []
    used: set[str] = set()
    for line in text.splitlines():
        if not line.startswith("|"):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) < 3 or set(cells[1]) <= set("-: ") or cells[1].lower() == "english":
            continue
        names = []
        for name in cells[1].split("/"):
            name = re.sub(r"\$[^$]*\$|\([^)]*\)", "", name)
            names.append(re.sub(r"\s+", " ", name).strip(" ,;.-"))
        slug = re.sub(r"[^a-z0-9]+", "-", (names[0] or cells[0]).lower()).strip("-") or "row"
        anchor, k = f"term-{slug}", 1
        while anchor in used:
            k += 1
            anchor = f"term-{slug}-{k}"
        used.add(anchor)
        rows.append((anchor, [n for n in names if n]))
    return rows


def glossary_terms(text: str) -> dict[str, str]:
    """The glossary's English terms that the text links, ``term (lower case) -> anchor of its row``: words and
    hyphens only, at least 8 letters (shorter ones would link ordinary words), the first row naming a term wins."""
    terms: dict[str, str] = {}
    for anchor, names in glossary_rows(text):
        for name in names:
            if len(name) >= _MIN_TERM and re.fullmatch(r"[A-Za-z][A-Za-z \-–]*[a-z]", name):
                terms.setdefault(name.lower(), anchor)
    return terms


def _glossary(app) -> dict[str, str]:
    terms = getattr(app, "_dpc_glossary", None)
    if terms is None:
        path = Path(app.srcdir) / f"{GLOSSARY_DOC}.md"
        terms = glossary_terms(path.read_text(encoding="utf8")) if path.is_file() else {}
        app._dpc_glossary = terms
    return terms


_SKIP = (
    nodes.reference,
    nodes.literal,
    nodes.literal_block,
    nodes.math,
    nodes.math_block,
    nodes.title,
    nodes.caption,
    nodes.raw,
    addnodes.pending_xref,
    nodes.table,
)


def _on_doctree_read_glossary(app, doctree) -> None:
    """Anchors on the glossary's rows; on a chapter page (and the primer) the first use of each term in the text
    becomes a link to its row."""
    terms = _glossary(app)
    docname = app.env.docname
    if not terms:
        return
    if docname == GLOSSARY_DOC:
        path = Path(app.srcdir) / f"{GLOSSARY_DOC}.md"
        rows = glossary_rows(path.read_text(encoding="utf8"))
        body = [r for r in doctree.findall(nodes.row) if isinstance(r.parent, nodes.tbody)]
        if len(body) != len(rows):
            logger.warning(f"dpcompendium: {len(body)} glossary rows, {len(rows)} in its source")
            return
        std = app.env.get_domain("std")
        for row, (anchor, names) in zip(body, rows, strict=True):
            row["ids"].append(anchor)
            std.anonlabels[anchor] = (docname, anchor)
            std.labels[anchor] = (docname, anchor, names[0] if names else anchor)
        return
    if not _LINKED_DOCS.match(docname):
        return
    pattern = re.compile(
        r"\b(" + "|".join(re.escape(t) for t in sorted(terms, key=len, reverse=True)) + r")\b",
        re.I,
    )
    seen: set[str] = set()
    for text in list(doctree.findall(nodes.Text)):
        parent = text.parent
        if parent is None or any(isinstance(a, _SKIP) for a in _ancestors(parent)):
            continue
        value = str(text)
        pieces: list[nodes.Node] = []
        last = 0
        for m in pattern.finditer(value):
            term = m.group(1).lower()
            if terms[term] in seen:  # one link per row of the glossary and page
                continue
            seen.add(terms[term])
            pieces.append(nodes.Text(value[last : m.start()]))
            ref = addnodes.pending_xref(
                "",
                nodes.inline(text=m.group(1)),
                refdomain="std",
                reftype="ref",
                reftarget=terms[term],
                refexplicit=True,
                refwarn=True,
                refdoc=docname,
                classes=["dpc-term"],
            )
            pieces.append(ref)
            last = m.end()
        if pieces:
            pieces.append(nodes.Text(value[last:]))
            parent.replace(text, pieces)


def _ancestors(node):
    while node is not None:
        yield node
        node = node.parent


#: Where the HTML build puts the executed notebooks, and where the PDFs are (dpcompendium.book.pdf copies them).
EXECUTED_DIR = "executed"
PDF_DIR = "pdf"


def _on_html_page_context_downloads(app, pagename, templatename, context, doctree) -> None:
    """Replace the theme's download buttons (after it made them): the executed notebook and the chapter's PDF."""
    buttons = context.get("header_buttons") or []
    group = next((b for b in buttons if b.get("label") == "download-buttons"), None)
    if group is None:
        return
    pathto = context["pathto"]
    items = []
    if pagename.startswith("notebooks/"):
        chapter = pagename.split("/", 1)[1]
        if (_store(app) / f"{chapter}.ipynb").is_file():
            items.append(
                {
                    "type": "link",
                    "url": pathto(f"{EXECUTED_DIR}/{chapter}.ipynb", 1),
                    "text": ".ipynb",
                    "icon": "fas fa-code",
                    "tooltip": "The executed notebook (outputs included)",
                    "label": "download-notebook-button",
                }
            )
        pdf, tip = f"{PDF_DIR}/{chapter}.pdf", "This chapter as PDF"
    elif pagename.startswith("book/api/"):
        pdf, tip = f"{PDF_DIR}/dpcompendium-api.pdf", "The Library reference as PDF"
    else:
        pdf, tip = f"{PDF_DIR}/dpcompendium.pdf", "The book as PDF"
    items.append(
        {
            "type": "link",
            "url": pathto(pdf, 1),
            "text": ".pdf",
            "icon": "fas fa-file-pdf",
            "tooltip": tip,
            "label": "download-pdf-button",
        }
    )
    group["buttons"] = items


def _on_build_finished_executed(app, exception) -> None:
    """The executed notebooks of the chapters, from the execution store, beside the HTML (the .ipynb button)."""
    if exception is not None or app.builder.format != "html":
        return
    import shutil

    dest = Path(app.outdir) / EXECUTED_DIR
    for nb in _notebooks(app):
        stored = _store(app) / f"{nb.stem}.ipynb"
        if stored.is_file():
            dest.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(stored, dest / stored.name)


class NoConfigDump:
    """A logging filter: drops MyST's and MyST-NB's start-up dumps of their whole configuration
    (``myst v…: MdParserConfig(...)``, ``myst-nb v…: NbParserConfig(...)``, about 1 KB each), keeps every other record."""

    DUMPS = ("MdParserConfig(", "NbParserConfig(")

    def filter(self, record) -> bool:
        try:
            message = record.getMessage()
        except (TypeError, ValueError):  # a record whose arguments do not format: not a dump
            return True
        return not any(d in message for d in self.DUMPS)


def quiet_config_dumps() -> None:
    """Put :class:`NoConfigDump` on the handlers of Sphinx's logger (set up before extensions are loaded)."""
    import logging as std_logging

    for handler in std_logging.getLogger("sphinx").handlers:
        if not any(isinstance(f, NoConfigDump) for f in handler.filters):
            handler.addFilter(NoConfigDump())


def _on_doctree_resolved_cjk_spacing(app, doctree, docname) -> None:
    """A Chinese edition's running text without spaces between Chinese characters or beside full-width punctuation
    (:mod:`dpcompendium.book.cjk_spacing`; native review 3, W1)."""
    if edition(app).startswith("zh"):
        from .cjk_spacing import tidy

        tidy(doctree)


_NUMBER_BEFORE_FULL_WIDTH = re.compile(r'(<span class="caption-number">[^<]*?) </span>(?=[（(])')


#: A solution's title as sphinx-exercise writes it in Chinese, "解答" then the link to its exercise
_SOLUTION_TITLE_ZH = re.compile(
    r'(<p class="admonition-title">)\s*解答\s*(<a [^>]*>.*?</a>)\s*(</p>)', re.S
)


def solution_titles_zh(body: str) -> str:
    """A solution's title in Chinese word order: sphinx-exercise's "解答练习 3.2（…）" (read as the verb phrase "solve
    exercise 3.2") is "练习 3.2（…）的解答" (native review 4, F5; 32 titles on seven pages)."""
    return _SOLUTION_TITLE_ZH.sub(r"\1\2的解答\3", body)


def _on_html_page_context_cjk_spacing(app, pagename, templatename, context, doctree) -> None:
    """The space Sphinx's HTML writer puts after a caption number ("练习 5.1 ") goes before a full-width bracket in
    a Chinese edition: "练习 5.1（常数预算方案）" (native review 3, W3); a solution's title reads "练习 5.1（…）的解答"
    (:func:`solution_titles_zh`)."""
    if edition(app).startswith("zh") and "body" in context:
        body = _NUMBER_BEFORE_FULL_WIDTH.sub(r"\1</span>", context["body"])
        context["body"] = solution_titles_zh(body)


def setup(app) -> dict[str, Any]:
    quiet_config_dumps()
    app.setup_extension(
        "dpcompendium.book._myst_speed"
    )  # MyST without a discarded document per parse (issue 50)
    app.setup_extension(
        "dpcompendium.book.mathbreak"
    )  # long inline maths breaks as in TeX (issue 49)
    app.setup_extension(
        "dpcompendium.book.tablenum"
    )  # captioned tables numbered as the figures are (issue 49, F12)
    app.add_config_value("dpc_execution_inputs", list(DEFAULT_INPUTS), "env")
    app.add_config_value("dpc_execution_store", DEFAULT_STORE, "env")
    app.add_config_value("dpc_execution_jobs", 2, "env")
    app.add_config_value("dpc_execution_notebooks", list(EXECUTED_NOTEBOOKS), "env")
    app.connect("builder-inited", _on_builder_inited)
    app.connect("env-get-outdated", _on_env_get_outdated)
    app.connect("env-purge-doc", _on_env_purge_doc)
    app.connect("env-merge-info", _on_env_merge_info)
    app.connect("builder-inited", _on_builder_inited_static)
    app.connect(
        "doctree-read", _on_doctree_read_narrow, priority=400
    )  # before Sphinx's image collector
    app.connect("doctree-read", _on_doctree_read_alt)
    app.add_directive("execution-report", ExecutionReport)
    app.add_role("chapter", _chapter_role)
    app.connect("html-page-context", _on_html_page_context_downloads, priority=502)
    app.connect("build-finished", _on_build_finished_executed)
    app.connect("doctree-read", _on_doctree_read_glossary)
    app.connect("doctree-resolved", _on_doctree_resolved_cjk_spacing)
    app.connect("html-page-context", _on_html_page_context_cjk_spacing)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
