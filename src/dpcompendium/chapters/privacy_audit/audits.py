"""The audit chapter's own catalogue entries: the planted bugs and the floating-point rows (raw datasets, as
everywhere: D = {} vs D' = {1} with f = the sum of records clipped to [0, 1])."""

from __future__ import annotations

import math

from ...core.audit.spec import AuditSpec
from ...core.mechanisms import laplace_mechanism
from ...core.mechanisms.audits import EMPTY, ONE, bounded_sum, grr_exact_spec, grr_sampler_spec
from ...core.privacy import PrivacyClaim
from .floating import low_bit_event, snapping_claim, snapping_epsilon, snapping_laplace
from .planted import (
    grr_wrong_keep,
    grr_wrong_keep_probabilities,
    laplace_half_sensitivity,
    laplace_scale_epsilon,
    planted_claim,
    planted_true_epsilon,
)

__all__ = ["audit_specs", "floating_specs", "planted_specs"]


def audit_specs() -> list[AuditSpec]:
    """The chapter's own rows of the catalogue: the planted bugs, then the floating-point rows."""
    return planted_specs() + floating_specs()


def planted_specs() -> list[AuditSpec]:
    """Three deliberately broken mechanisms (:mod:`.planted`), the audits must catch them where they are bugs."""
    out: list[AuditSpec] = []
    bugs = {
        "laplace-scale-epsilon": laplace_scale_epsilon,
        "laplace-half-sensitivity": laplace_half_sensitivity,
    }
    for bug, func in bugs.items():
        for eps in (0.5, 2.0) if bug == "laplace-scale-epsilon" else (0.5, 1.0):
            claim = planted_claim(bug, eps)
            true = planted_true_epsilon(bug, eps)
            out.append(
                AuditSpec(
                    f"{bug}, eps={eps:g}",
                    "planted",
                    "planted bug",
                    claim,
                    (EMPTY, ONE),
                    sample=lambda d, n, g, e=eps, f=func: f(bounded_sum(d), 1.0, e, g, size=n),
                    expected="violated" if true > eps else "holds",
                    true_epsilon=true,
                    note="D = {} vs D' = {1}",
                )
            )
    k = 4
    for eps in (0.5, 1.0):
        claim = planted_claim("grr-wrong-keep", eps, k=k)
        p, q = grr_wrong_keep_probabilities(k, eps)
        true = planted_true_epsilon("grr-wrong-keep", eps, k=k)
        out.append(
            grr_exact_spec(f"grr-wrong-keep k={k}, eps={eps:g}", "planted", "planted bug", claim, k, p, q,
                           expected="violated", true_epsilon=true)
        )  # fmt: skip
    claim = planted_claim("grr-wrong-keep", 1.0, k=k)
    true = planted_true_epsilon("grr-wrong-keep", 1.0, k=k)
    out.append(
        grr_sampler_spec(f"grr-wrong-keep k={k} sampler, eps=1", "planted", "planted bug", claim, k,
                         grr_wrong_keep, expected="violated", true_epsilon=true)
    )  # fmt: skip
    return out


def floating_specs() -> list[AuditSpec]:
    """Mironov's low-bit event on numpy's Laplace sampler, and the snapping mechanism (:mod:`.floating`)."""
    eps, bound = 1.0, 100.0
    event = low_bit_event()
    claim = PrivacyClaim("Laplace mechanism (numpy sampler)", "add-remove", "L1 sensitivity 1", eps)
    sclaim = snapping_claim(eps, 1.0, bound)

    def numpy_laplace(d, n, g):
        return laplace_mechanism(bounded_sum(d), 1.0, eps, g, size=n)

    def snapping(d, n, g):
        return snapping_laplace(bounded_sum(d), 1.0, eps, bound, g, size=n)

    return [
        AuditSpec(
            "Laplace mechanism, numpy floats, low-bit event",
            "core",
            "as-written",
            claim,
            (EMPTY, ONE),
            sample=numpy_laplace,
            events=[event],
            expected="violated",
            true_epsilon=math.inf,
            note="Mironov (CCS 2012): outputs in (0, 0.5) off the 2⁻⁵³ grid are impossible from f(D') = 1",
        ),
        AuditSpec(
            "Snapping Laplace, low-bit event",
            "core",
            "hardened",
            sclaim,
            (EMPTY, ONE),
            sample=snapping,
            events=[event],
            true_epsilon=snapping_epsilon(eps, 1.0, bound),
            note="dpcompendium.chapters.privacy_audit.snapping_laplace, B = 100",
        ),
        AuditSpec(
            "Snapping Laplace, intervals",
            "core",
            "hardened",
            sclaim,
            (EMPTY, ONE),
            sample=snapping,
            true_epsilon=snapping_epsilon(eps, 1.0, bound),
            note="dpcompendium.chapters.privacy_audit.snapping_laplace, B = 100",
        ),
    ]
