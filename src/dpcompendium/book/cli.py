"""The ``dpcompendium`` command: list chapters, rerun one with your parameters, build the book::

    dpcompendium list
    dpcompendium run CHAPTER [-p NAME VALUE]... [--out DIR] [--overwrite] [--open] [--no-page] [--lang zh_CN]
                          [--scheduler ADDRESS|local:N]
    dpcompendium book [--strict]   (chapters executed only when stale: see dpcompendium.book.execution)
    dpcompendium i18n [status|update|build]   (the Chinese edition: see dpcompendium.book.i18n)
    dpcompendium data [list]       (the data registry and each file's status in the data cache)
    dpcompendium data fetch [NAME]...   (download registered files, verifying their SHA-256)
    dpcompendium audit TARGET --epsilon E ...   (audit your own mechanism; see cli_coursework)
    dpcompendium check mwem TARGET ...          (check your own MWEM; see cli_coursework)

``run`` validates everything before it executes or writes anything (parameters, and the registered data files the
chapter needs with them: present in the data cache with their SHA-256; ``run`` never downloads); the chapter runs with papermill into a hidden
staging folder beside ``DIR/CHAPTER`` that replaces ``DIR/CHAPTER`` only when the whole notebook has succeeded, so a
failed run leaves no half-written results: it prints the failing cell's line and the traceback's last frames (all
with ``-v``) and keeps the executed notebook, with the error in its cell, as ``DIR/CHAPTER.failed.ipynb``. A run
into a ``DIR/CHAPTER`` that holds an earlier run's results is refused unless ``--overwrite``. The results include ``index.html``, the executed chapter built as a page by
the book's own pipeline (Jupyter Book / Sphinx, one chapter) and headed by the run's provenance
(``dpcompendium.book.rerun_page``); ``--open`` opens it in a browser.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import yaml

from ..core.parallel import ONE_BLAS_THREAD, add_scheduler_argument, with_scheduler
from ..core.paths import repo_root
from .cliutil import YamlLoader as _Loader
from .cliutil import environ, plain
from .cliutil import fail as _fail
from .contract import (
    CHAPTER_DATASETS,
    chapters,
    get_chapter,
)
from .preflight import RunPlan, plan_run
from .preflight import missing_data as _missing_data  # noqa: F401  (tests/test_data_cli.py)
from .processes import critical, end_descendants, guard, remove_on_interrupt, set_target
from .progress import progress_bar
from .prose import plural

#: Seconds ``dpcompendium run`` waits for the chapter's kernel to start (papermill's default is 60).
KERNEL_START_TIMEOUT = 600
#: Seconds papermill waits for a cell's output messages once the kernel has replied (papermill raises after nbclient's 4 s
#: default: the edge fuzz, at low priority on a loaded machine, failed a histograms run with "A cell timed out … after
#: 4 seconds" although the cell had finished; a late output is no failure of the chapter).
IOPUB_TIMEOUT = 120
RESERVED = {"output_dir"}
#: Commands that start kernels, workers or builds (dpcompendium.book.processes.guard)
GUARDED = {"run", "audit", "check", "book"}


def cmd_list(args: argparse.Namespace) -> int:
    selected = chapters()
    if getattr(args, "chapter", None):
        try:
            selected = [get_chapter(args.chapter)]
        except ValueError as exc:
            return _fail(str(exc))
    for ch in selected:
        print(f"{ch.id}: {ch.title}")
        for p in ch.parameters.values():
            if p.name in RESERVED:
                continue
            rng = f" [{p.constraint}]" if p.constraint else ""
            print(f"    {p.name} = {p.default!r}{rng}  — {p.help}")
        for req in ch.requires:
            print(f"    require: {req.expression}" + (f"  — {req.why}" if req.why else ""))
        print()
    return 0


def _parse_values(pairs: list[list[str]]) -> dict[str, Any]:
    values: dict[str, Any] = {}
    for name, raw in pairs:
        if name in RESERVED:
            raise ValueError(f"parameter {name} is set by --out, not by -p")
        try:
            values[name] = yaml.load(raw, Loader=_Loader)  # _Loader is a SafeLoader
        except yaml.YAMLError as exc:
            raise ValueError(f"parameter {name}: value {raw!r} is not valid YAML") from exc
    return values


#: Frames of a failed cell's traceback printed without -v (the last ones: where the exception was raised).
FAILED_FRAMES = 3


def _fail_run(chapter_id: str, exc: BaseException, kept: Path | None, *, verbose: bool) -> int:
    """A failed run in a few lines on standard error: the error (the cell, its line), the line's source, the last
    :data:`FAILED_FRAMES` frames of the traceback (every frame with ``-v``) and where the executed notebook is."""
    import re

    ename = getattr(exc, "ename", type(exc).__name__)
    evalue = getattr(exc, "evalue", str(exc))
    cell = getattr(exc, "exec_count", None)
    tb = [_strip_ansi(t) for t in getattr(exc, "traceback", None) or []]
    line = None
    for chunk in tb:
        if m := re.match(r"Cell In\[\d+\], line (\d+)", chunk):
            line = int(m.group(1))
            break
    where = f" in cell [{cell}]" if cell is not None else ""
    where += f", line {line}" if line is not None else ""
    first = str(evalue).splitlines()[0] if str(evalue).strip() else ""
    _fail(f"chapter {chapter_id} failed{where}: {ename}: {first}".rstrip(": "), code=1)
    source = (getattr(exc, "source", "") or "").splitlines()
    if line is not None and 0 < line <= len(source):
        print(f"  the cell's line {line}: {source[line - 1].strip()}", file=sys.stderr)
    frames = [t for t in tb if t.startswith(("Cell In[", "File "))]
    if frames:
        shown = frames if verbose else frames[-FAILED_FRAMES:]
        more = "" if verbose or len(frames) <= FAILED_FRAMES else f" of {len(frames)}; -v for all"
        print(f"  traceback (last {len(shown)} frame(s){more}):", file=sys.stderr)
        for frame in shown:
            for text in frame.rstrip().splitlines():
                print(f"    {text}", file=sys.stderr)
        print(f"    {ename}: {evalue}", file=sys.stderr)
    if kept is not None:
        print(f"  the executed notebook, with the error in its cell: {kept}", file=sys.stderr)
    return 1


def _strip_ansi(text: str) -> str:
    import re

    return re.sub(r"\x1b\[[0-9;]*[A-Za-z]", "", text)


def cmd_run(args: argparse.Namespace) -> int:
    """``dpcompendium run``: the run planned in one place (:func:`~dpcompendium.book.preflight.plan_run`: every
    refusal before anything runs or is written), executed into a staging folder (``_execute``), its page built
    (``_page``), then installed as ``DIR/CHAPTER`` whole (``_install``) and reported."""
    import time
    from datetime import UTC, datetime

    try:
        plan = plan_run(
            args.chapter,
            _parse_values(args.parameter or []),
            args.out,
            lang=args.lang,
            overwrite=args.overwrite,
            page=not args.no_page,
            pdf=args.pdf,
            chromium=_chromium() if args.pdf else None,
        )
    except ValueError as exc:
        return _fail(str(exc))
    for notice in plan.notices:
        print(f"dpcompendium: note: {notice}", file=sys.stderr)
    from ..core import data

    # the kernel reads the data from the folder just checked, wherever it was found
    os.environ["DPCOMPENDIUM_DATA_DIR"] = str(data.cache_dir())
    set_target(plan.dest)
    try:
        plan.out.mkdir(exist_ok=True)
        with critical():  # an interrupt finds the staging folder made and known, or not made
            staging = Path(tempfile.mkdtemp(prefix=f".{plan.chapter.id}.partial-", dir=plan.out))
            remove_on_interrupt(staging)
    except OSError as exc:
        return _fail(f"--out must be a writable folder, got {args.out!r} ({exc.strerror or exc})")
    started, t0 = datetime.now(UTC), time.perf_counter()
    try:
        executed = _execute(plan, staging, kernel=args.kernel, verbose=args.verbose)
        run_seconds, t_page = time.perf_counter() - t0, time.perf_counter()
        page_error = (
            "--no-page" if args.no_page else _page(plan, executed, staging, run_seconds, started)
        )
        page_seconds = time.perf_counter() - t_page
    except Exception as exc:  # papermill raises PapermillExecutionError with the cell's error
        executed = staging / f"{plan.chapter.id}.ipynb"
        kept = plan.failed_notebook if executed.is_file() else None
        if kept is not None:  # papermill wrote the notebook with the error before raising: keep it
            try:
                executed.replace(kept)
            except OSError:
                kept = None
        shutil.rmtree(staging, ignore_errors=True)
        return _fail_run(plan.chapter.id, exc, kept, verbose=args.verbose)
    except BaseException:  # an interrupt (dpcompendium.book.processes): no partial folder stays
        with critical():
            end_descendants(grace=1.0, now=True)
            shutil.rmtree(staging, ignore_errors=True)
        raise
    _install(plan, staging)
    return _report(plan, run_seconds, page_seconds, page_error, pdf=args.pdf, open_it=args.open)


def _chromium() -> str:
    """The Chromium ``--pdf`` prints with (:data:`dpcompendium.book.pdf.CHROMIUM`)."""
    from .pdf import CHROMIUM

    return CHROMIUM


def _execute(plan: RunPlan, staging: Path, *, kernel: str, verbose: bool) -> Path:
    """Execute the plan's chapter with papermill into ``staging`` (its values, ``output_dir`` the staging folder);
    return the executed notebook, its injected parameters naming the final folder."""
    import nbformat
    import papermill as pm

    from .chapter import FIGURE_LANGUAGES_ENV
    from .kernels import kernel_manager_class

    chapter = plan.chapter
    executed = staging / f"{chapter.id}.ipynb"
    # one BLAS thread in the kernel, as in Dask's and joblib's workers: the same tables whatever n_jobs or scheduler;
    # the kernel draws its figures in English and in the language of the page only (chapter.figure_languages)
    with environ({FIGURE_LANGUAGES_ENV: plan.figure_languages, **ONE_BLAS_THREAD}):
        pm.execute_notebook(
            str(chapter.notebook),
            str(executed),
            parameters={**plan.values, "output_dir": str(staging)},
            cwd=str(chapter.notebook.parent),
            kernel_name=kernel,
            # a bar of cells with the time left, on a terminal or with -v (quiet in CI logs and pipes)
            progress_bar=progress_bar(chapter.id, force=verbose),
            log_output=verbose,
            # written once, at the end: saving the notebook after every cell (papermill's default) re-serializes
            # every figure each time, ~1 s of a short run; a failed run leaves nothing to read anyway
            request_save_on_cell_execute=False,
            # papermill waits 60 s for a kernel by default; on a busy machine (two chapters, a test worker, a Dask
            # cluster) start-up can take longer, and a slow start is not a failure of the chapter
            start_timeout=KERNEL_START_TIMEOUT,
            iopub_timeout=IOPUB_TIMEOUT,
            # IPC transport: the kernel does not warn "running over TCP without encryption" (dpcompendium.book.kernels)
            kernel_manager_class=kernel_manager_class(),
        )
    nb = nbformat.read(executed, as_version=4)
    for cell in nb.cells:
        if "injected-parameters" in cell.get("metadata", {}).get("tags", []):
            cell.source = cell.source.replace(str(staging), str(plan.dest))
    nbformat.write(nb, executed)
    return executed


def _page(plan: RunPlan, executed: Path, staging: Path, run_seconds: float, started) -> str:
    """Build the rerun's page from the plan and the executed notebook; return "" or why there is no page."""
    from .rerun_page import write_page

    try:
        write_page(plan, executed, run_seconds, started, rename={str(staging): str(plan.dest)})
    except (RuntimeError, OSError, ImportError) as exc:
        # the results are complete; only their page is missing (e.g. no Jupyter Book: the `book` extra)
        return str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    return ""


def _install(plan: RunPlan, staging: Path) -> None:
    """Put ``staging`` in place as the plan's ``DIR/CHAPTER``: the old results are replaced whole or not at all."""
    dest, out_root = plan.dest, plan.out
    with critical():
        if dest.exists():
            old = Path(tempfile.mkdtemp(prefix=f".{plan.chapter.id}.old-", dir=out_root))
            dest.rename(old / plan.chapter.id)
            staging.rename(dest)
            shutil.rmtree(old, ignore_errors=True)
        else:
            staging.rename(dest)
        remove_on_interrupt(None)
        set_target(None)
    # a failed notebook of an earlier attempt describes results that are not these
    plan.failed_notebook.unlink(missing_ok=True)


def _report(
    plan: RunPlan,
    run_seconds: float,
    page_seconds: float,
    page_error: str,
    *,
    pdf: bool,
    open_it: bool,
) -> int:
    """What the run wrote and where, the page's warnings; the page printed (``--pdf``) and opened (``--open``)."""
    dest = plan.dest
    wrote = (
        f"wrote {plural(len(list(dest.glob('*.csv'))), 'table')} and "
        f"{plural(len(list(dest.glob('*.png'))), 'figure')}"
    )
    if page_error:
        print(
            f"{plan.chapter.id}: {wrote} to {dest} (run {run_seconds:.1f} s); no page: {page_error}"
        )
        return 0
    print(
        f"{plan.chapter.id}: {wrote} to {dest}; page {dest / 'index.html'}"
        f" (run {run_seconds:.1f} s, page {page_seconds:.1f} s)"
    )
    warnings = dest / "page-warnings.txt"
    if warnings.is_file():
        n = len(warnings.read_text().splitlines())
        print(f"the page was built with {n} Sphinx warning(s): see {warnings}")
    if pdf and (dest / "index.html").is_file():  # the page printed by Chromium, beside it
        from .pdf import page_pdf

        print(f"pdf: {page_pdf(dest / 'index.html')}", file=sys.stderr)
    if open_it:
        from .rerun_page import open_page

        if not open_page(dest / "index.html"):
            print("no web browser available: open the page yourself")
    return 0


def drop_stale_pdfs(html: Path) -> list[Path]:
    """Remove the PDFs a previous ``make pdf`` left beside the built HTML (``<html>/pdf``, ``<html>/<lang>/pdf``),
    where the pages' download buttons point: a new build changes the pages, and a PDF printed from the old ones would
    be served as this book's (reader review 4, M1). ``make pdf`` prints them again from the new build. Returns the
    folders removed."""
    from .i18n import LANGUAGES

    gone = []
    for folder in [html / "pdf", *(html / lang / "pdf" for lang in LANGUAGES)]:
        if folder.is_dir():
            shutil.rmtree(folder)
            gone.append(folder)
    return gone


def cmd_book(args: argparse.Namespace) -> int:
    import time

    t_start = time.perf_counter()
    root = repo_root()
    drop_stale_pdfs(root / "_build" / "html")
    exe = Path(sys.executable).with_name("jupyter-book")
    cmd = [
        str(exe) if exe.exists() else "jupyter-book",
        "build",
        str(root),
        "--path-output",
        str(root),
    ]
    if args.strict:
        cmd += ["-W", "-n", "--keep-going"]
    if args.all:
        # jupyter-book's --all: a fresh Sphinx environment (Sphinx's -E), every page read again
        cmd += ["--all"]
    # pages read by other versions of the book's own extensions are read again (dpcompendium.book._envstamp)
    from ._envstamp import drop_stale_environment, extension_hash

    if drop_stale_environment(root / "_build" / ".doctrees", extension_hash(root)):
        print(
            "dpcompendium book: the book's Sphinx extensions changed: every page is read again",
            file=sys.stderr,
        )
    # The kernels need the inline backend so that figures appear in the pages (Agg would show nothing).
    env = {
        **os.environ,
        "DPCOMPENDIUM_REPO": str(root),
        "MPLBACKEND": "module://matplotlib_inline.backend_inline",
    }
    rc = subprocess.call(cmd, cwd=root, env=env)
    english = root / "_build" / "html"
    print(
        f"dpcompendium book: the English edition in {english} ({time.perf_counter() - t_start:.1f} s"
        f"{'' if rc == 0 else ', FAILED'})",
        file=sys.stderr,
    )
    opened = [english / "index.html"]
    if rc or args.english_only:
        return _book_summary(rc, t_start, opened)
    # then each edition in another language, from the executions the English build stored (none executed again)
    from .i18n import LANGUAGES, output_dir

    for lang in LANGUAGES:
        t0 = time.perf_counter()
        # one process: sphinx_proof's domain cannot merge parallel readers' data (see i18n.PARALLEL_SAFE)
        jobs = "1"
        edition = [
            sys.executable,
            "-m",
            "dpcompendium.book.cli",
            "i18n",
            "build",
            "--lang",
            lang,
            "-j",
            jobs,
        ]
        rc = subprocess.call(
            edition + ["--strict"] * args.strict + ["--all"] * args.all, cwd=root, env=env
        )
        print(
            f"dpcompendium book: the {lang} edition in {output_dir(root, lang)} "
            f"({time.perf_counter() - t0:.1f} s{'' if rc == 0 else ', FAILED'})",
            file=sys.stderr,
        )
        if rc:
            return _book_summary(rc, t_start, opened)
        opened.append(output_dir(root, lang) / "index.html")
    return _book_summary(0, t_start, opened)


def _book_summary(rc: int, t_start: float, pages: list[Path]) -> int:
    """The closing line of ``dpcompendium book``: the total time, and what to open (or that it failed)."""
    import time

    total = time.perf_counter() - t_start
    if rc:
        print(
            f"dpcompendium book: FAILED after {total:.1f} s (exit status {rc}; see above)",
            file=sys.stderr,
        )
    else:
        shown = ", ".join(str(p) for p in pages)
        print(f"dpcompendium book: built in {total:.1f} s; open {shown}", file=sys.stderr)
    return rc


def cmd_data(args: argparse.Namespace) -> int:
    """``data`` / ``data list``: every registered file with its status; ``data fetch [NAME]...``: download."""
    from ..core import data

    reg = data.registry()
    root, source = data.cache_dir_source()
    if args.action == "fetch":
        return _fetch(args.names or list(reg), root, source)
    users = {n: [c for c, entries in CHAPTER_DATASETS.items() if n in dict(entries)] for n in reg}
    print(f"data cache: {root} ({source})")
    counts: dict[str, int] = {}
    width = max(map(len, reg))
    for name, info in reg.items():
        st = data.status(name, root)
        counts[st] = counts.get(st, 0) + 1
        used = f"  [{', '.join(users[name])}]" if users[name] else ""
        print(f"  {name:<{width}}  {st:<13}  {info.file}{used}")
    summary = ", ".join(f"{counts.get(k, 0)} {k}" for k in ("present", "missing", "hash mismatch"))
    print(f"{len(reg)} registered files: {summary}")
    if counts.get("present", 0) < len(reg):
        print("get them with 'dpcompendium data fetch [NAME]...' (see README, Data)")
    return 0


def _fetch(names: list[str], root: Path, source: str) -> int:
    from ..core import data

    reg = data.registry()
    unknown = [n for n in names if n not in reg]
    if unknown:
        return _fail(
            f"name must be a registered dataset, got {unknown[0]!r} (see 'dpcompendium data list')"
        )
    offline = data._offline()
    failed: list[tuple[str, str]] = []
    for name in dict.fromkeys(names):
        if data.status(name, root) == "present":
            print(f"{name}: present in {root}")
            continue
        if offline:
            failed.append((name, "DPCOMPENDIUM_OFFLINE is set"))
            continue
        try:
            data.fetch(name)
        except (OSError, ValueError) as exc:
            failed.append((name, str(exc).splitlines()[0]))
            continue
        print(f"{name}: fetched into {root}, SHA-256 verified")
    if not failed:
        return 0
    print(
        f"could not fetch {len(failed)} file(s); download each from its URL and put it, as named, in the folder "
        f"shown (the data cache {root}: {source}), or set DPCOMPENDIUM_DATA_DIR to a folder that holds them:",
        file=sys.stderr,
    )
    for name, why in failed:
        info = reg[name]
        target = root / info.file
        print(
            f"  {name}: {Path(info.file).name}  from {info.url}  into {target.parent}/",
            file=sys.stderr,
        )
        print(f"    ({why}; sha256 {info.sha256})", file=sys.stderr)
    return 1


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="dpcompendium",
        description=plain(__doc__.split("\n\n")[0]).rstrip(":") + ".",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = parser.add_subparsers(dest="command", required=True)
    lst = sub.add_parser(
        "list", help="list chapters and their parameters (all, or one: dpcompendium list CHAPTER)"
    )
    lst.add_argument("chapter", nargs="?", help="a chapter id: show that chapter's parameters only")
    lst.set_defaults(func=cmd_list)
    run = sub.add_parser("run", help="execute a chapter with your parameters")
    run.add_argument("chapter", help="chapter id (see dpcompendium list)")
    run.add_argument(
        "-p",
        "--parameter",
        nargs=2,
        action="append",
        metavar=("NAME", "VALUE"),
        help="a parameter (YAML value)",
    )
    run.add_argument(
        "--out",
        default="results",
        help="results folder (default: results); the run writes DIR/CHAPTER, and a failed run keeps its executed "
        "notebook as DIR/CHAPTER.failed.ipynb",
    )
    run.add_argument(
        "--overwrite",
        action="store_true",
        help="replace the results of an earlier run in DIR/CHAPTER (without it, run refuses to start: a second "
        "run never silently replaces the first one's results)",
    )
    run.add_argument("--kernel", default="python3", help="Jupyter kernel (default: python3)")
    run.add_argument(
        "--open", action="store_true", help="open the rerun's page (index.html) in a browser"
    )
    run.add_argument(
        "--no-page",
        action="store_true",
        help="write the results only (tables, figures, executed notebook), not index.html (~5 s less)",
    )
    run.add_argument(
        "--pdf",
        action="store_true",
        help="also print the rerun's page to DIR/CHAPTER/index.pdf (Debian's /usr/bin/chromium)",
    )
    run.add_argument(
        "--lang",
        default="en",
        help="the language of the rerun's page: en (default) or zh_CN (the Chinese edition: the chapter's text, "
        "generated sentences and figures in Chinese, from the same run)",
    )
    run.add_argument(
        "-v",
        "--verbose",
        action="store_true",
        help="stream the notebook's output and show the progress (cells executed out of all) even when standard "
        "error is not a terminal; a failed run prints every frame of the traceback",
    )
    add_scheduler_argument(run)
    run.set_defaults(func=with_scheduler(cmd_run))
    book = sub.add_parser(
        "book",
        help="build the HTML book in _build/html, executing the chapters whose notebook, library, "
        "data or lock changed since their last execution",
    )
    book.add_argument(
        "--strict", action="store_true", help="treat warnings as errors (-W -n --keep-going)"
    )
    book.add_argument("--all", action="store_true", help="rebuild every page")
    book.add_argument(
        "--english-only",
        action="store_true",
        help="build the English book only, not the editions in other languages (_build/html/<lang>)",
    )
    book.set_defaults(func=cmd_book)
    from .i18n import add_command as add_i18n_command

    add_i18n_command(sub)
    dat = sub.add_parser(
        "data",
        help="the data registry and each file's status in the data cache (data list), or download (data fetch)",
    )
    dat.set_defaults(func=cmd_data, action="list", names=[])
    dat_sub = dat.add_subparsers(dest="action")
    dat_sub.add_parser("list", help="every registered file: present, missing or hash mismatch")
    fetch = dat_sub.add_parser(
        "fetch",
        help="download registered files (all, or NAME...) into the data cache, verifying their SHA-256; "
        "offline (DPCOMPENDIUM_OFFLINE=1 or no network): print each file's URL and the folder to put it in",
    )
    fetch.add_argument("names", nargs="*", metavar="NAME", help="registered names (default: all)")
    from .cli_coursework import add_coursework_commands

    add_coursework_commands(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        # an interrupt ends them in one line, and no process of theirs outlives them
        if args.command in GUARDED:
            return guard(args.func, args, hard_exit=argv is None)
        code = args.func(args)
        sys.stdout.flush()  # here, not at exit: a reader gone while the buffer is written is caught below
        return code
    except BrokenPipeError:
        # the reader of our output went away (dpcompendium data | head -2): stop quietly
        _quiet_stdout()
        return 0


def _quiet_stdout() -> None:
    """After a broken pipe: point standard output at /dev/null, so that the interpreter's final flush of what is
    still buffered does not fail again (the BrokenPipeError traceback Python would otherwise print at exit)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (
        OSError,
        ValueError,
    ):  # no file descriptor (a test's captured stream): nothing to flush at exit
        pass


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
