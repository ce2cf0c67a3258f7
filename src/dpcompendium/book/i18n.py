"""The book's editions in other languages (issue 38: 简体中文), from the same executions as the English book.

One source, two editions. The English pages are translated through Sphinx's gettext machinery: one catalogue per page
under ``locales/<lang>/LC_MESSAGES/`` (``book/<page>.po``, ``notebooks/<chapter>.po``; the Library reference pages
``book/api/`` are not translated: in the edition each is its title, in the edition's language, and a link to the English page), compiled to ``.mo`` with Babel at build time into ``_build/.locales`` (the ``.mo``
are not committed). :func:`build` builds the edition into ``_build/html/<lang>/`` after the English book: the same
Sphinx configuration plus ``language``, ``locale_dirs``, ``gettext_compact = False``; its doctrees, MyST-NB output
folder and jupyter-cache are its own (``_build/.<lang>/``), and its chapters come from the execution store
``_build/.execution`` that the English build filled (``dpcompendium.book.sphinxext``: nothing is executed again; each
edition shows the outputs of its language, :func:`dpcompendium.book.prose.show`). Generated sentences are pasted in
the edition's language: :func:`dpcompendium.book.prose.glue` glues ``key__<lang>`` beside ``key`` and
``dpcompendium.book.glue_i18n`` pastes it.

As a Sphinx extension (listed in ``_config.yml``) this module puts a language switch on every page of every edition:
a link in the page's header to the same page in the other edition (a relative URL, so it works offline and from a
copy of ``_build/html``).

Commands (``dpcompendium i18n``): ``update`` extracts the English messages (``sphinx-build -b gettext``) and merges
them into the catalogues (Babel's ``Catalog.update``: a changed message becomes fuzzy, a removed one obsolete, a new
one untranslated); ``status`` counts, per catalogue, the entries that still need a translator (untranslated, fuzzy,
obsolete); ``build`` builds the edition alone (the English book must have been built: ``dpcompendium book`` builds
both).
"""

from __future__ import annotations

import argparse
import io
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

#: The editions besides English, named as Sphinx names the language.
LANGUAGES: tuple[str, ...] = ("zh_CN",)
#: The catalogues, relative to the repository root.
LOCALES = "locales"
#: Pages that are not translated (their catalogues are not kept): the Library reference.
UNTRANSLATED = ("book/api/",)
#: The edition's title and footer (the English ones are in ``_config.yml``).
TITLES = {"zh_CN": "dpcompendium：可执行的差分隐私"}
FOOTERS = {"zh_CN": "由锁定的依赖构建，构建时不访问网络。本书的每个数字都在构建时重新计算。"}
#: The edition's author line (the theme writes "By <author>" in the page's footer; the English one is in ``_config.yml``).
AUTHORS = {"zh_CN": "dpcompendium 作者组"}
#: The switch's text: the name of the *other* edition, in its own language.
SWITCH_TEXT = {"en": "English", "zh_CN": "中文"}
SWITCH_TIP = {"en": "Read this page in English", "zh_CN": "阅读本页的中文版"}


def text_in(texts: dict[str, dict[str, str]], text: str, lang: str = "en") -> str:
    """``text`` in ``lang`` from ``texts`` (language → English text → its translation): the English ``text`` where
    ``texts`` has none. The lookup of the texts the book layer writes itself (the PDF's front matter, a rerun page's
    blocks)."""
    return texts.get(lang, {}).get(text, text)


def translated_title(title: str, docname: str, lang: str = "en") -> str:
    """A chapter's title in ``lang`` (a rerun page's title, a ``{chapter}`` link: ``dpcompendium.book.sphinxext``): its translation in the page's catalogue
    (``locales/<lang>/LC_MESSAGES/<docname>.po``, the msgid of the notebook's ``#`` heading), or ``title`` as it is
    (English, or a catalogue without it)."""
    if lang == "en":
        return title
    from babel.messages.pofile import read_po

    from ..core.paths import repo_root

    po = repo_root() / "locales" / lang / "LC_MESSAGES" / f"{docname}.po"
    if not po.is_file():
        return title
    with po.open("rb") as f:
        msg = read_po(f).get(title)
    return msg.string if msg is not None and isinstance(msg.string, str) and msg.string else title


def output_dir(root: Path, lang: str) -> Path:
    """Where the edition in ``lang`` is built: ``_build/html/<lang>``."""
    return Path(root) / "_build" / "html" / lang


def work_dir(root: Path, lang: str) -> Path:
    """The edition's own build state (doctrees, MyST-NB outputs, jupyter-cache, compiled catalogues)."""
    return Path(root) / "_build" / f".{lang}"


def catalogues(root: Path, lang: str, locales: Path | None = None) -> list[Path]:
    """The ``.po`` files of ``lang`` (in ``locales``, default the repository's ``locales/``), sorted."""
    base = Path(locales or Path(root) / LOCALES) / lang / "LC_MESSAGES"
    return sorted(base.rglob("*.po")) if base.is_dir() else []


def compile_catalogues(root: Path, lang: str, dest: Path, locales: Path | None = None) -> int:
    """Compile every ``.po`` of ``lang`` into ``dest/<lang>/LC_MESSAGES/<page>.mo`` (Babel; fuzzy entries are left
    out, as ``msgfmt`` does). Returns how many were compiled; an unchanged ``.mo`` is not rewritten."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    base = Path(locales or Path(root) / LOCALES) / lang / "LC_MESSAGES"
    n = 0
    for po in catalogues(root, lang, locales):
        mo = Path(dest) / lang / "LC_MESSAGES" / po.relative_to(base).with_suffix(".mo")
        if mo.is_file() and mo.stat().st_mtime >= po.stat().st_mtime:
            continue
        with po.open("rb") as f:
            catalog = read_po(f, locale=lang)
        mo.parent.mkdir(parents=True, exist_ok=True)
        buf = io.BytesIO()
        write_mo(buf, catalog, use_fuzzy=False)
        mo.write_bytes(buf.getvalue())
        n += 1
    return n


def _jupyter_book_config(root: Path) -> tuple[Path, dict[str, Any]]:
    """``_config.yml`` and the overrides ``jupyter-book build`` passes to Sphinx for this book."""
    from jupyter_book.cli.main import build as jb_build

    path_config, _, overrides = jb_build.callback(
        path_source=str(root),
        path_output=str(root),
        config=None,
        toc=None,
        warningiserror=False,
        nitpick=False,
        keep_going=False,
        freshenv=False,
        builder="html",
        custom_builder=None,
        verbose=0,
        quiet=0,
        individualpages=False,
        get_config_only=True,
    )
    overrides["external_toc_path"] = str(Path(root) / "_toc.yml")
    return Path(path_config), overrides


def edition_overrides(root: Path, lang: str) -> dict[str, Any]:
    """The Sphinx settings of the edition in ``lang``, on top of the English book's."""
    work = work_dir(root, lang)
    return {
        "language": lang,
        "locale_dirs": [str(work / "locales")],
        "gettext_compact": False,
        "html_title": TITLES.get(lang, ""),
        "author": AUTHORS.get(lang, ""),
        "html_theme_options": {"extra_footer": FOOTERS.get(lang, "")},
        # the edition's own jupyter-cache, filled from the execution store with the outputs of its language
        "nb_execution_cache_path": str(work / "jupyter_cache"),
        # the buttons of folded code cells ("Show code cell source"), in the edition's language
        **CODE_PROMPTS.get(lang, {}),
    }


#: MyST-NB's labels of a folded code cell's button, per language ("{type}" is MyST-NB's "source" or "outputs").
CODE_PROMPTS = {"zh_CN": {"nb_code_prompt_show": "代码", "nb_code_prompt_hide": "隐藏代码"}}


def build(
    root: Path,
    lang: str,
    strict: bool = False,
    force_all: bool = False,
    locales: Path | None = None,
    jobs: int = 1,
) -> int:
    """Build the edition in ``lang`` into ``_build/html/<lang>`` (after the English book); returns Sphinx's status.
    ``locales``: another folder of catalogues than ``locales/`` (e.g. a test's). ``force_all``: every page read again
    in a fresh Sphinx environment and written; without it, the environment is dropped all the same when the book's
    own extensions changed since it was read (``dpcompendium.book._envstamp``)."""
    from jupyter_book.sphinx import build_sphinx

    from ._envstamp import drop_stale_environment, extension_hash

    root = Path(root).resolve()
    work = work_dir(root, lang)
    if drop_stale_environment(work / "doctrees", extension_hash(root)):
        print(f"{lang}: the book's Sphinx extensions changed: every page is read again", flush=True)
    if locales is not None:  # catalogues from elsewhere: compile them all afresh
        shutil.rmtree(work / "locales", ignore_errors=True)
    compile_catalogues(root, lang, work / "locales", locales)
    path_config, overrides = _jupyter_book_config(root)
    if strict:
        overrides["nitpicky"] = True
    overrides.update(edition_overrides(root, lang))
    os.environ.setdefault("DPCOMPENDIUM_REPO", str(root))
    result = build_sphinx(
        root,
        output_dir(root, lang),
        noconfig=True,
        path_config=str(path_config),
        confoverrides=overrides,
        doctreedir=work / "doctrees",
        builder="html",
        warningiserror=strict,
        keep_going=strict,
        force_all=force_all,
        freshenv=force_all,
        jobs=jobs,
    )
    return result if isinstance(result, int) else 1


# ------------------------------------------------------------------------------------------ catalogue upkeep
@dataclass
class CatalogueStatus:
    """What a catalogue still needs: entries without a translation, marked fuzzy, or obsolete."""

    path: Path
    messages: int
    untranslated: int
    fuzzy: int
    obsolete: int

    @property
    def complete(self) -> bool:
        return not (self.untranslated or self.fuzzy or self.obsolete)


def catalogue_status(po: Path) -> CatalogueStatus:
    """Count the entries of ``po`` (the header is not an entry)."""
    from babel.messages.pofile import read_po

    with Path(po).open("rb") as f:
        cat = read_po(f)
    entries = [m for m in cat if m.id]
    fuzzy = sum(1 for m in entries if m.fuzzy)
    untranslated = sum(
        1
        for m in entries
        if not (all(m.string) if isinstance(m.string, tuple) else m.string) and not m.fuzzy
    )
    return CatalogueStatus(Path(po), len(entries), untranslated, fuzzy, len(cat.obsolete))


def extract(root: Path, dest: Path) -> Path:
    """The English messages of every page, one ``.pot`` per page in ``dest`` (``sphinx-build -b gettext`` with the
    book's configuration, notebooks not executed: outputs are not translated)."""
    root = Path(root).resolve()
    cmd = [
        sys.executable,
        "-c",
        "import sys; from jupyter_book.cli.main import main; sys.exit(main())",
        "config",
        "sphinx",
        str(root),
    ]
    with tempfile.TemporaryDirectory(prefix="dpc-gettext-") as conf:
        conf_dir = Path(conf)
        # `jupyter-book config sphinx` writes conf.py into the book's folder: keep the repository clean
        existing = (root / "conf.py").read_bytes() if (root / "conf.py").exists() else None
        subprocess.run(cmd, check=True, cwd=root, stdout=subprocess.DEVNULL)
        shutil.move(str(root / "conf.py"), conf_dir / "conf.py")
        if existing is not None:
            (root / "conf.py").write_bytes(existing)
        env = {
            **os.environ,
            "PYTHONPATH": os.pathsep.join(
                [str(root / "book" / "_ext"), os.environ.get("PYTHONPATH", "")]
            ),
        }
        subprocess.run(
            [
                sys.executable,
                "-m",
                "sphinx",
                "-q",
                "-b",
                "gettext",
                "-c",
                str(conf_dir),
                "-D",
                "gettext_compact=0",
                "-D",
                "nb_execution_mode=off",
                "-d",
                str(conf_dir / "doctrees"),
                str(root),
                str(dest),
            ],
            check=True,
            cwd=root,
            env=env,
        )
    return Path(dest)


def _translated_pot(dest: Path) -> list[Path]:
    return sorted(
        p
        for p in Path(dest).rglob("*.pot")
        if not any(p.relative_to(dest).as_posix().startswith(u) for u in UNTRANSLATED)
    )


def figure_captions(root: Path, docname: str) -> list[str]:
    """The figure captions a notebook page declares in its cells' metadata (``mystnb.figure.caption``). MyST-NB
    makes them caption nodes of the page (translatable, with the caption as their source) only where the figure
    output exists, i.e. from an execution; the gettext extraction reads the notebooks without outputs, so
    :func:`update` adds them to the page's messages from here."""
    import json

    path = Path(root) / f"{docname}.ipynb"
    if not path.is_file():
        return []
    captions = []
    for cell in json.loads(path.read_text(encoding="utf-8")).get("cells", []):
        meta = cell.get("metadata", {})
        figure = (meta.get("mystnb") or meta.get("myst") or {}).get("figure") or {}
        if figure.get("caption"):
            captions.append(str(figure["caption"]).strip())
    return captions


def update(root: Path, lang: str, pot_dir: Path | None = None) -> list[tuple[Path, str]]:
    """Merge the English messages into the catalogues of ``lang``: a new page gets a new catalogue, a changed
    message becomes fuzzy (its old translation kept as a suggestion), a removed one obsolete. Returns what changed:
    ``(catalogue, summary)``."""
    from babel.messages.pofile import read_po, write_po

    root = Path(root).resolve()
    base = root / LOCALES / lang / "LC_MESSAGES"
    changed: list[tuple[Path, str]] = []
    with tempfile.TemporaryDirectory(prefix="dpc-pot-") as tmp:
        pots = Path(pot_dir) if pot_dir else extract(root, Path(tmp) / "pot")
        for pot in _translated_pot(pots):
            po = base / pot.relative_to(pots).with_suffix(".po")
            with pot.open("rb") as f:
                template = read_po(f)
            for caption in figure_captions(root, pot.relative_to(pots).with_suffix("").as_posix()):
                if caption not in template:
                    template.add(caption)
            if po.is_file():
                with po.open("rb") as f:
                    catalog = read_po(f, locale=lang)
                before = {(m.id, m.context): (m.string, m.fuzzy) for m in catalog if m.id}
                obsolete_before = len(catalog.obsolete)
            else:
                from babel.messages.catalog import Catalog

                catalog = Catalog(locale=lang, project="dpcompendium")
                before, obsolete_before = {}, 0
            catalog.update(template, no_fuzzy_matching=False, update_header_comment=False)
            after = {(m.id, m.context): (m.string, m.fuzzy) for m in catalog if m.id}
            new = sum(1 for k in after if k not in before)
            fuzzy = sum(
                1 for k, v in after.items() if v[1] and before.get(k, (None, True))[1] is False
            )
            obsolete = len(catalog.obsolete) - obsolete_before
            if new or fuzzy or obsolete or not po.is_file():
                po.parent.mkdir(parents=True, exist_ok=True)
                buf = io.BytesIO()
                # no source locations (they name the machine's paths), one line per message (as the translators keep them)
                write_po(
                    buf,
                    catalog,
                    width=0,
                    no_location=True,
                    omit_header=False,
                    include_previous=True,
                )
                po.write_bytes(buf.getvalue())
                changed.append((po, f"{new} new, {fuzzy} fuzzy, {obsolete} obsolete"))
    return changed


# -------------------------------------------------------------------------------------------- language switch
def _switch_url(pagename: str, lang: str, other: str) -> str:
    """The relative URL from page ``pagename`` of the edition in ``lang`` to the same page in ``other``."""
    up = "../" * pagename.count("/")
    if lang == "en":
        return f"{up}{other}/{pagename}.html"
    if other == "en":
        return f"{up}../{pagename}.html"
    return f"{up}../{other}/{pagename}.html"


def _on_html_page_context(app, pagename, templatename, context, doctree) -> None:
    """The language switch: a link in the page's header to the same page in the other edition."""
    buttons = context.get("header_buttons")
    if buttons is None:
        return
    lang = app.config.language or "en"
    others = [x for x in ("en", *LANGUAGES) if x != lang]
    for other in reversed(others):
        buttons.insert(
            0,
            {
                "type": "link",
                "url": _switch_url(pagename, lang, other),
                "text": SWITCH_TEXT.get(other, other),
                "tooltip": SWITCH_TIP.get(other, other),
                "icon": "fas fa-language",
                "label": f"dpc-language-{other.replace('_', '-').lower()}",
                "classes": "dpc-language",
            },
        )


def _on_builder_inited(app) -> None:
    """In an edition other than English, MyST-NB's outputs go to the edition's own folder (by default they would go
    beside the output folder, i.e. into the English book's ``_build/html``)."""
    lang = app.config.language or "en"
    if lang == "en" or not hasattr(app.env, "mystnb_config"):
        return
    folder = Path(app.outdir).parents[1] / f".{lang}" / "jupyter_execute"
    app.env.mystnb_config = app.env.mystnb_config.copy(output_folder=str(folder.resolve()))


#: What each Library reference page says in an edition that does not translate it: the reference stays English
#: (its text is the code's docstrings), then a link to the English page.
REFERENCE_NOTE = {
    "zh_CN": "库参考各页的正文保持英文：它们由源代码的文档字符串生成，与代码同步更新。",
}
REFERENCE_LINK = {"zh_CN": "阅读本页的英文版"}
#: The Library reference pages' titles in an edition (native review 7, U1): the page's heading, its entry in the
#: sidebar and a bare ``{doc}`` link to it. Only the text stays English; a page's link text in the catalogues
#: (``{doc}`标题 <../book/api/core>```) is its title here without the backticks (``tests/test_links_zh.py``).
REFERENCE_TITLES = {
    "zh_CN": {
        # not the sidebar caption's 「库参考」 again (native review 9, C5: caption and entry read 「库参考 / 库参考」)
        "book/api/index": "库参考总览",
        "book/api/core": "`dpcompendium.core`：隐私声明、校验、随机流、并行运行与数据",
        "book/api/core-mechanisms": "`dpcompendium.core.mechanisms`：教科书中的机制",
        "book/api/core-experiments": "`dpcompendium.core.experiments`：蒙特卡洛扫描、运行汇总与范围查询",
        "book/api/core-audit": "`dpcompendium.core.audit`：审计引擎",
        "book/api/chapters": "`dpcompendium.chapters`：每章一个文件夹，及其注册表",
        "book/api/chapters-dp_mean": "`dpcompendium.chapters.dp_mean`：均值发布（dp-mean 一章）",
        "book/api/chapters-histograms": "`dpcompendium.chapters.histograms`：直方图发布（histograms 一章）",
        "book/api/chapters-mwem": "`dpcompendium.chapters.mwem`：MWEM（mwem 一章）",
        "book/api/chapters-federated_pca": "`dpcompendium.chapters.federated_pca`：联邦 PCA（federated-pca 一章）",
        "book/api/chapters-hiera": "`dpcompendium.chapters.hiera`：数值型数据的本地差分隐私（hiera 一章）",
        "book/api/chapters-privacy_audit": "`dpcompendium.chapters.privacy_audit`：privacy-audit 一章的代码",
        "book/api/book": "`dpcompendium.book`：章节约定、命令行与本书的构建机制",
        "book/api/book-usercode": "`dpcompendium.book.usercode`：审计你自己的代码",
        "book/api/book-check": "`dpcompendium.book.check`：课程作业检查",
    }
}


def _untranslated(docname: str) -> bool:
    return any(docname.startswith(u) for u in UNTRANSLATED)


def _on_source_read(app, docname: str, source: list[str]) -> None:
    """The Library reference in an edition that does not translate it, and in the message extraction: the page is
    its label and title only (the edition's page then says where the English page is, :func:`_on_doctree_read`),
    the title in the edition's language (:data:`REFERENCE_TITLES`).
    Its text is the docstrings, which stay English: reading them again with autodoc in every edition (and in every
    extraction, whose messages from these pages nobody translates) took a third of the Chinese build."""
    lang = app.config.language or "en"
    if not _untranslated(docname) or (lang == "en" and app.builder.name != "gettext"):
        return
    keep = []
    title = REFERENCE_TITLES.get(lang, {}).get(docname) if app.builder.name != "gettext" else None
    for line in source[0].splitlines():
        if line.startswith("#"):
            keep.append(f"# {title}" if title else line)
            break
        if line.startswith("(") and line.rstrip().endswith(")="):
            keep.append(line)
    source[0] = "\n".join(keep) + "\n"


def _english_inventory(app) -> dict[str, str]:
    """The English edition's Python objects (``objects.inv`` of the English book, one folder up from an edition's
    output), as ``{name: uri}``; empty when the English book is not built."""
    cached = getattr(app, "_dpc_english_inventory", None)
    if cached is not None:
        return cached
    inv: dict[str, str] = {}
    path = Path(app.outdir).parent / "objects.inv"
    if path.is_file():
        from sphinx.util.inventory import InventoryFile

        with path.open("rb") as f:
            data = InventoryFile.load(f, "", lambda base, uri: uri)
        for kind, entries in data.items():
            if kind.startswith("py:"):
                inv.update({name: entry[2] for name, entry in entries.items()})
    app._dpc_english_inventory = inv
    return inv


def _on_missing_reference(app, env, node, contnode):
    """A page's link to the Library reference (``{py:func}`` and the like) in an edition that does not translate it
    (its pages are a title and a link, :func:`_on_source_read`): a link to the English page of the object, or the
    object's name alone when the English book is not built — never an unresolved reference."""
    if (app.config.language or "en") == "en" or node.get("refdomain") != "py":
        return None
    uri = _english_inventory(app).get(node.get("reftarget", ""))
    if uri is None:
        return contnode
    from docutils import nodes

    up = "../" * (
        node.get("refdoc", "").count("/") + 1
    )  # out of the page's folders and the edition's
    ref = nodes.reference("", "", internal=False, refuri=up + uri)
    ref += contnode
    return ref


def _toctree_captions():
    """A transform that puts the captions of the book's parts ("Foundations", "Library reference") into an edition's
    language (native review 7, U1). sphinx-external-toc inserts the root page's toctrees in a transform of its own
    (priority 100) that runs after Sphinx's ``Locale`` (20), so their captions, extracted into the root page's
    catalogue, were never translated and the sidebar of every page kept them in English."""
    from sphinx import addnodes
    from sphinx.locale import init as init_locale
    from sphinx.transforms import SphinxTransform
    from sphinx.util.i18n import docname_to_domain

    class ToctreeCaptions(SphinxTransform):
        default_priority = 101  # after sphinx_external_toc.events.InsertToctrees

        def apply(self, **kwargs: Any) -> None:
            lang = self.config.language or "en"
            toctrees = [t for t in self.document.findall(addnodes.toctree) if t.get("rawcaption")]
            if lang == "en" or not toctrees:
                return
            dirs = [os.path.join(self.env.srcdir, d) for d in self.config.locale_dirs]
            domain = docname_to_domain(self.env.docname, self.config.gettext_compact)
            catalog, found = init_locale(dirs, lang, domain)
            if not found:
                return
            for toctree in toctrees:
                toctree["caption"] = catalog.gettext(toctree["rawcaption"]) or toctree["rawcaption"]

    return ToctreeCaptions


def _adopt_translated_nodes(doctree) -> int:
    """Make every node of ``doctree`` belong to it; returns how many did not.

    Sphinx's i18n transform parses each translation in a document of its own (``publish_msgstr``) and moves the
    result into the page; the moved nodes keep a reference to that throwaway document, with its settings, reporter
    and transformer. Pickled with the page's doctree, they made each Chinese doctree 4-10 times the English one's
    size and the build spend a third of its time unpickling them (numbered references load other pages' doctrees).
    The page's own document serves every later transform as well."""
    n = 0
    for node in doctree.findall():
        own = getattr(node, "_document", None)
        if own is not None and own is not doctree:
            node.document = doctree
            n += 1
    return n


def _on_doctree_read(app, doctree) -> None:
    """In an edition other than English: the translated nodes adopted by the page's document
    (:func:`_adopt_translated_nodes`), and each Library reference page (its label and title only,
    :func:`_on_source_read`) says in the edition's language that the reference stays English, with a link to the
    English page."""
    from docutils import nodes

    lang = app.config.language or "en"
    if lang == "en":
        return
    _adopt_translated_nodes(doctree)
    docname = app.env.docname
    if not _untranslated(docname) or lang not in REFERENCE_NOTE:
        return
    section = next(iter(doctree.findall(nodes.section)), None)
    if section is None:
        return
    english = _switch_url(docname, lang, "en")
    link = nodes.reference("", REFERENCE_LINK[lang], refuri=english, internal=False)
    note = nodes.note("", nodes.paragraph("", REFERENCE_NOTE[lang] + " ", link))
    title = next(iter(section.findall(nodes.title)), None)
    section.insert(section.index(title) + 1 if title is not None else 0, note)


#: Extensions of the book that do not declare whether Sphinx may read pages in parallel (so Sphinx reads serially,
#: with a warning, when asked for several processes) and are safe to: their work happens once all pages are read
#: (numbering across the table of contents) or at the end of the build (copying MathJax). The book is built serially
#: all the same: sphinx_proof's domain cannot merge the data of parallel readers (Sphinx 7.4 raises from its
#: ``merge_domaindata``), so ``-j`` above 1 needs that mended upstream first.
PARALLEL_SAFE = ("sphinx_multitoc_numbering", "sphinx-mathjax-offline")


def _mark_parallel_safe(app) -> None:
    """Mark :data:`PARALLEL_SAFE` once every extension is loaded (some load after this one)."""
    for name in PARALLEL_SAFE:
        ext = app.extensions.get(name)
        if ext is not None and ext.parallel_read_safe is None:
            ext.parallel_read_safe = True


def _search_language_zh():
    """Sphinx's Chinese search language with its list of Latin terms kept as a set: Sphinx appends every Latin word of
    every page to a list and looks each word up in it when stemming, which took a tenth of the Chinese build. Same
    index (the lookup's answer is the same)."""
    from sphinx.search.zh import SearchChinese

    class SearchChineseSet(SearchChinese):
        def init(self, options: dict[str, str]) -> None:
            super().init(options)
            self.latin_terms = set()

        def split(self, input: str) -> list[str]:
            chinese: list[str] = []
            if getattr(sys.modules["sphinx.search.zh"], "JIEBA", False):
                import jieba

                chinese = list(jieba.cut_for_search(input))
            latin1 = [term.strip() for term in self.latin1_letters.findall(input)]
            self.latin_terms.update(latin1)
            return chinese + latin1

    return SearchChineseSet


def _titled(directive: type) -> type:
    """``directive`` (sphinx-exercise's ``exercise`` or ``exercise-start``) whose title is a message of the page.

    sphinx-exercise parses an exercise's title (the directive's argument, ``{exercise} A constant schedule``) into a
    subtitle node with neither a source nor its MyST text: Sphinx's gettext extraction skips such a node (a "built-in
    message") and its i18n transform has nothing to look up, so the titles stayed English in every edition. The
    subtitle is given the argument as its source text and the directive's place as its source: the extraction writes
    it to the page's catalogue like a paragraph, and the translated page gets its translation, which the exercise's
    numbered title and every solution's title ("Solution to Exercise 3 (…)") then show."""

    class Titled(directive):
        def run(self):
            from sphinx_exercise.nodes import exercise_subtitle

            out = super().run()
            if self.arguments:
                source, line = self.get_source_info()
                for node in out:
                    subtitle = next(iter(node.findall(exercise_subtitle)), None)
                    if subtitle is not None:
                        subtitle.rawsource = str(self.arguments[0])
                        subtitle.source, subtitle.line = source, line
                        node[_TITLE_MESSAGE] = (subtitle.rawsource, source, line)
                        break
            return out

    Titled.__name__ = Titled.__qualname__ = f"Titled{directive.__name__}"
    return Titled


_TITLE_MESSAGE = "dpc-title-message"


def _exercise_title_messages():
    """The gettext builder reads a page's messages from its resolved doctree, where sphinx-exercise's post-transform
    has replaced the subtitle by a plain numbered title: this post-transform, after it, gives that title the
    exercise's title as its message (:func:`_titled`), so that the extraction writes it."""
    from docutils import nodes
    from sphinx.transforms.post_transforms import SphinxPostTransform

    class ExerciseTitleMessages(SphinxPostTransform):
        default_priority = (
            23  # after sphinx-exercise's ResolveTitlesInExercises (20) and its solutions (21, 22)
        )
        builders = ("gettext",)

        def run(self, **kwargs: Any) -> None:
            for node in self.document.findall(nodes.Element):
                message = node.get(_TITLE_MESSAGE)
                title = node.children[0] if message and node.children else None
                if isinstance(title, nodes.title):
                    title.rawsource, title.source, title.line = message
                    title.uid = ""  # the catalogue takes a node with a uid only (Sphinx's versioning sets it)

    return ExerciseTitleMessages


def _translatable_exercise_titles(app) -> None:
    """The exercise directives with translatable titles (:func:`_titled`), once sphinx-exercise has registered its own
    (it may load after this extension)."""
    if "sphinx_exercise" not in app.extensions:
        return
    from sphinx_exercise.directive import ExerciseDirective, ExerciseStartDirective

    app.add_directive("exercise", _titled(ExerciseDirective), override=True)
    app.add_directive("exercise-start", _titled(ExerciseStartDirective), override=True)


def _on_exercise_doctree_read(app, doctree) -> None:
    """sphinx-exercise keeps a copy of each exercise, made by its directive before the page is translated, and titles
    the exercise's solutions from that copy: the copy is taken again from the page as read, i.e. translated."""
    from docutils import nodes

    registry = getattr(app.env, "sphinx_exercise_registry", None)
    if registry is None:
        return
    for node in doctree.findall(nodes.Element):
        label = node.get("label") if node.get(_TITLE_MESSAGE) else None
        if label in registry and registry[label].get("docname") == app.env.docname:
            registry[label]["node"] = node.deepcopy()


def setup(app) -> dict[str, Any]:
    _mark_parallel_safe(app)
    app.connect("builder-inited", _translatable_exercise_titles)
    app.add_post_transform(_exercise_title_messages())
    app.connect("doctree-read", _on_exercise_doctree_read)
    app.add_search_language(_search_language_zh())
    app.connect("builder-inited", _mark_parallel_safe, priority=100)
    app.connect("source-read", _on_source_read)
    app.add_transform(_toctree_captions())
    app.connect("missing-reference", _on_missing_reference)
    app.connect("doctree-read", _on_doctree_read)
    app.connect("html-page-context", _on_html_page_context, priority=503)
    app.connect("builder-inited", _on_builder_inited, priority=600)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}


# ------------------------------------------------------------------------------------------------- command
def cmd_i18n(args: argparse.Namespace) -> int:
    from ..core.paths import repo_root
    from . import generated_i18n

    root = repo_root()
    langs = [args.lang] if args.lang else list(LANGUAGES)
    if args.action == "update":
        for lang in langs:
            changed = update(root, lang)
            for po, summary in changed:
                print(f"{po.relative_to(root)}: {summary}")
            # the chapters' generated sentences, by skeleton, from the last build's glue data
            # (dpcompendium.book.generated_i18n)
            glue_root = root / "_build" / "jupyter_execute"
            po = root / LOCALES / lang / "LC_MESSAGES" / generated_i18n.CATALOGUE_NAME
            if any(glue_root.rglob("*.glue.json")):
                n, untranslated, fuzzy = generated_i18n.extract(glue_root, po, lang)
                print(
                    f"{po.relative_to(root)}: {n} generated sentences, {untranslated} untranslated, "
                    f"{fuzzy} fuzzy"
                )
            else:
                print(f"{po.relative_to(root)}: not updated (no glue data: run make book first)")
            # the parameters' help texts of the "Rerun this chapter" boxes (dpcompendium.book.rerun_box)
            from .rerun_box import PARAMETERS_CATALOGUE, extract_parameter_texts

            n, untranslated = extract_parameter_texts(root, lang)
            print(
                f"{LOCALES}/{lang}/LC_MESSAGES/{PARAMETERS_CATALOGUE}: {n} texts, {untranslated} untranslated"
            )
            print(
                f"{lang}: {len(changed)} catalogue(s) changed; translate the new and fuzzy entries"
            )
        return 0
    if args.action == "build":
        rc = 0
        for lang in langs:
            t0 = time.perf_counter()
            rc = rc or build(root, lang, args.strict, args.all, args.locales, args.jobs)
            print(f"{lang}: built in {time.perf_counter() - t0:.1f} s: {output_dir(root, lang)}")
        return rc
    incomplete = 0
    for lang in langs:
        for po in catalogues(root, lang):
            st = catalogue_status(po)
            incomplete += not st.complete
            print(
                f"{po.relative_to(root)}: {st.messages} messages, {st.untranslated} untranslated, "
                f"{st.fuzzy} fuzzy, {st.obsolete} obsolete"
            )
    return 1 if incomplete else 0


def add_command(sub) -> None:
    """``dpcompendium i18n [status|update|build]``."""
    p = sub.add_parser(
        "i18n",
        help="the book's translations: status of the catalogues (default), update them from the English pages, "
        "or build an edition",
    )
    p.add_argument("action", nargs="?", choices=["status", "update", "build"], default="status")
    p.add_argument("--lang", choices=list(LANGUAGES), help="one edition (default: all)")
    p.add_argument("--strict", action="store_true", help="build: warnings as errors")
    p.add_argument("--all", action="store_true", help="build: rebuild every page")
    p.add_argument(
        "--locales", type=Path, help="build: catalogues from this folder instead of locales/"
    )
    p.add_argument(
        "-j",
        "--jobs",
        type=int,
        default=1,
        help="build: Sphinx reads and writes the pages in this many processes (default 1)",
    )
    p.set_defaults(func=cmd_i18n)
