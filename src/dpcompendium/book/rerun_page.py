"""The page of a rerun: ``DIR/CHAPTER/index.html``, the executed chapter rendered by the book's own pipeline.

``dpcompendium run`` executes a chapter with papermill; :func:`write_page` then builds the executed notebook as a
one-page Jupyter Book: the book's ``_config.yml`` turned into a Sphinx configuration by Jupyter Book
(``jupyter_book.config.get_final_config``, as ``jupyter-book config sphinx`` does), the book's extensions
(MyST-NB, sphinx-proof, sphinx-exercise, sphinxcontrib-bibtex, the local MathJax of sphinx-mathjax-offline), its
``references.bib``, a one-entry table of contents, and execution off (the notebook is already executed). So
cross-references, numbered figures with their captions, theorem and exercise blocks, citations, glue and math come
out as in the book. Differences, all deliberate:

- on top, the run's provenance (the parameters that differ from the defaults, seed, package version, git commit,
  lock hash, date, wall time), what on the page describes this run and what quotes the sources, and the headline
  numbers beside the book's default run (cells tagged ``keep_output``);
- the chapter's citations are listed at its end (the book has one bibliography page);
- references to other pages of the book (the primer's theorems, ``{doc}`` links) point to the online book
  (:data:`BOOK_URL`), with the target's title as text: the page is one chapter, the book is not built;
- MathJax is pruned to the parts the page loads (``_static/mathjax``), so the folder stays small. No network.

The build runs in a child process (``python -m dpcompendium.book.rerun_page SRC OUT``), so that a rerun in a long-lived
process (a test worker) never shares Sphinx's global state. Sphinx warnings do not fail a rerun (a reader's run must
not be lost to a cosmetic problem): they are written to ``page-warnings.txt`` beside the page, which exists only when
there were some, and the tests require that it does not.
"""

from __future__ import annotations

import ast
import contextlib
import functools
import hashlib
import html
import importlib.metadata
import json
import os
import posixpath
import re
import shutil
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import nbformat

from ..core.paths import repo_root
from .execution import for_language
from .i18n import text_in, translated_title
from .preflight import PAGE_LANGUAGES, RunPlan
from .rerun_box import BOOK_URL as _BOOK_URL

__all__ = [
    "BOOK_URL",
    "LANGUAGES",
    "book_labels",
    "build_page",
    "compile_catalogue",
    "glued_markdown",
    "glued_values",
    "open_page",
    "page_notebook",
    "provenance",
    "sphinx_build",
    "sphinx_config",
    "write_page",
]

#: The online book, where references to pages outside a rerun's chapter point (defined beside the rerun box, which
#: writes it out on paper).
BOOK_URL = _BOOK_URL
#: The docname of the page in the one-chapter build (so that it is written as ``index.html``).
PAGE_DOC = "index"
#: Files of the Sphinx output that the page does not need.
_DROP = {".doctrees", "_sources", ".buildinfo", "objects.inv", "prf-prf.html"}
#: The MathJax parts the page loads (the rest of the 24 MB copy is dropped).
_MATHJAX_PARTS = ("tex-chtml.js", "output/chtml", "input/tex/extensions")
_WARNINGS = "page-warnings.txt"

_CSS = """
.provenance{background:#eef5ff;border:1px solid #9bd;padding:.5rem 1rem;margin:1rem 0 2rem}
.provenance table{font-size:.85rem}.provenance th{text-align:left;padding-right:1rem;vertical-align:top}
.provenance td code{word-break:break-all}
.headline table{table-layout:fixed;width:100%;font-size:.8rem}.headline td{vertical-align:top;width:50%}
.headline pre{margin:0;white-space:pre-wrap;word-break:break-word;font-size:.75rem}
span.pasted-text{background:#fff3c4;border-radius:2px;padding:0 .1em}
.run-note{background:#fff3c4}
"""


def _git_commit(root: Path) -> str:
    try:
        out = subprocess.run(
            ["git", "-C", str(root), "rev-parse", "HEAD"],
            capture_output=True,
            text=True,
            timeout=10,
            check=True,
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "-C", str(root), "status", "--porcelain", "--untracked-files=no"],
            capture_output=True,
            text=True,
            timeout=10,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "unknown (not a git checkout)"
    return out + (" (with uncommitted changes)" if dirty else "")


def provenance(plan: RunPlan, wall_seconds: float, started: datetime) -> dict[str, Any]:
    """What a reader needs to reproduce the run (:class:`~dpcompendium.book.preflight.RunPlan`): changed
    parameters, seed, the command line, versions, lock hash, date, wall time."""
    root = repo_root()
    lock = root / "requirements-lock.txt"
    chapter = plan.chapter
    changed = plan.changed
    seed = plan.run_values.get("seed")
    try:
        version = importlib.metadata.version("dpcompendium")
    except importlib.metadata.PackageNotFoundError:
        version = "unknown"
    return {
        "chapter": chapter.id,
        "changed": changed,
        "seed": seed,
        "command": plan.command(),
        "version": version,
        "commit": _git_commit(root),
        "lock_sha256": hashlib.sha256(lock.read_bytes()).hexdigest()
        if lock.is_file()
        else "no lock",
        "date": started.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S UTC"),
        "wall_seconds": round(wall_seconds, 1),
    }


_GLUE_PREFIX = "application/papermill.record/"


def _glued(executed: nbformat.NotebookNode, mime: str) -> dict[str, str]:
    """Each key a notebook glued → the ``mime`` representation of its value (joined), for the keys that have one."""
    out: dict[str, str] = {}
    for cell in executed.cells:
        for o in cell.get("outputs", []) if cell.cell_type == "code" else []:
            name = o.get("metadata", {}).get("scrapbook", {}).get("name")
            text = o.get("data", {}).get(_GLUE_PREFIX + mime)
            if name and text is not None:
                out[name] = "".join(text)
    return out


def _unquoted(text: str) -> str:
    """A str glued as it is (its repr) → the str; any other text unchanged."""
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        with contextlib.suppress(SyntaxError, ValueError):
            return str(ast.literal_eval(text))
    return text


def glued_values(executed: nbformat.NotebookNode) -> dict[str, str]:
    """The values a notebook glued with ``myst_nb.glue`` (key → its text/plain, quotes of a str removed), as the
    book's ``{glue:text}`` role pastes them (before a format spec is applied). A value glued by
    :func:`dpcompendium.book.prose.glue` has its plain text as text/plain, unquoted."""
    return {name: _unquoted(text) for name, text in _glued(executed, "text/plain").items()}


def glued_markdown(executed: nbformat.NotebookNode) -> dict[str, str]:
    """The MyST a notebook glued (key → its text/markdown, for the keys that have one), as ``{glue:md}`` pastes it
    (:mod:`dpcompendium.core.messages`)."""
    return _glued(executed, "text/markdown")


# ---- the blocks on top of the page


def _text(outputs: list) -> str:
    parts = []
    for o in outputs:
        if o.get("output_type") == "stream":
            parts.append(o.get("text", ""))
        elif "text/plain" in o.get("data", {}):
            parts.append("".join(o["data"]["text/plain"]))
    return "".join(parts).rstrip()


#: The cell tags with which the book hides a cell's output (MyST-NB: removed, or collapsed behind a button): a
#: rerun page hides those outputs the same way (issue 49: results reach the reader as tables and sentences).
HIDDEN_OUTPUT_TAGS = frozenset({"remove-cell", "remove-output", "hide-cell", "hide-output"})


def hides_output(cell: Any) -> bool:
    """Whether the book hides ``cell``'s output (``HIDDEN_OUTPUT_TAGS``)."""
    return bool(HIDDEN_OUTPUT_TAGS & set(cell.get("metadata", {}).get("tags", [])))


#: The sentence that stands for the checked outputs the book hides (``%(n)s`` of them, ``%(same)s`` the same as the
#: book's default run's), in each language of the page.
_HIDDEN_HEADLINES = {
    "en": "This rerun's %(n)s checked outputs (the printed numbers the test suite compares with the book's default "
    "run) are not shown, as in the book: %(same)s of them read the same as the default run's. They are in the "
    "executed notebook beside this page.",
    "zh_CN": "本次重新运行的 %(n)s 个受检输出（测试套件与本书默认运行相比较的打印数值）与书中一样不在此显示：其中 "
    "%(same)s 个与默认运行的输出相同。它们在本页旁的已执行笔记本中。",
}


def _headlines(
    executed: nbformat.NotebookNode, book: nbformat.NotebookNode, lang: str = "en"
) -> str:
    """This run's checked outputs beside the book's default run's: a table of those the book shows, and one sentence
    for those it hides (how many, how many the same) — never the hidden print-outs themselves."""
    stored = {
        c.get("id"): c
        for c in book.cells
        if c.cell_type == "code" and "keep_output" in c.metadata.get("tags", [])
    }
    rows = []
    hidden = same_hidden = 0
    for c in executed.cells:
        if c.get("id") in stored and c.cell_type == "code":
            ours, theirs = (
                _text(c.get("outputs", [])),
                _text(stored[c.get("id")].get("outputs", [])),
            )
            if hides_output(c) or hides_output(stored[c.get("id")]):
                hidden += 1
                same_hidden += ours == theirs
                continue
            same = _t(" (same)", lang) if ours == theirs else ""
            rows.append(
                f"<tr><td><pre>{html.escape(ours)}</pre></td>"
                f"<td><pre>{html.escape(theirs)}</pre>{same}</td></tr>"
            )
    if not rows and not hidden:
        return ""
    default_run = html.escape(_t("the book's default run", lang))
    table = (
        (
            f"<table><tr><th>{_t('this run', lang)}</th><th>{default_run}</th></tr>"
            + "".join(rows)
            + "</table>"
        )
        if rows
        else ""
    )
    note = (
        "<p>"
        + html.escape(
            _HIDDEN_HEADLINES.get(lang, _HIDDEN_HEADLINES["en"])
            % {"n": hidden, "same": same_hidden},
            quote=False,
        )
        + "</p>"
        if hidden
        else ""
    )
    return (
        f'<section class="headline"><h2>{_t("Headline numbers", lang)}</h2>{note}{table}</section>'
    )


#: The languages a rerun's page is built in (``dpcompendium run CHAPTER --lang LANG``): Sphinx's names.
LANGUAGES = PAGE_LANGUAGES

#: The texts of the blocks on top of the page in the languages other than English.
_TEXTS = {
    "zh_CN": {
        "Headline numbers": "主要结果",
        "this run": "本次运行",
        "the book's default run": "本书的默认运行",
        " (same)": "（相同）",
        "Provenance of this rerun": "本次重新运行的来源信息",
        "parameters changed from the defaults": "与默认值不同的参数",
        "none (the book's defaults)": "无（本书的默认值）",
        "seed": "随机种子 (seed)",
        "command": "命令",
        "dpcompendium version": "dpcompendium 版本",
        "git commit": "git commit",
        "lock (requirements-lock.txt) SHA-256": "依赖锁定文件 (requirements-lock.txt) 的 SHA-256",
        "date": "日期",
        "wall time": "运行时间",
        "Works cited in this chapter": "本章引用的文献",
        "rerun": "重新运行",
        "A rerun of a chapter of": "重新运行的一章，出自",
        "the book": "本书",
        "built offline.": "离线构建。",
    },
}


#: ``text`` of the page's own blocks in ``lang``: ``_t(text, lang="en")``.
_t = functools.partial(text_in, _TEXTS)


#: Said once, on top of every rerun page: what describes this run and what quotes the sources.
WHAT_DESCRIBES_THIS_RUN = (
    "Every table, figure and cell output below was computed by this run, and so was every number or verdict "
    'in the text that is <span class="pasted-text">shaded like this</span>: it is pasted from the run '
    "(MyST-NB glue), and where a result of the book's default run does not hold at these parameters the text "
    "says so in a note. Unshaded numbers in the text are not results of this run: they quote the sources, or "
    "are definitions, theorem constants and parameter defaults, the same as in the book."
)
_TEXTS["zh_CN"][WHAT_DESCRIBES_THIS_RUN] = (
    "下文的每个表格、图和单元格输出都由本次运行算出；正文中"
    '<span class="pasted-text">这样加了底色</span>的每个数字或结论也是如此：它们由本次运行粘贴进来'
    "（MyST-NB glue）；本书默认运行的某个结果在这组参数下不成立时，正文会加注说明。正文中没有底色的数字不是本次"
    "运行的结果：它们引自原文，或是定义、定理中的常数和参数的默认值，与书中相同。"
)


def _provenance_html(prov: dict[str, Any], lang: str = "en") -> str:
    changed = ", ".join(
        f"<code>{html.escape(k)} = {html.escape(repr(v))}</code>"
        for k, v in prov["changed"].items()
    ) or _t("none (the book's defaults)", lang)
    rows = [
        (_t("parameters changed from the defaults", lang), changed),
        (_t("seed", lang), f"<code>{prov['seed']}</code>"),
        (_t("command", lang), f"<code>{html.escape(prov['command'])}</code>"),
        (_t("dpcompendium version", lang), html.escape(str(prov["version"]))),
        (_t("git commit", lang), f"<code>{html.escape(prov['commit'])}</code>"),
        (_t("lock (requirements-lock.txt) SHA-256", lang), f"<code>{prov['lock_sha256']}</code>"),
        (_t("date", lang), html.escape(prov["date"])),
        (_t("wall time", lang), f"{prov['wall_seconds']} s"),
    ]
    body = "".join(f"<tr><th>{k}</th><td>{v}</td></tr>" for k, v in rows)
    return (
        f'<section class="provenance" id="provenance"><h2>{_t("Provenance of this rerun", lang)}</h2>'
        f"<table>{body}</table><p>{_t(WHAT_DESCRIBES_THIS_RUN, lang)}</p></section>"
    )


def page_notebook(
    executed: nbformat.NotebookNode,
    book: nbformat.NotebookNode,
    prov: dict[str, Any],
    lang: str = "en",
) -> nbformat.NotebookNode:
    """The notebook the page is built from: the executed chapter's outputs of edition ``lang``, with the provenance
    block and the headline numbers right under its title, and a bibliography of its citations at the end."""
    nb = for_language(executed, lang)
    top = (
        f"\n\n```{{raw}} html\n<style>{_CSS}</style>\n{_provenance_html(prov, lang)}\n"
        f"{_headlines(executed, book, lang)}\n```\n\n"
    )
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            title, _, rest = cell.source.partition("\n")
            cell.source = title + top + rest
            break
    nb.cells.append(
        nbformat.v4.new_markdown_cell(
            f"## {_t('Works cited in this chapter', lang)}\n\n```{{bibliography}}\n```\n"
        )
    )
    return nb


# ---- references to the rest of the book


def _md_cells(path: Path) -> list[str]:
    if path.suffix == ".ipynb":
        nb = nbformat.read(path, as_version=4)
        return [c.source for c in nb.cells if c.cell_type == "markdown"]
    return [path.read_text(encoding="utf-8")]


_DIRECTIVE = re.compile(r"^(?::{3,}|`{3,})\{prf:(\w+)\}[ \t]*(.*)\n:label:[ \t]*(\S+)", re.M)
_HEADING = re.compile(r"^#\s+(.+)$", re.M)


def book_labels(root: Path) -> dict[str, dict[str, str]]:
    """Every page of the book (``doc:<docname>``) and every sphinx-proof label (``prf:<label>``) → its docname,
    title and kind, read from the sources in ``_toc.yml``'s folders (``book/``, ``notebooks/``)."""
    out: dict[str, dict[str, str]] = {}
    for path in sorted(
        [*root.glob("book/**/*.md"), *root.glob("book/*.ipynb"), *root.glob("notebooks/*.ipynb")]
    ):
        doc = path.relative_to(root).with_suffix("").as_posix()
        text = "\n\n".join(_md_cells(path))
        m = _HEADING.search(text)
        title = (
            m.group(1).strip().replace("`", "") if m else doc
        )  # a link's text: no raw code marks
        out[f"doc:{doc}"] = {"doc": doc, "title": title, "kind": "page"}
        for d in _DIRECTIVE.finditer(text):
            kind, label = d.group(1), d.group(3)
            title = re.sub(
                r"\s*\{[\w:]+\}`[^`]*`", "", d.group(2)
            ).strip()  # no citation in a link text
            out[f"prf:{label}"] = {"doc": doc, "title": title, "kind": kind}
    return out


def _external_reference(app, node) -> Any:
    """A reference node to the online book for a cross-reference this one-chapter build cannot resolve, or None."""
    from docutils import nodes

    labels = app.config.dpc_rerun_labels
    base = app.config.dpc_rerun_docname
    domain, kind, target = node.get("refdomain"), node.get("reftype"), node.get("reftarget", "")
    explicit = node.get("refexplicit")
    env = app.env
    if domain == "prf":
        if target in getattr(env, "proof_list", {}):
            return None
        entry = labels.get(f"prf:{target}")
        if entry is None:
            return None
        text = f"{entry['kind'].title()} ({entry['title']})" if entry["title"] else target
        url = f"{BOOK_URL}/{entry['doc']}.html#{target}"
    elif domain == "std" and kind == "doc":
        path = (
            target.lstrip("/")
            if target.startswith("/")
            else posixpath.join(posixpath.dirname(base), target)
        )
        path = posixpath.normpath(path)
        if path == PAGE_DOC or path in env.found_docs:
            return None
        entry = labels.get(f"doc:{path}")
        if entry is None:
            return None
        text = entry["title"]
        url = f"{BOOK_URL}/{path}.html"
    else:
        return None
    if explicit:
        text = node.astext()
    ref = nodes.reference("", "", internal=False, refuri=url, classes=["external-book"])
    # a title with inline maths ("$(\\varepsilon, \\delta)$-differential privacy") is typeset, not pasted as TeX
    for i, part in enumerate(re.split(r"\$([^$]+)\$", text)):
        if part:
            ref += nodes.math(part, part) if i % 2 else nodes.inline(part, part)
    return ref


def setup(app) -> dict[str, Any]:
    """The Sphinx side of the page: references to other pages of the book go to the online book."""
    from sphinx import addnodes
    from sphinx.transforms.post_transforms import SphinxPostTransform

    class ExternalBookReferences(SphinxPostTransform):
        default_priority = 5  # before Sphinx's ReferencesResolver (10): no "not found" warning

        def run(self, **kwargs: Any) -> None:
            for node in list(self.document.findall(addnodes.pending_xref)):
                new = _external_reference(self.app, node)
                if new is not None:
                    node.replace_self(new)

    app.setup_extension(
        "dpcompendium.book._myst_speed"
    )  # MyST without a discarded document per parse (issue 50)
    app.setup_extension(
        "dpcompendium.book.tablenum"
    )  # captioned tables numbered as the page's figures are (issue 49, F12)
    app.add_config_value("dpc_rerun_labels", {}, "env")
    app.add_config_value("dpc_rerun_docname", PAGE_DOC, "env")
    app.add_post_transform(ExternalBookReferences)
    # the book's stylesheet and script (figures, tables and display maths on a phone, print rules) and alt texts
    from .sphinxext import (
        _on_builder_inited_static,
        _on_doctree_read_alt,
        _on_doctree_resolved_cjk_spacing,
        _on_html_page_context_cjk_spacing,
    )

    app.connect("builder-inited", _on_builder_inited_static)
    app.connect("doctree-read", _on_doctree_read_alt)
    # a Chinese page's spaces and punctuation as the book's Chinese edition has them (dpcompendium.book.cjk_spacing;
    # caption numbers before full-width brackets, solution titles; issue 48)
    app.connect("doctree-resolved", _on_doctree_resolved_cjk_spacing)
    app.connect("html-page-context", _on_html_page_context_cjk_spacing)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}


# ---- the build


def _book_file(name: str) -> Path:
    """A file of the book (``_config.yml``, ``book/references.bib``): from the repository, else from the checkout
    this package is installed from (a miniature test repository has neither)."""
    for root in (repo_root(), Path(__file__).resolve().parents[3]):
        if (root / name).is_file():
            return root / name
    raise FileNotFoundError(f"no {name} in {repo_root()}")


def sphinx_config(src: Path, docname: str, title: str, lang: str = "en") -> dict[str, Any]:
    """The book's Sphinx configuration (from its ``_config.yml``, through Jupyter Book) for a one-chapter build in
    ``src``: execution off, the chapter as the only page, references outside it to the online book. In a language
    other than English, the page's text comes from the catalogue compiled into ``src/locales``
    (:func:`compile_catalogue`) and glued values in translated paragraphs resolve
    (:mod:`dpcompendium.book.glue_i18n`)."""
    from jupyter_book.config import get_final_config

    config_yml = _book_file("_config.yml")
    cfg, _ = get_final_config(
        user_yaml=config_yml,
        cli_config={"latex_individualpages": False, "external_toc_path": str(src / "_toc.yml")},
        sourcedir=src,
    )
    cfg["nb_execution_mode"] = "off"
    cfg["bibtex_bibfiles"] = ["references.bib"]
    # not the execution store (the notebook is executed) nor the language switch (the page has no other edition)
    book_only = ("dpcompendium.book.sphinxext", "dpcompendium.book.i18n")
    cfg["extensions"] = [e for e in dict.fromkeys(cfg["extensions"]) if e not in book_only] + [
        "dpcompendium.book.rerun_page"
    ]
    for key in [k for k in cfg if k.startswith("dpc_execution")]:
        del cfg[key]  # the execution store's settings (dpcompendium.book.sphinxext is not loaded)
    cfg["dpc_rerun_labels"] = book_labels(config_yml.parent)
    cfg["dpc_rerun_docname"] = docname
    cfg["html_title"] = f"{translated_title(title, docname, lang)} — {_t('rerun', lang)}"
    if lang != "en":
        cfg["language"] = lang
        cfg["locale_dirs"] = [str(src / "locales")]
        cfg["gettext_compact"] = False
        if "dpcompendium.book.glue_i18n" not in cfg["extensions"]:
            cfg["extensions"].append("dpcompendium.book.glue_i18n")
    cfg["html_copy_source"] = False
    cfg["html_show_sourcelink"] = False
    theme = dict(cfg.get("html_theme_options") or {})
    theme.update(
        use_repository_button=False,
        use_download_button=False,
        launch_buttons={},
        extra_footer=f'{_t("A rerun of a chapter of", lang)} <a href="{BOOK_URL}">{_t("the book", lang)}</a>, '
        f"{_t('built offline.', lang)}",
    )
    cfg["html_theme_options"] = theme
    return cfg


def _build_in_process(src: Path, out: Path, config: dict[str, Any]) -> list[str]:
    import io

    from sphinx.application import Sphinx
    from sphinx.util.docutils import docutils_namespace, patch_docutils

    warnings = io.StringIO()
    with patch_docutils(str(src)), docutils_namespace():
        app = Sphinx(
            srcdir=str(src),
            confdir=None,
            outdir=str(out),
            doctreedir=str(out / ".doctrees"),
            buildername="html",
            confoverrides=config,
            status=None,
            warning=warnings,
            freshenv=True,
        )
        app.build()
    return [w for w in re.sub(r"\x1b\[[0-9;]*m", "", warnings.getvalue()).splitlines() if w]


def compile_catalogue(docname: str, lang: str, dest: Path) -> Path | None:
    """Compile the book's catalogue of page ``docname`` in ``lang`` (``locales/<lang>/LC_MESSAGES/<docname>.po``)
    into ``dest/locales/<lang>/LC_MESSAGES/index.mo``, the page's domain in a one-page build; None if it has none."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    po = repo_root() / "locales" / lang / "LC_MESSAGES" / f"{docname}.po"
    if not po.is_file():
        return None
    mo = dest / "locales" / lang / "LC_MESSAGES" / f"{PAGE_DOC}.mo"
    mo.parent.mkdir(parents=True, exist_ok=True)
    with po.open("rb") as f:
        catalog = read_po(f, locale=lang)
    with mo.open("wb") as f:
        write_mo(f, catalog)
    return mo


def sphinx_build(src: Path, out: Path, docname: str, title: str, lang: str = "en") -> list[str]:
    """Build ``src/index.ipynb`` into ``out`` with the book's configuration (in ``lang``), in a child process;
    return the warnings."""
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "dpcompendium.book.rerun_page",
            str(src),
            str(out),
            docname,
            title,
            lang,
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    if proc.returncode != 0:
        tail = (proc.stderr or proc.stdout).strip().splitlines()[-1:] or ["no output"]
        raise RuntimeError(f"the page build failed: {tail[0]}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def _install(built: Path, dest: Path, rename: dict[str, str]) -> Path:
    """Move the built page into ``dest``: ``index.html`` with its ``_static`` (MathJax pruned) and ``_images``."""
    mathjax = built / "_static" / "mathjax"
    if mathjax.is_dir():
        keep = built / "_static" / ".mathjax-keep"
        for part in _MATHJAX_PARTS:
            (keep / part).parent.mkdir(parents=True, exist_ok=True)
            shutil.move(str(mathjax / part), str(keep / part))
        shutil.rmtree(mathjax)
        keep.rename(mathjax)
    for item in built.iterdir():
        if item.name in _DROP:
            continue
        target = dest / item.name
        if target.is_dir():
            shutil.rmtree(target)
        shutil.move(str(item), str(target))
    page = dest / "index.html"
    text = page.read_text(encoding="utf-8")
    for old, new in rename.items():
        text = text.replace(html.escape(old), html.escape(new)).replace(old, new)
    page.write_text(text, encoding="utf-8")
    return page


def write_page(
    plan: RunPlan,
    executed_path: Path,
    wall_seconds: float,
    started: datetime,
    rename: dict[str, str] | None = None,
) -> Path:
    """Build ``index.html`` beside the executed notebook (see the module's docstring) of the run planned by ``plan``
    (:class:`~dpcompendium.book.preflight.RunPlan`: its chapter, values and command, in the edition ``plan.lang``:
    the chapter's text from its catalogue, the run's outputs of that language); return the page's path.

    ``rename`` maps strings of the page to their replacement (the staging folder to the final one). Sphinx's
    warnings, if any, go to ``page-warnings.txt`` beside the page. An output tagged with another language than
    ``plan.lang`` (``dpcompendium.core.messages.show``) is left out."""
    from .execution import for_language

    chapter, lang = plan.chapter, plan.lang
    dest = Path(executed_path).parent
    executed = for_language(nbformat.read(executed_path, as_version=4), lang)
    book = nbformat.read(chapter.notebook, as_version=4)
    prov = provenance(plan, wall_seconds, started)
    docname = Path(chapter.notebook).relative_to(repo_root()).with_suffix("").as_posix()
    nb = with_run_parameters(page_notebook(executed, book, prov, lang), plan)
    page, warnings = build_page(nb, dest, docname, chapter.title, rename, lang)
    if warnings:
        (dest / _WARNINGS).write_text("\n".join(warnings) + "\n", encoding="utf-8")
    return page


def with_run_parameters(nb: nbformat.NotebookNode, plan: RunPlan) -> nbformat.NotebookNode:
    """``nb`` (the executed chapter) with its parameters cell holding the run's values and the run's command in its
    metadata, and papermill's injected-parameters cell left out: the page's "Rerun this chapter" box
    (:mod:`dpcompendium.book.rerun_box`) then shows this run's parameters and the command that repeats it."""
    from .rerun_box import COMMAND_KEY, parameters_source

    cells = []
    for cell in nb.cells:
        tags = cell.get("metadata", {}).get("tags", [])
        if cell.cell_type == "code" and "injected-parameters" in tags:
            continue
        if cell.cell_type == "code" and "parameters" in tags:
            cell.source = parameters_source(plan.chapter, plan.run_values)
            cell.metadata.setdefault("dpcompendium", {})[COMMAND_KEY] = plan.command()
        cells.append(cell)
    nb.cells = cells
    return nb


def build_page(
    nb: nbformat.NotebookNode,
    dest: Path,
    docname: str,
    title: str,
    rename: dict[str, str] | None = None,
    lang: str = "en",
) -> tuple[Path, list[str]]:
    """Build ``nb`` (executed) as ``dest/index.html`` with the book's configuration (``docname``: where the chapter
    sits in the book, for its relative references; ``lang``: the edition); return the page and Sphinx's warnings."""
    if lang not in LANGUAGES:
        raise ValueError(f"lang must be one of {', '.join(LANGUAGES)}, got {lang!r}")
    dest = Path(dest)
    with tempfile.TemporaryDirectory(prefix=".page-", dir=dest) as tmp:
        src, out = Path(tmp) / "src", Path(tmp) / "html"
        src.mkdir()
        nbformat.write(nb, src / f"{PAGE_DOC}.ipynb")
        shutil.copy2(_book_file("book/references.bib"), src / "references.bib")
        (src / "_toc.yml").write_text(f"format: jb-article\nroot: {PAGE_DOC}\n", encoding="utf-8")
        if lang != "en":
            compile_catalogue(docname, lang, src)
        warnings = sphinx_build(src, out, docname, title, lang)
        page = _install(out, dest, rename or {})
    return page, warnings


def open_page(page: Path) -> bool:
    """Open ``page`` in a web browser when one is available (``webbrowser``); False when none is."""
    import webbrowser

    try:
        browser = webbrowser.get()
    except webbrowser.Error:
        return False
    return bool(browser.open(Path(page).resolve().as_uri()))


def main(argv: list[str] | None = None) -> int:
    """``python -m dpcompendium.book.rerun_page SRC OUT DOCNAME TITLE [LANG]``: build the page; print its warnings
    as JSON."""
    args = list(argv if argv is not None else sys.argv[1:])
    src, out, docname, title = args[:4]
    lang = args[4] if len(args) > 4 else "en"
    t0 = time.perf_counter()
    os.environ.setdefault("MPLBACKEND", "Agg")
    warnings = _build_in_process(
        Path(src), Path(out), sphinx_config(Path(src), docname, title, lang)
    )
    print(f"page built in {time.perf_counter() - t0:.1f} s", file=sys.stderr)
    print(json.dumps(warnings))
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
