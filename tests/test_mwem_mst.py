"""MST on two attributes (chapters/mwem/mst.py): its budget, claim, compression, estimate and bad input."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from dpcompendium.chapters.mwem import mst as M
from dpcompendium.chapters.mwem.analysis import dpbench_row_claim
from dpcompendium.chapters.mwem.queries import random_range_queries
from dpcompendium.chapters.mwem.zcdp import dp_epsilon, rho_for


def _loss(x, y1, merged, sd1, y2, sd2):
    out = ((x - y2) ** 2).sum() / sd2**2
    for a, k in enumerate(merged):
        w = np.ones(x.shape[a])
        if k:
            w[-1] = 1.0 / math.sqrt(k)
        out += ((x.sum(axis=1 - a) * w - y1[a]) ** 2).sum() / sd1**2
    return out


@pytest.mark.parametrize("neighbours, l2", [("replace-one", math.sqrt(2.0)), ("add-remove", 1.0)])
def test_sigmas_spend_two_thirds_of_rho(neighbours, l2):
    rho = 0.037
    sd1, sd2 = M.mst_sigmas(rho, neighbours)
    # each one-way marginal has L2 sensitivity l2: l2^2 / (2 sd^2)-zCDP; two of them and the two-way one
    spent = 2 * l2**2 / (2 * sd1**2) + l2**2 / (2 * sd2**2)
    assert spent == pytest.approx(2 * rho / 3, rel=1e-12)
    assert M.mst(
        np.ones((3, 4)) * 5, rho, np.random.default_rng(0), neighbours=neighbours
    ).rho_spent == (pytest.approx(2 * rho / 3))


def test_claim_is_the_conversion_of_rho():
    c = M.mst_claim(1.0, 1e-7)
    rho = rho_for(1.0, 1e-7)
    assert c.epsilon == pytest.approx(dp_epsilon(rho, 1e-7))
    assert c.delta == 1e-7 and c.neighbours == "replace-one" and c.private
    assert f"{M.mst_sigmas(rho)[1]:.4g}" in " ".join(c.conditions)
    row = pd.Series(
        {"method": M.MST_NAME, "epsilon": 1.0, "output": "estimate", "data": "x", "T": np.nan}
    )
    assert dpbench_row_claim(row, {"x": 2}, {"zcdp": 1e-7}).mechanism == c.mechanism
    row["method"] = "Gaussian Identity"
    assert dpbench_row_claim(row, {"x": 2}, {"zcdp": 1e-7}).delta == 1e-7


def test_compression_keeps_totals_and_spreads_uniformly():
    h = np.arange(20.0).reshape(4, 5)
    kept = (np.array([True, False, True, False]), np.array([False, True, True, True, False]))
    hc = M._compress_hist(h, kept)
    assert hc.shape == (3, 4) and hc.sum() == h.sum()
    back = M._expand(hc, kept)
    assert back.shape == h.shape and back.sum() == pytest.approx(h.sum())
    # rows 0 and 2 kept, 1 and 3 merged: the merged rows hold equal halves of their sum
    np.testing.assert_allclose(back[1], back[3])
    pair = h[1] + h[3]
    np.testing.assert_allclose((back[1] + back[3])[1:4], pair[1:4])  # kept columns: exact
    # merged columns 0 and 4: their joint mass, in equal halves
    np.testing.assert_allclose((back[1] + back[3])[[0, 4]], (pair[0] + pair[4]) / 2)


def test_estimate_shape_total_and_sign():
    rng = np.random.default_rng(1)
    h = rng.poisson(3.0, (6, 7)).astype(float)
    h[0, :] = 0
    res = M.mst(h, 0.5, np.random.default_rng(2))
    assert res.estimate.shape == h.shape
    assert res.estimate.min() >= 0
    assert res.estimate.sum() == pytest.approx(h.sum(), abs=1e-3 * h.size)


def test_fit_is_at_least_as_low_as_mbi_mirror_descent():
    """The projected-gradient fit minimises Private-PGM's loss: mbi's mirror descent on the same measurements
    reaches no lower loss, and the two estimates agree to a small fraction of a count per cell."""
    from dpcompendium.chapters.mwem.pgm import configure_jax

    rng = np.random.default_rng(3)
    h = rng.poisson(20.0, (3, 4)).astype(float)
    sd1, sd2 = 4.0, 3.0
    y1 = [h.sum(axis=1) + rng.normal(0, sd1, 3), h.sum(axis=0) + rng.normal(0, sd1, 4)]
    y2 = h + rng.normal(0, sd2, h.shape)
    x = M.fit_two_way(y1, [0, 0], sd1, y2, sd2, float(h.sum()), iters=2000)
    mbi = configure_jax()
    dom = mbi.Domain(["a0", "a1"], h.shape)
    ms = [
        mbi.LinearMeasurement(y1[0], ("a0",), sd1),
        mbi.LinearMeasurement(y1[1], ("a1",), sd1),
        mbi.LinearMeasurement(y2.ravel(), ("a0", "a1"), sd2),
    ]
    model = mbi.estimation.MirrorDescent().estimate(dom, ms, known_total=float(h.sum()), iters=5000)
    xm = np.asarray(model.project(("a0", "a1")).datavector(flatten=True)).reshape(h.shape)
    lx, lm = _loss(x, y1, [0, 0], sd1, y2, sd2), _loss(xm, y1, [0, 0], sd1, y2, sd2)
    assert lx <= lm + 1e-6 * lm
    np.testing.assert_allclose(x, xm, atol=0.05 * sd2)


def test_estimate_is_unbiased_away_from_the_boundary():
    """Counts far above the noise: nothing is merged, no cell is clipped, the fit is linear in the noise and
    unbiased; every cell's mean over R runs lies within 4.5 standard errors (its sd at most sd2)."""
    h = np.array([[900.0, 1200.0, 800.0, 1000.0], [1100.0, 700.0, 950.0, 1050.0], [1000.0] * 4])
    rho, R = 2.0, 300
    sd2 = M.mst_sigmas(rho)[1]
    est = np.array([M.mst(h, rho, np.random.default_rng(s), iters=200).estimate for s in range(R)])
    assert np.all(np.abs(est.mean(axis=0) - h) <= 4.5 * sd2 / math.sqrt(R))
    # and the fit uses the one-way measurements too: its spread is below the two-way noise alone
    assert est.std(axis=0, ddof=1).mean() < sd2


def test_runs_rows_and_seeds():
    h = np.random.default_rng(4).poisson(5.0, (5, 5)).astype(float)
    Q = random_range_queries(h.shape, 20, np.random.default_rng(5))
    a = M.mst_runs(h, Q, [0.5, 2.0], 1e-6, reps=3, seed=9, iters=100)
    b = M.mst_runs(h, Q, [0.5, 2.0], 1e-6, reps=3, seed=9, iters=100)
    assert len(a) == 6 and set(a.method) == {M.MST_NAME}
    pd.testing.assert_frame_equal(a, b)


@pytest.mark.parametrize(
    "kwargs, word",
    [
        ({"hist": np.ones(5)}, "hist"),
        ({"hist": -np.ones((2, 2))}, "hist"),
        ({"rho": 0.0}, "rho"),
        ({"neighbours": "swap"}, "neighbours"),
        ({"iters": 0}, "iters"),
    ],
)
def test_bad_input(kwargs, word):
    args = {"hist": np.ones((2, 3)), "rho": 1.0, **kwargs}
    with pytest.raises(ValueError, match=word):
        M.mst(args.pop("hist"), args.pop("rho"), np.random.default_rng(0), **args)
    if word == "neighbours":
        with pytest.raises(ValueError, match="neighbours"):
            M.mst_claim(1.0, 1e-6, neighbours="swap")


def test_audit_rows_hold_on_both_branches_and_their_exact_loss_is_two_thirds_of_rho():
    from dpcompendium.chapters.mwem.audits import mst_audit_specs
    from dpcompendium.core.audit.spec import are_neighbours, run_audit
    from dpcompendium.core.mechanisms.gaussian import gaussian_epsilon

    rho = rho_for(1.0, 1e-7)
    specs = mst_audit_specs()
    assert [s.mechanism for s in specs] == [
        "MST measurements (2-D, AIM's budget)",
        "MST measurements, values merged (2-D, AIM's budget)",
    ]
    for i, spec in enumerate(specs):
        assert are_neighbours(*spec.datasets, "replace-one")
        # the statistic's shift / sd is the Gaussian ratio of 2rho/3-zCDP: sqrt(2 * 2rho/3)
        assert spec.true_epsilon == pytest.approx(
            gaussian_epsilon(1.0, math.sqrt(4 * rho / 3), 1e-7)
        )
        assert spec.true_epsilon < spec.claim.epsilon
        # with both noises halved the measurements would spend 8rho/3 > rho: the claim would not hold
        assert gaussian_epsilon(1.0, 2 * math.sqrt(4 * rho / 3), 1e-7) > spec.claim.epsilon
        res = run_audit(spec, n_samples=40_000, rng=np.random.default_rng(2 + i))
        assert res.verdict == "holds"


def test_the_merged_row_exercises_the_compression_and_its_statistic_is_the_exact_log_likelihood_ratio():
    """Referee 14, A1: the second MST row audits the branch where values are merged. On its pair values 2 and 3 of
    each attribute are merged in nearly every draw (both below 3 sd1 with probability about 0.997), and the
    statistic, the log-likelihood ratio given the compression drawn, has the moments of the Gaussian pair at
    2rho/3-zCDP on either dataset: mean +-r^2/2, sd r (r^2 = 4/sd1^2 + 2/sd2^2)."""
    from dpcompendium.chapters.mwem.audits import mst_audit_specs

    rho = rho_for(1.0, 1e-7)
    sd1, sd2 = M.mst_sigmas(rho)
    spec = mst_audit_specs()[1]
    h = np.bincount(spec.datasets[0], minlength=16).reshape(4, 4).astype(float)
    # the compression the mechanism applies to this histogram merges values 2 and 3 in nearly every run
    merged = [
        not M.mst(h, rho, np.random.default_rng(s), iters=1).kept[0][2:].any() for s in range(200)
    ]
    assert np.mean(merged) > 0.95
    r2 = 4 / sd1**2 + 2 / sd2**2
    m = 100_000
    for k, sign in ((0, 1.0), (1, -1.0)):
        x = spec.sample(spec.datasets[k], m, np.random.default_rng(7 + k))
        # tolerances from the variance: 5 standard errors of the mean and of the variance
        assert abs(x.mean() - sign * r2 / 2) < 5 * math.sqrt(r2 / m)
        assert abs(x.var() / r2 - 1) < 5 * math.sqrt(2 / m)


def test_the_merged_row_flags_noise_too_small(monkeypatch):
    """The compression branch's row has teeth: with both noises at a quarter (32rho/3 spent, true eps 2.85 against
    the claimed 1) it is violated (at halved noise, true eps 1.35, an (eps, delta) audit at delta = 1e-7 and these
    sample sizes has too little power: lower bounds about 0.63)."""
    from dpcompendium.chapters.mwem.audits import mst_audit_specs
    from dpcompendium.core.audit.spec import run_audit

    true = M.mst_sigmas
    monkeypatch.setattr(M, "mst_sigmas", lambda rho, *a: tuple(s / 4 for s in true(rho, *a)))
    spec = mst_audit_specs()[1]
    assert spec.true_epsilon > 2.5 * spec.claim.epsilon
    res = run_audit(spec, n_samples=100_000, rng=np.random.default_rng(3))
    assert res.verdict == "violated" and res.audited_epsilon <= spec.true_epsilon
