"""How the audit chapter audits the textbook mechanisms: raw neighbouring datasets through each mechanism.

Every spec starts from raw records (:class:`~dpcompendium.core.audit.spec.AuditSpec`): a query computes f(D) from the
records and the mechanism releases it, so the audited pair is a pair of neighbouring datasets, checked by
:func:`~dpcompendium.core.audit.spec.are_neighbours`.
"""

from __future__ import annotations

import numpy as np

from ..audit.spec import AuditSpec, value_events
from ..privacy import PrivacyClaim
from .exponential import exponential_probabilities
from .gaussian import gaussian_claim, gaussian_epsilon, gaussian_mechanism, gaussian_sigma
from .laplace import laplace_mechanism
from .randomized_response import grr_privatise, grr_probabilities

__all__ = ["EMPTY", "ONE", "audit_specs", "bounded_sum", "grr_law", "value_events"]

#: The sensitivity-1 pair of raw datasets: D = {} and D' = {1} (add-remove), f = the sum of records clipped to [0, 1].
EMPTY, ONE = np.zeros(0), np.ones(1)


def bounded_sum(d: np.ndarray) -> float:
    """f(D) = Σ clip(x, 0, 1): L1 (and L2) sensitivity 1 under add-remove."""
    return float(np.clip(np.asarray(d, dtype=float), 0.0, 1.0).sum())


def grr_law(p: float, q: float, k: int):
    """``distribution(d)`` of a k-ary randomized response on the one-record dataset d = [v]."""

    def law(d):
        row = np.full(k, q)
        row[int(np.asarray(d).ravel()[0])] = p
        return row

    return law


def _approval_scores(d: np.ndarray) -> np.ndarray:
    """u_r(D) = Σ_records (+1 if the record approves r else −1): score sensitivity 1 under add-remove."""
    d = np.asarray(d, dtype=float).reshape(-1, 4)
    return (2.0 * d - 1.0).sum(axis=0)


def audit_specs() -> list[AuditSpec]:
    """Laplace, Gaussian (classical calibration, claims from :func:`gaussian_claim`), exponential, GRR."""
    out: list[AuditSpec] = []
    for eps in (0.5, 1.0, 2.0):
        claim = PrivacyClaim("Laplace mechanism", "add-remove", "L1 sensitivity 1", eps)
        out.append(
            AuditSpec(
                f"Laplace mechanism, eps={eps:g}",
                "core",
                "core",
                claim,
                (EMPTY, ONE),
                sample=lambda d, n, g, e=eps: laplace_mechanism(bounded_sum(d), 1.0, e, g, size=n),
                true_epsilon=eps,
                note="D = {} vs D' = {1}, f = sum of records clipped to [0, 1]",
            )
        )
    delta = 1e-5
    for eps in (0.5, 0.9):
        claim = gaussian_claim(
            1.0, eps, delta, mechanism="Gaussian mechanism (classical calibration)"
        )
        out.append(
            AuditSpec(
                f"Gaussian mechanism, eps={eps:g}, delta=1e-5",
                "core",
                "core",
                claim,
                (EMPTY, ONE),
                sample=lambda d, n, g, e=eps: gaussian_mechanism(
                    bounded_sum(d), 1.0, e, delta, g, size=n
                ),
                true_epsilon=gaussian_epsilon(_sigma(eps, delta), 1.0, delta),
                note="D = {} vs D' = {1}; true_epsilon: exact (Balle & Wang 2018) at the claimed delta",
            )
        )
    for eps in (0.5, 1.0, 2.0):
        # m records approving {1, 2, 3}: u = m(-1, 1, 1, 1), equivalent to (-60/eps, 0, 0, 0); D' adds one record
        # approving {0}: u' = u + (1, -1, -1, -1). P'(0)/P(0) tends to e^eps (tight only in the limit).
        m = round(30 / eps)
        d = np.tile([0.0, 1.0, 1.0, 1.0], (m, 1))
        d2 = np.vstack([d, [1.0, 0.0, 0.0, 0.0]])
        claim = PrivacyClaim("exponential mechanism", "add-remove", "score sensitivity 1", eps)
        out.append(
            AuditSpec(
                f"Exponential mechanism, eps={eps:g}",
                "core",
                "core",
                claim,
                (d, d2),
                distribution=lambda x, e=eps: exponential_probabilities(
                    _approval_scores(x), 1.0, e
                ),
                true_epsilon=eps,
                note=f"approval votes, u_r = sum(+1 approve r, -1 not): {m} records approving {{1,2,3}} vs one "
                "more approving {0}",
            )
        )
    k = 4
    inputs = tuple(np.array([v]) for v in range(k))
    for eps in (0.5, 1.0, 2.0):
        claim = PrivacyClaim(f"GRR, k={k}", "local", "any two inputs", eps)
        p, q = grr_probabilities(k, eps)
        out.append(
            AuditSpec(
                f"GRR k={k}, eps={eps:g}",
                "core",
                "core",
                claim,
                inputs,
                distribution=grr_law(p, q, k),
                pairs=None,
                true_epsilon=eps,
                note="every pair of the k one-record inputs",
            )
        )
    eps = 1.0
    claim = PrivacyClaim(f"GRR, k={k} (sampler)", "local", "any two inputs", eps)
    out.append(
        AuditSpec(
            f"GRR k={k} sampler, eps=1",
            "core",
            "core",
            claim,
            (np.array([0]), np.array([1])),
            sample=lambda d, n, g: grr_privatise(np.full(n, int(d[0]), dtype=np.int64), k, eps, g),
            events=value_events(range(k)),
            true_epsilon=eps,
            note="grr_privatise on inputs 0 and 1, events {output = v}",
        )
    )
    return out


def _sigma(eps: float, delta: float) -> float:
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        return gaussian_sigma(1.0, eps, delta)
