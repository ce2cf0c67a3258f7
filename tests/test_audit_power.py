"""The samples an empirical audit's verdict needs (issue 50): :func:`dpcompendium.core.audit.power.samples_needed`.

Checked by simulation of the evaluation half's two binomial counts (the event fixed, as the estimate assumes) and of
whole audits of a planted bug: the number it gives reaches the power it names, and half of it does not."""

from __future__ import annotations

import math

import numpy as np
import pytest

from dpcompendium.core.audit import AuditResult, empirical_audit, epsilon_lower_bound
from dpcompendium.core.audit.power import bound_at, samples_needed


def _result(p, q, eps=1.0, delta=0.0, confidence=0.999, backward=False):
    way = "M(D') over M(D)" if backward else "M(D) over M(D')"
    return AuditResult(
        "m", "empirical", eps, delta, 0.0, confidence, "holds", f"e, {way}", p, q, 10**6
    )


def _share_above(r, n, target, reps, rng, p, q):
    n_ev = n - n // 2
    k_num, k_den = rng.binomial(n_ev, p, reps), rng.binomial(n_ev, q, reps)
    bounds = epsilon_lower_bound(
        k_num, n_ev, k_den, n_ev, delta=r.claimed_delta, confidence=r.confidence
    )
    return float(np.mean(bounds > target))


@pytest.mark.parametrize(
    "p, q, eps, delta",
    [
        (0.2, 0.2 * math.exp(-2.0), 1.0, 0.0),
        (0.05, 0.0, 1.0, 0.0),
        (0.3, 0.3 * math.exp(-1.2), 0.5, 1e-5),
    ],
)
def test_samples_needed_reaches_its_power_and_half_of_it_does_not(p, q, eps, delta):
    r = _result(p, q, eps, delta)
    n = samples_needed(r, 0.9)
    assert math.isfinite(n) and n % 2 == 0
    rng = np.random.default_rng(5)
    reps = 4000
    # the union bound makes the number conservative: at least the power, within a binomial tolerance
    assert _share_above(r, int(n), eps, reps, rng, p, q) >= 0.9 - 4 * math.sqrt(0.09 / reps)
    assert _share_above(r, int(n) // 2, eps, reps, rng, p, q) < 0.9


def test_direction_and_null_region():
    # the reported direction's numerator is p_b when the event is M(D') over M(D)
    fwd, back = _result(0.2, 0.01), _result(0.01, 0.2, backward=True)
    assert samples_needed(fwd) == samples_needed(back)
    # an event whose own ratio is within the claim: no number of samples shows a violation
    assert samples_needed(_result(0.2, 0.1)) == math.inf
    # a target below the claim (how tight a passing audit's bound is) is reached
    assert math.isfinite(samples_needed(_result(0.2, 0.1), target=0.5))
    with pytest.raises(ValueError, match="power"):
        samples_needed(fwd, power=1.0)
    with pytest.raises(ValueError, match="empirical"):
        samples_needed(AuditResult("m", "exact", 1.0, 0.0, 1.0, 1.0, "holds"))


def test_samples_needed_of_a_whole_audit_of_a_planted_bug():
    """Laplace noise of half the needed scale (true ε = 2 at a claim of 1): the audit at the number found on one
    run's event is violated in at least 90 % of fresh audits (whole audits: the event chosen again each time)."""

    def sampler(mu):
        return lambda n, g: mu + g.laplace(0.0, 0.5, n)

    def audit(n, g):
        return empirical_audit(
            sampler(0.0), sampler(1.0), claimed_epsilon=1.0, n_samples=n, confidence=0.99, rng=g
        )

    first = audit(200_000, np.random.default_rng(1))
    n = samples_needed(first, 0.9)
    assert 200 < n < 20_000
    runs = [audit(int(1.5 * n), g).verdict for g in (np.random.default_rng(s) for s in range(60))]
    assert runs.count("violated") >= 50  # 0.9 of 60 = 54, less a binomial allowance
    # the typical bound at the run's own size is near the bound the run reported
    assert abs(bound_at(first, 200_000) - first.audited_epsilon) < 0.05
