"""The Monte-Carlo simulators draw the estimators' exact laws: means and variances match the closed forms of the
user-side mechanisms (which test_ldp_mechanisms / test_hiera check against the mechanisms themselves)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from conftest import mc_tol

from dpcompendium.chapters.hiera import (
    calibrate_base_epsilon,
    duchi_variance,
    graded_laplace_variance,
    graded_schedule,
    hiera_variance,
    hybrid_variance,
    idue_variance,
    pm_variance,
    schedule,
)
from dpcompendium.chapters.hiera.simulate import (
    methods_experiment,
    mu_experiment,
    simulate_estimates,
)

REPS = 20_000


def _closed_form(method, v, eps, mu, variant="as-written"):
    n = v.size
    if method == "harmony":
        return duchi_variance(v, eps).sum() / n**2
    if method == "pm":
        return pm_variance(v, eps).sum() / n**2
    if method == "graded-laplace":
        return graded_laplace_variance(v, schedule(eps), variant=variant).sum() / n**2
    if method == "hybrid":
        return hybrid_variance(v, eps).sum() / n**2
    if method == "idldp":
        return idue_variance(v, schedule(eps))
    if method == "hiera-graded":
        return hiera_variance(v, graded_schedule(eps), mu)
    if method == "hiera":
        return hiera_variance(v, schedule(eps), mu)
    return hiera_variance(v, schedule(calibrate_base_epsilon(eps)), mu)


@pytest.mark.parametrize("values", ["continuous", "repeated"])
@pytest.mark.parametrize(
    ("method", "mu"),
    [
        ("harmony", 1),
        ("pm", 1),
        ("graded-laplace", 1),
        ("hiera", 1),
        ("hiera", 3),
        ("hiera-calibrated", 2),
        ("hybrid", 1),
        ("idldp", 1),
        ("hiera-graded", 2),
    ],
)
def test_simulated_law(values, method, mu, rng):
    base = np.random.default_rng(7)
    v = (
        base.uniform(-1, 1, 400)
        if values == "continuous"
        else np.round(base.uniform(-1, 1, 4000), 1)
    )
    eps = 0.8
    est = simulate_estimates(v, method, eps, REPS, rng, mu=mu, clip=False)
    var = _closed_form(method, v, eps, mu)
    assert abs(est.mean() - v.mean()) < mc_tol(var, REPS)
    m4 = np.mean((est - v.mean()) ** 4)
    assert abs(est.var() - var) < mc_tol(max(m4 - var**2, 0), REPS) + mc_tol(var, REPS) ** 2


def test_simulated_private_laplace(rng):
    v = np.random.default_rng(2).uniform(-1, 1, 300)
    est = simulate_estimates(v, "graded-laplace", 1.0, REPS, rng, laplace_variant="private")
    var = _closed_form("graded-laplace", v, 1.0, 1, "private")
    assert abs(est.mean() - v.mean()) < mc_tol(var, REPS)
    m4 = np.mean((est - v.mean()) ** 4)
    assert abs(est.var() - var) < mc_tol(max(m4 - var**2, 0), REPS) + mc_tol(var, REPS) ** 2


def test_experiments_are_reproducible_whatever_n_jobs():
    data = {"u": np.random.default_rng(0).uniform(-1, 1, 500)}
    a = methods_experiment(data, [0.5, 1.0], ["harmony", "hiera"], 5, seed=3, n_jobs=1)
    b = methods_experiment(data, [0.5, 1.0], ["harmony", "hiera"], 5, seed=3, n_jobs=2)
    pd.testing.assert_frame_equal(a, b)
    assert list(a.columns[:5]) == ["dataset", "method", "epsilon", "reps", "mae"]
    c = mu_experiment(data, [1.0], [1, 2], 5, seed=3)
    assert list(c.columns[:5]) == ["dataset", "mu", "epsilon", "reps", "mae"]
    assert (c["reps"] == 5).all()


def test_unknown_method(rng):
    with pytest.raises(ValueError, match="method"):
        simulate_estimates([0.1, 0.2], "nope", 1.0, 2, rng)
