"""Figures on a phone (issue 49, reader reviews 4 M4 and 5 M3): every figure is saved again for a phone
(``plotting.one_column``, from ``chapter.show_figure``): a single panel redrawn at a phone column's width, a figure of
panels side by side redrawn with wide panels and every panel's tick labels, then stacked in one column (two beyond
``plotting.NARROW_MAX_STACK`` panels). It is carried to the book in its output's metadata
(``execution.extract_narrow_figures``) and put after the wide image on the page (``sphinxext._on_doctree_read_narrow``);
``dpcompendium.css`` shows it on screens at most 600 px wide (``tests/test_book_browser.py`` checks the page at 390 px:
every figure in its phone rendering, text at least 9 pt as shown)."""

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


#: The column of a 390 px phone in the book's theme (CSS px; reader review 5).
PHONE_COLUMN_PX = 342


def _shown_pt(png_width: int) -> float:
    """The size at which 9 pt of a PNG ``png_width`` px wide shows in a phone's column (physical size at most)."""
    css = png_width * plotting.DISPLAY_DPI / chapter.FIGURE_DPI
    return plotting.MIN_FONT_PT * min(1.0, PHONE_COLUMN_PX / css)


def _one_panel(layout: str | None = "constrained"):
    with plotting.book_style():
        fig, ax = plt.subplots(figsize=(7.2, 3.4), layout=layout)
        for i in range(6):
            ax.plot([0, 1, 2], [0, i, 2 * i], label="resampling" if i == 0 else None)
        ax.set_xlabel("ε")
        ax.set_ylabel("mean absolute error")
        fig.legend(loc="outside lower center", ncol=3)
    return fig


def test_every_figure_has_a_phone_rendering_at_the_column_s_width(tmp_path):
    """Reader review 5, M3: a single panel, a column of panels and panels side by side all get a phone rendering
    in each language, at most a phone column wide and wide enough to use it: its 9 pt text shows at 9 pt there."""
    with plotting.book_style():
        column, axes = plotting.panels(2, ncols=1)
        for ax in axes:
            ax.plot([1, 2], [1, 2])
            ax.set_ylabel("range-query MSE")
    figures = {
        "one": _one_panel(),
        "bare": _one_panel(None),
        "column": column,
        "side": _three_panels(),
    }
    for name, fig in figures.items():
        shown = chapter.show_figure(fig, name, tmp_path)
        assert set(shown.narrow) == set(shown.pngs) == {"en", "zh_CN"}, name
        for lang, path in shown.narrow.items():
            w, _h = _png_size(path)
            assert w >= 0.9 * plotting.NARROW_WIDTH_IN * chapter.FIGURE_DPI, (name, lang, w)
            assert w <= round(plotting.NARROW_WIDTH_IN * chapter.FIGURE_DPI) + 1, (name, lang, w)
            assert _shown_pt(w) >= plotting.MIN_FONT_PT - 0.05, (name, lang, w)
    assert plt.get_fignums() == []


def _drawn_state(fig):
    """What ``one_column`` may change and must restore: size, layout engine, axes positions, legend columns, the
    y tick labels' visibility and the titles."""
    return (
        tuple(fig.get_size_inches()),
        fig.get_layout_engine(),
        [tuple(np.round(ax.get_position().bounds, 3)) for ax in fig.axes],
        [legend._ncols for legend in plotting._legends(fig)],
        [[t.get_visible() for t in ax.yaxis.get_ticklabels()] for ax in fig.axes],
        [ax.get_title() for ax in fig.axes],
    )


def test_the_phone_rendering_is_laid_out_inside_the_block_and_restored_after():
    """What one_column changes is undone: size, layout engine, axes positions (of a figure without a layout
    engine too), legend columns, tick labels and titles."""
    for fig in (_one_panel(), _one_panel(None), _three_panels()):
        fig.set_dpi(chapter.FIGURE_DPI)
        fig.draw_without_rendering()
        before = _drawn_state(fig)
        with plotting.one_column(fig, dpi=chapter.FIGURE_DPI) as layout:
            if not layout.panels:  # a figure saved whole: a phone column's width
                assert layout.bbox.width <= plotting.NARROW_WIDTH_IN + 0.01
        fig.draw_without_rendering()
        after = _drawn_state(fig)
        assert after == before
        plt.close(fig)


def test_every_stacked_panel_has_its_y_tick_labels():
    """Reader review 5, M3: the y tick labels a shared axis hides beside the first panel are shown on every panel
    of the phone's rendering (the axes as they are drawn, not pixels), and hidden again after."""
    fig = _three_panels()
    hidden = [ax for ax in fig.axes if not any(t.get_visible() for t in ax.get_yticklabels())]
    assert len(hidden) == 2  # the wide layout: shared y, numbers beside the first panel only
    with plotting.one_column(fig, dpi=chapter.FIGURE_DPI) as layout:
        assert len(layout.panels) == 3 and layout.columns == 1
        for ax in plotting._grid_panels(fig):
            labels = [t for t in ax.get_yticklabels() if t.get_visible() and t.get_text()]
            assert labels, ax.get_title()
            box = ax.yaxis.get_tightbbox(fig.canvas.get_renderer())
            assert (
                box.x0 < ax.get_window_extent().x0 - 5
            )  # drawn left of the axes: in the cut region
        # each cut panel is at most a phone's column wide: nothing is scaled down
        assert (
            max(r.width for r in layout.panels)
            <= plotting.NARROW_WIDTH_IN - 6 / chapter.FIGURE_DPI + 0.02
        )
    fig.draw_without_rendering()
    assert [
        ax for ax in fig.axes if not any(t.get_visible() for t in ax.get_yticklabels())
    ] == hidden
    plt.close(fig)


def test_legends_keep_the_ticks_size_on_a_phone():
    """Reader review 5, M3 (Fig. 5.3): a figure legend wider than a phone's column gets fewer columns (more rows)
    instead of being scaled down with the image: its text stays the ticks' size and it fits the column."""
    for fig in (_one_panel(), _three_panels()):
        fig.legends.clear()
        handles = [plt.Line2D([], [], label=f"a method with a long name {i}") for i in range(7)]
        with plotting.book_style():
            legend = fig.legend(handles=handles, loc="outside lower center", ncol=3)
        fig.set_dpi(chapter.FIGURE_DPI)
        fig.draw_without_rendering()
        inches = fig.dpi_scale_trans.inverted()
        assert legend.get_window_extent().transformed(inches).width > plotting.NARROW_WIDTH_IN
        with plotting.one_column(fig, dpi=chapter.FIGURE_DPI):
            assert legend._ncols < 3
            assert legend.get_window_extent().transformed(inches).width <= plotting.NARROW_WIDTH_IN
            assert {t.get_fontsize() for t in legend.texts} == {
                t.get_fontsize() for t in fig.axes[0].get_xticklabels()
            }
        assert legend._ncols == 3
        plt.close(fig)


def test_many_panels_stack_two_to_a_row():
    """Reader review 5, M3 (Fig. 4.4: 13 panels were three phone screens): beyond NARROW_MAX_STACK panels the phone's
    rendering has two panels to a row, each half the column; a title wider than its panel goes on two lines there."""
    with plotting.book_style():
        fig, axes = plotting.panels(8, sharey=True)
        for ax in axes:
            ax.plot([1, 2, 4], [1, 4, 9])
            ax.set_title("breast cancer, unequal sites")
    fig.set_dpi(chapter.FIGURE_DPI)
    with plotting.one_column(fig, dpi=chapter.FIGURE_DPI) as layout:
        assert layout.columns == 2 and len(layout.panels) == 8
        assert max(r.width for r in layout.panels) <= plotting.NARROW_WIDTH_IN / 2
        assert all("\n" in ax.get_title() for ax in axes)
    assert all("\n" not in ax.get_title() for ax in axes)
    plt.close(fig)


def test_show_figure_saves_the_one_column_rendering_in_each_language(tmp_path):
    """The stacked rendering of each language: its panels one under the other, at most as wide as a phone's column
    at its physical size (3.55 in: 341 CSS px of a 390 px phone's 342 px column); the wide files and their folder's
    listing are unchanged (the results folder counts its figures by its PNGs)."""
    shown = chapter.show_figure(_three_panels(colorbar=True), "f", tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["f.png", "f.svg", "narrow", "zh_CN"]
    assert set(shown.narrow) == set(shown.pngs) == {"en", "zh_CN"}
    for lang, path in shown.narrow.items():
        folder = tmp_path if lang == "en" else tmp_path / lang
        assert path == folder / chapter.NARROW_DIR / "f.png"
        (w, h), (ww, wh) = _png_size(path), _png_size(shown.pngs[lang])
        assert w <= plotting.NARROW_WIDTH_IN * chapter.FIGURE_DPI and h > 2 * wh and ww > 1.8 * w
    meta = shown.metadata("zh_CN")[messages.LANG_METADATA]
    assert meta["lang"] == "zh_CN"
    assert base64.b64decode(meta[chapter.NARROW_KEY]["png"]) == shown.narrow["zh_CN"].read_bytes()
    assert meta[chapter.NARROW_KEY]["width"] == round(
        _png_size(shown.narrow["zh_CN"])[0] * plotting.DISPLAY_DPI / chapter.FIGURE_DPI
    )
    assert plt.get_fignums() == []


def test_the_phone_rendering_costs_one_layout_and_one_png(tmp_path, monkeypatch):
    """The budget (issue 50): the phone's rendering is one more layout (two when the first misses the column's
    width) and one PNG per language, so show_figure draws the figure at most three more times per language."""
    counts = {}
    for phone in (True, False):
        fig = _three_panels(colorbar=True)
        draws = []
        draw = fig.draw
        fig.draw = lambda renderer, draw=draw, draws=draws: (draws.append(1), draw(renderer))[1]
        with monkeypatch.context() as mp:
            if not phone:
                mp.setattr(chapter, "_save_narrow", lambda fig, path: None)
            shown = chapter.show_figure(fig, f"f{phone}", tmp_path)
        assert bool(shown.narrow) == phone
        counts[phone] = len(draws)
    assert counts[False] < counts[True] <= counts[False] + 3 * len(shown.pngs)


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


def test_a_colorbar_of_several_panels_goes_under_the_stack():
    """mwem Fig. 3.2 (three heat maps, one colorbar for all): each panel's region is its own and the same size, the
    colorbar's comes after them (under the stack on a phone). A region that held the colorbar for each panel spanned
    all three; with the last panel, that panel's region was wider, and its phone image smaller and off the others'
    axis (s21, Fig. 3.2 at 390 px)."""
    with plotting.book_style():
        fig, axes = plt.subplots(1, 3, figsize=(7.2, 3), sharey=True, layout="constrained")
        for ax in axes:
            im = ax.imshow(np.eye(4))
        fig.colorbar(im, ax=axes)
    fig.set_dpi(chapter.FIGURE_DPI)
    fig.draw_without_rendering()
    head, middle, tail = plotting._region_groups(fig)
    assert not head and len(middle) == 3 and len(tail) == 1
    assert all(
        a.x1 <= b.x0 + 0.1 for a, b in itertools.pairwise(middle)
    )  # side by side, not nested
    assert (
        abs(middle[2].width - middle[1].width) < 0.05
    )  # the last no wider than the one before (no y ticks either)
    bar = next(ax for ax in fig.axes if hasattr(ax, "_colorbar"))
    assert tail[0].x1 >= bar.get_position().x1 * fig.get_size_inches()[0]
    assert middle[2].x1 < bar.get_position().x0 * fig.get_size_inches()[0]
    assert [r.bounds for r in plotting.panel_regions(fig)] == [r.bounds for r in (*middle, *tail)]
    plt.close(fig)


def test_a_single_panel_s_legend_goes_under_it_on_a_phone():
    """Reader review 5, M3 (mwem Figs 3.1 and 3.4 redrawn narrow): in a panel a phone's column wide a legend of three
    entries or more covers the data, so it goes under the panel, one entry a row, with the same texts and fonts;
    a title wider than the column is cut at its semicolons. After the block the panel's legend is back."""
    with plotting.book_style():
        fig, ax = plt.subplots(figsize=(7.2, 3.4), layout="constrained")
        for s in (2, 10, 50):
            ax.plot([0, 1], [1, s], label=f"s = {s}")
        legend = ax.legend(
            title="solid: secure aggregation; dotted: CAPE as published; dashed: the bound"
        )
    fig.set_dpi(chapter.FIGURE_DPI)
    fig.draw_without_rendering()
    with plotting.one_column(fig, dpi=chapter.FIGURE_DPI, pad_inches=0.05) as layout:
        assert not legend.get_visible() and len(fig.legends) == 1
        below = fig.legends[0]
        assert [t.get_text() for t in below.texts] == ["s = 2", "s = 10", "s = 50"]
        assert below.get_title().get_text().count("\n") == 2
        assert below.get_window_extent().y1 <= ax.get_window_extent().y0  # under the panel
        assert layout.bbox.width <= plotting.NARROW_WIDTH_IN + 0.01
    assert legend.get_visible() and fig.legends == []
    plt.close(fig)


def test_a_label_longer_than_its_panel_goes_on_two_lines_on_a_phone():
    """Reader review 5, M3 (histograms Fig. 2.1 at 7.4 pt): a title or x label longer than the panel is at a
    phone column's width kept it wider than the column, and the image was scaled down; it is cut on two lines
    there (at a space, or after Chinese punctuation), and is whole again after."""
    title = "ADULT: mean MSE and 95 % bootstrap interval, 20 repetitions"
    xlabel = "relative error of the reconstructed local matrix (median over sites)"
    with plotting.book_style():
        fig, ax = plt.subplots(figsize=(7.2, 3.4), layout="constrained")
        ax.plot([1, 2], [1, 2])
        ax.set_title(title)
        ax.set_xlabel(xlabel)
    fig.set_dpi(chapter.FIGURE_DPI)
    fig.draw_without_rendering()
    with plotting.one_column(fig, dpi=chapter.FIGURE_DPI, pad_inches=0.05) as layout:
        assert ax.get_title().count("\n") == 1 and ax.get_xlabel().count("\n") == 1
        assert ax.get_title().replace("\n", " ") == title
        assert layout.bbox.width <= plotting.NARROW_WIDTH_IN + 0.01
    assert (ax.get_title(), ax.get_xlabel()) == (title, xlabel)
    plt.close(fig)


def test_stacked_panels_show_the_shared_y_title_where_the_stack_needs_it():
    """Reader review 6 (mwem Fig. 3.2, three heat maps with one shared y axis titled on the left): stacked one to a
    row, every panel shows the y title the wide figure gives only the first; two to a row, the left panel of each
    row of the stack shows it and the right one does not (federated-pca Fig. 4.4 had it on the panels that were
    first in their wide row, left or right in the stack). The titles are as before after the block."""
    fig = _three_panels()
    before = [ax.get_ylabel() for ax in fig.axes]
    with plotting.one_column(fig, dpi=chapter.FIGURE_DPI) as layout:
        assert layout.columns == 1
        shown = [" ".join(ax.get_ylabel().split()) for ax in fig.axes]  # maybe on two lines
        assert shown == ["mean absolute error"] * 3, shown
    assert [ax.get_ylabel() for ax in fig.axes] == before
    plt.close(fig)
    with plotting.book_style():
        fig, axes = plotting.panels(9, sharey=True)
        for ax in axes:
            ax.plot([1, 2, 4], [1, 4, 9])
            if ax.get_subplotspec().is_first_col():
                ax.set_ylabel("captured energy")
    before = [ax.get_ylabel() for ax in axes]
    assert before.count("captured energy") == 3  # rows of three, the title on the left
    with plotting.one_column(fig, dpi=chapter.FIGURE_DPI) as layout:
        assert layout.columns == 2
        shown = [" ".join(ax.get_ylabel().split()) for ax in axes]  # maybe on two lines
        assert shown == ["captured energy" if i % 2 == 0 else "" for i in range(9)], shown
    assert [ax.get_ylabel() for ax in axes] == before
    plt.close(fig)


def _labels_within_their_panels(fig, axes) -> None:
    """Each title and x label of ``axes`` as laid out is at most its panel's width (a pixel of slack)."""
    renderer = fig.canvas.get_renderer()
    for ax in axes:
        for label in (ax.title, ax.xaxis.label):
            extent = label.get_window_extent(renderer)
            assert extent.width <= ax.get_window_extent(renderer).width + 1, label.get_text()


def test_a_label_wider_than_its_stacked_panel_as_laid_out_goes_on_two_lines():
    """Reader review 6 (federated-pca Fig. 4.4: slivers of a neighbour's text in the cut panels): the x labels are
    cut before the layout by the width each panel is expected to lose, but stacked two to a row each left panel gets
    the y title and every panel the y tick labels the wide figure showed beside its first column only, so a panel
    comes out narrower than expected. Here the x label (156 px) fits the expected panel and not the laid-out one
    (85 px): one_column puts it on two lines after the layout, and restores it after the block."""
    xlabel = "sites s, log scale"
    with plotting.book_style():
        fig, axes = plotting.panels(8, sharey=True)
        for ax in axes:
            ax.plot([2, 10, 50], [0, 300_000, 100_000])
            ax.set_xlabel(xlabel)
            if ax.get_subplotspec().is_first_col():
                ax.set_ylabel("released count")
        axes[0].set_yticks([0, 100_000, 200_000, 300_000], ["0", "100,000", "200,000", "300,000"])
    with plotting.one_column(fig, dpi=chapter.FIGURE_DPI) as layout:
        assert layout.columns == 2 and len(layout.panels) == 8
        assert all(ax.get_xlabel().count("\n") == 1 for ax in axes), [
            ax.get_xlabel() for ax in axes
        ]
        _labels_within_their_panels(fig, axes)
    assert all(ax.get_xlabel() == xlabel for ax in axes)
    plt.close(fig)


def test_a_grid_s_legend_cell_goes_under_the_stack_whole(tmp_path):
    """Reader review 6 (federated-pca Fig. 4.4): the legend in a grid's spare cell (``panels(spare=True)``) is laid
    over the panel beside it once the panels are narrow; stacked, a stub of its handles was cut with that panel.
    On a phone it stands under the panels, once, as the figure's legend, and its last entry is not cut off; the
    cell is back after the block."""
    names = ["non-private", "Analyze Gauss (central)", "Secure aggregation", "DPdisPCA", "CAPE"]
    with plotting.book_style():
        fig, axes = plotting.panels(10, sharey=True, spare=True)
        for ax in axes[:-1]:
            for i, name in enumerate(names):
                ax.plot([2, 10, 50], [i, i + 1, i], label=name)
            ax.set_xscale("log")
            ax.set_xticks([2, 10, 50], ["2", "10", "50"])
            ax.minorticks_off()
            ax.set_title("breast cancer, unequal", fontsize=9)
            ax.set_xlabel("number of sites s")
            if ax.get_subplotspec().is_first_col():
                ax.set_ylabel("q at $\\varepsilon = 1$")
        cell = axes[-1]
        legend = cell.legend(*axes[0].get_legend_handles_labels(), loc="center")
    with plotting.one_column(fig, dpi=chapter.FIGURE_DPI) as layout:
        assert not cell.get_visible() and not legend.get_visible()
        assert len(layout.panels) == 10 and layout.columns == 2
        assert [[t.get_text() for t in lg.texts] for lg in fig.legends] == [names]
        assert len(layout.tail) == 1
        # no panel's region reaches into the legend's
        assert all(r.y0 >= layout.tail[0].y1 for r in layout.panels)
        # no title or x label wider than its panel, reaching over the next panel's y title (two lines instead; these
        # are cut before the layout, the test above checks a label only the laid-out stack makes too wide)
        _labels_within_their_panels(fig, axes[:-1])
    assert all(ax.get_xlabel() == "number of sites s" for ax in axes[:-1])
    assert all(ax.get_title() == "breast cancer, unequal" for ax in axes[:-1])
    assert cell.get_visible() and legend.get_visible() and fig.legends == []
    chapter.save_figure(fig, "grid", tmp_path, svg=False, narrow=tmp_path / "narrow")
    plt.close(fig)
    from PIL import Image

    image = np.asarray(Image.open(tmp_path / "narrow" / "grid.png").convert("L"))
    inked = np.flatnonzero((image < 200).any(axis=1))
    assert inked[-1] < image.shape[0] - 2  # white below the legend's last entry: nothing cut off
