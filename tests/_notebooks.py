"""Small chapter notebooks built by the tests (a toy chapter, a mini repository): one way to write them."""

from __future__ import annotations

import nbformat


def parameters_cell(source: str) -> nbformat.NotebookNode:
    """A code cell tagged ``parameters`` (papermill's), holding a chapter's typed parameters."""
    cell = nbformat.v4.new_code_cell(source)
    cell.metadata["tags"] = ["parameters"]
    return cell


def chapter_notebook(cells: list[nbformat.NotebookNode]) -> nbformat.NotebookNode:
    """A notebook of ``cells`` that runs on the ``python3`` kernel, as the book's chapters do."""
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3",
        "language": "python",
    }
    nb.cells = cells
    return nb
