"""Tests of HDMM for the histograms chapter (``chapters/histograms/hdmm.py``, issue 47): the objective and its
gradient against dense linear algebra, the rounded strategy's sensitivity, the Woodbury least squares, the expected
error against Monte Carlo, input validation and determinism."""

from __future__ import annotations

import importlib

import numpy as np
import pytest
from conftest import mc_tol

import dpcompendium.chapters.histograms as H
from dpcompendium.core.experiments import RangeQueries

N = 32
#: the module (the package exports its function ``hdmm`` under the same name)
hdmm_mod = importlib.import_module("dpcompendium.chapters.histograms.hdmm")


@pytest.fixture(scope="module")
def workload() -> RangeQueries:
    return H.random_ranges(N, 40, (3, 20), np.random.default_rng(11))


def _dense(strategy: H.HdmmStrategy) -> np.ndarray:
    """The strategy's matrix A, (n + p) × n."""
    return np.vstack([np.diag(strategy.a), strategy.b])


def _frobenius(workload: RangeQueries, a: np.ndarray) -> float:
    return float(np.linalg.norm(workload.matrix() @ np.linalg.pinv(a)) ** 2)


@pytest.mark.parametrize("block", [1, 4])
def test_objective_is_the_dense_error_and_its_gradient_the_finite_difference(workload, block):
    theta = np.random.default_rng(3).random((3, N // block))
    value, grad = H.hdmm_objective(theta, workload, block=block)
    full = np.repeat(theta, block, axis=1)
    a = np.vstack([np.eye(N), full]) / (1.0 + full.sum(axis=0))
    assert value == pytest.approx(_frobenius(workload, a), rel=1e-10)
    h = 1e-6
    for i, j in [(0, 0), (1, 3), (2, N // block - 1)]:
        up, down = theta.copy(), theta.copy()
        up[i, j] += h
        down[i, j] -= h
        numeric = (
            H.hdmm_objective(up, workload, block=block, gradient=False)
            - H.hdmm_objective(down, workload, block=block, gradient=False)
        ) / (2 * h)
        # central difference: error O(h²·F''') plus rounding O(u·F/h), both far below 1e-5 relative here
        assert grad[i, j] == pytest.approx(numeric, rel=1e-5, abs=1e-6 * value)


def test_strategy_on_the_grid_with_sensitivity_at_most_one_and_better_than_identity(workload):
    s = H.hdmm_strategy(workload, p=4)
    dense = _dense(s)
    assert np.all(dense >= 0)
    assert np.all(np.mod(dense, H.HDMM_GRID) == 0)  # every entry a multiple of 2^-20
    col = dense.sum(axis=0)
    assert s.sensitivity == col.max() <= 1.0  # the L1 sensitivity of the matrix that runs
    assert s.sensitivity > 1.0 - 1e-4  # rounding down costs at most p + 1 grid steps per column
    err = s.total_squared_error(workload)
    assert err == pytest.approx(_frobenius(workload, dense), rel=1e-9)
    identity = float(workload.matrix().sum())  # ‖W I‖²_F = Σ_q |q|
    assert err < identity


def test_a_block_strategy_has_the_dense_error_and_the_paper_form(workload):
    s = H.hdmm_strategy(workload, p=3, block=4)
    dense = _dense(s)
    assert s.block == 4 and np.all(
        s.b.reshape(3, -1, 4) == s.b[:, ::4, None]
    )  # aggregates constant on blocks
    assert s.total_squared_error(workload) == pytest.approx(_frobenius(workload, dense), rel=1e-9)
    assert s.sensitivity == dense.sum(axis=0).max() <= 1.0


def test_least_squares_is_exact_without_noise_and_equals_the_pseudo_inverse(workload):
    s = H.hdmm_strategy(workload, p=4)
    x = np.random.default_rng(5).integers(0, 50, N).astype(float)
    y_id, y_agg = s.measure(x)
    np.testing.assert_allclose(s.solve(y_id[None], y_agg[None])[0], x, rtol=0, atol=1e-9 * x.max())
    y = np.random.default_rng(6).normal(size=(3, N + s.p))
    dense = np.linalg.pinv(_dense(s)) @ y.T
    np.testing.assert_allclose(s.solve(y[:, :N], y[:, N:]), dense.T, rtol=1e-9, atol=1e-9)


def test_expected_error_matches_monte_carlo(workload):
    """Mean workload MSE over R releases against 2(Δ/ε)²‖WA⁺‖²_F/|W|; tolerance from the exact variance of the
    quadratic form zᵀQz in iid Laplace(b) draws, Q = (WA⁺)ᵀ(WA⁺)/|W|: b⁴(12 Σ Q_ii² + 8 tr Q²)."""
    eps, reps = 0.7, 4000
    s = H.hdmm_strategy(workload, p=4)
    x = np.random.default_rng(7).integers(0, 20, N).astype(float)
    est = H.hdmm(x, eps, np.random.default_rng(8), workload=workload, p=4, size=reps)
    mse = H.workload_mse(workload, x, est)
    expected = H.hdmm_expected_mse(workload, eps, p=4)
    b = s.sensitivity / eps
    wa = workload.matrix() @ np.linalg.pinv(_dense(s))
    q = wa.T @ wa / workload.m
    var = b**4 * (12 * np.sum(np.diag(q) ** 2) + 8 * np.trace(q @ q))
    assert 2 * b**2 * np.trace(q) == pytest.approx(expected, rel=1e-9)
    assert abs(mse.mean() - expected) < mc_tol(var, reps)


def test_release_is_deterministic_and_the_strategy_does_not_depend_on_the_cache(workload):
    x = np.arange(N, dtype=float)
    one = H.hdmm(x, 1.0, np.random.default_rng(1), workload=workload, size=3)
    two = H.hdmm(x, 1.0, np.random.default_rng(1), workload=workload, size=3)
    assert one.tobytes() == two.tobytes()
    first = H.hdmm_strategy(workload, p=4)
    hdmm_mod._strategy.cache_clear()
    again = H.hdmm_strategy(workload, p=4)
    assert first is not again
    assert first.a.tobytes() == again.a.tobytes() and first.b.tobytes() == again.b.tobytes()


def test_block_and_p_defaults():
    assert (
        H.hdmm_block(4096) == 16
        and H.hdmm_block(64) == 1
        and H.hdmm_block(1000) == 2
        and H.hdmm_block(1001) == 1
    )
    assert H.hdmm_p(4096) == 64 and H.hdmm_p(8) == 1


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (lambda w: H.hdmm(np.ones(N), 0.0, np.random.default_rng(0), workload=w), "epsilon"),
        (
            lambda w: H.hdmm(np.ones(N), 1.0, np.random.default_rng(0), workload="ranges"),
            "workload",
        ),
        (lambda w: H.hdmm(np.ones(N + 1), 1.0, np.random.default_rng(0), workload=w), "workload"),
        (lambda w: H.hdmm_strategy(w, p=0), "p"),
        (lambda w: H.hdmm_strategy(w, block=5), "block"),
        (lambda w: H.hdmm_objective(np.ones((2, 5)), w), "theta"),
    ],
)
def test_bad_input_is_a_one_line_value_error(workload, call, match):
    with pytest.raises(ValueError, match=match) as info:
        call(workload)
    assert "\n" not in str(info.value)


def test_privacy_claim_and_registration():
    claim = H.privacy_claim("hdmm", 1.0)
    assert claim.private and claim.neighbours == "add-remove" and claim.epsilon == 1.0
    assert "sensitivity" in str(claim.sensitivity) and claim.mechanism == "HDMM"
    assert "hdmm" in H.METHODS and "hdmm" in H.WORKLOAD_METHODS
