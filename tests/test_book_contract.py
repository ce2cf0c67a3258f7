"""The book's structure and the chapter contract of CONTRIBUTING.md, checked on the sources (no build needed).

- every entry of ``_toc.yml`` exists, and every chapter notebook is in ``_toc.yml``;
- every chapter notebook: valid nbformat v4 with kernel ``python3``; first cell ``# Title``; exactly one cell tagged
  ``parameters`` with ``seed`` (int), ``output_dir = ""`` and a help text for every parameter; no stored output
  except in cells tagged ``keep_output``; every declared figure has a caption and a unique ``fig-<id>-…`` name;
  every ``nbval-check-output`` cell is also ``keep_output`` and has its stored output; no library code (function
  or class definitions) and no global random state; every ``{numref}`fig-…``` points at a declared figure; no
  ``{bibliography}`` directive (the book has one bibliography page);
- every ``{cite}`` key in the notebooks and the book pages is in ``book/references.bib``;
- coursework mode: every chapter has at least three ``{exercise}`` blocks (sphinx-exercise), each with a label and a
  ``{solution}`` collapsed by default (``:class: dropdown``), at least one of them running ``dpcompendium audit`` or
  ``dpcompendium check`` on a user-code file that exists; definitions, theorems, lemmas, propositions and proofs are
  sphinx-proof directives (``{prf:...}``, labelled, every ``{prf:ref}`` resolves), never plain admonitions;
- the Library reference: one page per subpackage in ``_toc.yml``, documenting every module of that subpackage.
"""

from __future__ import annotations

import ast
import os
import re
from pathlib import Path

import nbformat
import pytest

from dpcompendium.chapters.registry import manifests
from dpcompendium.chapters.registry import toc_files as toc_entries

ROOT = Path(os.environ.get("DPCOMPENDIUM_REPO") or Path(__file__).resolve().parents[1])
MANIFESTS = manifests(ROOT)
CHAPTER_IDS = tuple(m.id for m in MANIFESTS)
NOTEBOOKS = sorted(
    (ROOT / "notebooks").glob("*.ipynb"),
    key=lambda p: CHAPTER_IDS.index(p.stem) if p.stem in CHAPTER_IDS else len(CHAPTER_IDS),
)
BOOK_PAGES = ("intro", "primer", "reproducibility", "glossary", "bibliography")
PRIMER = ROOT / "book" / "primer.ipynb"
#: The primer's labels that any chapter may refer to with {prf:ref} (CONTRIBUTING.md, "Theorems are theorems").
PRIMER_LABELS = {
    "def-dp",
    "thm-laplace",
    "thm-gaussian",
    "thm-exponential",
    "def-ldp",
    "thm-composition",
    "thm-post-processing",
}
CITE = re.compile(r"\{cite(?::[a-z]+)?\}`([^`]*)`")
SHOW_FIGURE = re.compile(r'(chapter\.)?show_figure\(fig, "[\w-]+", out\)')
NUMREF_FIG = re.compile(r"\{numref\}`(?:[^`<]*<)?(fig-[^`>]+)>?`")
GLOBAL_RANDOM = re.compile(
    r"\bnp\.random\.(?!default_rng\b|Generator\b|SeedSequence\b|PCG64\b|PCG64DXSM\b)\w+\s*\("
)


def bib_keys() -> set[str]:
    text = (ROOT / "book" / "references.bib").read_text(encoding="utf8")
    return set(re.findall(r"^@\w+\{([^,\s]+),", text, flags=re.M))


def tags(cell) -> list[str]:
    return list(cell.get("metadata", {}).get("tags", []))


def figure_meta(cell) -> dict | None:
    mystnb = cell.get("metadata", {}).get("mystnb") or {}
    return mystnb.get("figure")


# ---------------------------------------------------------------------------------------------- the table of contents


def test_toc_entries_exist():
    entries = toc_entries(ROOT / "_toc.yml")
    missing = [
        f
        for f in entries
        if not any((ROOT / f"{f}{ext}").is_file() for ext in ("", ".md", ".ipynb"))
    ]
    assert not missing, f"_toc.yml lists files that do not exist: {missing}"
    assert len(entries) == len(set(entries)), "_toc.yml lists a file twice"


def test_toc_lists_every_chapter_of_a_manifest_and_the_book_pages():
    entries = toc_entries(ROOT / "_toc.yml")
    chapters = [Path(f).name for f in entries if f.startswith("notebooks/")]
    assert chapters == list(CHAPTER_IDS), (
        f"the chapters of _toc.yml must be those of the manifests, {CHAPTER_IDS}, got {chapters}"
    )
    for page in BOOK_PAGES:
        assert f"book/{page}" in entries, f"book/{page} is not in _toc.yml"


def test_every_notebook_is_in_the_toc():
    entries = set(toc_entries(ROOT / "_toc.yml"))
    stray = [p.name for p in NOTEBOOKS if f"notebooks/{p.stem}" not in entries]
    assert not stray, f"notebooks not in _toc.yml (they would not be in the book): {stray}"


def page_text(page: str) -> str:
    """The markdown of ``book/<page>``: a MyST page (``.md``) or an executable page (``.ipynb``, its markdown
    cells)."""
    md, nb = ROOT / "book" / f"{page}.md", ROOT / "book" / f"{page}.ipynb"
    assert md.is_file() != nb.is_file(), (
        f"book/{page}: exactly one of {md.name}, {nb.name} must exist"
    )
    if md.is_file():
        return md.read_text(encoding="utf8")
    return "\n".join(
        c.source for c in nbformat.read(nb, as_version=4).cells if c.cell_type == "markdown"
    )


def test_book_pages_cite_known_keys():
    keys = bib_keys()
    for page in BOOK_PAGES:
        used = {k.strip() for group in CITE.findall(page_text(page)) for k in group.split(",")}
        assert used <= keys, f"book/{page} cites unknown keys: {sorted(used - keys)}"


def test_reproducibility_page_has_execution_table():
    text = (ROOT / "book" / "reproducibility.md").read_text(encoding="utf8")
    assert "{nb-exec-table}" in text


# ------------------------------------------------------------------------------------------------ the manifests


@pytest.mark.parametrize("m", MANIFESTS, ids=lambda m: m.id)
def test_manifest_matches_its_notebook_and_the_data_registry(m):
    """A manifest's notebook is ``notebooks/<id>.ipynb`` and starts with ``# <title>``; its headline cells exist and
    are tagged ``nbval-check-output`` and ``keep_output``; its datasets are entries of ``data/registry.yml``; its
    fuzz caps name parameters of the chapter."""
    import yaml

    from dpcompendium.book.contract import get_chapter

    assert m.notebook == f"notebooks/{m.id}.ipynb", (
        f"{m.folder}: notebook must be notebooks/{m.id}.ipynb"
    )
    nb = nbformat.read(ROOT / m.notebook, as_version=4)
    first = next(c for c in nb.cells if c.cell_type == "markdown")
    assert first.source.lstrip().startswith(f"# {m.title}"), (
        f"{m.id}: the notebook's title is not {m.title!r}"
    )
    cells = {c.get("id"): c for c in nb.cells}
    for cid in m.headline_cells:
        assert cid in cells, f"{m.id}: headline cell {cid} is not in the notebook"
        assert {"nbval-check-output", "keep_output"} <= set(tags(cells[cid])), (
            f"{m.id}: cell {cid} is not tagged"
        )
    registry = yaml.safe_load((ROOT / "data" / "registry.yml").read_text(encoding="utf8"))
    for name, _ in m.datasets:
        assert name in registry, f"{m.id}: {name!r} is not an entry of data/registry.yml"
    params = get_chapter(m.id, ROOT).parameters
    unknown = sorted(set(m.fuzz) - set(params) - {"max_len", "list_len", "sorted"})
    assert not unknown, f"{m.id}: the fuzz size caps unknown parameters {unknown}"


# ------------------------------------------------------------------------------------------------ the chapter contract

needs_notebooks = pytest.mark.skipif(not NOTEBOOKS, reason="no chapter notebook in notebooks/ yet")


@pytest.fixture(params=NOTEBOOKS or [None], ids=lambda p: p.stem if p else "none")
def notebook(request):
    if request.param is None:
        pytest.skip("no chapter notebook in notebooks/ yet")
    path = request.param
    nb = nbformat.read(path, as_version=4)
    return path, nb


@needs_notebooks
def test_notebook_is_a_known_chapter(notebook):
    path, _ = notebook
    assert path.stem in CHAPTER_IDS, f"{path.name}: not a chapter id ({', '.join(CHAPTER_IDS)})"


@needs_notebooks
def test_valid_nbformat_and_kernel(notebook):
    path, nb = notebook
    nbformat.validate(nb)
    assert nb.nbformat == 4
    assert nb.metadata.get("kernelspec", {}).get("name") == "python3", (
        f"{path.name}: kernelspec must be python3"
    )


@needs_notebooks
def test_title_cell(notebook):
    path, nb = notebook
    first = nb.cells[0]
    assert first.cell_type == "markdown" and re.match(r"#\s+\S", first.source), (
        f"{path.name}: the first cell must be markdown starting with '# Title'"
    )


@needs_notebooks
def test_parameters_cell(notebook):
    from dpcompendium.book.contract import get_chapter

    path, nb = notebook
    cells = [c for c in nb.cells if c.cell_type == "code" and "parameters" in tags(c)]
    assert len(cells) == 1, f"{path.name}: {len(cells)} cells tagged 'parameters', need exactly one"
    params = get_chapter(path.stem, root=ROOT).parameters
    assert "seed" in params and type(params["seed"].default) is int, (
        f"{path.name}: needs 'seed = <int>'"
    )
    assert "output_dir" in params and params["output_dir"].default == "", (
        f"{path.name}: needs 'output_dir = \"\"'"
    )
    no_help = [name for name, p in params.items() if not p.help]
    assert not no_help, f"{path.name}: parameters without a '# help' comment: {no_help}"


@needs_notebooks
def test_no_stored_outputs_except_keep_output(notebook):
    path, nb = notebook
    for i, cell in enumerate(nb.cells):
        if cell.cell_type == "code" and cell.outputs and "keep_output" not in tags(cell):
            pytest.fail(
                f"{path.name}: cell {i} has stored outputs but is not tagged keep_output (strip them)"
            )


@needs_notebooks
def test_headline_cells_have_stored_output(notebook):
    path, nb = notebook
    for i, cell in enumerate(nb.cells):
        if "nbval-check-output" in tags(cell):
            assert cell.cell_type == "code", (
                f"{path.name}: cell {i} tagged nbval-check-output is not code"
            )
            assert "keep_output" in tags(cell), (
                f"{path.name}: cell {i} is nbval-check-output but not keep_output"
            )
            assert cell.outputs, (
                f"{path.name}: headline cell {i} (nbval-check-output) has no stored output"
            )
            errors = [o for o in cell.outputs if o.get("output_type") == "error"]
            assert not errors, f"{path.name}: headline cell {i} stores an error"


@needs_notebooks
def test_declared_figures(notebook):
    path, nb = notebook
    names = []
    for i, cell in enumerate(nb.cells):
        fig = figure_meta(cell)
        if fig is None:
            continue
        assert cell.cell_type == "code", f"{path.name}: cell {i} declares a figure but is not code"
        assert str(fig.get("caption", "")).strip(), (
            f"{path.name}: figure in cell {i} has no caption"
        )
        name = str(fig.get("name", ""))
        assert name.startswith(f"fig-{path.stem}-"), (
            f"{path.name}: figure name {name!r} must be fig-{path.stem}-…"
        )
        # Exactly one output per figure cell (the figure): a second output (a return value, or the inline
        # backend's own copy of an unclosed figure) gets the same label and breaks the strict build.
        # show_figure saves the figure, closes it and returns the saved PNG: the cell's last line, called once.
        lines = [ln.strip() for ln in cell.source.strip().splitlines()]
        assert SHOW_FIGURE.fullmatch(lines[-1]), (
            f"{path.name}: figure cell {i} must end with 'chapter.show_figure(fig, \"<name>\", out)', "
            f"got {lines[-1]!r}"
        )
        assert cell.source.count("show_figure(") == 1 and "plt.show" not in cell.source, (
            f"{path.name}: figure cell {i} shows more than one figure"
        )
        names.append(name)
    assert len(names) == len(set(names)), f"{path.name}: duplicate figure names {names}"
    markdown = "\n".join(c.source for c in nb.cells if c.cell_type == "markdown")
    labels = set(names) | set(re.findall(r":name:\s*(fig-\S+)", markdown))
    dangling = sorted(set(NUMREF_FIG.findall(markdown)) - labels)
    assert not dangling, f"{path.name}: {{numref}} to undeclared figures: {dangling}"


@needs_notebooks
def test_no_library_code_or_global_random_state(notebook):
    path, nb = notebook
    for i, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        source = "\n".join(
            line for line in cell.source.splitlines() if not line.lstrip().startswith(("%", "!"))
        )
        tree = ast.parse(source)
        defs = [
            n.name
            for n in ast.walk(tree)
            if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
        ]
        assert not defs, (
            f"{path.name}: cell {i} defines {defs}; library code belongs in src/dpcompendium"
        )
        imports = [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names]
        assert "random" not in imports, (
            f"{path.name}: cell {i} imports the random module; use a Generator"
        )
        m = GLOBAL_RANDOM.search(source)
        assert m is None, (
            f"{path.name}: cell {i} uses global numpy random state ({m.group(0)}); pass rng"
        )


@needs_notebooks
def test_no_local_bibliography(notebook):
    path, nb = notebook
    text = "\n".join(c.source for c in nb.cells if c.cell_type == "markdown")
    assert "{bibliography}" not in text, (
        f"{path.name}: has a {{bibliography}} directive; the book has one bibliography page "
        "(book/bibliography.md), and a second list of the same keys is a duplicate-citation warning that fails "
        "the strict build. End the chapter with its {cite} keys instead."
    )


def test_no_equation_reference_in_parentheses(notebook):
    """``{eq}`` prints the equation's number in parentheses already: "({eq}`x`)" reads "((1.3))" (reader review 3,
    m8). The primer is checked as a chapter is."""
    path, nb = notebook
    for p, cells in ((path, nb.cells), (PRIMER, nbformat.read(PRIMER, as_version=4).cells)):
        text = "\n".join(c.source for c in cells if c.cell_type == "markdown")
        doubled = re.findall(r"[(（]\{eq\}`[^`]+`[^()（）]*[)）]", text)
        assert not doubled, (
            f"{p.name}: an equation reference in parentheses prints its number twice: {doubled}"
        )


@needs_notebooks
def test_notebook_cites_known_keys(notebook):
    path, nb = notebook
    keys = bib_keys()
    text = "\n".join(c.source for c in nb.cells if c.cell_type == "markdown")
    used = {k.strip() for group in CITE.findall(text) for k in group.split(",")}
    assert used <= keys, (
        f"{path.name}: cites keys missing from book/references.bib: {sorted(used - keys)}"
    )


# ------------------------------------------------------------------------------------------------------ coursework mode

FENCE = r"^(?P<fence>:{3,}|`{3,})"
EXERCISE = re.compile(FENCE + r"\{exercise\}[^\n]*\n(?P<opts>(?::[\w-]+:[^\n]*\n)*)", re.M)
SOLUTION = re.compile(
    FENCE + r"\{solution\}\s*(?P<target>\S+)[^\n]*\n(?P<opts>(?::[\w-]+:[^\n]*\n)*)", re.M
)
PRF = re.compile(FENCE + r"\{prf:(?P<kind>\w+)\}[^\n]*\n(?P<opts>(?::[\w-]+:[^\n]*\n)*)", re.M)
PRF_REF = re.compile(r"\{prf:ref\}`(?:[^`<]*<)?([^`>]+)>?`")
ADMONITION_THEOREM = re.compile(
    r"^(?::{3,}|`{3,})\{admonition\}\s*(Definition|Theorem|Lemma|Proposition|Corollary|Proof|Exercise)\b",
    re.M,
)
COURSEWORK_COMMAND = re.compile(
    r"dpcompendium (?:audit|check \w+) (examples/coursework/[\w./-]+\.py):(\w+)"
)


def _option(opts: str, name: str) -> str | None:
    m = re.search(rf"^:{name}:\s*(.*)$", opts, re.M)
    return m.group(1).strip() if m else None


def _markdown(nb) -> str:
    return "\n".join(c.source for c in nb.cells if c.cell_type == "markdown")


def _book_markdown() -> dict[str, str]:
    """Every markdown source of the book: chapter notebooks and book pages."""
    texts = {p.name: _markdown(nbformat.read(p, as_version=4)) for p in NOTEBOOKS}
    for page in sorted((ROOT / "book").rglob("*.md")):
        texts[str(page.relative_to(ROOT))] = page.read_text(encoding="utf8")
    for page in sorted((ROOT / "book").glob("*.ipynb")):
        texts[str(page.relative_to(ROOT))] = _markdown(nbformat.read(page, as_version=4))
    return texts


@needs_notebooks
def test_exercises_have_hidden_solutions(notebook):
    path, nb = notebook
    text = _markdown(nb)
    exercises = [_option(m.group("opts"), "label") for m in EXERCISE.finditer(text)]
    assert len(exercises) >= 3, (
        f"{path.name}: {len(exercises)} {{exercise}} blocks, need at least 3"
    )
    assert all(exercises), (
        f"{path.name}: every {{exercise}} needs a :label: (its solution refers to it)"
    )
    assert len(set(exercises)) == len(exercises), (
        f"{path.name}: duplicate exercise labels {exercises}"
    )
    solutions = {}
    for m in SOLUTION.finditer(text):
        solutions[m.group("target")] = _option(m.group("opts"), "class") or ""
    missing = [e for e in exercises if e not in solutions]
    assert not missing, f"{path.name}: exercises without a {{solution}}: {missing}"
    shown = [e for e, cls in solutions.items() if "dropdown" not in cls.split()]
    assert not shown, (
        f"{path.name}: solutions not hidden by default (add ':class: dropdown'): {shown}"
    )
    stray = sorted(set(solutions) - set(exercises))
    assert not stray, f"{path.name}: solutions for unknown exercises: {stray}"


@needs_notebooks
def test_an_exercise_audits_or_checks_user_code(notebook):
    path, nb = notebook
    text = _markdown(nb)
    start = text.find("## Exercises")
    assert start >= 0, f"{path.name}: no '## Exercises' section"
    commands = COURSEWORK_COMMAND.findall(text[start:])
    assert commands, (
        f"{path.name}: no exercise runs 'dpcompendium audit' or 'dpcompendium check' on examples/coursework/..."
    )
    for file, func in commands:
        target = ROOT / file
        assert target.is_file(), f"{path.name}: the exercise's user code {file} does not exist"
        defs = {
            n.name
            for n in ast.parse(target.read_text(encoding="utf8")).body
            if isinstance(n, ast.FunctionDef)
        }
        assert func in defs, f"{path.name}: {file} defines no function {func!r}"


def test_theorems_are_prf_directives():
    texts = _book_markdown()
    labels: set[str] = set()
    for name, text in texts.items():
        m = ADMONITION_THEOREM.search(text)
        assert m is None, (
            f"{name}: '{m.group(0)}' is a plain admonition; use {{prf:{m.group(1).lower()}}} (sphinx-proof) "
            "or {exercise} (sphinx-exercise)"
        )
        for b in PRF.finditer(text):
            label = _option(b.group("opts"), "label")
            if b.group("kind") != "proof":
                assert label, f"{name}: a {{prf:{b.group('kind')}}} block without a :label:"
            if label:
                assert label not in labels, f"{name}: prf label {label!r} is used twice in the book"
                labels.add(label)
    for p in NOTEBOOKS:
        text = texts[p.name]
        assert PRF.search(text), (
            f"{p.name}: no {{prf:...}} block (definitions and theorems use sphinx-proof)"
        )
    assert PRF.search(texts["book/primer.ipynb"]), "book/primer.ipynb: no {prf:...} block"
    primer = {_option(b.group("opts"), "label") for b in PRF.finditer(texts["book/primer.ipynb"])}
    gone = sorted(PRIMER_LABELS - primer)
    assert not gone, (
        f"the primer's labels that chapters refer to (CONTRIBUTING.md) are gone: {gone}"
    )
    for name, text in texts.items():
        dangling = sorted(set(PRF_REF.findall(text)) - labels)
        assert not dangling, f"{name}: {{prf:ref}} to unknown labels {dangling}"


def test_library_reference_covers_every_module():
    """One page per package, ``book/api/<dotted path, "." -> "-">.md`` (the top package with ``core``), documenting
    the package and each of its public modules."""
    entries = set(toc_entries(ROOT / "_toc.yml"))
    pkg = ROOT / "src" / "dpcompendium"
    automodule = re.compile(r"^\.\. automodule:: (\S+)", re.M)
    # every public module; private ones (a leading underscore: internal helpers) are not part of the reference
    packages = sorted(d.parent for d in pkg.rglob("__init__.py") if d.parent != pkg)
    pages: dict[str, list[str]] = {"core": ["dpcompendium"]}
    for sub in packages:
        dotted = ".".join(sub.relative_to(pkg).parts)
        modules = [
            f"dpcompendium.{dotted}.{p.stem}"
            for p in sub.glob("*.py")
            if not p.stem.startswith("_")
        ]
        pages.setdefault(dotted.replace(".", "-"), []).extend([f"dpcompendium.{dotted}", *modules])
    for page, modules in pages.items():
        assert f"book/api/{page}" in entries, f"_toc.yml: no Library reference page book/api/{page}"
        documented = automodule.findall(
            (ROOT / "book" / "api" / f"{page}.md").read_text(encoding="utf8")
        )
        missing, gone = (
            sorted(set(modules) - set(documented)),
            sorted(set(documented) - set(modules)),
        )
        assert not missing, f"book/api/{page}.md does not document {missing}"
        assert not gone, f"book/api/{page}.md documents modules that do not exist: {gone}"


def test_landing_page_names_every_chapter_from_its_manifest():
    """The landing page's table names the chapters with the {chapter} role (its manifest's title, the one place a
    title is written), in book order, and types no link to a chapter's notebook."""
    text = (ROOT / "book" / "intro.md").read_text(encoding="utf8")
    table = re.findall(r"^\| \d+ \| \{chapter\}`([\w-]+)`", text, flags=re.M)
    assert table and table == [m.id for m in MANIFESTS if m.id in table], table
    assert not re.search(r"\]\(\.\./notebooks/", text), (
        "a typed link to a chapter: use {chapter}`<id>`"
    )


# C0 control characters other than tab, newline and carriage return (and DEL): a "\v" typed into a JSON string
# becomes a vertical tab, "\f" a form feed, "\b" a backspace — e.g. the "\v" of "\varepsilon" in a cell's source
CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def _book_texts():
    yield from NOTEBOOKS
    yield from sorted((ROOT / "book").rglob("*.ipynb"))
    yield from sorted((ROOT / "book").rglob("*.md"))


@pytest.mark.parametrize("path", list(_book_texts()), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_control_characters(path):
    """No notebook (in notebooks/ or book/) or book page holds a control character, in its JSON or in any cell."""
    raw = path.read_text(encoding="utf8")
    texts = [("file", raw)]
    if path.suffix == ".ipynb":
        nb = nbformat.reads(raw, as_version=4)
        texts += [(f"cell {i}", "".join(c.source)) for i, c in enumerate(nb.cells)]
    found = [
        f"{where}: {m.group()!r} at {m.start()} ({text[max(0, m.start() - 20) : m.start() + 20]!r})"
        for where, text in texts
        for m in [CONTROL.search(text)]
        if m
    ]
    assert not found, found
