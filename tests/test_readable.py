"""Pages a reader can read (issue 28), the checks that need no built book: figure text no smaller than 8 pt (no
``fontsize=`` below 8 in a notebook or in the library, a style whose sizes are all at least 8 pt), figures drawn for
the content column in rows of at most three panels, every figure with an alt text, the chapters' checks collapsed,
``save_table`` showing nothing in a notebook, claims shown as a table. What the reader sees in the built pages
(nothing scrolls sideways, figures at their physical size, no build path) is checked in Chromium by
``tests/test_book_browser.py``; the PDF by ``tests/test_book_pdf.py``."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import matplotlib
import pytest

matplotlib.use("Agg")

from _chapter_ids import DP_MEAN

import dpcompendium.chapters  # noqa: F401  (registers the chapters' methods: dpcompendium.core.methods)
from dpcompendium.book import chapter
from dpcompendium.core import plotting
from dpcompendium.core.privacy import PrivacyClaim, show_claims

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb")) + sorted((ROOT / "book").glob("*.ipynb"))
#: ``fontsize=`` with a number, or a relative size that is below 8 pt at the style's 9 pt base.
FONTSIZE = re.compile(r"fontsize\s*=\s*([0-9.]+|['\"](?:xx-small|x-small|small)['\"])")
HIDDEN = {"hide-input", "remove-input", "hide-cell", "remove-cell"}


def code_cells(path: Path) -> list[dict]:
    nb = json.loads(path.read_text(encoding="utf8"))
    return [c for c in nb["cells"] if c["cell_type"] == "code"]


def small_fontsizes(text: str) -> list[str]:
    """The ``fontsize=`` arguments in ``text`` below plotting.MIN_FONT_PT."""
    bad = []
    for m in FONTSIZE.finditer(text):
        value = m.group(1)
        if value[0] in "'\"" or float(value) < plotting.MIN_FONT_PT:
            bad.append(m.group(0))
    return bad


def test_small_fontsize_pattern():
    assert small_fontsizes("ax.legend(fontsize=7); t(fontsize = 6.5); u(fontsize='small')") == [
        "fontsize=7",
        "fontsize = 6.5",
        "fontsize='small'",
    ]
    assert small_fontsizes("ax.legend(fontsize=9); ax.text(0, 0, 's', fontsize=9.5)") == []
    assert small_fontsizes("ax.legend(fontsize=8.5)") == ["fontsize=8.5"]  # issue 49: 9 pt


def test_no_fontsize_below_the_minimum_in_notebooks_or_library():
    found = {}
    for nb in NOTEBOOKS:
        for i, cell in enumerate(code_cells(nb)):
            if bad := small_fontsizes("".join(cell["source"])):
                found[f"{nb.name} code cell {i}"] = bad
    for py in sorted((ROOT / "src" / "dpcompendium").rglob("*.py")):
        if bad := small_fontsizes(py.read_text(encoding="utf8")):
            found[str(py.relative_to(ROOT))] = bad
    assert not found, f"fontsize below {plotting.MIN_FONT_PT:g} pt: {found}"


def test_book_style_text_is_at_least_the_minimum_and_the_figure_fits_the_column():
    with plotting.book_style():
        rc = matplotlib.rcParams
        from matplotlib.font_manager import FontProperties

        sizes = {
            k: FontProperties(size=rc[k]).get_size_in_points()
            for k in rc
            if ((k.endswith("size") and "font" in k) or k.endswith("labelsize"))
            and not k.startswith(("lines.", "boxplot."))
            and rc[k] is not None
        }
        assert min(sizes.values()) >= plotting.MIN_FONT_PT, sizes
        assert rc["figure.figsize"][0] <= plotting.PAGE_WIDTH_IN
        assert rc["savefig.dpi"] == chapter.FIGURE_DPI
        colors = rc["axes.prop_cycle"].by_key()["color"]
        assert {c.lower().lstrip("#") for c in colors} <= {
            c.lower().lstrip("#") for c in plotting.OKABE_ITO.values()
        }
    assert plotting.PAGE_WIDTH_IN * plotting.DISPLAY_DPI <= 720


def test_panels_rows_of_at_most_three():
    import matplotlib.pyplot as plt

    for n, shape in ((1, (1, 1)), (2, (1, 2)), (3, (1, 3)), (4, (2, 2)), (5, (2, 3)), (10, (4, 3))):
        fig, axes = plotting.panels(n)
        try:
            assert len(axes) == n
            gs = axes[0].get_subplotspec().get_gridspec()
            assert (gs.nrows, gs.ncols) == shape, n
            assert fig.get_size_inches()[0] == pytest.approx(plotting.PAGE_WIDTH_IN)
        finally:
            plt.close(fig)
    fig, axes = plotting.panels(5, spare=True)
    assert len(axes) == 6 and not axes[-1].axison
    plt.close(fig)
    with pytest.raises(ValueError, match="n must be at least 1, got 0"):
        plotting.panels(0)


def test_method_colours_are_the_palette():
    assert plotting.method_color("AHP") == plotting.method_color("ahp") == plotting.OKABE_ITO["sky"]
    assert set(plotting.METHOD_COLORS.values()) <= set(plotting.OKABE_ITO.values())
    assert plotting.method_color("nothing-like-it") == plotting.OKABE_ITO["grey"]


def test_a_method_is_drawn_the_same_in_every_chapter():
    """method_style: the palette's colour, dashed for a corrected variant, dotted for a noise-only reference, the
    method's own marker and label where it has one, and plain defaults for a method the tables do not know."""
    style = plotting.method_style
    assert style("composition", "corrected") == {
        "color": plotting.OKABE_ITO["blue"],
        "ls": "--",
        "marker": ".",
        "label": "composition (corrected)",
    }
    assert style("composition", "as-written")["ls"] == "-"
    assert style("laplace-public-n", "as-written")["ls"] == ":"
    assert style("pm") == {
        "color": plotting.OKABE_ITO["green"],
        "ls": "-",
        "marker": "s",
        "label": "PM",
    }
    assert style("Hiera")["label"] == "HierA (source's budgets)"
    assert style("nothing-like-it", "other") == {
        "color": plotting.OKABE_ITO["grey"],
        "ls": "-",
        "marker": ".",
        "label": "nothing-like-it (other)",
    }
    assert set(plotting.METHOD_LABELS) | set(plotting.METHOD_MARKERS) <= set(plotting.METHOD_COLORS)


@pytest.mark.parametrize("nb", NOTEBOOKS, ids=lambda p: p.stem)
def test_every_figure_has_an_alt_text(nb):
    """MyST-NB's ``mystnb.image.alt`` in the figure cell's metadata: a sentence, not the caption's TeX."""
    n = 0
    for cell in code_cells(nb):
        meta = cell["metadata"].get("mystnb") or {}
        if "figure" not in meta:
            continue
        n += 1
        alt = (meta.get("image") or {}).get("alt", "")
        assert len(alt) >= 40 and "$" not in alt and "\\" not in alt, (
            f"{nb.name}: figure {meta['figure'].get('name')!r} needs an alt text saying what it shows "
            f"(mystnb.image.alt), got {alt!r}"
        )
    assert n > 0


def is_check(stmt: ast.stmt) -> bool:
    """An assertion, or an if/for whose body holds assertions and nothing a reader sees (no call but print)."""
    if isinstance(stmt, ast.Assert):
        return True
    if isinstance(stmt, (ast.If, ast.For)):
        body = stmt.body + stmt.orelse
        return any(is_check(b) for b in body) and all(
            is_check(b) or isinstance(b, (ast.Assign, ast.Expr)) for b in body
        )
    return False


def checks_only(source: str) -> bool:
    """A cell that only checks: assignments and assertions, at least one assertion, nothing displayed."""
    source = "\n".join("" if line.startswith("%") else line for line in source.splitlines())
    body = ast.parse(source).body
    return (
        any(isinstance(n, ast.Assert) for n in ast.walk(ast.Module(body=body, type_ignores=[])))
        and all(is_check(s) or isinstance(s, ast.Assign) for s in body)
        and not any(
            isinstance(n, ast.Call) and getattr(n.func, "id", getattr(n.func, "attr", "")) in
            {"glue", "save_table", "show_figure", "display"}
            for n in ast.walk(ast.Module(body=body, type_ignores=[]))
        )
    )  # fmt: skip


def test_checks_only_recognises_scaffolding():
    assert checks_only("x = f()\nassert x > 1\nif CHECK:\n    assert g(x) < 2  # why")
    assert not checks_only("x = f()\nassert x > 1\nx")
    assert not checks_only("glue('k', 1, display=False)\nassert True")
    assert not checks_only("print(1)")


@pytest.mark.parametrize("nb", NOTEBOOKS, ids=lambda p: p.stem)
def test_checks_are_collapsed(nb):
    """The cells that only check the chapter's claims run (and fail the build when a claim fails) but are
    not on the page (``remove-cell``, ``tools/nbtidy.py``): the page reads as a method."""
    shown = []
    for i, cell in enumerate(code_cells(nb)):
        tags = set(cell["metadata"].get("tags", []))
        if "parameters" in tags or tags & HIDDEN:
            continue
        if checks_only("".join(cell["source"])):
            shown.append(f"code cell {i}: {''.join(cell['source'])[:60]!r}")
    assert not shown, (
        f"{nb.name}: cells that only check, shown to the reader (tag them remove-cell: tools/nbtidy.py): {shown}"
    )


def test_save_table_shows_nothing_in_a_notebook(tmp_path):
    import pandas as pd
    from IPython.core.formatters import DisplayFormatter

    path = chapter.save_table(pd.DataFrame({"a": [1.5]}), "t", tmp_path)
    assert isinstance(path, Path) and path.read_text() == "a\n1.5\n"
    assert DisplayFormatter().format(path) == ({}, {})  # IPython displays nothing for it
    assert (path.parent / "x").name == "x"


def test_show_claims_is_a_table_with_the_conditions_as_a_list():
    ok = PrivacyClaim("laplace", "add-remove", "1", 0.5, conditions=("n public", "x in [0, 1]"))
    bad = PrivacyClaim("raw", "replace-one", "1", 1.0, private=False, why="no noise")
    view = show_claims({"a": ok, "b": bad})
    html = view._repr_html_()
    # the two conditions, and the private row's idealised real arithmetic (referee 10, V11)
    assert html.count("<tr>") == 3 and html.count("<li>") == 3
    math = '<span class="math notranslate nohighlight">'
    assert (
        f"{math}\\(0.5\\)</span>-DP" in html and "no noise" in html
    )  # typeset: MathJax's math spans
    assert f"<em>not</em> {math}\\(1\\)</span>-DP" in html
    text = repr(view)
    assert "a (laplace): 0.5-DP under add-remove neighbours" in text and "  - n public" in text
    assert max(len(line) for line in text.splitlines()) < 80


def test_run_pdf_without_chromium_is_refused_before_anything_runs(tmp_path):
    import os
    import subprocess
    import sys

    exe = Path(sys.executable).with_name("dpcompendium")
    env = {**os.environ, "DPCOMPENDIUM_CHROMIUM": str(tmp_path / "no-chromium")}
    proc = subprocess.run(
        [str(exe), "run", DP_MEAN, "--out", str(tmp_path / "out"), "--pdf"],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 2 and "--pdf needs Chromium" in proc.stderr, proc.stderr
    assert not (tmp_path / "out").exists()


def test_a_claims_label_does_not_split_at_a_bracket_inside_maths():
    """The claims table's label says a word once by merging the qualifiers of name and mechanism; a mechanism whose
    maths holds brackets ("$\\exp((n\\varepsilon/2) …)$ … (exponential mechanism, $k = 1$)") kept its own qualifier:
    the label is read up to the bracket that closes it outside maths (referee 15's build: PPCA's label had
    "(exponential mechanism, k = 1," inside its formula and widened federated-pca's claims table by 230 px)."""
    from dpcompendium.core.privacy import _claim_label

    mech = (
        "PPCA: one direction $v$ drawn with density $\\propto \\exp((n\\varepsilon/2)\\, v^\\top A v)$ on the "
        "unit sphere (exponential mechanism, $k = 1$)"
    )
    # the method's name carries the same qualifier without maths: said once, with its maths
    label = _claim_label("PPCA (exponential mechanism, k = 1)", mech, " (", ")", ", ")
    assert label == mech
    assert label.count("$") % 2 == 0 and "\\exp((n" in label
    # qualifiers outside maths still merge, as before
    assert (
        _claim_label("CAPE (calibrated)", "CAPE (per-message calibration)", " (", ")", ", ")
        == "CAPE (calibrated, per-message calibration)"
    )
    assert _claim_label("Analyze Gauss", "Analyze Gauss (central)", " (", ")", ", ") == (
        "Analyze Gauss (central)"
    )
