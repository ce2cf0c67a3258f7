"""Catalogue adapters for the other chapters' mechanisms (part of :mod:`dpcompendium.audit.catalog`).

Each builder returns the :class:`~dpcompendium.audit.catalog.CatalogEntry` list of one chapter, using only that
chapter's public functions and its own ``privacy_claim``. The neighbouring pair of each entry is chosen to expose the
worst case the chapter's analysis identifies (stated in the entry's ``note``).
"""

from __future__ import annotations

import dataclasses
import itertools
import math

import numpy as np

from ..privacy import PrivacyClaim
from .catalog import CatalogEntry, empirical_runner, exact_runner, grr_distributions, value_events
from .exact import gaussian_epsilon

#: chapter id → (module it needs, builder function name in this module).
BUILDERS: dict[str, tuple[str, str]] = {
    "dp-mean": ("dpcompendium.mean", "dp_mean_entries"),
    "mwem": ("dpcompendium.mwem", "mwem_entries"),
    "histograms": ("dpcompendium.histograms", "histogram_entries"),
    "federated-pca": ("dpcompendium.pca", "pca_entries"),
    "hiera": ("dpcompendium.ldp", "ldp_entries"),
}


# ---------------------------------------------------------------------------------------------- dp-mean
def dp_mean_entries() -> list[CatalogEntry]:
    """The four averages of the source [src_dpmean], as written and corrected, on their worst-case pairs."""
    from .. import mean as dm

    lo, hi = dm.HEIGHT_BOUNDS
    bounds = (lo, hi)
    eps = 1.0
    out: list[CatalogEntry] = []

    def pair(func, da, db, e, **kw):
        return (
            lambda n, g: func(da, e, bounds, g, size=n, **kw),
            lambda n, g: func(db, e, bounds, g, size=n, **kw),
        )

    # 1. composition, add-remove: D = {} vs D' = {b} (the sum moves by max(|a|, |b|) = b).
    empty, one_b = np.array([]), np.array([hi])
    for variant in ("as-written", "corrected"):
        claim = dm.privacy_claim("composition", eps, bounds, variant)
        true = dm.composition_epsilon(eps, bounds, variant, "add-remove")
        sa, sb = pair(dm.noisy_average_composition, empty, one_b, e=eps, variant=variant)
        out.append(
            CatalogEntry(
                f"composition ({variant})",
                "dp-mean",
                "as-written" if variant == "as-written" else "private",
                claim,
                empirical_runner(sa, sb, claim, f"composition {variant}"),
                expected="holds" if claim.private else "violated",
                true_epsilon=true,
                note="add-remove, heights in [140, 200]: D = {} vs D' = {200}",
            )
        )
    # 2. resampling, replace-one: D = (a,…,a) vs D' = (a,…,a,b), n = 10; the loss is largest at y = a.
    n_rec = 10
    d_a = np.full(n_rec, lo)
    d_b = d_a.copy()
    d_b[-1] = hi
    for variant in ("as-written", "corrected"):
        claim = dm.privacy_claim("resampling", eps, bounds, variant)
        sa, sb = pair(dm.noisy_average_resampling, d_a, d_b, e=eps, variant=variant)
        out.append(
            CatalogEntry(
                f"resampling ({variant})",
                "dp-mean",
                "as-written" if variant == "as-written" else "private",
                claim,
                empirical_runner(sa, sb, claim, f"resampling {variant}"),
                expected="holds" if claim.private else "violated",
                true_epsilon=dm.resampling_pair_loss(n_rec, eps, bounds, variant),
                note=f"replace-one, n = {n_rec}: D = (140,...,140) vs D' = (140,...,140,200); true_epsilon = pair loss",
            )
        )
    # 3. clamped: replace-one (private) on the same pair; add-remove (not private for eps < ln φ) on {a} vs {a, a}.
    claim = dm.privacy_claim("clamped", eps, bounds)
    sa, sb = pair(dm.noisy_average_clamped, d_a, d_b, eps)
    out.append(
        CatalogEntry(
            "clamped (replace-one)",
            "dp-mean",
            "private",
            claim,
            empirical_runner(sa, sb, claim, "clamped replace-one"),
            true_epsilon=eps,
            note=f"replace-one, n = {n_rec}: D = (140,...,140) vs D' = (140,...,140,200)",
        )
    )
    eps_ = 0.25
    claim = dm.privacy_claim("clamped", eps_, bounds, neighbours="add-remove")
    sa, sb = pair(dm.noisy_average_clamped, np.array([lo]), np.array([lo, lo]), eps_)
    out.append(
        CatalogEntry(
            "clamped (add-remove)",
            "dp-mean",
            "as-written",
            claim,
            empirical_runner(sa, sb, claim, "clamped add-remove"),
            expected="violated",
            true_epsilon=max(math.log(2.0), eps_),
            note="add-remove, eps = 0.25: D = {140} vs D' = {140, 140}; the noise scale halves, so the density "
            "ratio just above a tends to 2: pair loss max(ln 2, eps)",
        )
    )
    # 4. normalized, add-remove: D = {} vs D' = {b}.
    for variant in ("as-written", "corrected"):
        claim = dm.privacy_claim("normalized", eps, bounds, variant)
        sa, sb = pair(dm.noisy_average_normalized, empty, one_b, e=eps, variant=variant)
        out.append(
            CatalogEntry(
                f"normalized ({variant})",
                "dp-mean",
                "as-written" if variant == "as-written" else "private",
                claim,
                empirical_runner(sa, sb, claim, f"normalized {variant}"),
                true_epsilon=0.75 * eps if variant == "as-written" else eps,
                note="add-remove: D = {} vs D' = {200}",
            )
        )
    return out


# ------------------------------------------------------------------------------------------------- mwem
def mwem_entries() -> list[CatalogEntry]:
    """MWEM's two private steps [hardt2012simple, src_mwem], standard and coursework, 1-D and 2-D.

    Claims: the chapter's ``privacy_claim`` (its ``private`` flag and its why), with ε replaced by the step's
    per-round share.

    Selection: the exact first-round law (:func:`dpcompendium.mwem.first_round_probabilities`) on neighbouring
    histograms, claimed ε/(2T) per round. Measurement: a one-query workload, so that ``mwem(..., T=1)`` selects it
    surely and its recorded measurement is q(B) + Lap(2T/(ε·d)) alone (T = 1, as the coursework's redraw loop needs
    T ≤ number of queries); claimed ε/(2T) per round (replace-one: one
    record moves into the query's box).
    """
    from .. import mwem as mw

    eps, T = 1.0, 10
    out: list[CatalogEntry] = []
    for ndim in (1, 2):
        shape = (8,) if ndim == 1 else (4, 4)
        hist = np.arange(1.0, 1.0 + np.prod(shape)).reshape(shape)
        moved = hist.copy().ravel()
        moved[0] += 1.0  # replace-one: a record moves from the last cell to the first
        moved[-1] -= 1.0
        moved = moved.reshape(shape)
        rng_q = np.random.default_rng(7)  # a fixed public workload
        queries = mw.random_range_queries(shape, 20, rng_q)
        for variant in ("standard", "coursework"):
            dist = np.vstack(
                [
                    mw.first_round_probabilities(hist, queries, eps, T, variant),
                    mw.first_round_probabilities(moved, queries, eps, T, variant),
                ]
            )
            step = eps / (2 * T)
            claim = dataclasses.replace(
                mw.privacy_claim(eps, T, variant, ndim),
                mechanism=f"MWEM selection ({variant}, {ndim}-D)",
                sensitivity="score |q(A) - q(B)|: 1",
                epsilon=step,
            )
            out.append(
                CatalogEntry(
                    f"MWEM selection, {variant}, {ndim}-D",
                    "mwem",
                    "private" if variant == "standard" else "as-written",
                    claim,
                    exact_runner(dist, claim, "mwem selection", pairs=[(0, 1)]),
                    note=f"first round, eps = {eps:g}, T = {T}: claim eps/(2T) per round; 20 random boxes",
                )
            )
        one_box = mw.RangeQueries(
            shape, np.zeros((1, ndim), dtype=np.int64), np.zeros((1, ndim), dtype=np.int64)
        )
        for variant in ("standard", "coursework"):
            step = eps / 2.0  # T = 1 (the coursework needs T <= number of queries = 1)
            claim = dataclasses.replace(
                mw.privacy_claim(eps, 1, variant, ndim),
                mechanism=f"MWEM measurement ({variant}, {ndim}-D)",
                sensitivity="range count: 1",
                epsilon=step,
            )
            divisor = ndim if variant == "coursework" else 1
            true = step * divisor

            def sampler(h, v=variant, q=one_box):
                return lambda n, g: mw.mwem(
                    h, q, eps, 1, variant=v, passes=1, reps=n, rng=g
                ).measurements[:, 0]

            out.append(
                CatalogEntry(
                    f"MWEM measurement, {variant}, {ndim}-D",
                    "mwem",
                    "private" if variant == "standard" else "as-written",
                    claim,
                    empirical_runner(sampler(hist), sampler(moved), claim, "mwem measurement"),
                    expected="violated" if true > step * (1 + 1e-12) else "holds",
                    true_epsilon=true,
                    max_samples=300_000,
                    note=f"T = 1, eps = {eps:g}, one box: Lap(2T/(eps*{divisor})) on a count of sensitivity 1, "
                    "claim eps/(2T)",
                )
            )
    return out


# ------------------------------------------------------------------------------------------- histograms
def histogram_entries() -> list[CatalogEntry]:
    """The patent's sampling-grouping method [src_histograms], step by step, as written and private.

    Centre selection (k-means++ seeding) and the noisy group means are audited through
    :func:`dpcompendium.histograms.sampling_grouping` (``return_groups=True`` exposes the centres; ``k=1`` isolates
    the group mean); the exponential-mechanism grouping exactly, with
    :func:`dpcompendium.histograms.grouping_log_probability` over every labelling. The baselines (Identity,
    Uniform, hierarchical, AHP, P-HP) are audited end to end on the bin that gains the record (a weak statistic
    for the tree and clustering methods, so their bounds sit well below ε). Neighbours: add-remove.
    """
    from .. import histograms as hg

    eps = 1.0
    e0, e1 = 0.2 * eps, 0.4 * eps  # the module's default centre_share and eps1_share
    out: list[CatalogEntry] = []
    # 1. Centre selection, k = 2: x = (0, 0, 5, 5) vs x' = (0, 1, 5, 5).
    x, x2 = np.array([0.0, 0.0, 5.0, 5.0]), np.array([0.0, 1.0, 5.0, 5.0])
    pairs = [int(i * 4 + j) for i in range(4) for j in range(4) if i != j]
    for variant in ("as-written", "private"):
        base = hg.privacy_claim("sampling_grouping", eps, variant)
        step = eps if variant == "as-written" else e0
        claim = dataclasses.replace(
            base, mechanism=f"{base.mechanism}: centre selection", epsilon=step
        )

        def sampler(h, v=variant):
            def draw(n, g):
                centres = hg.sampling_grouping(
                    h, eps, g, k=2, variant=v, size=n, return_groups=True
                )[2]
                return centres[:, 0] * 4 + centres[:, 1]

            return draw

        out.append(
            CatalogEntry(
                f"sampling grouping: centre selection ({variant})",
                "histograms",
                variant,
                claim,
                empirical_runner(
                    sampler(x), sampler(x2), claim, "centre selection", events=value_events(pairs)
                ),
                expected="violated" if variant == "as-written" else "holds",
                true_epsilon=math.inf if variant == "as-written" else math.nan,
                max_samples=200_000,
                note="k = 2, x = (0,0,5,5) vs (0,1,5,5): centres (0, 1) impossible on x; as-written claim = the "
                "whole budget eps (generous), private claim eps0 = 0.2 eps",
            )
        )
    # 2. Exponential-mechanism grouping, exact over all 2^8 labellings of 10 bins with centres (0, 1).
    xs = np.array([0.0, 10.0, 9.0, 10.0, 8.0, 10.0, 9.0, 9.0, 10.0, 8.0])
    centres = np.array([0, 1])
    labellings = [
        np.array([0, 1, *rest]) for rest in itertools.product(range(2), repeat=xs.size - 2)
    ]
    for variant in ("as-written", "private"):
        if (
            variant == "as-written"
        ):  # one record added to centre bin 0: its true count enters every score
            xs2 = xs.copy()
            xs2[0] += 1.0
            cv, cv2 = xs[centres], xs2[centres]
            note = "x = (0,10,9,10,8,10,9,9,10,8), centres bins 0, 1, x' = x + e_0: true centre count in all 8 scores"
        else:  # centre values are noisy (fixed by the earlier step); one record moves one bin's own score
            xs2 = xs.copy()
            xs2[2] += 1.0
            cv = cv2 = np.array([0.3, 9.6])
            note = "noisy centre values (0.3, 9.6) fixed, x' = x + e_2: one draw changes"
        logp = np.array(
            [
                [hg.grouping_log_probability(h, centres, c, lab, e1) for lab in labellings]
                for h, c in ((xs, cv), (xs2, cv2))
            ]
        )
        dist = np.exp(logp)
        base = hg.privacy_claim("sampling_grouping", eps, variant)
        claim = dataclasses.replace(base, mechanism=f"{base.mechanism}: grouping", epsilon=e1)
        out.append(
            CatalogEntry(
                f"sampling grouping: exponential-mechanism grouping ({variant})",
                "histograms",
                variant,
                claim,
                exact_runner(
                    dist / dist.sum(axis=1, keepdims=True), claim, "grouping", pairs=[(0, 1)]
                ),
                expected="violated" if variant == "as-written" else "holds",
                note=note + f"; claim eps1 = {e1:g}",
            )
        )
    # 3. Noisy group mean: k = 1 (one group, data-independent centre, no grouping draw) isolates the mean.
    xm = np.array([3.0, 1.0, 4.0, 1.0, 5.0])
    xm2 = xm.copy()
    xm2[0] += 1.0
    for variant in ("as-written", "private"):
        e2 = eps - e1 - (e0 if variant == "private" else 0.0)
        base = hg.privacy_claim("sampling_grouping", eps, variant)
        claim = dataclasses.replace(
            base, mechanism=f"{base.mechanism}: noisy group mean", epsilon=e2
        )
        true = e2 if variant == "private" else e2 / xm.size

        def sampler(h, v=variant):
            return lambda n, g: hg.sampling_grouping(h, eps, g, k=1, variant=v, size=n)[:, 0]

        out.append(
            CatalogEntry(
                f"sampling grouping: noisy group mean ({variant})",
                "histograms",
                variant,
                claim,
                empirical_runner(sampler(xm), sampler(xm2), claim, "group mean"),
                true_epsilon=true,
                max_samples=400_000,
                note=f"one group of m = {xm.size} bins; mean sensitivity 1/m; as written Lap(1/eps2) "
                "over-noises (eps2/m), private Lap(1/(m eps2))",
            )
        )
    # 4. The baselines, end to end; statistic: the bin that gains the record.
    xb = np.array([3.0, 1.0, 4.0, 1.0, 5.0, 9.0, 2.0, 6.0])
    xb2 = xb.copy()
    xb2[0] += 1.0
    caps = {
        "identity": None,
        "uniform": None,
        "hierarchical": 400_000,
        "ahp": 50_000,
        "php": 50_000,
    }
    for method, cap in caps.items():
        func = getattr(hg, method)
        claim = hg.privacy_claim(method, eps)
        out.append(
            CatalogEntry(
                f"{method} (baseline)",
                "histograms",
                "private",
                claim,
                empirical_runner(
                    lambda n, g, f=func: f(xb, eps, g, size=n)[:, 0],
                    lambda n, g, f=func: f(xb2, eps, g, size=n)[:, 0],
                    claim,
                    method,
                ),
                true_epsilon=eps if method == "identity" else math.nan,
                max_samples=cap,
                note="x = (3,1,4,1,5,9,2,6) vs x + e_0 (add-remove); statistic: output bin 0",
            )
        )
    return out


# ---------------------------------------------------------------------------------------- federated PCA
def pca_entries() -> list[CatalogEntry]:
    """The Gaussian steps of the federated-PCA chapter [src_fedpca] audited at the claimed δ.

    The noisy matrix A + E is built from the chapter's public pieces (``noise_scale``, ``symmetric_gaussian``,
    ``SiteData``, ``encode``/``decode``); the statistic is the entry that the neighbour changes (x = e₁ adds 1/n to
    A[0, 0]), the optimal test for Gaussian noise. Only that entry's noise is drawn (``symmetric_gaussian(1, …)``:
    every upper-triangle entry is iid N(0, τ²), so its law is the same). The shared-seed protocol is audited from the view of a seed holder
    (:func:`dpcompendium.pca.seed_attack`).
    """
    from .. import pca

    eps, delta, d = 0.5, 1e-5, 3
    n_rows, s = 200, 4
    rng_data = np.random.default_rng(11)  # fixed public-to-the-auditor data
    x = rng_data.normal(size=(n_rows, d))
    x = pca.normalize_rows(x) * 0.9
    labels = np.arange(n_rows) % s
    sites = pca.SiteData.from_labels(x, labels, s)
    # Add-remove with n public (the chapter's convention, Δ = 1/n): site 0 gains the row x = e₁.
    scatters2 = sites.scatters.copy()
    scatters2[0, 0, 0] += 1.0
    sites2 = pca.SiteData(scatters2, sites.sizes)
    out: list[CatalogEntry] = []
    tau = pca.noise_scale(eps, delta, n_rows)
    sens = pca.sensitivity(n_rows)

    def central(sd):
        a = sd.second_moment
        return lambda n, g: a[0, 0] + pca.symmetric_gaussian(1, tau, g, size=(n,))[:, 0, 0]

    claim = pca.privacy_claim("central", eps, delta, n_rows)
    out.append(
        CatalogEntry(
            "Analyze Gauss: noisy second-moment matrix",
            "federated-pca",
            "private",
            claim,
            empirical_runner(central(sites), central(sites2), claim, "analyze gauss"),
            true_epsilon=gaussian_epsilon(tau, sens, delta),
            note=f"n = {n_rows} (public), add-remove x = e_1 at site 0: A[0,0] moves by 1/n; statistic A[0,0]",
        )
    )

    def secure(sd):
        local = sd.scatters / sd.n

        def draw(n, g):
            shares = (
                local[None, :, 0, 0]
                + pca.symmetric_gaussian(1, tau / np.sqrt(s), g, size=(n, s))[..., 0, 0]
            )
            return pca.decode(pca.encode(shares).sum(axis=1, dtype=np.uint64))

        return draw

    claim = pca.privacy_claim("secure-aggregation", eps, delta, n_rows, s=s)
    out.append(
        CatalogEntry(
            "secure aggregation: sum of N(0, tau^2/s) shares",
            "federated-pca",
            "private",
            claim,
            empirical_runner(secure(sites), secure(sites2), claim, "secure aggregation"),
            true_epsilon=gaussian_epsilon(tau, sens, delta),
            note=f"s = {s} sites, fixed-point encode/decode as in federated_pca; statistic A[0,0]",
        )
    )
    n0 = int(sites.sizes[0])
    tau0 = pca.noise_scale(eps, delta, n0)

    def local_site(sd):
        a0 = sd.scatters[0, 0, 0] / n0
        return lambda n, g: a0 + pca.symmetric_gaussian(1, tau0, g, size=(n,))[:, 0, 0]

    claim = pca.privacy_claim("dpdispca", eps, delta, n_rows, s=s)
    out.append(
        CatalogEntry(
            "DPdisPCA: one site's noisy local matrix",
            "federated-pca",
            "private",
            claim,
            empirical_runner(local_site(sites), local_site(sites2), claim, "dpdispca site"),
            true_epsilon=gaussian_epsilon(tau0, 1.0 / n0, delta),
            note=f"site 0 (N_0 = {n0}, tau_0 for 1/N_0); statistic A_0[0,0]",
        )
    )

    def seed_holder(sd):
        def draw(n, g):
            seeds = g.integers(0, 2**63 - 1, size=n)
            return np.array(
                [
                    pca.seed_attack(
                        pca.shared_seed_protocol(sd.scatters, sd.n, eps, delta, int(z)), 0
                    )[0, 0]
                    for z in seeds
                ]
            )

        return draw

    base = pca.privacy_claim("shared-seed", eps, delta, n_rows, s=s)
    out.append(
        CatalogEntry(
            "ELFedPCA shared seed: a seed holder's view of site 0",
            "federated-pca",
            "as-written",
            base,
            empirical_runner(seed_holder(sites), seed_holder(sites2), base, "shared seed"),
            expected="violated",
            true_epsilon=math.inf,
            max_samples=5_000,
            note="seed_attack recovers A_0 exactly: the two neighbours' views never overlap",
        )
    )
    return out


# ----------------------------------------------------------------------------------------------- hiera
def ldp_entries() -> list[CatalogEntry]:
    """The local mechanisms of the HierA chapter [src_hiera]: Duchi, Harmony, PM, Hybrid, graded Laplace, LHP.

    Worst-case inputs are the domain ends −1 and +1 (or, for LHP, every level's interval ends). Duchi and LHP are
    audited exactly from their output laws, the others empirically from the chapter's samplers.
    """
    from .. import ldp

    eps = 1.0
    out: list[CatalogEntry] = []
    # Duchi's output law from the chapter's exact LHP law: two levels with equal budgets, levels marginalized out
    # (then P(v* = b | t) = (1 + b t tanh(eps/2))/2 whatever the level), at the worst inputs t = -1, +1.
    duchi_law = ldp.lhp_output_probabilities(np.array([-1.0, 1.0]), [eps, eps], edges=[0.0]).sum(
        axis=-2
    )
    claim = ldp.numeric_claim("duchi", eps)
    out.append(
        CatalogEntry(
            "Duchi (binary output), exact",
            "hiera",
            "private",
            claim,
            exact_runner(duchi_law, claim, "duchi", outputs=["+C", "-C"]),
            true_epsilon=eps,
            note="law from lhp_output_probabilities with one budget for both levels, summed over levels; t = -1, +1",
        )
    )
    C = float(ldp.numeric.duchi_constant(eps))
    out.append(
        CatalogEntry(
            "Duchi sampler",
            "hiera",
            "private",
            claim,
            empirical_runner(
                lambda n, g: ldp.duchi_privatise(np.full(n, -1.0), eps, g),
                lambda n, g: ldp.duchi_privatise(np.full(n, 1.0), eps, g),
                claim,
                "duchi sampler",
                events=value_events([-C, C]),
            ),
            true_epsilon=eps,
            note="duchi_privatise at t = -1 vs +1",
        )
    )
    d = 3
    claim = ldp.numeric_claim("harmony", eps)

    def harmony(t):
        def draw(n, g):
            r = ldp.harmony_privatise(np.full((n, d), t), eps, g)
            j = np.argmax(r != 0, axis=1)
            return 2 * j + (r[np.arange(n), j] > 0)

        return draw

    out.append(
        CatalogEntry(
            f"Harmony (d = {d}) sampler",
            "hiera",
            "private",
            claim,
            empirical_runner(
                harmony(-1.0), harmony(1.0), claim, "harmony", events=value_events(range(2 * d))
            ),
            true_epsilon=eps,
            note="inputs (-1,-1,-1) vs (1,1,1); output coded as (coordinate, sign)",
        )
    )
    for method, func in (("pm", ldp.pm_privatise), ("hybrid", ldp.hybrid_privatise)):
        claim = ldp.numeric_claim(method, eps)
        out.append(
            CatalogEntry(
                f"{'PM' if method == 'pm' else 'Hybrid'} sampler",
                "hiera",
                "private",
                claim,
                empirical_runner(
                    lambda n, g, f=func: f(np.full(n, -1.0), eps, g),
                    lambda n, g, f=func: f(np.full(n, 1.0), eps, g),
                    claim,
                    method,
                ),
                true_epsilon=eps,
                note="inputs -1 vs +1",
            )
        )
    sched = ldp.schedule(0.5)  # the source's {5e, 4e, 3e, 2e, e} with e = 0.5
    for variant in ("as-written", "private"):
        claim = ldp.numeric_claim("graded-laplace", eps, epsilons=sched, variant=variant)
        out.append(
            CatalogEntry(
                f"graded Laplace ({variant})",
                "hiera",
                variant,
                claim,
                empirical_runner(
                    lambda n, g, v=variant: ldp.graded_laplace_privatise(
                        np.full(n, -1.0), sched, g, variant=v
                    ),
                    lambda n, g, v=variant: ldp.graded_laplace_privatise(
                        np.full(n, 1.0), sched, g, variant=v
                    ),
                    claim,
                    "graded laplace",
                ),
                expected="violated" if variant == "as-written" else "holds",
                true_epsilon=math.inf if variant == "as-written" else float(sched.min()),
                note="schedule 0.5 x (5,4,3,2,1); inputs -1 (level 1, eps 2.5) vs +1 (level 5, eps 0.5)",
            )
        )
    # LHP, exact from its discrete output law at every level's interval ends (closures).
    edges = np.asarray(ldp.DEFAULT_EDGES)
    bounds = ldp.level_bounds(edges)
    ends = np.concatenate([bounds[:, 0], np.nextafter(bounds[:-1, 1], -np.inf), bounds[-1:, 1]])
    probs = ldp.lhp_output_probabilities(ends, sched).reshape(ends.size, -1)
    labels = [
        f"(level {s_ + 1}, {'+1' if b == 0 else '-1'})" for s_ in range(sched.size) for b in (0, 1)
    ]
    top = sched.size - 1
    level_idx = [i for i, v in enumerate(ends) if ldp.level_of(np.array([v]), edges)[0] == top]
    pairs_top = [(i, j) for i in level_idx for j in range(ends.size) if j != i]
    pairs_top += [(j, i) for i, j in pairs_top]
    claim = ldp.hiera_claim(sched, level=top)
    out.append(
        CatalogEntry(
            "LHP, most sensitive level (as the source implies)",
            "hiera",
            "as-written",
            claim,
            exact_runner(probs, claim, "lhp level", pairs=pairs_top, outputs=labels),
            expected="violated",
            true_epsilon=float(
                np.maximum(*(lambda m: (m, m.T))(ldp.lhp_pair_epsilons(sched)))[top].max()
            ),
            note="claim eps_5 = 0.5 for level-5 values against any other value; exact over level ends",
        )
    )
    claim = ldp.hiera_claim(sched)
    out.append(
        CatalogEntry(
            "LHP, whole mechanism (exact claim)",
            "hiera",
            "private",
            claim,
            exact_runner(probs, claim, "lhp", outputs=labels),
            true_epsilon=ldp.lhp_exact_epsilon(sched),
            note="claim = lhp_exact_epsilon; audited over all pairs of level ends",
        )
    )
    k = sched.size
    p, q = ldp.grr_probabilities(k, float(sched.max()))
    claim = PrivacyClaim(f"GRR on levels, k={k}", "local", "any two levels", float(sched.max()))
    out.append(
        CatalogEntry(
            f"GRR on the {k} levels (eps_1 = {sched.max():g})",
            "hiera",
            "private",
            claim,
            exact_runner(grr_distributions(p, q, k), claim, "grr levels"),
            true_epsilon=float(sched.max()),
        )
    )
    return out
