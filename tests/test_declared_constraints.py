"""Constraints that come from the data are declared (issue 45): a size larger than a dataset has records, more sites
than a dataset has rows for, are ``# require:`` lines of the chapter's parameters cell, refused by
``dpcompendium run`` in one line before anything runs.

Each declared limit is checked against the data and the library: the library runs at the limit and fails one
past it, and the contract accepts the limit and refuses one past it, naming the parameter and its value.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from _chapter_ids import DP_MEAN, FEDERATED_PCA

from dpcompendium.book import cli
from dpcompendium.book.contract import get_chapter, validate_parameters
from dpcompendium.chapters import dp_mean, federated_pca


def _adult_ages() -> int:
    return dp_mean.adult_ages().size


def _half_rows(name: str):
    return lambda: federated_pca.load_dataset(name).n // 2


def _dp_mean_runs(n: int) -> None:
    dp_mean.dataset("adult-age", n, np.random.default_rng(0))


def _split_runs(name: str):
    def run(s: int) -> None:
        for sizes in ("equal", "unequal"):
            rows = federated_pca.load_dataset(name).n
            federated_pca.split_sites(rows, s, np.random.default_rng(0), sizes=sizes)

    return run


#: (chapter, parameter (a list), its largest value the data allows, what the library does with a value, the other
#: parameters that bring the dataset in)
LIMITS = [
    (DP_MEAN, "ns", _adult_ages, _dp_mean_runs, {"datasets": ["adult-age"]}),
    (FEDERATED_PCA, "sites", _half_rows("wine"), _split_runs("wine"), {"datasets": ["wine"]}),
    (
        FEDERATED_PCA,
        "sites",
        _half_rows("breast_cancer"),
        _split_runs("breast_cancer"),
        {"datasets": ["breast_cancer"]},
    ),
    (FEDERATED_PCA, "sites", _half_rows("digits"), _split_runs("digits"), {"datasets": ["digits"]}),
]


@pytest.mark.parametrize(
    ("chapter_id", "name", "limit", "library", "others"),
    LIMITS,
    ids=[f"{c}-{n}-{o['datasets'][0]}" for c, n, _, _, o in LIMITS],
)
def test_a_limit_of_the_data_is_declared(chapter_id, name, limit, library, others):
    top = limit()
    library(top)  # the library runs at the limit ...
    with pytest.raises(ValueError):
        library(top + 1)  # ... and not one past it
    chapter = get_chapter(chapter_id)
    validate_parameters(chapter, {name: [top], **others})
    with pytest.raises(ValueError, match=rf"{name} = \[{top + 1}\]"):
        validate_parameters(chapter, {name: [top + 1], **others})
    # the declared range allows the value past the limit: only the # require: line refuses it
    chapter.parameters[name].check([top + 1])


@pytest.mark.parametrize(
    ("chapter_id", "values"),
    [
        (DP_MEAN, {"ns": [32_562], "datasets": ["heights", "adult-age"]}),
        (FEDERATED_PCA, {"sites": [2, 285], "datasets": ["breast_cancer"]}),
    ],
)
def test_the_cli_refuses_a_size_the_data_cannot_give(chapter_id, values, tmp_path, capsys):
    out = tmp_path / "out"
    args = ["run", chapter_id, "--out", str(out), "--no-page"]
    for n, v in values.items():
        args += ["-p", n, json.dumps(v)]
    assert cli.main(args) == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("dpcompendium: error: parameters must satisfy")
    assert all(f"{n} = {v!r}" in lines[0] for n, v in values.items()), lines[0]
    assert not out.exists()
