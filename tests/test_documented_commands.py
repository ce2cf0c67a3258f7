"""Every ``dpcompendium ...`` command the documentation shows is executed, so a documented example cannot break.

Commands are collected from README.md, CONTRIBUTING.md, book/*.md and the notebooks' markdown cells: lines of fenced
code blocks that start with ``dpcompendium`` (or ``.venv/bin/dpcompendium``), and inline code spans that do and have
arguments (``dpcompendium run mwem -p ...``; a bare ``dpcompendium run`` is a mention). Each must name an
existing subcommand and parse (an unknown subcommand fails). ``run`` commands are executed with the same shape,
shrunk by extra ``-p`` overrides of the parameters they do not set (every capped number at the low end of the
chapter's fuzz size, lists at the fuzz size), ``--out`` pointed at a temporary folder; ``list`` is executed as
shown; ``book`` (the whole book, the ``book`` stage of ``make test``) is only parsed; any other subcommand is
executed as shown. Templates (``CHAPTER``, ``NAME VALUE``, ``DIR``) are parsed
with an example chapter substituted. README's commands run as a reader runs them outside make: without
``DPCOMPENDIUM_DATA_DIR`` and ``DPCOMPENDIUM_OFFLINE`` (the command finds ``../shared/data`` beside the clone itself).
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from _chapter_ids import DP_MEAN, MWEM

from dpcompendium.book.cli import build_parser
from dpcompendium.book.contract import get_chapter, validate_parameters
from dpcompendium.book.fuzz import fuzz_size, small_overrides
from dpcompendium.core.data import shared_data_dir
from dpcompendium.core.paths import repo_root

ROOT = repo_root()
BIN = Path(sys.executable).with_name("dpcompendium")
_FENCE = re.compile(r"^(```|~~~)[^\n]*\n(.*?)^\1", re.S | re.M)
_INLINE = re.compile(r"`((?:\.venv/bin/)?dpcompendium [^`]+)`")
_TEMPLATE = {
    "CHAPTER": DP_MEAN,
    "DIR": "results",
    "NAME": "reps",
    "VALUE": "2",
    "TARGET": "examples/coursework/mwem_student.py",
}
#: Subcommands only parsed, not executed (too expensive for a test; another stage runs them).
PARSE_ONLY = {"book", "i18n"}  # i18n: update rewrites the catalogues, build is the book stage's


def _sources() -> list[tuple[str, str]]:
    docs = [ROOT / "README.md", ROOT / "CONTRIBUTING.md", *sorted((ROOT / "book").glob("*.md"))]
    out = [(p.name, p.read_text()) for p in docs if p.is_file()]
    for nb_path in sorted((ROOT / "notebooks").glob("*.ipynb")):
        nb = nbformat.read(nb_path, as_version=4)
        out += [(nb_path.name, c.source) for c in nb.cells if c.cell_type == "markdown"]
    return out


def documented_commands() -> list[tuple[str, str]]:
    """(where, command) for every documented ``dpcompendium`` command, deduplicated, comments stripped."""
    found: dict[str, str] = {}
    for where, text in _sources():
        lines = [line for m in _FENCE.finditer(text) for line in m.group(2).splitlines()]
        # inline spans: commands with arguments (a bare `dpcompendium run` is a mention, not a command)
        spans = [c for c in _INLINE.findall(_FENCE.sub("", text)) if len(c.split()) >= 3]
        for line in lines + spans:
            line = line.strip()
            if not re.match(r"^(\.venv/bin/)?dpcompendium(\s|$)", line):
                continue
            words = shlex.split(line, comments=True)
            words[0] = "dpcompendium"
            # "[--strict]": an optional flag, shown both ways
            optional = [w for w in words if re.fullmatch(r"\[--?[\w-]+\]", w)]
            plain = [w for w in words if w not in optional]
            kind = "inline" if line in spans and line not in lines else "fenced"
            for variant in (plain, [*plain, *(w[1:-1] for w in optional)]):
                found.setdefault(shlex.join(variant), f"{where} ({kind})")
    return [(where, cmd) for cmd, where in found.items()]


COMMANDS = documented_commands()


def test_the_documentation_shows_commands():
    cmds = [c for _, c in COMMANDS]
    assert "dpcompendium list" in cmds
    assert any(c.startswith(f"dpcompendium run {MWEM} -p epsilons") for c in cmds), cmds


def _shrunk_run(words: list[str], out: Path, smallest: bool = False) -> list[str]:
    """``words`` (a documented ``run``) with ``--out`` at ``out`` and ``-p`` overrides of the parameters it does not
    set: shrunk to the fuzz size (:func:`~dpcompendium.book.fuzz.small_overrides`); with ``smallest``, every capped
    number it does not set at the low end of its cap instead (the costs at their smallest, as the edge sets have
    them), lists as at the fuzz size."""
    args = build_parser().parse_args(words[1:])
    chapter = get_chapter(args.chapter)
    given = {name for name, _ in args.parameter or []}
    from dpcompendium.book.cli import _parse_values

    values = _parse_values(args.parameter or [])
    extra = small_overrides(chapter, values)
    if smallest:
        for name, cap in fuzz_size(chapter).items():
            default = chapter.parameters[name].default if name in chapter.parameters else None
            if name in given or not isinstance(cap, tuple) or isinstance(default, bool | list):
                continue
            if isinstance(default, int | float) and default != cap[0]:
                extra[name] = type(default)(cap[0])
        validate_parameters(chapter, {**values, **extra})
    words = [w for w in words]
    if "--out" in words:
        words[words.index("--out") + 1] = str(out)
    else:
        words += ["--out", str(out)]
    for name, value in extra.items():
        assert name not in given
        words += ["-p", name, json.dumps(value)]
    return words


#: README's command whose run is the rerun page of ``tests/test_book_browser.py::test_rerun_page``: that test runs it as
#: this one does (:func:`run_documented`, with ``--pdf``), makes this test's checks of it (:func:`check_run`) and reads
#: its page in Chromium, so here it is ``extended`` (one whole run of the chapter fewer in make test).
RERUN_PAGE_COMMAND = f"dpcompendium run {DP_MEAN} -p seed 1 --open"


#: README's audit and check commands are the coursework page's first examples, which tests/test_audit_user.py runs
#: verbatim (the audit in make test, the 100-run check under make fuzz): here they are ``extended``.
COURSEWORK_RUN_ELSEWHERE = {"audit", "check"}


def _params():
    """README's commands run in ``make test`` (the one :data:`RERUN_PAGE_COMMAND` names in test_book_browser.py); the
    others are whole runs again of what other tests of ``make test`` already run (the exercises' audits and checks
    with their verdicts in ``test_book_exercises.py``, the coursework page's in ``test_audit_user.py``), so they are
    marked ``extended`` and run under ``make fuzz``."""
    return [
        pytest.param(
            where,
            cmd,
            id=cmd,
            marks=()
            if where.startswith("README.md")
            and cmd != RERUN_PAGE_COMMAND
            and cmd.split()[1] not in COURSEWORK_RUN_ELSEWHERE
            else (pytest.mark.extended,),
        )
        for where, cmd in COMMANDS
    ]


def run_documented(where: str, words: list[str], extra: tuple[str, ...] = ()):
    """Run ``words`` (a documented command, its output folder set) as the installed ``dpcompendium`` script, from the
    repository root, with ``extra`` arguments; README's commands as a reader types them in a fresh clone."""
    env = {**os.environ, "BROWSER": "true"}  # --open: a "browser" that opens nothing
    if where.startswith("README.md") and shared_data_dir() is not None:
        # as a reader types them in a fresh clone with ../shared/data beside it: no data variable set (make sets
        # them; conftest.py sets DPCOMPENDIUM_DATA_DIR for the other tests)
        unset = ("DPCOMPENDIUM_DATA_DIR", "DPCOMPENDIUM_OFFLINE")
        env = {k: v for k, v in env.items() if k not in unset}
    return subprocess.run(
        [str(BIN), *words[1:], *extra],
        cwd=ROOT,  # documented paths (examples/coursework/...) are relative to the repository
        env=env,
        capture_output=True,
        text=True,
        timeout=1800,
        check=False,
    )


def check_run(args, out: Path) -> None:
    """What a documented ``run`` (parsed ``args``, its ``--out`` at ``out``) must have written: the page, tables,
    every figure as PNG and SVG, no staging folder, the parameters it sets in the kernel's injected cell."""
    dest = out / args.chapter
    assert (dest / "index.html").is_file() and list(dest.glob("*.csv"))
    assert [p.name for p in out.iterdir()] == [args.chapter]  # no staging folder left
    pngs = sorted(p.stem for p in dest.glob("*.png"))
    assert pngs and pngs == sorted(
        p.stem for p in dest.glob("*.svg")
    )  # every figure in both formats
    # the parameters the command sets reached the kernel (papermill's injected cell)
    nb = nbformat.read(dest / f"{args.chapter}.ipynb", as_version=4)
    injected = next(
        c.source for c in nb.cells if "injected-parameters" in c.metadata.get("tags", [])
    )
    for name, _value in args.parameter or []:
        assert f"{name} = " in injected, (name, injected)


@pytest.mark.fuzz
@pytest.mark.integration
@pytest.mark.parametrize(("where", "command"), _params())
def test_documented_command_runs(where, command, tmp_path):
    words = shlex.split(command)
    template = [w for w in words if w in _TEMPLATE]
    words = [_TEMPLATE.get(w, w) for w in words]
    subcommands = build_parser()._subparsers._group_actions[0].choices
    assert words[1] in subcommands, f"{where}: {command!r}: no subcommand {words[1]!r}"
    try:
        args = build_parser().parse_args(words[1:])
    except SystemExit as exc:  # unknown option, missing argument
        if where.endswith("(inline)"):
            return  # an inline mention of a subcommand (`dpcompendium check mwem`), not a whole command
        pytest.fail(f"{where}: {command!r} does not parse (exit {exc.code})")
    if template or args.command in PARSE_ONLY:
        return
    if getattr(args, "scheduler", None):
        # A cluster address is never contacted from a test; local:N clusters are exercised by
        # tests/test_parallel_dask.py (a whole chapter with --scheduler local:2), so parsing is enough here.
        return
    if args.command == "run":
        # the command's own parameters as written, every other cost at its smallest: what is checked here is that
        # the command parses, runs to the end and writes its page, tables and figures (sizes are the fuzz's: the
        # chapters' edge sets in make test, random draws at the fuzz size in make fuzz)
        words = _shrunk_run(words, tmp_path / "out", smallest=True)
    elif "--out" in words:  # reports into the test's folder, not the repository
        words[words.index("--out") + 1] = str(tmp_path / "out")
    elif args.command in ("audit", "check"):
        words += ["--out", str(tmp_path / "out")]
    proc = run_documented(where, words)
    assert proc.returncode == 0, f"{where}: {shlex.join(words)}\n{proc.stderr[-2000:]}"
    if args.command == "run":
        check_run(args, tmp_path / "out")


# ---- the coursework page as a new user reads it (issue 45)

COURSEWORK = ROOT / "book" / "coursework.md"
#: What the page's command lines may start with: the environment's scripts (on the PATH once the environment is
#: active) and the shell's own commands.
PAGE_PROGRAMS = {"dpcompendium", "otter", "cd", "mkdir", "source"}


def _page_command_lines(text: str) -> list[str]:
    """The command lines of the page's ``bash`` blocks and ``console`` examples (``$ `` lines, continued with ``\\``)."""
    lines = []
    for m in _FENCE.finditer(text):
        block = m.group(0).splitlines()[0]
        body = m.group(2).replace("\\\n", " ")
        if "bash" in block:
            lines += [
                ln.strip() for ln in body.splitlines() if ln.strip() and not ln.startswith("#")
            ]
        elif "console" in block:
            lines += [ln[2:].strip() for ln in body.splitlines() if ln.startswith("$ ")]
    return lines


def test_the_coursework_page_says_how_its_commands_run():
    """Before its first command the page says to activate the environment (which puts dpcompendium and otter on the
    PATH), and every command line starts with one of those scripts or a shell command."""
    lines = _page_command_lines(COURSEWORK.read_text())
    assert lines[0] == "source .venv/bin/activate", lines[0]
    assert any(ln.startswith("otter ") for ln in lines) and any(
        ln.startswith("dpcompendium ") for ln in lines
    )
    for line in lines:
        assert line.split()[0] in PAGE_PROGRAMS, line
    for script in ("dpcompendium", "otter"):
        assert (Path(sys.prefix) / "bin" / script).is_file(), f"no {script} in the environment"


def _report_folder(words: list[str]) -> str | None:
    """The folder an ``audit`` or ``check`` command line writes its report into (its ``--out``, else the default
    ``results/audit-FUNCTION`` or ``results/check-NAME-FUNCTION``); ``None`` for any other command."""
    if len(words) < 3 or words[0] != "dpcompendium" or words[1] not in ("audit", "check"):
        return None
    if "--out" in words:
        return words[words.index("--out") + 1]
    if words[1] == "audit":
        return f"results/audit-{words[2].rpartition(':')[2]}"
    from dpcompendium.book.check import get_check

    target = words[3]
    func = target.rpartition(":")[2] if ":" in target else get_check(words[2]).function
    return f"results/check-{words[2]}-{func}"


def test_the_coursework_page_shows_overwrite_where_its_commands_need_it():
    """Issue 45: ``audit`` and ``check`` refuse a ``--out`` folder holding an earlier report unless ``--overwrite``.
    Typed in the page's order, every command that writes into a folder an earlier command of the page wrote (the
    same function audited again) carries ``--overwrite``, unless the page shows it ending in another error before
    anything is written; and the page says why."""
    text = COURSEWORK.read_text()
    assert "--overwrite" in text and "refused" in text
    written: set[str] = set()
    repeated = []
    for m in _FENCE.finditer(text):
        kind = m.group(0).splitlines()[0]
        body = m.group(2).replace("\\\n", " ").splitlines()
        for i, line in enumerate(body):
            if "console" in kind:
                if not line.startswith("$ "):
                    continue
                line = line[2:]
            elif "bash" not in kind:
                continue
            words = shlex.split(line.strip(), comments=True)
            folder = _report_folder(words)
            if folder is None:
                continue
            fails = i + 1 < len(body) and body[i + 1].startswith("dpcompendium: error:")
            if folder in written and "--overwrite" not in words:
                assert fails and "earlier" not in body[i + 1], f"needs --overwrite: {line}"
            if folder in written:
                repeated.append(folder)
            if not fails:
                written.add(folder)
    assert repeated  # the page does repeat functions (else the check above tests nothing)


@pytest.mark.integration
def test_a_coursework_command_runs_as_written_in_a_fresh_shell(tmp_path):
    """The page's first audit, typed as the page says in a shell whose PATH does not have the environment (a fresh
    clone's terminal): `source .venv/bin/activate`, then the command verbatim (about 2 s)."""
    line = next(
        ln
        for ln in _page_command_lines(COURSEWORK.read_text())
        if ln.startswith("dpcompendium audit")
    )
    venv_bin = str(Path(sys.prefix) / "bin")
    path = os.pathsep.join(p for p in os.environ.get("PATH", "").split(os.pathsep) if p != venv_bin)
    env = {
        k: v for k, v in os.environ.items() if not k.startswith(("DPCOMPENDIUM_", "VIRTUAL_ENV"))
    }
    proc = subprocess.run(
        ["bash", "-e", "-c", f"source {Path(sys.prefix) / 'bin' / 'activate'}\n{line} --out {tmp_path / 'r'}"],
        cwd=ROOT, env={**env, "PATH": path}, capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert any(ln.startswith(("VIOLATED", "HOLDS")) for ln in proc.stdout.splitlines()), proc.stdout


def test_the_readme_lists_the_chapters_in_book_order():
    """README's chapter list is the book's order (_toc.yml, as dpcompendium list reads it)."""
    from dpcompendium.chapters.registry import chapter_ids

    text = (ROOT / "README.md").read_text()
    m = re.search(r"^Chapters, in book order[^:]*\):(.*)$", text, re.M)
    assert m, "README.md: no 'Chapters, in book order (...): ...' line"
    assert re.findall(r"`([\w-]+)`", m.group(1)) == list(chapter_ids())
