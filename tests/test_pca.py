"""Tests of dpcompendium.chapters.federated_pca: noise, subspaces, the masked mean, the protocols, the seed attack and the sweeps."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from conftest import Z, mc_tol
from scipy import stats

from dpcompendium.chapters import federated_pca as P
from dpcompendium.chapters.federated_pca.experiments import energy_runs, energy_table

C = math.sqrt(2 * math.log(1.25 / 1e-5))


def _sites(rng, n=600, d=8, s=4, sizes="equal"):
    x, _ = P.make_low_rank(n, d, 3, rng)
    x = P.prepare(x)
    labels = P.split_sites(n, s, rng, sizes=sizes)
    return x, labels, P.SiteData.from_labels(x, labels, s)


def _projector(v):
    return v @ np.swapaxes(v, -1, -2)


# ---- calibration and noise -------------------------------------------------------------------------------------


def test_noise_scale_formula():
    # default: replace-one (n public), Delta = sqrt(2)/n
    assert P.noise_scale(0.5, 1e-5, 1000, neighbours="add-remove") == pytest.approx(
        C / (1000 * 0.5), rel=1e-14
    )
    ratio = P.noise_scale(0.5, 1e-5, 1000) / P.noise_scale(0.5, 1e-5, 1000, neighbours="add-remove")
    assert ratio == pytest.approx(math.sqrt(2), rel=1e-14)


@pytest.mark.parametrize("eps", [0.1, 1.0, 5.0])
def test_analytic_sigma_solves_privacy_profile(eps):
    sens, delta = 0.01, 1e-5
    sigma = P.analytic_gaussian_sigma(sens, eps, delta)
    a, b = sens / (2 * sigma), eps * sigma / sens
    achieved = stats.norm.cdf(a - b) - math.exp(eps) * stats.norm.cdf(-a - b)
    assert achieved == pytest.approx(delta, rel=1e-6)
    # Balle & Wang: the analytic calibration needs less noise than the classical one where the latter is proved.
    if eps < 1:
        assert sigma < P.noise_scale(eps, delta, 100)


@pytest.mark.parametrize("delta", [1e-5, 1.2e-6, 3.1e-7])
def test_auto_calibration_decides_as_the_claim(delta):
    # calibrated_sigma's "auto" asks _classical_holds, not a built claim: the same verdict as gaussian_claim's, on
    # both sides of the crossover, and the same sigma (classical where it holds, analytic elsewhere), bit for bit
    from dpcompendium.core.mechanisms.gaussian import (
        _classical_holds,
        calibrated_sigma,
        classical_crossover,
        gaussian_claim,
    )

    cross = classical_crossover(delta)
    for sens in (1e-3, math.sqrt(2) / 178):
        for eps in (0.1, 0.999, 1.0, 5.0, cross * 0.999, cross * 1.001, 10.0, 30.0):
            holds = gaussian_claim(sens, eps, delta).private
            assert _classical_holds(sens, eps, delta) is holds
            expected = calibrated_sigma(sens, eps, delta, "classical" if holds else "analytic")
            assert calibrated_sigma(sens, eps, delta, "auto") == expected
    with pytest.raises(ValueError, match="sensitivity"):
        calibrated_sigma(-1.0, 0.5, delta, "auto")


def test_symmetric_gaussian_law(rng):
    d, sigma, m = 5, 0.7, 20_000
    e = P.symmetric_gaussian(d, sigma, rng, size=(m,))
    assert np.array_equal(e, np.swapaxes(e, -1, -2))
    for i, j in [(0, 0), (1, 3)]:
        x = e[:, i, j]
        assert abs(x.mean()) < mc_tol(sigma**2, m)
        assert abs(x.var() - sigma**2) < Z * math.sqrt(2 * sigma**4 / m)
    # entries of the upper triangle are independent
    assert abs(np.corrcoef(e[:, 0, 1], e[:, 0, 2])[0, 1]) < Z / math.sqrt(m)


def test_sigma_array_broadcast(rng):
    e = P.symmetric_gaussian(3, np.array([0.0, 1.0]), rng, size=(2,))
    assert np.all(e[0] == 0) and np.any(e[1] != 0)


# ---- subspaces and metrics -------------------------------------------------------------------------------------


def test_pca_matches_svd(rng):
    x, _, sd = _sites(rng)
    v = P.pca(x, 3)
    _, _, vt = np.linalg.svd(x, full_matrices=False)
    assert np.allclose(_projector(v), _projector(vt[:3].T), atol=1e-10)
    assert np.allclose(_projector(P.pca(sd, 3)), _projector(v), atol=1e-10)


def test_captured_energy_bounds(rng):
    _, _, sd = _sites(rng)
    a = sd.second_moment
    assert P.captured_energy(a, P.pca(sd, 3)) == pytest.approx(1.0, abs=1e-12)
    q, _ = np.linalg.qr(rng.standard_normal((8, 3)))
    assert 0 < P.captured_energy(a, q) < 1
    rot, _ = np.linalg.qr(rng.standard_normal((3, 3)))
    assert P.captured_energy(a, q @ rot) == pytest.approx(P.captured_energy(a, q), rel=1e-12)


def test_prepare_rows_in_unit_ball(rng):
    x, _ = P.make_low_rank(300, 6, 2, rng)
    z = P.prepare(x * 1000 + 5)
    assert np.allclose(np.linalg.norm(z, axis=1), 1.0)


def test_central_rejects_rows_outside_unit_ball(rng):
    with pytest.raises(ValueError, match="x must have rows"):
        P.central_dp_pca(np.ones((5, 3)), 1, 1.0, 1e-5, rng)


# ---- splits --------------------------------------------------------------------------------------------------


def test_split_sizes(rng):
    eq = np.bincount(P.split_sites(1003, 10, rng))
    assert eq.max() - eq.min() <= 1 and eq.sum() == 1003
    uneq = np.bincount(P.split_sites(1000, 20, rng, sizes="unequal", min_size=3), minlength=20)
    assert uneq.min() >= 3 and uneq.sum() == 1000 and uneq.max() > 2 * uneq.min()
    with pytest.raises(ValueError, match="n must be >= s \\* min_size"):
        P.split_sites(10, 6, rng)
    with pytest.raises(ValueError, match="sizes must be"):
        P.split_sites(10, 2, rng, sizes="skewed")


def test_sitedata_from_rows_equals_from_labels(rng):
    x, labels, sd = _sites(rng)
    sd2 = P.SiteData.from_rows([x[labels == i] for i in range(4)])
    assert np.allclose(sd.scatters, sd2.scatters) and np.array_equal(sd.sizes, sd2.sizes)
    assert np.allclose(sd.second_moment, x.T @ x / x.shape[0])


# ---- masked mean -----------------------------------------------------------------------------------------------


@pytest.mark.numerics
@pytest.mark.parametrize("s", [3, 7])
def test_masked_sum_count_masks_cancel_exactly(rng, s):
    sums = rng.normal(0, 100, size=(s, 4))
    counts = rng.integers(1, 1000, size=s)
    t = P.masked_sum_count(sums, counts, rng)
    enc = P.encode(sums)
    # bit-exact: the decoded total is the decoded sum of the unmasked encodings, the count is exact
    assert np.array_equal(t.total_sum, P.decode(enc.sum(axis=0, dtype=np.uint64)))
    assert t.total_count == int(counts.sum())
    assert np.array_equal(t.sum_masks.sum(axis=0, dtype=np.uint64), np.zeros(4, dtype=np.uint64))
    assert int(t.count_masks.sum(dtype=np.uint64)) == 0
    assert (
        np.all(t.sum_masks[0] == 0) and t.count_masks[0] == 0
    )  # site 1 sends in clear (it is the aggregator)
    assert np.all(t.sum_messages[1:] != enc[1:])  # the other sites are masked
    assert np.allclose(
        t.mean, sums.sum(axis=0) / counts.sum(), rtol=0, atol=s * 2.0**-P.protocols.FRAC_BITS
    )


def test_masked_sum_count_two_sites_mask_is_zero(rng):
    """The source's masks a_2..a_s sum to 0, so with s = 2 the only mask is 0: site 2 is sent in clear."""
    t = P.masked_sum_count(np.array([[1.0], [2.0]]), np.array([3, 4]), rng)
    assert np.all(t.sum_masks == 0) and np.all(t.count_masks == 0)


def test_encode_range_error():
    with pytest.raises(ValueError, match="x must satisfy"):
        P.encode(np.array([2.0**30]))


@pytest.mark.numerics
def test_encode_is_the_rounded_fixed_point_bit_for_bit(rng):
    """``encode`` is ``int64(rint(x·2^f))`` as uint64 (ties to even; a stack of matrices as the sweeps encode), and
    rejects what the checked formula rejects: a non-finite value (as non-finite), |x|·2^f ≥ 2^62 (as out of range,
    also where x·2^f overflows to inf), and non-numeric input."""
    f = P.protocols.FRAC_BITS
    ties = np.array([0.5, 1.5, 2.5, -0.5, -2.5, 3.0]) * 2.0**-f
    for x in (ties, rng.normal(0, 1e3, size=(3, 4, 5, 5)), np.zeros(0)):
        ref = np.rint(x * 2.0**f).astype(np.int64).view(np.uint64)
        assert np.array_equal(P.encode(x), ref)
    assert P.encode(ties).view(np.int64).tolist() == [0, 2, 2, 0, -2, 3]
    for bad in (np.array([1.0, np.nan]), np.array([0.0, np.inf]), np.array([-np.inf])):
        with pytest.raises(ValueError, match="x must be finite"):
            P.encode(bad)
    for big in (np.array([0.0, -(2.0 ** (62 - f))]), np.array([1e300])):
        with pytest.raises(ValueError, match="x must satisfy"), warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # 1e300 · 2^f overflows
            P.encode(big)
    assert P.encode(np.array([2.0 ** (62 - f) * (1 - 2.0**-52)])).size == 1  # just inside the range
    with pytest.raises(ValueError, match="numeric"):
        P.encode([1.0, "a"])


# ---- protocols and the attack ---------------------------------------------------------------------------------


def test_shared_seed_sum_is_central_release(rng):
    _, _, sd = _sites(rng)
    t = P.shared_seed_protocol(sd.scatters, sd.n, P.noise_scale(1.0, 1e-5, sd.n), seed=42)
    e = P.symmetric_gaussian(sd.d, t.tau, np.random.default_rng(42))
    assert np.allclose(t.aggregate, sd.second_moment + e, rtol=0, atol=1e-14)
    assert t.tau == pytest.approx(math.sqrt(2) * C / sd.n)


def test_seed_attack_recovers_local_matrices(rng):
    _, _, sd = _sites(rng)
    t = P.shared_seed_protocol(sd.scatters, sd.n, P.noise_scale(0.1, 1e-5, sd.n), seed=7)
    truth = sd.scatters / sd.n
    for i in range(sd.s):
        rel = np.linalg.norm(P.seed_attack(t, i) - truth[i]) / np.linalg.norm(truth[i])
        assert rel < 1e-13
    # while the message alone is noisy
    assert np.linalg.norm(t.messages[0] - truth[0]) / np.linalg.norm(truth[0]) > 1e-3


def test_pairwise_masks_cancel(rng):
    m = P.pairwise_masks(6, (3, 3), rng)
    assert np.array_equal(m.sum(axis=0, dtype=np.uint64), np.zeros((3, 3), dtype=np.uint64))
    assert np.all(m != 0)


@pytest.mark.parametrize("tau", [0.0, -1.0, float("nan")])
def test_protocols_refuse_a_bad_noise_scale(rng, tau):
    _, _, sd = _sites(rng)
    with pytest.raises(ValueError, match="tau must be finite and > 0"):
        P.shared_seed_protocol(sd.scatters, sd.n, tau, seed=1)
    with pytest.raises(ValueError, match="tau must be finite and > 0"):
        P.secure_aggregation_protocol(sd.scatters, sd.n, tau, rng)


def test_secure_aggregation_masks_do_not_change_aggregate():
    _, _, sd = _sites(np.random.default_rng(1))
    tau = P.noise_scale(1.0, 1e-5, sd.n)
    with_masks = P.secure_aggregation_protocol(
        sd.scatters, sd.n, tau, np.random.default_rng(3), masks=True
    )
    without = P.secure_aggregation_protocol(
        sd.scatters, sd.n, tau, np.random.default_rng(3), masks=False
    )
    assert np.array_equal(with_masks.aggregate, without.aggregate)
    assert not np.array_equal(with_masks.messages, without.messages)


def test_secure_aggregation_defeats_attackers(rng):
    _, _, sd = _sites(rng, d=20)
    t = P.secure_aggregation_protocol(
        sd.scatters, sd.n, P.noise_scale(1.0, 1e-5, sd.n), rng, masks=True
    )
    truth = sd.scatters / sd.n
    server = np.linalg.norm(P.unmask_attack(t, 0) - truth[0]) / np.linalg.norm(truth[0])
    assert server > 1e3  # a masked message decodes to garbage
    # colluding with every other site removes the masks, leaving E_i ~ N(0, τ²/s): E‖E_i‖² = d² τ² / s
    err2 = np.array(
        [
            np.sum((P.unmask_attack(t, i, colluders_know_masks=True) - truth[i]) ** 2)
            for i in range(sd.s)
        ]
    )
    expected = sd.d**2 * t.tau**2 / sd.s
    m = (
        sd.d * (sd.d + 1) // 2
    )  # independent entries; Var ‖E‖² ≤ 2 · 4 · m σ⁴ (off-diagonals count twice)
    tol = Z * math.sqrt(8 * m) * (t.tau**2 / sd.s) / math.sqrt(sd.s)
    assert abs(err2.mean() - expected) < tol


@pytest.mark.parametrize("variant", ["central", "shared-seed", "secure-aggregation"])
def test_total_noise_is_central(variant):
    """The server's aggregate minus A has per-entry variance τ² for all three (zero data: only the noise remains)."""
    rng = np.random.default_rng(11)
    s, d, n, reps = 5, 3, 1000, 4000
    scat = np.zeros((s, d, d))
    tau = P.noise_scale(0.5, 1e-5, n)
    if variant == "central":
        noise = P.symmetric_gaussian(d, tau, rng, size=(reps,))
    elif variant == "shared-seed":
        noise = np.stack([P.shared_seed_protocol(scat, n, tau, i).aggregate for i in range(reps)])
    else:
        noise = np.stack(
            [
                P.secure_aggregation_protocol(scat, n, tau, rng, masks=False).aggregate
                for _ in range(reps)
            ]
        )
    for i, j in [(0, 0), (0, 2)]:
        x = noise[:, i, j]
        # variance-based tolerance (plus the 2^-40 fixed-point rounding, negligible)
        assert abs(x.var() - tau**2) < Z * math.sqrt(2 * tau**4 / reps)


# ---- estimators -----------------------------------------------------------------------------------------------


def test_estimators_shapes_and_orthonormality(rng):
    _, _, sd = _sites(rng)
    for v in [
        P.central_dp_pca(sd, 2, 1.0, 1e-5, rng, reps=3),
        P.federated_pca(sd, 2, 1.0, 1e-5, rng, variant="shared-seed", reps=3),
        P.federated_pca(sd, 2, 1.0, 1e-5, rng, variant="secure-aggregation", reps=3),
        P.dpdis_pca(sd, 2, 1.0, 1e-5, rng, reps=3),
    ]:
        assert v.shape == (3, 8, 2)
        assert np.allclose(np.swapaxes(v, -1, -2) @ v, np.eye(2), atol=1e-10)
    assert P.federated_pca(
        sd, 2, 1.0, 1e-5, rng, variant="secure-aggregation", masks=True
    ).shape == (8, 2)


def test_estimators_converge_to_pca_without_noise(rng):
    _, _, sd = _sites(rng)
    ref = _projector(P.pca(sd, 2))
    for variant in ["shared-seed", "secure-aggregation"]:
        v = P.federated_pca(sd, 2, 1e9, 1e-5, rng, variant=variant)
        assert np.allclose(_projector(v), ref, atol=1e-6)
    assert np.allclose(_projector(P.central_dp_pca(sd, 2, 1e9, 1e-5, rng)), ref, atol=1e-6)
    # DPdisPCA with r = d and no noise: the top-k of the average of the local second moments A_i = X_iᵀX_i/N_i
    avg = (sd.scatters / sd.sizes[:, None, None]).mean(axis=0)
    v = P.dpdis_pca(sd, 2, 1e9, 1e-5, rng, r=sd.d)
    assert np.allclose(_projector(v), _projector(P.top_k_subspace(avg, 2)), atol=1e-6)


def test_dpdis_noise_is_per_site(rng):
    """DPdisPCA is worse than central at equal ε once sites are small: its noise scales with 1/N_i, not 1/n."""
    _, _, sd = _sites(rng, n=2000, d=10, s=20)
    a = sd.second_moment
    qc = P.captured_energy(a, P.central_dp_pca(sd, 3, 0.5, 1e-5, rng, reps=200))
    qd = P.captured_energy(a, P.dpdis_pca(sd, 3, 0.5, 1e-5, rng, reps=200))
    se = math.sqrt(qc.var() / 200 + qd.var() / 200)
    assert qc.mean() - qd.mean() > Z * se


def test_validation_messages(rng):
    _, _, sd = _sites(rng)
    with pytest.raises(ValueError, match="epsilon must be finite and > 0"):
        P.central_dp_pca(sd, 2, -1.0, 1e-5, rng)
    with pytest.raises(ValueError, match="delta must be in"):
        P.dpdis_pca(sd, 2, 1.0, 1.5, rng)
    with pytest.raises(ValueError, match="variant must be"):
        P.federated_pca(sd, 2, 1.0, 1e-5, rng, variant="plain")
    with pytest.raises(ValueError, match="k must be <= 8"):
        P.pca(sd, 9)
    with pytest.raises(ValueError, match="r must be >= 3"):
        P.dpdis_pca(sd, 3, 1.0, 1e-5, rng, r=2)
    with pytest.raises(ValueError, match="neighbours must be"):
        P.noise_scale(1.0, 1e-5, 10, neighbours="swap")
    with pytest.raises(ValueError, match=r"rng must be a numpy\.random\.Generator"):
        P.central_dp_pca(sd, 2, 1.0, 1e-5, 0)


def test_privacy_claims():
    assert not P.privacy_claim("shared-seed", 1.0, 1e-5, 100).private
    assert "seed" in P.privacy_claim("shared-seed", 1.0, 1e-5, 100).why
    sa = P.privacy_claim("secure-aggregation", 0.5, 1e-5, 100, s=5)
    assert sa.private and sa.neighbours == "replace-one" and sa.delta == 1e-5
    assert any("public" in c for c in sa.conditions)
    assert P.privacy_claim("central", 1.0, 1e-5, 100).neighbours == "replace-one"
    assert not P.privacy_claim("non-private", 1.0, 1e-5, 100).private
    with pytest.raises(ValueError, match="method must be one of"):
        P.privacy_claim("pooled", 1.0, 1e-5, 100)


# ---- sweeps ---------------------------------------------------------------------------------------------------


def test_energy_runs_reproducible_and_ordered():
    args = (["wine", "synthetic"], [0.5, 5.0], 1e-5, [2, 10], 3, 2, 5)
    a = energy_runs(*args, splits=("equal",))
    b = energy_runs(*args, splits=("equal",), n_jobs=2)
    assert a.equals(b)
    tab = energy_table(a, 1e-5, 3)
    assert set(tab.method) == set(P.UTILITY_METHODS)
    assert np.allclose(tab.loc[tab.method == "non-private", "captured_energy"], 1.0)
    assert tab.captured_energy.between(0, 1 + 1e-12).all()


def test_load_adult_features():
    ds = P.load_dataset("adult")
    assert ds.n == 32561 and ds.d > 100
    assert set(np.unique(ds.y)) == {0, 1}
    assert np.all(np.linalg.norm(ds.x, axis=1) <= 1 + 1e-12)
    with pytest.raises(ValueError, match="rng must be"):
        P.load_dataset("synthetic")


def test_pattern_statistics_and_tables():
    runs = energy_runs(["wine"], [0.5, 2.0], 1e-5, [2, 20], 2, 4, 9, splits=("equal",))
    tab = energy_table(runs, 1e-5, 2)
    assert abs(P.pooled_z(tab, "central")) == 0.0
    pat = P.site_pattern(runs, 2, 20)
    assert list(pat.dataset) == ["wine"]
    assert np.allclose(pat.fall, pat.dpdispca_s2 - pat.dpdispca_s20)
    assert np.allclose(pat.fall_z * pat.fall_se, pat.fall)
    # pooling one row gives that row's z
    assert P.pooled_pattern_z(pat, "gap") == pytest.approx(float(pat.gap_z.iloc[0]))
    with pytest.raises(ValueError, match="name must be"):
        P.pooled_pattern_z(pat, "slope")


def test_z_scores_are_undefined_with_one_repetition():
    # one repetition per cell: no variance estimate, so every z is NaN (not +-inf, and no divide warning on the page)
    runs = energy_runs(["wine"], [0.5, 2.0], 1e-5, [2, 20], 2, 1, 9, splits=("equal",))
    tab = energy_table(runs, 1e-5, 2)
    pat = P.site_pattern(runs, 2, 20)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert np.isnan(P.pooled_z(tab, "secure-aggregation"))
        assert np.isnan(P.pooled_pattern_z(pat, "fall"))
    assert pat.fall_z.isna().all() and np.isfinite(pat.fall).all()


def test_attack_and_svm_tables():
    att = P.attack_table(["wine"], 1.0, 1e-5, 4, 3)
    err = att.set_index("attacker").recovered_relative_error
    assert err["any seed holder (server or site)"] < 1e-12
    assert err["server"] > 1e6
    assert 1e-3 < err["server + all other sites"] < err["server"]
    svm = P.svm_table(["wine"], [1.0], 1e-5, 2, 2, 1, 3, folds=3)
    assert (
        set(svm.method) == {*P.UTILITY_METHODS, P.END_TO_END} and svm.accuracy.between(0, 1).all()
    )
    again = P.svm_table(["wine"], [1.0], 1e-5, 2, 2, 1, 3, folds=3)
    assert svm.equals(again)


@pytest.mark.parametrize(
    ("epsilon", "delta", "sites"), [(1.0, 1e-5, 4), (15.4, 0.587, 2), (0.05, 0.05, 19)]
)
def test_colluders_are_left_with_exactly_the_noise_share(epsilon, delta, sites):
    """Server + all other sites strip the masks and see A_i + E_i: error / E||E_i||_F near 1 at any (eps, delta) —
    the fuzz found eps = 15.4, delta = 0.587, where the error (6.6e-4) is below a fixed 1e-3 threshold. With d = 13,
    ||E_i||_F / E||E_i||_F has relative sd about 1/d = 0.077, so [0.5, 2] is more than 6 sd wide on each side."""
    coalition = (
        P.attack_table(["wine"], epsilon, delta, sites, 3)
        .set_index("attacker")
        .loc["server + all other sites"]
    )
    assert coalition.noise_share_above_rounding
    assert 0.5 < coalition.min_error_over_noise_share <= coalition.max_error_over_noise_share < 2
    # a fixed threshold cannot express the claim: the noise share shrinks with epsilon
    assert coalition.noise_share_relative == pytest.approx(
        coalition.recovered_relative_error, rel=0.5
    )


def test_noise_share_below_rounding_is_flagged():
    coalition = (
        P.attack_table(["wine"], 1e7, 1e-5, 20, 3)
        .set_index("attacker")
        .loc["server + all other sites"]
    )
    assert not coalition.noise_share_above_rounding


# ---- issue 15: every claim true as stated ----------------------------------------------------------------------


def _ranges_example():
    """1000 identical rows plus two rows fixing every feature's range to [0, 1]."""
    v = np.array([0.25, 1.0, 1.0])
    return np.vstack([np.tile(v, (1000, 1)), np.zeros((1, 3)), np.ones((1, 3))])


def test_finding1_as_written_preprocessing_sensitivity():
    """Finding 1: the as-written preprocessing (data ranges, exact mean) moves every row; the public path does not."""
    d = _ranges_example()
    n = d.shape[0]
    added = np.vstack([d, [[1.0, 0.0, 0.0]]])  # add-remove neighbour (ranges unchanged)
    replaced = d.copy()
    replaced[0] = [1.0, 0.0, 0.0]  # replace-one neighbour
    m_add = P.preprocessing_sensitivity(d, added)
    m_rep = P.preprocessing_sensitivity(d, replaced)
    assert m_add == pytest.approx(0.08856, abs=1e-4)  # 88.7 x the add-remove 1/n the source claims
    assert m_add > 80 / n and m_rep > 60 * P.sensitivity(n)
    # the public path: per-row map with declared bounds, within the claimed sqrt(2)/n
    assert P.preprocessing_sensitivity(d, replaced, (0.0, 1.0), preprocessing="public") <= (
        P.sensitivity(n) + 1e-15
    )
    claim = P.privacy_claim("central", 0.5, 1e-5, n, preprocessing="as-written")
    assert not claim.private and "as-written preprocessing" in claim.why
    ok = P.privacy_claim("central", 0.5, 1e-5, n)
    assert ok.private and any("public statistics" in c for c in ok.conditions)


@pytest.mark.parametrize(
    ("eps", "calibration", "exact"),
    [(0.5, "classical", 0.514), (1.0, "classical", 1.098), (1.0, "analytic", 1.465)],
)
def test_finding2_add_remove_with_exact_n(eps, calibration, exact):
    """Finding 2: with n public the relation is replace-one (sqrt(2)/n); the add-remove 1/n calibration then has
    exact eps above its claim, and add-remove with an exact n is not claimed private."""
    from dpcompendium.core.mechanisms import gaussian_epsilon

    n = 1000
    tau = P.noise_scale(eps, 1e-5, n, neighbours="add-remove", calibration=calibration)
    assert gaussian_epsilon(tau, P.sensitivity(n), 1e-5) == pytest.approx(exact, abs=1e-3)
    for method in ("central", "dpdispca", "secure-aggregation"):
        assert not P.privacy_claim(method, eps, 1e-5, n, neighbours="add-remove").private
    # the default (replace-one) calibration is exactly tight for the analytic one and valid for the classical one
    tau = P.noise_scale(eps, 1e-5, n, calibration=calibration)
    assert gaussian_epsilon(tau, P.sensitivity(n), 1e-5) <= eps * (1 + 1e-9)
    assert P.privacy_claim("central", eps, 1e-5, n, calibration=calibration).private


def test_finding4_classical_gaussian_beyond_its_range():
    """Finding 4: the classical sigma at eps = 10, delta = 1e-5 has exact eps 10.39: not claimed private."""
    from dpcompendium.core.mechanisms import gaussian_claim, gaussian_epsilon
    from dpcompendium.core.mechanisms.gaussian import classical_crossover

    n = 1000
    claim = P.privacy_claim("central", 10, 1e-5, n)
    assert not claim.private and "10.39" in claim.why
    tau = P.noise_scale(10, 1e-5, n)
    assert gaussian_epsilon(tau, P.sensitivity(n), 1e-5) == pytest.approx(10.39, abs=5e-3)
    assert P.privacy_claim("central", 10, 1e-5, n, calibration="analytic").private
    assert P.privacy_claim("central", 10, 1e-5, n, calibration="auto").private
    assert P.noise_scale(10, 1e-5, n, calibration="auto") == pytest.approx(
        P.noise_scale(10, 1e-5, n, calibration="analytic")
    )
    assert classical_crossover(1e-5) == pytest.approx(8.42, abs=0.01)
    assert gaussian_claim(1.0, 8.0, 1e-5).private and not gaussian_claim(1.0, 9.0, 1e-5).private


# ---- the sweeps' fast paths compute the reference formulas bit for bit ------------------------------------------


@pytest.mark.numerics
def test_symmetric_gaussian_is_the_mirrored_upper_triangle(rng):
    seed = int(rng.integers(2**32))
    sig = np.array([0.5, 2.0, 3.0])
    e = P.symmetric_gaussian(7, sig, np.random.default_rng(seed), size=(3,))
    # the upper triangle (diagonal included) drawn in row-major order, mirrored below
    z = np.random.default_rng(seed).standard_normal((3, 28))
    ref = np.zeros((3, 7, 7))
    iu = np.triu_indices(7)
    for r in range(3):
        ref[r][iu] = z[r]
        ref[r] = (ref[r] + ref[r].T - np.diag(np.diag(ref[r]))) * sig[r]
    assert np.array_equal(e, ref)


@pytest.mark.numerics
@pytest.mark.parametrize(("d", "k"), [(1, 1), (5, 5), (13, 2), (64, 5), (113, 5)])
def test_top_k_eigh_is_scipy_eigh_evx_bit_for_bit(rng, d, k):
    from scipy import linalg

    x = rng.standard_normal((3 * d, d))
    # a gemm product (not exactly symmetric) plus symmetric noise: what the sweeps decompose
    a = x.T @ x.copy() / (3 * d) + P.symmetric_gaussian(d, 0.3, rng, size=(4,))
    vals, vecs = P.top_k_eigh(a, k)
    for m, w_fast, v_fast in zip(a, vals, vecs, strict=True):
        w, v = linalg.eigh(m, subset_by_index=[d - k, d - 1], driver="evx", check_finite=False)
        assert np.array_equal(w_fast, w[::-1]) and np.array_equal(v_fast, v[:, ::-1])
    with pytest.raises(ValueError, match="k must be"):
        P.top_k_eigh(a, d + 1)


@pytest.mark.numerics
@pytest.mark.parametrize(("d", "k"), [(2, 1), (5, 5), (13, 2), (30, 5), (64, 5), (113, 5)])
def test_top_k_eigh_bisect_engine_agrees_with_syevx(rng, d, k):
    """The opt-in engine (``dsytrd``, the k intervals' bisection compiled, ``dstein``, ``dormqr``) against
    ``syevx``, its reference: eigenvalues to a few ulp of ‖A‖, eigenvectors to rounding (up to sign), orthonormal."""
    x = rng.standard_normal((3 * d, d))
    a = x.T @ x.copy() / (3 * d) + P.symmetric_gaussian(d, 0.3, rng, size=(4,))
    w0, v0 = P.top_k_eigh(a, k)
    w1, v1 = P.top_k_eigh(a, k, engine="bisect")
    scale = np.abs(w0).max()
    assert np.abs(w1 - w0).max() <= 16 * np.finfo(float).eps * scale * d
    sign = np.sign(np.einsum("...ij,...ij->...j", v0, v1))
    assert np.all(sign != 0)
    assert np.abs(v1 * sign[..., None, :] - v0).max() < 1e-9
    assert np.abs(np.swapaxes(v1, -1, -2) @ v1 - np.eye(k)).max() < 1e-12
    # the compiled bisection against LAPACK's (dstebz) on the tridiagonal form, and its pure-Python loop
    from scipy.linalg import lapack

    from dpcompendium.chapters.federated_pca import core

    if d > 2:
        _, dg, e, _, _ = core._sytrd(d)[0](a[0], lower=1, lwork=core._sytrd(d)[1])
        ref = lapack.dstebz(dg, e, 2, 0.0, 1.0, d - k + 1, d, 0.0, "E")[1][:k]
        w_jit, w_py = np.empty(k), np.empty(k)
        assert core._top_tridiagonal()(dg, e, k, w_jit) and core._top_tridiagonal.py_func(
            dg, e, k, w_py
        )
        assert np.array_equal(w_jit, w_py)
        assert np.abs(w_jit - ref).max() <= 4 * np.finfo(float).eps * np.abs(ref).max()


def test_top_k_eigh_bisect_engine_falls_back_where_syevx_would_split():
    # a block-diagonal matrix: a zero off-diagonal entry in its tridiagonal form, where dstebz splits; the engine
    # hands it to syevx, bit for bit
    a = np.diag(np.arange(1.0, 9.0))
    a[:2, :2] += 0.5
    assert np.array_equal(P.top_k_eigh(a, 3, engine="bisect")[1], P.top_k_eigh(a, 3)[1])
    with pytest.raises(ValueError, match="engine must be one of"):
        P.top_k_eigh(a, 3, engine="fast")


@pytest.mark.numerics
@pytest.mark.parametrize("order", ["C", "F"])
def test_from_labels_is_the_masked_product(rng, order):
    """The grouped ``syrk`` scatters equal the masked ``gemm`` products to rounding, and are exactly symmetric."""
    x = np.asarray(P.prepare(rng.standard_normal((3000, 40))), order=order)
    for s, sizes in [(1, "equal"), (7, "unequal"), (50, "unequal")]:
        labels = P.split_sites(len(x), s, rng, sizes=sizes)
        sd = P.SiteData.from_labels(x, labels, s)
        ref = np.stack([x[labels == i].T @ x[labels == i].copy() for i in range(s)])
        assert np.allclose(sd.scatters, ref, rtol=1e-13, atol=1e-12)
        assert np.array_equal(sd.scatters, np.swapaxes(sd.scatters, 1, 2))
        assert np.array_equal(sd.sizes, np.bincount(labels, minlength=s))


@pytest.mark.numerics
def test_energy_cell_is_the_per_method_loop_bit_for_bit():
    """The sweep's cell (non-private subspace once per split, energies in one call) against the plain loop:
    every method fitted at every ε, ``captured_energy`` per subspace, one generator in the same order."""
    from dpcompendium.chapters.federated_pca.experiments import _dataset, _energy_cell

    eps, kw = [0.5, 2.0], {"neighbours": "replace-one", "calibration": "auto", "r": None}
    for name, split, s in [("wine", "equal", 3), ("synthetic", "unequal", 5)]:
        rows = _energy_cell(
            dataset=name, split=split, sites=s, epsilons=eps, delta=1e-5, k=3, data_seed=11, kw=kw,
            shown_sites=frozenset(), shown_reps=2, reps=2, rng=np.random.default_rng(4),
        )  # fmt: skip
        ds, rng = _dataset(name, 11), np.random.default_rng(4)
        a, ref = ds.x.T @ ds.x / ds.n, {}
        for rep in range(2):
            sd = P.SiteData.from_labels(ds.x, P.split_sites(ds.n, s, rng, sizes=split), s)
            for method in P.UTILITY_METHODS:  # each method at every ε, one after the other
                for e in eps:
                    v = P.fit_subspace(method, sd, 3, e, 1e-5, rng, **kw)
                    ref[rep, e, method] = P.captured_energy(a, v)
        assert [(r["rep"], r["epsilon"], r["method"]) for r in rows] == [
            (rep, e, m) for rep in range(2) for e in eps for m in P.UTILITY_METHODS
        ]
        # the same subspaces (the draws bit for bit); the energies' one product differs by rounding only
        got = np.array([r["captured_energy"] for r in rows])
        assert np.allclose(
            got, [ref[r["rep"], r["epsilon"], r["method"]] for r in rows], rtol=1e-12
        )


@pytest.mark.numerics
@pytest.mark.parametrize("method", P.UTILITY_METHODS)
def test_fit_subspaces_is_the_loop_over_epsilon_bit_for_bit(method):
    """The batched fit (one call per method at every ε) against its reference, the loop of ``fit_subspace`` over
    ε on one generator: the same draws in the same order, the same subspaces bit for bit."""
    kw = {"neighbours": "replace-one", "calibration": "auto", "r": None}
    for name, split, s in [("wine", "equal", 3), ("synthetic", "unequal", 7)]:
        ds = P.load_dataset(name, np.random.default_rng(1))
        sd = P.SiteData.from_labels(
            ds.x, P.split_sites(ds.n, s, np.random.default_rng(2), sizes=split), s
        )
        eps = [0.1, 1.0, 10.0]
        got = P.fit_subspaces(method, sd, 3, eps, 1e-5, np.random.default_rng(7), **kw)
        rng = np.random.default_rng(7)
        ref = np.stack([P.fit_subspace(method, sd, 3, e, 1e-5, rng, **kw) for e in eps])
        assert np.array_equal(got, ref)
    with pytest.raises(ValueError, match="epsilons"):
        P.fit_subspaces(method, sd, 3, [], 1e-5, np.random.default_rng(0))


@pytest.mark.numerics
def test_cv_accuracy_is_cross_val_score_bit_for_bit(rng):
    from sklearn.model_selection import StratifiedKFold, cross_val_score
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler
    from sklearn.svm import LinearSVC

    from dpcompendium.chapters.federated_pca.experiments import _cv_accuracy

    # two classes (breast_cancer), three (wine) and ten (digits: one-vs-rest over 10 liblinear problems)
    for name in ("wine", "breast_cancer", "digits"):
        ds = P.load_dataset(name)
        z = ds.x @ np.linalg.qr(rng.standard_normal((ds.d, 3)))[0]
        cv = StratifiedKFold(5, shuffle=True, random_state=17)
        clf = make_pipeline(StandardScaler(), LinearSVC(C=1.0, max_iter=20000, random_state=17))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # liblinear's ConvergenceWarning on digits
            ref = cross_val_score(clf, z, ds.y, cv=cv).mean()
        assert _cv_accuracy(z, ds.y, list(cv.split(z, ds.y)), 17) == ref


@pytest.mark.numerics
def test_cv_accuracy_on_released_rows_is_the_pipeline_bit_for_bit(rng):
    """Trained on other rows and labels (the end-to-end release), tested on the exact ones: the pipeline fitted on
    the released training part and scored on the exact test part; a training part with one class predicts it."""
    from sklearn.model_selection import StratifiedKFold
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler
    from sklearn.svm import LinearSVC

    from dpcompendium.chapters.federated_pca.experiments import _cv_accuracy

    ds = P.load_dataset("wine")
    z = ds.x @ np.linalg.qr(rng.standard_normal((ds.d, 4)))[0]
    z_rel = z + 0.3 * rng.standard_normal(z.shape)
    y_rel = np.where(rng.random(ds.n) < 0.3, rng.integers(0, 3, ds.n), ds.y)
    folds = list(StratifiedKFold(4, shuffle=True, random_state=5).split(z, ds.y))
    ref = []
    for train, test in folds:
        clf = make_pipeline(StandardScaler(), LinearSVC(C=1.0, max_iter=20000, random_state=5))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            clf.fit(z_rel[train], y_rel[train])
        ref.append(clf.score(z[test], ds.y[test]))
    assert _cv_accuracy(z, ds.y, folds, 5, z_rel, y_rel) == np.mean(ref)
    one = np.zeros(ds.n, dtype=ds.y.dtype)
    assert _cv_accuracy(z, ds.y, folds, 5, z_rel, one) == np.mean(
        [np.mean(ds.y[test] == 0) for _, test in folds]
    )


@pytest.mark.numerics
def test_packed_triangles_are_the_full_matrices_where_read(rng):
    """The batched fits add noise on the lower triangles' d(d+1)/2 entries and mirror once (issue 50): the packed
    draws are ``symmetric_gaussian``'s from the same state, and the lower triangle (what ``top_k_eigh`` reads)
    survives packing and unpacking even of a matrix that is not symmetric."""
    from dpcompendium.chapters.federated_pca.core import (
        _lower_packed,
        _packed_gaussian,
        _unpack_symmetric,
    )

    d, sig = 6, np.array([0.5, 2.0])
    full = P.symmetric_gaussian(d, sig, np.random.default_rng(3), size=(2,))
    packed = _packed_gaussian(d, sig, np.random.default_rng(3), size=(2,))
    assert np.array_equal(_unpack_symmetric(packed, d), full)
    a = rng.standard_normal((3, d, d))  # not symmetric
    back = _unpack_symmetric(_lower_packed(a), d)
    assert np.array_equal(np.tril(back), np.tril(a))
    assert np.array_equal(back, np.swapaxes(back, -1, -2))
    with pytest.raises(ValueError, match="z must have"):
        _unpack_symmetric(packed[..., :-1], d)
