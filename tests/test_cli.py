"""The ``dpcompendium`` command on a miniature repository: list, run, validation before writing, atomic results."""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest
from _notebooks import chapter_notebook, parameters_cell

from dpcompendium.book import cli
from dpcompendium.book.contract import Parameter, get_chapter, validate_parameters

PARAMS = """seed = 0  # random seed [min 0]
output_dir = ""  # results folder (set by --out)
reps = 10  # repetitions per cell [min 1]
epsilons = [0.5, 1]  # privacy budgets [>0]
scale = 0.5  # a probability [>0, <1]
method = "a"  # which method [a|b]
fail = False  # raise after writing a partial table
# require: reps * scale < 100  # a cross-parameter constraint
# require: method == "a" or max(epsilons) <= 1"""

BODY = """import pandas as pd
from dpcompendium.book.chapter import output_dir as _out, save_table
out = _out(output_dir, "toy")
save_table(pd.DataFrame({"epsilon": epsilons, "reps": reps}), "partial", out)
if fail:
    raise RuntimeError("boom")
save_table(pd.DataFrame({"seed": [seed], "method": [method], "scale": [scale]}), "done", out)"""


@pytest.fixture
def mini_repo(tmp_path, monkeypatch):
    root = tmp_path / "repo"
    (root / "notebooks").mkdir(parents=True)
    (root / "_toc.yml").write_text(
        "format: jb-book\nroot: intro\nparts:\n  - chapters:\n      - file: notebooks/toy\n"
    )
    # a chapter outside the package (the plugin path): its manifest only
    (root / "chapters" / "toy").mkdir(parents=True)
    (root / "chapters" / "toy" / "manifest.toml").write_text(
        'id = "toy"\ntitle = "Averages under DP"\nnotebook = "notebooks/toy.ipynb"\n'
    )
    monkeypatch.setenv("DPCOMPENDIUM_CHAPTER_PATH", str(root / "chapters"))
    nb = chapter_notebook(
        [
            nbformat.v4.new_markdown_cell("# Averages under DP\n\ntext"),
            parameters_cell(PARAMS),
            nbformat.v4.new_code_cell(BODY),
        ]
    )
    nbformat.write(nb, root / "notebooks" / "toy.ipynb")
    monkeypatch.setenv("DPCOMPENDIUM_REPO", str(root))
    return root


def test_parameters_are_parsed(mini_repo):
    ch = get_chapter("toy")
    assert ch.title == "Averages under DP"
    assert ch.parameters["reps"] == Parameter("reps", 10, "repetitions per cell", "min 1")
    assert ch.parameters["method"].constraint == "a|b"
    assert ch.parameters["output_dir"].default == ""


def test_list(mini_repo, capsys):
    assert cli.main(["list"]) == 0
    out = capsys.readouterr().out
    assert "toy: Averages under DP" in out
    assert "reps = 10 [min 1]  — repetitions per cell" in out
    assert "output_dir" not in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["nope"], "chapter must be one of toy, got 'nope'"),
        (["toy", "-p", "bogus", "1"], "unknown parameter 'bogus'"),
        (["toy", "-p", "reps", "abc"], "parameter reps must be int, got 'abc'"),
        (["toy", "-p", "reps", "2.5"], "parameter reps must be int, got 2.5"),
        (["toy", "-p", "reps", "0"], "parameter reps must be >= 1, got 0"),
        (["toy", "-p", "epsilons", "[0.5, -1]"], "parameter epsilons must be > 0, got -1"),
        (["toy", "-p", "epsilons", "0.5"], "parameter epsilons must be a non-empty list"),
        (["toy", "-p", "scale", "1"], "parameter scale must be < 1 (range: >0, <1), got 1"),
        (["toy", "-p", "method", "c"], "parameter method must be one of a|b, got 'c'"),
        (["toy", "-p", "seed", "true"], "parameter seed must be int, got True"),
        (["toy", "-p", "output_dir", "x"], "parameter output_dir is set by --out"),
        (["toy", "--lang", "fr"], "--lang must be one of en, zh_CN, got 'fr'"),
        (["toy", "-p", "epsilons", "[0.5"], "is not valid YAML"),
        (
            ["toy", "-p", "epsilons", "[0.5, 0.5]"],
            "parameter epsilons must not repeat an element",
        ),
        (
            ["toy", "-p", "epsilons", "[1, 1.0]"],
            "parameter epsilons must not repeat an element",
        ),
        (
            ["toy", "-p", "reps", "300"],
            "parameters must satisfy reps * scale < 100 (a cross-parameter constraint), got reps = 300, "
            "scale = 0.5",
        ),
        (
            ["toy", "-p", "method", "b", "-p", "epsilons", "[2]"],
            "parameters must satisfy method == \"a\" or max(epsilons) <= 1, got method = 'b', "
            "epsilons = [2]",
        ),
    ],
)
def test_bad_parameters_fail_before_writing(mini_repo, tmp_path, capsys, args, message):
    out = tmp_path / "results"
    code = cli.main(["run", *args, "--out", str(out)])
    err = capsys.readouterr().err
    assert code == 2
    assert message in err
    assert err.count("\n") == 1  # one line
    assert not out.exists()


def _fake_sphinx_build(src, out, docname, title, lang="en"):
    """Writes the page notebook's markdown as ``index.html`` (the real build is checked by the integration tests)."""
    out.mkdir(parents=True)
    nb = nbformat.read(src / "index.ipynb", as_version=4)
    (out / "index.html").write_text(
        "\n".join(c.source for c in nb.cells if c.cell_type == "markdown")
    )
    return []


def test_run_writes_results_and_replaces_atomically(mini_repo, tmp_path, capfd, monkeypatch):
    """A run writes its tables, its executed notebook and its page, and opens the page with --open; a failing rerun
    leaves the results untouched, a successful one replaces them. The page is built by a stand-in for the Sphinx
    build: the real one (its files, its provenance, MathJax beside it, no Sphinx warning) is checked by the
    integration stage on a chapter's rerun (tests/test_book_browser.py::test_rerun_page)."""
    monkeypatch.setattr("dpcompendium.book.rerun_page.sphinx_build", _fake_sphinx_build)
    opened = []
    monkeypatch.setattr(
        "dpcompendium.book.rerun_page.open_page", lambda p: opened.append(p) or True
    )
    out = tmp_path / "results"
    args = ["run", "toy", "-p", "reps", "3", "-p", "epsilons", "[0.25, 2]", "--out", str(out)]
    assert cli.main([*args, "--open"]) == 0
    dest = out / "toy"
    assert opened == [dest / "index.html"]
    assert sorted(p.name for p in dest.iterdir()) == [
        "done.csv",
        "index.html",
        "partial.csv",
        "toy.ipynb",
    ]
    page = (dest / "index.html").read_text()
    assert "Provenance of this rerun" in page and "<code>reps = 3</code>" in page
    assert "<code>epsilons = [0.25, 2]</code>" in page and "<code>seed = 0</code>" not in page
    assert ".partial-" not in page
    assert (dest / "partial.csv").read_text() == "epsilon,reps\n0.25,3\n2,3\n"
    executed = nbformat.read(dest / "toy.ipynb", as_version=4)
    injected = [c for c in executed.cells if "injected-parameters" in c.metadata.get("tags", [])]
    assert str(dest) in injected[0].source and ".partial-" not in injected[0].source
    first = capfd.readouterr()
    assert "wrote 2 tables" in first.out
    # the kernel ran over IPC: ipykernel's "running over TCP without encryption" warning is not printed
    assert "without encryption" not in first.err and "IPKernelApp" not in first.err
    # A second run into the same folder is refused before anything runs, without --overwrite.
    assert cli.main(["run", "toy", "-p", "method", "b", "--out", str(out)]) == 2
    err = capfd.readouterr().err
    assert err.startswith("dpcompendium: error: ") and "--overwrite" in err and str(dest) in err
    assert sorted(p.name for p in out.iterdir()) == ["toy"]
    # A failing rerun leaves the previous results untouched and no staging folder behind; it says why: the cell's
    # line, the traceback's last frames, and the executed notebook, kept beside the results.
    assert cli.main(["run", "toy", "-p", "fail", "true", "--out", str(out), "--overwrite"]) == 1
    err = capfd.readouterr().err
    lines = err.splitlines()
    assert lines[0].startswith("dpcompendium: error: chapter toy failed in cell [")
    assert lines[0].endswith(", line 6: RuntimeError: boom"), lines[0]
    assert '  the cell\'s line 6: raise RuntimeError("boom")' in lines
    assert any(ln.startswith("  traceback (last 1 frame(s))") for ln in lines), err
    assert "    RuntimeError: boom" in lines
    failed = out / "toy.failed.ipynb"
    assert lines[-1] == f"  the executed notebook, with the error in its cell: {failed}"
    kept = nbformat.read(failed, as_version=4)
    assert any(o.get("ename") == "RuntimeError" for c in kept.cells for o in c.get("outputs", []))
    assert sorted(p.name for p in out.iterdir()) == ["toy", "toy.failed.ipynb"]
    assert (dest / "partial.csv").read_text() == "epsilon,reps\n0.25,3\n2,3\n"
    # A successful rerun replaces them (--no-page: the results only), and the failed notebook goes; with -v its
    # progress is shown although standard error is not a terminal: the chapter, cells executed out of all.
    args = ["run", "toy", "-p", "method", "b", "--no-page", "--out", str(out), "--overwrite", "-v"]
    assert cli.main(args) == 0
    assert "b" in (dest / "done.csv").read_text() and not (dest / "index.html").exists()
    printed = capfd.readouterr()
    assert "no page: --no-page" in printed.out
    assert re.search(r"toy: 100%.*\| 4/4 \[", printed.err), printed.err
    assert sorted(p.name for p in out.iterdir()) == ["toy"]


def test_failed_first_run_leaves_only_its_notebook(mini_repo, tmp_path):
    out = tmp_path / "results"
    assert cli.main(["run", "toy", "-p", "fail", "true", "--out", str(out)]) == 1
    assert [p.name for p in out.iterdir()] == ["toy.failed.ipynb"]


def test_yaml_values_accept_exponents(mini_repo):
    assert cli._parse_values([["scale", "5e-1"], ["epsilons", "[1e-2, 2]"], ["reps", "3"]]) == {
        "scale": 0.5,
        "epsilons": [0.01, 2],
        "reps": 3,
    }
    ch = get_chapter("toy")
    with pytest.raises(ValueError, match=r"parameter reps must be int, got 1000\.0"):
        validate_parameters(ch, cli._parse_values([["reps", "1e3"]]))
    with pytest.raises(ValueError, match="parameter scale must be float, got nan"):
        validate_parameters(ch, cli._parse_values([["scale", ".nan"]]))


def test_validate_parameters_types(mini_repo):
    ch = get_chapter("toy")
    validate_parameters(ch, {"epsilons": [1, 2.5], "scale": 0.25, "reps": 5})
    with pytest.raises(ValueError, match="epsilons must be float"):
        validate_parameters(ch, {"epsilons": ["x"]})


def test_out_must_not_be_a_file(mini_repo, tmp_path, capsys):
    f = tmp_path / "file"
    f.write_text("x")
    assert cli.main(["run", "toy", "--out", str(f)]) == 2
    assert "--out must be a directory" in capsys.readouterr().err
    assert Path(f).read_text() == "x"


def test_require_lines_are_parsed(mini_repo):
    ch = get_chapter("toy")
    assert [(r.expression, r.names) for r in ch.requires] == [
        ("reps * scale < 100", ("reps", "scale")),
        ('method == "a" or max(epsilons) <= 1', ("method", "epsilons")),
    ]
    validate_parameters(ch, {"method": "b", "epsilons": [0.5, 1]})


def test_papermill_ignores_require_lines(mini_repo):
    import papermill as pm

    names = list(pm.inspect_notebook(str(mini_repo / "notebooks" / "toy.ipynb")))
    assert names == list(get_chapter("toy").parameters)


@pytest.mark.parametrize(
    "expression",
    [
        "__import__('os').system('true')",
        "reps.bit_length() > 0",
        "epsilons[0:1] == [1.0]",
        "epsilons[3] > 0",
        "reps[0] > 0",
        "[e for e in epsilons]",
        "(lambda: 1)()",
        "open('x')",
        "min(epsilons, key=abs)",
        "reps ** 10 ** 10 > 0",
    ],
)
def test_require_evaluator_refuses_anything_else(expression):
    from dpcompendium.book.contract import safe_eval

    with pytest.raises(ValueError, match="require:"):
        safe_eval(expression, {"reps": 3, "epsilons": [1.0]})


def test_require_evaluator_allowed_forms():
    from dpcompendium.book.contract import safe_eval

    env = {"a": 0.2, "b": 0.7, "xs": [1, 2, 3], "v": ["x", "y"]}
    assert safe_eval("a + b < 1 and not a > b", env)
    assert safe_eval("0 < a <= b and len(set(xs)) == 3 and sum(xs) == 6", env)
    assert safe_eval("max(xs) ** 2 // 2 % 5 == 4 and all(xs) and any([0, a])", env)
    assert safe_eval('"x" in v and "z" not in v and abs(-a) == a', env)
    assert not safe_eval("a + b >= 1 or min(xs) > 1", env)
    # Indexing a list by an integer (histograms: query_lengths[0] < query_lengths[1]); `and` short-circuits.
    assert safe_eval("len(xs) == 3 and xs[0] <= xs[-1] and v[1] == 'y'", env)
    assert not safe_eval("len(xs) == 2 and xs[5] > 0", env)


@pytest.mark.parametrize("bound", ["[>=0]", "[<=1]", "[min 0, <=1]"])
def test_ge_le_constraints_are_refused(mini_repo, bound):
    path = mini_repo / "notebooks" / "toy.ipynb"
    nb = nbformat.read(path, as_version=4)
    nb.cells[1].source = nb.cells[1].source.replace("[min 0]", bound)
    nbformat.write(nb, path)
    with pytest.raises(ValueError, match=r"write \[min x\]/\[max x\]"):
        get_chapter("toy")


@pytest.mark.parametrize(
    "line", ["# require: bogus < 1", "# require: reps.real > 0", "# require: reps <"]
)
def test_bad_require_lines_are_refused(mini_repo, line):
    path = mini_repo / "notebooks" / "toy.ipynb"
    nb = nbformat.read(path, as_version=4)
    nb.cells[1].source += "\n" + line
    nbformat.write(nb, path)
    with pytest.raises(ValueError, match="bad '# require:"):
        get_chapter("toy")


def test_parsing_imports_no_mechanism():
    """The CLI parses its arguments (and refuses bad ones) without importing the audits, pandas, scipy.stats or
    matplotlib: every `dpcompendium` invocation pays only for what it runs."""
    import subprocess
    import sys

    code = (
        "import sys; from dpcompendium.book.cli import build_parser; build_parser(); "
        "print(sorted(m for m in ('dpcompendium.chapters.privacy_audit', 'pandas', 'scipy.stats', 'sklearn', 'matplotlib') "
        "if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_cli_neighbour_choices_are_the_audit_relations():
    from dpcompendium.book.usercode import NEIGHBOURS
    from dpcompendium.core.privacy import NEIGHBOUR_RELATIONS

    assert NEIGHBOURS == NEIGHBOUR_RELATIONS


def test_run_waits_for_a_slow_kernel(monkeypatch, tmp_path):
    """`dpcompendium run` gives the kernel KERNEL_START_TIMEOUT seconds to start (the fuzz met papermill's 60 s
    limit on a busy machine: 'Kernel didn't respond in 60 seconds')."""
    import papermill

    from dpcompendium.book import cli

    seen = {}

    def fake_execute(*args, **kwargs):
        seen.update(kwargs)
        raise RuntimeError("stop here")

    monkeypatch.setattr(papermill, "execute_notebook", fake_execute)
    from dpcompendium.chapters.registry import chapter_ids

    code = cli.main(["run", chapter_ids()[0], "-p", "reps", "2", "--out", str(tmp_path)])
    assert code != 0 and seen["start_timeout"] == cli.KERNEL_START_TIMEOUT >= 300
    assert seen["iopub_timeout"] == cli.IOPUB_TIMEOUT
    assert not any(tmp_path.iterdir())  # the failed run left nothing


def test_run_waits_for_late_cell_output():
    """A cell's output messages arriving after nbclient's 4 s (papermill raises on it) are waited for: the edge fuzz,
    at low priority on a loaded machine, failed a finished histograms cell with "A cell timed out … after 4
    seconds". The setting reaches the client papermill builds (not only its keyword arguments)."""
    import nbformat
    from papermill.clientwrap import PapermillNotebookClient

    from dpcompendium.book import cli

    assert cli.IOPUB_TIMEOUT >= 60  # what `run` passes: test_run_waits_for_a_slow_kernel

    class _Man:
        nb = nbformat.v4.new_notebook()

    client = PapermillNotebookClient(_Man(), iopub_timeout=cli.IOPUB_TIMEOUT)
    assert client.iopub_timeout == cli.IOPUB_TIMEOUT and client.raise_on_iopub_timeout


# ---- rough edges a new user met (issue 45)


def _all_parsers(parser):
    import argparse

    yield parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                yield from _all_parsers(sub)


def test_help_texts_are_plain_text():
    """No reStructuredText in any --help: no double backquotes, no literal-block '::', no roles."""
    for parser in _all_parsers(cli.build_parser()):
        text = parser.format_help()
        assert "``" not in text and "::" not in text and ":func:" not in text, (parser.prog, text)


def test_check_help_gives_the_signature_to_write():
    from dpcompendium.book.check import HELP, get_check

    text = cli.build_parser()._subparsers._group_actions[0].choices["check"].format_help()
    for name in HELP:
        assert get_check(name).signature in text and HELP[name].splitlines()[0] in text
        assert get_check(name).signature == HELP[name].splitlines()[0]
    assert "rng" in text and "inclusive bin range" in text


def test_list_one_chapter(mini_repo, capsys):
    assert cli.main(["list", "toy"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("toy: Averages under DP") and "reps = 10" in out
    assert cli.main(["list", "nope"]) == 2
    assert capsys.readouterr().err.startswith("dpcompendium: error: ")


def test_a_closed_pipe_ends_quietly():
    """dpcompendium data | head -2: the reader goes away; no BrokenPipeError traceback, exit status 0."""
    import subprocess
    import sys

    exe = Path(sys.executable).with_name("dpcompendium")
    for cmd in (["data"], ["list"]):
        proc = subprocess.Popen([str(exe), *cmd], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        proc.stdout.close()  # before the first line is written
        err = proc.stderr.read().decode()
        assert proc.wait() == 0 and "Traceback" not in err and "BrokenPipe" not in err, err


@pytest.mark.parametrize(
    "args",
    [["--lang", "fr"], ["--pdf", "--no-page"]],
)
def test_run_option_errors_have_the_prefix(mini_repo, tmp_path, capsys, args):
    assert cli.main(["run", "toy", "--out", str(tmp_path / "r"), *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith("dpcompendium: error: ") and err.count("\n") == 1, err
    assert not (tmp_path / "r").exists()


def test_progress_only_on_a_terminal_or_with_verbose(monkeypatch):
    from dpcompendium.book.progress import progress_bar

    monkeypatch.setenv("DPCOMPENDIUM_PROGRESS", "0")  # as in a pipe or a CI log
    assert progress_bar("mwem") is False
    forced = progress_bar("mwem", force=True)  # -v
    assert (
        forced["desc"] == "mwem"
        and forced["unit"] == "cell"
        and forced["leave"]
        and forced["ascii"]
    )
    monkeypatch.setenv("DPCOMPENDIUM_PROGRESS", "1")  # a terminal
    bar = progress_bar("mwem")
    assert bar["ncols"] > 0 and not bar["leave"]  # a width even where the terminal reports none


def test_book_prints_each_edition_and_a_closing_summary(monkeypatch, tmp_path, capsys):
    """dpcompendium book: one line per edition with its time, then the total and what to open (the builds are
    stand-ins here; the book stage of make test runs the real ones)."""
    calls = []
    monkeypatch.setattr(cli, "repo_root", lambda: tmp_path)
    monkeypatch.setattr(cli.subprocess, "call", lambda cmd, **kw: calls.append(cmd) or 0)
    assert cli.main(["book"]) == 0
    lines = capsys.readouterr().err.splitlines()
    assert len(calls) == 2 and lines[0].startswith("dpcompendium book: the English edition in ")
    assert lines[1].startswith("dpcompendium book: the zh_CN edition in ")
    assert re.fullmatch(
        r"dpcompendium book: built in \d+\.\d s; open .*index\.html, .*zh_CN/index\.html", lines[-1]
    )
    monkeypatch.setattr(cli.subprocess, "call", lambda cmd, **kw: 1)
    assert cli.main(["book"]) == 1
    assert "FAILED after" in capsys.readouterr().err.splitlines()[-1]


def test_myst_configuration_dumps_are_silenced():
    import logging

    from dpcompendium.book.sphinxext import NoConfigDump

    f = NoConfigDump()

    def record(msg, *args):
        return logging.LogRecord("sphinx.myst", logging.INFO, "", 0, msg, args, None)

    assert not f.filter(record("myst v%s: %s", "4.0", "MdParserConfig(commonmark_only=False, ...)"))
    assert not f.filter(record("myst-nb v1.4: NbParserConfig(custom_formats={}, ...)"))
    assert f.filter(record("execution: %s executed in %.1f s", "mwem", 12.0))


def test_a_new_book_build_drops_the_pdfs_of_the_last_one(tmp_path):
    """The download buttons point to ``_build/html/pdf``: a build removes the PDFs printed from the previous build
    (both editions) instead of serving them as the new book's; other built files stay (reader review 4, M1)."""
    html = tmp_path / "html"
    for folder in (html / "pdf", html / "zh_CN" / "pdf"):
        folder.mkdir(parents=True)
        (folder / "dpcompendium.pdf").write_bytes(b"%PDF old")
    (html / "index.html").write_text("<html></html>")
    gone = cli.drop_stale_pdfs(html)
    assert sorted(gone) == sorted([html / "pdf", html / "zh_CN" / "pdf"])
    assert not (html / "pdf").exists() and not (html / "zh_CN" / "pdf").exists()
    assert (html / "index.html").is_file()
    assert cli.drop_stale_pdfs(html) == []
