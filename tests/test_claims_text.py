"""No hand-typed privacy guarantee in the chapters where a claim object states it (issue 15).

A guarantee typed into a chapter's prose can drift from the code; a claim object cannot. In the federated-PCA and
privacy-audit chapters every "(ε, δ)-DP"/"ε-DP" in the markdown must be either a definition, or a statement of what a
*source* claims (the chapter's "source and what it claims" cell and the first column of its comparison table); the
guarantees of the book's own methods are rendered from ``privacy_claim``/``gaussian_claim`` in code cells. Those
chapters must therefore render claims from objects (``claims_table``/``statement``/``gaussian_claim``).
"""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[1]
GUARANTEE = re.compile(r"(\)|\\varepsilon|\})\$?-L?DP\b")

#: cells allowed to type guarantees: definitions and the sources' own claims
ALLOWED = {
    "federated-pca": {"167d7d43": "all"},  # "The source and what it claims"
    "privacy-audit": {"bf0fffb5": "all"},  # the definition of (eps, delta)-DP
}
#: comparison tables: the columns before the last state the source's claim; the last (the verdict) must not type one
SOURCE_TABLE_CELLS = {"federated-pca": "51f217e1", "privacy-audit": "98baee0d"}
RENDERERS = {
    "federated-pca": ("claims_table(", ".statement", "privacy_claim("),
    "privacy-audit": ("gaussian_claim(", "run_catalog("),
}


def _columns(line: str) -> list[str]:
    return [c for c in line.strip().strip("|").split("|")]


@pytest.mark.parametrize("name", sorted(ALLOWED))
def test_no_hand_typed_guarantees(name):
    nb = nbformat.read(ROOT / "notebooks" / f"{name}.ipynb", as_version=4)
    bad = []
    for cell in nb.cells:
        if cell.cell_type != "markdown" or ALLOWED[name].get(cell.id) == "all":
            continue
        for line in cell.source.splitlines():
            if not GUARANTEE.search(line):
                continue
            is_table_row = line.lstrip().startswith("|")
            if (
                is_table_row
                and SOURCE_TABLE_CELLS[name] == cell.id
                and not GUARANTEE.search(_columns(line)[-1])
            ):
                continue
            bad.append(line.strip())
    assert not bad, "hand-typed guarantees:\n" + "\n".join(bad)


@pytest.mark.parametrize("name", sorted(RENDERERS))
def test_guarantees_are_rendered_from_claim_objects(name):
    nb = nbformat.read(ROOT / "notebooks" / f"{name}.ipynb", as_version=4)
    code = "\n".join(c.source for c in nb.cells if c.cell_type == "code")
    for call in RENDERERS[name]:
        assert call in code, (name, call)


def test_privacy_audit_no_longer_calls_the_classical_gaussian_an_inefficiency_only():
    nb = nbformat.read(ROOT / "notebooks" / "privacy-audit.ipynb", as_version=4)
    text = "\n".join(c.source for c in nb.cells if c.cell_type == "markdown")
    assert "which is an inefficiency, not a violation" not in text
