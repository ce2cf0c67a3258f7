"""The exercises' ``dpcompendium audit`` / ``dpcompendium check`` commands run, and print the verdict the book states.

Every chapter's solutions hold shell commands in ``bash`` blocks, one per line, each ending with the verdict the
solution explains (``# VIOLATED``, ``# HOLDS`` for an audit; ``# too few runs to tell``, ``# measurement step
VIOLATED``, … for a check). This test
runs every such command as a reader types it, from the repository root (its paths are relative to it), the report
written to a temporary folder, and checks the exit status and the printed verdict. The words go to the program's
``main`` in the test's process, as ``tests/test_audit_user.py`` runs the coursework page's commands: a command as a
separate ``dpcompendium`` process cost about 4 s of CPU, of which 0.2–1 s is the audit and the rest the
interpreter and its imports (issue 50: the nine of the integration stage took 29.2 CPU-s that way, 5.3 in-process). The ``dpcompendium``
script itself, as a shell starts it, is run by ``tests/test_documented_commands.py`` (README's commands and the
coursework page's command in a fresh shell). The commands
are small by the chapter contract (``--samples 20000``, ``--reps 5``); the verdicts are deterministic for the
default seed.
"""

from __future__ import annotations

import os
import re
import shlex
from pathlib import Path

import nbformat
import pytest

ROOT = Path(os.environ.get("DPCOMPENDIUM_REPO") or Path(__file__).resolve().parents[1])
BASH_BLOCK = re.compile(r"^```bash\n(.*?)^```", re.M | re.S)
#: an audit's verdict, or a check's (``dpcompendium check mwem``: which MWEM it matches, or its privacy failure)
COMMAND = re.compile(
    r"^(dpcompendium (?:audit|check) .+?)\s+#\s*(VIOLATED|HOLDS|matches the paper's MWEM|matches the course's variant"
    r"|differs from both the paper's MWEM and the course's variant|too few runs to tell|measurement step VIOLATED)\s*$"
)


def documented_commands() -> list[tuple[str, str, str]]:
    """(chapter, command, expected verdict) for every audit/check line of the chapters' markdown."""
    out = []
    for path in sorted((ROOT / "notebooks").glob("*.ipynb")):
        nb = nbformat.read(path, as_version=4)
        text = "\n".join(c.source for c in nb.cells if c.cell_type == "markdown")
        for block in BASH_BLOCK.findall(text):
            for line in block.splitlines():
                if line.startswith(("dpcompendium audit ", "dpcompendium check ")):
                    m = COMMAND.match(line)
                    assert m, f"{path.name}: command without its expected verdict comment: {line}"
                    out.append((path.stem, m.group(1), m.group(2)))
    return out


COMMANDS = documented_commands()


def test_every_chapter_documents_a_command():
    chapters = {c for c, _, _ in COMMANDS}
    expected = {p.stem for p in (ROOT / "notebooks").glob("*.ipynb")}
    assert chapters == expected, (
        f"chapters without an audit/check command: {sorted(expected - chapters)}"
    )


def _params():
    """``dpcompendium check mwem`` on the course's own example file is run, with its verdict, by
    tests/test_check_mwem.py in make test (the same functions through the same ``check`` code, and the CLI once);
    here those two whole runs (about 25 s each) are marked ``extended`` and run under make fuzz."""
    return [
        pytest.param(
            c,
            cmd,
            v,
            id=f"{c}-{i}",
            marks=(pytest.mark.extended,) if cmd.startswith("dpcompendium check mwem") else (),
        )
        for i, (c, cmd, v) in enumerate(COMMANDS)
    ]


@pytest.mark.integration
@pytest.mark.parametrize(("chapter", "command", "verdict"), _params())
def test_documented_command(chapter, command, verdict, tmp_path, monkeypatch, capsys):
    from dpcompendium.book.cli import main

    argv = shlex.split(command)
    assert argv[0] == "dpcompendium", command
    # the command's paths (examples/coursework/...) are relative to the repository
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("MPLBACKEND", "Agg")
    code = main([*argv[1:], "--out", str(tmp_path / "report")])
    printed = capsys.readouterr()
    assert code == 0, f"{chapter}: '{command}' exited {code}:\n{printed.err[-2000:]}"
    if argv[1] == "audit":
        lines = [ln for ln in printed.out.splitlines() if ln.startswith(("VIOLATED", "HOLDS"))]
        assert lines, f"{chapter}: '{command}' printed no verdict:\n{printed.out}"
        assert lines[0].startswith(verdict + ":"), (
            f"{chapter}: '{command}' gave {lines[0]!r}, the book says {verdict}"
        )
    else:
        first = printed.out.splitlines()[0] if printed.out else ""
        assert first.partition(" — ")[2].startswith(verdict), (
            f"{chapter}: '{command}' gave {first!r}, the book says {verdict}"
        )
