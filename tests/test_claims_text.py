"""No hand-typed privacy guarantee in the chapters where a claim object states it (issue 15).

A guarantee typed into a chapter's prose can drift from the code; a claim object cannot. In every chapter, a line of
markdown that states a guarantee ("ε-DP", "$\\varepsilon$-LDP", "(ε, δ)-DP", "$2.17\\varepsilon$-DP" …) is allowed only

(a) inside a sphinx-proof block (``{prf:definition}``, ``{prf:theorem}``, ``{prf:proof}`` …): general mathematics,
    parametrized by ε and proved, not a verdict about this chapter's run;
(b) inside an exercise or a solution (``{exercise}``/``{solution}``, or the gated ``{exercise-start}`` …
    ``{solution-end}``): coursework asks students to prove a guarantee;
(c) in a statement of what a *source* claims: the chapter's "source and what it claims" cell, and every column but
    the verdict column of its comparison/errata tables.

Everything else — the book's own verdict about a method of the chapter — is rendered from a claim object: a
``{glue:text}`` of ``PrivacyClaim.statement()`` glued in a code cell, or a table rendered by ``claims_table``.
Each chapter must therefore call its claim renderers.
"""

from __future__ import annotations

import html
import re
from pathlib import Path

import nbformat
import pytest
from _chapter_ids import PRIVACY_AUDIT

from dpcompendium.chapters.registry import manifests

ROOT = Path(__file__).resolve().parents[1]
#: "…)-DP", "…$\varepsilon$-DP", "…}$-LDP", "ε-DP", "ε₂-DP", "2ε-DP", "(ε₂/m_j)-DP"
GUARANTEE = re.compile(r"(\)|\\varepsilon|\}|ε[₀-₉]*|[0-9])\$?-L?DP\b")
FENCE = re.compile(r"^\s*(?P<mark>`{3,}|:{3,})\s*(?P<info>.*?)\s*$")
DIRECTIVE = re.compile(r"^\{(?P<kind>[^}\s]+)\}")
#: directive blocks whose content may state guarantees: proved mathematics and coursework
ALLOWED_BLOCKS = re.compile(r"^(prf:.+|exercise|solution)$")

#: per chapter, from the ``[claims]`` table of its manifest: "the source and what it claims" cell (everything in
#: it states what a source says); the comparison/errata tables (cell id -> index of the verdict column, the only one
#: that may not type a guarantee); the calls that render its guarantees from claim objects
CLAIMS = {m.id: m.claims for m in manifests(ROOT)}
SOURCE_CELLS = {cid: c["source_cell"] for cid, c in CLAIMS.items()}
SOURCE_TABLE_CELLS = {cid: c.get("source_tables", {}) for cid, c in CLAIMS.items()}
RENDERERS = {cid: tuple(c["renderers"]) for cid, c in CLAIMS.items()}
NOTEBOOK = {m.id: ROOT / m.notebook for m in manifests(ROOT)}
CHAPTERS = sorted(SOURCE_CELLS)


def _columns(line: str) -> list[str]:
    return line.strip().strip("|").split("|")


def allowed_lines(text: str) -> list[bool]:
    """For each line of a markdown cell: is it inside a proof/definition, an exercise or a solution?

    Parses MyST fences (backticks or colons, nested; a fence closes with a bare fence of the same character at
    least as long) and sphinx-exercise's gated ``{exercise-start}`` … ``{exercise-end}`` (and ``solution-``) pairs,
    whose content lies *between* two directives.
    """
    stack: list[tuple[str, int, str]] = []  # (fence character, length, directive kind or "")
    gated: list[str] = []  # open gated blocks
    out = []
    for line in text.splitlines():
        m = FENCE.match(line)
        inside = any(ALLOWED_BLOCKS.match(k) for _, _, k in stack) or bool(gated)
        if m:
            mark, info = m.group("mark"), m.group("info")
            top = stack[-1] if stack else None
            if not info and top and top[0] == mark[0] and len(mark) >= top[1]:
                stack.pop()
                out.append(inside)
                continue
            d = DIRECTIVE.match(info)
            kind = d.group("kind") if d else ""
            gate = re.fullmatch(r"(exercise|solution)-(start|end)", kind)
            if gate and gate.group(2) == "start":
                gated.append(gate.group(1))
            elif gate and gated and gated[-1] == gate.group(1):
                gated.pop()
            # a fenced block (a directive or code) opens; the gated directives are one-line blocks too
            stack.append((mark[0], len(mark), kind))
            out.append(inside or bool(ALLOWED_BLOCKS.match(kind)))
            continue
        out.append(inside)
    return out


def hand_typed_guarantees(name: str) -> list[str]:
    nb = nbformat.read(NOTEBOOK[name], as_version=4)
    tables = SOURCE_TABLE_CELLS.get(name, {})
    bad = []
    for cell in nb.cells:
        if cell.cell_type != "markdown" or cell.id == SOURCE_CELLS.get(name):
            continue
        for line, ok in zip(cell.source.splitlines(), allowed_lines(cell.source), strict=True):
            if ok or not GUARANTEE.search(line):
                continue
            if cell.id in tables and line.lstrip().startswith("|"):
                cols = _columns(line)
                verdict = tables[cell.id]
                if -len(cols) <= verdict < len(cols) and not GUARANTEE.search(cols[verdict]):
                    continue
            bad.append(f"{cell.id}: {line.strip()}")
    return bad


def test_the_parser_knows_proofs_exercises_and_code_fences():
    text = "\n".join(
        [
            "a verdict: $\\varepsilon$-DP",  # 0: not allowed
            ":::{prf:theorem} T",
            "is $\\varepsilon$-DP",  # 2
            ":::",
            "::::{exercise} E",
            "prove $\\varepsilon$-DP",  # 5
            "::::",
            "::::{solution} ex",
            "```python",
            "x = 1  # eps-DP",  # 9
            "```",
            "still the solution",  # 11
            "::::",
            "outside again",  # 13
            "```{exercise-start}",
            ":label: ex",
            "```",
            "gated exercise text",  # 17
            "```{exercise-end}",
            "```",
            "after the gate",  # 20
            "```{note}",
            "a note is not a proof",  # 22
            "```",
        ]
    )
    ok = allowed_lines(text)
    assert [ok[i] for i in (0, 2, 5, 9, 11, 13, 17, 20, 22)] == [
        False,
        True,
        True,
        True,
        True,
        False,
        True,
        False,
        False,
    ]


def test_the_pattern_finds_typed_guarantees():
    for s in (
        "is $\\varepsilon$-DP",
        "about $2.17\\varepsilon$-DP",
        "exactly $3.7$–$4\\varepsilon$-LDP per report",
        "$(\\varepsilon,\\delta)$-DP",
        "the whole release is $\\tfrac34\\varepsilon$-DP",
        "makes it ε-DP",
        "(ε₂/m_j)-DP",
        "S5 is ε₂-DP",
        "the code is 2ε-DP",
    ):
        assert GUARANTEE.search(s), s
    assert not GUARANTEE.search("the LDP literature; DP-SGD")


@pytest.mark.parametrize("name", CHAPTERS)
def test_no_hand_typed_guarantees(name):
    bad = hand_typed_guarantees(name)
    assert not bad, "hand-typed guarantees (render them from a claim object):\n" + "\n".join(bad)


@pytest.mark.parametrize("name", CHAPTERS)
def test_guarantees_are_rendered_from_claim_objects(name):
    nb = nbformat.read(NOTEBOOK[name], as_version=4)
    code = "\n".join(c.source for c in nb.cells if c.cell_type == "code")
    for call in RENDERERS[name]:
        assert call in code, (name, call)


@pytest.mark.parametrize("name", CHAPTERS)
def test_every_glued_claim_is_pasted_and_every_paste_is_glued(name):
    nb = nbformat.read(NOTEBOOK[name], as_version=4)
    code = "\n".join(c.source for c in nb.cells if c.cell_type == "code")
    text = "\n".join(c.source for c in nb.cells if c.cell_type == "markdown")
    glued = set(re.findall(r"""glue\(\s*f?["']([\w-]+)["']""", code))
    pasted = set(re.findall(r"\{glue(?::\w+)?\}`([\w-]+)(?::[^`]*)?`", text))
    # a generated table is pasted by the directive (issue 49, F2): ```{glue:md} key, at a line's start or indented
    # in a list item
    pasted |= set(re.findall(r"^[ \t]*```\{glue:md\} ([\w-]+)$", text, re.M))
    assert pasted <= glued, f"{name}: pasted but never glued: {sorted(pasted - glued)}"
    assert glued <= pasted, f"{name}: glued but never pasted: {sorted(glued - pasted)}"


def test_privacy_audit_no_longer_calls_the_classical_gaussian_an_inefficiency_only():
    nb = nbformat.read(ROOT / "notebooks" / f"{PRIVACY_AUDIT}.ipynb", as_version=4)
    text = "\n".join(c.source for c in nb.cells if c.cell_type == "markdown")
    assert "which is an inefficiency, not a violation" not in text


@pytest.mark.integration  # a Sphinx build of a one-cell page (~5 s)
def test_the_rerun_page_pastes_glued_claims(tmp_path):
    """The rerun page pastes glued claims as the book does, from a cell the page removes (``remove-cell``), inside
    a table cell too (a pasted "|" does not split it)."""
    from dpcompendium import PrivacyClaim
    from dpcompendium.book.rerun_page import build_page, glued_values, page_notebook

    claim = PrivacyClaim("m_1*", "add-remove", "sum: max(|a|,|b|) = 200", 2.0)
    nb = nbformat.v4.new_notebook()
    code = nbformat.v4.new_code_cell('glue("k", claim.statement(), display=False)')
    code.metadata["tags"] = ["remove-cell"]
    code.outputs = [
        nbformat.v4.new_output(
            "display_data",
            data={"application/papermill.record/text/plain": repr(claim.statement())},
            metadata={"scrapbook": {"name": "k", "mime_prefix": "application/papermill.record/"}},
        )
    ]
    md = nbformat.v4.new_markdown_cell(
        "# A chapter\n\n| a | b |\n|---|---|\n| x | {glue:text}`k` |\n\nsaid: {glue:text}`k`."
    )
    nb.cells = [md, code]
    nb.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3",
        "language": "python",
    }
    assert glued_values(nb) == {"k": claim.statement()}
    prov = {
        "changed": {},
        "seed": 0,
        "command": "dpcompendium run x --seed 0",
        "version": "0",
        "commit": "x",
        "lock_sha256": "0",
        "date": "d",
        "wall_seconds": 1,
    }
    page, warnings = build_page(page_notebook(nb, nb, prov), tmp_path, "notebooks/x", "A chapter")
    text = page.read_text()
    assert not warnings, warnings
    pasted = html.escape(claim.statement(), quote=False)  # m_1*: 2-DP … max(|a|,|b|) = 200)
    assert text.count(f'<span class="pasted-text">{pasted}</span>') == 2
    assert "{glue" not in text and "`k`" not in text
    cells = re.findall(r"<td[^>]*>(.*?)</td>", text, re.S)
    assert any(pasted in c for c in cells) and not any(c.strip().startswith("x |") for c in cells)
    assert "glue(" not in text  # the removed cell is not shown
