"""The page of a rerun: ``DIR/CHAPTER/index.html``, the executed chapter as one self-contained HTML file.

Headed by a provenance block (the parameters that differ from the defaults, seed, package version, git commit, lock
hash, date, wall time) and, where the chapter has headline numbers (cells tagged ``keep_output``), those numbers
beside the book's default run (the outputs stored in the notebook). Markdown is rendered with markdown-it (the MyST
roles and directives the chapters use are shown plainly), figures are embedded as data URIs, and math is typeset
by the MathJax of the ``sphinx-mathjax-offline`` package, copied beside the page (``_mathjax/``): no network.
"""

from __future__ import annotations

import ast
import base64
import hashlib
import html
import importlib.metadata
import re
import shutil
import subprocess
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import nbformat

from ..core.paths import repo_root
from .contract import Chapter

__all__ = ["mathjax_dir", "open_page", "provenance", "render_page", "write_page"]

_ROLE = re.compile(r"\{([a-z]+(?::[a-z]+)?)\}`([^`]*)`")
_ANSI = re.compile(r"\x1b\[[0-9;]*m")
_OPTION = re.compile(r"^:[\w-]+:.*$", re.M)
_MATHJAX_PARTS = ("tex-chtml.js", "output/chtml", "input/tex/extensions")

_CSS = """
body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;
line-height:1.5;color:#222}
pre{background:#f6f8fa;padding:.6rem;overflow-x:auto;font-size:.85rem}
.cell-input pre{border-left:3px solid #9ab}
.output pre{background:#fff;border-left:3px solid #ddd}
table{border-collapse:collapse;font-size:.85rem}td,th{border:1px solid #ccc;padding:.2rem .5rem}
.provenance{background:#eef5ff;border:1px solid #9bd;padding:.5rem 1rem;margin-bottom:2rem}
.admonition{border-left:4px solid #68a;background:#f4f8fb;padding:.3rem 1rem;margin:1rem 0}
.admonition-title{font-weight:bold}
.headline table{table-layout:fixed;width:100%}.headline td{vertical-align:top;width:50%}
.headline pre{margin:0;white-space:pre-wrap;word-break:break-word;font-size:.75rem}
img{max-width:100%;height:auto}
"""


def mathjax_dir() -> Path:
    """The MathJax folder of the ``sphinx-mathjax-offline`` package."""
    dist = importlib.metadata.distribution("sphinx-mathjax-offline")
    for f in dist.files or ():
        if str(f).endswith("mathjax/tex-chtml.js"):
            return Path(dist.locate_file(f)).parent
    raise FileNotFoundError("sphinx-mathjax-offline has no mathjax/tex-chtml.js")


def _copy_mathjax(dest: Path) -> None:
    src = mathjax_dir()
    for part in _MATHJAX_PARTS:
        s, d = src / part, dest / part
        d.parent.mkdir(parents=True, exist_ok=True)
        if s.is_dir():
            shutil.copytree(s, d, dirs_exist_ok=True)
        else:
            shutil.copy2(s, d)


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


def provenance(
    chapter: Chapter, values: dict[str, Any], wall_seconds: float, started: datetime
) -> dict[str, Any]:
    """What a reader needs to reproduce the run: changed parameters, seed, versions, lock hash, date, wall time."""
    root = repo_root()
    lock = root / "requirements-lock.txt"
    changed = {
        k: v
        for k, v in values.items()
        if k != "output_dir" and k in chapter.parameters and v != chapter.parameters[k].default
    }
    seed = values.get(
        "seed", chapter.parameters["seed"].default if "seed" in chapter.parameters else None
    )
    try:
        version = importlib.metadata.version("dpcompendium")
    except importlib.metadata.PackageNotFoundError:
        version = "unknown"
    return {
        "chapter": chapter.id,
        "changed": changed,
        "seed": seed,
        "version": version,
        "commit": _git_commit(root),
        "lock_sha256": hashlib.sha256(lock.read_bytes()).hexdigest()
        if lock.is_file()
        else "no lock",
        "date": started.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S UTC"),
        "wall_seconds": round(wall_seconds, 1),
    }


# ---- rendering


def _markdown():
    from markdown_it import MarkdownIt
    from mdit_py_plugins.colon_fence import colon_fence_plugin
    from mdit_py_plugins.dollarmath import dollarmath_plugin

    md = (
        MarkdownIt("commonmark", {"html": True})
        .enable("table")
        .use(dollarmath_plugin, double_inline=True)
        .use(colon_fence_plugin)
    )

    def math_inline(self, tokens, idx, options, env):
        return f'<span class="math">\\({html.escape(tokens[idx].content)}\\)</span>'

    def math_block(self, tokens, idx, options, env):
        return f'<div class="math">\\[{html.escape(tokens[idx].content)}\\]</div>\n'

    def fence(self, tokens, idx, options, env):
        tok = tokens[idx]
        info = tok.info.strip()
        m = re.match(r"^\{([\w:-]+)\}\s*(.*)$", info)
        if not m:
            return f"<pre><code>{html.escape(tok.content)}</code></pre>\n"
        name, title = m.group(1), m.group(2)
        body = _OPTION.sub("", tok.content).strip()
        if name == "math":
            return f'<div class="math">\\[{html.escape(body)}\\]</div>\n'
        if name in ("code-cell", "code"):
            return f"<pre><code>{html.escape(body)}</code></pre>\n"
        heading = title or name.split(":")[-1].capitalize()
        return (
            f'<div class="admonition {html.escape(name)}"><p class="admonition-title">'
            f"{md.renderInline(heading)}</p>{md.render(_roles(body))}</div>\n"
        )

    for rule in ("math_inline", "math_inline_double"):
        md.add_render_rule(rule, math_inline)
    for rule in ("math_block", "math_block_label"):
        md.add_render_rule(rule, math_block)
    md.add_render_rule("fence", fence)
    md.add_render_rule("colon_fence", fence)
    return md


_GLUE_PREFIX = "application/papermill.record/"
_MD_PUNCT = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>$~])")


def glued_values(executed: nbformat.NotebookNode) -> dict[str, str]:
    """The values a notebook glued with ``myst_nb.glue`` (key → its text/plain, quotes of a str removed), as the
    book's ``{glue:text}`` role pastes them."""
    out: dict[str, str] = {}
    for cell in executed.cells:
        for o in cell.get("outputs", []) if cell.cell_type == "code" else []:
            name = o.get("metadata", {}).get("scrapbook", {}).get("name")
            text = o.get("data", {}).get(_GLUE_PREFIX + "text/plain")
            if name and text is not None:
                text = "".join(text)
                try:
                    out[name] = str(ast.literal_eval(text))
                except (SyntaxError, ValueError):
                    out[name] = text
    return out


def _roles(text: str, glue: dict[str, str] | None = None) -> str:
    """MyST roles shown plainly: ``{cite:p}`key``` → [key], ``{numref}`fig-x``` → the target, etc.;
    ``{glue:text}`key``` → the glued value (from :func:`glued_values`), escaped so that it stays plain text."""

    def repl(m: re.Match) -> str:
        role, target = m.group(1), m.group(2)
        key = target.split(":")[0]
        if role in ("glue", "glue:text", "glue:md", "glue:any") and glue and key in glue:
            return _MD_PUNCT.sub(r"\\\1", glue[key])
        if role.startswith("cite"):
            return f"[{target}]"
        label = re.sub(r"\s*<[^>]*>$", "", target)
        return f"*{label}*" if role in ("numref", "ref", "doc", "term", "eq") else f"`{target}`"

    return _ROLE.sub(repl, text)


def _output_html(output: dict) -> str:
    kind = output.get("output_type")
    if kind == "stream":
        return f"<pre>{html.escape(output.get('text', ''))}</pre>"
    if kind == "error":
        tb = _ANSI.sub("", "\n".join(output.get("traceback", [])))
        return f"<pre>{html.escape(tb)}</pre>"
    data = output.get("data", {})
    if "image/png" in data:
        b64 = "".join(data["image/png"]).replace("\n", "")
        meta = output.get("metadata", {}).get("image/png", {})
        size = "".join(f' {k}="{int(meta[k])}"' for k in ("width", "height") if k in meta)
        return f'<img alt="figure"{size} src="data:image/png;base64,{b64}">'
    if "image/svg+xml" in data:
        svg = "".join(data["image/svg+xml"])
        b64 = base64.b64encode(svg.encode()).decode()
        return f'<img alt="figure" src="data:image/svg+xml;base64,{b64}">'
    if "text/html" in data:
        return "".join(data["text/html"])
    if "text/markdown" in data:
        return _markdown().render(_roles("".join(data["text/markdown"])))
    if "text/plain" in data:
        return f"<pre>{html.escape(''.join(data['text/plain']))}</pre>"
    return ""


def _text(outputs: list) -> str:
    parts = []
    for o in outputs:
        if o.get("output_type") == "stream":
            parts.append(o.get("text", ""))
        elif "text/plain" in o.get("data", {}):
            parts.append("".join(o["data"]["text/plain"]))
    return "".join(parts).rstrip()


def _headlines(executed: nbformat.NotebookNode, book: nbformat.NotebookNode) -> str:
    stored = {
        c.get("id"): c
        for c in book.cells
        if c.cell_type == "code" and "keep_output" in c.metadata.get("tags", [])
    }
    rows = []
    for c in executed.cells:
        if c.get("id") in stored and c.cell_type == "code":
            ours, theirs = (
                _text(c.get("outputs", [])),
                _text(stored[c.get("id")].get("outputs", [])),
            )
            same = " (same)" if ours == theirs else ""
            rows.append(
                f"<tr><td><pre>{html.escape(ours)}</pre></td>"
                f"<td><pre>{html.escape(theirs)}</pre>{same}</td></tr>"
            )
    if not rows:
        return ""
    return (
        '<section class="headline"><h2>Headline numbers</h2><table><tr><th>this run</th>'
        "<th>the book's default run</th></tr>" + "".join(rows) + "</table></section>"
    )


def _provenance_html(prov: dict[str, Any]) -> str:
    changed = (
        ", ".join(
            f"<code>{html.escape(k)} = {html.escape(repr(v))}</code>"
            for k, v in prov["changed"].items()
        )
        or "none (the book's defaults)"
    )
    rows = [
        ("parameters changed from the defaults", changed),
        ("seed", f"<code>{prov['seed']}</code>"),
        ("dpcompendium version", html.escape(str(prov["version"]))),
        ("git commit", f"<code>{html.escape(prov['commit'])}</code>"),
        ("lock (requirements-lock.txt) SHA-256", f"<code>{prov['lock_sha256']}</code>"),
        ("date", html.escape(prov["date"])),
        ("wall time", f"{prov['wall_seconds']} s"),
    ]
    body = "".join(f"<tr><th>{k}</th><td>{v}</td></tr>" for k, v in rows)
    return (
        f'<section class="provenance" id="provenance"><h2>Provenance of this rerun</h2>'
        f"<table>{body}</table></section>"
    )


def render_page(
    executed: nbformat.NotebookNode,
    book: nbformat.NotebookNode,
    prov: dict[str, Any],
    title: str,
    mathjax: str | None = "_mathjax/tex-chtml.js",
) -> str:
    """The HTML text of the page (``mathjax``: the script's path relative to the page; None: no MathJax)."""
    md = _markdown()
    glue = glued_values(executed)
    parts = []
    for cell in executed.cells:
        tags = cell.metadata.get("tags", [])
        if cell.cell_type == "markdown":
            parts.append(md.render(_roles(cell.source, glue)))
        elif cell.cell_type == "code":
            label = "injected parameters" if "injected-parameters" in tags else ""
            head = f'<p class="cell-label">{label}</p>' if label else ""
            parts.append(
                f'<div class="cell">{head}<div class="cell-input tex2jax_ignore"><pre><code>'
                f"{html.escape(cell.source)}</code></pre></div>"
                f'<div class="output tex2jax_ignore">'
                + "".join(_output_html(o) for o in cell.get("outputs", []))
                + "</div></div>"
            )
    config = (
        "window.MathJax={tex:{inlineMath:[['\\\\(','\\\\)']],displayMath:[['\\\\[','\\\\]']]}};"
    )
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f'<title>{html.escape(title)} — rerun</title><link rel="icon" href="data:,">'
        f"<style>{_CSS}</style>"
        + (f'<script>{config}</script><script defer src="{mathjax}"></script>' if mathjax else "")
        + "</head><body>"
        + _provenance_html(prov)
        + _headlines(executed, book)
        + "".join(parts)
        + "</body></html>\n"
    )


def write_page(
    chapter: Chapter,
    executed_path: Path,
    values: dict[str, Any],
    wall_seconds: float,
    started: datetime,
    rename: dict[str, str] | None = None,
) -> Path:
    """Write ``index.html`` (and ``_mathjax/``) beside the executed notebook; return the page's path.

    ``rename`` maps strings of the page to their replacement (the staging folder to the final one)."""
    dest = Path(executed_path).parent
    executed = nbformat.read(executed_path, as_version=4)
    book = nbformat.read(chapter.notebook, as_version=4)
    prov = provenance(chapter, values, wall_seconds, started)
    mathjax: str | None = "_mathjax/tex-chtml.js"
    try:
        _copy_mathjax(dest / "_mathjax")
    except (importlib.metadata.PackageNotFoundError, FileNotFoundError):
        mathjax = None  # the book extra is not installed: the page shows the TeX source of the math
    page = dest / "index.html"
    text = render_page(executed, book, prov, chapter.title, mathjax=mathjax)
    for old, new in (rename or {}).items():
        text = text.replace(html.escape(old), html.escape(new)).replace(old, new)
    page.write_text(text, encoding="utf-8")
    return page


def open_page(page: Path) -> bool:
    """Open ``page`` in a web browser when one is available (``webbrowser``); False when none is."""
    import webbrowser

    try:
        browser = webbrowser.get()
    except webbrowser.Error:
        return False
    return bool(browser.open(Path(page).resolve().as_uri()))
