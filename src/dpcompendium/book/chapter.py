"""Helpers that chapter notebooks call: where results go, and how tables and figures are written.

Tables are tidy CSV written with a fixed float format, so the same seed gives byte-identical files. Figures are
written as PNG and SVG (SVG with a fixed hash salt and no date, so they are reproducible too); a figure's other
editions (``<out>/<lang>/``) as PNG only, each carrying the texts it draws (:func:`figure_texts`).
"""

from __future__ import annotations

import json
import math
import os
import re
import struct
import sys
import warnings
import zlib
from collections.abc import Iterable, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import matplotlib as mpl
import pandas as pd

from ..core.paths import repo_root
from .contract import get_chapter

__all__ = [
    "FIGURE_DPI",
    "FLOAT_FORMAT",
    "NARROW_DIR",
    "NARROW_KEY",
    "TEXTS_KEYWORD",
    "LanguageFigures",
    "SavedPath",
    "check_guarantee_labels",
    "closest",
    "figure_languages",
    "figure_texts",
    "output_dir",
    "save_figure",
    "save_table",
    "show_figure",
    "skipped",
    "states_book_claims",
]

#: 12 significant digits: stable across platforms, far below Monte-Carlo error.
FLOAT_FORMAT = "%.12g"
#: Resolution of the PNG files (the SVG files are vector).
FIGURE_DPI = 150


def output_dir(path: str | Path | None, chapter: str) -> Path:
    """The folder a chapter writes into: ``path`` if given, else ``<repo>/_build/results/<chapter>``. Created if needed."""
    out = Path(path) if path else repo_root() / "_build" / "results" / chapter
    out.mkdir(parents=True, exist_ok=True)
    return out


#: A guarantee label: "(1, 1e-05)-DP", "0.5-DP", "2-LDP", "ε-DP".
_GUARANTEE = re.compile(r"-L?DP\b")


def check_guarantee_labels(df: pd.DataFrame, name: str = "table") -> None:
    """Refuse a table that labels a row with a guarantee its release does not have.

    Every column ``guarantee``/``label`` (or ``<prefix>_guarantee``/``<prefix>_label``) is governed by the column
    ``private`` (``<prefix>_private``) of the same row, which states whether that row's release is private (from its
    claim object): where it is False, the label must not state a guarantee ("…-DP", "…-LDP"). A column that states
    guarantees without its ``private`` column is refused too."""
    for col in df.columns:
        m = re.fullmatch(r"(?P<prefix>.*?)(?P<kind>guarantee|label)", str(col))
        if m is None:
            continue
        pcol = f"{m['prefix']}private"
        labelled = df[col].astype(str).str.contains(_GUARANTEE)
        if not labelled.any():
            continue
        if pcol not in df.columns:
            raise ValueError(
                f"{name} must have a column {pcol!r} stating whether each row's release is private, "
                f"beside its guarantee labels in column {col!r}"
            )
        bad = labelled & ~df[pcol].astype(bool)
        if bad.any():
            i = bad.to_numpy().nonzero()[0][0]
            raise ValueError(
                f"{name} labels row {i} with {df[col].iloc[i]!r} in column {col!r}, but its release is not "
                f"private ({pcol} = {df[pcol].iloc[i]!r})"
            )


class SavedPath(type(Path())):  # the platform's concrete Path class (PosixPath here)
    """The path of a file a chapter wrote: a :class:`~pathlib.Path` that a notebook does not display, so a cell
    ending in ``save_table(...)`` shows nothing (not the build's folder)."""

    def _ipython_display_(self) -> None:
        pass


def save_table(df: pd.DataFrame, name: str, out: str | Path) -> SavedPath:
    """Write ``df`` as ``<out>/<name>.csv`` (tidy, no index, fixed float format); return the path (a
    :class:`SavedPath`: a notebook cell that ends with this call shows nothing).

    Refuses (:func:`check_guarantee_labels`) a table whose guarantee label contradicts a row's ``private``."""
    check_guarantee_labels(df, name)
    path = SavedPath(Path(out) / (name if name.endswith(".csv") else f"{name}.csv"))
    df.to_csv(path, index=False, float_format=FLOAT_FORMAT, lineterminator="\n")
    return path


#: The keyword of the PNG text chunk (iTXt) in which a figure saved with ``texts=True`` keeps the texts it draws.
TEXTS_KEYWORD = "dpcompendium texts"


@contextmanager
def _drawn_texts():
    """Collect, in a list, every string the Agg renderer draws meanwhile: the ``s`` of each ``draw_text`` call, text
    and mathtext alike, exactly the strings matplotlib's SVG writer keeps as comments."""
    from matplotlib.backends.backend_agg import RendererAgg

    drawn: list[str] = []
    draw_text = RendererAgg.draw_text

    def recording(self, gc, x, y, s, *args, **kwargs):
        drawn.append(s)
        return draw_text(self, gc, x, y, s, *args, **kwargs)

    RendererAgg.draw_text = recording
    try:
        yield drawn
    finally:
        RendererAgg.draw_text = draw_text


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def _add_texts(png: Path, texts: list[str]) -> None:
    """Put ``texts`` (JSON, UTF-8) into the PNG ``png`` as an uncompressed iTXt chunk before its IEND chunk."""
    data = Path(png).read_bytes()
    if data[-12:-4] != b"\0\0\0\0IEND":  # the IEND chunk: 12 bytes, empty
        raise ValueError(f"png must end with an empty IEND chunk, got {str(png)!r}")
    body = (
        TEXTS_KEYWORD.encode("latin-1")
        + b"\0\0\0\0\0"
        + json.dumps(texts, ensure_ascii=False).encode()
    )
    Path(png).write_bytes(data[:-12] + _chunk(b"iTXt", body) + data[-12:])


def figure_texts(png: str | Path) -> list[str] | None:
    """The texts a figure saved with ``save_figure(..., texts=True)`` draws, in drawing order, read from its PNG
    (what its SVG would hold as comments); None for a PNG without them."""
    data = Path(png).read_bytes()
    pos = 8
    while pos + 8 <= len(data):
        (n,) = struct.unpack(">I", data[pos : pos + 4])
        kind, body = data[pos + 4 : pos + 8], data[pos + 8 : pos + 8 + n]
        if kind == b"iTXt" and body.startswith(TEXTS_KEYWORD.encode("latin-1") + b"\0"):
            return json.loads(body[len(TEXTS_KEYWORD) + 5 :].decode())
        pos += 12 + n
    return None


def _stack_regions(png, layout, narrow: Path) -> None:
    """Cut the regions of ``layout`` (a :class:`dpcompendium.core.plotting.NarrowLayout`: inches, figure
    coordinates) out of ``png`` (the figure saved with the tight box ``layout.bbox``) and write them one under the
    other, centred, as ``narrow`` (the same resolution; a region wider than the phone's column scaled down to it):
    the head, the panels (``layout.columns`` to a row), then the tail."""
    from PIL import Image

    from ..core.plotting import NARROW_WIDTH_IN

    pad, gap, widest = 3, 6, round(NARROW_WIDTH_IN * FIGURE_DPI)
    box = layout.bbox

    def cut(image, r, most: int):
        left = max(0, math.floor((r.x0 - box.x0) * FIGURE_DPI) - pad)
        top = max(0, math.floor((box.y1 - r.y1) * FIGURE_DPI) - pad)
        right = min(image.width, math.ceil((r.x1 - box.x0) * FIGURE_DPI) + pad)
        bottom = min(image.height, math.ceil((box.y1 - r.y0) * FIGURE_DPI) + pad)
        if right - left < 2 or bottom - top < 2:
            return None
        part = image.crop((left, top, right, bottom))
        if part.width > most:
            part = part.resize(
                (most, round(part.height * most / part.width)), Image.Resampling.LANCZOS
            )
        return part

    columns = max(1, int(layout.columns))
    cell = (widest - gap * (columns - 1)) // columns
    rows: list[list] = []  # each row: the parts side by side
    with Image.open(png) as image:
        image = image.convert("RGB")
        rows += [[p] for r in layout.head if (p := cut(image, r, widest))]
        panels = [p for r in layout.panels if (p := cut(image, r, cell))]
        rows += [panels[i : i + columns] for i in range(0, len(panels), columns)]
        rows += [[p] for r in layout.tail if (p := cut(image, r, widest))]
    row_widths = [sum(p.width for p in row) + gap * (len(row) - 1) for row in rows]
    width = max(row_widths)
    heights = [max(p.height for p in row) for row in rows]
    stacked = Image.new("RGB", (width, sum(heights) + gap * (len(rows) - 1)), "white")
    y = 0
    for row, row_width, height in zip(rows, row_widths, heights, strict=True):
        x = (width - row_width) // 2
        for part in row:
            stacked.paste(part, (x, y))
            x += part.width + gap
        y += height + gap
    narrow.parent.mkdir(parents=True, exist_ok=True)
    stacked.save(narrow, dpi=(FIGURE_DPI, FIGURE_DPI), optimize=False)


#: What ``savefig`` must not do again on a figure laid out once (:func:`save_figure`): no second layout.
_SAVE_RC = {
    "svg.hashsalt": "dpcompendium",
    "figure.autolayout": False,
    "figure.constrained_layout.use": False,
}


def _save_narrow(fig, path: Path) -> None:
    """Save ``fig``'s rendering for phones as ``path`` (:func:`dpcompendium.core.plotting.one_column`): a figure of
    panels side by side redrawn with wide panels and all their tick labels, then cut and stacked; any other figure
    redrawn at a phone column's width."""
    import io

    from ..core.plotting import one_column

    buffer = io.BytesIO()
    path.parent.mkdir(parents=True, exist_ok=True)
    with one_column(fig, dpi=FIGURE_DPI, pad_inches=mpl.rcParams["savefig.pad_inches"]) as layout:
        engine = fig.get_layout_engine()
        with mpl.rc_context(_SAVE_RC):
            fig.set_layout_engine(None)
            try:
                fig.savefig(
                    buffer if layout.panels else path,
                    format="png",
                    dpi=FIGURE_DPI,
                    metadata={"Software": None},
                    bbox_inches=layout.bbox,
                )
            finally:
                fig.set_layout_engine(engine)
    if layout.panels:
        buffer.seek(0)
        _stack_regions(buffer, layout, path)


def save_figure(
    fig,
    name: str,
    out: str | Path,
    *,
    svg: bool = True,
    texts: bool = False,
    narrow: str | Path | None = None,
) -> list[Path]:
    """Write ``fig`` as ``<out>/<name>.png`` (150 dpi) and, with ``svg``, ``.svg``; return the paths (PNG first).
    With ``texts``, the PNG also keeps the texts the figure draws (:func:`figure_texts`): how the other editions'
    figures, saved as PNG only, are checked for their language (``tests/test_figures_zh.py``).

    The figure is laid out (its layout engine, if any) and its tight bounding box found once, at the PNG's
    resolution, for both files (``savefig(..., bbox_inches="tight")`` does it again, in a dry-run draw, for each
    file): the PNG has the same size and layout as with ``bbox_inches="tight"``; a few antialiased pixels of a
    line may differ.

    With ``narrow`` (a folder), the figure is also written as ``<narrow>/<name>.png`` for phones (one more layout
    and PNG, ``_save_narrow``): at a phone column's width, a figure of panels side by side with its panels
    stacked in one column.
    """
    paths = []
    screen_dpi, engine = fig.dpi, fig.get_layout_engine()
    fig.set_dpi(
        FIGURE_DPI
    )  # text extents at the PNG's resolution: the same layout and box savefig finds for it
    try:
        fig.draw_without_rendering()  # runs the figure's layout engine (if any) once, for both files
        bbox = fig.get_tightbbox().padded(mpl.rcParams["savefig.pad_inches"])
    finally:
        fig.set_dpi(screen_dpi)
    # With no layout engine savefig keeps that layout: no second layout and no dry-run draw per file.
    with mpl.rc_context(_SAVE_RC):
        fig.set_layout_engine(None)
        try:
            formats = (("png", {"Software": None}), ("svg", {"Date": None}))[: 2 if svg else 1]
            for ext, meta in formats:
                path = Path(out) / f"{name}.{ext}"
                if ext == "png" and texts:
                    with _drawn_texts() as drawn:
                        fig.savefig(path, dpi=FIGURE_DPI, metadata=meta, bbox_inches=bbox)
                    _add_texts(path, drawn)
                else:
                    fig.savefig(
                        path,
                        dpi=FIGURE_DPI if ext == "png" else None,
                        metadata=meta,
                        bbox_inches=bbox,
                    )
                paths.append(path)
        finally:
            fig.set_layout_engine(engine)
    if narrow is not None:
        _save_narrow(fig, Path(narrow) / f"{name}.png")
    return paths


#: The environment variable that names the languages besides English a run draws its figures in (comma-separated;
#: empty: English only). ``dpcompendium run`` sets it to the language of the rerun's page; unset (the book's
#: executions), every edition's.
FIGURE_LANGUAGES_ENV = "DPCOMPENDIUM_FIGURE_LANGUAGES"


#: Set to 1 where the Chinese figures are required (make test, make book; also whenever ``CI`` is set): a machine
#: without :data:`dpcompendium.core.plotting.CJK_FONT` then fails loudly instead of skipping them.
REQUIRE_CJK_FONT_ENV = "DPCOMPENDIUM_REQUIRE_CJK_FONT"
_said_skipped: set[str] = set()


def cjk_font_required() -> bool:
    """Whether a missing CJK font is an error (:data:`REQUIRE_CJK_FONT_ENV` = 1, or ``CI`` set) rather than the
    Chinese figures skipped with one notice."""
    flag = os.environ.get(REQUIRE_CJK_FONT_ENV, "").strip()
    if flag in ("0", "1"):
        return flag == "1"
    return bool(os.environ.get("CI"))


def drawable_languages(langs: Iterable[str]) -> list[str]:
    """``langs`` without the languages whose figures this machine cannot draw (no CJK font): a notebook run in
    Jupyter on a machine without the font draws its English figures and says once, in plain words, that the Chinese
    ones are skipped and how to get the font. Where the Chinese figures are required (:func:`cjk_font_required`)
    a missing font is a ``RuntimeError`` instead."""
    from ..core.messages import CJK_EDITIONS
    from ..core.plotting import CJK_FONT, CJK_FONT_HINT, cjk_font_available

    keep = []
    for lang in langs:
        if lang not in CJK_EDITIONS or cjk_font_available():
            keep.append(lang)
            continue
        message = f"the {lang} figures need the font {CJK_FONT}, which this machine does not have: {CJK_FONT_HINT}"
        if cjk_font_required():
            raise RuntimeError(
                f"{message} ({REQUIRE_CJK_FONT_ENV}=1 or CI: the book's Chinese figures are required)"
            )
        if lang not in _said_skipped:
            _said_skipped.add(lang)
            print(
                f"Note: {message}. The {lang} figures are skipped; the English ones are drawn as usual.",
                file=sys.stderr,
            )
    return keep


def figure_languages() -> list[str]:
    """The languages a chapter's figures are saved in besides English: the book's other editions
    (:data:`dpcompendium.core.messages.EDITIONS`), or those the environment variable ``DPCOMPENDIUM_FIGURE_LANGUAGES`` names (a rerun draws its
    figures in English and in the language of its page only: a Chinese figure costs one more layout and save)."""
    from ..core.messages import EDITIONS

    wanted = os.environ.get(FIGURE_LANGUAGES_ENV)
    if wanted is None:
        return list(EDITIONS)
    langs = [x.strip() for x in wanted.split(",") if x.strip() and x.strip() != "en"]
    unknown = [x for x in langs if x not in EDITIONS]
    if unknown:
        raise ValueError(
            f"{FIGURE_LANGUAGES_ENV} must name languages among {list(EDITIONS)}, got {wanted!r}"
        )
    return langs


#: The key, in a figure output's ``{"dpcompendium": {...}}`` metadata, of its one-column rendering for phones:
#: ``{"png": <base64>, "width": <CSS px>}`` (:func:`show_figure`; the book serves it to narrow screens,
#: ``dpcompendium.book.execution.extract_narrow_figures``).
NARROW_KEY = "narrow"
#: The folder, under a chapter's output folder (and each language's), of the figures' one-column renderings.
NARROW_DIR = "narrow"


def _display_width(data: bytes) -> int:
    """The CSS width of a PNG of ``FIGURE_DPI`` pixels per inch shown at its physical size."""
    from ..core.plotting import DISPLAY_DPI

    width = int.from_bytes(
        data[16:20], "big"
    )  # the PNG's IHDR chunk; the height follows the aspect
    return round(width * DISPLAY_DPI / FIGURE_DPI)


class LanguageFigures:
    """The saved PNG of a figure in each language, displayed as one output per language, each tagged with its
    language in the output's metadata (``{"dpcompendium": {"lang": "zh_CN"}}``): an edition shows the outputs of
    its language (and the untagged ones) only (:func:`dpcompendium.core.messages.show`). Each PNG is displayed at
    its physical size (:func:`show_figure`). A figure of panels side by side also has its one-column rendering
    in each language (``narrow``), carried in the same output's metadata (:data:`NARROW_KEY`)."""

    def __init__(self, pngs: Mapping[str, Path], narrow: Mapping[str, Path] | None = None):
        self.pngs = dict(pngs)
        self.narrow = dict(narrow or {})

    def image(self, lang: str = "en"):
        """The :class:`IPython.display.Image` of the figure in ``lang``."""
        from IPython.display import Image

        data = Path(self.pngs[lang]).read_bytes()
        return Image(data=data, format="png", width=_display_width(data))

    def metadata(self, lang: str = "en") -> dict[str, Any]:
        """The output metadata of the figure in ``lang``: its language and, if it has one, its one-column
        rendering (:data:`NARROW_KEY`)."""
        import base64

        from ..core.messages import LANG_METADATA

        tag: dict[str, Any] = {"lang": lang}
        if lang in self.narrow:
            data = Path(self.narrow[lang]).read_bytes()
            tag[NARROW_KEY] = {
                "png": base64.b64encode(data).decode("ascii"),
                "width": _display_width(data),
            }
        return {LANG_METADATA: tag}

    def _ipython_display_(self) -> None:
        from IPython.display import display

        from ..core.messages import EDITIONS

        for lang in (
            "en",
            *EDITIONS,
        ):  # as messages.show: a language not drawn shows the English figure
            shown = lang if lang in self.pngs else "en"
            meta = self.metadata(shown)
            meta[next(iter(meta))]["lang"] = lang
            display(self.image(shown), metadata=meta)

    def _repr_png_(self):  # outside IPython's display machinery: the English figure
        return self.image("en")._repr_png_()


def show_figure(fig, name: str, out: str | Path) -> LanguageFigures:
    """Save ``fig`` (:func:`save_figure`) in English (PNG and SVG) and in every other language of the book
    (:func:`figure_languages`, into ``<out>/<lang>/``: the PNG the edition shows, with the texts it draws, and no
    SVG, which no edition shows and which cost as much as the PNG), close it and return the saved PNGs for the
    notebook to display, one output per language (:class:`LanguageFigures`).

    The last line of every figure cell, so the cell's only outputs are the figure. The figure is drawn once: after
    the English files are written, its texts are put in each other language (:func:`~dpcompendium.core.plotting.translate_figure`,
    from the message catalogue) and it is saved again, with a character that no font draws as an
    error (:func:`dpcompendium.core.plotting.strict_glyphs`); a text no template renders stays English, with a
    warning. The PNG shown is the file just written (not drawn again by the inline backend), displayed at its
    physical size: ``FIGURE_DPI`` pixels of the PNG per inch, :data:`dpcompendium.core.plotting.DISPLAY_DPI` (96)
    CSS pixels per inch, so a point of text in the figure is a point on the page (the book's figures are drawn at
    most :data:`dpcompendium.core.plotting.PAGE_WIDTH_IN` inches wide, the content column).

    Every figure is also saved, in each language, in its rendering for phones into ``<out>/narrow/``
    (``<out>/<lang>/narrow/``; :func:`save_figure`'s ``narrow``: a phone column's width, panels side by side
    stacked), which the book shows on a phone instead.
    """
    from matplotlib import pyplot as plt

    from ..core.plotting import strict_glyphs, translate_figure

    narrow: dict[str, Path] = {}

    def keep_narrow(lang: str, folder: Path) -> None:
        path = folder / NARROW_DIR / f"{name}.png"
        if path.is_file():
            narrow[lang] = path

    try:
        (Path(out) / NARROW_DIR / f"{name}.png").unlink(missing_ok=True)
        pngs = {"en": save_figure(fig, name, out, narrow=Path(out) / NARROW_DIR)[0]}
        keep_narrow("en", Path(out))
        for lang in drawable_languages(figure_languages()):
            missing = translate_figure(fig, lang)
            if missing and os.environ.get(
                "DPCOMPENDIUM_FIGURE_TEXTS"
            ):  # collect them for translators
                with open(os.environ["DPCOMPENDIUM_FIGURE_TEXTS"], "a", encoding="utf-8") as f:
                    f.writelines(
                        json.dumps([name, lang, s], ensure_ascii=False) + "\n" for s in missing
                    )
            if missing:
                warnings.warn(
                    f"figure {name!r}: no {lang} template renders {missing!r}; add it to "
                    "dpcompendium/core/figure_messages.py",
                    stacklevel=2,
                )
            folder = Path(out) / lang
            folder.mkdir(exist_ok=True)
            (folder / NARROW_DIR / f"{name}.png").unlink(missing_ok=True)
            with strict_glyphs():
                pngs[lang] = save_figure(
                    fig, name, folder, svg=False, texts=True, narrow=folder / NARROW_DIR
                )[0]
                (folder / f"{name}.svg").unlink(
                    missing_ok=True
                )  # one saved before: not this figure
            keep_narrow(lang, folder)
    finally:
        plt.close(fig)
    return LanguageFigures(pngs, narrow)


def skipped(what: str, why: str) -> str:
    """Print a visible one-line note that ``what`` is skipped for the parameters of this run, and ``why``.

    A chapter calls it where a comparison or a claim only makes sense at some settings (the source's table needs
    its own epsilon values, an assertion holds at the default configuration only), instead of failing.
    """
    note = f"Note: {what} skipped for these parameters because {why}."
    print(note)
    return note


def closest(values: Iterable[float], target: float = 1.0) -> float:
    """The element of ``values`` closest to ``target`` on a log scale (``target`` itself when present)."""
    vals = [float(v) for v in values]
    if not vals:
        raise ValueError("values must be non-empty, got []")
    return min(vals, key=lambda v: (abs(math.log(v / target)), v))


def states_book_claims(
    chapter: str,
    values: Mapping[str, Any],
    *,
    at_least: Mapping[str, float] | None = None,
    free: Iterable[str] = ("output_dir", "n_jobs"),
) -> bool:
    """Whether a run is the configuration the chapter's text states its numeric claims for, so that its assertion
    cells may test them: every parameter of ``chapter`` (its contract, :func:`dpcompendium.book.contract.get_chapter`)
    other than ``free`` and ``at_least`` has its default value in ``values`` (the notebook's ``globals()``), the seed
    included, and each parameter of ``at_least`` is at least its bound (enough repetitions, users, samples). ``free``
    holds what does not change a result: where it is written, and the number of processes.

    At other parameters the claims may not hold, and a reader's run must still end: the text then says what the run
    found (:func:`dpcompendium.book.prose.guarded`), and only the checks that hold at any parameters (Monte-Carlo
    against exact formulas, invariants) are asserted.
    """
    bounds = dict(at_least or {})
    skip = set(free) | set(bounds)
    defaults = get_chapter(chapter).defaults
    return all(values[name] >= bound for name, bound in bounds.items()) and all(
        values[name] == default for name, default in defaults.items() if name not in skip
    )
