"""Link texts on the Chinese pages (review 6, D7 and D8): a ``{chapter}`<id>``` link shows the chapter's title in
the page's language (the primer's Chinese page linked "Auditing the book: claimed versus delivered privacy" in
English), and a link to a Library reference page, which is not translated, carries its own Chinese text."""

from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace

import pytest

from dpcompendium.book.sphinxext import _chapter_role


def _inliner(lang: str) -> SimpleNamespace:
    env = SimpleNamespace(config=SimpleNamespace(language=lang), docname="book/primer")
    return SimpleNamespace(document=SimpleNamespace(settings=SimpleNamespace(env=env)))


@pytest.mark.parametrize(
    ("lang", "title"),
    [
        ("en", "Auditing the book: claimed versus delivered privacy"),
        ("zh_CN", "审计本书：声称的隐私与实际提供的隐私"),
        (None, "Auditing the book: claimed versus delivered privacy"),
    ],
)
def test_a_chapter_link_has_the_title_of_the_pages_language(lang, title):
    nodes, messages = _chapter_role(
        "chapter", ":chapter:`privacy-audit`", "privacy-audit", 1, _inliner(lang)
    )
    assert not messages
    assert nodes[0].astext() == title
    assert nodes[0]["reftarget"] == "/notebooks/privacy-audit"


LOCALE = Path(__file__).resolve().parents[1] / "locales" / "zh_CN" / "LC_MESSAGES"
_API_LINK = re.compile(r"\{doc\}`([^`]*api/[\w-]+)`")


def test_a_link_to_the_library_reference_has_chinese_text():
    """``book/api/`` pages are not translated (``dpcompendium.book.i18n.UNTRANSLATED``): a bare
    ``{doc}`../book/api/core``` would show the English title ("privacy claims, validation, …") in a Chinese
    sentence, so each such link in a Chinese entry names its text: ``{doc}`dpcompendium.core：隐私声明… <…>```."""
    bare = []
    for po in sorted(LOCALE.rglob("*.po")):
        for n, line in enumerate(po.read_text(encoding="utf-8").splitlines(), 1):
            if line.startswith("msgstr "):
                bare += [f"{po.name}:{n}: {m}" for m in _API_LINK.findall(line) if "<" not in m]
    assert not bare, "\n".join(bare)
    assert _API_LINK.findall("见 {doc}`../book/api/core`。") == ["../book/api/core"]


def test_every_parameter_help_and_reason_has_its_chinese():
    """Review 6, D9: the "Rerun this chapter" box's "meaning" column (a parameter's help) and the reasons of the
    ``# require:`` lines are Chinese on the Chinese page: ``parameters.po`` holds every one of every chapter
    (``dpcompendium i18n update`` adds a new one, untranslated)."""
    from dpcompendium.book.rerun_box import parameter_text, parameter_texts

    root = Path(__file__).resolve().parents[1]
    missing = [
        f"{ch}: {text}"
        for ch, text in parameter_texts(root)
        if parameter_text(text, "zh_CN") == text
    ]
    assert not missing, "\n".join(missing)
    assert (
        parameter_text("root seed of every random stream", "en")
        == "root seed of every random stream"
    )
    assert parameter_text("a help no catalogue has", "zh_CN") == "a help no catalogue has"


def test_the_rerun_box_shows_the_meaning_column_in_the_pages_language():
    from dpcompendium.book.contract import get_chapter
    from dpcompendium.book.rerun_box import box

    ch = get_chapter("federated-pca")
    zh = box(
        ch.id, ch.parameters, ch.requires, ch.defaults, "dpcompendium run federated-pca", "zh_CN"
    ).astext()
    en = box(
        ch.id, ch.parameters, ch.requires, ch.defaults, "dpcompendium run federated-pca", "en"
    ).astext()
    assert "所有随机流的根种子" in zh and "root seed of every random stream" not in zh
    assert "葡萄酒数据有 13 列" in zh
    assert "root seed of every random stream" in en and "wine has 13 columns" in en


# ------------------------------------------------------------------- native review 7, U1: the reference's titles
ROOT = Path(__file__).resolve().parents[1]
_LINK_TEXT = re.compile(r"\{doc\}`(dpcompendium[^`<]*?)\s*<[^>]*?(book/api/[\w-]+|api/[\w-]+)>`")


def _api_pages() -> list[str]:
    from dpcompendium.book import i18n
    from dpcompendium.book.pdf import toc_pages

    return [p for p in toc_pages(ROOT / "_toc.yml") if p.startswith(i18n.UNTRANSLATED[0])]


def test_every_library_reference_page_has_a_chinese_title():
    """The Library reference's text stays English, its titles do not (native review 7, U1): each page of
    ``_toc.yml`` under ``book/api/`` has a Chinese title, which names the page's module as the English one does."""
    from dpcompendium.book import i18n

    titles = i18n.REFERENCE_TITLES["zh_CN"]
    assert sorted(titles) == sorted(_api_pages())
    for page, title in titles.items():
        assert re.search(r"[\u4e00-\u9fff]", title), f"{page}: {title}"
        english = (ROOT / f"{page}.md").read_text(encoding="utf-8")
        module = re.search(r"^# (`[\w.]+`)", english, re.M)
        if module:  # the index is "Library reference", with no module
            assert title.startswith(module.group(1) + "："), f"{page}: {title}"


def test_a_link_text_to_the_library_reference_is_the_pages_chinese_title():
    """A Chinese sentence that names a reference page by its module (``{doc}`dpcompendium.core：… <…>```) names it
    as its heading and the sidebar do (hiera's link said "HierA（hiera 一章）", the page is about local DP)."""
    from dpcompendium.book import i18n

    titles = i18n.REFERENCE_TITLES["zh_CN"]
    wrong = []
    for po in sorted(LOCALE.rglob("*.po")):
        for line in po.read_text(encoding="utf-8").splitlines():
            if not line.startswith("msgstr "):
                continue
            for text, target in _LINK_TEXT.findall(line):
                page = "book/" + target if not target.startswith("book/") else target
                if text != titles[page].replace("`", ""):
                    wrong.append(f"{po.name}: {text!r} for {page} ({titles[page]!r})")
    assert not wrong, "\n".join(wrong)
    assert _LINK_TEXT.findall("见 {doc}`dpcompendium.core：X <../book/api/core>`") == [
        ("dpcompendium.core：X", "book/api/core")
    ]


@pytest.mark.parametrize(
    ("builder", "lang"), [("html", "zh_CN"), ("gettext", "en"), ("html", "en")]
)
def test_a_reference_page_is_read_with_the_title_of_its_edition(builder, lang):
    """In the Chinese edition a reference page is its label and its Chinese title; the extraction of the English
    messages keeps the English one (and the English edition reads the whole page)."""
    from dpcompendium.book import i18n

    app = SimpleNamespace(
        config=SimpleNamespace(language=lang), builder=SimpleNamespace(name=builder)
    )
    page = "(api-core)=\n# `dpcompendium.core`: privacy claims\n\nThe core.\n"
    source = [page]
    i18n._on_source_read(app, "book/api/core", source)
    if builder == "html" and lang == "en":
        assert source == [page]
    elif lang == "zh_CN":
        assert source == [
            "(api-core)=\n# " + i18n.REFERENCE_TITLES["zh_CN"]["book/api/core"] + "\n"
        ]
    else:
        assert source == ["(api-core)=\n# `dpcompendium.core`: privacy claims\n"]
