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

__all__ = [
    "EMPTY",
    "ONE",
    "audit_specs",
    "bounded_sum",
    "grr_exact_spec",
    "grr_law",
    "grr_sampler_spec",
    "value_events",
]

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


def grr_exact_spec(
    mechanism: str,
    chapter: str,
    variant: str,
    claim: PrivacyClaim,
    k: int,
    p: float,
    q: float,
    **kw,
) -> AuditSpec:
    """The exact audit of a k-ary randomized response keeping a value with probability p (each other one: q):
    every pair of the k one-record inputs, :func:`grr_law`."""
    inputs = tuple(np.array([v]) for v in range(k))
    return AuditSpec(
        mechanism, chapter, variant, claim, inputs, distribution=grr_law(p, q, k), pairs=None, **kw
    )


def grr_sampler_spec(
    mechanism: str, chapter: str, variant: str, claim: PrivacyClaim, k: int, privatise, **kw
) -> AuditSpec:
    """The empirical audit of a k-ary randomized response sampler ``privatise(values, k, epsilon, rng)`` at the
    claim's ε, on inputs 0 and 1, events {output = v}."""
    eps = claim.epsilon

    def sample(d, n, g):
        return privatise(np.full(n, int(d[0]), dtype=np.int64), k, eps, g)

    pair = (np.array([0]), np.array([1]))
    return AuditSpec(
        mechanism, chapter, variant, claim, pair, sample=sample, events=value_events(range(k)), **kw
    )


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
    for eps in (0.5, 1.0, 2.0):
        claim = PrivacyClaim(f"GRR, k={k}", "local", "any two inputs", eps)
        p, q = grr_probabilities(k, eps)
        out.append(
            grr_exact_spec(f"GRR k={k}, eps={eps:g}", "core", "core", claim, k, p, q,
                           true_epsilon=eps, note="every pair of the k one-record inputs")
        )  # fmt: skip
    claim = PrivacyClaim(f"GRR, k={k} (sampler)", "local", "any two inputs", 1.0)
    out.append(
        grr_sampler_spec(f"GRR k={k} sampler, eps=1", "core", "core", claim, k, grr_privatise,
                         true_epsilon=1.0, note="grr_privatise on inputs 0 and 1, events {output = v}")
    )  # fmt: skip
    return out


def _sigma(eps: float, delta: float) -> float:
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        return gaussian_sigma(1.0, eps, delta)
