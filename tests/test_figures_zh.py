"""Figures in the reader's language (issue 38): every figure is drawn once and saved in English and in Chinese.

``chapter.show_figure`` saves the English files as before (the English page is unchanged), then puts the figure's
texts in Chinese from the message catalogue (``core/figure_messages.py``, ``messages.translate``) and saves it again
into ``<out>/zh_CN/``; it displays one output per language, tagged in the output's metadata. Here: a figure's texts
are translated (templates with values, method names, lines, fixed tick labels, legends), every Chinese template
draws without a missing glyph (matplotlib's glyph warnings and mathtext's glyph log are errors), the English files
are byte for byte what ``save_figure`` alone writes, the Chinese PNG carries its Chinese text (the texts it draws,
kept in the PNG: no Chinese SVG is written), and, over a built
book's results (``_build/results``), every chapter figure has a Chinese twin with nothing left in English.
"""

from __future__ import annotations

import json
import re
import warnings
from pathlib import Path

import matplotlib
import pytest

matplotlib.use("Agg")
from matplotlib import pyplot as plt

import dpcompendium.chapters  # noqa: F401  (registers the chapters' methods: dpcompendium.core.methods)
from dpcompendium.book import chapter
from dpcompendium.core import messages, plotting
from dpcompendium.core.figure_messages import FIGURE_MESSAGES

ROOT = Path(__file__).resolve().parents[1]
CJK = re.compile(r"[\u4e00-\u9fff]")
PLACEHOLDER = re.compile(r"%\((\w+)\)s")
#: the text of every text element of an SVG matplotlib wrote (fonttype "path": each text is an XML comment)
SVG_TEXT = re.compile(r"<!-- (.*?) -->", re.S)


def _figure():
    with plotting.book_style():
        fig, ax = plt.subplots(figsize=(4, 3), layout="constrained")
        ax.plot([1, 2], [1, 2], label="resampling")
        ax.plot([1, 2], [2, 1], label="minimax lower bound")
        ax.set_xlabel("ε")
        ax.set_ylabel("mean absolute error")
        ax.set_title("heights, n = 100: replace-one")
        ax.set_xticks([1, 2], ["bin", "count"])
        ax.legend()
    return fig


def test_a_figure_is_translated_text_by_text():
    fig = _figure()
    try:
        missing = plotting.translate_figure(fig, "zh_CN")
        ax = fig.axes[0]
        assert missing == []
        assert ax.get_xlabel() == "ε"  # nothing to translate
        assert CJK.search(ax.get_ylabel()) and CJK.search(ax.get_title())
        assert ax.get_title().startswith("身高数据")  # datasets are translated (issue 48)
        legend = [t.get_text() for t in ax.get_legend().get_texts()]
        assert legend[0] == messages.method_name("resampling", "zh_CN") == "重采样"
        assert CJK.search(legend[1])
        fig.canvas.draw()
        assert all(CJK.search(t.get_text()) for t in ax.get_xticklabels())
        assert plotting.CJK_FONT in ax.yaxis.label.get_fontfamily()
    finally:
        plt.close(fig)


def test_an_unknown_text_is_reported_not_guessed():
    assert messages.translate("a sentence no template renders", "zh_CN") is None
    assert messages.translate("0.5", "zh_CN") == "0.5"
    assert messages.translate(r"$\varepsilon_0 = 2$", "zh_CN") == r"$\varepsilon_0 = 2$"
    fig, ax = plt.subplots()
    ax.set_title("a sentence no template renders")
    try:
        assert plotting.translate_figure(fig, "zh_CN") == ["a sentence no template renders"]
    finally:
        plt.close(fig)


def test_every_chinese_figure_template_draws_without_a_missing_glyph(tmp_path):
    """Every Chinese text a figure can show comes from the catalogue: drawn all at once, no glyph is missing (the
    CJK font is found through matplotlib's font fallback, or set whole where the text has mathtext)."""
    zh = messages.CATALOGUE["zh_CN"]
    texts = [
        zh[msgid] % {name: "1" for name in PLACEHOLDER.findall(en)}
        for msgid, en, _ in FIGURE_MESSAGES
    ]
    texts += list(messages.METHOD_NAMES["zh_CN"].values())
    assert len(texts) > 100
    with plotting.book_style():
        fig, ax = plt.subplots(figsize=(7.2, 3))
        for i, s in enumerate(texts):
            text = ax.text(0, i, s.replace("%%", "%"))
            plotting._set_cjk_font(text)
        with plotting.strict_glyphs(), warnings.catch_warnings():
            warnings.simplefilter("error")
            fig.savefig(tmp_path / "all.png", dpi=40)
            fig.savefig(tmp_path / "all.svg")
        plt.close(fig)


@pytest.mark.parametrize(
    ("title", "error", "match"),
    [
        ("$x$ 隐私", ValueError, "no font draws"),  # mathtext's log: no glyph in its font
        ("隐私", UserWarning, "missing from font"),  # Agg's warning: no glyph in the text's fonts
    ],
)
def test_a_missing_glyph_is_an_error(tmp_path, title, error, match):
    fig, ax = plt.subplots()
    ax.set_title(title)  # in the default font, no CJK font set: boxes
    try:
        with pytest.raises(error, match=match), plotting.strict_glyphs():
            fig.savefig(tmp_path / "boxes.png")
    finally:
        plt.close(fig)


def test_show_figure_keeps_the_english_files_and_adds_the_chinese_ones(tmp_path):
    ref, out = tmp_path / "ref", tmp_path / "out"
    ref.mkdir()
    out.mkdir()
    fig = _figure()
    chapter.save_figure(fig, "f", ref)
    plt.close(fig)
    (out / "zh_CN").mkdir()
    (out / "zh_CN" / "f.svg").write_text(
        "<svg/>"
    )  # saved by an older version: removed, it is not this figure
    shown = chapter.show_figure(_figure(), "f", out)
    assert (out / "f.png").read_bytes() == (ref / "f.png").read_bytes()
    assert (out / "f.svg").read_bytes() == (ref / "f.svg").read_bytes()
    assert sorted(p.name for p in out.iterdir()) == ["f.png", "f.svg", "narrow", "zh_CN"]
    # the Chinese edition shows the PNG (and its phone rendering); no SVG (no edition shows it), the PNG keeps the
    # texts it draws
    assert sorted(p.name for p in (out / "zh_CN").iterdir()) == ["f.png", "narrow"]
    assert (
        chapter.figure_texts(out / "f.png") is None
    )  # the English PNG: as save_figure alone writes it
    zh_texts = chapter.figure_texts(out / "zh_CN" / "f.png")
    assert any(CJK.search(t) for t in zh_texts), zh_texts
    assert not any(messages.needs_translation(t) for t in zh_texts), zh_texts
    en_texts = SVG_TEXT.findall((out / "f.svg").read_text(encoding="utf-8"))
    assert not any(CJK.search(t) for t in en_texts)
    assert set(shown.pngs) == {"en", "zh_CN"}
    assert plt.get_fignums() == []


def test_the_figure_is_displayed_once_per_language_with_its_tag(tmp_path, monkeypatch):
    """The figure is shown as messages.show shows a value, one image per language (each output tagged with its
    language: tests/test_i18n.py), each the PNG saved for that language at its physical size."""
    import IPython.display

    shown = chapter.show_figure(_figure(), "f", tmp_path)
    calls = []
    monkeypatch.setattr(
        IPython.display, "display", lambda obj, metadata: calls.append((obj, metadata))
    )
    shown._ipython_display_()
    langs = [meta[messages.LANG_METADATA]["lang"] for _, meta in calls]
    assert langs == ["en", "zh_CN"]
    for lang, (image, meta) in zip(langs, calls, strict=True):
        # one panel: its phone rendering is redrawn at a phone column's width (reader review 5, M3)
        narrow = meta[messages.LANG_METADATA][chapter.NARROW_KEY]
        assert narrow["width"] <= round(plotting.NARROW_WIDTH_IN * plotting.DISPLAY_DPI)
        png = shown.pngs[lang].read_bytes()
        assert image.data == png
        width = int.from_bytes(png[16:20], "big")
        assert image.width == round(width * plotting.DISPLAY_DPI / chapter.FIGURE_DPI)
    assert shown.pngs["zh_CN"] == tmp_path / "zh_CN" / "f.png"


def test_a_png_keeps_the_texts_its_svg_would_hold(tmp_path):
    """``save_figure(texts=True)``: the texts the PNG keeps are the drawn ones, in order, the same list as the SVG
    of the same figure holds (its comments), mathtext included; the image is the one saved without them."""
    fig = _figure()
    try:
        fig.axes[0].set_xlabel(r"$\varepsilon$ (privacy)")
        plotting.translate_figure(fig, "zh_CN")
        png, svg = chapter.save_figure(fig, "f", tmp_path, texts=True)
        plain = chapter.save_figure(fig, "g", tmp_path, svg=False)
    finally:
        plt.close(fig)
    texts = chapter.figure_texts(png)
    assert texts == SVG_TEXT.findall(svg.read_text(encoding="utf-8"))
    assert r"$\varepsilon$ (privacy)" in texts and any(CJK.search(t) for t in texts)
    assert len(plain) == 1 and chapter.figure_texts(plain[0]) is None
    from PIL import Image

    with Image.open(png) as a, Image.open(plain[0]) as b:
        assert a.tobytes() == b.tobytes() and a.text[chapter.TEXTS_KEYWORD] == json.dumps(
            texts, ensure_ascii=False
        )


def _png_width(path: Path) -> int:
    return int.from_bytes(path.read_bytes()[16:20], "big")


def _built_figures() -> list[Path]:
    """The figures of the book's executions (``_build/results/<chapter or primer>/*.svg``, the files the pages show)."""
    from dpcompendium.book.contract import CHAPTER_IDS

    return sorted(
        p
        for p in (ROOT / "_build" / "results").glob("*/*.svg")
        if p.parent.name in (*CHAPTER_IDS, "primer")
    )


@pytest.mark.skipif(
    not _built_figures(), reason="no executed chapters in _build/results (make book)"
)
def test_every_built_figure_has_a_chinese_twin_in_chinese():
    problems = []
    for svg in _built_figures():
        twin = svg.parent / "zh_CN" / svg.with_suffix(".png").name
        if not twin.is_file():
            problems.append(f"{svg}: no {twin.name} in zh_CN/")
            continue
        texts = chapter.figure_texts(twin)
        if texts is None:
            problems.append(f"{twin}: keeps no texts (saved before they were kept: make book)")
            continue
        if not any(CJK.search(t) for t in texts):
            problems.append(f"{twin}: no Chinese text")
        left = [t for t in texts if not CJK.search(t) and messages.needs_translation(t)]
        if left:
            problems.append(f"{twin}: English left: {left}")
        # as wide as the English figure, or at most the page's width (longer labels must not widen it)
        en_width, zh_width = (_png_width(p) for p in (svg.with_suffix(".png"), twin))
        limit = max(en_width, round((plotting.PAGE_WIDTH_IN + 0.2) * chapter.FIGURE_DPI))
        if zh_width > limit + 2:
            problems.append(f"{twin}: {zh_width} px wide, the English one {en_width} px")
    assert not problems, "\n".join(problems)


def test_a_run_draws_its_figures_in_the_language_of_its_page_only(tmp_path, monkeypatch):
    """``dpcompendium run`` names the languages of its figures (chapter.FIGURE_LANGUAGES_ENV): empty, an English
    rerun's figures are drawn in English only (no zh_CN/ folder, the same English files); unset, every edition's; an
    unknown language is refused in one line."""
    monkeypatch.delenv(chapter.FIGURE_LANGUAGES_ENV, raising=False)
    assert chapter.figure_languages() == list(messages.EDITIONS)
    monkeypatch.setenv(chapter.FIGURE_LANGUAGES_ENV, "")
    shown = chapter.show_figure(_figure(), "f", tmp_path)
    assert set(shown.pngs) == {"en"}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["f.png", "f.svg", "narrow"]
    monkeypatch.setenv(chapter.FIGURE_LANGUAGES_ENV, "en,zh_CN")
    assert chapter.figure_languages() == ["zh_CN"]
    monkeypatch.setenv(chapter.FIGURE_LANGUAGES_ENV, "fr")
    with pytest.raises(ValueError, match=r"DPCOMPENDIUM_FIGURE_LANGUAGES must name .* got 'fr'"):
        chapter.figure_languages()


def test_without_a_cjk_font_the_chinese_figures_are_skipped_with_one_notice(
    tmp_path, monkeypatch, capsys
):
    """A new user's machine without fonts-noto-cjk (font lookup monkeypatched): outside make and CI the English
    figure is drawn, the Chinese one skipped, and one plain notice says so and how to get the font."""
    monkeypatch.setattr(plotting, "cjk_font_available", lambda: False)
    monkeypatch.setenv(chapter.REQUIRE_CJK_FONT_ENV, "0")
    monkeypatch.setattr(chapter, "_said_skipped", set())
    for name in ("a", "b"):
        shown = chapter.show_figure(_figure(), name, tmp_path)
        assert set(shown.pngs) == {"en"}
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "a.png",
        "a.svg",
        "b.png",
        "b.svg",
        "narrow",
    ]
    err = capsys.readouterr().err
    assert err.count("Note: ") == 1 and "fonts-noto-cjk" in err and "skipped" in err, err
    assert plt.get_fignums() == []


@pytest.mark.parametrize("env", [{"DPCOMPENDIUM_REQUIRE_CJK_FONT": "1"}, {"CI": "true"}])
def test_under_make_or_ci_a_missing_cjk_font_fails_loudly(tmp_path, monkeypatch, env):
    """make (DPCOMPENDIUM_REQUIRE_CJK_FONT=1, also set by tests/conftest.py) and CI require the Chinese figures: a
    missing font is an error naming the package, not a silent skip."""
    monkeypatch.setattr(plotting, "cjk_font_available", lambda: False)
    monkeypatch.delenv(chapter.REQUIRE_CJK_FONT_ENV, raising=False)
    for k, v in env.items():
        monkeypatch.setenv(k, v)
    with pytest.raises(RuntimeError, match="fonts-noto-cjk"):
        chapter.show_figure(_figure(), "f", tmp_path)
    assert plt.get_fignums() == []


def test_the_suite_requires_the_cjk_font():
    """The zh figure tests run with the font required (conftest), and this machine has it (CI installs it)."""
    import os

    assert chapter.cjk_font_required() and os.environ["DPCOMPENDIUM_REQUIRE_CJK_FONT"] == "1"
    assert plotting.cjk_font_available()


def test_a_chinese_rerun_page_needs_the_font(tmp_path, monkeypatch, capsys):
    from dpcompendium.book import cli

    monkeypatch.setattr(plotting, "cjk_font_available", lambda: False)
    assert cli.main(["run", "dp-mean", "--lang", "zh_CN", "--out", str(tmp_path / "r")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("dpcompendium: error: --lang zh_CN") and "fonts-noto-cjk" in err
    assert not (tmp_path / "r").exists()


def _alt_texts() -> list[tuple[str, str]]:
    """(notebook, alt text) of every figure cell of the chapters and the primer (``mystnb.image.alt``)."""
    found = []
    for nb in [*sorted((ROOT / "notebooks").glob("*.ipynb")), ROOT / "book" / "primer.ipynb"]:
        for cell in json.loads(nb.read_text(encoding="utf-8"))["cells"]:
            alt = cell.get("metadata", {}).get("mystnb", {}).get("image", {}).get("alt")
            if alt:
                found.append((nb.name, alt))
    return found


def test_every_figure_alt_text_has_its_chinese_version():
    """Native review 9, R3: the alt texts were English on every Chinese page (cell metadata, not extracted by
    gettext). Each one has its pair among the figure templates, in Chinese with no English word but the names the
    book keeps (``messages.needs_translation``)."""
    alts = _alt_texts()
    assert len(alts) >= 30  # the chapters' and the primer's figures
    missing = [(nb, alt[:60]) for nb, alt in alts if messages.translate(alt, "zh_CN") is None]
    assert not missing, f"alt texts with no Chinese template: {missing[:3]}"
    english = [
        (nb, zh[:60])
        for nb, alt in alts
        if not CJK.search(zh := messages.translate(alt, "zh_CN")) or messages.needs_translation(zh)
    ]
    assert not english, f"Chinese alt texts with English words: {english[:3]}"


def test_the_chinese_edition_puts_an_alt_text_in_chinese():
    """The build's hook: a written alt text takes its Chinese pair in the Chinese edition, stays English in the
    English one; an image without one takes its (translated) caption."""
    from types import SimpleNamespace

    from docutils import nodes

    from dpcompendium.book.sphinxext import _on_doctree_read_alt

    _nb, alt = _alt_texts()[0]

    def doctree():
        doc = nodes.document(None, None)
        written = nodes.figure("", nodes.image(uri="a.png", alt=alt))
        captioned = nodes.figure(
            "",
            nodes.image(uri="b.png", alt="0123456789abcdef0123.png"),
            nodes.caption("", "图 1 说明"),
        )
        doc += [written, captioned]
        return doc, written[0], captioned[0]

    for lang in ("zh_CN", "en"):
        doc, written, captioned = doctree()
        _on_doctree_read_alt(SimpleNamespace(config=SimpleNamespace(language=lang)), doc)
        assert captioned["alt"] == "图 1 说明"
        if lang == "en":
            assert written["alt"] == alt
        else:
            assert written["alt"] == messages.translate(alt, lang) and CJK.search(written["alt"])
