"""federated-pca (issue 36): CAPE, the coalition bounds, the noise-level and equivalence tests, clipping, δ per
dataset — against closed forms and Monte Carlo with tolerances from the variance."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pandas as pd
import pytest

from dpcompendium.chapters import federated_pca as P
from dpcompendium.chapters.federated_pca.cape import _mahalanobis_factor
from dpcompendium.core.mechanisms.gaussian import gaussian_epsilon

EPS, DELTA, N = 1.0, 1e-6, 10_000


@pytest.mark.parametrize("s", [2, 5, 50])
def test_coalition_bounds_closed_forms(s):
    tau = P.noise_scale(EPS, DELTA, N)
    sens = P.sensitivity(N)
    # no colluder: the central Gaussian mechanism's exact epsilon
    assert P.coalition_epsilon(EPS, DELTA, N, s, 0) == pytest.approx(
        gaussian_epsilon(tau, sens, DELTA)
    )
    # all other sites: the remaining site faces tau^2/s, i.e. sensitivity sqrt(s) x
    last = P.coalition_epsilon(EPS, DELTA, N, s, s - 1)
    assert last == pytest.approx(gaussian_epsilon(tau / math.sqrt(s), sens, DELTA))
    assert P.cape_epsilon(EPS, DELTA, N, s, s - 1) == pytest.approx(last, rel=1e-9)
    eps_c = [P.coalition_epsilon(EPS, DELTA, N, s, c) for c in range(s)]
    assert all(b >= a for a, b in itertools.pairwise(eps_c))


@pytest.mark.parametrize("s", [2, 4, 10])
def test_cape_mahalanobis_factor(s):
    # c = 0: 2s/(s+1); the calibrated variant's view is exactly the central Gaussian mechanism
    assert _mahalanobis_factor(s, 0) == pytest.approx(2 * s / (s + 1))
    assert _mahalanobis_factor(s, s - 1) == pytest.approx(s)
    tau = P.noise_scale(EPS, DELTA, N)
    central = gaussian_epsilon(tau, P.sensitivity(N), DELTA)
    assert P.cape_epsilon(EPS, DELTA, N, s, variant="calibrated") == pytest.approx(
        central, rel=1e-9
    )
    assert P.cape_epsilon(EPS, DELTA, N, s) > central
    # exactly calibrated per message, the server's joint view is above epsilon for every s >= 2 (the classical
    # formula's slack can hide it at small s)
    kw = {"calibration": "analytic"}
    assert not P.cape_privacy_claim(EPS, DELTA, N, s, **kw).private
    assert P.cape_privacy_claim(EPS, DELTA, N, s, variant="calibrated", **kw).private


def test_cape_noise_covariance_matches_the_closed_form():
    """The messages' noise on one entry has covariance tau^2 (I - 11'/s) + tau^2/s I; each entry of the sample
    covariance is within 5 of its standard errors (Wishart: var of an entry (S_ij^2 + S_ii S_jj)/m)."""
    s, d, m, tau = 4, 2, 40_000, 0.7
    msg = P.cape_messages(np.zeros((s, d, d)), tau, np.random.default_rng(3), size=(m,))
    x = msg[:, :, 0, 1]  # one off-diagonal entry per site
    cov = np.cov(x, rowvar=False)
    sigma = tau**2 * (np.eye(s) - 1 / s) + tau**2 / s * np.eye(s)
    se = np.sqrt((sigma**2 + np.outer(np.diag(sigma), np.diag(sigma))) / m)
    assert np.all(np.abs(cov - sigma) < 5 * se)
    # the sum carries exactly the g's: N(0, tau^2)
    total = x.sum(axis=1)
    assert abs(total.var() / tau**2 - 1) < 5 * math.sqrt(2 / m)


def test_noise_level_table_accepts_the_protocols():
    rng = np.random.default_rng(5)
    x = P.clip_rows(rng.standard_normal((400, 6)), 2.0)
    sd = P.SiteData.from_labels(x, P.split_sites(400, 4, rng), 4)
    t = P.noise_level_table(sd, 1.0, 1e-5, rng, runs=30)
    assert set(t.protocol) == {"shared-seed", "secure-aggregation", "cape-as-published"}
    assert (t.p_variance > 1e-4).all() and (t.p_mean > 1e-4).all()
    assert (t.sd_ratio_lo < 1).all() and (t.sd_ratio_hi > 1).all()
    assert (t.power_ratio < 1.15).all()  # 630 entries: a 10 % error in sd is found


def test_equivalence_test():
    rng = np.random.default_rng(7)
    cells = pd.MultiIndex.from_product([["a"], ["equal"], [0.5, 1.0], [2, 5]]).to_frame(index=False)
    cells.columns = ["dataset", "split", "epsilon", "sites"]
    base = rng.uniform(0.5, 0.9, len(cells))

    def table(shift):
        rows = []
        for method, q in (("central", base), ("x", base + shift)):
            rows.append(cells.assign(method=method, captured_energy=q, captured_energy_se=0.001))
        return pd.concat(rows)

    assert P.equivalence_test(table(0.0), "x")["equivalent"]
    assert not P.equivalence_test(table(2 * P.EQUIVALENCE_MARGIN), "x")["equivalent"]
    one_rep = table(0.0).assign(captured_energy_se=np.nan)
    assert not P.equivalence_test(one_rep, "x")["equivalent"]


def test_pooled_difference_and_same_law_check():
    cells = pd.MultiIndex.from_product([["a"], ["equal"], [0.5, 1.0], [2, 5]]).to_frame(index=False)
    cells.columns = ["dataset", "split", "epsilon", "sites"]
    base = np.linspace(0.5, 0.9, len(cells))

    def table(shift, se=0.002):
        return pd.concat(
            cells.assign(method=m, captured_energy=q, captured_energy_se=se)
            for m, q in (("central", base), ("x", base + shift))
        )

    out = P.pooled_difference(table(-0.01), "x")
    # se of the mean of 4 cells, each with two arms of se 0.002: sqrt(4 * 2 * 0.002^2) / 4
    assert out["difference"] == pytest.approx(-0.01)
    assert out["se"] == pytest.approx(np.sqrt(8 * 0.002**2) / 4)
    assert out["z"] == pytest.approx(out["difference"] / out["se"])
    assert not P.same_law_check(table(-0.01), "x")["consistent"]  # z = -14: flagged
    ok = P.same_law_check(table(0.001), "x")  # z = 1: consistent with zero
    assert ok["consistent"] and ok["lo"] < 0 < ok["hi"]
    nan = P.same_law_check(table(0.0, se=np.nan), "x")
    assert not nan["consistent"] and np.isnan(nan["z"])
    with pytest.raises(ValueError, match="same cells"):
        P.pooled_difference(table(0.0), "missing")


def test_clip_rows_and_dataset_deltas():
    x = np.array([[0.3, 0.4], [3.0, 4.0], [0.0, 0.0]])
    y = P.clip_rows(x, 1.0)
    assert np.allclose(y[0], x[0]) and np.allclose(y[1], [0.6, 0.8]) and np.all(y[2] == 0)
    assert np.allclose(P.clip_rows(x, 2.0)[0], x[0] / 2)
    with pytest.raises(ValueError, match="clip_norm"):
        P.clip_rows(x, 0.0)
    deltas = P.dataset_deltas(["wine", "adult"], 0.01)
    for name, dlt in deltas.items():
        assert dlt * P.load_dataset(name).n == pytest.approx(0.01)


def test_noisy_power_closed_forms():
    """sigma is the Gaussian calibration at sensitivity sqrt(2) sqrt(L)/n (each iteration's ||(A'-A)X||_F <= sqrt(2)/n,
    issue 46's finding 5; exact composition of L Gaussian mechanisms);
    with negligible noise the method converges to the top-k subspace of a matrix with a clear gap."""
    from dpcompendium.core.mechanisms.gaussian import calibrated_sigma

    for iters in (1, 4, 10):
        assert P.power_noise_scale(0.5, 1e-6, 1000, iters=iters) == pytest.approx(
            calibrated_sigma(math.sqrt(2 * iters) / 1000, 0.5, 1e-6)
        )
    rng = np.random.default_rng(11)
    w = np.linalg.qr(rng.standard_normal((8, 8)))[0]
    a = w @ np.diag([5.0, 4.0, 3.0, 0.5, 0.4, 0.3, 0.2, 0.1]) @ w.T / 5.0
    sd = P.SiteData(np.stack([a * 1e9]), np.array([10**9]))
    v = P.noisy_power_pca(sd, 3, 1e3, 0.5, rng, iters=60, reps=4, calibration="analytic")
    assert np.allclose(P.captured_energy(a, v), 1.0, atol=1e-9)
    claim = P.power_privacy_claim(1.0, 1e-6, 1000, calibration="analytic")
    assert claim.private and claim.neighbours == "replace-one"
    assert not P.power_privacy_claim(10.0, 1e-5, 1000, calibration="classical").private
