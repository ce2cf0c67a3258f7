"""federated-pca: the Wishart mechanism as published [jiang2016wishart] beside Analyze Gauss (issue 47), and the
proposition that it is not ε-DP (its output's support moves with the data)."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from dpcompendium.chapters import federated_pca as P
from dpcompendium.chapters.federated_pca.audits import wishart_audit_specs
from dpcompendium.core import comparison
from dpcompendium.core.audit.spec import run_audit
from dpcompendium.core.messages import message


def _leaves_cone(eps, d, n, draws, seed):
    w = P.wishart_noise(d, P.wishart_scale(eps, n), np.random.default_rng(seed), size=(draws,))
    w[:, 0, 0] -= 1.0 / n  # W - x x^T / n for the unit vector x = e_0
    return float((np.linalg.eigvalsh(w)[:, 0] < 0).mean())


@pytest.mark.parametrize(("eps", "d", "n"), [(0.5, 3, 100), (2.0, 8, 5000)])
def test_support_mass_is_one_minus_exp_of_minus_eps_over_three_whatever_d_and_n(eps, d, n):
    draws = 40_000
    p = P.wishart_support_delta(eps)
    assert p == pytest.approx(1 - math.exp(-eps / 3))
    share = _leaves_cone(eps, d, n, draws, 1)
    assert abs(share - p) < 5 * math.sqrt(p * (1 - p) / draws)


def test_wishart_noise_has_the_wishart_mean():
    d, c, m = 4, 0.3, 20_000
    w = P.wishart_noise(d, c, np.random.default_rng(2), size=(m,))
    # E W = (d + 1) c I; Var W_jj = 2 (d + 1) c^2, Var W_jl = (d + 1) c^2 off the diagonal
    mean = w.mean(axis=0)
    se_diag, se_off = math.sqrt(2 * (d + 1)) * c / math.sqrt(m), math.sqrt(d + 1) * c / math.sqrt(m)
    assert np.all(np.abs(np.diag(mean) - (d + 1) * c) < 5 * se_diag)
    assert np.all(np.abs(mean[~np.eye(d, dtype=bool)]) < 5 * se_off)
    assert np.all(np.linalg.eigvalsh(w)[:, 0] > 0)  # d + 1 degrees of freedom: positive definite


def test_the_claim_is_refuted_and_says_what_it_does_satisfy():
    claim = P.wishart_privacy_claim(1.0)
    assert not claim.private and claim.refuted and claim.neighbours == "replace-one"
    assert claim.delta == 0.0
    text = claim.statement()
    assert "0.283" in text and "(0.333, 0.283)" in text
    assert P.wishart_privacy_claim(1.0, 1e-6).delta == 1e-6
    with pytest.raises(ValueError, match="epsilon"):
        P.wishart_privacy_claim(0.0)


def test_wishart_pca_refuses_rows_outside_the_unit_ball():
    with pytest.raises(ValueError, match="x must be"):
        P.wishart_pca(np.full((5, 3), 1.0), 1, 1.0, np.random.default_rng(0))
    v = P.wishart_pca(np.eye(3) * 0.9, 2, 1.0, np.random.default_rng(0))
    assert v.shape == (3, 2) and np.allclose(v.T @ v, np.eye(2))


def test_audit_event_never_happens_on_one_neighbour_and_does_on_the_other():
    spec, _ = wishart_audit_specs()
    assert spec.expected == "violated" and math.isinf(spec.true_epsilon)
    g = np.random.default_rng(3)
    on_d, on_d2 = spec.sample(spec.datasets[0], 20_000, g), spec.sample(spec.datasets[1], 20_000, g)
    assert (on_d2 >= -1e-12).all()
    assert (on_d < 0).mean() > 0.01


def test_the_stated_guarantee_row_audits_the_same_release_and_holds():
    # referee 12, n7: the release audited at (eps/3, 1 - exp(-eps/3)), which prop-fedpca-wishart says it satisfies
    refuted, stated = wishart_audit_specs()
    assert stated.sample is refuted.sample
    assert all(a is b for a, b in zip(stated.datasets, refuted.datasets, strict=True))
    assert stated.claim.private and stated.expected == "holds"
    eps = refuted.claim.epsilon
    assert stated.claim.epsilon == pytest.approx(eps / 3)
    assert stated.claim.delta == pytest.approx(1 - math.exp(-eps / 3))
    result = run_audit(stated, rng=np.random.default_rng(4))
    assert result.verdict == "holds" and result.n_samples == stated.max_samples


def test_comparisons_flag_the_wishart_arm_and_are_reproducible():
    a = np.diag([0.5, 0.3, 0.1, 0.05])
    run = lambda: P.wishart_runs(a, 2000, "wine", [0.5, 2.0], 1e-6, 2, 8, np.random.default_rng(5))  # noqa: E731
    first, again = run(), run()
    pd.testing.assert_frame_equal(first, again)
    assert set(first.method) == {"central", "wishart", "laplace-input"} and len(first) == 3 * 2 * 8
    cmp = P.wishart_comparisons(first, message("fedpca.quantity_energy"), {"wine": 1e-6})
    assert len(cmp) == 2
    sentence = comparison.family_sentence(list(cmp.result))
    assert "not private" in str(sentence) and "Wishart" in str(sentence)
    assert all(not r.comparison.b.claim.private for r in cmp.result)
