"""The extremes fuzz: boundary and extreme values of every parameter of every chapter, each refused up front (one
line, exit 2, in under 3 s, nothing written) or run to the end (``dpcompendium.book.fuzz.extreme_cases``).

The refusals run in the base (no kernel starts: a few seconds for all chapters); the runs under ``make fuzz``
(markers ``fuzz`` and ``extended``: 26 chapter runs at the fuzz size, ~15 min on 2 cores); make test's integration
stage runs each chapter's edge subset instead (tests/test_chapter_fuzz.py). ``DPCOMPENDIUM_FUZZ_LOG`` appends one
JSON line per case (``tools/fuzz_summary.py`` reads them).
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest
from _chapter_ids import DP_MEAN

from dpcompendium.book import cli
from dpcompendium.book.contract import CHAPTER_IDS, get_chapter
from dpcompendium.book.fuzz import extreme_cases

#: Longest a refusal may take (seconds), measured in the test's process (the CLI's own imports excluded).
REFUSAL_S = 3.0
LOG = os.environ.get("DPCOMPENDIUM_FUZZ_LOG")


def _args(chapter_id: str, values: dict, out: Path) -> list[str]:
    args = ["run", chapter_id, "--out", str(out), "--no-page"]
    for name, value in values.items():
        text = json.dumps(value)
        # argparse takes "-5e-324" for an option (it knows only -1, -1.5 as negative numbers): a leading space,
        # which YAML ignores, keeps it a value
        args += ["-p", name, f" {text}" if text.startswith("-") else text]
    return args


def _log(chapter_id, case, code, seconds, err) -> None:
    if LOG:
        with open(LOG, "a") as f:
            rec = {"chapter": chapter_id, "extreme": case.what, "values": case.values, "code": code}
            rec["valid"] = case.valid  # a refusal (exit 2) of an invalid case passes
            f.write(json.dumps({**rec, "seconds": round(seconds, 2), "error": err.strip()}) + "\n")


def _runs() -> list:
    return [
        pytest.param(c, id=f"{c.chapter}-{c.what.split(':')[0].replace(' ', '_')}")
        for cid in CHAPTER_IDS
        for c in extreme_cases(get_chapter(cid))
        if c.valid
    ]


@pytest.mark.parametrize("chapter_id", CHAPTER_IDS)
def test_extreme_values_are_refused_up_front(chapter_id, tmp_path, capsys):
    cases = [c for c in extreme_cases(get_chapter(chapter_id)) if not c.valid]
    assert len(cases) >= 5
    times = []
    for case in cases:
        out = tmp_path / "out"
        t0 = time.perf_counter()
        code = cli.main(_args(chapter_id, case.values, out))
        seconds = time.perf_counter() - t0
        err = capsys.readouterr().err
        _log(chapter_id, case, code, seconds, err)
        lines = err.strip().splitlines()
        assert code == 2, f"{case.what} {case.values}: exit {code}, {err}"
        assert len(lines) == 1 and lines[0].startswith("dpcompendium: error: "), err
        names = [n for n in case.values if n in lines[0]]
        assert names, f"{case.what}: the refusal names no parameter: {lines[0]}"
        assert seconds < REFUSAL_S, f"{case.what}: refused after {seconds:.1f} s"
        assert not out.exists() or not any(out.iterdir()), "a refused run wrote something"
        times.append(seconds)
    print(f"{chapter_id}: {len(cases)} refusals, longest {max(times):.2f} s")


def test_the_extremes_cover_every_numeric_parameter():
    for cid in CHAPTER_IDS:
        ch = get_chapter(cid)
        cases = extreme_cases(ch)
        covered = {n for c in cases for n in c.values if not c.valid} | {
            n for c in cases if c.valid and ":" in c.what for n in c.what.split(":")[1].split(", ")
        }
        numeric = {
            n
            for n, p in ch.parameters.items()
            if n != "output_dir"
            and not isinstance(p.default, bool | str)
            and not (isinstance(p.default, list) and isinstance(p.default[0], str))
        }
        assert numeric <= {n.strip() for n in covered}, (cid, numeric - covered)


@pytest.mark.fuzz
@pytest.mark.extended  # make fuzz (its `-m extended` pass), not make test
@pytest.mark.parametrize("case", _runs())
def test_extreme_values_run_to_the_end(case, tmp_path, capsys):
    out = tmp_path / "out"
    t0 = time.perf_counter()
    code = cli.main(_args(case.chapter, case.values, out))
    err = capsys.readouterr().err
    _log(case.chapter, case, code, time.perf_counter() - t0, err)
    assert code == 0, f"{case.chapter} {case.what} {case.values}: {err}"
    dest = out / case.chapter
    assert list(dest.glob("*.csv")), "no table written"
    assert [p.name for p in out.iterdir()] == [case.chapter]  # no partial folder


@pytest.mark.fuzz
@pytest.mark.extended  # make test's integration stage runs every chapter's edge subset (tests/test_chapter_fuzz.py)
def test_a_sample_of_extreme_values_runs(tmp_path, capsys):
    """dp-mean with every parameter at the smallest value it allows (the edge subset of make test holds the same
    values but the datasets)."""
    case = next(
        c
        for c in extreme_cases(get_chapter(DP_MEAN))
        if c.valid and c.what.startswith("smallest allowed")
    )
    test_extreme_values_run_to_the_end(case, tmp_path, capsys)
