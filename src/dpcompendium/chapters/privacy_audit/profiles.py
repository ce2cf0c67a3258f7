"""Whole-profile audits of the book's (ε, δ) rows (:func:`dpcompendium.core.audit.profile_audit`): the catalogue's
Gaussian rows, whose single-event bounds sit at half their true ε, and a Gaussian mechanism without its δ term
(σ = Δ/ε, the Laplace scale [balle2018improving]) that the whole profile must find.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from ...core.audit.profile import ProfileAudit, profile_audit
from ...core.audit.spec import AuditSpec, check_neighbours
from ...core.mechanisms.audits import EMPTY, ONE, bounded_sum
from ...core.mechanisms.gaussian import gaussian_epsilon
from ...core.privacy import PrivacyClaim
from ...core.rng import generators
from ...core.validation import check_int

__all__ = ["gaussian_no_delta_spec", "gdp_share", "profile_specs", "run_profiles"]


def gaussian_no_delta_spec(epsilon: float = 1.0, delta: float = 1e-5) -> AuditSpec:
    """PLANTED BUG: N(0, (Δ/ε)²) noise, the √(2 ln(1.25/δ)) factor of the classical calibration dropped, claimed
    (ε, δ)-DP; its true ε at that δ is the Gaussian mechanism's at σ = 1/ε (4.38 at ε = 1, δ = 10⁻⁵)."""
    claim = PrivacyClaim(
        "Gaussian mechanism without its delta term (planted bug)", "add-remove", "L2 sensitivity 1", epsilon,
        delta,
    )  # fmt: skip
    sigma = 1.0 / epsilon
    return AuditSpec(
        f"Gaussian without its δ term, eps={epsilon:g}, delta={delta:g}".replace("e-0", "e-"),
        "planted",
        "planted bug",
        claim,
        (EMPTY, ONE),
        sample=lambda d, n, g: bounded_sum(d) + g.normal(0.0, sigma, n),
        expected="violated",
        true_epsilon=gaussian_epsilon(sigma, 1.0, delta),
        note="D = {} vs D' = {1}; sigma = 1/eps",
    )


def profile_specs(entries: list[AuditSpec]) -> list[AuditSpec]:
    """The catalogue's core rows with δ > 0 (the Gaussian mechanism), then :func:`gaussian_no_delta_spec`."""
    rows = [
        e for e in entries if e.chapter == "core" and e.claim.delta > 0 and e.sample is not None
    ]
    return [*rows, gaussian_no_delta_spec()]


def run_profiles(
    specs: list[AuditSpec], *, n_samples: int, confidence: float, seed: int
) -> tuple[pd.DataFrame, list[ProfileAudit]]:
    """Audit each spec's whole profile (its pair checked first), at family-wise ``confidence`` (each at
    1 − (1 − confidence)/m), streams ``generators(seed, m)``: the table (one row per spec) and the audits."""
    n = check_int(n_samples, "n_samples", minimum=100)
    each = 1 - (1 - confidence) / max(len(specs), 1)
    rows, audits = [], []
    for spec, g in zip(specs, generators(seed, len(specs)), strict=True):
        check_neighbours(spec)
        (i, j), sample = spec.pair_list[0], spec.sample
        da, db = spec.datasets[i], spec.datasets[j]
        res = profile_audit(
            lambda m, r, d=da, f=sample: f(d, m, r),
            lambda m, r, d=db, f=sample: f(d, m, r),
            statistic=spec.statistic,
            claim=spec.claim,
            n_samples=n,
            confidence=each,
            # the sentence names the claim's mechanism (the spec's name is a catalogue key with ASCII eps=...)
            mechanism=spec.claim.mechanism,
            rng=g,
        )
        audits.append(res)
        rows.append(
            {
                "mechanism": spec.mechanism,
                "claimed_epsilon": res.claimed_epsilon,
                "claimed_delta": res.claimed_delta,
                "epsilon_lower": res.epsilon_lower,
                "mu_lower": res.mu_lower,
                "gaussian_shape": res.gaussian_shape,
                "epsilon_gdp": res.epsilon_gdp if res.gaussian_shape else math.nan,
                "true_epsilon": spec.true_epsilon,
                "verdict": res.verdict,
                "expected": spec.expected,
                "confidence": each,
                "n_samples": n,
                "statement": str(res.statement()),
            }
        )
    return pd.DataFrame(rows), audits


def gdp_share(table: pd.DataFrame) -> np.ndarray:
    """ε_gdp / true ε of each row (NaN without a whole-profile estimate)."""
    return (table.epsilon_gdp / table.true_epsilon).to_numpy()
