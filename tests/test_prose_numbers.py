"""No number that the run computes is typed into a chapter's prose (issue 26).

A rerun with other parameters must not print the default run's numbers. So a number in a markdown cell is either
pasted from the run (``{glue:text}`key` ``, ``{glue}`key` ``: MyST-NB glue of a value computed in a code cell), or it
is one of the numbers that do not depend on the run, and then it is listed below with the reason:

- anything inside math (``$…$``, ``$$…$$``: formulas, theorem constants), a role (citations, references, pastes),
  inline code or a code block (commands and code the reader types), a link target;
- a sphinx-proof block, an exercise or a solution (mathematics and coursework: ``test_claims_text.allowed_lines``),
  and the chapter's "source and what it claims" cell (everything there quotes the source);
- method and list numbers ("method 3", "1. …");
- the phrases of :data:`ALLOWED`, each with why its number is not a result of the run (quoted from a source, a
  definition, a constant of the library, a parameter's default named as such). Every phrase must still be in the
  chapter (no stale entry).
"""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest
from _chapter_ids import DP_MEAN, FEDERATED_PCA, HIERA, HISTOGRAMS, MWEM, PRIVACY_AUDIT
from test_claims_text import SOURCE_CELLS, allowed_lines

ROOT = Path(__file__).resolve().parents[1]
#: the chapters, and the executable book pages (book/<page>.ipynb), which have no source cell
PAGES = ("primer",)
CHAPTERS = sorted(SOURCE_CELLS) + list(PAGES)


def notebook(chapter: str) -> nbformat.NotebookNode:
    folder = "book" if chapter in PAGES else "notebooks"
    return nbformat.read(ROOT / folder / f"{chapter}.ipynb", as_version=4)


MATH = re.compile(r"\$\$.*?\$\$|\$[^$\n]+\$", re.S)
ROLE = re.compile(r"\{[\w:-]+\}`[^`]*`")
CODE = re.compile(r"`[^`\n]*`")
LINK = re.compile(r"\]\([^)]*\)")
COMMENT = re.compile(r"<!--.*?-->", re.S)
#: names that carry a number: "method 3", "methods 1 and 4", "Experiment 2", "Alg. 3, step 5", "claim 1", "§0070"
METHOD = re.compile(
    r"(?:\b(?:[Mm]ethods?|[Ee]xperiments?|[Ee]vidence|[Ss]teps?|[Cc]laims?|Alg\.|[Aa]lgorithms?|Exp\.|"
    r"[Ee]xercises?|[Ss]ites?|[Ll]evels?|[Ss]ections?)|§) ?\d+(?:(?:, | and | or |–|-)\d+)*\b"
)
#: list and table-row enumerators: "1. …", "| 7 | …"
ENUM = re.compile(r"^\s*(?:\d+\.\s|\|\s*\d+\s*\|)")
#: a number; "1-D", "2-D" are names of dimensions
NUMBER = re.compile(r"(?<![\w.-])[-−]?\d[\d,]*(?:\.\d+)?(?![\w])(?!-D\b)")
FENCE = re.compile(r"^\s*(`{3,}|:{3,})\s*(.*?)\s*$")
#: directive blocks whose content is prose (checked); any other fenced block (code, math, figures' options) is not
PROSE_BLOCKS = {
    None,
    "{note}",
    "{important}",
    "{warning}",
    "{tip}",
    "{admonition}",
    "{caution}",
    "{attention}",
    "{seealso}",
    "{hint}",
    "{dropdown}",
    "{table}",  # a prose table with its caption (issue 49, m10): its rows are prose
}

#: cells that define a method or a fixed example, with no result of the run in them: exempt as a whole, with the reason
DEFINITION_CELLS: dict[str, dict[str, str]] = {
    HISTOGRAMS: {
        "ae1af568": "the method and its privacy, step by step (definitions)",
        "d6ed5df1": "Evidence 1: a fixed three-bin example, computed exactly (no parameter enters it)",
        "php-authors-md": "the authors' P-HP procedure, read from their code (definitions)",
    },
}
#: formulas written in plain text: "Lap(1/ε₂)", "Δu = 1"
FORMULA = re.compile(r"Lap\([^()]*(?:\([^()]*\)[^()]*)*\)|Δu = 1|\(1/\|W\|\)")

ALLOWED: dict[str, list[tuple[str, str]]] = {
    DP_MEAN: [
        (
            "it exceeds 1 for every",
            "caption of the resampling figure: exact, proved in the text, no parameter enters it",
        ),
        ("approaches 2 for small", "the same exact figure"),
        ("it stays below 1.", "the same exact figure"),
        (
            "from 0.05 to 5 (log scale), for n = 2, 10 and 1000",
            "the exact figure's fixed grid (typed in its cell)",
        ),
        ("lie above 1 and approach 2 at small epsilon", "the same exact figure"),
        ("curves stay below 1", "the same exact figure"),
        ("reference line at 1", "a figure's reference line (definition)"),
        ("the line at 1", "a figure's reference line (definition)"),
        ("average height of 1,000 people", "the source's dataset"),
        ("unused factor of 2", "the same ratio of calibrations"),
        ("The count moves by 1", "a count's sensitivity (definition)"),
        ("(above 1: the second-named", "how the ratios read (definition)"),
    ],
    MWEM: [
        ("14 by 4 age-by-satisfaction", "the report's fixed 2-D domain (fixed data)"),
        ('"within 10 %"', "the course's criterion, quoted"),
        ('"Within 10 %"', "the course's criterion, quoted"),
        ("errors within 10 % of the reference", "the report's statement, quoted"),
        (
            "false for 8 of its 16 figures",
            "the report's own table against the course's (both quoted, no run)",
        ),
        (
            "8 of the 16 one-dimensional figures are more than 10 %",
            "the same comparison of two quoted tables",
        ),
        ("by 39 %", "the same comparison of two quoted tables"),
        ("up to 129 times the reference", "the same comparison of two quoted tables (2-D)"),
        ("own 2-D mean errors (336–385", "quoted from the report's table"),
        ("rises to 244", "quoted from the course's reference table"),
        ("the report does 20", "quoted from the report's code"),
        (
            "in 1-D and in 2-D | 30 and 200 |",
            "the parameters' defaults, in the Parameters section's table of defaults",
        ),
        ("| multiplicative-weights passes per round | 20 |", "the same defaults"),
        ("| queries in 1-D and in 2-D | 60, and 400 random range queries |", "the same defaults"),
        ("| repetitions | 100 |", "the same defaults"),
        ("the chapter with 60 rounds in 1-D", "an example of a command line, not a result"),
        ("sensitivity 2 under", "a histogram's L1 sensitivity under replace-one (definition)"),
        ("sensitivity 1 in any dimension", "a count's sensitivity (definition)"),
        (
            "at most about 1.2",
            "the largest score of the report's 1-D data divided by 10^5 (the data are fixed)",
        ),
        ("95 % percentile-bootstrap", "the interval's level (definition)"),
        ("95 % intervals", "the interval's level (definition)"),
        ("another 100-run", "the course's reference is a 100-run average (quoted)"),
        ("A 100-run average", "the course's reference is a 100-run average (quoted)"),
        ("100-run averages", "the course's reference is a 100-run average (quoted)"),
        ("60 queries a run", "the report's 1-D workload (fixed, quoted)"),
        ("report's 60", "the report's 1-D workload (fixed, quoted)"),
        ("(bin 0)", "a bin of the report's fixed data"),
        ("56-cell", "the 14 x 4 domain of the report's 2-D data (fixed)"),
        ("4096 bins", "DPBench's ADULT histogram (fixed data)"),
        (
            "merged into 64, 512 and 4096 cells",
            "the pay-off experiment's fixed domain sizes (typed in its cell)",
        ),
    ],
    HISTOGRAMS: [
        ("AHP and Identity at epsilon 1", "the same fixed ε"),
        ("95 percent bootstrap interval", "the interval's level (definition)"),
        ("divergence > 15 at nominal", "the same fixed example"),
        ("divergence above 15 at a nominal", "the same fixed example"),
        ("log-ratio exceeds 15 at a nominal", "the same fixed example"),
        (
            "(b = 16 for 4096 bins)",
            "Qardaji et al.'s branching for DPBench's fixed 4096-bin domain (definition)",
        ),
        ('"the published values show the partition {0}, {1, 2}"', "the same fixed example's event"),
        ("20 repetitions, range queries of 100–1000", "the parameters' defaults, named as such"),
        ("histogram of 4096 bins", "DPBench's 1-D histograms (fixed data)"),
        ('"query range 100–1000"', "quoted from the patent"),
        ("95 % percentile-bootstrap", "the interval's level (definition)"),
        ("95 % bootstrap interval", "the interval's level (definition)"),
        (
            "85 % of",
            "AHP's definition: the share of ε on its noisy histogram (DPBench's defaults)",
        ),
        ("(< 1 would", "how the ratio reads (definition)"),
    ],
    FEDERATED_PCA: [
        ("the line at 1 mean", "a figure's reference line (definition)"),
        (
            "closest to 1 (one panel",
            "how the figure picks its ε (definition; the run's ε is in the panel)",
        ),
        ("summarises a 2022", "the year of the summarised paper (a citation)"),
        ("Take 1000 identical rows", "the audited pair's construction (definition)"),
        ("pixel range 0–16 for digits", "the dataset's documented range"),
        ("Dirichlet(1) shares", "the split's definition"),
        ("more than 5 standard errors", "the check's tolerance, Z = 5 (definition)"),
        ("): by more than 5", "the check's tolerance, Z = 5 (definition)"),
        ("5-fold stratified", "the evaluation's design (definition)"),
        (
            "is 0.514 at a claimed 0.5 and",
            "exact ε of the source's calibration at the fixed ε = 0.5 (a constant)",
        ),
        (
            "1.098 at a claimed 1 (1.465 for the analytic calibration at 1)",
            "the same constants at ε = 1",
        ),
        ("exact   10.39", "exact ε of the classical calibration at ε = 10, δ = 1e-5 (a constant)"),
        ('"(0,1) standardisation"', "quoted from the source"),
    ],
    HIERA: [
        (
            "| repetitions of experiments 1 and 2 | 100 |",
            "the parameters' defaults, in the Parameters section's table of defaults",
        ),
        ("the chapter with 20 repetitions", "an example of a command line, not a result"),
        ("1-based", "an indexing convention"),
        ("its code uses 100", "quoted from the source's code"),
        ("the code's 100", "quoted from the source's code"),
        ("Alg. 2/3", "the source's algorithm numbers"),
        (
            "groups of 5–9 users",
            "the text's group rule at the fixed ε = 2.5 of the errata cell (asserted there)",
        ),
    ],
    "primer": [
        ("with mean 0 and scale", "the notation table: the Laplace distribution's definition"),
        ("with mean 0 and variance", "the notation table: the Gaussian distribution's definition"),
        ("The factor 2 in the exponent", "a constant of the exponential mechanism's definition"),
    ],
    PRIVACY_AUDIT: [
        ("(4,000 per input", "a constant of the coverage experiment, typed in its cell"),
        (
            "(1000 identical rows",
            "the audited pair's construction (the federated PCA chapter's audit spec)",
        ),
        ("from 53 random bits", "how numpy's sampler works (definition)"),
        ("(sensitivity 1)", "the example's definition"),
        ("probability exactly 0 under", "a property proved in the text (Sterbenz's lemma)"),
        ("52 random mantissa bits", "how the snapping mechanism's sampler works (definition)"),
        ("values of   near 0", "a property of the inverse-CDF sampler (definition)"),
    ],
}


def prose(
    nb: nbformat.NotebookNode, source_cell: str | None, exempt_cells: frozenset[str] = frozenset()
) -> list[tuple[str, str]]:
    """(cell id, line) of every line of prose that is checked: markdown outside the exempt blocks and the source
    cell, with math, roles, inline code, link targets and comments blanked out."""
    out = []
    for cell in nb.cells:
        if cell.cell_type != "markdown" or cell.id in exempt_cells or cell.id == source_cell:
            continue
        text = MATH.sub(" ", COMMENT.sub(" ", cell.source))
        stack: list[tuple[str, str | None]] = []
        for line, exempt in zip(text.splitlines(), allowed_lines(text), strict=True):
            m = FENCE.match(line)
            if m:
                mark, info = m.group(1), m.group(2)
                top = stack[-1] if stack else None
                if not info and top and top[0][0] == mark[0] and len(mark) >= len(top[0]):
                    stack.pop()
                else:  # a directive ({note} …) or a code block (```python, or a bare fence)
                    kind = re.match(r"\{[^}]+\}", info)
                    stack.append((mark, kind.group(0) if kind else "code"))
                continue
            if exempt or any(k not in PROSE_BLOCKS for _, k in stack):
                continue
            if re.match(r"^\s*:[\w-]+:", line):  # a directive's option
                continue
            line = LINK.sub("]", CODE.sub(" ", ROLE.sub(" ", line)))
            out.append((cell.id, line))
    return out


def captions(nb: nbformat.NotebookNode) -> list[tuple[str, str]]:
    """(cell id and field, text) of every figure caption (``mystnb: figure: caption:``) and alt text
    (``mystnb: image: alt:``) of a code cell, with math, roles and inline code blanked out: a caption is prose and
    follows the same rule (issue 26), and so does the alt text a screen reader reads instead of the figure."""
    out = []
    for cell in nb.cells:
        meta = cell.get("metadata", {}).get("mystnb", {})
        for field, key in (("figure", "caption"), ("image", "alt")):
            text = meta.get(field, {}).get(key)
            if text:
                text = MATH.sub(" ", text)
                out.append((f"{cell.id} ({field} {key})", CODE.sub(" ", ROLE.sub(" ", text))))
    return out


def typed_numbers(chapter: str) -> list[str]:
    nb = notebook(chapter)
    bad = []
    for cell_id, line in prose(
        nb, SOURCE_CELLS.get(chapter), frozenset(DEFINITION_CELLS.get(chapter, {}))
    ) + captions(nb):
        nums = numbers(line, chapter)
        if nums:
            bad.append(f"{cell_id}: {nums} in {line.strip()!r}")
    return bad


def numbers(line: str, chapter: str | None = None) -> list[str]:
    """The numbers of a checked line that are not allow-listed, method or list numbers."""
    for phrase, _why in ALLOWED.get(chapter, []):
        line = line.replace(phrase, " ")
    return NUMBER.findall(ENUM.sub(" ", METHOD.sub(" ", FORMULA.sub(" ", line))))


def test_the_scan_sees_typed_numbers_and_nothing_else():
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_markdown_cell("the source says 99", id="src"),
        nbformat.v4.new_markdown_cell(
            "The error falls from 285 to 207 (method 2, {glue:text}`k:.3g`, $\\varepsilon=1$).\n"
            "```python\nx = 5\n```\n:::{note}\na note with 12 in it\n:::\n"
            ":::{prf:theorem} T\nconstant 4\n:::\n1. item `code 7` {cite:p}`a2014` [x](https://a/3)",
            id="c",
        ),
    ]
    found = [n for _, line in prose(nb, "src") for n in numbers(line)]
    assert found == ["285", "207", "12"]
    fig = nbformat.v4.new_code_cell("plot()", id="f")
    fig.metadata["mystnb"] = {
        "figure": {
            "caption": "Method 4 loses by a factor of about 2 at $\\varepsilon=1$, {glue:text}`r` here."
        },
        "image": {"alt": "Line chart; the ratio sits near 2."},
    }
    nb.cells.append(fig)
    assert [n for _, text in captions(nb) for n in numbers(text)] == ["2", "2"]


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_no_computed_number_is_typed_in_prose(chapter):
    bad = typed_numbers(chapter)
    assert not bad, (
        f"{chapter}: numbers typed in prose (glue them from the run, or allow-list the phrase with its reason "
        "in ALLOWED):\n" + "\n".join(bad)
    )


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_every_allowed_phrase_is_in_the_chapter(chapter):
    nb = notebook(chapter)
    text = "\n".join(
        line
        for _, line in prose(
            nb, SOURCE_CELLS.get(chapter), frozenset(DEFINITION_CELLS.get(chapter, {}))
        )
        + captions(nb)
    )
    stale = [phrase for phrase, _ in ALLOWED.get(chapter, []) if phrase not in text]
    assert not stale, f"{chapter}: allow-listed phrases no longer in the prose: {stale}"


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_alt_texts_are_plain_text(chapter):
    """Alt text is read as it is (no MyST parsing): no roles, no math, no inline code."""
    nb = notebook(chapter)
    bad = [
        f"{cell.id}: {alt!r}"
        for cell in nb.cells
        if (alt := cell.get("metadata", {}).get("mystnb", {}).get("image", {}).get("alt"))
        and (ROLE.search(alt) or "$" in alt or "`" in alt)
    ]
    assert not bad, f"{chapter}: alt texts with markup: {bad}"
