"""Every guarantee true, second review (issue 27): what each chapter publishes, and what it calls public.

One test group per finding; every test but the projection-sensitivity property (a bound the variant relies on)
failed on main @ 52729a5.

1. Federated PCA: the source's step 7 publishes exact projections ``Y_i = X_i V′`` — not private at any ε; the SVM
   table labels each row from the claim of what it releases; an end-to-end private variant; the reconstruction.
2. MWEM: every claim rests on a public domain; the coursework code's domain ``min(B)…max(B)`` is not private.
3. PCA bounds: each dataset's bounds declare their source; breast cancer's and wine's are the data's own maxima.
4. HierA: Adult is scaled with declared public ranges, clipped, so every raw record lands in [−1, 1].
5. Stale text: the as-written PCA reason is computed; the grouping loss is (n − k)·ε₁/2; the crossover is 8.4198.

Plus the guard behind "no guarantee label on a row whose release is not private": ``chapter.save_table`` refuses such
a table, so every CSV a chapter writes obeys it.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from conftest import Z
from sklearn import datasets as skdatasets

from dpcompendium.book import chapter
from dpcompendium.chapters import federated_pca as P
from dpcompendium.chapters import hiera as ldp
from dpcompendium.chapters import histograms as H
from dpcompendium.chapters import mwem as M
from dpcompendium.chapters import privacy_audit as A
from dpcompendium.chapters.hiera import datasets as LD
from dpcompendium.chapters.registry import chapter_id
from dpcompendium.core.mechanisms.gaussian import calibrated_sigma, classical_crossover
from dpcompendium.core.messages import number

# --- 1. federated PCA: what the sites publish ---------------------------------------------------------------------


@pytest.mark.parametrize("method", P.METHODS)
def test_exact_projections_are_not_private_whatever_the_subspace(method):
    sub = P.privacy_claim(method, 1.0, 1e-5, 1000, s=4)
    c = P.release_claim(method, 1.0, 1e-5, 1000, release="exact-projections", s=4)
    assert not c.private and c.why.startswith("trained on exact projections: not private")
    assert "Y_i = X_i V'" in c.mechanism
    # the subspace's own verdict is stated beside it, true either way; the subspace's claim covers the subspace only
    assert (sub.guarantee in c.why) == sub.private
    assert not sub.private or any("not the projections" in k for k in sub.conditions)


def test_the_end_to_end_variant_composes_to_the_total_budget():
    c = P.release_claim(
        "secure-aggregation", 1.0, 1e-5, 1000, release="noisy-projections", calibration="auto"
    )
    assert c.private and (c.epsilon, c.delta) == (1.0, 1e-5)
    shares = P.END_TO_END_SHARES
    assert math.isclose(sum(e for e, _ in shares.values()), 1.0)
    assert math.isclose(sum(d for _, d in shares.values()), 1.0)
    # its subspace is the corrected protocol's at its share; the shared-seed subspace makes it fail
    assert not P.release_claim("shared-seed", 1.0, 1e-5, 1000, release="noisy-projections").private
    with pytest.raises(ValueError, match="release must be one of"):
        P.release_claim("central", 1.0, 1e-5, 1000, release="rows")


def test_noisy_projections_add_the_calibrated_noise():
    """Zero rows: the release is pure noise, N(0, σ²) with σ for L2 sensitivity 2 at (ε/4, δ/2); labels by GRR."""
    n, k, eps, delta = 40_000, 2, 1.0, 1e-5
    rng = np.random.default_rng(5)
    x = np.zeros((n, 6))
    v = np.linalg.qr(rng.standard_normal((6, k)))[0]
    labels = rng.integers(0, 3, size=n)
    y, lab = P.noisy_projections(x, v, labels, 3, eps, delta, rng)
    sigma = calibrated_sigma(2.0, eps / 4, delta / 2, "auto")
    # sd of a sample variance: σ²·sqrt(2/(N−1)), N = n·k entries
    assert abs(y.var() - sigma**2) < Z * sigma**2 * math.sqrt(2 / (n * k - 1))
    p_keep = math.exp(eps / 4) / (math.exp(eps / 4) + 2)
    assert abs(np.mean(lab == labels) - p_keep) < Z * math.sqrt(p_keep * (1 - p_keep) / n)
    with pytest.raises(ValueError, match="x must have rows"):
        P.noisy_projections(np.ones((2, 6)), v, labels[:2], 3, eps, delta, rng)


def test_projection_sensitivity_is_two_under_replace_one():
    """‖(x − x′)V′‖₂ ≤ ‖x − x′‖₂ ≤ 2 for rows in the unit ball, attained by x′ = −x in the subspace."""
    rng = np.random.default_rng(1)
    v = np.linalg.qr(rng.standard_normal((8, 3)))[0]
    x = P.normalize_rows(rng.standard_normal((2000, 8)))
    x2 = P.normalize_rows(rng.standard_normal((2000, 8)))
    assert np.linalg.norm((x - x2) @ v, axis=1).max() <= 2.0 + 1e-12
    assert math.isclose(np.linalg.norm((v[:, 0] - (-v[:, 0])) @ v), 2.0)


def test_svm_rows_are_labelled_by_what_they_release():
    svm = P.svm_table(["wine"], [0.5, 1.0], 1e-5, 2, 2, 1, 0, max_rows=100, calibration="auto")
    exact = svm[svm.release == "exact-projections"]
    assert set(exact.method) == set(P.UTILITY_METHODS)
    assert not exact.private.any() and (exact.guarantee == "none").all()
    assert (exact.label == "trained on exact projections: not private").all()
    # the subspace's claim beside it: private for the three private methods
    private_sub = exact[exact.method.isin(["central", "secure-aggregation", "dpdispca"])]
    assert private_sub.subspace_private.all()
    assert not exact[exact.method.isin(["non-private"])].subspace_private.any()
    e2e = svm[svm.method == P.END_TO_END]
    assert len(e2e) == 2 and e2e.private.all() and (e2e.release == "noisy-projections").all()
    assert list(e2e.guarantee) == ["(0.5, 1e-05)-DP", "(1, 1e-05)-DP"]
    chapter.check_guarantee_labels(svm, "svm")
    assert (
        svm.bounds == "from the data"
    ).all()  # wine's bounds are its own maxima: every row says so
    # the end-to-end rows draw from their own stream: the other rows are those of a run without them
    without = P.svm_table(
        ["wine"], [0.5, 1.0], 1e-5, 2, 2, 1, 0, max_rows=100, calibration="auto", end_to_end=False
    )
    assert np.array_equal(without.accuracy.to_numpy(), exact.accuracy.to_numpy())


def test_step_7_projections_reconstruct_and_reidentify_the_rows():
    t = P.reconstruction_table(["wine"], 1.0, 1e-5, 2, 3, 0).iloc[0]
    assert t.subspace_recovery_error < 1e-9  # Y V′ᵀ is each row's component in V′, exactly
    assert 0 < t.energy_recovered <= 1
    assert t.reidentified == 1.0  # every published row links to its own record
    assert t.reidentified_noisy < 0.2  # the end-to-end private release: near chance (1/178)


# --- 2. MWEM: a public domain -------------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", M.VARIANTS)
@pytest.mark.parametrize("ndim", [1, 2])
def test_mwem_claims_rest_on_a_public_domain(variant, ndim):
    kw = {"delta": 1e-6} if variant == "zcdp" else {}  # the zCDP variant's (eps, delta)
    c = M.privacy_claim(1.0, 10, variant, ndim, **kw)
    assert M.PUBLIC_DOMAIN in c.conditions
    assert M.PUBLIC_DOMAIN in M.spent_claim(1.0, 10, variant, ndim, **kw).conditions
    data = M.privacy_claim(1.0, 10, variant, ndim, domain="data", **kw)
    assert not data.private and M.DATA_DOMAIN_WHY in data.why


def test_the_coursework_1d_claim_holds_on_a_public_domain_only():
    assert M.privacy_claim(1.0, 10, "coursework", 1).private
    assert not M.privacy_claim(1.0, 10, "coursework", 1, domain="data").private
    with pytest.raises(ValueError, match="domain must be one of"):
        M.privacy_claim(1.0, 10, "coursework", 1, domain="min-max")


def test_the_audited_mwem_rows_state_their_public_domain():
    specs = A.catalog([chapter_id(M.__name__)])
    assert specs and all(M.PUBLIC_DOMAIN in s.claim.conditions for s in specs)
    assert "conditions" in A.COLUMNS


# --- 3. PCA bounds and their sources ------------------------------------------------------------------------------


def _round_up_2(v: np.ndarray) -> np.ndarray:
    """Round up to two significant digits (what the breast-cancer and wine bounds are)."""
    mag = 10.0 ** (np.floor(np.log10(v)) - 1)
    return np.ceil(np.round(v / mag, 9)) * mag


@pytest.mark.parametrize("name", ["breast_cancer", "wine"])
def test_bounds_taken_from_the_data_are_declared_so(name):
    x = getattr(skdatasets, f"load_{name}")(return_X_y=True)[0]
    hi = np.asarray(P.PUBLIC_BOUNDS[name][1])
    # the evidence: every bound is the observed maximum of the same rows, rounded up
    assert np.allclose(hi, _round_up_2(x.max(axis=0)))
    assert (x.max(axis=0) / hi).min() >= 0.95
    assert P.BOUNDS_SOURCES[name][0] == "from the data"
    cond = P.bounds_condition(name)
    assert "conditional on treating them as public" in cond
    claim = P.privacy_claim("central", 1.0, 1e-5, x.shape[0], dataset=name)
    assert claim.private and cond in claim.conditions


def test_every_dataset_declares_the_source_of_its_bounds():
    assert set(P.BOUNDS_SOURCES) == set(P.DATASETS)
    for name, (kind, source) in P.BOUNDS_SOURCES.items():
        assert kind in ("documented", "by construction", "from the data", "partly from the data"), (
            name
        )
        assert source
    # digits' documented 0..16 is not its data's maximum rounded up to two digits of every pixel
    assert "documented" in P.bounds_condition("digits")
    with pytest.raises(ValueError, match="name must be one of"):
        P.bounds_condition("iris")


# --- 4. HierA: public scaling ranges ------------------------------------------------------------------------------


def test_scale_to_unit_uses_declared_ranges_and_clips():
    x = np.array([17.0, 50.0, 90.0, 120.0, 5.0])
    out = LD.scale_to_unit(x, 17.0, 90.0)
    assert out.min() >= -1 and out.max() <= 1
    assert out[3] == 1.0 and out[4] == -1.0  # out-of-range records are clipped into the domain
    # a per-record map: an extreme new record moves no other record's value (the data's min/max would)
    assert np.array_equal(LD.scale_to_unit(x[:3], 17.0, 90.0), out[:3])
    with pytest.raises(ValueError, match="lo and hi must be finite"):
        LD.scale_to_unit(x, 90.0, 17.0)


def test_adult_columns_have_declared_ranges_with_sources():
    cols = [*LD.ADULT_FEATURES, "hours-per-week"]
    assert set(cols) <= set(LD.ADULT_RANGES)
    for c in cols:
        lo, hi, source = LD.ADULT_RANGES[c]
        assert lo < hi and source.startswith(("documented", "from the data")), c
    ages = LD.adult_ages_unit()
    assert ages.min() >= -1 and ages.max() <= 1
    x, y = LD.adult_regression()
    assert np.abs(x).max() <= 1 and np.abs(y).max() <= 1


@pytest.mark.parametrize("method", ["hiera", "pm", "duchi", "harmony", "hybrid", "graded-laplace"])
def test_ldp_claims_state_the_public_scaling(method):
    assert ldp.PUBLIC_SCALING in ldp.privacy_claim(method, 1.0).conditions


def test_data_derived_maxima_are_named_outside_the_claim():
    """Referee 6, m11: the Adult maxima taken from the data are not covered by the LDP claim, and its condition says
    so, naming exactly the columns whose declared range is not documented."""
    from_data = sorted(
        c for c, (_, _, src) in LD.ADULT_RANGES.items() if src.startswith("from the data")
    )
    assert from_data == ["capital-loss", "fnlwgt"]
    assert all(f"{c}'s" in ldp.PUBLIC_SCALING for c in from_data)
    assert "not covered by this guarantee" in ldp.PUBLIC_SCALING
    assert "treated as public" not in ldp.PUBLIC_SCALING


# --- 5. stale text ------------------------------------------------------------------------------------------------


def test_as_written_pca_reason_is_the_measured_sensitivity():
    from dpcompendium.chapters.federated_pca.audits import audit_rows

    d, d2 = audit_rows()
    measured = P.preprocessing_sensitivity(d, d2, preprocessing="as-written")
    delta = P.sensitivity(d.shape[0])
    why = P.privacy_claim("central", 1.0, 1e-5, 1000, preprocessing="as-written").why
    assert number(measured, 4) in why and f"{measured / delta:.1f} times" in why
    # no code names and no e-notation in the reader's text (reader B2)
    assert "preprocessing_sensitivity" not in why and "audit_rows" not in why
    assert "0.0955" not in why and "1/n" not in why


def test_grouping_loss_bound_is_half_the_generic_one():
    why = H.privacy_claim("sampling_grouping", 1.0, "as-written").why
    assert "(n - k)·ε₁/2" in why and "(n − k)·ε₁/2" in H.privacy_claim.__doc__
    # the exercise's extreme case attains (n − k)·ε₁/2; random neighbours stay below it
    for n in (10, 100):
        x = np.zeros(n)
        x[1] = 100
        x2 = x.copy()
        x2[0] += 1
        assert math.isclose(
            H.grouping_privacy_loss(x, x2, [0, 1], [0, 100], [1, 100], 1.0), (n - 2) / 2
        )
    rng = np.random.default_rng(3)
    for _ in range(50):
        n, eps1 = 12, float(rng.uniform(0.1, 2))
        x = rng.integers(0, 30, size=n).astype(float)
        centres = [0, 1, 2]
        x2 = x.copy()
        x2[rng.choice(centres)] += 1
        loss = H.grouping_privacy_loss(x, x2, centres, x[centres], x2[centres], eps1)
        assert loss <= (n - 3) * eps1 / 2 + 1e-9


def test_gaussian_crossover_docstring_states_the_computed_value():
    assert f"{classical_crossover(1e-5):.4f}" == "8.4198"
    assert "8.4198" in classical_crossover.__doc__ and "8.5" not in classical_crossover.__doc__


# --- the guard: no guarantee label on a row whose release is not private ------------------------------------------


def test_save_table_refuses_a_guarantee_on_a_non_private_row(tmp_path):
    ok = pd.DataFrame(
        {"method": ["a", "b"], "private": [True, False], "guarantee": ["(1, 1e-05)-DP", "none"]}
    )
    chapter.save_table(ok, "ok", tmp_path)
    bad = ok.assign(guarantee=["(1, 1e-05)-DP", "(1, 1e-05)-DP"])
    with pytest.raises(ValueError, match="labels row 1"):
        chapter.save_table(bad, "bad", tmp_path)
    assert not (tmp_path / "bad.csv").exists()
    sub = pd.DataFrame(
        {"subspace_private": [False], "subspace_label": ["0.5-DP"], "private": [True]}
    )
    with pytest.raises(ValueError, match="subspace_private"):
        chapter.check_guarantee_labels(sub)
    with pytest.raises(ValueError, match="must have a column 'private'"):
        chapter.check_guarantee_labels(pd.DataFrame({"guarantee": ["1-LDP"]}))
    # a label column that states no guarantee needs no private column
    chapter.check_guarantee_labels(
        pd.DataFrame({"label": ["trained on exact projections: not private"]})
    )


def test_the_data_domain_claim_states_the_source_s_epsilon_not_the_book_s_bound():
    # referee 11, m7: the source claims eps = 1; 0.500005 is the book's bound for its fixed-domain re-implementation
    data = M.privacy_claim(1.0, 30, "coursework", 1, domain="data")
    assert data.epsilon == 1.0 and not data.private
    assert "0.500005-DP is this book's composition bound" in data.why
    assert "source claims ε = 1" in data.why
    assert M.privacy_claim(1.0, 30, "standard", 1, domain="data").epsilon == 1.0
