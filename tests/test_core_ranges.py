"""Tests of the core's range-query type (dpcompendium.core.experiments.ranges): the query matrix, prefix-sum answers
over leading axes, the half-open 1-D constructor, names, lengths, validation."""

from __future__ import annotations

import numpy as np
import pytest

from dpcompendium.core.experiments import RangeQueries


def test_query_matrix_1d_explicit():
    Q = RangeQueries.from_ranges(4, [(0, 0), (1, 3), (0, 3)])
    np.testing.assert_array_equal(Q.matrix(), [[1, 0, 0, 0], [0, 1, 1, 1], [1, 1, 1, 1]])
    np.testing.assert_allclose(Q.answer(np.array([1.0, 2.0, 3.0, 4.0])), [1, 9, 10])


def test_query_matrix_2d_explicit():
    Q = RangeQueries.from_ranges((3, 2), [((0, 1), (1, 1)), ((2, 2), (0, 1))])
    expected = np.array([[0, 1, 0, 1, 0, 0], [0, 0, 0, 0, 1, 1]])
    np.testing.assert_array_equal(Q.matrix(), expected)
    assert Q.ranges() == [((0, 1), (1, 1)), ((2, 2), (0, 1))]


@pytest.mark.parametrize("shape", [(14,), (14, 4), (5, 3, 4)])
def test_prefix_sum_answers_equal_matrix_product(shape, rng):
    dims = np.array(shape)
    lo = rng.integers(0, dims, size=(30, len(shape)))
    Q = RangeQueries(shape, lo, rng.integers(lo, dims))  # random boxes: lo <= hi < shape
    x = rng.random((7, *shape)) * 100
    np.testing.assert_allclose(Q.answer(x), x.reshape(7, -1) @ Q.matrix().T, rtol=1e-10)
    ind = Q.indicators()
    assert [i.shape for i in ind] == [(n, 30) for n in shape]


def test_half_open_is_the_inclusive_box_below_hi():
    q = RangeQueries.half_open(6, [0, 2, 5], [1, 6, 6], name="three")
    assert q.shape == (6,) and q.name == "three" and len(q) == 3
    assert q.ranges() == [((0, 0),), ((2, 5),), ((5, 5),)]
    np.testing.assert_array_equal(q.lengths, [1, 4, 1])
    np.testing.assert_array_equal(q.matrix(), RangeQueries.from_ranges(6, q.ranges()).matrix())


def test_half_open_answers_are_prefix_differences_bit_for_bit():
    """Answers over leading axes equal P[hi] − P[lo] of the zero-bordered prefix sums exactly (the arithmetic
    the histograms chapter's tables were computed with), not only to a tolerance."""
    gen = np.random.default_rng(5)
    n = 257
    lo = gen.integers(0, n - 1, size=300)
    hi = lo + 1 + gen.integers(0, n - lo)
    q = RangeQueries.half_open(n, lo, hi)
    x = gen.laplace(3.0, 7.0, size=(2, 4, n))
    prefix = np.concatenate([np.zeros((2, 4, 1)), np.cumsum(x, axis=-1)], axis=-1)
    expected = prefix[..., hi] - prefix[..., lo]
    got = q.answer(x)
    assert got.shape == (2, 4, 300)
    assert np.array_equal(got.view(np.int64), expected.view(np.int64))


def test_lengths_count_the_cells_of_each_box():
    q = RangeQueries.from_ranges((4, 3), [((0, 3), (0, 2)), ((1, 1), (2, 2)), ((2, 3), (0, 1))])
    np.testing.assert_array_equal(q.lengths, [12, 1, 4])
    np.testing.assert_array_equal(q.lengths, q.matrix().sum(axis=1))
    assert q.name == "range queries"


@pytest.mark.parametrize(
    ("args", "match"),
    [
        ((0, [0], [1]), "n must be >= 1"),
        ((4, [0, 1], [2]), "lo and hi must have one shape"),
        ((4, [2], [2]), r"0 <= lo < hi <= n=4"),
        ((4, [-1], [2]), r"0 <= lo < hi <= n=4"),
        ((4, [0], [5]), r"0 <= lo < hi <= n=4"),
        ((4, [], []), "lo must be non-empty"),
    ],
)
def test_half_open_validation(args, match):
    with pytest.raises(ValueError, match=match):
        RangeQueries.half_open(*args)


def test_query_validation():
    with pytest.raises(ValueError, match="0 <= lo <= hi < shape"):
        RangeQueries.from_ranges(4, [(2, 1)])
    with pytest.raises(ValueError, match="0 <= lo <= hi < shape"):
        RangeQueries.from_ranges(4, [(0, 4)])
    with pytest.raises(ValueError, match="ranges must have shape"):
        RangeQueries.from_ranges((4, 4), [(0, 1)])
    with pytest.raises(ValueError, match="shape must be >= 1"):
        RangeQueries((0,), [0], [0])
    with pytest.raises(ValueError, match="x must have trailing shape"):
        RangeQueries.from_ranges(4, [(0, 1)]).answer(np.ones(5))
