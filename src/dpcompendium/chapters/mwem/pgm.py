"""AIM — adaptive and iterative marginal measurements (``mckenna2022aim``, Algorithm 1), with the graphical-model
estimation of private-pgm (``mckenna2019graphical``; the authors' library ``mbi``).

The algorithm is written here from the paper; the estimation (the distribution of largest entropy whose marginals
fit the noisy measurements, by mirror descent over the marginal polytope) is ``mbi``'s, unchanged. ``mbi`` ships its
estimation but not its mechanisms, so AIM's selection, budget and annealing are ours. Input: a histogram B over a
public domain of at most two attributes, a workload W of marginals (by default the full one: every range query over
the domain is a linear function of it) with weights c_s, a budget ρ (zCDP). With d attributes and T = 16d rounds:

1. *initialise*: measure every one-way marginal with N(0, Δ₂² σ₀²), σ₀ = √(T/(2αρ)) (α = 0.9 of each round's budget to
   the measurement), and estimate p̂₀;
2. *select* among the downward closure W₊ of W (the marginals under the size limit, :func:`aim`) with the exponential
   mechanism at ε_t (ε₀ = √(8(1 − α)ρ/T)), score q_r = w_r(‖M_r(B) − M_r(p̂)‖₁ − √(2/π)·Δ₂σ_t·n_r) with
   w_r = Σ_{s∈W} c_s |r ∩ s| and n_r cells, sensitivity Δ₁ · max_r w_r;
3. *measure* y_t = M_r(B) + N(0, Δ₂²σ_t²), *estimate* p̂_t (warm-started from p̂_{t−1});
4. *anneal*: if ‖M_r(p̂_t) − M_r(p̂_{t−1})‖₁ ≤ √(2/π)·Δ₂σ_t·n_r, halve σ and double ε; when the budget left is at
   most twice a round's, the next round spends exactly what is left, and is the last.

Privacy: the Gaussian measurement of a marginal of L2 sensitivity Δ₂ is Δ₂²/(2Δ₂²σ²) = 1/(2σ²)-zCDP, the selection
ε²/8-zCDP (``cesar2021bounding``), and the rounds compose adaptively to ρ-zCDP, hence (ε, δ)-DP through
``bun2016concentrated``, Prop. 1.3 (the conversion of :mod:`.zcdp`). Neighbours: replace-one with public n (as MWEM
here: a marginal then has Δ₂ = √2 and Δ₁ = 2, and the estimate uses the public n as its total), or add-remove
(Δ₂ = Δ₁ = 1, the paper's). The estimate is post-processing of the measurements.

Reproducibility (``book/reproducibility.md``): JAX runs on the CPU in 64-bit floats with one XLA thread (set before
``jax`` is first imported, :func:`configure_jax`), and every estimated marginal AIM reads — for its scores, its
annealing test and its output — is rounded to :data:`GRID` of a count, so that the code paths of another CPU do not
change a selection or a printed digit. Repeated measurements of one marginal are pooled into their inverse-variance
average before estimation (the same least-squares loss up to a constant, so the same estimate), which keeps the
compiled programs to one per set of measured marginals.
"""

from __future__ import annotations

import itertools
import math
import os
import sys
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

from ...core.mechanisms.exponential import exponential_mechanism, exponential_probabilities
from ...core.messages import tex
from ...core.privacy import PrivacyClaim
from ...core.validation import check_array, check_delta, check_epsilon, check_int, check_rng
from .core import PUBLIC_DOMAIN, _text, budget_runner
from .zcdp import dp_epsilon, rho_for

__all__ = [
    "AIM_NAME",
    "GRID",
    "NEIGHBOURS",
    "XLA_FLAGS",
    "AIMResult",
    "aim",
    "aim_claim",
    "aim_family",
    "aim_runs",
    "configure_jax",
    "first_selection_probabilities",
    "initial_measurements",
    "selection_scores",
]

#: The method's name in the chapter's tables (its registration's id is ``"aim"``).
AIM_NAME = "AIM"
#: Estimated marginals are rounded to this fraction of a count before AIM reads them (CPU-independent digits).
GRID = 1e-3
#: XLA's flags for one CPU thread, set before ``jax`` is imported (a thread pool's reductions may run in any order).
XLA_FLAGS = "--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1"
#: The neighbour relations :func:`aim` calibrates for, with (L2, L1) sensitivities of a marginal.
NEIGHBOURS = {"replace-one": (math.sqrt(2.0), 2.0), "add-remove": (1.0, 1.0)}


def configure_jax():
    """Import ``jax`` and ``mbi`` configured for reproducible CPU results; returns the ``mbi`` module.

    ``import dpcompendium`` never imports jax: only AIM does, through this function. Before jax's first import it
    adds :data:`XLA_FLAGS` to the environment (one XLA thread) and selects the CPU platform; then 64-bit floats and
    no persistent compilation cache (``mbi`` warns about both otherwise).
    """
    if "jax" not in sys.modules:
        flags = os.environ.get("XLA_FLAGS", "")
        if "xla_cpu_multi_thread_eigen" not in flags:
            os.environ["XLA_FLAGS"] = f"{flags} {XLA_FLAGS}".strip()
        os.environ.setdefault("JAX_PLATFORMS", "cpu")
    import jax

    jax.config.update("jax_enable_x64", True)
    jax.config.update("jax_enable_compilation_cache", False)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        import mbi
        import mbi.estimation
    return mbi


@dataclass
class AIMResult:
    """One AIM run: the estimated histogram (``estimate``, the data's shape, total n), the marginals measured in
    order (``cliques``: tuples of axes; the one-way marginals of the initialisation first), their noise standard
    deviations (``sigmas``), the selection budgets (``epsilons``, one per selected round), and the zCDP spent
    (``rho_spent``, equal to the ρ given)."""

    estimate: np.ndarray
    cliques: list[tuple[int, ...]] = field(default_factory=list)
    sigmas: list[float] = field(default_factory=list)
    epsilons: list[float] = field(default_factory=list)
    rho_spent: float = 0.0

    @property
    def rounds(self) -> int:
        """The number of selection rounds (after the initialisation)."""
        return len(self.epsilons)


def _marginal(x: np.ndarray, clique: tuple[int, ...]) -> np.ndarray:
    other = tuple(a for a in range(x.ndim) if a not in clique)
    return x.sum(axis=other).ravel() if other else x.ravel()


def _closure(workload: Sequence[tuple[int, ...]]) -> list[tuple[int, ...]]:
    out: set[tuple[int, ...]] = set()
    for s in workload:
        for k in range(1, len(s) + 1):
            out.update(itertools.combinations(sorted(s), k))
    return sorted(out, key=lambda c: (len(c), c))


def _model_cells(cliques: Sequence[tuple[int, ...]], shape: tuple[int, ...]) -> int:
    """Cells of the model's maximal cliques (its junction tree's size for at most two attributes)."""
    cl = set(cliques)
    maximal = [c for c in cl if not any(set(c) < set(o) for o in cl)]
    return int(sum(np.prod([shape[a] for a in c]) for c in maximal))


def _check_neighbours(neighbours: str) -> tuple[float, float]:
    if neighbours not in NEIGHBOURS:
        raise ValueError(f"neighbours must be one of {'|'.join(NEIGHBOURS)}, got {neighbours!r}")
    return NEIGHBOURS[neighbours]


class _Estimator:
    """mbi's mirror descent on the pooled measurements; the estimated marginals on :data:`GRID`."""

    def __init__(self, shape: tuple[int, ...], iters: int, total: float | None):
        self.mbi = configure_jax()
        self.domain = self.mbi.Domain([f"a{k}" for k in range(len(shape))], shape)
        self.iters = iters
        self.total = total
        self.pooled: dict[
            tuple[int, ...], tuple[np.ndarray, float]
        ] = {}  # clique: (Σ y/σ², Σ 1/σ²)
        self.model = None

    def add(self, clique: tuple[int, ...], y: np.ndarray, sigma: float) -> None:
        s, w = self.pooled.get(clique, (0.0, 0.0))
        self.pooled[clique] = (s + y / sigma**2, w + 1.0 / sigma**2)

    def fit(self) -> None:
        mbi = self.mbi
        ms = [
            mbi.LinearMeasurement(s / w, tuple(f"a{a}" for a in c), 1.0 / math.sqrt(w))
            for c, (s, w) in sorted(self.pooled.items(), key=lambda kv: (len(kv[0]), kv[0]))
        ]
        self.model = mbi.estimation.MirrorDescent().estimate(
            self.domain, ms, known_total=self.total, iters=self.iters, warm_start=self.model
        )

    def marginal(self, clique: tuple[int, ...]) -> np.ndarray:
        names = tuple(f"a{a}" for a in clique)
        x = np.asarray(self.model.project(names).datavector(flatten=True), dtype=float)
        return np.round(x / GRID) * GRID


def _candidates(
    work: Sequence[tuple[int, ...]], c: np.ndarray, l1: float
) -> tuple[list[tuple[int, ...]], dict[tuple[int, ...], float], float]:
    """AIM's candidates (the downward closure of the workload), their weights w_r = Σ_s c_s |r ∩ s| and the score's
    sensitivity Δ₁ · max_r w_r."""
    cands = _closure(work)
    w = {
        r: float(sum(ci * len(set(r) & set(s)) for ci, s in zip(c, work, strict=True)))
        for r in cands
    }
    return cands, w, l1 * max(w.values())


def _bias(
    cands: Sequence[tuple[int, ...]], shape: tuple[int, ...], sd: float
) -> dict[tuple[int, ...], float]:
    """The expected L1 norm of a candidate's measurement noise, √(2/π)·sd·n_r, that its score subtracts."""
    return {r: math.sqrt(2.0 / math.pi) * sd * _model_cells([r], shape) for r in cands}


def selection_scores(
    hist: np.ndarray,
    estimated: Callable[[tuple[int, ...]], np.ndarray],
    cands: Sequence[tuple[int, ...]],
    weights: dict[tuple[int, ...], float],
    bias: dict[tuple[int, ...], float],
) -> np.ndarray:
    """AIM's scores q_r = w_r(‖M_r(B) − M_r(p̂)‖₁ − bias_r) of the candidates ``cands`` (``mckenna2022aim``, Alg. 1):
    ``estimated(r)`` is the model's marginal M_r(p̂), a function of earlier private outputs only, so a record
    replaced in B moves q_r by at most Δ₁·w_r. :func:`aim` selects with these; :func:`first_selection_probabilities`
    gives their exact law for an audit."""
    return np.array(
        [weights[r] * (np.abs(_marginal(hist, r) - estimated(r)).sum() - bias[r]) for r in cands]
    )


def first_selection_probabilities(
    hist: ArrayLike,
    estimate: ArrayLike,
    rho: float,
    *,
    rounds: int | None = None,
    alpha: float = 0.9,
    neighbours: str = "replace-one",
) -> tuple[list[tuple[int, ...]], np.ndarray, float, float]:
    """The exact law of AIM's first selection (step 2 of :func:`aim`, full workload, no size limit) given the model
    ``estimate`` p̂ (a histogram of the data's shape, public: in a run it is the estimate from the initialisation's
    measurements, which the selection is conditioned on), rounded to :data:`GRID` as :func:`aim` reads it. Returns
    (candidates, their probabilities, ε₁ = √(8(1 − α)ρ/T), the score's sensitivity Δ₁ · max_r w_r): the exponential
    mechanism at ε₁ with that sensitivity, ε₁-DP and ε₁²/8-zCDP (``cesar2021bounding``)."""
    h = check_array(hist, "hist", ndim=None)
    p = check_array(estimate, "estimate", ndim=h.ndim)
    if p.shape != h.shape:
        raise ValueError(f"estimate must have the shape {h.shape} of hist, got {p.shape}")
    rho = check_epsilon(rho, "rho")
    if not 0.0 < alpha < 1.0:
        raise ValueError(f"alpha must be in (0, 1), got {alpha!r}")
    l2, l1 = _check_neighbours(neighbours)
    T = check_int(16 * h.ndim if rounds is None else rounds, "rounds", minimum=1)
    cands, w, score_sens = _candidates([tuple(range(h.ndim))], np.ones(1), l1)
    sigma = math.sqrt(T / (2.0 * alpha * rho))
    eps = math.sqrt(8.0 * (1.0 - alpha) * rho / T)
    scores = selection_scores(
        h,
        lambda r: np.round(_marginal(p, r) / GRID) * GRID,
        cands,
        w,
        _bias(cands, h.shape, l2 * sigma),
    )
    return cands, exponential_probabilities(scores, score_sens, eps), eps, score_sens


def initial_measurements(
    hist: ArrayLike,
    rho: float,
    rng: np.random.Generator,
    *,
    size: int | None = None,
    rounds: int | None = None,
    alpha: float = 0.9,
    neighbours: str = "replace-one",
) -> tuple[list[np.ndarray], float]:
    """AIM's initialisation (step 1 of :func:`aim`, which calls it): every one-way marginal of ``hist`` plus
    N(0, Δ₂²σ₀²), σ₀ = √(T/(2αρ)), T = ``rounds`` (default 16·d). Returns the noisy marginals (one array per axis, of
    shape (``size``, n_a) when ``size`` is given: independent draws, for an audit) and the standard deviation Δ₂σ₀.
    Each is 1/(2σ₀²)-zCDP for the relation ``neighbours``; the d of them αρ·d/T."""
    h = check_array(hist, "hist", ndim=None)
    rho = check_epsilon(rho, "rho")
    rng = check_rng(rng)
    if not 0.0 < alpha < 1.0:
        raise ValueError(f"alpha must be in (0, 1), got {alpha!r}")
    l2, _ = _check_neighbours(neighbours)
    T = check_int(16 * h.ndim if rounds is None else rounds, "rounds", minimum=1)
    sd = l2 * math.sqrt(T / (2.0 * alpha * rho))
    lead = () if size is None else (check_int(size, "size", minimum=1),)
    return [
        _marginal(h, (a,)) + rng.normal(0.0, sd, (*lead, h.shape[a])) for a in range(h.ndim)
    ], sd


def aim(
    hist: ArrayLike,
    rho: float,
    rng: np.random.Generator,
    *,
    workload: Sequence[tuple[int, ...]] | None = None,
    weights: Sequence[float] | None = None,
    rounds: int | None = None,
    alpha: float = 0.9,
    max_cells: int = 10_000_000,
    neighbours: str = "replace-one",
    iters: int = 2000,
) -> AIMResult:
    """AIM on ``hist`` (at most two attributes) at ρ-zCDP (``mckenna2022aim``, Algorithm 1; see the module).

    ``workload``: marginals as tuples of axes (default: the full marginal), ``weights`` their c_s (default 1);
    ``rounds``: T (default 16·d, the paper's); ``alpha``: the share of a round's budget for its measurement;
    ``max_cells``: the model's size limit in cells (the paper's 80 MB of float64), reached in proportion to the budget
    spent; ``neighbours``: ``"replace-one"`` (public n; Δ₂ = √2, Δ₁ = 2) or ``"add-remove"`` (Δ₂ = Δ₁ = 1);
    ``iters``: mirror-descent iterations of each estimate (warm-started). Privacy: ρ-zCDP (:func:`aim_claim`).
    """
    h = check_array(hist, "hist", ndim=None)
    if h.ndim > 2:
        raise ValueError(
            f"hist must have at most 2 dimensions (the size limit is exact there), got {h.ndim}"
        )
    if np.any(h < 0):
        raise ValueError("hist must be non-negative, got a negative count")
    rho = check_epsilon(rho, "rho")
    rng = check_rng(rng)
    if not 0.0 < alpha < 1.0:
        raise ValueError(f"alpha must be in (0, 1), got {alpha!r}")
    l2, l1 = _check_neighbours(neighbours)
    iters = check_int(iters, "iters", minimum=1)
    max_cells = check_int(max_cells, "max_cells", minimum=1)
    d, shape = h.ndim, h.shape
    T = check_int(16 * d if rounds is None else rounds, "rounds", minimum=1)
    work = [tuple(range(d))] if workload is None else [tuple(sorted(s)) for s in workload]
    for s in work:
        if not s or any(not 0 <= a < d for a in s) or len(set(s)) != len(s):
            raise ValueError(f"workload must hold tuples of distinct axes of hist, got {s!r}")
    c = np.ones(len(work)) if weights is None else check_array(weights, "weights", ndim=1)
    if len(c) != len(work) or np.any(c <= 0):
        raise ValueError(f"weights must be {len(work)} positive numbers, got {list(c)!r}")
    cands, w, score_sens = _candidates(work, c, l1)

    est = _Estimator(shape, iters, float(h.sum()) if neighbours == "replace-one" else None)
    res = AIMResult(np.empty(0))
    sigma = math.sqrt(T / (2.0 * alpha * rho))  # unit-sensitivity σ: 1/(2σ²)-zCDP per measurement
    eps = math.sqrt(8.0 * (1.0 - alpha) * rho / T)
    init, sd = initial_measurements(h, rho, rng, rounds=T, alpha=alpha, neighbours=neighbours)
    for a, y in enumerate(init):
        est.add((a,), y, sd)
        res.cliques.append((a,))
        res.sigmas.append(sd)
        res.rho_spent += 1.0 / (2.0 * sigma**2)
    est.fit()
    last = False
    while not last and res.rho_spent < rho:
        if rho - res.rho_spent <= 2.0 * (1.0 / (2.0 * sigma**2) + eps**2 / 8.0):
            left = rho - res.rho_spent
            sigma, eps, last = (
                math.sqrt(1.0 / (2.0 * alpha * left)),
                math.sqrt(8.0 * (1.0 - alpha) * left),
                True,
            )
        res.rho_spent = rho if last else res.rho_spent + 1.0 / (2.0 * sigma**2) + eps**2 / 8.0
        limit = res.rho_spent / rho * max_cells
        ok = [r for r in cands if _model_cells([*res.cliques, r], shape) <= limit]
        ok = ok or [
            min(cands, key=lambda r: _model_cells([r], shape))
        ]  # the one-way marginals always fit
        bias = _bias(ok, shape, l2 * sigma)
        scores = selection_scores(h, est.marginal, ok, w, bias)
        r = ok[exponential_mechanism(scores, score_sens, eps, rng)]
        before = est.marginal(r)
        y = _marginal(h, r) + rng.normal(0.0, l2 * sigma, before.size)
        est.add(r, y, l2 * sigma)
        res.cliques.append(r)
        res.sigmas.append(l2 * sigma)
        res.epsilons.append(eps)
        est.fit()
        if np.abs(est.marginal(r) - before).sum() <= bias[r]:
            sigma, eps = sigma / 2.0, eps * 2.0
    res.estimate = est.marginal(tuple(range(d))).reshape(shape)
    return res


def aim_claim(
    epsilon: float,
    delta: float,
    ndim: int = 1,
    *,
    neighbours: str = "replace-one",
    rounds: int | None = None,
) -> PrivacyClaim:
    """AIM's privacy statement at the budget of the chapter's zCDP MWEM: ρ = (√(ln(1/δ) + ε) − √ln(1/δ))²
    (:func:`~dpcompendium.chapters.mwem.zcdp.rho_for`), spent whole by :func:`aim` (ρ-zCDP by adaptive composition),
    stated as (ε, δ)-DP by the conversion of ``bun2016concentrated`` (a condition). The estimate is post-processing."""
    e, dl = check_epsilon(epsilon), check_delta(delta)
    ndim = check_int(ndim, "ndim", minimum=1, maximum=2)
    l2, l1 = _check_neighbours(neighbours)
    T = 16 * ndim if rounds is None else check_int(rounds, "rounds", minimum=1)
    rho = rho_for(e, dl)
    return PrivacyClaim(
        _text("claims.mwem.mech_aim"),
        neighbours,
        _text("claims.mwem.aim_sens", l2=tex(f"{l2:.4g}"), l1=tex(f"{l1:g}")),
        dp_epsilon(rho, dl),
        dl,
        conditions=(
            _text("claims.mwem.aim_cond_zcdp", d=ndim, T=T, rho=tex(f"{rho:.4g}")),
            PUBLIC_DOMAIN,
            *((_text("claims.mwem.aim_cond_public_n"),) if neighbours == "replace-one" else ()),
        ),
    )


aim_runs = budget_runner(
    aim,
    name=AIM_NAME,
    extra=lambda res: {
        "rounds": res.rounds,
        "measured": len(set(res.cliques)),
        "widest": max(len(c) for c in res.cliques),
    },
    doc="""AIM (:func:`aim`, ``options`` its keywords: ``neighbours``, ``iters``, ...) at every ε (ρ =
    :func:`~dpcompendium.chapters.mwem.zcdp.rho_for` (ε, δ)), ``reps`` repetitions each: one row per (epsilon, rep)
    with ``method`` = :data:`AIM_NAME`, the workload errors of its estimate
    (:func:`~dpcompendium.chapters.mwem.core.workload_errors`), ``rounds``, ``measured`` (distinct marginals) and
    ``widest`` (the most attributes of a measured marginal: 1 when AIM measured only one-way marginals).
    Repetition r at the k-th ε draws from child r of child k of ``SeedSequence(seed)``
    (:func:`~dpcompendium.chapters.mwem.core.budget_runner`); runs in this process (the compiled estimation is
    reused across repetitions).""",
)


def aim_family(
    runs: pd.DataFrame,
    other: str,
    claim_of: Callable[[str, float], PrivacyClaim],
    values_of: Callable[[str, float], ArrayLike],
    delta: float,
    rng: np.random.Generator,
    *,
    quantity,
    column: str,
    decide: bool = True,
):
    """AIM against method ``other`` (an id of the method registry) in every (``dim``, ``epsilon``) cell of ``runs``
    (:func:`aim_runs` rows with a ``dim`` column, "1-D" or "2-D") where both sides have at least 2 runs: two-sided
    bootstrap-t tests of the mean error (:class:`~dpcompendium.core.comparison.Comparison`, one guarantee:
    ``claim_of(dim, eps)`` must state AIM's), Holm-corrected over the cells. Returns (results, their sentence,
    their table; :func:`~dpcompendium.core.comparison.results_text`, ``column`` the setting's header), or None
    when no cell has the runs. ``decide=False``: the tests undecided, as (cells, result) rows, for a chapter that
    Holm-corrects several comparators as one family (referee 18, m-9); the same draws from ``rng``."""
    from ...core import comparison

    rows = []
    for (d, e), g in runs.groupby(["dim", "epsilon"], sort=False):
        z = np.asarray(values_of(d, e), dtype=float)
        if len(g) < 2 or len(z) < 2:
            continue
        cmp_ = comparison.Comparison(
            quantity,
            comparison.Arm.of("aim", aim_claim(e, delta, int(str(d)[0])), g.mean_error),
            comparison.Arm.of(other, claim_of(d, e), z),
            test="bootstrap-t",
            setting=f"{d}, ε = {e:g}",
        )
        rows.append(((f"{d}, ε = {e:g}",), cmp_.result(rng)))
    if not rows:
        return None
    if not decide:
        return rows
    res = comparison.holm([r for _, r in rows])
    text, tab = comparison.results_text(
        [(c, r) for (c, _), r in zip(rows, res, strict=True)], [column]
    )
    return res, text, tab
