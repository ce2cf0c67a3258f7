"""tools/bench.py (``make bench``): chapter times in speed units, each cell's time from nbclient's record, and the
stage times of the last make test; a chapter over its budget makes the exit status 1."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def bench(tmp_path, monkeypatch):
    spec = importlib.util.spec_from_file_location("bench_under_test", ROOT / "tools" / "bench.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    monkeypatch.setattr(mod, "OUT", tmp_path / "bench")
    monkeypatch.setattr(mod, "STAGES", tmp_path / "stages.json")
    return mod


def _cell(source: str, start: str, end: str):
    cell = nbformat.v4.new_code_cell(source)
    cell.metadata["execution"] = {"iopub.execute_input": start, "shell.execute_reply": end}
    return cell


def test_cell_times_come_from_the_recorded_timestamps(bench):
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_markdown_cell("text"),
        _cell("# a comment\nx = sweep()", "2026-01-01T00:00:00.000Z", "2026-01-01T00:00:02.500Z"),
        nbformat.v4.new_code_cell("never executed"),
    ]
    assert bench.cell_times(nb) == [(2.5, 1, "x = sweep()")]


def test_chapters_in_units_a_chapter_over_budget_fails_and_the_ratio_to_the_last_run_is_shown(
    bench, monkeypatch, capsys
):
    units = iter([1.0, 3.0])  # before, after: the mean 2.0 s divides
    monkeypatch.setattr(bench, "speed_unit", lambda: next(units))
    monkeypatch.setattr(bench, "notebooks", lambda: {"fast": Path("f"), "slow": Path("s")})
    wall = {"f": 10.0, "s": 60.0}
    monkeypatch.setattr(
        bench,
        "run_one",
        lambda p: {"wall_s": wall[str(p)], "cells_s": 0.0, "peak_mib": None, "cells": []},
    )
    (bench.OUT).mkdir()
    (bench.OUT / "chapters.json").write_text(json.dumps({"chapters": {"fast": {"units": 10.0}}}))
    assert bench.bench_chapters([], jobs=2, top=0, budget=25.0) == 1
    out = capsys.readouterr().out
    fast = next(ln for ln in out.splitlines() if ln.startswith("fast"))
    slow = next(ln for ln in out.splitlines() if ln.startswith("slow"))
    assert fast.split()[1:3] == ["10.0", "5.0"] and "0.50x" in fast and "OVER" not in fast
    assert slow.split()[1:3] == ["60.0", "30.0"] and slow.rstrip().endswith("OVER")
    record = json.loads((bench.OUT / "chapters.json").read_text())
    assert record["unit_s"] == 2.0 and record["chapters"]["slow"]["units"] == 30.0


def test_an_unknown_chapter_is_refused(bench, monkeypatch):
    monkeypatch.setattr(bench, "notebooks", lambda: {"mwem": Path("m")})
    with pytest.raises(SystemExit, match="unknown chapter 'mwme'"):
        bench.bench_chapters(["mwme"], jobs=2, top=0, budget=25.0)


def test_stage_times_in_units_with_their_budgets(bench, capsys):
    bench.STAGES.write_text(
        json.dumps(
            {"when": "now", "unit_s": 2.0, "stages": [["unit", 100.0, "ok"], ["total", 800.0, ""]]}
        )
    )
    bench.report_stages()
    out = capsys.readouterr().out
    assert "unit" in out and "50 units" in out
    total = next(ln for ln in out.splitlines() if "total" in ln)
    assert "400 units" in total and "budget 360" in total and "OVER" in total


def test_stage_times_show_the_cpu_time_run_tests_recorded(bench, capsys):
    bench.STAGES.write_text(
        json.dumps(
            {
                "when": "now",
                "unit_s": 2.0,
                "stages": [["unit", 100.0, "ok"], ["book", 50.0, "ok"]],
                "cpu_s": {"unit": 180.5},
            }
        )
    )
    bench.report_stages()
    lines = capsys.readouterr().out.splitlines()
    unit = next(ln for ln in lines if ln.split()[0] == "unit")
    book = next(ln for ln in lines if ln.split()[0] == "book")
    assert "CPU    180.5 s" in unit and "CPU" not in book
