"""Issue 49: a rerun page (``dpcompendium run CHAPTER``) hides the cell outputs the book hides.

The book hides a cell's output by its tags (``remove-cell``, ``remove-output``, ``hide-*``; MyST-NB), as it does for
the checked print-outs nbval compares (``nbval-check-output``). The rerun page is built from the executed notebook
with the same tags, and its block of headline numbers on top used to paste those print-outs back as a table. Here,
for every chapter and both editions, the page's notebook is built from the chapter's stored outputs (a run equal to
the book's default one) and no line of a hidden output may appear in anything the page shows."""

from __future__ import annotations

import nbformat
import pytest

from dpcompendium.book.rerun_page import HIDDEN_OUTPUT_TAGS, hides_output, page_notebook
from dpcompendium.chapters.registry import chapter_ids
from dpcompendium.core.paths import repo_root

PROV = {
    "chapter": "x",
    "changed": {},
    "seed": 0,
    "command": "dpcompendium run x",
    "version": "0",
    "commit": "0" * 40,
    "lock_sha256": "0" * 64,
    "date": "2026-01-01 00:00:00 UTC",
    "wall_seconds": 1.0,
}


def _text(cell) -> str:
    parts = []
    for o in cell.get("outputs", []):
        if o.get("output_type") == "stream":
            parts.append(o.get("text", ""))
        else:
            parts += [str(v) for k, v in o.get("data", {}).items() if k.startswith("text/")]
    return "".join(parts)


def _lines(text: str) -> set[str]:
    return {ln.strip() for ln in text.splitlines() if len(ln.strip()) >= 30}


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
@pytest.mark.parametrize("chapter", chapter_ids())
def test_rerun_page_shows_no_output_the_book_hides(chapter, lang):
    nb = nbformat.read(repo_root() / "notebooks" / f"{chapter}.ipynb", as_version=4)
    hidden_cells = [c for c in nb.cells if c.cell_type == "code" and hides_output(c)]
    hidden = set().union(*(_lines(_text(c)) for c in hidden_cells))
    checked = [c for c in hidden_cells if "keep_output" in c.metadata.get("tags", [])]
    assert checked and hidden, f"{chapter}: no hidden checked output to test with"
    page = page_notebook(nb, nb, PROV, lang)
    shown = "\n".join(
        c.source if c.cell_type != "code" else _text(c)
        for c in page.cells
        if c.cell_type != "code" or not hides_output(c)
    )
    leaked = sorted(line for line in hidden if line in shown)
    assert not leaked, f"{chapter} ({lang}): the rerun page shows hidden outputs: {leaked[:3]}"
    # the page's cells keep the tags that hide them, as in the book
    page_hidden = {c.get("id") for c in page.cells if c.cell_type == "code" and hides_output(c)}
    assert {c.get("id") for c in hidden_cells} <= page_hidden
    # the headline block says how many checked outputs it does not show, and how many are the same
    top = next(c.source for c in page.cells if c.cell_type == "markdown")
    n = len(checked)
    expected = (
        f"This rerun's {n} checked outputs" if lang == "en" else f"本次重新运行的 {n} 个受检输出"
    )
    assert expected in top, top[:2000]
    assert (f"{n} of them read the same" if lang == "en" else f"其中 {n} 个") in top


def test_hidden_output_tags_are_the_books():
    """The tags are those MyST-NB hides an output by (remove-*, hide-*), and every checked print-out of the book
    carries one (else the book page would show it, which issue 49 forbids)."""
    assert {"remove-cell", "remove-output", "hide-output", "hide-cell"} == HIDDEN_OUTPUT_TAGS
    for path in [
        *sorted((repo_root() / "notebooks").glob("*.ipynb")),
        repo_root() / "book" / "primer.ipynb",
    ]:
        nb = nbformat.read(path, as_version=4)
        for c in nb.cells:
            if "nbval-check-output" in c.metadata.get("tags", []):
                assert hides_output(c), (
                    f"{path.name}: checked cell {c.get('id')} is shown in the book"
                )
