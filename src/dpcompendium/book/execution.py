"""Execute each chapter once, keep the execution while nothing it depends on has changed, and say so.

A chapter's execution is reused only while its **key** is unchanged. The key is the SHA-256 of the notebook file and of
every *input* of the book (by default the library ``src/dpcompendium/``, the data registry ``data/registry.yml``, the
shipped tables ``data/shipped/`` and the lock ``requirements-lock.txt``): any change to a library file re-executes every
chapter, so a number computed by an old library can never reach the book. Of the book layer (``src/dpcompendium/book/``)
only the modules that an executed notebook can import count (``kernel_book_modules``: the notebooks' imports and
everything they import, read from the source): a change to the Sphinx extension, the CLI, the PDF stage or the
stylesheets, which no chapter's kernel imports or reads, re-executes no chapter (issue 50).

The store is a folder (default ``_build/.execution``) with, per chapter, the executed notebook ``<id>.ipynb`` and a
record ``<id>.json`` (key, wall time, peak memory of the kernel, parameters, commit, date, executor). It is written by
whichever program executed the chapter — the nbval stage of ``make test`` (``tools/nbcapture.py``), or the book build
itself (:func:`ensure_executed`, chapters in parallel) — and read by the book build, which hands the executed notebooks
to MyST-NB through jupyter-cache (``execute_notebooks: cache``) so that Sphinx never executes a chapter a second time.
"""

from __future__ import annotations

import ast
import copy
import datetime as _dt
import hashlib
import json
import os
import re
import subprocess
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import nbformat

from .cliutil import environ as _environ

__all__ = [
    "BOOK_LAYER",
    "CODE_PATH_VARIABLES",
    "DEFAULT_INPUTS",
    "EXECUTED_NOTEBOOKS",
    "ExecutionRecord",
    "book_key",
    "chapter_key",
    "code_paths",
    "ensure_executed",
    "execute_notebook",
    "executed_notebooks",
    "extract_narrow_figures",
    "for_language",
    "inputs_digest",
    "kernel_book_modules",
    "kernel_peak_memory_mib",
    "load_record",
    "merge_outputs",
    "narrow_figure_name",
    "output_language",
    "populate_jupyter_cache",
    "store_execution",
]

#: What every chapter depends on besides its own notebook (paths relative to the repository root).
DEFAULT_INPUTS: tuple[str, ...] = (
    "src/dpcompendium",
    "data/registry.yml",
    "data/shipped",
    "requirements-lock.txt",
)
#: Where executions are kept, relative to the repository root.
DEFAULT_STORE = "_build/.execution"
#: The executed pages, globs relative to the repository root: the chapters and the executable book pages (the
#: primer). Each is executed once per key into the store, run under nbval by ``make test``, and named by its stem.
EXECUTED_NOTEBOOKS: tuple[str, ...] = ("notebooks/*.ipynb", "book/*.ipynb")
_SKIP_DIRS = {"__pycache__", ".ipynb_checkpoints"}
_SKIP_SUFFIXES = {".pyc", ".pyo"}


@dataclass
class ExecutionRecord:
    """What one execution of one chapter was: the key it ran under, how long it took, and where."""

    chapter: str
    key: str
    wall_time_s: float
    peak_memory_mib: float | None
    parameters: dict[str, Any]
    executor: str
    commit: str
    date: str
    #: the code-path variables the execution ran under (:func:`code_paths`; empty in records made before)
    code_paths: dict[str, str] = field(default_factory=dict)
    reused: bool = field(default=False, compare=False)

    def to_json(self) -> str:
        d = asdict(self)
        d.pop("reused")
        return json.dumps(d, indent=1, default=str)


def _files(path: Path) -> Iterable[Path]:
    if path.is_file():
        yield path
        return
    if not path.is_dir():
        return
    for p in sorted(path.rglob("*")):
        rel_parts = p.relative_to(path).parts
        if any(part in _SKIP_DIRS or part.startswith(".") for part in rel_parts):
            continue
        if p.is_file() and p.suffix not in _SKIP_SUFFIXES:
            yield p


#: The book layer (relative to the repository root): of its files, only the modules an executed notebook can import
#: are inputs of an execution (``kernel_book_modules``).
BOOK_LAYER = "src/dpcompendium/book"
_PACKAGE = "dpcompendium"
#: a whole string that names a module of the package (``importlib.import_module("dpcompendium.book.check.mwem")``, a
#: table of such names): counted as an import
_MODULE_NAME = re.compile(rf"{_PACKAGE}(?:\.\w+)+")


def _imports(source: str, module: str = "", is_package: bool = False) -> set[str]:
    """The modules ``source`` imports anywhere (at the top, inside functions, relative imports resolved against
    ``module``), with every imported name also taken as a possible submodule, and every string constant that is a whole
    dotted name of the package (dynamic imports by name). Unparsable source: nothing."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return set()
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = module.split(".") if module else []
                base = parts if is_package else parts[:-1]
                base = base[: len(base) - (node.level - 1)]
                name = ".".join([*base, *([node.module] if node.module else [])])
            else:
                name = node.module or ""
            found.add(name)
            found.update(f"{name}.{a.name}" for a in node.names)
        elif (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and _MODULE_NAME.fullmatch(node.value)
        ):
            found.add(node.value)
    return {m for m in found if m == _PACKAGE or m.startswith(_PACKAGE + ".")}


def _module_file(src: Path, name: str) -> Path | None:
    path = src.joinpath(*name.split("."))
    for f in (path / "__init__.py", path.with_suffix(".py")):
        if f.is_file():
            return f
    return None


def kernel_book_modules(
    root: Path, patterns: Sequence[str] = EXECUTED_NOTEBOOKS
) -> frozenset[Path]:
    """The book layer's module files (under ``BOOK_LAYER``) that a kernel executing the notebooks of ``patterns``
    can import: what their code cells import (magics and shell lines left out), then, transitively, what each reached
    module of the package imports (``_imports``: any import statement, wherever it stands, and module names
    written as strings). Read from the source, so the set is known before any execution and is a superset of what
    an execution imports, unless a module is imported by a name computed at run time (the book layer has no such
    import that a chapter reaches: ``tests/test_execution.py`` checks the set against a kernel's ``sys.modules``)."""
    root = Path(root)
    src = (root / BOOK_LAYER).parents[1]  # the folder that holds the package
    notebooks = executed_notebooks(root, patterns)
    # the same sources give the same set: read them once per process (the notebooks stage asks once per chapter)
    stamp = tuple(
        (str(p), st.st_mtime_ns, st.st_size)
        for p in [*notebooks, *sorted((src / _PACKAGE).rglob("*.py"))]
        if (st := p.stat())
    )
    if (cached := _KERNEL_BOOK_MODULES.get(stamp)) is not None:
        return cached
    todo: list[str] = []
    for nb in notebooks:
        try:
            cells = json.loads(nb.read_text(encoding="utf-8")).get("cells", [])
        except (OSError, ValueError):
            continue
        for cell in cells:
            if cell.get("cell_type") != "code":
                continue
            text = cell.get("source", "")
            text = text if isinstance(text, str) else "".join(text)
            lines = (ln for ln in text.splitlines() if not ln.lstrip().startswith(("%", "!")))
            todo.extend(_imports("\n".join(lines)))
    seen: dict[str, Path] = {}
    while todo:
        parts = todo.pop().split(".")
        for i in range(1, len(parts) + 1):  # a module's parent packages are imported first
            name = ".".join(parts[:i])
            if name in seen or (f := _module_file(src, name)) is None:
                continue
            seen[name] = f
            todo.extend(_imports(f.read_text(encoding="utf-8"), name, f.name == "__init__.py"))
    book = (root / BOOK_LAYER).resolve()
    found = frozenset(f.resolve() for f in seen.values() if f.resolve().is_relative_to(book))
    _KERNEL_BOOK_MODULES.clear()
    _KERNEL_BOOK_MODULES[stamp] = found
    return found


_KERNEL_BOOK_MODULES: dict[tuple, frozenset[Path]] = {}


def inputs_digest(root: Path, inputs: Sequence[str] = DEFAULT_INPUTS) -> str:
    """SHA-256 over the relative path and bytes of every file under ``inputs`` (sorted; caches skipped), where of the
    book layer (``BOOK_LAYER``) only the modules an executed notebook can import count
    (``kernel_book_modules``)."""
    root = Path(root)
    h = hashlib.sha256()
    book = (root / BOOK_LAYER).resolve()
    kept: frozenset[Path] | None = None
    for entry in inputs:
        base = root / entry
        for f in _files(base):
            if f.resolve().is_relative_to(book):
                if kept is None:
                    kept = kernel_book_modules(root)
                if f.resolve() not in kept:
                    continue
            h.update(f.relative_to(root).as_posix().encode())
            h.update(b"\0")
            h.update(hashlib.sha256(f.read_bytes()).digest())
    return h.hexdigest()


def chapter_key(notebook: Path, digest: str) -> str:
    """The key of one chapter: SHA-256 of the inputs' digest and what the notebook runs — its cells' types, sources
    and metadata, its own metadata — not its stored outputs: re-recording a chapter's checked outputs
    (``tools/record_headlines.py``) does not make its execution stale (issue 50)."""
    h = hashlib.sha256(digest.encode())
    nb = json.loads(Path(notebook).read_text(encoding="utf-8"))
    runs = {
        "metadata": nb.get("metadata", {}),
        "cells": [
            {k: v for k, v in cell.items() if k not in ("outputs", "execution_count")}
            for cell in nb.get("cells", [])
        ],
    }
    h.update(json.dumps(runs, sort_keys=True, ensure_ascii=False).encode())
    return h.hexdigest()


#: The environment variables that choose a run's code paths (issue 44), kept in each execution's record.
CODE_PATH_VARIABLES = (
    "NPY_DISABLE_CPU_FEATURES",
    "NUMBA_CPU_NAME",
    "OPENBLAS_CORETYPE",
    "OMP_NUM_THREADS",
    "OPENBLAS_NUM_THREADS",
    "MKL_NUM_THREADS",
    "PYTHONHASHSEED",
)


def code_paths() -> dict[str, str]:
    """The code-path variables (:data:`CODE_PATH_VARIABLES`) set in this process's environment."""
    return {k: os.environ[k] for k in CODE_PATH_VARIABLES if os.environ.get(k) is not None}


def _git(root: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(root), *args], capture_output=True, text=True, check=True
    ).stdout.strip()


def _git_commit(root: Path) -> str:
    """The short commit of ``root``, with ``+dirty`` when tracked files differ from it; ``unknown`` without git."""
    try:
        commit = _git(root, "rev-parse", "--short=12", "HEAD")
        dirty = _git(root, "status", "--porcelain", "--untracked-files=no")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return commit + ("+dirty" if dirty else "")


def kernel_peak_memory_mib(pid: int | None) -> float | None:
    """Peak resident memory (``VmHWM``) of a running process, in MiB; None where /proc cannot tell."""
    if pid is None:
        return None
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024.0
    except OSError:
        return None
    return None


def _kernel_pid(km: Any) -> int | None:
    prov = getattr(km, "provisioner", None)
    proc = getattr(prov, "process", None) if prov is not None else None
    pid = getattr(proc, "pid", None)
    if pid is None:
        pid = getattr(getattr(km, "kernel", None), "pid", None)
    return pid


def _default_parameters(notebook: Path) -> dict[str, Any]:
    from .contract import _load_chapter

    try:
        chapter = _load_chapter(notebook.stem, notebook.parent.parent)
    except (ValueError, OSError, SyntaxError, KeyError):
        return {}  # not a chapter of the contract (e.g. a test's miniature book)
    return {name: p.default for name, p in chapter.parameters.items() if name != "output_dir"}


def merge_outputs(source: nbformat.NotebookNode, executed: nbformat.NotebookNode):
    """The source notebook with the executed outputs and counts (cell metadata and ids kept as in the source).

    jupyter-cache matches a notebook by its code cells' source *and metadata*, so the cached copy must keep the
    source's metadata exactly (nbclient adds timing metadata to every cell).
    """
    out = copy.deepcopy(source)
    src_code = [c for c in out.cells if c.cell_type == "code"]
    exe_code = [c for c in executed.cells if c.cell_type == "code"]
    if len(src_code) != len(exe_code):
        raise ValueError(
            f"executed notebook has {len(exe_code)} code cells, the source {len(src_code)}"
        )
    for s, e in zip(src_code, exe_code, strict=True):
        if s.source != e.source:
            raise ValueError("executed notebook does not match its source (a code cell differs)")
        s.outputs = copy.deepcopy(e.get("outputs", []))
        s.execution_count = e.get("execution_count")
    return out


def store_execution(
    store: Path, chapter: str, executed: nbformat.NotebookNode, record: ExecutionRecord
) -> None:
    """Write ``<chapter>.ipynb`` and ``<chapter>.json`` atomically (the record last: it marks completion)."""
    store = Path(store)
    store.mkdir(parents=True, exist_ok=True)
    for name, write in (
        (f"{chapter}.ipynb", lambda p: nbformat.write(executed, p)),
        (f"{chapter}.json", lambda p: Path(p).write_text(record.to_json())),
    ):
        tmp = store / f".{name}.{os.getpid()}.tmp"
        write(str(tmp))
        os.replace(tmp, store / name)


def load_record(store: Path, chapter: str) -> ExecutionRecord | None:
    """The stored record of a chapter, or None (missing or unreadable)."""
    path = Path(store) / f"{chapter}.json"
    nb_path = Path(store) / f"{chapter}.ipynb"
    if not path.exists() or not nb_path.exists():
        return None
    try:
        return ExecutionRecord(**json.loads(path.read_text()))
    except (ValueError, TypeError):
        return None


def make_record(
    root: Path,
    notebook: Path,
    key: str,
    wall_time_s: float,
    peak_memory_mib: float | None,
    executor: str,
) -> ExecutionRecord:
    return ExecutionRecord(
        chapter=Path(notebook).stem,
        key=key,
        wall_time_s=round(float(wall_time_s), 3),
        peak_memory_mib=None if peak_memory_mib is None else round(float(peak_memory_mib), 1),
        parameters=_default_parameters(Path(notebook)),
        executor=executor,
        commit=_git_commit(Path(root)),
        date=_dt.datetime.now(_dt.UTC).strftime("%Y-%m-%d %H:%M:%S UTC"),
        code_paths=code_paths(),
    )


def execute_notebook(
    notebook: Path,
    *,
    timeout: int = 1200,
    kernel_name: str = "python3",
    env: dict[str, str] | None = None,
) -> tuple[nbformat.NotebookNode, float, float | None]:
    """Execute a notebook in its own folder with nbclient; return (executed, wall time s, peak kernel MiB).

    Raises ``nbclient.exceptions.CellExecutionError`` on the first cell error.
    """
    from nbclient import NotebookClient

    from .kernels import kernel_manager_class

    notebook = Path(notebook)
    nb = nbformat.read(notebook, as_version=4)
    peak: list[float] = []
    client = NotebookClient(
        nb,
        timeout=timeout,
        kernel_name=kernel_name,
        resources={"metadata": {"path": str(notebook.parent)}},
        allow_errors=False,
        startup_timeout=600,  # two chapters start at once on a busy machine: a slow start is no failure
        kernel_manager_class=kernel_manager_class(),  # IPC: no "running over TCP without encryption" warning
    )

    def on_cell_executed(**_: Any) -> None:
        m = kernel_peak_memory_mib(_kernel_pid(client.km))
        if m is not None:
            peak.append(m)

    client.on_cell_executed = on_cell_executed
    t0 = time.perf_counter()
    with _environ(env or {}):
        client.execute()
    return nb, time.perf_counter() - t0, max(peak) if peak else None


def ensure_executed(
    root: Path,
    notebooks: Sequence[Path],
    *,
    store: Path | None = None,
    inputs: Sequence[str] = DEFAULT_INPUTS,
    jobs: int = 2,
    timeout: int = 1200,
    log: Callable[[str], None] = print,
) -> dict[str, ExecutionRecord]:
    """Make sure every notebook has a stored execution under its current key; execute the stale ones in parallel.

    Returns the record of every chapter, with ``reused=True`` for those that were not executed now. The first cell
    error raises (the book build fails).
    """
    root = Path(root)
    store = Path(store) if store is not None else root / DEFAULT_STORE
    digest = inputs_digest(root, inputs)
    records: dict[str, ExecutionRecord] = {}
    stale: list[tuple[Path, str]] = []
    for nb in notebooks:
        nb = Path(nb)
        key = chapter_key(nb, digest)
        rec = load_record(store, nb.stem)
        if rec is not None and rec.key == key:
            rec.reused = True
            records[nb.stem] = rec
        else:
            stale.append((nb, key))
    if not stale:
        log(f"execution: all {len(records)} chapters unchanged, none executed")
        return records
    log(
        f"execution: executing {len(stale)} chapter(s) with {min(jobs, len(stale))} worker(s): "
        + ", ".join(nb.stem for nb, _ in stale)
    )
    # The kernels need the inline backend so that figures are captured as outputs.
    env = {"MPLBACKEND": "module://matplotlib_inline.backend_inline"}
    # Environment variables are process-wide: set them once around the pool, not per thread.
    with _environ(env):

        def run(item: tuple[Path, str]) -> ExecutionRecord:
            nb, key = item
            executed, wall, peak = execute_notebook(nb, timeout=timeout)
            source = nbformat.read(nb, as_version=4)
            rec = make_record(root, nb, key, wall, peak, executor="book build (nbclient)")
            store_execution(store, nb.stem, merge_outputs(source, executed), rec)
            log(f"execution: {nb.stem} executed in {wall:.1f} s")
            return rec

        # Longest first (by the last recorded wall time) so that the pool finishes early.
        def last_time(item: tuple[Path, str]) -> float:
            rec = load_record(store, item[0].stem)
            return -(rec.wall_time_s if rec else 0.0)

        stale.sort(key=last_time)
        # on a terminal, a bar in seconds of the chapters' expected wall times, with the time left (quiet in CI)
        expected = {nb.stem: -last_time((nb, key)) or _time_hint(root, nb) for nb, key in stale}
        bar = _progress(sum(expected.values()), len(stale))
        with ThreadPoolExecutor(max_workers=max(1, min(jobs, len(stale)))) as pool:
            for rec in pool.map(run, stale):
                records[rec.chapter] = rec
                if bar is not None:
                    bar.update(expected[rec.chapter])
        if bar is not None:
            bar.close()
    return records


def _time_hint(root: Path, notebook: Path) -> float:
    """The chapter's wall-time hint from its manifest (60 s when it has none)."""
    from ..chapters import registry

    try:
        return registry.get_manifest(notebook.stem, root).time_hint_s
    except (ValueError, KeyError, OSError):
        return 60.0


def _progress(total_s: float, n: int):
    """A tqdm bar over ``total_s`` expected seconds of ``n`` chapters, or None when not on a terminal."""
    from .progress import enabled

    if not enabled():
        return None
    import sys

    from tqdm import tqdm

    return tqdm(
        total=round(total_s, 1), desc=f"executing {n} chapter(s)", unit="s", file=sys.stderr,
        bar_format="{desc}: {percentage:3.0f}%|{bar}| [{elapsed}<{remaining}]",
    )  # fmt: skip


def executed_notebooks(root: Path, patterns: Sequence[str] = EXECUTED_NOTEBOOKS) -> list[Path]:
    """Every notebook of ``patterns`` under ``root`` (the chapters, then the executable book pages), sorted per pattern."""
    return [nb for pattern in patterns for nb in sorted(Path(root).glob(pattern))]


def output_language(output: dict[str, Any]) -> str | None:
    """The edition an output is shown in (its metadata ``{"dpcompendium": {"lang": LANG}}``, written by
    :func:`dpcompendium.book.prose.show`), or None: shown in every edition."""
    meta = output.get("metadata") or {}
    tag = meta.get("dpcompendium") if isinstance(meta, dict) else None
    return tag.get("lang") if isinstance(tag, dict) else None


def for_language(nb: nbformat.NotebookNode, lang: str) -> nbformat.NotebookNode:
    """``nb`` with only the outputs the edition in ``lang`` shows (``"en"``: the English book): an output tagged
    with another language is dropped, untagged outputs are kept. ``nb`` itself is not changed."""
    out = copy.deepcopy(nb)
    for cell in out.cells:
        if cell.get("cell_type") == "code" and cell.get("outputs"):
            cell.outputs = [o for o in cell.outputs if output_language(o) in (None, lang)]
    return out


#: The folder, in the execution store, of the figures' one-column renderings (:func:`extract_narrow_figures`).
NARROW_FIGURES = "narrow"


def narrow_figure_name(png: bytes) -> str:
    """The file name, in :data:`NARROW_FIGURES`, of the one-column rendering of the figure whose (wide) PNG is
    ``png``: the SHA-256 of the wide PNG, as MyST-NB names the wide one's file, so the book finds it from the page's
    image (:func:`dpcompendium.book.sphinxext`)."""
    return hashlib.sha256(png).hexdigest() + ".png"


def extract_narrow_figures(nb: nbformat.NotebookNode, folder: Path) -> int:
    """Write each figure output's one-column rendering (its metadata's ``narrow``:
    :func:`dpcompendium.book.chapter.show_figure`) into ``folder`` as :func:`narrow_figure_name` of its wide PNG,
    and drop it from the output (in place); return how many were written."""
    import base64

    from .chapter import NARROW_KEY

    n = 0
    for cell in nb.cells:
        for output in cell.get("outputs", []) if cell.get("cell_type") == "code" else []:
            tag = (output.get("metadata") or {}).get("dpcompendium")
            narrow = tag.pop(NARROW_KEY, None) if isinstance(tag, dict) else None
            wide = (output.get("data") or {}).get("image/png")
            if not narrow or not wide:
                continue
            folder.mkdir(parents=True, exist_ok=True)
            path = folder / narrow_figure_name(base64.b64decode(wide))
            data = base64.b64decode(narrow["png"])
            if not path.exists() or path.read_bytes() != data:
                path.write_bytes(data)
            n += 1
    return n


def populate_jupyter_cache(
    cache_path: Path, store: Path, notebooks: Sequence[Path], lang: str = "en"
) -> None:
    """Put each stored execution into jupyter-cache (overwriting any entry for the same notebook hash), with the
    outputs of the edition in ``lang`` (``for_language``).

    MyST-NB (``execute_notebooks: cache``) then finds every chapter in the cache and executes nothing.
    """
    from jupyter_cache import get_cache
    from jupyter_cache.base import CacheBundleIn

    cache = get_cache(str(cache_path))
    for nb in notebooks:
        nb = Path(nb)
        rec = load_record(store, nb.stem)
        if rec is None:
            continue
        executed = for_language(nbformat.read(Path(store) / f"{nb.stem}.ipynb", as_version=4), lang)
        extract_narrow_figures(executed, Path(store) / NARROW_FIGURES)
        cache.cache_notebook_bundle(
            CacheBundleIn(executed, str(nb.resolve()), data={"execution_seconds": rec.wall_time_s}),
            check_validity=False,
            overwrite=True,
        )


def book_key(root: Path, notebooks: Sequence[Path], inputs: Sequence[str] = DEFAULT_INPUTS) -> str:
    """One key for the whole book: SHA-256 of every chapter's key (what a CI cache of the store is keyed by)."""
    digest = inputs_digest(root, inputs)
    h = hashlib.sha256()
    for nb in sorted(Path(p) for p in notebooks):
        h.update(nb.name.encode() + b"\0" + chapter_key(nb, digest).encode())
    return h.hexdigest()


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m dpcompendium.book.execution [key|status]``: the book's execution key, or each chapter's state."""
    import argparse

    from ..core.paths import repo_root

    parser = argparse.ArgumentParser(
        prog="python -m dpcompendium.book.execution", description=main.__doc__
    )
    parser.add_argument("what", choices=["key", "status"], nargs="?", default="status")
    args = parser.parse_args(argv)
    root = repo_root()
    notebooks = executed_notebooks(root)
    if args.what == "key":
        print(book_key(root, notebooks))
        return 0
    digest = inputs_digest(root)
    for nb in notebooks:
        rec = load_record(root / DEFAULT_STORE, nb.stem)
        fresh = rec is not None and rec.key == chapter_key(nb, digest)
        state = "stored, current" if fresh else ("stored, STALE" if rec else "not executed")
        extra = f" ({rec.wall_time_s:.1f} s by {rec.executor}, {rec.date})" if rec else ""
        print(f"{nb.stem:<15} {state}{extra}")
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
