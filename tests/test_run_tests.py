"""tools/run_tests.py, the driver of ``make test``: the unit stage runs beside the other stages (from the start, or
after the notebooks on 2 cores), a failure on either side stops the other, and the closing line counts the tests of
every stage from their JUnit reports; the integration stage runs last, alone, after the base has passed."""

from __future__ import annotations

import importlib.util
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def run_tests(tmp_path, monkeypatch):
    spec = importlib.util.spec_from_file_location(
        "run_tests_under_test", ROOT / "tools" / "run_tests.py"
    )
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    monkeypatch.setattr(mod, "REPORTS", tmp_path / "reports")
    monkeypatch.setattr(mod, "ROOT", tmp_path)
    (tmp_path / "notebooks").mkdir()
    (tmp_path / "notebooks" / "chapter.ipynb").write_text("{}")
    return mod


def _junit(path: Path, tests: int, failures: int = 0, errors: int = 0, skipped: int = 0) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(
        f'<testsuites><testsuite name="pytest" tests="{tests}" failures="{failures}" errors="{errors}" '
        f'skipped="{skipped}"/></testsuites>'
    )


def _py(code: str) -> list[str]:
    return [sys.executable, "-c", code]


def test_counts_add_every_stage(run_tests):
    _junit(run_tests.REPORTS / "unit.xml", 10, failures=1, skipped=2)
    _junit(run_tests.REPORTS / "browser.xml", 5, errors=1)
    assert run_tests.test_counts(["unit", "book", "browser"]) == (11, 2, 2)


def _stages(run_tests, unit: str, chain_codes: list[str]):
    names = ["unit", "notebooks", "book", "browser"]
    return lambda: [(n, _py(c), {}) for n, c in zip(names, [unit, *chain_codes], strict=True)]


def test_unit_runs_beside_the_chain_and_the_closing_line_counts_all(run_tests, monkeypatch, capsys):
    reports = run_tests.REPORTS
    write = "import pathlib; pathlib.Path({p!r}).write_text({x!r})"
    xml = '<testsuite tests="{}" failures="0" errors="0" skipped="{}"/>'
    unit = "import time; time.sleep(1); print('unit log line'); " + write.format(
        p=str(reports / "unit.xml"), x=xml.format(7, 1)
    )
    chain = [write.format(p=str(reports / "notebooks.xml"), x=xml.format(3, 0)), "pass", "pass"]
    monkeypatch.setattr(run_tests, "stages", _stages(run_tests, unit, chain))
    t0 = time.perf_counter()
    assert run_tests.main(["--overlap"]) == 0
    out = capsys.readouterr().out
    assert "beside the other stages" in out
    assert out.rstrip().splitlines()[-1] == "9 passed, 0 failed, 1 skipped"
    assert "unit log line" in (reports / "unit.log").read_text()
    assert time.perf_counter() - t0 < 30


def test_a_failing_unit_stage_stops_the_chain(run_tests, monkeypatch, capsys):
    monkeypatch.setattr(
        run_tests,
        "stages",
        _stages(run_tests, "import sys; sys.exit(3)", ["import time; time.sleep(60)", "", ""]),
    )
    t0 = time.perf_counter()
    assert run_tests.main(["--overlap"]) == 3
    assert time.perf_counter() - t0 < 30  # the 60 s notebooks stage was stopped
    out = capsys.readouterr().out
    assert "unit" in out and "FAILED (exit 3)" in out


def test_a_failing_chain_stage_stops_the_unit_stage(run_tests, monkeypatch, capsys):
    monkeypatch.setattr(
        run_tests,
        "stages",
        _stages(run_tests, "import time; time.sleep(60)", ["import sys; sys.exit(2)", "", ""]),
    )
    t0 = time.perf_counter()
    assert run_tests.main(["--overlap"]) == 2
    assert time.perf_counter() - t0 < 30
    out = capsys.readouterr().out
    assert "notebooks  " in out and "FAILED (exit 2)" in out and "stopped" in out


def test_on_two_cores_the_unit_stage_starts_after_the_notebooks(run_tests, monkeypatch, capsys):
    """On this project's 2-core machine the unit stage runs beside the book build and the browser check only (beside
    the notebooks stage too, it oversubscribed the cores: see the docstring); ``--serial`` runs all in order."""
    monkeypatch.setattr(run_tests.os, "cpu_count", lambda: 2)
    log = run_tests.ROOT / "order.txt"
    # O_APPEND: stages beside each other write at once (a read-then-write could lose the other's line)
    mark = "f = open({p!r}, 'a'); f.write({x!r}); f.close()"
    codes = [mark.format(p=str(log), x=f"{n} ") for n in ("unit", "notebooks", "book", "browser")]
    monkeypatch.setattr(run_tests, "stages", _stages(run_tests, codes[0], codes[1:]))
    assert run_tests.main([]) == 0
    out = capsys.readouterr().out
    assert out.index("[2/4] notebooks") < out.index("[1/4] unit") < out.index("[3/4] book")
    assert "beside the other stages: book, browser" in out
    assert log.read_text().split()[0] == "notebooks"
    log.unlink()
    assert run_tests.main(["--serial"]) == 0
    out = capsys.readouterr().out
    assert "beside the other stages" not in out and out.index("[1/4] unit") < out.index(
        "[2/4] notebooks"
    )
    assert log.read_text().split() == ["unit", "notebooks", "book", "browser"]


def test_a_failing_notebooks_stage_never_starts_the_unit_stage(run_tests, monkeypatch, capsys):
    monkeypatch.setattr(run_tests.os, "cpu_count", lambda: 2)
    marker = run_tests.ROOT / "unit-ran"
    unit = f"import pathlib; pathlib.Path({str(marker)!r}).write_text('x')"
    monkeypatch.setattr(
        run_tests, "stages", _stages(run_tests, unit, ["import sys; sys.exit(4)", "", ""])
    )
    assert run_tests.main([]) == 4
    assert not marker.exists()
    assert "FAILED (exit 4)" in capsys.readouterr().out


def _five(run_tests, codes: list[str]):
    names = ["unit", "notebooks", "book", "browser", "integration"]
    return lambda: [(n, _py(c), {}) for n, c in zip(names, codes, strict=True)]


def test_integration_runs_last_alone_after_the_base_and_its_time_is_apart(
    run_tests, monkeypatch, capsys
):
    """The integration stage starts only when every base stage (the unit stage beside the chain included) has
    passed; the table gives the base's time, the integration stage's and the total; the closing line counts all."""
    monkeypatch.setattr(run_tests.os, "cpu_count", lambda: 2)
    log = run_tests.ROOT / "order.txt"
    mark = "import time; time.sleep({t}); f = open({p!r}, 'a'); f.write({x!r}); f.close()"
    xml = 'import pathlib; pathlib.Path({p!r}).write_text(\'<testsuite tests="{k}" failures="0" errors="0" skipped="0"/>\')'
    codes = [
        mark.format(t=t, p=str(log), x=f"{n} ")
        + "; "
        + xml.format(p=str(run_tests.REPORTS / f"{n}.xml"), k=k)
        for n, t, k in [
            ("unit", 1.5, 5),
            ("notebooks", 0, 2),
            ("book", 0, 0),
            ("browser", 0, 3),
            ("integration", 0, 4),
        ]
    ]
    monkeypatch.setattr(run_tests, "stages", _five(run_tests, codes))
    assert run_tests.main([]) == 0
    out = capsys.readouterr().out
    # the unit stage (slowest, beside book and browser) ends before the integration stage starts
    assert log.read_text().split() == ["notebooks", "book", "browser", "unit", "integration"]
    assert "==> base passed in" in out and out.index("==> base passed in") < out.index(
        "[5/5] integration"
    )
    table = out[out.index("wall time per stage") :]
    assert [ln.split()[0] for ln in table.splitlines()[1:-1]] == [
        "unit", "notebooks", "book", "browser", "base", "integration", "total"
    ]  # fmt: skip
    assert out.rstrip().splitlines()[-1] == "14 passed, 0 failed, 0 skipped"
    # the stage times are kept for tools/bench.py, the base's and the total's after the stages
    import json

    record = json.loads((run_tests.REPORTS / "stages.json").read_text())
    assert [s[0] for s in record["stages"]] == [
        "unit", "notebooks", "book", "browser", "integration", "base", "total"
    ]  # fmt: skip
    total = dict((n, t) for n, t, _ in record["stages"])["total"]
    assert total >= 1.5 and "unit_s" in record


def test_a_failing_base_never_starts_the_integration_stage(run_tests, monkeypatch, capsys):
    marker = run_tests.ROOT / "integration-ran"
    ran = f"import pathlib; pathlib.Path({str(marker)!r}).write_text('x')"
    codes = ["import sys; sys.exit(5)", "", "", "", ran]
    monkeypatch.setattr(run_tests, "stages", _five(run_tests, codes))
    assert run_tests.main(["--serial"]) == 5
    assert not marker.exists()
    out = capsys.readouterr().out
    assert "base passed" not in out and "FAILED (exit 5)" in out
    assert run_tests.main(["--only", "integration"]) == 0 and marker.exists()


def test_schedule_order_balances_the_two_workers(run_tests):
    """Chapters are handed out one at a time to the first free worker: the order that ends first is chosen (times
    once measured here, where longest-first was not the best order); the hint covers every chapter."""
    assert sorted(run_tests.hint_s()) == sorted(
        p.stem for p in (ROOT / "notebooks").glob("*.ipynb")
    )
    times = {"c1": 68.0, "c2": 60.0, "c3": 50.0, "c4": 42.0, "c5": 28.0}
    times["c6"] = 13.0
    longest = sorted(times.values(), reverse=True)
    assert run_tests.makespan(longest, 2) == 138.0  # the 28 s chapter last, on one core
    order = run_tests.schedule_order(times, 2)
    assert sorted(order) == sorted(times)
    assert run_tests.makespan([times[k] for k in order], 2) == 131.0
    assert run_tests.makespan([times[k] for k in order], 1) == sum(longest)
    assert run_tests.schedule_order({"a": 1.0, "b": 5.0}, 2) == ["b", "a"]  # ties: longest first


def test_notebooks_are_ordered_from_the_execution_store(run_tests):
    store = run_tests.ROOT / "_build" / ".execution"
    store.mkdir(parents=True)
    for name in ("a", "b", "c"):
        (run_tests.ROOT / "notebooks" / f"{name}.ipynb").write_text("{}")
    for name, t in (("a", 10.0), ("b", 30.0), ("c", 20.0), ("chapter", 5.0)):
        (store / f"{name}.json").write_text(f'{{"wall_time_s": {t}}}')
    order = run_tests.notebooks_in_schedule_order()
    assert order[:2] == ["notebooks/b.ipynb", "notebooks/c.ipynb"]
    assert sorted(order) == [f"notebooks/{n}.ipynb" for n in ("a", "b", "c", "chapter")]


def test_the_pdf_stage_runs_only_with_pdf_after_integration_and_is_counted(
    run_tests, monkeypatch, capsys
):
    """make test runs no pdf stage; with --pdf (.ci/run) it runs after the integration stage, its time is a line of
    the table and its tests are in the closing count."""
    monkeypatch.setattr(run_tests.os, "cpu_count", lambda: 2)
    log = run_tests.ROOT / "order.txt"
    step = "f = open({p!r}, 'a'); f.write({x!r}); f.close(); import pathlib; pathlib.Path({r!r}).write_text({j!r})"
    xml = '<testsuite tests="{}" failures="0" errors="0" skipped="0"/>'
    names = ["unit", "notebooks", "book", "browser", "integration", "pdf"]
    codes = [
        step.format(p=str(log), x=f"{n} ", r=str(run_tests.REPORTS / f"{n}.xml"), j=xml.format(k))
        for n, k in zip(names, [5, 2, 0, 3, 4, 3], strict=True)
    ]
    monkeypatch.setattr(
        run_tests, "stages", lambda: [(n, _py(c), {}) for n, c in zip(names, codes, strict=True)]
    )
    assert run_tests.main([]) == 0
    assert "pdf" not in log.read_text().split()
    assert capsys.readouterr().out.rstrip().splitlines()[-1] == "14 passed, 0 failed, 0 skipped"
    log.unlink()
    assert run_tests.main(["--pdf"]) == 0
    out = capsys.readouterr().out
    assert log.read_text().split()[-2:] == ["integration", "pdf"]
    assert "[6/6] pdf" in out
    table = out[out.index("wall time per stage") :]
    assert [ln.split()[0] for ln in table.splitlines()[1:-1]] == [
        "unit", "notebooks", "book", "browser", "base", "integration", "pdf", "total"
    ]  # fmt: skip
    assert out.rstrip().splitlines()[-1] == "17 passed, 0 failed, 0 skipped"


def test_the_portable_stage_runs_the_numerics_tests_and_the_notebooks_stage_the_baseline_paths(
    run_tests,
):
    """The portable stage runs the tests marked ``numerics`` (no notebook: every chapter's checked cells already meet
    the baseline code paths in the notebooks stage, compared with outputs recorded natively); the notebooks stage runs
    with the reduced environment and the portable plugin's check, unless DPCOMPENDIUM_NOTEBOOK_PATHS=native."""
    cmd = run_tests.portable.command("python")
    assert not [c for c in cmd if c.endswith(".ipynb")]
    assert "numerics" in cmd
    stage = {name: (c, env) for name, c, env in run_tests.stages()}["notebooks"]
    assert (
        stage[1]["NPY_DISABLE_CPU_FEATURES"]
        == run_tests.portable.reduced_env()["NPY_DISABLE_CPU_FEATURES"]
    )
    assert "portable" in stage[0]
    native = run_tests.portable.notebook_env({"DPCOMPENDIUM_NOTEBOOK_PATHS": "native"})
    assert native == {}
    with pytest.raises(ValueError, match="DPCOMPENDIUM_NOTEBOOK_PATHS must be"):
        run_tests.portable.notebook_env({"DPCOMPENDIUM_NOTEBOOK_PATHS": "fast"})


def test_the_notebooks_stage_runs_the_chapters_and_the_executable_book_pages(run_tests):
    """nbval runs every chapter and every executable book page (the primer), the same globs as the execution store
    of the book build (dpcompendium.book.execution.EXECUTED_NOTEBOOKS)."""
    from dpcompendium.book.execution import EXECUTED_NOTEBOOKS, executed_notebooks

    (run_tests.ROOT / "book").mkdir()
    (run_tests.ROOT / "book" / "primer.ipynb").write_text("{}")
    (run_tests.ROOT / "book" / "intro.md").write_text("# Intro\n")
    scheduled = sorted(run_tests.notebooks_in_schedule_order())
    assert scheduled == ["book/primer.ipynb", "notebooks/chapter.ipynb"]
    found = sorted(
        p.relative_to(run_tests.ROOT).as_posix() for p in executed_notebooks(run_tests.ROOT)
    )
    assert found == scheduled, EXECUTED_NOTEBOOKS
    assert run_tests.PAGE_HINT_S.keys() <= {p.stem for p in (ROOT / "book").glob("*.ipynb")}


def test_each_stage_reports_its_cpu_time_with_its_children(run_tests, monkeypatch, capsys):
    """The table and stages.json give each stage's CPU time (user + system of its process tree, issue 50): a stage
    whose child process computes is charged that child's CPU, a stage that sleeps next to nothing; beside or not."""
    import json

    monkeypatch.setattr(run_tests, "STAGE_CPU", {})
    busy = (
        "import subprocess, sys; subprocess.run([sys.executable, '-c', "
        "'import time\\nt = time.process_time()\\nwhile time.process_time() - t < 0.6: pass'], check=True)"
    )
    chain = [busy, "import time; time.sleep(0.6)", "pass"]
    monkeypatch.setattr(run_tests, "stages", _stages(run_tests, busy, chain))
    assert run_tests.main(["--overlap"]) == 0
    out = capsys.readouterr().out
    cpu = json.loads((run_tests.REPORTS / "stages.json").read_text())["cpu_s"]
    assert set(cpu) == {"unit", "notebooks", "book", "browser"}
    assert cpu["unit"] >= 0.6 and cpu["notebooks"] >= 0.6, cpu
    assert cpu["book"] < 0.5, cpu  # slept: its wall time, not its CPU
    line = next(ln for ln in out.splitlines() if ln.strip().startswith("notebooks") and "CPU" in ln)
    assert "CPU" in line and "ok" in line


def test_cpu_durations_plugin_charges_each_test_its_cpu(tmp_path):
    """tools/cpudurations.py: the table of test phases by CPU time, a subprocess's CPU charged to the test that
    waited for it, a sleeping test next to nothing."""
    import os
    import subprocess

    (tmp_path / "test_cpu.py").write_text(
        "import subprocess, sys, time\n\n"
        "def test_busy_child():\n"
        "    code = 'import time\\nt = time.process_time()\\nwhile time.process_time() - t < 0.5: pass'\n"
        "    subprocess.run([sys.executable, '-c', code], check=True)\n\n"
        "def test_sleeps():\n"
        "    time.sleep(0.5)\n"
    )
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "cpudurations", "--cpu-durations=0", "-p", "no:cacheprovider",
         "-c", os.devnull, "--rootdir", str(tmp_path), "test_cpu.py"],
        cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(ROOT / "tools")}, capture_output=True, text=True,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stdout[-2000:]
    cpu = {
        (ln.split()[2], ln.split()[1]): float(ln.split()[0].rstrip("s"))
        for ln in proc.stdout.splitlines()
        if "test_cpu.py::" in ln
    }
    assert len(cpu) == 6, proc.stdout[-2000:]  # setup, call and teardown of each
    assert cpu["test_cpu.py::test_busy_child", "call"] >= 0.5, cpu
    assert cpu["test_cpu.py::test_sleeps", "call"] < 0.3, cpu


def test_the_integration_stage_collects_the_files_that_mark_its_tests():
    """The integration stage collects only the test files that name its marker (``marked_files``): that holds every
    integration test as long as a test is marked in its own file, so no conftest or helper module may add a marker
    to other files' tests or define one for them to import."""
    spec = importlib.util.spec_from_file_location(
        "run_tests_files", ROOT / "tools" / "run_tests.py"
    )
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    files = mod.marked_files("integration")
    assert {
        "tests/test_chapter_fuzz.py",
        "tests/test_parallel_dask.py",
        "tests/test_book_browser.py",
    } <= set(files)
    assert "tests/test_accounting.py" not in files and len(files) < 40
    helpers = [ROOT / "tests" / "conftest.py", *sorted((ROOT / "tests").glob("_*.py"))]
    for path in helpers:
        text = path.read_text(encoding="utf-8")
        for call in ("add_marker(", "applymarker(", "mark.integration"):
            assert call not in text, (
                f"{path.name} has {call!r}: a test of another file may be marked there"
            )
    integration = next(cmd for name, cmd, _ in mod.stages() if name == "integration")
    assert "tests" not in integration and set(files) <= set(integration)


def test_a_stage_writes_bytecode_as_under_make(run_tests, monkeypatch):
    """The Makefile unexports PYTHONDONTWRITEBYTECODE; run by hand (``--only STAGE``), the driver leaves it out of every
    stage's environment too, so the stage's processes keep the bytecode they compile (issue 50); a stage's own
    variables are still set."""
    monkeypatch.setenv("PYTHONDONTWRITEBYTECODE", "1")
    seen = run_tests.REPORTS / "seen.txt"
    code = (
        f"import os, pathlib, sys; pathlib.Path({str(seen)!r}).write_text("
        "repr((os.environ.get('PYTHONDONTWRITEBYTECODE'), sys.dont_write_bytecode, os.environ.get('OWN'))))"
    )
    monkeypatch.setattr(run_tests, "stages", lambda: [("unit", _py(code), {"OWN": "x"})])
    assert run_tests.main(["--only", "unit"]) == 0
    assert seen.read_text() == repr((None, False, "x"))


@pytest.mark.parametrize("later", ["unit", "chain"])
def test_the_table_says_which_lane_decided_the_base(run_tests, monkeypatch, capsys, later):
    """The unit stage runs beside the chain; the closing table says when each lane ended and which one the base
    waited for (time cut from the other lane does not shorten make test), and stages.json keeps both ends."""
    import json

    # the slow stage sleeps long enough that three Python start-ups on a loaded machine stay well below it (0.8 s
    # gave a 0.3 s gap in a clean clone's loaded run)
    slow, quick = "import time; time.sleep(2.0)", "pass"
    unit, chain = (slow, [quick] * 3) if later == "unit" else (quick, [quick, slow, quick])
    monkeypatch.setattr(run_tests, "stages", _stages(run_tests, unit, chain))
    assert run_tests.main(["--overlap"]) == 0
    line = next(ln for ln in capsys.readouterr().out.splitlines() if "lanes:" in ln)
    lanes = json.loads((run_tests.REPORTS / "stages.json").read_text())["lanes"]
    assert lanes["chain"] == ["notebooks", "book", "browser"] and lanes["beside"] == "unit"
    ends = lanes["beside_end_s"], lanes["chain_end_s"]
    assert (ends[0] > ends[1]) == (later == "unit"), lanes
    assert abs(ends[0] - ends[1]) > 0.4, lanes
    decided = "the unit stage decided the base" if later == "unit" else "the chain decided the base"
    assert decided in line and "notebooks → book → browser" in line, line
