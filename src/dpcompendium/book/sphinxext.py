"""Sphinx extension: chapters executed once, never stale, and an execution report page.

Listed in ``_config.yml`` (``sphinx: config: extensions``). With MyST-NB's ``execute_notebooks: cache`` it

1. at ``builder-inited``, makes sure every chapter notebook has a stored execution under its current key
   (:func:`dpcompendium.book.execution.ensure_executed`: stale chapters are executed in parallel, ``dpc_execution_jobs``
   at a time) and puts the stored executions into jupyter-cache, so MyST-NB executes nothing itself;
2. at ``env-get-outdated``, marks for re-reading every chapter whose key changed since the last build (Sphinx alone
   re-reads a page only when its own file changed, which would keep numbers computed by an old library), and every
   page holding an execution report;
3. provides the ``execution-report`` directive: per chapter, wall time, peak kernel memory, the parameters it ran
   with, who executed it, whether this build took it from the store, the commit and the date.

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
    ensure_executed,
    executed_notebooks,
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


def _on_builder_inited(app) -> None:
    app.dpc_execution_records = {}
    if getattr(app.config, "nb_execution_mode", None) != "cache":
        logger.info(
            "dpcompendium: execute_notebooks is not 'cache'; the execution store is not used"
        )
        return
    notebooks = _notebooks(app)
    records = ensure_executed(
        Path(app.srcdir),
        notebooks,
        store=_store(app),
        inputs=app.config.dpc_execution_inputs,
        jobs=int(app.config.dpc_execution_jobs),
        timeout=int(getattr(app.config, "nb_execution_timeout", 1200) or 1200),
        log=logger.info,
    )
    cache_path = app.config.nb_execution_cache_path or str(
        Path(app.outdir).parent / ".jupyter_cache"
    )
    populate_jupyter_cache(Path(cache_path), _store(app), notebooks)
    app.dpc_execution_records = records


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


def _fmt_params(params: dict[str, Any]) -> str:
    return ", ".join(f"{k} = {v!r}" for k, v in params.items()) or "(none)"


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
        if not records:
            para = nodes.paragraph(
                text="No chapter execution is recorded: this build did not execute the chapters "
                "through the execution store (execute_notebooks is not 'cache')."
            )
            return [para]
        header = [
            "Chapter",
            "Wall time",
            "Peak memory (kernel)",
            "Executed by",
            "This build",
            "Commit",
            "Date",
        ]
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
            mem = "n/a" if rec.peak_memory_mib is None else f"{rec.peak_memory_mib:,.0f} MiB"
            tbody += _row(
                [
                    para,
                    f"{rec.wall_time_s:.1f} s",
                    mem,
                    rec.executor,
                    "from the store" if rec.reused else "executed now",
                    rec.commit,
                    rec.date,
                ]
            )
            item = nodes.definition_list_item()
            item += nodes.term(text=f"{chapter} (key {rec.key[:12]})")
            definition = nodes.definition()
            definition += nodes.paragraph(text=_fmt_params(rec.parameters))
            item += definition
            details += item
        total = sum(records[c].wall_time_s for c in order)
        summary = nodes.paragraph(
            text=f"{len(order)} chapters, {total:.0f} s of execution in all; "
            f"{sum(not records[c].reused for c in order)} executed by this build."
        )
        heading = nodes.paragraph(text="Parameters of each execution (the chapters' defaults):")
        return [summary, table, heading, details]


STATIC = Path(__file__).with_name("_static")
#: An ``alt`` a figure image still has from the build (its hashed file name), to be replaced.
_HASHED = re.compile(r"^(?:.*/)?[0-9a-f]{16,}\.(?:png|jpe?g|svg|gif)$")


def _on_builder_inited_static(app) -> None:
    """The book's stylesheet (``_static/dpcompendium.css``: figures at their size, claims tables, print rules)."""
    if app.builder.format == "html":
        app.config.html_static_path.append(str(STATIC))
        app.add_css_file("dpcompendium.css")


def _on_doctree_read_alt(app, doctree) -> None:
    """Every image gets a text ``alt``: an image whose ``alt`` is missing or its hashed file name (a notebook output
    without ``mystnb.image.alt`` in its cell's metadata) takes the text of its figure's caption."""
    for image in doctree.findall(nodes.image):
        alt = image.get("alt", "")
        if alt and not _HASHED.match(alt):
            continue
        parent = image.parent
        while parent is not None and not isinstance(parent, nodes.figure):
            parent = parent.parent
        caption = next(iter(parent.findall(nodes.caption)), None) if parent is not None else None
        if caption is not None:
            image["alt"] = " ".join(caption.astext().split())


def setup(app) -> dict[str, Any]:
    app.add_config_value("dpc_execution_inputs", list(DEFAULT_INPUTS), "env")
    app.add_config_value("dpc_execution_store", DEFAULT_STORE, "env")
    app.add_config_value("dpc_execution_jobs", 2, "env")
    app.add_config_value("dpc_execution_notebooks", list(EXECUTED_NOTEBOOKS), "env")
    app.connect("builder-inited", _on_builder_inited)
    app.connect("env-get-outdated", _on_env_get_outdated)
    app.connect("env-purge-doc", _on_env_purge_doc)
    app.connect("env-merge-info", _on_env_merge_info)
    app.connect("builder-inited", _on_builder_inited_static)
    app.connect("doctree-read", _on_doctree_read_alt)
    app.add_directive("execution-report", ExecutionReport)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
