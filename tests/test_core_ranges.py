"""Tests of the core's range-query type (dpcompendium.core.experiments.ranges): the half-open 1-D constructor, names,
lengths and answers over leading axes (the d-dimensional answers and masks are tested with the mwem chapter)."""

from __future__ import annotations

import numpy as np
import pytest

from dpcompendium.core.experiments import RangeQueries


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
