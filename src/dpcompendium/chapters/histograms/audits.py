"""How the audit chapter audits the histogram chapter [src_histograms]: the patent's sampling-grouping
method step by step, as written and private, and the baselines end to end.

Raw datasets: records are bin indices; the pipeline builds the histogram (``bincount``) and runs the method on it.
Neighbours: add-remove (one record added to a bin). Centre selection (k-means++ seeding) and the noisy group means are
audited through :func:`sampling_grouping` (``return_groups=True`` exposes the centres; ``k=1`` isolates the group
mean); the exponential-mechanism grouping exactly, with :func:`grouping_log_probability` over every labelling. The
baselines (Identity, Uniform, hierarchical, AHP, P-HP, PrivTree) and the core's range-query mechanisms (Identity, least squares,
Hb, Privelet, DAWA; :mod:`dpcompendium.core.mechanisms.ranges`, :mod:`dpcompendium.core.mechanisms.dawa`) are audited
on the bin that gains the record (a weak statistic for the tree and clustering methods, so their bounds sit well below
ε), and DAWA's partition step on whether the record's bin starts a bucket.
"""

from __future__ import annotations

import dataclasses
import itertools
import math

import numpy as np

from ...core.audit.spec import AuditSpec
from ...core.experiments import RangeQueries
from ...core.mechanisms import dawa as dawa_mod
from ...core.mechanisms import ranges
from ...core.mechanisms.audits import value_events
from ..registry import chapter_id

#: this chapter's id (from its manifest)
CHAPTER = chapter_id(__name__)

__all__ = ["audit_specs", "records_of"]


def records_of(counts) -> np.ndarray:
    """Raw records (bin indices) of a histogram of non-negative integer counts."""
    c = np.asarray(counts, dtype=np.int64)
    return np.repeat(np.arange(c.size), c)


def _hist(records: np.ndarray, bins: int) -> np.ndarray:
    return np.bincount(np.asarray(records, dtype=np.int64), minlength=bins).astype(float)


def audit_specs() -> list[AuditSpec]:
    from .. import histograms as hg

    eps = 1.0
    e0, e1 = 0.2 * eps, 0.4 * eps  # the module's default centre_share and eps1_share
    out: list[AuditSpec] = []
    # 1. Centre selection, k = 2: x = (0, 0, 5, 5) vs x' = (0, 1, 5, 5).
    x, x2 = records_of([0, 0, 5, 5]), records_of([0, 1, 5, 5])
    pairs = [int(i * 4 + j) for i in range(4) for j in range(4) if i != j]
    for variant in ("as-written", "private"):
        base = hg.privacy_claim("sampling_grouping", eps, variant)
        step = eps if variant == "as-written" else e0
        claim = dataclasses.replace(
            base, mechanism=f"{base.mechanism}: centre selection", epsilon=step
        )

        def centres(d, n, g, v=variant):
            c = hg.sampling_grouping(  # the scan sampler: the one the recorded audit drew from
                _hist(d, 4), eps, g, k=2, variant=v, size=n, return_groups=True, engine="scan"
            )[2]
            return c[:, 0] * 4 + c[:, 1]

        out.append(
            AuditSpec(
                f"sampling grouping: centre selection ({variant})",
                CHAPTER,
                variant,
                claim,
                (x, x2),
                sample=centres,
                events=value_events(pairs),
                expected="violated" if variant == "as-written" else "holds",
                true_epsilon=math.inf if variant == "as-written" else math.nan,
                max_samples=200_000,
                note="k = 2, x = (0,0,5,5) vs (0,1,5,5): centres (0, 1) impossible on x; as-written claim = the "
                "whole budget eps (generous), private claim eps0 = 0.2 eps",
            )
        )
    # 2. Exponential-mechanism grouping, exact over all 2^8 labellings of 10 bins with centres (0, 1).
    xs = np.array([0, 10, 9, 10, 8, 10, 9, 9, 10, 8])
    centre_bins = np.array([0, 1])
    labellings = [
        np.array([0, 1, *rest]) for rest in itertools.product(range(2), repeat=xs.size - 2)
    ]
    for variant in ("as-written", "private"):
        xs2 = xs.copy()
        if (
            variant == "as-written"
        ):  # one record added to centre bin 0: its true count enters every score
            xs2[0] += 1
            note = "x = (0,10,9,10,8,10,9,9,10,8), centres bins 0, 1, x' = x + e_0: true centre count in all 8 scores"

            def centre_values(h):
                return h[centre_bins]
        else:  # centre values are noisy (fixed by the earlier step); one record moves one bin's own score
            xs2[2] += 1
            note = "noisy centre values (0.3, 9.6) fixed, x' = x + e_2: one draw changes"

            def centre_values(h):
                return np.array([0.3, 9.6])

        def law(d, cv=centre_values):
            h = _hist(d, xs.size)
            logp = np.array(
                [hg.grouping_log_probability(h, centre_bins, cv(h), lab, e1) for lab in labellings]
            )
            p = np.exp(logp - logp.max())
            return p / p.sum()

        base = hg.privacy_claim("sampling_grouping", eps, variant)
        claim = dataclasses.replace(base, mechanism=f"{base.mechanism}: grouping", epsilon=e1)
        out.append(
            AuditSpec(
                f"sampling grouping: exponential-mechanism grouping ({variant})",
                CHAPTER,
                variant,
                claim,
                (records_of(xs), records_of(xs2)),
                distribution=law,
                expected="violated" if variant == "as-written" else "holds",
                note=note + f"; claim eps1 = {e1:g}",
            )
        )
    # 3. Noisy group mean: k = 1 (one group, data-independent centre, no grouping draw) isolates the mean.
    xm = np.array([3, 1, 4, 1, 5])
    xm2 = xm.copy()
    xm2[0] += 1
    for variant in ("as-written", "private"):
        e2 = eps - e1 - (e0 if variant == "private" else 0.0)
        base = hg.privacy_claim("sampling_grouping", eps, variant)
        claim = dataclasses.replace(
            base, mechanism=f"{base.mechanism}: noisy group mean", epsilon=e2
        )
        out.append(
            AuditSpec(
                f"sampling grouping: noisy group mean ({variant})",
                CHAPTER,
                variant,
                claim,
                (records_of(xm), records_of(xm2)),
                sample=lambda d, n, g, v=variant: hg.sampling_grouping(
                    _hist(d, xm.size), eps, g, k=1, variant=v, size=n
                )[:, 0],
                true_epsilon=e2 if variant == "private" else e2 / xm.size,
                max_samples=400_000,
                note=f"one group of m = {xm.size} bins; mean sensitivity 1/m; as written Lap(1/eps2) "
                "over-noises (eps2/m), private Lap(1/(m eps2))",
            )
        )
    # 4. The baselines, end to end; statistic: the bin that gains the record.
    xb = np.array([3, 1, 4, 1, 5, 9, 2, 6])
    xb2 = xb.copy()
    xb2[0] += 1
    caps = {
        "identity": None,
        "uniform": None,
        "hierarchical": 400_000,
        "ahp": 50_000,
        "php": 50_000,
        "privtree": 400_000,
    }
    for method, cap in caps.items():
        func = getattr(hg, method)
        claim = hg.privacy_claim(method, eps)
        out.append(
            AuditSpec(
                f"{method} (baseline)",
                CHAPTER,
                "private",
                claim,
                (records_of(xb), records_of(xb2)),
                sample=lambda d, n, g, f=func: f(_hist(d, xb.size), eps, g, size=n)[:, 0],
                true_epsilon=eps if method == "identity" else math.nan,
                max_samples=cap,
                note="x = (3,1,4,1,5,9,2,6) vs x + e_0 (add-remove); statistic: output bin 0",
            )
        )
    # HDMM: its strategy optimised for all 36 ranges of the 8 bins (a p-Identity strategy on its grid), end to end
    ranges36 = RangeQueries.from_ranges(
        xb.size, [(i, j) for i in range(xb.size) for j in range(i, xb.size)]
    )
    out.append(
        AuditSpec(
            "hdmm (baseline)",
            CHAPTER,
            "private",
            hg.privacy_claim("hdmm", eps),
            (records_of(xb), records_of(xb2)),
            sample=lambda d, n, g: hg.hdmm(_hist(d, xb.size), eps, g, workload=ranges36, size=n)[
                :, 0
            ],
            max_samples=400_000,
            note="x = (3,1,4,1,5,9,2,6) vs x + e_0 (add-remove); statistic: output bin 0; strategy: HDMM's, "
            "optimised for all 36 ranges",
        )
    )
    out += _range_specs(xb, xb2, eps)
    return out


def _range_specs(xb: np.ndarray, xb2: np.ndarray, eps: float) -> list[AuditSpec]:
    """The core's range-query mechanisms end to end (statistic: output bin 0), and DAWA's partition step."""
    n = xb.size
    workload = RangeQueries.from_ranges(n, [(i, j) for i in range(n) for j in range(i, n)])
    pair = (records_of(xb), records_of(xb2))
    note = "x = (3,1,4,1,5,9,2,6) vs x + e_0 (add-remove); statistic: output bin 0"
    funcs = {
        "identity": (ranges.identity, {}, None, eps),
        "least_squares": (ranges.least_squares, {"queries": workload}, 400_000, math.nan),
        "hb": (ranges.hb, {}, 400_000, math.nan),
        "privelet": (ranges.privelet, {}, 400_000, math.nan),
    }
    out = []
    for method, (func, kw, cap, true_eps) in funcs.items():
        out.append(
            AuditSpec(
                f"{method} (core range mechanism)",
                CHAPTER,
                "core",
                ranges.range_claim(method, eps),
                pair,
                sample=lambda d, m, g, f=func, k=kw: f(_hist(d, n), eps, g, size=m, **k)[:, 0],
                true_epsilon=true_eps,
                max_samples=cap,
                note=note + ("; strategy: all 36 ranges" if kw else ""),
            )
        )
    out.append(
        AuditSpec(
            "dawa (core range mechanism)",
            CHAPTER,
            "core",
            dawa_mod.dawa_claim(eps),
            pair,
            sample=lambda d, m, g: dawa_mod.dawa(_hist(d, n), eps, g, workload=workload, size=m)[
                :, 0
            ],
            max_samples=20_000,
            note=note
            + "; workload: all 36 ranges; the per-partition least squares is slow, few samples",
        )
    )
    # DAWA's partition step alone, as DPBench's code runs it and corrected: eps = 2, ratio 1/2 (eps1 = 1); the
    # record joins the empty cell 3 of (2,2,2,0,2,2,2,2), which lowers every bucket cost that contains it
    xp = np.array([2, 2, 2, 0, 2, 2, 2, 2])
    xp2 = xp.copy()
    xp2[3] += 1
    codes = 2 ** np.arange(xp.size)
    names = {
        "proved": "repaired",
        "authors": "DPBench",
        "noisy-histogram": "on a noisy histogram",
    }
    for calibration, expected in (
        ("proved", "holds"),
        ("authors", "violated"),
        ("noisy-histogram", "holds"),
    ):
        base = dawa_mod.dawa_claim(2.0, ratio=0.5, calibration=calibration)
        claim = dataclasses.replace(base, mechanism=f"{base.mechanism}: partition", epsilon=1.0)
        out.append(
            AuditSpec(
                f"dawa: private partition ({names[calibration]})",
                CHAPTER,
                "as-written" if calibration == "authors" else "private",
                claim,
                (records_of(xp), records_of(xp2)),
                sample=lambda d, m, g, c=calibration: (
                    dawa_mod.dawa_partition(
                        _hist(d, xp.size), 2.0, g, ratio=0.5, calibration=c, size=m
                    )
                    @ codes
                ).astype(float),
                events=value_events([91.0, 93.0, 255.0]),
                expected=expected,
                max_samples=400_000,
                note="partition step only, eps1 = 1; x = (2,2,2,0,2,2,2,2) vs x + e_3; events: three partitions "
                "(bucket starts as bits); DPBench's calibration clamps the noisy costs and leaves single cells "
                "noiseless",
            )
        )
    return out
