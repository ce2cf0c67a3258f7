"""federated-pca: PPCA [chaudhuri2013near] at k = 1, its exact Bingham sampler, its claim, its comparison families and
its audit spec (referee 14, comparator 3 and F1)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from dpcompendium.chapters import federated_pca as P
from dpcompendium.core import comparison
from dpcompendium.core.messages import message

N = 20_000


def _circle_moments(c: float, nodes: int = 20_000) -> tuple[float, float]:
    """E[x_2^2] and E[x_2^4] under the density exp(-c x_2^2) on the unit circle (uniform angle), by the midpoint rule
    (exact to rounding for a smooth periodic integrand)."""
    th = (np.arange(nodes) + 0.5) * 2 * np.pi / nodes
    s2 = np.sin(th) ** 2
    w = np.exp(-c * s2)
    return float(w @ s2 / w.sum()), float(w @ s2**2 / w.sum())


@pytest.mark.parametrize("c", [0.5, 5.0, 200.0])
def test_the_sampler_s_second_moment_is_the_bingham_law_s_in_d_2(c):
    draws = P.bingham_sample([0.0, c], np.random.default_rng(11), N)
    assert draws.shape == (N, 2)
    assert np.allclose(np.linalg.norm(draws, axis=1), 1.0)
    m1, m2 = _circle_moments(c)
    se = math.sqrt((m2 - m1**2) / N)
    assert abs(float(np.mean(draws[:, 1] ** 2)) - m1) < 5 * se


def test_the_sampler_fits_the_bingham_density_in_d_2():
    """Chi-square goodness of fit of the folded angle (the law is symmetric under both reflections) in 12 bins whose
    probabilities come from the density by quadrature; a sampler off the law (e.g. the envelope itself) fails."""
    c, bins = 3.0, 12
    edges = np.linspace(0, np.pi / 2, bins + 1)
    fine = np.linspace(0, np.pi / 2, 120_001)
    dens = np.exp(-c * np.sin(fine) ** 2)
    cdf = np.concatenate([[0.0], np.cumsum((dens[1:] + dens[:-1]) / 2 * np.diff(fine))])
    probs = np.diff(np.interp(edges, fine, cdf / cdf[-1]))

    def p_value(x):
        folded = np.arctan2(np.abs(x[:, 1]), np.abs(x[:, 0]))
        counts = np.histogram(folded, edges)[0]
        return stats.chisquare(counts, probs * len(x)).pvalue

    assert p_value(P.bingham_sample([0.0, c], np.random.default_rng(3), N)) > 1e-4
    # the envelope alone (angular central Gaussian, no rejection) is far from the law: the test can fail
    g = np.random.default_rng(3).standard_normal((N, 2)) / np.sqrt([1.0, 1.0 + 2 * c / 1.0])
    assert p_value(g / np.linalg.norm(g, axis=1, keepdims=True)) < 1e-6


def test_the_sampler_s_moments_in_d_3_match_quadrature():
    lam = np.array([0.0, 3.0, 40.0])
    nodes = 400
    u, w = np.polynomial.legendre.leggauss(nodes)
    phi = (np.arange(2 * nodes) + 0.5) * np.pi / nodes
    r = np.sqrt(1 - u * u)[:, None]
    x = np.stack(np.broadcast_arrays(r * np.cos(phi), r * np.sin(phi), u[:, None]))
    dens = w[:, None] * np.exp(-np.einsum("i,i...->...", lam, x**2))
    m1 = np.array([(dens * xi**2).sum() for xi in x]) / dens.sum()
    m2 = np.array([(dens * xi**4).sum() for xi in x]) / dens.sum()
    draws = P.bingham_sample(lam, np.random.default_rng(5), N)
    se = np.sqrt((m2 - m1**2) / N)
    assert np.all(np.abs(np.mean(draws**2, axis=0) - m1) < 5 * se)


def test_ppca_s_energy_loss_is_d_minus_1_over_n_eps_lambda_1_when_concentrated():
    """For large n·ε the draw is Gaussian around the top eigenvector with variance 1/(nε(λ₁ − λ_i)) in direction i,
    so E[1 − q] → (d − 1)/(nελ₁): the loss falls like 1/ε (input perturbation's like 1/ε²)."""
    lam = np.array([0.5, 0.3, 0.2, 0.1, 0.05])
    n, eps, reps = 100_000, 10.0, 4000
    runs = P.ppca_energy_runs(np.diag(lam), n, "toy", [eps], reps, np.random.default_rng(8))
    loss = 1 - runs.captured_energy.to_numpy()
    target = (lam.size - 1) / (n * eps * lam[0])
    assert abs(loss.mean() - target) < 5 * loss.std(ddof=1) / math.sqrt(reps)


def test_the_estimator_releases_one_unit_direction_and_is_reproducible():
    rng = np.random.default_rng(0)
    x = rng.standard_normal((300, 6))
    x /= np.maximum(1.0, np.linalg.norm(x, axis=1))[:, None]
    v = P.ppca_pca(x, 1, 1.0, np.random.default_rng(4))
    assert v.shape == (6, 1) and math.isclose(float(np.linalg.norm(v)), 1.0)
    assert np.array_equal(v, P.ppca_pca(x, 1, 1.0, np.random.default_rng(4)))
    a = np.diag([0.4, 0.2, 0.1])
    r1 = P.ppca_energy_runs(a, 200, "toy", [0.5, 2.0], 5, np.random.default_rng(9))
    r2 = P.ppca_energy_runs(a, 200, "toy", [0.5, 2.0], 5, np.random.default_rng(9))
    assert r1.equals(r2) and len(r1) == 10 and set(r1.method) == {"ppca"}


def test_bad_input_is_refused_in_one_line():
    g = np.random.default_rng(0)
    for lam in ([], [0.0, -1.0], [0.0, np.nan]):
        with pytest.raises(ValueError, match="lam"):
            P.bingham_sample(lam, g)
    with pytest.raises(ValueError, match="size"):
        P.bingham_sample([0.0, 1.0], g, 0)
    x = np.full((10, 3), 0.1)
    with pytest.raises(ValueError, match="k must be 1"):
        P.ppca_pca(x, 2, 1.0, g)
    with pytest.raises(ValueError, match="unit ball"):
        P.ppca_pca(x * 10, 1, 1.0, g)
    with pytest.raises(ValueError, match="epsilon"):
        P.ppca_pca(x, 1, 0.0, g)
    with pytest.raises(ValueError, match="other"):
        P.ppca_comparisons(None, None, "q", {}, "wishart")
    with pytest.raises(ValueError, match="results"):
        P.ppca_take([], [])


def test_the_claim_states_pure_epsilon_under_replace_one_for_an_exact_draw():
    claim = P.ppca_privacy_claim(0.5)
    assert claim.private and claim.epsilon == 0.5 and claim.delta == 0.0
    assert claim.neighbours == "replace-one"
    text = str(claim.statement())
    assert "exact draw" in text and "k = 1" in text and "sum_i (vᵀx_i)^2: 1" in text
    at_delta = P.ppca_privacy_claim(0.5, 1e-6)
    assert at_delta.delta == 1e-6 and at_delta.private
    with pytest.raises(ValueError, match="epsilon"):
        P.ppca_privacy_claim(-1.0)


def test_the_families_have_one_comparison_per_setting_and_the_take_counts_them():
    a = np.diag([0.5, 0.3, 0.1, 0.05])
    eps = [0.1, 0.5, 5.0]
    runs = P.wishart_runs(a, 500, "wine", eps, 1e-6, 2, 10, np.random.default_rng(6))
    # the k = 1 column is the energy of the top eigenvector of the same noisy matrix, a release of its own
    assert {"captured_energy", "captured_energy_1"} <= set(runs.columns)
    assert np.all(runs.captured_energy_1 <= 1 + 1e-12)
    ppca = P.ppca_energy_runs(a, 500, "wine", eps, 10, np.random.default_rng(7))
    fams = {
        other: P.ppca_comparisons(
            ppca, runs, message("fedpca.quantity_energy"), {"wine": 1e-6}, other
        )
        for other in ("laplace-input", "central")
    }
    for other, fam in fams.items():
        assert len(fam) == len(eps) and list(fam.epsilon) == eps
        assert all(r.comparison.test == "welch" for r in fam.result)
        assert all(
            r.comparison.a.method == "ppca" and r.comparison.b.method == other for r in fam.result
        )
        assert all(r.comparison.a.claim.delta == 1e-6 for r in fam.result)
    text = str(P.ppca_take(fams["laplace-input"].result, fams["central"].result))
    lap, gau = list(fams["laplace-input"].result), list(fams["central"].result)
    # the comparison object's words, plain (reader review 5, M1): no test named, no count of zero
    assert (
        f"against Laplace input perturbation's, {comparison.verdict_tally(lap, spans=False)} of 3"
        in text
    )
    assert f"against Analyze Gauss's {comparison.verdict_tally(gau, spans=False)} of 3" in text
    assert "Holm" not in text and " in 0" not in text


def test_the_take_s_reading_follows_the_outcomes_against_analyze_gauss():
    from types import SimpleNamespace

    def R(outcome, ratio):
        return SimpleNamespace(
            outcome=outcome, ratio=ratio, comparison=SimpleNamespace(relation="tie", margin=1.0)
        )

    lap = [R(outcome="better", ratio=0.5)]
    pure = str(P.ppca_take(lap, [R(outcome="worse", ratio=3.0), R(outcome="tie", ratio=1.0)]))
    assert "not input perturbation's alone" in pure
    some = str(P.ppca_take(lap, [R(outcome="better", ratio=0.5), R(outcome="worse", ratio=3.0)]))
    assert "where it is lower, the price of delta = 0 is input perturbation's" in some
    assert "do not say" in str(P.ppca_take(lap, [R(outcome="tie", ratio=1.0)]))


def test_the_audit_spec_runs_the_whole_sampler_at_an_exact_loss_below_epsilon():
    from dpcompendium.chapters.federated_pca.audits import _log_sphere_integral, ppca_audit_specs

    # the normaliser's quadrature: the sphere's area, and 2π ∫ exp(c u²) du for λ = (0, 0, c)
    assert math.isclose(_log_sphere_integral(np.zeros(3)), math.log(4 * math.pi), rel_tol=1e-12)
    fine = np.linspace(-1, 1, 200_001)
    closed = math.log(2 * math.pi * np.trapezoid(np.exp(7.0 * fine**2), fine))
    assert math.isclose(_log_sphere_integral(np.array([0.0, 0.0, 7.0])), closed, rel_tol=1e-8)
    from dpcompendium.core.audit.spec import run_audit

    (spec,) = ppca_audit_specs()
    assert spec.expected == "holds" and spec.claim.private and spec.claim.delta == 0.0
    assert 0 < spec.true_epsilon <= spec.claim.epsilon
    samples = spec.sample(spec.datasets[0], 1000, np.random.default_rng(1))
    assert samples.shape == (1000,) and np.all(np.abs(samples) <= 1 + 1e-9)
    # the pair is one the audit can see: a positive lower bound on the loss, below the exact loss and the claim
    result = run_audit(spec, rng=np.random.default_rng(0))
    assert result.verdict == "holds" and 0 < result.audited_epsilon <= spec.true_epsilon


def test_the_audit_row_flags_a_doubled_exponent_constant():
    """Referee 15, A1: the old pair (one corner against centre rows) had an exact loss of ε/2, so with the exponent's
    constant doubled, exp(nε·vᵀAv), its loss was ε and the row still held: it checked the sampler's law, not the
    constant. The concentrated pair's loss is well above ε/2, and with the constant doubled it exceeds ε and the
    audit flags it."""
    from dpcompendium.chapters.federated_pca.audits import _ppca_spec
    from dpcompendium.core.audit.spec import run_audit

    right, doubled = _ppca_spec(), _ppca_spec(2.0)
    assert right.true_epsilon > 0.6 * right.claim.epsilon and right.expected == "holds"
    # the loss is read off the normalisers: doubling the constant more than doubles the pair's loss here
    assert doubled.true_epsilon > 1.5 * doubled.claim.epsilon and doubled.expected == "violated"
    assert (
        doubled.claim == right.claim
    )  # the claim is the mechanism's, the sampler is the mis-calibrated one
    result = run_audit(doubled, rng=np.random.default_rng(7))
    assert result.verdict == "violated" and result.audited_epsilon <= doubled.true_epsilon


def test_the_audit_power_the_privacy_audit_page_glues_flags_the_doubled_constant():
    """Referee 15 re-check, N5: the page states what the PPCA row catches from this function's run."""
    from dpcompendium.chapters.federated_pca.audits import _ppca_spec, ppca_audit_power

    loss, verdict, lower = ppca_audit_power(
        n_samples=200_000, confidence=0.95, rng=np.random.default_rng(3)
    )
    assert verdict == "violated"
    assert loss == _ppca_spec(2.0).true_epsilon > _ppca_spec().claim.epsilon
    # the lower bound the page prints beside the verdict (referee 16, m3): above the claim, under the loss
    assert _ppca_spec().claim.epsilon < lower <= loss


def test_ppca_is_registered_with_its_estimator_claim_and_audit():
    from dpcompendium.core import methods

    m = methods.get("ppca")
    assert m.names["zh_CN"].startswith("PPCA") and m.colour == "#000000"
    assert m.chapter == "federated-pca"
    package = "dpcompendium.chapters.federated_pca"
    assert m.estimator == f"{package}.ppca:ppca_pca"
    assert m.claim == f"{package}.ppca:ppca_privacy_claim"
    assert m.audit == f"{package}.audits:ppca_audit_specs"
