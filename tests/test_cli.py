"""The ``dpcompendium`` command on a miniature repository: list, run, validation before writing, atomic results."""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest

from dpcompendium import cli
from dpcompendium.chapters import Parameter, get_chapter, validate_parameters

PARAMS = """seed = 0  # random seed [min 0]
output_dir = ""  # results folder (set by --out)
reps = 10  # repetitions per cell [min 1]
epsilons = [0.5, 1]  # privacy budgets [>0]
scale = 0.5  # a probability [>0, <1]
method = "a"  # which method [a|b]
fail = False  # raise after writing a partial table"""

BODY = """import pandas as pd
from dpcompendium.chapter import output_dir as _out, save_table
out = _out(output_dir, "dp-mean")
save_table(pd.DataFrame({"epsilon": epsilons, "reps": reps}), "partial", out)
if fail:
    raise RuntimeError("boom")
save_table(pd.DataFrame({"seed": [seed], "method": [method], "scale": [scale]}), "done", out)"""


@pytest.fixture
def mini_repo(tmp_path, monkeypatch):
    root = tmp_path / "repo"
    (root / "notebooks").mkdir(parents=True)
    (root / "_toc.yml").write_text("format: jb-book\nroot: intro\n")
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3",
        "language": "python",
    }
    cell = nbformat.v4.new_code_cell(PARAMS)
    cell.metadata["tags"] = ["parameters"]
    nb.cells = [
        nbformat.v4.new_markdown_cell("# Averages under DP\n\ntext"),
        cell,
        nbformat.v4.new_code_cell(BODY),
    ]
    nbformat.write(nb, root / "notebooks" / "dp-mean.ipynb")
    monkeypatch.setenv("DPCOMPENDIUM_REPO", str(root))
    return root


def test_parameters_are_parsed(mini_repo):
    ch = get_chapter("dp-mean")
    assert ch.title == "Averages under DP"
    assert ch.parameters["reps"] == Parameter("reps", 10, "repetitions per cell", "min 1")
    assert ch.parameters["method"].constraint == "a|b"
    assert ch.parameters["output_dir"].default == ""


def test_list(mini_repo, capsys):
    assert cli.main(["list"]) == 0
    out = capsys.readouterr().out
    assert "dp-mean: Averages under DP" in out
    assert "reps = 10 [min 1]  — repetitions per cell" in out
    assert "output_dir" not in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["nope"], "chapter must be one of dp-mean, got 'nope'"),
        (["dp-mean", "-p", "bogus", "1"], "unknown parameter 'bogus'"),
        (["dp-mean", "-p", "reps", "abc"], "parameter reps must be int, got 'abc'"),
        (["dp-mean", "-p", "reps", "2.5"], "parameter reps must be int, got 2.5"),
        (["dp-mean", "-p", "reps", "0"], "parameter reps must be >= 1, got 0"),
        (["dp-mean", "-p", "epsilons", "[0.5, -1]"], "parameter epsilons must be > 0, got -1"),
        (["dp-mean", "-p", "epsilons", "0.5"], "parameter epsilons must be a non-empty list"),
        (["dp-mean", "-p", "scale", "1"], "parameter scale must be < 1, got 1"),
        (["dp-mean", "-p", "method", "c"], "parameter method must be one of a|b, got 'c'"),
        (["dp-mean", "-p", "seed", "true"], "parameter seed must be int, got True"),
        (["dp-mean", "-p", "output_dir", "x"], "parameter output_dir is set by --out"),
        (["dp-mean", "-p", "epsilons", "[0.5"], "is not valid YAML"),
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


def test_run_writes_results_and_replaces_atomically(mini_repo, tmp_path, capsys):
    out = tmp_path / "results"
    assert (
        cli.main(
            ["run", "dp-mean", "-p", "reps", "3", "-p", "epsilons", "[0.25, 2]", "--out", str(out)]
        )
        == 0
    )
    dest = out / "dp-mean"
    assert sorted(p.name for p in dest.iterdir()) == ["done.csv", "dp-mean.ipynb", "partial.csv"]
    assert (dest / "partial.csv").read_text() == "epsilon,reps\n0.25,3\n2,3\n"
    executed = nbformat.read(dest / "dp-mean.ipynb", as_version=4)
    injected = [c for c in executed.cells if "injected-parameters" in c.metadata.get("tags", [])]
    assert str(dest) in injected[0].source and ".partial-" not in injected[0].source
    assert "wrote 2 tables" in capsys.readouterr().out
    # A failing rerun leaves the previous results untouched and no staging folder behind.
    assert cli.main(["run", "dp-mean", "-p", "fail", "true", "--out", str(out)]) == 1
    err = capsys.readouterr().err
    assert "chapter dp-mean failed" in err and "RuntimeError" in err and err.count("\n") == 1
    assert sorted(p.name for p in out.iterdir()) == ["dp-mean"]
    assert (dest / "partial.csv").read_text() == "epsilon,reps\n0.25,3\n2,3\n"
    # A successful rerun replaces them.
    assert cli.main(["run", "dp-mean", "-p", "method", "b", "--out", str(out)]) == 0
    assert "b" in (dest / "done.csv").read_text()
    assert sorted(p.name for p in out.iterdir()) == ["dp-mean"]


def test_failed_first_run_leaves_nothing(mini_repo, tmp_path):
    out = tmp_path / "results"
    assert cli.main(["run", "dp-mean", "-p", "fail", "true", "--out", str(out)]) == 1
    assert list(out.iterdir()) == []


def test_yaml_values_accept_exponents(mini_repo):
    assert cli._parse_values([["scale", "5e-1"], ["epsilons", "[1e-2, 2]"], ["reps", "3"]]) == {
        "scale": 0.5,
        "epsilons": [0.01, 2],
        "reps": 3,
    }
    ch = get_chapter("dp-mean")
    with pytest.raises(ValueError, match=r"parameter reps must be int, got 1000\.0"):
        validate_parameters(ch, cli._parse_values([["reps", "1e3"]]))
    with pytest.raises(ValueError, match="parameter scale must be float, got nan"):
        validate_parameters(ch, cli._parse_values([["scale", ".nan"]]))


def test_validate_parameters_types(mini_repo):
    ch = get_chapter("dp-mean")
    validate_parameters(ch, {"epsilons": [1, 2.5], "scale": 0.25, "reps": 5})
    with pytest.raises(ValueError, match="epsilons must be float"):
        validate_parameters(ch, {"epsilons": ["x"]})


def test_out_must_not_be_a_file(mini_repo, tmp_path, capsys):
    f = tmp_path / "file"
    f.write_text("x")
    assert cli.main(["run", "dp-mean", "--out", str(f)]) == 2
    assert "--out must be a directory" in capsys.readouterr().err
    assert Path(f).read_text() == "x"
