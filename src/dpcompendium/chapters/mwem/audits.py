"""How the audit chapter audits MWEM's two private steps [hardt2012simple, src_mwem].

Raw datasets: records are cell indices of the (flattened) domain; the pipeline builds the histogram from them. The
neighbouring pair is replace-one (n public, as MWEM's uniform start n·uniform needs): one record moves from the last
cell to the first. Claims: the chapter's ``privacy_claim`` (its ``private`` flag, why and conditions), with ε
replaced by the step's per-round share.

Selection: the exact first-round law (:func:`first_round_probabilities`), claimed ε/(2T) per round. Measurement: a
one-query workload, so that ``mwem(..., T=1)`` selects it surely and its recorded measurement is q(B) + Lap(2T/(ε·d))
alone (T = 1, as the coursework's re-drawing loop needs T ≤ number of queries); claimed ε/(2T) per round.

The ``zcdp`` variant (Gaussian measurements accounted in zCDP, :mod:`.zcdp`), at ε = 1, δ = 1e-5: its selection is an
exponential mechanism at ε₀ = 2√(ρ/T), claimed ε₀-DP per round (the pure-DP fact behind its ε₀²/8-zCDP); its
measurement adds N(0, σ²) to a count of sensitivity 1, i.e. ρ/(2T) = 1/(2σ²)-zCDP, claimed as the
(ρ/(2T) + 2√(ρ/(2T)·ln(1/δ)), δ)-DP the conversion gives (true ε: the exact Gaussian profile at δ).
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np

from ...core.accounting import gaussian_rho
from ...core.audit.spec import AuditSpec
from ...core.experiments import RangeQueries
from ...core.mechanisms.gaussian import gaussian_epsilon
from ..registry import chapter_id
from .core import first_round_probabilities, mwem, privacy_claim
from .queries import random_range_queries
from .zcdp import dp_epsilon, mwem_zcdp_parameters

#: this chapter's id (from its manifest)
CHAPTER = chapter_id(__name__)

__all__ = [
    "AIM_DELTA",
    "aim_audit_specs",
    "audit_specs",
    "gaussian_audit_specs",
    "gaussian_identity_audit_specs",
    "gaussian_ls_audit_specs",
]

#: The δ of AIM's audit rows and of its Gaussian baselines': the chapter's (referee 12, #10).
AIM_DELTA = 1e-7


def _histogram(records: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    idx = np.asarray(records, dtype=np.int64).ravel()
    return np.bincount(idx, minlength=int(np.prod(shape))).astype(float).reshape(shape)


def _moved_pair(shape: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
    """The neighbours the audits here compare: the histogram 1, 2, ..., cells of ``shape`` as records (cell-major),
    and the same with one record moved from the last cell to the first (replace-one)."""
    cells = int(np.prod(shape))
    records = np.repeat(np.arange(cells), np.arange(1, 1 + cells))
    moved = records.copy()
    moved[-1] = 0
    return records, moved


def _first_minus_last_spec(
    mechanism: str, claim, sample, *, note: str, sd: float | None = None, delta: float = 0.0
) -> AuditSpec:
    """A private 1-D row on :func:`_moved_pair` of 8 cells whose statistic (``sample``) is the noisy first cell
    minus the noisy last cell of the release, at most 300 000 samples; with ``sd``, the noise's standard deviation
    per cell, the true ε is the exact Gaussian profile of a change of 2 against noise √2·sd at ``delta``."""
    true = math.nan if sd is None else gaussian_epsilon(sd, np.sqrt(2.0), delta)
    return AuditSpec(
        mechanism,
        CHAPTER,
        "private",
        claim,
        _moved_pair((8,)),
        sample=sample,
        true_epsilon=true,
        max_samples=300_000,
        note=note,
    )


def audit_specs() -> list[AuditSpec]:
    eps, T = 1.0, 10
    out: list[AuditSpec] = []
    for ndim in (1, 2):
        shape = (8,) if ndim == 1 else (4, 4)
        records, moved = _moved_pair(shape)
        queries = random_range_queries(
            shape, 20, np.random.default_rng(7)
        )  # a fixed public workload
        for variant in ("standard", "coursework"):
            step = eps / (2 * T)
            claim = dataclasses.replace(
                privacy_claim(eps, T, variant, ndim),
                mechanism=f"MWEM selection ({variant}, {ndim}-D)",
                sensitivity="score |q(A) - q(B)|: 1",
                epsilon=step,
            )
            out.append(
                AuditSpec(
                    f"MWEM selection, {variant}, {ndim}-D",
                    CHAPTER,
                    "private" if variant == "standard" else "as-written",
                    claim,
                    (records, moved),
                    distribution=lambda d, v=variant, s=shape, q=queries: first_round_probabilities(
                        _histogram(d, s), q, eps, T, v
                    ),
                    note=f"first round, eps = {eps:g}, T = {T}: claim eps/(2T) per round; 20 random boxes; "
                    "records moved from the last cell to the first",
                )
            )
        one_box = RangeQueries(
            shape, np.zeros((1, ndim), dtype=np.int64), np.zeros((1, ndim), dtype=np.int64)
        )
        for variant in ("standard", "coursework"):
            step = eps / 2.0  # T = 1 (the coursework needs T <= number of queries = 1)
            claim = dataclasses.replace(
                privacy_claim(eps, 1, variant, ndim),
                mechanism=f"MWEM measurement ({variant}, {ndim}-D)",
                sensitivity="range count: 1",
                epsilon=step,
            )
            divisor = ndim if variant == "coursework" else 1
            true = step * divisor
            out.append(
                AuditSpec(
                    f"MWEM measurement, {variant}, {ndim}-D",
                    CHAPTER,
                    "private" if variant == "standard" else "as-written",
                    claim,
                    (records, moved),
                    sample=lambda d, n, g, v=variant, s=shape, q=one_box: mwem(
                        _histogram(d, s), q, eps, 1, variant=v, passes=1, reps=n, rng=g
                    ).measurements[:, 0],
                    expected="violated" if true > step * (1 + 1e-12) else "holds",
                    true_epsilon=true,
                    max_samples=300_000,
                    note=f"T = 1, eps = {eps:g}, one box: Lap(2T/(eps*{divisor})) on a count of sensitivity 1, "
                    "claim eps/(2T)",
                )
            )
        out += _zcdp_specs(ndim, shape, records, moved, queries, one_box)
    return out


def _zcdp_specs(ndim, shape, records, moved, queries, one_box) -> list[AuditSpec]:
    """The zcdp variant's two steps, at ε = 1, δ = 1e-5 (see the module)."""
    eps, delta, T = 1.0, 1e-5, 10
    base = privacy_claim(eps, T, "zcdp", ndim, delta=delta)
    eps0 = mwem_zcdp_parameters(eps, delta, T)["epsilon0"]
    sel_claim = dataclasses.replace(
        base,
        mechanism=f"MWEM selection (zcdp, {ndim}-D)",
        sensitivity="score |q(A) - q(B)|: 1",
        epsilon=eps0,
        delta=0.0,
    )
    sigma = mwem_zcdp_parameters(eps, delta, 1)["sigma"]  # T = 1: one measurement
    rho_m = gaussian_rho(sigma)
    meas_claim = dataclasses.replace(
        base,
        mechanism=f"MWEM measurement (zcdp, {ndim}-D)",
        sensitivity="range count: 1 (L2)",
        epsilon=dp_epsilon(rho_m, delta),
        delta=delta,
    )
    return [
        AuditSpec(
            f"MWEM selection, zcdp, {ndim}-D",
            CHAPTER,
            "private",
            sel_claim,
            (records, moved),
            distribution=lambda d, s=shape, q=queries: first_round_probabilities(
                _histogram(d, s), q, eps, T, "zcdp", delta=delta
            ),
            note=f"first round, eps = {eps:g}, delta = {delta:g}, T = {T}: exponential mechanism at "
            f"eps0 = 2 sqrt(rho/T) = {eps0:.4g} per round; 20 random boxes",
        ),
        AuditSpec(
            f"MWEM measurement, zcdp, {ndim}-D",
            CHAPTER,
            "private",
            meas_claim,
            (records, moved),
            sample=lambda d, n, g, s=shape, q=one_box: mwem(
                _histogram(d, s), q, eps, 1, variant="zcdp", delta=delta, passes=1, reps=n, rng=g
            ).measurements[:, 0],
            true_epsilon=gaussian_epsilon(sigma, 1.0, delta),
            max_samples=300_000,
            note=f"T = 1, eps = {eps:g}, delta = {delta:g}, one box: N(0, sigma^2), sigma = sqrt(T/rho) = "
            f"{sigma:.4g}, on a count of sensitivity 1: rho/2 = {rho_m:.4g}-zCDP, claimed as its (eps, delta) "
            "conversion",
        ),
    ]


def aim_audit_specs() -> list[AuditSpec]:
    """AIM's release is its measurements and its selections (the estimate is post-processing of them,
    ``mckenna2019graphical``); audited at ε = 1, replace-one: (1) the initialisation's noisy one-way marginal
    (:func:`~.pgm.initial_measurements`, the code :func:`~.pgm.aim` runs), 1-D, T = 16, δ = 1e-5 (a record moves from the last cell to the first). The statistic is the noisy
    first cell minus the noisy last cell, the projection on the direction the pair moves the marginal
    (post-processing, so the claim of the measurement holds for it): a change of 2 against noise of standard deviation
    √2·Δ₂σ₀, which the exact Gaussian profile at Δ₂ = √2 gives. Claimed: the measurement's 1/(2σ₀²)-zCDP as its
    (ε, δ) conversion. (2) The first selection in 2-D at the chapter's T = 32 and δ = 1e-7, exactly (:func:`~.pgm.first_selection_probabilities`,
    the scores :func:`~.pgm.aim` computes, :func:`~.pgm.selection_scores`): the exponential mechanism over the
    candidates (0,), (1,), (0, 1) with score sensitivity Δ₁ · max_r w_r = 2 · 2, claimed ε₁-DP (the pure-DP fact
    behind its ε₁²/8-zCDP), given a public model estimate (n · uniform, standing for the initialisation's estimate
    the selection is conditioned on). The rounds' composition is accounted, not audited (an audit of a whole run
    would need its estimate per sample)."""
    from .pgm import aim_claim, first_selection_probabilities, initial_measurements
    from .zcdp import rho_for

    # the initialisation row keeps its delta 1e-5 (the privacy-audit chapter names this instance from it); the
    # selection row runs at the chapter's delta and T
    eps, delta = 1.0, 1e-5
    shape = (8,)
    rho = rho_for(eps, delta)
    _, sd = initial_measurements(np.ones(shape), rho, np.random.default_rng(0))
    sigma0 = sd / np.sqrt(2.0)  # the unit-sensitivity σ₀: sd = Δ₂σ₀ with Δ₂ = √2
    rho_m = 1.0 / (2.0 * sigma0**2)
    claim = dataclasses.replace(
        aim_claim(eps, delta, 1),
        mechanism="AIM one-way measurement (1-D)",
        sensitivity="marginal: L2 1.414",
        epsilon=dp_epsilon(rho_m, delta),
    )

    def sample(d, n, g):
        (y,), _ = initial_measurements(_histogram(d, shape), rho, g, size=n)
        return y[:, 0] - y[:, -1]

    # (2) the first selection in 2-D, at the chapter's T = 32
    shape2 = (4, 4)
    rec2, moved2 = _moved_pair(shape2)
    public = np.full(shape2, rec2.size / 16.0)  # n · uniform: n is public (replace-one)
    rho2 = rho_for(eps, AIM_DELTA)
    _, _, eps1, sens = first_selection_probabilities(_histogram(rec2, shape2), public, rho2)
    sel_claim = dataclasses.replace(
        aim_claim(eps, AIM_DELTA, 2),
        mechanism="AIM selection (first round, 2-D)",
        sensitivity=f"score: L1 2 x max w_r = {sens:g}",
        epsilon=eps1,
        delta=0.0,
    )

    return [
        _first_minus_last_spec(
            "AIM measurement (initialisation), 1-D",
            claim,
            sample,
            sd=sd,
            delta=delta,
            note=f"eps = {eps:g}, delta = {delta:g}, T = 16: the one-way marginal + N(0, 2 sigma0^2), sigma0 = "
            f"sqrt(T/(2 α ρ)) = {sigma0:.4g}; first cell minus last cell; the measurement's "
            f"{rho_m:.4g}-zCDP, claimed as its (eps, delta) conversion",
        ),
        AuditSpec(
            "AIM selection (first round), 2-D",
            CHAPTER,
            "private",
            sel_claim,
            (rec2, moved2),
            distribution=lambda d: first_selection_probabilities(
                _histogram(d, shape2), public, rho2
            )[1],
            note=f"eps = {eps:g}, delta = {AIM_DELTA:g}, T = 32, 4 x 4 histogram 1..16, model estimate n · uniform: "
            f"exponential mechanism over the marginals (0,), (1,), (0, 1) at eps_1 = sqrt(8(1 - α)ρ/T) = "
            f"{eps1:.4g}, score sensitivity {sens:g}; claimed eps_1 per selection (eps_1^2/8-zCDP); records moved "
            "from the last cell to the first",
        ),
    ]


def gaussian_audit_specs() -> list[AuditSpec]:
    """Gaussian Identity at AIM's budget (:func:`~.gaussian.gaussian_identity`), 1-D, at the chapter's ε = 1,
    δ = 1e-7, replace-one (a record moves from the last cell to the first): the noisy first cell minus the noisy last
    cell (post-processing), a change of 2 against noise of standard deviation √2·σ, σ = √2/√(2ρ). Claimed: the
    release's ρ-zCDP as its (ε, δ) conversion (:func:`~dpcompendium.chapters.mwem.gaussian.gaussian_claim`); true ε: the exact Gaussian profile."""
    from .gaussian import (
        gaussian_claim,
        gaussian_identity,
        gaussian_least_squares,
        gaussian_sensitivity,
    )
    from .zcdp import rho_for

    eps, delta = 1.0, AIM_DELTA
    shape = (8,)
    rho = rho_for(eps, delta)
    sd = gaussian_sensitivity(None) / np.sqrt(2.0 * rho)

    def sample(d, n, g):
        y = gaussian_identity(_histogram(d, shape), rho, g, size=n)
        return y[:, 0] - y[:, -1]

    work = random_range_queries(shape, 10, np.random.default_rng(7))  # a fixed public workload

    def sample_ls(d, n, g):
        x = gaussian_least_squares(_histogram(d, shape), rho, g, queries=work, size=n)
        return x[:, 0] - x[:, -1]

    return [
        _first_minus_last_spec(
            "Gaussian Identity (AIM's budget), 1-D",
            gaussian_claim(eps, delta),
            sample,
            sd=sd,
            delta=delta,
            note=f"eps = {eps:g}, delta = {delta:g}: every cell + N(0, sigma^2), sigma = sqrt(2)/sqrt(2 rho) = "
            f"{sd:.4g}, rho = {rho:.4g}; first cell minus last cell; claimed as the (eps, delta) conversion of "
            "rho-zCDP",
        ),
        _first_minus_last_spec(
            "Gaussian least squares (AIM's budget), 1-D",
            gaussian_claim(eps, delta, "gaussian-ls", queries=work),
            sample_ls,
            note=f"eps = {eps:g}, delta = {delta:g}, 10 random boxes: every box + N(0, sigma^2), sigma = "
            f"{gaussian_sensitivity(work) / np.sqrt(2.0 * rho):.4g} (L2 sensitivity at most sqrt(2 c_max) = "
            f"{gaussian_sensitivity(work):.4g}, c_max the most boxes covering one cell: an upper bound), then least squares; first cell minus last cell of the estimate",
        ),
    ]


def gaussian_identity_audit_specs() -> list[AuditSpec]:
    """The Gaussian Identity row of :func:`gaussian_audit_specs` (its registration's audit)."""
    return [s for s in gaussian_audit_specs() if s.mechanism.startswith("Gaussian Identity")]


def gaussian_ls_audit_specs() -> list[AuditSpec]:
    """The Gaussian least squares row of :func:`gaussian_audit_specs` (its registration's audit)."""
    return [s for s in gaussian_audit_specs() if s.mechanism.startswith("Gaussian least squares")]


def mst_audit_specs() -> list[AuditSpec]:
    """MST's release is its measurements (:func:`~.mst.measure_marginals`, the draws :func:`~.mst.mst` makes; the
    compression, the spanning tree of one edge and the estimate are post-processing), audited at ε = 1, δ = 1e-7,
    replace-one, on both branches of the domain compression:

    1. no value merged: a 2 x 2 histogram whose counts are far above 3σ₁, a record moved from cell (1, 1) to cell
       (0, 0), so the two-way marginal is measured on the whole domain;
    2. values merged: a 4 x 4 histogram with counts only in its 2 x 2 corner (far above 3σ₁), a record moved from
       cell (0, 0) to cell (2, 2), so values 2 and 3 of each attribute (counts 0 and 1) are merged in nearly every
       draw and the two-way marginal is measured on the compressed domain that the noisy one-way counts chose (the
       library's ``_compress`` and ``_compress_hist``, per compression drawn).

    The statistic is the log-likelihood ratio of the release, Σ Δ·(y − m)/sd² over the one-way measurements and the
    two-way one given the compression drawn (Δ and m: the difference and midpoint of the pair's marginals on that
    domain; a sufficient statistic of the pair, the measurements' whole loss). Where the pair's two cells stay apart
    in the compressed domain (value 0 is kept whenever its count is far above 3σ₁) the two-way change has norm √2
    whatever the compression, so on both branches the ratio is Gaussian with shift over standard deviation
    √(2/σ₂² + 4/σ₁²): the exact Gaussian profile at 2ρ/3-zCDP. Claimed: :func:`~.mst.mst_claim` (ρ reserved)."""
    from .mst import _compress, _compress_hist, measure_marginals, mst_claim, mst_sigmas
    from .zcdp import rho_for

    eps, delta = 1.0, AIM_DELTA
    rho = rho_for(eps, delta)
    sd1, sd2 = mst_sigmas(rho)
    # the statistic's shift over its standard deviation, on both branches
    ratio = math.sqrt(2.0 / sd2**2 + 4.0 / sd1**2)

    def llr_sampler(shape, h_a, h_b):
        """n samples of the release's log-likelihood ratio (D against D') on one dataset's records."""
        one_a = [h_a.sum(axis=1), h_a.sum(axis=0)]
        one_b = [h_b.sum(axis=1), h_b.sum(axis=0)]

        def sample(d, n, g):
            h = _histogram(d, shape)
            ys = measure_marginals(h, [(0,), (1,)], sd1, g, size=n)
            out = sum(
                (y - (a + b) / 2) @ (a - b) / sd1**2
                for y, a, b in zip(ys, one_a, one_b, strict=True)
            )
            # the compression each draw chose (values with a noisy count of at least 3 sd1 kept), one pattern at
            # a time: the two-way marginal of that compressed domain, measured for every draw that chose it
            pattern = np.hstack([y >= 3.0 * sd1 for y in ys])
            code = pattern @ (1 << np.arange(pattern.shape[1]))
            _, first, which = np.unique(code, return_index=True, return_inverse=True)
            for k, i in enumerate(first):
                kept = tuple(_compress(y[i], sd1)[0] for y in ys)
                if not np.array_equal(np.hstack(kept), pattern[i]):
                    raise RuntimeError(
                        "the audit's compression pattern must be mst's _compress rule"
                    )
                ca, cb = _compress_hist(h_a, kept), _compress_hist(h_b, kept)
                rows = np.flatnonzero(which.ravel() == k)
                (y2,) = measure_marginals(_compress_hist(h, kept), [(0, 1)], sd2, g, size=rows.size)
                out[rows] += (y2 - ((ca + cb) / 2).ravel()) @ (ca - cb).ravel() / sd2**2
            return out

        return sample

    specs = []
    # 1. no value merged; 2. values 2 and 3 of each attribute merged
    # (shape, counts per cell, the record that moves, the cell it moves to): the last record, in cell (1, 1), to
    # cell (0, 0); the first record, in cell (0, 0), to cell (2, 2)
    for shape, counts, at, dst in (
        ((2, 2), [300, 320, 340, 360], -1, 0),
        ((4, 4), [1000, 1100, 0, 0, 1200, 1300] + [0] * 10, 0, 10),
    ):
        records = np.repeat(np.arange(len(counts)), counts)
        moved = records.copy()
        moved[at] = dst  # replace-one
        merged = shape == (4, 4)
        what = (
            "counts 0 and 1 for values 2 and 3 of each attribute, merged in nearly every draw; a record moved "
            "from cell (0, 0) to cell (2, 2), the two-way marginal measured on the compressed domain"
            if merged
            else "counts of at least 620 per value, none merged"
        )
        specs.append(
            AuditSpec(
                "MST measurements, values merged (2-D, AIM's budget)"
                if merged
                else "MST measurements (2-D, AIM's budget)",
                CHAPTER,
                "private",
                mst_claim(eps, delta),
                (records, moved),
                sample=llr_sampler(shape, _histogram(records, shape), _histogram(moved, shape)),
                true_epsilon=gaussian_epsilon(1.0, ratio, delta),
                max_samples=300_000,
                note=f"eps = {eps:g}, delta = {delta:g}, rho = {rho:.4g}: both one-way marginals + N(0, "
                f"{sd1:.4g}^2), the two-way + N(0, {sd2:.4g}^2) (two thirds of rho spent, the spanning tree's "
                f"third reserved); {what}; statistic: the log-likelihood ratio of the measurements",
            )
        )
    return specs
