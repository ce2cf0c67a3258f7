"""The execution store: each chapter executed once, reused only under an unchanged key, never stale.

The end-to-end tests build a miniature Jupyter Book (one prose page, one notebook that prints a value from a small
library, the execution report) with the real extension, and check that (1) a prose-only edit executes nothing,
(2) a one-line change in the library re-executes the notebook and changes the published output.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import nbformat
import pytest

from dpcompendium.book.execution import (
    chapter_key,
    ensure_executed,
    inputs_digest,
    kernel_book_modules,
    load_record,
    merge_outputs,
)

JB = Path(sys.executable).with_name("jupyter-book")


def _notebook(path: Path, code: str) -> None:
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3",
        "language": "python",
    }
    nb.cells = [
        nbformat.v4.new_markdown_cell("# A chapter"),
        nbformat.v4.new_code_cell(code, metadata={"tags": ["demo"]}),
    ]
    nbformat.write(nb, path)


CODE = 'import sys\nsys.path.insert(0, "../src")\nimport minilib\nprint("VALUE", minilib.value())'


@pytest.fixture
def minirepo(tmp_path: Path) -> Path:
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "minilib.py").write_text("def value():\n    return 41\n")
    (tmp_path / "notebooks").mkdir()
    _notebook(tmp_path / "notebooks" / "chap.ipynb", CODE)
    return tmp_path


def test_digest_follows_every_input_file_and_skips_caches(minirepo: Path) -> None:
    d0 = inputs_digest(minirepo, ["src"])
    (minirepo / "src" / "__pycache__").mkdir()
    (minirepo / "src" / "__pycache__" / "minilib.cpython-311.pyc").write_bytes(b"junk")
    assert inputs_digest(minirepo, ["src"]) == d0
    (minirepo / "src" / "minilib.py").write_text("def value():\n    return 42\n")
    d1 = inputs_digest(minirepo, ["src"])
    assert d1 != d0
    (minirepo / "src" / "other.py").write_text("")
    assert inputs_digest(minirepo, ["src"]) != d1
    nb = minirepo / "notebooks" / "chap.ipynb"
    k0 = chapter_key(nb, d1)
    assert chapter_key(nb, d0) != k0
    _notebook(nb, CODE + "\n")
    assert chapter_key(nb, d1) != k0


def test_key_follows_what_runs_not_the_stored_outputs(minirepo: Path) -> None:
    """Re-recording a chapter's checked outputs (tools/record_headlines.py) does not make its execution stale; a
    change in a cell's source, a markdown cell or a cell's tags does (issue 50)."""
    nb_path = minirepo / "notebooks" / "chap.ipynb"
    digest = inputs_digest(minirepo, ["src"])
    k0 = chapter_key(nb_path, digest)
    nb = nbformat.read(nb_path, as_version=4)
    nb.cells[1].outputs = [nbformat.v4.new_output("stream", name="stdout", text="VALUE 41\n")]
    nb.cells[1].execution_count = 3
    nbformat.write(nb, nb_path)
    assert chapter_key(nb_path, digest) == k0
    for change in (
        lambda n: n.cells[0].update(source="# Another title"),
        lambda n: n.cells[1].metadata.update(tags=["other"]),
        lambda n: n.cells[1].update(source=CODE + "\n"),
    ):
        changed = nbformat.read(nb_path, as_version=4)
        change(changed)
        nbformat.write(changed, nb_path)
        assert chapter_key(nb_path, digest) != k0
        nbformat.write(nb, nb_path)


def test_record_keeps_the_code_paths(minirepo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from dpcompendium.book.execution import ExecutionRecord, make_record

    monkeypatch.setenv("NUMBA_CPU_NAME", "haswell")
    monkeypatch.setenv("OMP_NUM_THREADS", "2")
    rec = make_record(
        minirepo, minirepo / "notebooks" / "chap.ipynb", "k", 1.0, None, executor="test"
    )
    assert (
        rec.code_paths["NUMBA_CPU_NAME"] == "haswell" and rec.code_paths["OMP_NUM_THREADS"] == "2"
    )
    again = ExecutionRecord(**json.loads(rec.to_json()))
    assert again.code_paths == rec.code_paths
    # a record written before code paths were kept still loads
    old = json.loads(rec.to_json())
    old.pop("code_paths")
    assert ExecutionRecord(**old).code_paths == {}


def _book_layer(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        path = root / "src" / "dpcompendium" / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def test_sphinx_only_modules_of_the_book_layer_are_no_input(minirepo: Path) -> None:
    """A change to a book-layer module that no executed notebook can import (the Sphinx extension, the CLI, the
    stylesheet) leaves every chapter's key as it is; a change to one the notebook imports, directly, through another
    module, inside a function or by a name written as a string, makes it stale; so does an edit that makes a
    notebook or a module import a module it did not (issue 50)."""
    _book_layer(
        minirepo,
        {
            "__init__.py": "",
            "core/__init__.py": "",
            "core/stats.py": "X = 1\n",
            "book/__init__.py": "",
            "book/chapter.py": "from .prose import glue\n\ndef show():\n    from . import lazy\n",
            "book/prose.py": "from ..core import stats\nglue = 1\n",
            "book/lazy.py": "import importlib\nimportlib.import_module('dpcompendium.book.named')\n",
            "book/named.py": "",
            "book/sphinxext.py": "from .chapter import show\n",
            "book/cli.py": "",
            "book/_static/book.css": "a {}\n",
        },
    )
    _notebook(
        minirepo / "notebooks" / "chap.ipynb",
        "%matplotlib inline\nfrom dpcompendium.book.chapter import show",
    )
    inputs = ["src"]
    d0 = inputs_digest(minirepo, inputs)
    book = minirepo / "src" / "dpcompendium" / "book"
    assert {p.name for p in kernel_book_modules(minirepo)} == {
        "__init__.py", "chapter.py", "prose.py", "lazy.py", "named.py",
    }  # fmt: skip
    for sphinx_only in ("sphinxext.py", "cli.py", "_static/book.css"):
        (book / sphinx_only).write_text((book / sphinx_only).read_text() + "# edited\n")
        assert inputs_digest(minirepo, inputs) == d0, sphinx_only
    for imported in ("chapter.py", "prose.py", "lazy.py", "named.py", "../core/stats.py"):
        before = (book / imported).read_text()
        (book / imported).write_text(before + "# edited\n")
        assert inputs_digest(minirepo, inputs) != d0, imported
        (book / imported).write_text(before)
        assert inputs_digest(minirepo, inputs) == d0
    # a module starts importing a Sphinx-only one: the edit counts, and from then on so does that module
    (book / "prose.py").write_text("from ..core import stats\nfrom . import cli\nglue = 1\n")
    d1 = inputs_digest(minirepo, inputs)
    assert d1 != d0
    (book / "cli.py").write_text("# now imported\n")
    assert inputs_digest(minirepo, inputs) != d1
    # a notebook starts importing one
    d2 = inputs_digest(minirepo, inputs)
    _notebook(minirepo / "notebooks" / "chap.ipynb", "import dpcompendium.book.sphinxext")
    assert "sphinxext.py" in {p.name for p in kernel_book_modules(minirepo)}
    (book / "sphinxext.py").write_text("")
    assert inputs_digest(minirepo, inputs) != d2


def test_kernel_book_modules_cover_what_the_chapters_import() -> None:
    """On the real book: the set leaves the Sphinx extension, the CLI and the PDF stage out, and holds every book-layer
    module that importing it loads (checked in a fresh interpreter, against ``sys.modules``; numba compiles nothing
    there, which changes no import). The chapters and the core import nothing of the book layer
    (``tests/test_layers.py``)."""
    root = Path(__file__).resolve().parents[1]
    kept = kernel_book_modules(root)
    names = {p.relative_to(root / "src").with_suffix("").as_posix() for p in kept}
    assert {"dpcompendium/book/chapter", "dpcompendium/book/prose"} <= names
    assert (
        not {"dpcompendium/book/sphinxext", "dpcompendium/book/cli", "dpcompendium/book/pdf"}
        & names
    )
    modules = sorted(n.replace("/", ".").removesuffix(".__init__") for n in names)
    code = (
        "import importlib, json, sys\n"
        f"for m in {modules!r}: importlib.import_module(m)\n"
        "print(json.dumps(sorted(m.__file__ for n, m in list(sys.modules.items())"
        " if n.startswith('dpcompendium.book') and getattr(m, '__file__', None))))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        cwd=root,
        env={**os.environ, "NUMBA_DISABLE_JIT": "1"},
    )
    loaded = {Path(f).resolve() for f in json.loads(out.stdout)}
    assert loaded and loaded <= kept, sorted(str(p) for p in loaded - kept)


def test_real_library_is_an_input() -> None:
    from dpcompendium.book.execution import DEFAULT_INPUTS

    assert "src/dpcompendium" in DEFAULT_INPUTS and "requirements-lock.txt" in DEFAULT_INPUTS


def test_merge_outputs_keeps_source_metadata_and_rejects_other_code(minirepo: Path) -> None:
    src = nbformat.read(minirepo / "notebooks" / "chap.ipynb", as_version=4)
    exe = nbformat.read(minirepo / "notebooks" / "chap.ipynb", as_version=4)
    exe.cells[1].metadata["execution"] = {"iopub.status.busy": "now"}
    exe.cells[1].outputs = [nbformat.v4.new_output("stream", name="stdout", text="VALUE 41\n")]
    merged = merge_outputs(src, exe)
    assert merged.cells[1].metadata == {"tags": ["demo"]}
    assert merged.cells[1].outputs[0]["text"] == "VALUE 41\n"
    exe.cells[1].source = "print(1)"
    with pytest.raises(ValueError, match="does not match"):
        merge_outputs(src, exe)


def _stdout(store: Path, chapter: str) -> str:
    nb = nbformat.read(store / f"{chapter}.ipynb", as_version=4)
    return "".join(o.get("text", "") for c in nb.cells if c.cell_type == "code" for o in c.outputs)


def test_ensure_executed_reuses_until_the_library_changes(minirepo: Path) -> None:
    store = minirepo / "_build" / ".execution"
    nbs = [minirepo / "notebooks" / "chap.ipynb"]
    logs: list[str] = []
    recs = ensure_executed(minirepo, nbs, store=store, inputs=["src"], jobs=1, log=logs.append)
    assert not recs["chap"].reused and "VALUE 41" in _stdout(store, "chap")
    assert recs["chap"].wall_time_s > 0
    recs = ensure_executed(minirepo, nbs, store=store, inputs=["src"], jobs=1, log=logs.append)
    assert recs["chap"].reused and "none executed" in logs[-1]
    (minirepo / "src" / "minilib.py").write_text("def value():\n    return 42\n")
    recs = ensure_executed(minirepo, nbs, store=store, inputs=["src"], jobs=1, log=logs.append)
    assert not recs["chap"].reused and "VALUE 42" in _stdout(store, "chap")
    assert load_record(store, "chap").key == recs["chap"].key


def test_a_failing_chapter_fails_and_is_not_stored(minirepo: Path) -> None:
    from nbclient.exceptions import CellExecutionError

    _notebook(minirepo / "notebooks" / "chap.ipynb", "raise RuntimeError('boom')")
    store = minirepo / "_build" / ".execution"
    with pytest.raises(CellExecutionError, match="boom"):
        ensure_executed(
            minirepo, [minirepo / "notebooks" / "chap.ipynb"], store=store, inputs=["src"], jobs=1
        )
    assert load_record(store, "chap") is None


# ---- end to end: a miniature book built with the real extension ------------------------------------------------

CONFIG = """\
title: mini
only_build_toc_files: true
exclude_patterns: [_build, src]
execute:
  execute_notebooks: cache
  cache: _build/.jupyter_cache
  timeout: 120
  allow_errors: false
sphinx:
  config:
    nb_execution_raise_on_error: true
    dpc_execution_inputs: [src]
    dpc_execution_jobs: 2
    html_last_updated_fmt: null
  extra_extensions:
    - dpcompendium.book.sphinxext
"""
TOC = """\
format: jb-book
root: intro
chapters:
  - file: notebooks/chap
  - file: report
"""


def _build(root: Path) -> tuple[str, float]:
    env = {**os.environ, "MPLBACKEND": "Agg"}
    t0 = time.perf_counter()
    proc = subprocess.run(
        [str(JB), "build", str(root), "-W", "-n", "--keep-going"],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    return proc.stdout + proc.stderr, time.perf_counter() - t0


def _html(root: Path, page: str) -> str:
    return (root / "_build" / "html" / f"{page}.html").read_text()


@pytest.mark.skipif(not JB.exists(), reason="jupyter-book is not installed beside this Python")
def test_book_executes_once_rebuilds_prose_without_executing_and_never_shows_a_stale_number(
    minirepo: Path,
) -> None:
    (minirepo / "_config.yml").write_text(CONFIG)
    (minirepo / "_toc.yml").write_text(TOC)
    (minirepo / "intro.md").write_text("# Intro\n\nSome prose.\n")
    (minirepo / "report.md").write_text("# Report\n\n```{execution-report}\n```\n")

    log, _ = _build(minirepo)
    assert "executing 1 chapter(s)" in log
    assert "VALUE 41" in _html(minirepo, "notebooks/chap")
    assert "executed now" in _html(minirepo, "report")
    first = json.loads((minirepo / "_build" / ".execution" / "chap.json").read_text())

    # A prose-only edit: nothing is executed, the chapter keeps its stored execution. (Its time stamp is set 2 s
    # ahead, so that Sphinx sees the change even where file times have a resolution of a second, without waiting.)
    intro = minirepo / "intro.md"
    intro.write_text("# Intro\n\nSome more prose.\n")
    ahead = time.time() + 2
    os.utime(intro, (ahead, ahead))
    log, _ = _build(minirepo)
    assert "none executed" in log and "executing" not in log.replace("none executed", "")
    assert "Some more prose" in _html(minirepo, "intro")
    assert json.loads((minirepo / "_build" / ".execution" / "chap.json").read_text()) == first
    assert "from the store" in _html(minirepo, "report")

    # One line of library code changes: the chapter is re-executed and the page shows the new number.
    (minirepo / "src" / "minilib.py").write_text("def value():\n    return 42\n")
    log, _ = _build(minirepo)
    assert "executing 1 chapter(s)" in log
    page = _html(minirepo, "notebooks/chap")
    assert "VALUE 42" in page and "VALUE 41" not in page
    assert "executed now" in _html(minirepo, "report")


def test_the_book_lists_the_execution_report() -> None:
    root = Path(__file__).resolve().parents[1]
    toc = (root / "_toc.yml").read_text()
    assert "book/execution" in toc
    assert "{execution-report}" in (root / "book" / "execution.md").read_text()
    assert "dpcompendium.book.sphinxext" in (root / "_config.yml").read_text()
    assert shutil.which("git") is not None


@pytest.mark.skipif(not JB.exists(), reason="jupyter-book is not installed beside this Python")
def test_a_failing_claim_assertion_fails_the_book_build(minirepo: Path) -> None:
    (minirepo / "_config.yml").write_text(CONFIG)
    (minirepo / "_toc.yml").write_text(TOC)
    (minirepo / "intro.md").write_text("# Intro\n")
    (minirepo / "report.md").write_text("# Report\n")
    _notebook(
        minirepo / "notebooks" / "chap.ipynb", CODE + "\nassert minilib.value() == 42, 'claim'"
    )
    proc = subprocess.run(
        [str(JB), "build", str(minirepo), "-W", "-n", "--keep-going"],
        cwd=minirepo,
        env={**os.environ, "MPLBACKEND": "Agg"},
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode != 0
    assert "AssertionError" in proc.stdout + proc.stderr
    assert not (minirepo / "_build" / ".execution" / "chap.json").exists()
