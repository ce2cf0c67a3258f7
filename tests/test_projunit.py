"""ProjUnit [asi2023fast] (referee 12, §3): PrivUnitG in a public random k-dimensional projection — its decoder's
constant, unbiasedness, claim, checks, registration and audit row."""

from __future__ import annotations

import math

import numpy as np
import pytest

from dpcompendium.core.mechanisms.privunit import (
    privunitg_params,
    projunit,
    projunit_claim,
    projunit_decode,
    projunit_scale,
)


@pytest.mark.parametrize(("d", "k"), [(11, 2), (7, 3), (4, 4)])
def test_the_scale_is_the_mean_norm_of_a_random_projection(d, k):
    """E‖P u‖ against a Monte Carlo mean over random subspaces (within 4 standard errors); 1 when k = d."""
    n = 20_000
    g = np.random.default_rng(1).standard_normal((n, d, k))
    q, _ = np.linalg.qr(g)
    u = np.zeros(d)
    u[0] = 1.0
    norms = np.linalg.norm(np.einsum("ndk,d->nk", q, u), axis=1)
    if k == d:
        assert projunit_scale(d, k) == 1.0
        np.testing.assert_allclose(norms, 1.0, rtol=1e-12)
    else:
        assert abs(norms.mean() - projunit_scale(d, k)) < 4 * norms.std(ddof=1) / math.sqrt(n)


@pytest.mark.parametrize("v", [[0.6, -0.3, 0.2, 0.0, 0.5], [0.0] * 5, [1.0, 0.0, 0.0, 0.0, 0.0]])
def test_projunit_is_unbiased(v):
    """The decoded mean of n reports of the same row (norm ≤ C = 1, the zero row included) is the row, within 4
    standard errors per coordinate; its per-report variance is finite and larger than PrivUnitG's in d (the price of
    k = 2 dimensions of communication)."""
    n = 200_000
    row = np.array(v)
    w, z = projunit(np.tile(row, (n, 1)), 1.0, np.random.default_rng(2), k=2)
    assert w.shape == (n, 2, 5) and z.shape == (n, 2)
    np.testing.assert_allclose(
        np.einsum("nkd,njd->nkj", w[:50], w[:50]),
        np.broadcast_to(np.eye(2), (50, 2, 2)),
        atol=1e-12,
    )
    est = projunit_decode(w, z)
    se = est.std(axis=0, ddof=1) / math.sqrt(n)
    assert np.all(np.abs(est.mean(axis=0) - row) < 4 * se)
    assert (est**2).sum(axis=1).mean() > privunitg_params(1.0, 5).variance


def test_projunit_is_deterministic_given_the_seed_and_checks_its_input():
    v = np.full((4, 3), 0.5)
    a = projunit(v, 0.5, np.random.default_rng(7))
    b = projunit(v, 0.5, np.random.default_rng(7))
    assert all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))
    with pytest.raises(ValueError, match="l2 norm <= clip_norm"):
        projunit(np.ones((2, 3)), 1.0, np.random.default_rng(0))
    with pytest.raises(ValueError, match="k"):
        projunit(v * 0.1, 1.0, np.random.default_rng(0), k=4)
    with pytest.raises(ValueError, match="params must be calibrated"):
        projunit(v * 0.1, 1.0, np.random.default_rng(0), params=privunitg_params(1.0, 3))


def test_the_claim_states_relation_clip_and_public_projection():
    c = projunit_claim(0.5, k=2, clip_norm=1.0)
    assert c.private and c.epsilon == 0.5 and c.neighbours == "local"
    text = " ".join(map(str, c.conditions))
    assert "clipped to l2 norm 1" in text and "independently of the data" in text
    assert "k = 2" in str(c.mechanism)


def test_the_audit_row_holds_its_claim_and_is_registered():
    """The catalogue row audits ProjUnit's whole report (W, z) at d = 11, k = 2, with the claim's ε and the exact
    ε_used of the rounded calibration as its true value; the method is registered for hiera."""
    from dpcompendium.chapters.hiera.audits import audit_specs
    from dpcompendium.chapters.registry import load_methods
    from dpcompendium.core.methods import methods

    spec = next(s for s in audit_specs() if s.mechanism == "ProjUnit (d = 11, k = 2) sampler")
    assert spec.claim.epsilon == 1.0 and spec.true_epsilon == privunitg_params(1.0, 2).eps_used
    # the event has the probabilities p and (1 - p) q / (1 - q) under the two inputs
    pj = privunitg_params(1.0, 2)
    n = 100_000
    (x, x2), fn = spec.datasets, spec.events[0][1]
    p1 = fn(spec.sample(x, n, np.random.default_rng(3))).mean()
    p2 = fn(spec.sample(x2, n, np.random.default_rng(4))).mean()
    want2 = (1 - pj.p) * pj.q / (1 - pj.q)
    assert abs(p1 - pj.p) < 4 * math.sqrt(pj.p * (1 - pj.p) / n)
    assert abs(p2 - want2) < 4 * math.sqrt(want2 * (1 - want2) / n)
    load_methods()
    assert any(m.id == "projunit" and m.chapter == "hiera" for m in methods())
