"""Input validation: every bad input gets a one-line ValueError naming the argument and the value."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from dpcompendium.core import validation as v
from dpcompendium.core.mechanisms import (
    exponential_mechanism,
    gaussian_mechanism,
    grr_privatise,
    laplace_mechanism,
)

bad_eps = st.one_of(
    st.floats(max_value=0.0, allow_nan=False),
    st.just(math.nan),
    st.just(math.inf),
    st.just(-math.inf),
)


def _one_line(exc: pytest.ExceptionInfo, name: str) -> None:
    msg = str(exc.value)
    assert "\n" not in msg
    assert name in msg


@given(bad_eps)
def test_check_epsilon_rejects(eps):
    with pytest.raises(ValueError) as exc:
        v.check_epsilon(eps)
    _one_line(exc, "epsilon")


@given(st.floats(min_value=1e-300, max_value=1e300))
def test_check_epsilon_accepts(eps):
    assert v.check_epsilon(eps) == eps


@pytest.mark.parametrize("bad", ["1", None, True, [1.0], np.array([1.0])])
def test_check_epsilon_rejects_non_numbers(bad):
    with pytest.raises(ValueError) as exc:
        v.check_epsilon(bad)
    _one_line(exc, "epsilon")


@given(st.one_of(st.floats(max_value=0.0), st.floats(min_value=1.0), st.just(math.nan)))
def test_check_delta_rejects(delta):
    with pytest.raises(ValueError) as exc:
        v.check_delta(delta)
    _one_line(exc, "delta")


@given(st.floats(min_value=1e-12, max_value=0.999999))
def test_check_delta_accepts(delta):
    assert v.check_delta(delta) == delta


@given(st.one_of(st.floats(max_value=0.0), st.just(math.nan), st.just(math.inf)))
def test_check_sensitivity_rejects(s):
    with pytest.raises(ValueError) as exc:
        v.check_sensitivity(s)
    _one_line(exc, "sensitivity")


@given(
    st.floats(allow_nan=False, allow_infinity=False),
    st.floats(allow_nan=False, allow_infinity=False),
)
def test_check_bounds(lo, hi):
    if lo < hi:
        assert v.check_bounds((lo, hi)) == (lo, hi)
    else:
        with pytest.raises(ValueError) as exc:
            v.check_bounds((lo, hi))
        _one_line(exc, "bounds")


@given(
    st.lists(st.floats(min_value=-10, max_value=10), min_size=1),
    st.floats(min_value=-20, max_value=20),
)
def test_check_in_domain(values, shift):
    x = np.asarray(values) + shift
    inside = bool(np.all((x >= -10) & (x <= 10)))
    if inside:
        np.testing.assert_array_equal(v.check_in_domain(x, (-10, 10)), x)
    else:
        with pytest.raises(ValueError) as exc:
            v.check_in_domain(x, (-10, 10), name="heights")
        _one_line(exc, "heights")


def test_check_array_nan_and_empty():
    with pytest.raises(ValueError, match="x must be finite"):
        v.check_array([1.0, np.nan])
    with pytest.raises(ValueError, match="x must be non-empty"):
        v.check_array([])
    with pytest.raises(ValueError, match="ndim"):
        v.check_array(np.zeros((2, 2)), ndim=1)
    with pytest.raises(ValueError, match="numeric"):
        v.check_array(["a", "b"])


def test_check_same_shape_and_int():
    with pytest.raises(ValueError, match=r"a and b must have the same shape"):
        v.check_same_shape(np.zeros(3), np.zeros(4))
    v.check_same_shape(np.zeros(3), np.ones(3))
    with pytest.raises(ValueError, match="reps must be >= 1, got 0"):
        v.check_int(0, "reps", minimum=1)
    with pytest.raises(ValueError, match="reps must be an integer"):
        v.check_int(1.5, "reps")
    with pytest.raises(ValueError, match="reps must be an integer"):
        v.check_int(True, "reps")


def test_check_rng_rejects_legacy_and_ints():
    for bad in (None, 0, np.random.RandomState(0)):
        with pytest.raises(ValueError, match=r"rng must be a numpy\.random\.Generator"):
            v.check_rng(bad)


@given(bad_eps)
def test_mechanisms_reject_bad_epsilon(eps):
    rng = np.random.default_rng(0)
    with pytest.raises(ValueError, match="epsilon"):
        laplace_mechanism(1.0, 1.0, eps, rng)
    with pytest.raises(ValueError, match="epsilon"):
        gaussian_mechanism(1.0, 1.0, eps, 1e-5, rng)
    with pytest.raises(ValueError, match="epsilon"):
        exponential_mechanism([0.0, 1.0], 1.0, eps, rng)
    with pytest.raises(ValueError, match="epsilon"):
        grr_privatise([0, 1], 2, eps, rng)


def test_mechanisms_reject_bad_inputs(rng):
    with pytest.raises(ValueError, match="value must be finite"):
        laplace_mechanism([1.0, np.nan], 1.0, 1.0, rng)
    with pytest.raises(ValueError, match="sensitivity"):
        laplace_mechanism(1.0, 0.0, 1.0, rng)
    with pytest.raises(ValueError, match="delta"):
        gaussian_mechanism(1.0, 1.0, 0.5, 1.5, rng)
    with pytest.raises(ValueError, match="scores must be finite"):
        exponential_mechanism([0.0, np.inf], 1.0, 1.0, rng)
    with pytest.raises(ValueError, match="values must lie in"):
        grr_privatise([0, 5], 3, 1.0, rng)
    with pytest.raises(ValueError, match="k must be >= 2"):
        grr_privatise([0], 1, 1.0, rng)
    with pytest.raises(ValueError, match="rng"):
        laplace_mechanism(1.0, 1.0, 1.0, np.random.RandomState(0))
