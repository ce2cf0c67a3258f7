"""LDP mini-batch SGD: coordinate estimates, the source's code behaviours (faithful), cross-validation."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from conftest import mc_tol

from dpcompendium.ldp.datasets import synthetic_regression, synthetic_values
from dpcompendium.ldp.levels import DEFAULT_EDGES, SGD_TEXT_MULTIPLIERS
from dpcompendium.ldp.numeric import duchi_constant
from dpcompendium.ldp.sgd import (
    _estimate,
    _folds,
    group_size,
    kfold_mse,
    ldp_sgd,
    least_squares_kfold_mse,
    sgd_experiment,
)


def test_group_size_rules():
    assert group_size(11, 1.0, "code") == 1000
    assert group_size(11, 0.05, "code") == int(np.ceil(11 * np.log(11) / 0.05**2))
    assert group_size(11, 2.5, "text") == int(np.ceil(2 * 11 * np.log(11) / 2.5**2))
    with pytest.raises(ValueError, match="group_rule"):
        group_size(11, 1.0, "book")


@pytest.mark.parametrize("method", ["harmony", "pm", "graded-laplace", "hiera"])
def test_corrected_coordinate_estimates_are_unbiased(method, rng):
    """Corrected averaging: ĝ_j estimates the mean of coordinate j (HierA: up to its [0, N] clipping)."""
    g, dt, eps = 200_000, 4, 1.0
    target = np.array([0.5, -0.3, 0.05, 0.8])
    j = rng.integers(0, dt, size=(1, g))
    gj = target[j]
    xj = np.where(j == 0, 1.0, 0.0)
    sched = eps * np.asarray(SGD_TEXT_MULTIPLIERS)[None]
    est = _estimate(
        method, gj, xj, j, dt, np.array([eps]), sched, np.asarray(DEFAULT_EDGES), 1, False, rng
    )[0]
    worst = (2 / (np.tanh(eps / 2))) ** 2 + 2 * (
        2 / eps
    ) ** 2  # ≥ every method's per-report variance here
    assert np.all(np.abs(est - target) < mc_tol(worst, g // dt - 5_000))


def test_faithful_shrinks_by_share_of_users(rng):
    """The source's code averages over the whole group (zeros for other coordinates): ĝ_j × n_j / G."""
    g, dt, eps = 5_000, 3, 1.0
    j = rng.integers(0, dt, size=(1, g))
    gj = np.full((1, g), 0.4)
    xj = np.zeros((1, g))
    sched = eps * np.asarray(SGD_TEXT_MULTIPLIERS)[None]
    args = (gj, xj, j, dt, np.array([eps]), sched, np.asarray(DEFAULT_EDGES), 2)
    a = _estimate("hiera", *args, False, np.random.default_rng(9))
    b = _estimate("hiera", *args, True, np.random.default_rng(9))
    n_j = np.bincount(j.ravel(), minlength=dt)
    assert np.allclose(b, a * n_j / g)
    h = _estimate("harmony", *args, True, np.random.default_rng(9))
    assert np.all(np.abs(h) <= duchi_constant(eps) * n_j / g + 1e-12)


def test_nonprivate_sgd_reaches_least_squares(rng):
    x, y = synthetic_regression(200_000, 5, np.random.default_rng(1))
    ols = least_squares_kfold_mse(x, y, rng)
    sgd = kfold_mse(x, y, "none", [1.0], rng)[0]
    assert ols < sgd < 1.1 * ols


def test_faithful_evaluation_misaligns_rows(rng):
    """Predicting on x[j] of the whole data but scoring against y_test[j] inflates the MSE to ≈ Var(y) + Var(ŷ)."""
    x, y = synthetic_regression(100_000, 3, np.random.default_rng(2), noise=0.02)
    good = kfold_mse(x, y, "none", [1.0], rng)[0]
    bad = kfold_mse(x, y, "none", [1.0], rng, faithful=True)[0]
    assert bad > 1.5 * y.var() > 10 * good
    folds = _folds(100, 5, True, rng)
    assert [te.tolist() for _, te in folds][1] == list(
        range(20, 40)
    )  # contiguous, as in the source


def test_ldp_sgd_runs_and_validates(rng):
    x, y = synthetic_regression(5_000, 3, np.random.default_rng(3))
    beta = ldp_sgd(x, y, "hiera", 1.0, rng)
    assert beta.shape == (4,) and np.all(np.isfinite(beta))
    with pytest.raises(ValueError, match="method"):
        ldp_sgd(x, y, "nope", 1.0, rng)
    with pytest.raises(ValueError, match="y must"):
        ldp_sgd(x, y[:10], "pm", 1.0, rng)
    with pytest.raises(ValueError, match="lie in"):
        ldp_sgd(2 * x, y, "pm", 1.0, rng)
    with pytest.raises(ValueError, match="epsilon"):
        ldp_sgd(x, y, "pm", 0.0, rng)


def test_sgd_experiment_table_reproducible():
    data = {"s": synthetic_regression(6_000, 2, np.random.default_rng(4))}
    a = sgd_experiment(data, [1.0, 2.0], ["harmony", "hiera"], seed=1, n_jobs=1)
    b = sgd_experiment(data, [1.0, 2.0], ["harmony", "hiera"], seed=1, n_jobs=2)
    pd.testing.assert_frame_equal(a, b)
    assert list(a.columns) == ["dataset", "method", "variant", "epsilon", "folds", "mse"]
    assert set(a["variant"]) == {"corrected", "code-training", "faithful", "non-private"}
    assert a.loc[a["method"] == "least-squares", "epsilon"].isna().all()


def test_synthetic_values():
    rng = np.random.default_rng(0)
    for kind in ("normal", "uniform", "exponential"):
        v = synthetic_values(kind, 1000, rng)
        assert v.min() >= -1 and v.max() <= 1
    with pytest.raises(ValueError, match="kind"):
        synthetic_values("beta", 10, rng)
