"""The CLI on the real chapters: ``dpcompendium list`` and ``dpcompendium run CHAPTER -p reps 200 --out DIR`` (the
averages chapter)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
from _chapter_ids import DP_MEAN, FEDERATED_PCA, MWEM

from dpcompendium.book.contract import CHAPTER_IDS, chapters

BIN = Path(sys.executable).with_name("dpcompendium")


def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(BIN), *args], capture_output=True, text=True, timeout=600, check=False
    )


def test_every_chapter_is_listed_with_its_parameters():
    found = chapters()
    assert [c.id for c in found] == list(CHAPTER_IDS)
    out = _cli("list")
    assert out.returncode == 0, out.stderr
    for ch in found:
        assert f"{ch.id}: {ch.title}" in out.stdout
        assert {"seed", "output_dir"} <= set(ch.parameters)
        assert isinstance(ch.parameters["seed"].default, int)
        for p in ch.parameters.values():
            assert p.help, f"{ch.id}.{p.name} has no help text"
            p.check(p.default)  # every default satisfies its own type and constraint


def test_bad_parameter_on_a_real_chapter_writes_nothing(tmp_path):
    out = _cli("run", DP_MEAN, "-p", "epsilons", "[0.5, -1]", "--out", str(tmp_path / "r"))
    assert out.returncode == 2
    assert out.stderr.strip().count("\n") == 0
    assert "parameter epsilons must be >= 0.01 (range: min 0.01, max 100), got -1" in out.stderr
    assert not (tmp_path / "r").exists()


@pytest.mark.slow
@pytest.mark.extended  # README's command, shrunk, runs in make test (test_documented_commands.py)
def test_run_dp_mean_with_200_reps(tmp_path):
    out = _cli("run", DP_MEAN, "-p", "reps", "200", "--out", str(tmp_path))
    assert out.returncode == 0, out.stderr[-2000:]
    dest = tmp_path / DP_MEAN
    assert (dest / f"{DP_MEAN}.ipynb").is_file()
    errors = pd.read_csv(dest / "errors.csv")
    assert list(errors.columns) == [
        "dataset",
        "method",
        "variant",
        "n",
        "epsilon",
        "reps",
        "mae",
        "rmse",
    ]
    assert (errors["reps"] == 200).all()
    assert set(errors["n"]) == {100, 1000, 10000}
    pngs = sorted(p.stem for p in dest.glob("*.png"))
    assert pngs and pngs == sorted(p.stem for p in dest.glob("*.svg"))
    assert [p.name for p in tmp_path.iterdir()] == [DP_MEAN]  # no staging folder left behind


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            [MWEM, "-p", "T_2d", "500"],
            'parameters must satisfy "coursework" not in variants or T_2d <= q_size_2d',
        ),
        ([FEDERATED_PCA, "-p", "k", "20"], "got k = 20, datasets = ["),
    ],
)
def test_cross_parameter_constraint_refused_before_anything_runs(tmp_path, args, message):
    out = _cli("run", *args, "--out", str(tmp_path / "r"))
    assert out.returncode == 2
    assert out.stderr.strip().count("\n") == 0
    assert message in out.stderr
    assert not (tmp_path / "r").exists()


def test_every_chapter_constraint_uses_one_syntax():
    for ch in chapters():
        for p in ch.parameters.values():
            assert ">=" not in p.constraint and "<=" not in p.constraint, (ch.id, p.name)
        for req in ch.requires:
            assert req.names and set(req.names) <= set(ch.parameters)
            req.check(ch.defaults)  # the defaults satisfy every constraint


def test_papermill_reads_every_parameter_despite_require_lines():
    """papermill skips comment lines, so ``# require: a <= b`` does not disturb its parameter inspection."""
    import papermill as pm

    for ch in chapters():
        assert list(pm.inspect_notebook(str(ch.notebook))) == list(ch.parameters), ch.id
