"""The edge fuzz (issue 45): every parameter at the ends of its declared range — a number's smallest and largest
allowed values (the largest capped by the chapter's fuzz size), a list at length one, each choice — combined
pairwise: every pair of (parameter, edge value) that a valid set can hold is in some set
(``dpcompendium.book.fuzz.edge_sets``, a greedy covering array).

The construction is checked in the base (no chapter runs: a toy contract against brute force, every chapter's
sets valid and within the fuzz size). ``make fuzz`` runs every set of every chapter (markers ``fuzz`` and
``extended``); ``make test``'s integration stage runs a subset, one set per chapter that holds every parameter at an
edge (``edge_subset``), as the fixed set of ``tests/test_chapter_fuzz.py``, its page checked. Runs here are
``dpcompendium run CHAPTER -p … --no-page`` (the pages are checked by the random fuzz); ``DPCOMPENDIUM_FUZZ_LOG``
appends one JSON line per run (``tools/fuzz_summary.py`` counts them).
"""

from __future__ import annotations

import functools
import itertools
import json
import os
import time
from pathlib import Path

import pytest
from _chapter_ids import HIERA

from dpcompendium.book import cli
from dpcompendium.book.contract import (
    CHAPTER_IDS,
    Chapter,
    Parameter,
    Requirement,
    get_chapter,
    validate_parameters,
)
from dpcompendium.book.fuzz import edge_sets, edge_subset, edge_values, fuzz_size
from dpcompendium.book.preflight import check_memory

LOG = os.environ.get("DPCOMPENDIUM_FUZZ_LOG")


@functools.cache
def _sets(chapter_id: str) -> tuple:
    """The chapter's edge sets, built once per process (collection and tests)."""
    return tuple(edge_sets(get_chapter(chapter_id)))


def _key(name, value):
    return (name, json.dumps(value))


def _pairs(values: dict) -> set:
    items = sorted(_key(n, v) for n, v in values.items())
    return set(itertools.combinations(items, 2))


def _toy() -> Chapter:
    params = {
        "seed": Parameter("seed", 3, "", "min 0"),
        "output_dir": Parameter("output_dir", "", ""),
        "a": Parameter("a", 0.5, "", "min 0.1, max 0.9"),
        "b": Parameter("b", 0.2, "", ">0, <1"),
        "k": Parameter("k", 4, "", "min 1, max 8"),
        "names": Parameter("names", ["x", "y"], "", "x|y|z"),
        "sizes": Parameter("sizes", [2, 3], "", "min 1, max 100"),
        "mode": Parameter("mode", "fast", "", "fast|slow"),
    }
    requires = (
        Requirement("a + b < 1.5", ("a", "b")),
        Requirement('k <= 4 or "z" not in names', ("k", "names")),
        Requirement('mode == "fast" or max(sizes) <= 50', ("mode", "sizes")),
    )
    return Chapter("toy", "Toy", Path("toy.ipynb"), params, requires)


def test_edge_values_of_a_toy_contract():
    domains = edge_values(_toy())
    assert "output_dir" not in domains
    assert domains["a"] == [0.1, 0.9]
    assert domains["b"][0] > 0 and domains["b"][0] < 1e-300 and domains["b"][1] < 1
    assert domains["k"] == [1, 8]
    assert domains["names"] == [["x"], ["y"], ["z"]]
    assert domains["sizes"] == [[1], [100]]
    assert domains["mode"] == ["fast", "slow"]
    assert domains["seed"] == [0, 2**32 - 1]


def test_edge_sets_cover_every_pair_a_valid_set_can_hold():
    """Brute force over every combination of edge values of the toy: the sets are valid, and each pair some valid
    combination holds is in one of them; the pairs no valid combination holds are in none."""
    toy = _toy()
    domains = edge_values(toy)
    feasible = set()
    for combo in itertools.product(*domains.values()):
        values = dict(zip(domains, combo, strict=True))
        try:
            validate_parameters(toy, values)
        except ValueError:
            continue
        feasible |= _pairs(values)
    sets = edge_sets(toy)
    covered = set()
    for s in sets:
        validate_parameters(toy, s.values)
        assert set(s.values) == set(domains)
        assert all(v in domains[n] for n, v in s.values.items())
        covered |= _pairs(s.values)
    assert covered == feasible
    assert (_key("a", 0.9), _key("b", domains["b"][1])) not in feasible  # a + b < 1.5 forbids it
    assert len(sets) < len(feasible) / 4  # far fewer sets than pairs
    assert [s.values for s in edge_sets(toy)] == [s.values for s in sets]  # deterministic


@pytest.mark.parametrize("chapter_id", CHAPTER_IDS)
def test_every_chapters_edge_sets_are_valid_small_and_cover_each_edge(chapter_id):
    chapter = get_chapter(chapter_id)
    domains = edge_values(chapter)
    sets = _sets(chapter_id)
    caps = fuzz_size(chapter)
    held = set()
    for s in sets:
        validate_parameters(chapter, s.values)
        check_memory(chapter, s.values)
        for name, value in s.values.items():
            assert value in domains[name], (name, value)
            held.add(_key(name, value))
            if isinstance(caps.get(name), tuple):
                items = value if isinstance(value, list) else [value]
                assert all(v <= caps[name][1] for v in items), (name, value)
    assert held == {_key(n, v) for n in domains for v in domains[n]}
    # one set of make test's subset holds every parameter at an edge
    (first,) = edge_subset(chapter)
    assert set(first.values) == set(domains) and first in sets


def test_the_issues_case_is_an_edge_pair():
    """The crash of issue 45 (one SGD repetition) is an edge: sgd_reps at its smallest value, in some set with each
    SGD method alone and with the corrected SGD."""
    sets = _sets(HIERA)
    for method in ("graded-laplace", "none"):
        assert any(s.values["sgd_reps"] == 1 and s.values["sgd_methods"] == [method] for s in sets)
    assert any(
        s.values["sgd_reps"] == 1 and s.values["sgd_variants"] == ["corrected"] for s in sets
    )


def _args(chapter_id: str, values: dict, out: Path) -> list[str]:
    args = ["run", chapter_id, "--out", str(out), "--no-page"]
    for name, value in values.items():
        text = json.dumps(value)
        # a leading space keeps "-5e-324" a value for argparse (see test_extremes._args)
        args += ["-p", name, f" {text}" if text.startswith("-") else text]
    return args


def check_edge_run(case, tmp_path, capsys) -> None:
    out = tmp_path / "out"
    t0 = time.perf_counter()
    code = cli.main(_args(case.chapter, case.values, out))
    err = capsys.readouterr().err
    if LOG:
        with open(LOG, "a") as f:
            rec = {"chapter": case.chapter, "edge": case.index, "values": case.values, "code": code}
            rec["seconds"] = round(time.perf_counter() - t0, 1)
            f.write(json.dumps({**rec, "error": err.strip()}) + "\n")
    assert code == 0, f"{case.chapter} edge set {case.index} {case.values}: {err}"
    dest = out / case.chapter
    assert list(dest.glob("*.csv")), "no table written"
    assert [p.name for p in out.iterdir()] == [case.chapter]


def _params(cases) -> list:
    return [pytest.param(c, id=f"{c.chapter}-edge{c.index}") for c in cases]


@pytest.mark.fuzz
@pytest.mark.extended  # make fuzz
@pytest.mark.parametrize("case", _params(c for cid in CHAPTER_IDS for c in _sets(cid)))
def test_edge_set_runs(case, tmp_path, capsys):
    check_edge_run(case, tmp_path, capsys)
