"""Scaffolding off the page (issue 33): the notebook convention holds for every chapter, and the rules behind it."""

from __future__ import annotations

import math
from pathlib import Path

import nbformat
import pytest

from dpcompendium.book.execution import EXECUTED_NOTEBOOKS
from dpcompendium.book.tidy import (
    GLUE_IMPORT,
    SHOW_CODE,
    display_source,
    folds,
    is_scaffolding,
    nice_float,
    tidy_markdown,
    tidy_notebook,
)

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted(p for pattern in EXECUTED_NOTEBOOKS for p in ROOT.glob(pattern))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_chapter_follows_the_convention(path):
    """Scaffolding cells are ``remove-cell``, glue comes from ``dpcompendium.book.prose`` and the text pastes with
    ``{glue:md}``: ``tools/nbtidy.py`` would change nothing (run it to fix a chapter)."""
    nb = nbformat.read(path, as_version=4)
    changes = tidy_notebook(nb)
    assert not changes, f"{path.name}: run .venv/bin/python tools/nbtidy.py ({'; '.join(changes)})"


def test_tidy_is_idempotent_and_tags_scaffolding():
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_code_cell(
            "seed = 1  # root seed [min 0]", metadata={"tags": ["parameters"]}
        ),
        nbformat.v4.new_code_cell(
            "from myst_nb import glue\nimport numpy as np\nx = np.ones(3)\nx"
        ),
        nbformat.v4.new_code_cell(
            "# numbers of the text\nglue('k', prose.num(x.sum()), display=False)"
        ),
        nbformat.v4.new_code_cell("if CHECK:\n    assert x.sum() == 3"),
        nbformat.v4.new_code_cell("x.sum()"),
        nbformat.v4.new_markdown_cell("The sum is {glue:text}`k`, or {glue:text}`k:.2f`."),
    ]
    changes = tidy_notebook(nb)
    assert changes and not tidy_notebook(nb)
    assert nb.cells[1].source.splitlines()[0] == GLUE_IMPORT
    tags = [c.metadata.get("tags", []) for c in nb.cells]
    assert tags == [["parameters"], [], ["remove-cell"], ["remove-cell"], [], []]
    assert nb.cells[5].source == "The sum is {glue:md}`k:myst`, or {glue:text}`k:.2f`."


@pytest.mark.parametrize(
    ("source", "scaffolding"),
    [
        ("glue('k', 1, display=False)", True),
        ("v = f(x)\nglue('k', prose.num(v), display=False)", True),
        (
            "if len(t):\n    glue('k', t, display=False)\nelse:\n    glue('k', 'n/a', display=False)",
            True,
        ),
        ("import warnings\nwarnings.filterwarnings('ignore')", True),
        ("%matplotlib inline\n# just a comment", True),
        ("assert x > 1", True),
        ("v = f(x)\nv", False),
        ("glue('k', 1, display=False)\nshow_figure(fig, 'a', out)", False),
        ("import numpy as np\nout = output_dir(output_dir, 'x')", False),
        ("v = f(x)", False),
    ],
)
def test_is_scaffolding(source, scaffolding):
    assert is_scaffolding(source) is scaffolding


def test_display_source_leaves_scaffolding_out_of_a_shown_cell():
    source = (
        "%matplotlib inline\n"
        "import math\n"
        "import warnings\n"
        "\n"
        "warnings.filterwarnings(\n"
        '    "ignore", message="IProgress not found"\n'
        ")  # tqdm without ipywidgets\n"
        "from dpcompendium.book.prose import glue\n"
        "\n"
        "x = 1  # fmt: skip\n"
        "# the verdicts of the text: {glue:text} in the markdown\n"
        "glue(\n"
        '    "k", x, display=False,\n'
        ")\n"
        "show(x)\n"
    )
    assert display_source(source) == "import math\n\nx = 1\nshow(x)"


def test_display_source_hides_nested_scaffolding_and_checks():
    source = (
        "rows = []\n"
        "for e in (0.5, 0.9):\n"
        "    with (\n"
        "        warnings.catch_warnings()\n"
        "    ):  # the classical formula warns\n"
        '        warnings.simplefilter("ignore", UserWarning)\n'
        "        rows.append(f(e))\n"
        "if check_text:\n"
        "    assert rows\n"
        "if rows:\n"
        "    glue('a', rows[0], display=False)\n"
        "else:\n"
        "    glue('a', 'n/a', display=False)\n"
        "show(rows)\n"
    )
    assert (
        display_source(source)
        == "rows = []\nfor e in (0.5, 0.9):\n    rows.append(f(e))\nshow(rows)"
    )


def test_parameters_show_as_written():
    source = (
        "# dpcompendium run reads one `name = value  # help [constraint]` line per parameter\n"
        "# fmt: off\n"
        "epsilons = [0.6931471805599453, 1.0, 1.5]  # budgets [>0]\n"
    )
    assert (
        display_source(source, parameters=True)
        == "epsilons = [math.log(2), 1.0, 1.5]  # budgets [>0]"
    )
    assert nice_float(math.log(2)) == "math.log(2)" and nice_float(0.05) == "0.05"
    assert nice_float(1 / 3) == "1 / 3" and nice_float(0.123456789012) == "0.123457"


def test_tidy_markdown_keeps_format_specs():
    assert tidy_markdown("{glue:text}`a` {glue:text}`b:.3g` {glue}`c`") == (
        "{glue:md}`a:myst` {glue:text}`b:.3g` {glue}`c`"
    )


def test_folds_computing_code_and_shows_teaching_code():
    """The book folds every code cell's source but the teaching ones (show-code), the parameters cell and those
    whose code a tag already keeps off the page."""
    assert folds([]) and folds(None) and folds(["keep_output", "nbval-check-output"])
    assert not folds([SHOW_CODE]) and not folds(["parameters"])
    assert not any(folds([t]) for t in ("hide-input", "remove-input", "hide-cell", "remove-cell"))


def test_fold_marks_cells_in_the_doctree():
    """The doctree step: a code cell's container gets MyST-NB's hide mode (its source behind the edition's button),
    a show-code cell is left as it is."""
    from types import SimpleNamespace

    from docutils import nodes

    from dpcompendium.book.tidy import _fold

    def cell(tags):
        c = nodes.container(nb_element="cell_code", cell_metadata={"tags": tags}, classes=["cell"])
        c += nodes.container(nb_element="cell_code_source", classes=["cell_input"])
        return c

    doc = nodes.section()
    computing, teaching = cell([]), cell([SHOW_CODE])
    doc += [computing, teaching]
    app = SimpleNamespace(
        config=SimpleNamespace(nb_code_prompt_show="显示代码", nb_code_prompt_hide="隐藏代码")
    )
    _fold(app, doc)
    assert computing["hide_mode"] == "input" and computing["prompt_show"] == "显示代码"
    assert "dpc-folded" in computing["classes"]
    assert not teaching.get("hide_mode")
