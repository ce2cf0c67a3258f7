"""How the audit chapter audits the four averages of this chapter [src_dpmean].

Raw datasets of heights in [140, 200] cm, each pair a neighbouring pair under the method's relation, chosen where the
chapter's analysis locates the worst case (stated in each spec's ``note``).
"""

from __future__ import annotations

import math

import numpy as np

from ...core.audit.spec import AuditSpec
from ..registry import chapter_id
from .analysis import clamped_output_law, resampling_pair_loss
from .data import HEIGHT_BOUNDS
from .estimators import (
    METHODS,
    VARIANTS,
    clamped_add_remove_loss,
    composition_epsilon,
    noisy_average_clamped,
    privacy_claim,
)
from .modern import (
    GAUSSIAN_DELTA,
    MEAN_OFFSET_GUESS,
    QUANTILES,
    SCALE_GUESS,
    WIDE_BOUNDS,
    dp_quantile,
    noisy_average_centred,
    noisy_average_coinpress,
    noisy_average_gaussian,
    noisy_average_private_bounds,
    optimal_count_share,
)
from .staircase import noisy_average_staircase

#: this chapter's id (from its manifest)
CHAPTER = chapter_id(__name__)

__all__ = ["audit_specs"]


def audit_specs() -> list[AuditSpec]:
    """The four averages, as written and corrected, each on its worst-case raw pair."""
    lo, hi = HEIGHT_BOUNDS
    bounds = (lo, hi)
    eps = 1.0

    def pipeline(func, e, **kw):
        return lambda d, n, g: func(d, e, bounds, g, size=n, **kw)

    def both_variants(method, pair, true_epsilon, note) -> list[AuditSpec]:
        """``method`` as written and corrected on one raw pair; ``true_epsilon(variant)``: the pair's exact ε (the largest privacy loss over outputs)."""
        specs = []
        for variant in VARIANTS:
            claim = privacy_claim(method, eps, bounds, variant)
            specs.append(
                AuditSpec(
                    f"{method} ({variant})",
                    CHAPTER,
                    "as-written" if variant == "as-written" else "private",
                    claim,
                    pair,
                    sample=pipeline(METHODS[method][0], eps, variant=variant),
                    expected="holds" if claim.private else "violated",
                    true_epsilon=true_epsilon(variant),
                    note=note,
                )
            )
        return specs

    empty, one_b = np.array([]), np.array([hi])
    # 1. composition, add-remove: D = {} vs D' = {b} (the sum moves by max(|a|, |b|) = b).
    out = both_variants(
        "composition",
        (empty, one_b),
        lambda v: composition_epsilon(eps, bounds, v, "add-remove"),
        "add-remove, heights in [140, 200]: D = {} vs D' = {200}",
    )
    # 2. resampling, replace-one: D = (a,…,a) vs D' = (a,…,a,b), n = 10; the loss is largest at y = a.
    n_rec = 10
    d_a = np.full(n_rec, lo)
    d_b = d_a.copy()
    d_b[-1] = hi
    out += both_variants(
        "resampling",
        (d_a, d_b),
        lambda v: resampling_pair_loss(n_rec, eps, bounds, v),
        f"replace-one, n = {n_rec}: D = (140,...,140) vs D' = (140,...,140,200); true_epsilon = pair loss",
    )
    # 3. clamped: replace-one (private) on the same pair; add-remove exactly on the witness {a} vs {a, b}.
    out.append(
        AuditSpec(
            "clamped (replace-one)",
            CHAPTER,
            "private",
            privacy_claim("clamped", eps, bounds),
            (d_a, d_b),
            sample=pipeline(noisy_average_clamped, eps),
            true_epsilon=eps,
            note=f"replace-one, n = {n_rec}: D = (140,...,140) vs D' = (140,...,140,200)",
        )
    )
    for e in (1.0, 2.0):
        claim = privacy_claim("clamped", e, bounds, neighbours="add-remove")
        out.append(
            AuditSpec(
                f"clamped (add-remove), eps={e:g}",
                CHAPTER,
                "as-written" if not claim.private else "private",
                claim,
                (np.array([lo]), np.array([lo, hi])),
                distribution=lambda d, e=e: clamped_output_law(d, e, bounds),
                expected="holds" if claim.private else "violated",
                note=f"add-remove: D = {{140}} vs D' = {{140, 200}}, exact law coarsened to 600 bins and the atoms; "
                f"worst-case loss max(eps, ln 2 + eps/2) = {clamped_add_remove_loss(e):.4g}, private iff eps >= "
                f"2 ln 2 = {2 * math.log(2):.4g}",
            )
        )
    # 4. normalized, add-remove: D = {} vs D' = {b}; as written it spends 3/4 of eps.
    out += both_variants(
        "normalized",
        (empty, one_b),
        lambda v: 0.75 * eps if v == "as-written" else eps,
        "add-remove: D = {} vs D' = {200}",
    )
    out += modern_specs()
    return out


def modern_specs() -> list[AuditSpec]:
    """Today's alternatives, each on a raw pair through its whole pipeline (private bounds included)."""
    lo, hi = HEIGHT_BOUNDS
    wide = WIDE_BOUNDS["heights"]
    eps = 1.0
    # replace-one: five records at 170 vs one of them moved to the top of the wide domain (moves both the upper
    # quantile's rank and the clipped sum)
    d5 = np.full(5, 170.0)
    d5b = d5.copy()
    d5b[-1] = wide[1]
    out = [
        AuditSpec(
            "DP quantile (exponential mechanism)",
            CHAPTER,
            "core",
            dp_quantile.privacy_claim(eps, wide),  # type: ignore[attr-defined]
            (d5, d5b),
            sample=lambda d, n, g: dp_quantile(d, QUANTILES[1], eps, wide, g, size=n),
            note="replace-one, q = 0.99 on [0, 300]: D = 5 × 170 vs D' = 4 × 170 + 300",
        ),
        AuditSpec(
            "private-bounds mean",
            CHAPTER,
            "core",
            noisy_average_private_bounds.privacy_claim(eps, wide),  # type: ignore[attr-defined]
            (d5, d5b),
            sample=lambda d, n, g: noisy_average_private_bounds(d, eps, wide, g, size=n),
            note="replace-one, the whole pipeline (two DP quantiles, clipping, clamped Laplace mean) on "
            "D = 5 × 170 vs D' = 4 × 170 + 300",
        ),
        AuditSpec(
            "CoinPress mean (zCDP)",
            CHAPTER,
            "core",
            noisy_average_coinpress.privacy_claim(eps, GAUSSIAN_DELTA, wide),  # type: ignore[attr-defined]
            (d5, d5b),
            sample=lambda d, n, g: noisy_average_coinpress(
                d, eps, GAUSSIAN_DELTA, wide, g, size=n, scale=SCALE_GUESS["heights"]
            ),
            note="replace-one, the whole pipeline (range steps and the final mean, each a clipped Gaussian mean) "
            "on D = 5 × 170 vs D' = 4 × 170 + 300",
        ),
    ]
    n_rec = 10
    d_a = np.full(n_rec, lo)
    d_b = d_a.copy()
    d_b[-1] = hi
    out.append(
        AuditSpec(
            "Gaussian mean (analytic calibration)",
            CHAPTER,
            "core",
            noisy_average_gaussian.privacy_claim(eps, GAUSSIAN_DELTA, (lo, hi), n_rec),  # type: ignore[attr-defined]
            (d_a, d_b),
            sample=lambda d, n, g: noisy_average_gaussian(
                d, eps, GAUSSIAN_DELTA, (lo, hi), g, size=n
            ),
            note=f"replace-one, n = {n_rec}: D = (140,...,140) vs D' = (140,...,140,200)",
        )
    )
    out.append(
        AuditSpec(
            "staircase mean",
            CHAPTER,
            "core",
            noisy_average_staircase.privacy_claim(eps, (lo, hi), n_rec),  # type: ignore[attr-defined]
            (d_a, d_b),
            sample=lambda d, n, g: noisy_average_staircase(d, eps, (lo, hi), g, size=n),
            note=f"replace-one, n = {n_rec}, gamma optimal for the MSE: D = (140,...,140) vs "
            "D' = (140,...,140,200)",
        )
    )
    share = optimal_count_share((lo, hi), MEAN_OFFSET_GUESS["heights"])
    out.append(
        AuditSpec(
            "centred mean, optimised split",
            CHAPTER,
            "core",
            noisy_average_centred.privacy_claim(eps, (lo, hi), share),  # type: ignore[attr-defined]
            (np.array([]), np.array([hi])),
            sample=lambda d, n, g: noisy_average_centred(
                d, eps, (lo, hi), g, size=n, count_share=share
            ),
            note=f"add-remove, count share {share:.3g}: D = {{}} vs D' = {{200}}",
        )
    )
    return out
