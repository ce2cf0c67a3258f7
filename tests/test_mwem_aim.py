"""AIM with mbi's estimation (chapters/mwem/pgm.py; issue 47): budget, estimate, reproducibility, claim, audit."""

from __future__ import annotations

import math
import subprocess
import sys

import numpy as np
import pytest

from dpcompendium.chapters import mwem
from dpcompendium.chapters.mwem import pgm
from dpcompendium.core import comparison
from dpcompendium.core.rng import make_rng

H2 = mwem.report_histogram(2)
H1 = mwem.report_histogram(1)


def test_import_dpcompendium_does_not_import_jax():
    code = (
        "import sys, dpcompendium, dpcompendium.chapters.mwem; "
        "sys.exit(int('jax' in sys.modules or 'mbi' in sys.modules))"
    )
    assert subprocess.run([sys.executable, "-c", code]).returncode == 0


@pytest.mark.parametrize("eps", [0.1, 1.0, 10.0])
@pytest.mark.parametrize("hist", [H1, H2], ids=["1d", "2d"])
def test_rounds_spend_exactly_rho(hist, eps):
    rho = mwem.rho_for(eps, 1e-7)
    res = pgm.aim(hist, rho, make_rng(5))
    l2 = math.sqrt(2.0)  # replace-one: a marginal's L2 sensitivity
    spent = sum(l2**2 / (2 * s**2) for s in res.sigmas) + sum(e**2 / 8 for e in res.epsilons)
    assert spent == pytest.approx(rho, rel=1e-9)
    assert res.rho_spent == rho
    assert res.cliques[: hist.ndim] == [(a,) for a in range(hist.ndim)]
    assert len(res.sigmas) == hist.ndim + res.rounds


def test_estimate_is_a_histogram_of_total_n_close_to_the_data_at_a_large_budget():
    res = pgm.aim(H2, 1e6, make_rng(1))
    assert res.estimate.shape == H2.shape and np.all(res.estimate >= 0)
    # total n, up to the rounding of each cell to the grid
    assert abs(res.estimate.sum() - H2.sum()) <= H2.size * pgm.GRID / 2
    # every measurement's sd is at most the first round's; the estimate is within a few of those of every cell
    assert np.abs(res.estimate - H2).max() < 6 * max(res.sigmas)


def test_same_seed_same_bits_and_converged_at_the_default_iterations():
    rho = mwem.rho_for(1.0, 1e-7)
    a = pgm.aim(H2, rho, make_rng(11))
    b = pgm.aim(H2, rho, make_rng(11))
    np.testing.assert_array_equal(a.estimate, b.estimate)
    c = pgm.aim(H2, rho, make_rng(11), iters=8000)
    assert c.cliques == a.cliques
    # the default 2000 iterations reach the estimate of 8000 to the grid in every cell
    np.testing.assert_allclose(a.estimate, c.estimate, atol=1.5 * pgm.GRID, rtol=0)


def test_pooled_measurements_give_the_estimate_of_separate_ones():
    """The module pools repeated measurements of a marginal into their inverse-variance average: the same
    least-squares loss up to a constant, so mbi's estimate must not change."""
    mbi = pgm.configure_jax()
    dom = mbi.Domain(["a0", "a1"], H2.shape)
    rng = make_rng(3)
    y1 = H2.ravel() + rng.normal(0, 300.0, H2.size)
    y2 = H2.ravel() + rng.normal(0, 150.0, H2.size)
    w = 1 / 300.0**2 + 1 / 150.0**2
    pooled = (y1 / 300.0**2 + y2 / 150.0**2) / w
    md = mbi.estimation.MirrorDescent()
    n = float(H2.sum())
    sep = md.estimate(
        dom,
        [
            mbi.LinearMeasurement(y1, ("a0", "a1"), 300.0),
            mbi.LinearMeasurement(y2, ("a0", "a1"), 150.0),
        ],
        known_total=n,
        iters=2000,
    )
    one = md.estimate(
        dom, [mbi.LinearMeasurement(pooled, ("a0", "a1"), w**-0.5)], known_total=n, iters=2000
    )
    a = np.asarray(sep.project(("a0", "a1")).datavector())
    b = np.asarray(one.project(("a0", "a1")).datavector())
    np.testing.assert_allclose(a, b, atol=1e-3)


def test_initial_measurement_noise_has_the_claimed_sd():
    rho, T, n = 0.05, 16, 20_000
    (y,), sd = pgm.initial_measurements(H1, rho, make_rng(2), size=n)
    assert sd == pytest.approx(math.sqrt(2.0) * math.sqrt(T / (2 * 0.9 * rho)))
    s = (y - H1).std(ddof=1)
    # the sample sd of n·14 normal draws: relative standard error 1/sqrt(2(N - 1))
    assert abs(s / sd - 1) < 5 / math.sqrt(2 * (y.size - 1))
    _, sd_ar = pgm.initial_measurements(H1, rho, make_rng(2), neighbours="add-remove")
    assert sd_ar == pytest.approx(sd / math.sqrt(2.0))


def test_claim_shares_the_zcdp_mwem_guarantee():
    for d in (1, 2):
        a = pgm.aim_claim(1.0, 1e-7, d)
        z = mwem.privacy_claim(1.0, 30, "zcdp", d, delta=1e-7)
        assert (a.neighbours, a.delta) == (z.neighbours, z.delta) and a.private
        assert a.epsilon == pytest.approx(1.0, rel=1e-12)
        comparison.Comparison(
            "mean error",
            comparison.Arm.of("aim", a, [1.0, 2.0]),
            comparison.Arm.of("zcdp", z, [1.5, 2.5]),
        )  # refuses different guarantees


@pytest.mark.parametrize(
    ("kwargs", "word"),
    [
        ({"hist": np.ones((2, 2, 2))}, "hist"),
        ({"neighbours": "swap"}, "neighbours"),
        ({"alpha": 1.0}, "alpha"),
        ({"rho": -1.0}, "rho"),
        ({"workload": [(0, 2)]}, "workload"),
        ({"weights": [1.0, 2.0]}, "weights"),
    ],
)
def test_bad_input_is_one_line_value_error(kwargs, word):
    args = {"hist": H2, "rho": 0.1, **kwargs}
    with pytest.raises(ValueError, match=word):
        pgm.aim(args.pop("hist"), args.pop("rho"), make_rng(0), **args)


def test_runs_table_and_its_streams():
    Q = mwem.random_range_queries(H2.shape, 50, make_rng(0))
    a = pgm.aim_runs(H2, Q, [1.0, 10.0], 1e-7, reps=3, seed=4)
    b = pgm.aim_runs(H2, Q, [1.0, 10.0], 1e-7, reps=3, seed=4)
    assert a.equals(b) and len(a) == 6 and set(a.method) == {pgm.AIM_NAME}
    assert (a.mean_error > 0).all()
    # more budget, less error (on average over the repetitions: far apart at ε = 1 and 10)
    m = a.groupby("epsilon").mean_error.mean()
    assert m[10.0] < m[1.0]


def test_audit_spec_holds_cheaply():
    from dpcompendium.chapters.mwem.audits import aim_audit_specs
    from dpcompendium.core.audit.spec import run_audit

    meas, sel = aim_audit_specs()
    assert meas.true_epsilon <= meas.claim.epsilon
    res = run_audit(meas, n_samples=40_000, rng=np.random.default_rng(0))
    assert res.verdict == "holds"
    # the selection's row is exact: the EM over the 2-D candidates at eps_1 (referee 12, #10), at the chapter's
    # delta 1e-7 and T = 32
    assert sel.audit == "exact" and sel.claim.delta == 0.0
    assert sel.claim.epsilon == pytest.approx(math.sqrt(8 * 0.1 * mwem.rho_for(1.0, 1e-7) / 32))
    res = run_audit(sel, rng=np.random.default_rng(0))
    assert res.verdict == "holds" and 0 < res.audited_epsilon <= sel.claim.epsilon


def test_selection_law_moves_by_at_most_eps1_and_is_what_aim_draws():
    """The first selection's exact law (the scores aim() computes): every neighbouring pair of a small 2-D histogram
    moves each probability by at most e^{eps_1}; a law with the score sensitivity halved would exceed it."""
    rho = mwem.rho_for(1.0, 1e-7)
    h = np.arange(1.0, 17.0).reshape(4, 4)
    est = np.full(h.shape, h.sum() / h.size)
    cands, p, eps1, sens = pgm.first_selection_probabilities(h, est, rho)
    assert cands == [(0,), (1,), (0, 1)] and sens == 4.0 and p.sum() == pytest.approx(1.0)
    worst = 0.0
    for j in range(16):
        for k in range(16):
            if j != k and h.flat[j] > 0:
                h2 = h.copy()
                h2.flat[j] -= 1
                h2.flat[k] += 1
                _, p2, _, _ = pgm.first_selection_probabilities(h2, est, rho)
                worst = max(worst, np.abs(np.log(p2 / p)).max())
    assert 0 < worst <= eps1 * (1 + 1e-9)
    scores = pgm.selection_scores(
        h,
        lambda r: pgm._marginal(est, r),
        cands,
        {c: 1.0 + (len(c) == 2) for c in cands},
        pgm._bias(cands, h.shape, math.sqrt(2) * math.sqrt(32 / (2 * 0.9 * rho))),
    )
    from dpcompendium.core.mechanisms.exponential import exponential_probabilities

    np.testing.assert_allclose(exponential_probabilities(scores, sens, eps1), p, rtol=1e-12)


def test_gaussian_baselines_audit_rows_hold():
    from dpcompendium.chapters.mwem.audits import gaussian_audit_specs
    from dpcompendium.core.audit.spec import run_audit

    for spec in gaussian_audit_specs():
        assert spec.claim.delta == 1e-7 and spec.claim.neighbours == "replace-one"
        res = run_audit(spec, n_samples=40_000, rng=np.random.default_rng(1))
        assert res.verdict == "holds"


def test_gaussian_identity_noise_sd_and_the_shared_guarantee():
    from dpcompendium.chapters.mwem import gaussian

    rho = mwem.rho_for(1.0, 1e-7)
    x = gaussian.gaussian_identity(H1, rho, make_rng(4), size=5000)
    sd = math.sqrt(2.0) / math.sqrt(2 * rho)  # replace-one: L2 sensitivity sqrt(2)
    s = (x - H1).std(ddof=1)
    assert abs(s / sd - 1) < 5 / math.sqrt(2 * (x.size - 1))
    Q = mwem.random_range_queries(H2.shape, 40, make_rng(0))
    # least squares: the workload's L2 sensitivity sqrt(2 max_j c_j), checked against the query matrix
    cover = Q.matrix().sum(axis=0).max()
    assert gaussian.gaussian_sensitivity(Q) == pytest.approx(math.sqrt(2 * cover))
    a = pgm.aim_claim(1.0, 1e-7, 2)
    for m in gaussian.GAUSSIAN_METHODS:
        c = gaussian.gaussian_claim(1.0, 1e-7, m, queries=Q)
        comparison.Comparison(
            "mean error",
            comparison.Arm.of("aim", a, [1.0, 2.0]),
            comparison.Arm.of(m, c, [1.5, 2.5]),
        )  # one guarantee: accepted
    with pytest.raises(ValueError, match="method"):
        gaussian.gaussian_claim(1.0, 1e-7, "laplace")
    with pytest.raises(ValueError, match="rho"):
        gaussian.gaussian_identity(H1, -1.0, make_rng(0))
    with pytest.raises(ValueError, match="queries"):
        gaussian.gaussian_least_squares(H1, 0.1, make_rng(0), queries=Q)


def test_gaussian_runs_streams_and_one_repetition():
    from dpcompendium.chapters.mwem import gaussian

    Q = mwem.random_range_queries(H2.shape, 50, make_rng(0))
    a = gaussian.gaussian_runs(H2, Q, [0.1, 10.0], 1e-7, reps=1, seed=2)
    b = gaussian.gaussian_runs(H2, Q, [0.1, 10.0], 1e-7, reps=1, seed=2)
    assert a.equals(b) and len(a) == 4 and set(a.method) == set(gaussian.DEFAULT_METHODS)
    # the mean error of Gaussian Identity scales as 1/sqrt(rho): far apart at eps = 0.1 and 10
    m = (
        gaussian.gaussian_runs(H2, Q, [0.1, 10.0], 1e-7, reps=50, seed=3)
        .groupby(["method", "epsilon"])
        .mean_error.mean()
    )
    ratio = math.sqrt(mwem.rho_for(10.0, 1e-7) / mwem.rho_for(0.1, 1e-7))
    r = m["gaussian-identity", 0.1] / m["gaussian-identity", 10.0]
    assert 0.8 * ratio < r < 1.25 * ratio


def test_aim_family_tests_every_cell_with_two_runs_and_holm_corrects():
    from dpcompendium.chapters.mwem import gaussian

    rng = make_rng(6)
    runs = __import__("pandas").DataFrame(
        {
            "dim": ["1-D"] * 6 + ["2-D"] * 6,
            "epsilon": [1.0] * 12,
            "mean_error": np.r_[rng.normal(10, 1, 6), rng.normal(10, 1, 6)],
        }
    )
    far = {"1-D": rng.normal(30, 1, 6), "2-D": rng.normal(10, 1, 6)}
    out = pgm.aim_family(
        runs,
        "gaussian-identity",
        lambda d, e: gaussian.gaussian_claim(e, 1e-7),
        lambda d, e: far[d],
        1e-7,
        make_rng(1),
        quantity="mean error",
        column="setting",
    )
    res, _, _ = out
    assert len(res) == 2 and res[0].outcome == "better" and res[1].outcome == "tie"
    assert res[0].p_adjusted >= res[0].p_value  # Holm
    none = pgm.aim_family(
        runs.iloc[:1],
        "gaussian-identity",
        lambda d, e: gaussian.gaussian_claim(e, 1e-7),
        lambda d, e: far[d],
        1e-7,
        make_rng(1),
        quantity="mean error",
        column="setting",
    )
    assert none is None  # one run: nothing is tested, and nothing crashes (aim_reps = 1)
