"""Figures on a phone (issue 49, reader review 4, M4): a figure of panels side by side is saved again with its panels
stacked in one column (``plotting.one_column``, from ``chapter.show_figure``), carried to the book in its output's
metadata (``execution.extract_narrow_figures``) and put after the wide image on the page
(``sphinxext._on_doctree_read_narrow``); ``dpcompendium.css`` shows it on screens at most 600 px wide
(``tests/test_book_browser.py`` checks the page at 390 px)."""

from __future__ import annotations

import base64
import json

import matplotlib
import nbformat
import numpy as np

matplotlib.use("Agg")
import itertools

from docutils import nodes
from docutils.utils import new_document
from matplotlib import pyplot as plt

from dpcompendium.book import chapter, execution, sphinxext
from dpcompendium.core import messages, plotting


def _png_size(path) -> tuple[int, int]:
    data = path.read_bytes()
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


def _three_panels(colorbar: bool = False):
    with plotting.book_style():
        fig, axes = plotting.panels(3, sharey=True)
        for i, ax in enumerate(axes):
            ax.plot([1, 2, 3], [1, 4, 9], label="resampling")
            ax.set_xlabel("ε")
            ax.set_title(f"heights, n = {100 * (i + 1)}: replace-one")
        axes[0].set_ylabel("mean absolute error")
        axes[0].legend()
        if colorbar:
            fig.colorbar(axes[2].imshow(np.eye(3)), ax=axes[2])
    return fig


def test_the_book_style_text_is_at_least_9pt():
    """Issue 49: text at least 9 pt at its shown size (the figure is shown at its physical size on a laptop)."""
    assert plotting.MIN_FONT_PT >= 9


def test_panel_regions_are_the_panels_in_reading_order_then_the_legend():
    with plotting.book_style():
        fig, axes = plotting.panels(3, sharey=True)
        for ax in axes:
            ax.plot([1, 2, 3], [1, 4, 9], label="resampling")
            ax.set_xlabel("ε")
        fig.colorbar(axes[2].imshow(np.eye(3)), ax=axes[2])
        fig.legend(*axes[0].get_legend_handles_labels(), loc="outside lower center")
    try:
        fig.set_dpi(chapter.FIGURE_DPI)
        fig.draw_without_rendering()
        regions = plotting.panel_regions(fig)
        assert len(regions) == 4  # three panels, the legend
        panels, legend = regions[:3], regions[3]
        assert all(a.x1 <= b.x0 + 0.1 for a, b in itertools.pairwise(panels))  # left to right
        bar = next(ax for ax in fig.axes if hasattr(ax, "_colorbar"))
        assert panels[2].x1 >= bar.get_position().x1 * fig.get_size_inches()[0]  # with its colorbar
        assert legend.y1 <= min(p.y0 for p in panels) + 0.05  # under the panels
    finally:
        plt.close(fig)


def test_one_panel_or_one_column_has_no_phone_rendering(tmp_path):
    with plotting.book_style():
        fig, _ax = plt.subplots(figsize=(7.2, 3), layout="constrained")
        fig2, _ = plotting.panels(2, ncols=1)
    for f in (fig, fig2):
        assert not plotting.stackable(f)
    shown = chapter.show_figure(fig, "one", tmp_path)
    chapter.show_figure(fig2, "column", tmp_path)
    assert shown.narrow == {} and not (tmp_path / chapter.NARROW_DIR).exists()


def test_show_figure_saves_the_one_column_rendering_in_each_language(tmp_path):
    """The stacked rendering of each language: its panels one under the other, at most as wide as a phone's column
    at its physical size (3.7 in: 355 CSS px of a 390 px phone's 358 px column), cut from the PNG of its edition;
    the wide files and their folder's listing are unchanged (the results folder counts its figures by its PNGs)."""
    shown = chapter.show_figure(_three_panels(colorbar=True), "f", tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["f.png", "f.svg", "narrow", "zh_CN"]
    assert set(shown.narrow) == set(shown.pngs) == {"en", "zh_CN"}
    for lang, path in shown.narrow.items():
        folder = tmp_path if lang == "en" else tmp_path / lang
        assert path == folder / chapter.NARROW_DIR / "f.png"
        (w, h), (ww, wh) = _png_size(path), _png_size(shown.pngs[lang])
        assert w <= plotting.NARROW_WIDTH_IN * chapter.FIGURE_DPI and h > 2 * wh and ww > 2 * w
    meta = shown.metadata("zh_CN")[messages.LANG_METADATA]
    assert meta["lang"] == "zh_CN"
    assert base64.b64decode(meta[chapter.NARROW_KEY]["png"]) == shown.narrow["zh_CN"].read_bytes()
    assert meta[chapter.NARROW_KEY]["width"] == round(
        _png_size(shown.narrow["zh_CN"])[0] * plotting.DISPLAY_DPI / chapter.FIGURE_DPI
    )
    assert plt.get_fignums() == []


def test_the_phone_rendering_costs_no_drawing(tmp_path, monkeypatch):
    """The budget (issue 50: < 2 % of a chapter's wall time): the one-column rendering is cut from the PNG just
    drawn, so show_figure draws the figure as often with it as without it."""
    counts = {}
    for stack in (True, False):
        fig = _three_panels(colorbar=True)
        draws = []
        draw = fig.draw
        fig.draw = lambda renderer, draw=draw, draws=draws: (draws.append(1), draw(renderer))[1]
        with monkeypatch.context() as mp:
            if not stack:
                mp.setattr(plotting, "stackable", lambda f: False)
            shown = chapter.show_figure(fig, f"f{stack}", tmp_path)
        assert bool(shown.narrow) == stack
        counts[stack] = len(draws)
    assert counts[True] == counts[False]


def test_extract_narrow_figures_writes_them_by_the_wide_png_s_hash(tmp_path):
    """The build's side: each output's one-column rendering is written under the SHA-256 of its wide PNG (MyST-NB's
    name for the wide image's file) and dropped from the notebook it caches."""
    (tmp_path / "out").mkdir()
    shown = chapter.show_figure(_three_panels(), "f", tmp_path / "out")
    nb = nbformat.v4.new_notebook()
    outputs = []
    for lang in shown.pngs:
        image = shown.image(lang)
        outputs.append(
            nbformat.v4.new_output(
                "display_data",
                data={"image/png": base64.b64encode(image.data).decode()},
                metadata=shown.metadata(lang),
            )
        )
    nb.cells.append(nbformat.v4.new_code_cell("show_figure(fig)", outputs=outputs))
    assert execution.extract_narrow_figures(nb, tmp_path / "narrow") == 2
    for lang in shown.pngs:
        name = execution.narrow_figure_name(shown.pngs[lang].read_bytes())
        assert (tmp_path / "narrow" / name).read_bytes() == shown.narrow[lang].read_bytes()
    assert "narrow" not in json.dumps(nb)


def test_the_page_gets_the_narrow_image_after_the_wide_one(tmp_path):
    """The doctree: a figure's image whose file has a one-column rendering in the store gets it as a second image
    (class dpc-narrow, its physical width, the same alt) after it; an image without one is left alone."""
    store = tmp_path / "_build" / ".execution" / execution.NARROW_FIGURES
    store.mkdir(parents=True)
    wide = "a" * 64 + ".png"
    png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR" + (540).to_bytes(4, "big") + (900).to_bytes(4, "big")
    (store / wide).write_bytes(png)

    class App:
        srcdir = str(tmp_path)

        class config:
            dpc_execution_store = "_build/.execution"

    from docutils.frontend import get_default_settings
    from docutils.parsers.rst import Parser

    doc = new_document("page", get_default_settings(Parser))
    figure = nodes.figure()
    figure += nodes.image(uri=f"../_build/jupyter_execute/{wide}", alt="the error against ε")
    figure += nodes.image(uri="../_build/jupyter_execute/" + "b" * 64 + ".png", alt="other")
    doc += figure
    sphinxext._on_doctree_read_narrow(App, doc)
    images = list(doc.findall(nodes.image))
    assert [i["classes"] for i in images] == [["dpc-wide"], ["dpc-narrow"], []]
    narrow = images[1]
    assert narrow["uri"] == f"/_build/.execution/narrow/{wide}"
    assert narrow["width"] == f"{round(540 * 96 / 150)}px"
    assert narrow["alt"] == "the error against ε"
