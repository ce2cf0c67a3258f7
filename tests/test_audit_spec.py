"""The audit spec: the neighbour checker and the runner (raw datasets through the whole pipeline)."""

import math

import numpy as np
import pytest

from dpcompendium.core.audit import AuditSpec, are_neighbours, run_audit
from dpcompendium.core.mechanisms import laplace_mechanism
from dpcompendium.core.privacy import PrivacyClaim


@pytest.mark.parametrize(
    ("d", "d2", "relation", "expected"),
    [
        ([1.0, 2.0], [1.0, 2.0, 3.0], "add-remove", True),
        ([1.0, 2.0, 3.0], [1.0, 3.0], "add-remove", True),  # a record removed in the middle
        ([1.0, 2.0, 3.0], [2.0, 1.0], "add-remove", False),  # records compared position by position
        ([], [5.0], "add-remove", True),
        ([1.0, 2.0], [1.0, 4.0, 3.0], "add-remove", False),
        ([1.0, 2.0], [1.0, 2.0], "add-remove", False),
        ([1.0, 2.0], [1.0, 3.0], "replace-one", True),
        ([1.0, 2.0], [3.0, 4.0], "replace-one", False),
        ([1.0, 2.0], [1.0, 2.0], "replace-one", False),
        ([1.0, 2.0], [2.0, 1.0], "replace-one", False),  # two positions differ
        ([1.0, 2.0], [1.0, 2.0, 3.0], "replace-one", False),
        ([[1.0, 0.0], [0.0, 1.0]], [[1.0, 0.0], [0.5, 0.5]], "replace-one", True),
        ([[1.0, 0.0]], [[1.0, 0.0], [0.0, 1.0]], "add-remove", True),
        ([0.0], [1.0], "local", True),
        ([0.0, 1.0], [1.0], "local", False),
    ],
)
def test_are_neighbours(d, d2, relation, expected):
    assert are_neighbours(np.array(d), np.array(d2), relation) is expected


def test_are_neighbours_sites():
    a = (np.array([1.0, 2.0]), np.array([3.0]))
    assert are_neighbours(a, (np.array([1.0, 2.0]), np.array([3.0, 4.0])), "add-remove")
    assert are_neighbours(a, (np.array([1.0, 5.0]), np.array([3.0])), "replace-one")
    # a record moved from one site to another changes two sites: not neighbours under either relation
    assert not are_neighbours(a, (np.array([1.0]), np.array([3.0, 2.0])), "replace-one")
    assert not are_neighbours(a, (np.array([1.0, 2.0, 7.0]), np.array([3.0, 4.0])), "add-remove")


def test_replace_one_is_positional_and_queries_take_a_sensitivity():
    """Issue 34: a vector compared as a multiset accepted [0,1,1,1,1] / [1,1,1,1,5] (one value moved by 4) and
    refused the histogram pair [1,2,1,1,1] / [2,1,1,1,1]; records are now compared position by position, and
    vectors of answers have their own relation."""
    from dpcompendium.core.audit import neighbour_violation

    a, b = np.array([1.0, 2, 1, 1, 1]), np.array([2.0, 1, 1, 1, 1])
    c, d = np.array([0.0, 1, 1, 1, 1]), np.array([1.0, 1, 1, 1, 5])
    assert are_neighbours(a, b, "queries", sensitivity=1)
    assert are_neighbours(a, b, "queries", sensitivity=2, norm="l1")
    assert not are_neighbours(a, b, "queries", sensitivity=1, norm="l1")
    assert not are_neighbours(c, d, "queries", sensitivity=1)
    assert not are_neighbours(c, d, "replace-one")
    why = neighbour_violation(c, d, "replace-one")
    assert "exactly one record" in why and "records 0, 4 differ" in why and "\n" not in why
    assert "answer 4 moves by 4" in neighbour_violation(c, d, "queries", sensitivity=1)
    assert are_neighbours(c, np.array([0.0, 1, 1, 1, 5]), "replace-one")
    with pytest.raises(ValueError, match="sensitivity"):
        are_neighbours(a, b, "queries")


def test_are_neighbours_bad_relation():
    with pytest.raises(ValueError, match="relation"):
        are_neighbours(np.zeros(1), np.zeros(2), "swap")


def _laplace_spec(datasets, relation="add-remove"):
    claim = PrivacyClaim("Laplace mechanism", relation, "L1 sensitivity 1", 1.0)
    return AuditSpec(
        "laplace",
        "core",
        "core",
        claim,
        datasets,
        sample=lambda d, n, g: laplace_mechanism(
            float(np.clip(d, 0, 1).sum()), 1.0, 1.0, g, size=n
        ),
    )


def test_run_audit_refuses_non_neighbours():
    spec = _laplace_spec((np.array([]), np.array([1.0, 1.0])))
    with pytest.raises(ValueError, match="not add-remove neighbours"):
        run_audit(spec, n_samples=100, rng=np.random.default_rng(0))


def test_run_audit_pipeline():
    spec = _laplace_spec((np.array([]), np.array([1.0])))
    res = run_audit(spec, n_samples=200_000, rng=np.random.default_rng(1))
    assert res.audit == "empirical" and res.verdict == "holds"
    assert 0.5 < res.audited_epsilon <= 1.0


def test_spec_needs_one_pipeline():
    claim = PrivacyClaim("x", "local", "-", 1.0)
    with pytest.raises(ValueError, match="exactly one"):
        AuditSpec("x", "core", "core", claim, (np.zeros(1), np.ones(1)))
    exact = AuditSpec(
        "rr",
        "core",
        "core",
        claim,
        (np.zeros(1), np.ones(1)),
        distribution=lambda d: np.array([0.5, 0.5]) + (0.1 if d[0] else -0.1) * np.array([1, -1]),
        pairs=None,
    )
    res = run_audit(exact, rng=np.random.default_rng(0))
    assert res.audit == "exact" and math.isclose(res.audited_epsilon, math.log(1.5))
