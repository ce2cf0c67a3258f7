"""The book's figure style: one matplotlib style, panel grids sized for the page, and one colour per method.

Every chapter calls :func:`use_book_style` in its set-up cell. The style (``styles/book.mplstyle``) draws figures
for the book's content column: at most :data:`PAGE_WIDTH_IN` inches wide, shown at their physical size (96 CSS
pixels per inch, see :func:`dpcompendium.book.chapter.show_figure`), with text of at least 9 pt and the colour-blind-safe
palette of Okabe and Ito (2008). Multi-panel figures come from :func:`panels`: at most three panels in a row. A
method has the same colour in every chapter (:data:`METHOD_COLORS`, :func:`method_color`): the source's method as
written is vermillion, its corrected variant blue, non-private references black; and the same line style, marker and
legend label (:func:`method_style`).

Phones: every figure is also saved in a narrow rendering (:func:`one_column`, from
:func:`dpcompendium.book.chapter.save_figure`: one more layout and save): a single panel redrawn
:data:`NARROW_WIDTH_IN` wide, a figure of panels side by side redrawn with each panel that wide and its y tick labels
shown, then cut and stacked in one column (:func:`panel_regions`; two columns beyond :data:`NARROW_MAX_STACK`
panels); a screen at most :data:`NARROW_MAX_SCREEN_PX` wide shows that rendering, so its text is as large on a phone
as on a laptop.

Languages: a chapter draws a figure once, in English; :func:`translate_figure` then puts every text of it (axis
labels, tick labels set by the code, legends, titles, annotations) in another language from the message catalogue
(:func:`dpcompendium.core.messages.translate`) and sets its Chinese in :data:`CJK_FONT` (Debian's
``fonts-noto-cjk``) through matplotlib's font fallback, so that the same figure of the same execution is saved
again for the Chinese edition (:func:`dpcompendium.book.chapter.show_figure`).
"""

from __future__ import annotations

import contextlib
import functools
import logging
import math
import re
import warnings
from collections.abc import Iterator, Mapping
from pathlib import Path

import matplotlib.style

from . import methods as _methods

__all__ = [
    "CJK_FONT",
    "DISPLAY_DPI",
    "METHOD_COLORS",
    "METHOD_LABELS",
    "METHOD_LINESTYLES",
    "METHOD_MARKERS",
    "MIN_FONT_PT",
    "NARROW_MAX_SCREEN_PX",
    "NARROW_MAX_STACK",
    "NARROW_WIDTH_IN",
    "OKABE_ITO",
    "PAGE_WIDTH_IN",
    "STYLE",
    "VARIANT_LINESTYLES",
    "NarrowLayout",
    "book_style",
    "cjk_font_available",
    "method_color",
    "method_style",
    "one_column",
    "panel_regions",
    "panels",
    "stackable",
    "strict_glyphs",
    "translate_figure",
    "use_book_style",
]

#: The style file.
STYLE = Path(__file__).with_name("styles") / "book.mplstyle"
#: Widest figure, in inches: the content column of the book at a 1400 px window is about 720 CSS px.
PAGE_WIDTH_IN = 7.2
#: CSS pixels per inch: a figure is displayed at ``natural px / dpi × DISPLAY_DPI`` CSS px (its physical size).
DISPLAY_DPI = 96
#: The font of a figure's Chinese text (Debian's ``fonts-noto-cjk``; CI installs it).
CJK_FONT = "Noto Sans CJK SC"
#: How to get :data:`CJK_FONT` (said when it is missing).
CJK_FONT_HINT = "apt-get install fonts-noto-cjk (Debian/Ubuntu), or install Noto Sans CJK SC from fonts.google.com"


def cjk_font_available() -> bool:
    """Whether matplotlib finds :data:`CJK_FONT` on this machine (the Chinese figures need it)."""
    return _has_font(CJK_FONT)


@functools.cache
def _has_font(family: str) -> bool:
    from matplotlib import font_manager

    try:
        font_manager.findfont(font_manager.FontProperties(family=family), fallback_to_default=False)
    except ValueError:
        return False
    return True


#: The smallest font size (points) a figure of the book may use: 9 pt at the size the figure is shown (issue 49).
MIN_FONT_PT = 9.0
#: The widest a figure's rendering for phones may be (inches, its saved PNG padding included): shown at 96 CSS px per
#: inch it fits a 390 px phone's column (342 CSS px in the book's theme) at its physical size, so 9 pt stays 9 pt
#: there (reader review 5, M3: 3.7 in showed 9 pt at 8.7 pt); a wider region is scaled to it.
NARROW_WIDTH_IN = 3.55
#: The most panels a phone's rendering stacks in one column; beyond, it stacks them in two (reader review 5, M3:
#: 13 panels in one column were three phone screens).
NARROW_MAX_STACK = 6
#: The widest screen (CSS px) that shows a figure's one-column rendering (``dpcompendium.css``).
NARROW_MAX_SCREEN_PX = 600
#: The Okabe–Ito colour-blind-safe palette.
OKABE_ITO = {
    "blue": "#0072B2",
    "vermillion": "#D55E00",
    "green": "#009E73",
    "orange": "#E69F00",
    "purple": "#CC79A7",
    "sky": "#56B4E9",
    "black": "#000000",
    "grey": "#999999",
    "yellow": "#F0E442",
}
_C = OKABE_ITO
#: One colour per method, the same in every chapter: a live view of the method registry
#: (:func:`dpcompendium.core.methods.colours`; each method's colour is in its registration). Roles: the source's
#: method as written (vermillion), its corrected or private variant (blue), non-private or noise-only references
#: (black, grey); then the baselines.
METHOD_COLORS: Mapping[str, str] = _methods.View(_methods.colours)
#: A method's legend label where it is not the method's name (its registration's ``legend``).
#:
#: :meta hide-value:
METHOD_LABELS: Mapping[str, str] = _methods.View(_methods.labels)
#: A method's marker where it has its own (its registration's ``marker``; else ``"."``).
METHOD_MARKERS: Mapping[str, str] = _methods.View(_methods.markers)
#: The line style of a variant: the source's method as written solid, its corrected variant dashed.
VARIANT_LINESTYLES = {"as-written": "-", "corrected": "--"}
#: A method drawn otherwise whatever its variant: noise-only references dotted.
METHOD_LINESTYLES = {"laplace-public-n": ":"}


def method_color(name: str, default: str | None = None) -> str:
    """The colour of method ``name`` (:data:`METHOD_COLORS`, case-insensitive); ``default`` (or grey) if it has none."""
    return METHOD_COLORS.get(str(name).lower(), default or _C["grey"])


def method_style(name: str, variant: str | None = None) -> dict[str, str]:
    """Keyword arguments of :meth:`matplotlib.axes.Axes.plot` that draw method ``name`` (in ``variant``) as in every
    chapter: its colour (:func:`method_color`), line style (:data:`METHOD_LINESTYLES`, else by variant,
    :data:`VARIANT_LINESTYLES`, else solid), marker (:data:`METHOD_MARKERS`, else ``"."``) and label
    (:data:`METHOD_LABELS`, else the name; ``"name (variant)"`` when a variant is given)."""
    key = str(name).lower()
    label = METHOD_LABELS.get(key, str(name))
    return {
        "color": method_color(key),
        "ls": METHOD_LINESTYLES.get(key, VARIANT_LINESTYLES.get(str(variant), "-")),
        "marker": METHOD_MARKERS.get(key, "."),
        "label": label if variant is None else f"{label} ({variant})",
    }


def use_book_style() -> None:
    """Apply the book's style (``book.mplstyle``) to every figure drawn from now on, and show every DataFrame of
    the running IPython session as the book's table (:func:`dpcompendium.core.tables.use_book_tables`)."""
    from .tables import use_book_tables

    matplotlib.style.use(STYLE)
    use_book_tables()


@contextlib.contextmanager
def book_style() -> Iterator[None]:
    """The book's style inside a ``with`` block only (figures must also be *saved* inside it: matplotlib reads some
    sizes when it draws)."""
    with matplotlib.style.context(STYLE):
        yield


def panels(
    n: int,
    *,
    ncols: int | None = None,
    panel_height: float = 2.3,
    width: float = PAGE_WIDTH_IN,
    spare: bool = False,
    **subplot_kw,
):
    """A figure of ``n`` panels in rows of at most three, ``width`` inches wide; returns ``(fig, axes)``, ``axes``
    a flat list of the ``n`` panels in reading order. Unused grid cells are hidden; with ``spare=True`` one more
    cell is kept (and returned last, without axis) when the grid has room, e.g. for a legend.

    ``ncols`` defaults to ``n`` up to 3 panels, 2 for 4 panels, else 3. Extra keyword arguments go to
    :func:`matplotlib.pyplot.subplots` (``sharex``, ``sharey``, ...); the layout is constrained.
    """
    from matplotlib import pyplot as plt

    n = int(n)
    if n < 1:
        raise ValueError(f"n must be at least 1, got {n}")
    if ncols is None:
        ncols = n if n <= 3 else (2 if n == 4 else 3)
    ncols = max(1, min(int(ncols), 3, n))
    nrows = math.ceil(n / ncols)
    subplot_kw.setdefault("layout", "constrained")
    fig, grid = plt.subplots(
        nrows,
        ncols,
        figsize=(width, panel_height * nrows + 0.3),
        squeeze=False,
        **subplot_kw,
    )
    flat = list(grid.ravel())
    axes = flat[:n]
    rest = flat[n:]
    if spare and rest:
        rest[0].set_axis_off()
        axes.append(rest[0])
        rest = rest[1:]
    for ax in rest:
        ax.set_visible(False)
    return fig, axes


def _grid_panels(fig) -> list:
    """The visible panels of ``fig`` laid out on one grid (colorbars and insets follow their panel), in reading
    order; empty when the figure has panels on no grid or on several."""
    axes = [
        ax
        for ax in fig.axes
        if ax.get_visible() and ax.get_subplotspec() is not None and not hasattr(ax, "_colorbar")
    ]
    if not axes or len({id(ax.get_subplotspec().get_gridspec()) for ax in axes}) != 1:
        return []
    return sorted(
        axes,
        key=lambda ax: (ax.get_subplotspec().rowspan.start, ax.get_subplotspec().colspan.start),
    )


def stackable(fig) -> bool:
    """Whether ``fig`` has panels side by side on one grid (its phone rendering stacks them: :func:`panel_regions`)."""
    axes = _grid_panels(fig)
    return len(axes) > 1 and axes[0].get_subplotspec().get_gridspec().ncols > 1


def panel_regions(fig) -> list:
    """The regions (``Bbox`` in inches, figure coordinates) of a figure of panels side by side to stack in one
    column for a phone, in reading order: its title, each panel with its labels, title and colorbar, its x label,
    then each of its legends; empty for a figure that is not :func:`stackable`. The figure must be laid out at the
    resolution it is saved at (:func:`dpcompendium.book.chapter.save_figure` calls it after its layout)."""
    head, middle, tail = _region_groups(fig)
    return [*head, *middle, *tail]


def _region_groups(fig) -> tuple[list, list, list]:
    """:func:`panel_regions` in three groups: what goes above the panels (the title), the panels, what goes below
    (the x label, the figure's legends)."""
    from matplotlib.transforms import Bbox

    if not stackable(fig):
        return [], [], []
    renderer = fig.canvas.get_renderer()
    inches = fig.dpi_scale_trans.inverted()
    grid = _grid_panels(fig)
    order = {id(ax): i for i, ax in enumerate(grid)}
    bars: dict[int, list] = {}
    shared: list = []  # the colorbars of several panels
    for ax in fig.axes:
        cb = getattr(ax, "_colorbar", None)
        if cb is None or not ax.get_visible():
            continue
        parents = getattr(ax, "_colorbar_info", {}).get("parents") or [cb.mappable.axes]
        # a colorbar of several panels goes under the stack, as the figure's legends (with each, every panel's
        # region would span them all; with the last, that panel's region was wider, so it came out smaller and off
        # the others' axis: mwem Fig. 3.2 at 390 px, s21)
        if len([p for p in parents if id(p) in order]) > 1:
            shared.append(ax)
            continue
        last = max(parents, key=lambda parent: order.get(id(parent), -1))
        bars.setdefault(id(last), []).append(ax)

    def box(artist):
        return artist.get_tightbbox(renderer).transformed(inches)

    head, middle, tail = [], [], []
    for title in (fig._suptitle,):
        if title is not None and title.get_text():
            head.append(title.get_window_extent(renderer).transformed(inches))
    for ax in grid:
        middle.append(Bbox.union([box(ax), *(box(c) for c in bars.get(id(ax), []))]))
    for label in (fig._supxlabel,):
        if label is not None and label.get_text():
            tail.append(label.get_window_extent(renderer).transformed(inches))
    tail += [box(c) for c in shared]
    tail += [legend.get_window_extent(renderer).transformed(inches) for legend in fig.legends]
    return head, middle, tail


class NarrowLayout:
    """A figure laid out for a phone by :func:`one_column`: ``bbox`` (inches) is the box to save (padded for a
    figure saved whole); ``head``, ``panels`` and ``tail`` are the regions to cut and stack (:func:`panel_regions`,
    empty for a figure saved whole), the panels in ``columns`` columns."""

    def __init__(self, bbox, head: list, panels: list, tail: list, columns: int):
        self.bbox, self.head, self.panels, self.tail, self.columns = (
            bbox,
            head,
            panels,
            tail,
            columns,
        )


#: The height (inches) a legend's row takes at the book's 9 pt (a line and its spacing).
_LEGEND_ROW_IN = 0.2


def _set_legend_columns(legend, ncols: int) -> None:
    """Lay ``legend``'s entries out in ``ncols`` columns, in their order (matplotlib's ``set_ncols`` only takes
    effect on a legend built afterwards: the entries already packed are re-packed here)."""
    import numpy as np
    from matplotlib.offsetbox import VPacker

    box = legend._legend_handle_box
    columns = box.get_children()
    if not columns or legend._ncols == ncols:
        legend.set_ncols(ncols)
        return
    items = [item for column in columns for item in column.get_children()]
    first = columns[0]
    new = [
        VPacker(pad=0, sep=first.sep, align=first.align, children=list(chunk))
        for chunk in np.array_split(np.array(items, dtype=object), ncols)
        if len(chunk)
    ]
    for column in new:
        column.set_figure(legend.get_figure(root=False))
        column.axes = legend.axes
    box._children = new
    legend.set_ncols(ncols)


def _legends(fig) -> list:
    return [*fig.legends, *(ax.get_legend() for ax in fig.axes if ax.get_legend() is not None)]


def _fit_legends(fig, width_in: float, shrink_in: float = 0.0) -> int:
    """Fewer columns for a legend wider than ``width_in`` (a figure's legend) or than its axes once ``shrink_in``
    narrower (an axes' legend), so that its text keeps its size on a phone; return the rows the figure's legends
    gained."""
    renderer = fig.canvas.get_renderer()
    inches = fig.dpi_scale_trans.inverted()
    gained = 0
    for legend in _legends(fig):
        ncols = legend._ncols
        if ncols <= 1:
            continue
        parent = legend.parent
        limit = (
            width_in
            if parent is fig
            else parent.get_window_extent(renderer).transformed(inches).width - shrink_in
        )
        width = legend.get_window_extent(renderer).transformed(inches).width
        if width <= limit:
            continue
        new = max(1, math.floor(ncols * limit / width))
        _set_legend_columns(legend, new)
        if parent is fig:
            n = len(legend.texts)
            gained += math.ceil(n / new) - math.ceil(n / ncols)
    return gained


def _legends_below(fig, axes: list, width_in: float, moved: list) -> int:
    """On a phone, the legend of three entries or more inside a single panel goes under it, one entry a row (in a
    panel a phone's column wide, it covers the data): a figure legend with the same entries, texts and fonts
    stands for it, appended to ``moved`` with it (hidden meanwhile); a title wider than ``width_in`` is cut at its
    semicolons. Return the rows added under the panel."""
    renderer = fig.canvas.get_renderer()
    rows = 0
    for ax in axes:
        legend = ax.get_legend()
        if legend is None or not legend.get_visible() or len(legend.texts) < 3:
            continue
        rows += _legend_below(fig, legend, moved)
        title = moved[-1][1].get_title()
        if title.get_text() and title.get_window_extent(renderer).width / fig.dpi > width_in:
            text = re.sub(r"(;|；) ?", r"\1\n", title.get_text()).strip()
            title.set_text(text)
            rows += text.count("\n")
    return rows


def _legend_below(fig, legend, moved: list) -> int:
    """Stand a figure legend under the panels, one entry a row, for the axes' ``legend`` (the same entries, texts,
    fonts and title), which is hidden meanwhile; append ``(legend, the figure legend)`` to ``moved``; return the
    rows it takes."""
    title = legend.get_title()
    below = fig.legend(
        legend.legend_handles,
        [t.get_text() for t in legend.texts],
        loc="outside lower center",
        ncols=1,
        title=title.get_text() or None,
    )
    for new, old in zip(below.texts, legend.texts, strict=True):
        new.set_fontproperties(old.get_fontproperties())
    if title.get_text():
        below.get_title().set_fontproperties(title.get_fontproperties())
    legend.set_visible(False)
    moved.append((legend, below))
    return len(legend.texts) + bool(title.get_text())


def _legend_cell(ax) -> bool:
    """Whether ``ax`` is a cell of the grid that only holds a legend (:func:`panels`' spare cell: no axis, no
    data, a shown legend)."""
    legend = ax.get_legend()
    return (
        not ax.axison
        and legend is not None
        and legend.get_visible()
        and not (ax.lines or ax.collections or ax.patches or ax.images)
    )


def _stacked_ylabels(grid: list, columns: int) -> list:
    """Put the y title where the stacked phone image needs it (reader review 6: mwem Fig. 3.2 and federated-pca
    Fig. 4.4 had it only on the panels that were first in their row of the wide figure): a panel first in its row
    of the stack (``columns`` to a row) without a y title takes that of the panel of its wide row whose y axis it
    shares (a shared axis titled once, on the left); a panel beside one that now shows the same title drops it.
    Return ``(label, text before, font before)`` of each title changed."""
    changed = []
    shown = []  # each panel's y title and its font: its own, or that of the panel it shares y with
    for ax in grid:
        label = ax.yaxis.label
        if not label.get_text():
            row = ax.get_subplotspec().rowspan.start
            label = next(
                (
                    other.yaxis.label
                    for other in grid
                    if other.get_subplotspec().rowspan.start == row
                    and other.yaxis.label.get_text()
                    and ax.get_shared_y_axes().joined(ax, other)
                ),
                label,
            )
        shown.append((label.get_text(), label.get_fontproperties()))
    for i, ax in enumerate(grid):
        label, before = ax.yaxis.label, ax.yaxis.label.get_text()
        after, font = shown[i] if i % columns == 0 else (before, None)
        if i % columns and before and before == shown[i - i % columns][0]:
            after = ""
        if after != before:
            changed.append((label, before, label.get_fontproperties()))
            label.set_text(after)
            if font is not None:  # its font too (a Chinese title is set in the CJK font)
                label.set_fontproperties(font)
    return changed


@contextlib.contextmanager
def one_column(fig, *, dpi: float, pad_inches: float = 0.0) -> Iterator[NarrowLayout]:
    """Lay ``fig`` out for a phone inside the block (reader review 5, M3), at ``dpi`` (the PNG's resolution), and
    yield its :class:`NarrowLayout`; the figure's size, layout, tick labels and legends are restored after it.

    - A figure of panels side by side (:func:`stackable`) is redrawn with every panel about :data:`NARROW_WIDTH_IN`
      wide (half that with more than :data:`NARROW_MAX_STACK` panels, stacked two to a row) and the tick labels a
      shared axis hides shown on every panel (``labelleft``, ``labelbottom``): stacked, each panel has its numbers.
    - Any other figure (one panel, one column) is redrawn :data:`NARROW_WIDTH_IN` wide with ``pad_inches`` (the
      saved padding) on each side, at most as tall as it was (three quarters of it, at least 2.8 in).

    A legend wider than its room gets fewer columns (the figure taller by the rows it gains), so that its text keeps
    the ticks' size rather than being scaled down with the image. A figure without a layout engine is laid out
    with the constrained one meanwhile (its axes' positions are restored after)."""
    from matplotlib.transforms import Bbox

    size = fig.get_size_inches().copy()
    screen_dpi, engine = fig.dpi, fig.get_layout_engine()
    positions = [(ax, ax.get_position(original=True), ax.get_position()) for ax in fig.axes]
    grid = _grid_panels(fig)
    stack = stackable(fig)
    labels = []
    for ax in grid:
        for axis, keys in (
            (ax.xaxis, ("labelbottom", "labeltop")),
            (ax.yaxis, ("labelleft", "labelright")),
        ):
            for which in ("major", "minor"):
                params = axis.get_tick_params(which=which)
                labels.append((axis, which, {k: params[k] for k in keys if k in params}))
    ncols = [(legend, legend._ncols) for legend in _legends(fig)]
    titles: list = []  # (axes, text, its text before): restored after
    moved: list = []  # (an axes' legend, the figure legend that stands for it on a phone)
    hidden: list = []  # a grid's cell that only held a legend (:func:`panels`' spare cell), hidden meanwhile
    ylabels: list = []  # (y label, its text and font before): y titles put where the stack needs them
    try:
        fig.set_dpi(dpi)
        if engine is None:
            fig.set_layout_engine("constrained")
        width, height = size
        legend_rows = 0
        if stack:
            # a cell of the grid that only holds the legend (panels(spare=True)): stacked, its legend would be
            # cut beside the panel it overlaps (federated-pca Fig. 4.4 on a phone: a stub of handles): it goes
            # under the panels, once, as the figure's legend
            for ax in [ax for ax in grid if _legend_cell(ax)]:
                legend_rows += _legend_below(fig, ax.get_legend(), moved)
                ax.set_visible(False)
                hidden.append(ax)
            grid = [ax for ax in grid if ax not in hidden]
            columns = 2 if len(grid) > NARROW_MAX_STACK else 1
            ylabels = _stacked_ylabels(grid, columns)
        titles = [
            (ax, label, label.get_text())
            for ax in grid
            for label in (ax.title, ax.xaxis.label, ax.yaxis.label)
            if label.get_text()
        ]
        if stack:
            full = NARROW_WIDTH_IN  # the stacked image is cut without the saved padding
            gridspec = grid[0].get_subplotspec().get_gridspec()
            ngrid = gridspec.ncols
            # a cut panel is padded by 3 px on each side, and panels two to a row 6 px apart
            target = (full - 6 / dpi * (columns - 1)) / columns - 6 / dpi
            if columns > 1:  # rows as tall as the panels are wide (at most as tall as they were)
                height = min(height, gridspec.nrows * (0.85 * target) + 0.3)
            for ax in grid:
                shown = {"labelleft", "labelbottom"}
                for axis, keys in ((ax.xaxis, ("labelbottom",)), (ax.yaxis, ("labelleft",))):
                    if axis.get_visible() and shown.intersection(keys):
                        axis.set_tick_params(which="both", **dict.fromkeys(keys, True))
            # each panel's region is its axes and labels, and constrained layout pads each by about 0.09 in
            width, scale = ngrid * (target + 0.09), ngrid
            height += legend_rows * _LEGEND_ROW_IN
        else:
            full = NARROW_WIDTH_IN - 2 * pad_inches
            columns, target, scale = 1, full, 1
            width, height = target, min(height, max(2.8, 0.75 * height))
        # titles and legends measured in the wide layout (their size does not depend on it): no layout for them
        renderer = fig.canvas.get_renderer()
        shrink = (size[0] - width) / scale  # how much narrower each panel gets
        # a title or axis label longer than its panel (which it would run past, into the next panel or out of the
        # column): two lines, cut at the space nearest its middle
        for ax, label, text in titles:
            box = ax.get_window_extent(renderer)
            extent = label.get_window_extent(renderer)
            if label is ax.yaxis.label:
                long = extent.height / dpi > box.height / dpi - (size[1] - height)
            else:
                long = extent.width / dpi > box.width / dpi - shrink
            # at a space (dropped) or after Chinese punctuation (kept), outside maths
            cuts = [
                i for i, c in enumerate(text) if c in " ，：；" and text[:i].count("$") % 2 == 0
            ]
            if long and cuts and "\n" not in text:
                label.set_text(_two_lines(text, cuts))
        if not stack:
            height += _legends_below(fig, grid, full, moved) * _LEGEND_ROW_IN
        height += _fit_legends(fig, full, shrink) * _LEGEND_ROW_IN
        # a legend entry wider than the column beside its handle (one column already: nothing else to shrink; the
        # Chinese edition's dp-mean Fig. 1.4 came out 538 px): two lines, as a long title
        for legend in [*fig.legends, *(ax.get_legend() for ax in fig.axes)]:
            if legend is None or not legend.get_visible():
                continue
            for label in legend.get_texts():
                text = label.get_text()
                cuts = [
                    i for i, c in enumerate(text) if c in " ，：；" and text[:i].count("$") % 2 == 0
                ]
                wide = label.get_window_extent(renderer).width / dpi > full - _LEGEND_HANDLE_IN
                if wide and cuts and "\n" not in text:
                    titles.append((None, label, text))  # restored after, with the titles
                    label.set_text(_two_lines(text, cuts))
                    height += _LEGEND_ROW_IN / 2

        def measure():
            fig.set_size_inches(width, height)
            with warnings.catch_warnings():
                # a trial width may be too narrow for constrained layout; the next trial (or the caller's check of
                # the saved image, tests/test_book_browser.py) sees it, not the reader's page
                warnings.filterwarnings("ignore", "constrained_layout not applied", UserWarning)
                fig.draw_without_rendering()
            if stack:
                head, middle, tail = _region_groups(fig)
                return max(r.width for r in middle), (head, middle, tail)
            box = fig.get_tightbbox()
            return box.width, box

        widest, found = measure()
        # stacked, a title or x label still wider than its panel as laid out reaches over the next panel's y title,
        # and each panel is cut with a sliver of its neighbour's text (reader review 6: federated-pca Fig. 4.4)
        cut = stack and _two_lines_over_panels(grid, renderer)
        # labels outside the panels take what they take: resize by the difference (a single panel until it fits:
        # its tight box is the image; stacked panels once, their regions are cut to the column)
        for _ in range(1 if stack else 4):
            over = widest - target
            if -0.04 <= over <= 0.01 and not cut:
                break
            if not -0.04 <= over <= 0.01:
                width = max(width - scale * over, 0.5 * width)
            widest, found = measure()
        if stack:
            # the regions are cut from the figure's own box: saved in a padded one, a figure legend (anchored to
            # the box saved) moved down by the padding and its last entry was cut off (reader review 6)
            box = Bbox.from_bounds(0, 0, width, height)
            yield NarrowLayout(box, *found, columns)
        else:
            yield NarrowLayout(found.padded(pad_inches), [], [], [], columns)
    finally:
        fig.set_size_inches(size)
        fig.set_dpi(screen_dpi)
        fig.set_layout_engine(engine)
        for ax, original, active in positions:
            ax._set_position(original, "original")
            ax._set_position(active, "active")
        for axis, which, params in labels:
            if params:
                axis.set_tick_params(which=which, **params)
        for legend, n in ncols:
            _set_legend_columns(legend, n)
        for _ax, label, text in titles:
            label.set_text(text)
        for label, text, font in ylabels:
            label.set_text(text)
            label.set_fontproperties(font)
        for legend, below in moved:
            below.remove()
            legend.set_visible(True)
        for ax in hidden:
            ax.set_visible(True)


def _two_lines_over_panels(grid: list, renderer) -> bool:
    """Put on two lines each one-line title or x label of ``grid``'s panels wider than its panel as laid out (the
    caller restores the texts); return whether any was."""
    cut = False
    for ax in grid:
        width = ax.get_window_extent(renderer).width
        for label in (ax.title, ax.xaxis.label):
            text = label.get_text()
            cuts = [
                i for i, c in enumerate(text) if c in " ，：；" and text[:i].count("$") % 2 == 0
            ]
            if cuts and "\n" not in text and label.get_window_extent(renderer).width > width:
                label.set_text(_two_lines(text, cuts))
                cut = True
    return cut


#: The width a legend's handle and padding take beside its text (in).
_LEGEND_HANDLE_IN = 0.75


def _two_lines(text: str, cuts: list[int]) -> str:
    """``text`` on two lines, cut at the one of ``cuts`` nearest its middle: at a space (dropped) or after Chinese
    punctuation (kept)."""
    cut = min(cuts, key=lambda i: abs(i - len(text) / 2))
    head, tail = (
        (text[:cut], text[cut + 1 :]) if text[cut] == " " else (text[: cut + 1], text[cut + 1 :])
    )
    return head + "\n" + tail


_CJK = re.compile(r"[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]")
_MATHTEXT = re.compile(r"(?<!\\)\$.*?(?<!\\)\$")


def _set_cjk_font(text) -> None:
    """Give a text with Chinese a font that has its glyphs: the text's own font first, :data:`CJK_FONT` as the
    fallback; a text with maths (mathtext has no font fallback) is set in :data:`CJK_FONT` (its Latin and digits
    too), the maths in the style's maths fonts."""
    if not _CJK.search(text.get_text()):
        return
    if _MATHTEXT.search(text.get_text()):
        text.set_fontfamily([CJK_FONT])
    else:
        text.set_fontfamily([*text.get_fontfamily(), CJK_FONT])


def _fixed_labels(formatter) -> dict | None:
    """The tick labels the code set (``set_xticks(ticks, labels)``, ``set_xticklabels``) as a dict to change in
    place, or None for a formatter that computes its labels (numbers)."""
    import functools

    from matplotlib.ticker import FixedFormatter, FuncFormatter

    if isinstance(formatter, FixedFormatter):
        return dict(enumerate(formatter.seq))
    func = getattr(formatter, "func", None) if isinstance(formatter, FuncFormatter) else None
    if (
        isinstance(func, functools.partial)
        and getattr(func.func, "__name__", "") == "_format_with_dict"
        and func.args
        and isinstance(func.args[0], dict)
    ):
        return func.args[0]  # matplotlib's labels by tick position (set_ticklabels)
    return None


def translate_figure(fig, lang: str) -> list[str]:
    """Put every text of ``fig`` in ``lang`` (:func:`dpcompendium.core.messages.translate`), in place; return the
    texts no template renders (left in English).

    Texts are the figure's and its axes' titles and labels, legend entries and titles, annotations and tick labels
    the code set (a fixed formatter); numeric tick labels are left as they are. Chinese is set in a font that has it
    (:data:`CJK_FONT`). Call it after the figure is saved in English: the same drawing, another language."""
    from matplotlib.text import Text
    from matplotlib.ticker import FixedFormatter

    from .messages import translate

    missing: list[str] = []

    def put(s: str) -> str:
        out = translate(s, lang)
        if out is None:
            missing.append(s)
            return s
        return out

    tick_labels = set()
    for ax in fig.axes:
        for axis in (ax.xaxis, ax.yaxis):
            for which, formatter in (
                ("major", axis.get_major_formatter()),
                ("minor", axis.get_minor_formatter()),
            ):
                labels = _fixed_labels(formatter)
                if labels is None:
                    continue
                for key, label in list(labels.items()):
                    labels[key] = put(str(label))
                if isinstance(formatter, FixedFormatter):
                    formatter.seq = [labels[i] for i in range(len(formatter.seq))]
                if any(_CJK.search(s) for s in labels.values()):
                    axis.set_tick_params(which=which, labelfontfamily=["sans-serif", CJK_FONT])
            for tick in [
                *axis.get_major_ticks(),
                *axis.get_minor_ticks(),
            ]:  # drawn from the formatter
                tick_labels.update((id(tick.label1), id(tick.label2)))
    for text in fig.findobj(Text):
        s = text.get_text()
        if not s.strip() or id(text) in tick_labels:
            continue
        text.set_text(put(s))
        _set_cjk_font(text)
    return missing


class _GlyphError(logging.Handler):
    def emit(self, record: logging.LogRecord) -> None:
        message = record.getMessage()
        if "does not have a glyph" in message or "missing from font" in message:
            raise ValueError(f"figure text has a character no font draws: {message}")


@contextlib.contextmanager
def strict_glyphs() -> Iterator[None]:
    """Inside the block, a character that no font of a text draws (matplotlib's "Glyph … missing from font" warning,
    mathtext's "does not have a glyph" log) is an error, not a box in the figure."""
    handler = _GlyphError(logging.WARNING)
    loggers = [logging.getLogger(name) for name in ("matplotlib.mathtext", "matplotlib._mathtext")]
    for logger in loggers:
        logger.addHandler(handler)
    try:
        with warnings.catch_warnings():
            warnings.filterwarnings("error", message=r"Glyph \d+ .*missing from font")
            warnings.filterwarnings("error", message=r".*missing from font")
            yield
    finally:
        for logger in loggers:
            logger.removeHandler(handler)
