"""The Wishart mechanism for DP-PCA [jiang2016wishart], as published, and why it is not ε-DP.

The mechanism releases ``Â = A + W`` with ``A = XᵀX/n`` (rows in the unit ball, ``n`` public) and
``W ~ W_d(d + 1, C)``, ``C = 3/(2nε) · I`` (Algorithm 1 of the paper), then the top-k eigenvectors of ``Â``. With
``d + 1`` degrees of freedom the Wishart density on the positive-definite cone is ``∝ exp(−tr(C⁻¹W)/2)`` (the
determinant's exponent ``(m − d − 1)/2`` is 0), so on the outputs both neighbours can produce the privacy loss is
``tr(C⁻¹(A′ − A))/2 = (nε/3)·(‖x′‖² − ‖x‖²)/n ≤ ε/3`` under replace-one neighbours.

But the support of ``Â`` is ``A + (the positive-definite cone)``, which moves with the data. Replace a row ``x``
(unit norm) by ``x′ = 0``: ``A′ = A − xxᵀ/n``, and the release from ``A′`` lies outside the support of the release
from ``A`` exactly when ``W − xxᵀ/n`` is not positive semidefinite, i.e. when ``xᵀW⁻¹x > n``. For
``W ~ W_d(m, cI)``, ``1/(xᵀW⁻¹x) ~ c·χ²_{m−d+1}`` (a standard property of the Wishart law), so with ``m = d + 1``
this probability is ``P(χ²_2 < 1/(nc)) = 1 − exp(−1/(2nc))``, which is ``1 − e^{−ε/3}`` at the published scale —
whatever ``d`` and ``n``. An event of probability 0 under one neighbour and ``1 − e^{−ε/3}`` under the other rules
out ``(ε′, δ′)``-DP for every ``ε′`` and every ``δ′ < 1 − e^{−ε/3}`` (0.28 at ε = 1): the mechanism is
``(ε/3, 1 − e^{−ε/3})``-DP (the support mass bounds δ from above too, since ``A′ − A ⪰ −x′x′ᵀ/n``), and not
ε-DP for any ε. No scale ``c`` repairs it: the mass ``1 − exp(−1/(2nc))`` is positive for every ``c``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd
from threadpoolctl import threadpool_limits

from ...core.comparison import Arm, Comparison, grid_text, holm, results_text, verdict_tally
from ...core.messages import Md, dataset_md, message, number
from ...core.privacy import PrivacyClaim
from ...core.rng import child_seed, make_rng
from ...core.validation import check_delta, check_epsilon, check_int, check_rng
from .core import Calibration, captured_energy, noise_scale, symmetric_gaussian, top_k_subspace
from .experiments import Deltas, _dataset, _delta_of, _second_moment, _setting_label
from .laplace import laplace_privacy_claim, laplace_subspaces
from .methods import privacy_claim

__all__ = [
    "RUN_METHODS",
    "WISHART_SCALE",
    "comparison_grid",
    "comparison_table",
    "family_table",
    "laplace_take",
    "setting_claims",
    "wishart_comparisons",
    "wishart_noise",
    "wishart_pca",
    "wishart_privacy_claim",
    "wishart_runs",
    "wishart_satisfied_claim",
    "wishart_scale",
    "wishart_subspaces",
    "wishart_support_delta",
    "wishart_sweep",
]
#: The child of the chapter's seed that draws the Wishart comparison (``child_seed(seed, WISHART_STREAM)``, one
#: grandchild per dataset): the notebook's other streams are children 0 to 4.
WISHART_STREAM = 6

#: The methods of :func:`wishart_runs`, in the order of their rows.
RUN_METHODS = ("central", "wishart", "laplace-input")

#: The published scale: ``C = WISHART_SCALE/(nε) · I`` (3/(2nε)) [jiang2016wishart].
WISHART_SCALE = 1.5


def wishart_scale(epsilon: float, n: int) -> float:
    """The published scale ``c = 3/(2nε)`` of ``C = c·I``."""
    return WISHART_SCALE / (check_int(n, "n", minimum=1) * check_epsilon(epsilon))


def wishart_support_delta(epsilon: float) -> float:
    """``1 − e^{−ε/3}``: the probability that a neighbour's release falls where this one has density 0 (a unit row
    replaced by the zero row), at the published scale; the smallest δ of any (ε′, δ)-DP statement the mechanism
    satisfies (see the module)."""
    return -math.expm1(-check_epsilon(epsilon) / (2 * WISHART_SCALE))


def wishart_noise(
    d: int, scale: float | np.ndarray, rng: np.random.Generator, size: tuple[int, ...] = ()
) -> np.ndarray:
    """``W = GᵀG`` with ``G`` of ``d + 1`` rows of iid ``N(0, c)`` entries: ``W ~ W_d(d + 1, c·I)``, shape
    ``size + (d, d)``. ``scale`` (``c``) may be an array broadcastable to ``size`` (one scale per matrix)."""
    d = check_int(d, "d", minimum=1)
    rng = check_rng(rng)
    c = np.asarray(scale, dtype=float)
    if not (np.all(np.isfinite(c)) and np.all(c > 0)):
        raise ValueError(f"scale must be finite and > 0, got {scale!r}")
    g = rng.standard_normal((*size, d + 1, d)) * np.sqrt(c)[..., None, None]
    return np.swapaxes(g, -1, -2) @ g


def wishart_subspaces(
    a: np.ndarray, n: int, k: int, epsilons: Sequence[float], rng: np.random.Generator
) -> np.ndarray:
    """The top-k eigenvectors of ``A + W`` at every ε (one draw each, in order): (len(ε), d, k)."""
    a = np.asarray(a, dtype=float)
    d = a.shape[0]
    k = check_int(k, "k", minimum=1, maximum=d)
    scales = np.array([wishart_scale(e, n) for e in epsilons])
    return top_k_subspace(a + wishart_noise(d, scales, rng, size=(len(scales),)), k)


def wishart_pca(x: np.ndarray, k: int, epsilon: float, rng: np.random.Generator) -> np.ndarray:
    """The Wishart mechanism's d × k subspace of the rows ``x`` (each in the unit ball; ``n`` = its rows, public)
    [jiang2016wishart]. Replace-one neighbours; not ε-DP (:func:`wishart_privacy_claim`)."""
    x = np.asarray(x, dtype=float)
    if x.ndim != 2 or (np.linalg.norm(x, axis=1) > 1 + 1e-9).any():
        raise ValueError(f"x must be a 2-D array of rows in the unit ball, got shape {x.shape}")
    n = x.shape[0]
    return wishart_subspaces(x.T @ x / n, n, k, [epsilon], rng)[0]


def wishart_privacy_claim(epsilon: float, delta: float = 0.0, n: int | None = None) -> PrivacyClaim:
    """The Wishart mechanism's claim at the nominal ``(ε, δ)`` it is compared at (the paper's is ``δ = 0``):
    ``private=False``, refuted, under replace-one neighbours with rows in the unit ball and ``n`` public. The reason
    carries what it does satisfy, ``(ε/3, 1 − e^{−ε/3})``-DP (the module). ``n`` is accepted for the registry's
    factories and does not change the claim (the support mass does not depend on it)."""
    eps = check_epsilon(epsilon)
    dlt = 0.0 if delta == 0 else check_delta(delta)
    p = wishart_support_delta(eps)
    return PrivacyClaim(
        message("claims.fedpca.mech_wishart"),
        "replace-one",
        message("claims.fedpca.sens_wishart"),
        eps,
        dlt,
        False,
        message(
            "claims.fedpca.why_wishart",
            p=number(p, 3),
            eps3=number(eps / 3, 3),
        ),
        (message("claims.fedpca.cond_wishart"),),
    )


def wishart_satisfied_claim(epsilon: float) -> PrivacyClaim:
    """What the Wishart mechanism at the published scale for ``ε`` does satisfy (the chapter's
    ``prop-fedpca-wishart``): ``(ε/3, 1 − e^{−ε/3})``-DP under replace-one neighbours, rows in the unit ball, ``n``
    public. ``why`` says that this δ is far above ``1/n``, so it is no privacy in the usual sense."""
    eps = check_epsilon(epsilon)
    p = wishart_support_delta(eps)
    return PrivacyClaim(
        message("claims.fedpca.mech_wishart"),
        "replace-one",
        message("claims.fedpca.sens_wishart"),
        eps / 3,
        p,
        True,
        message("claims.fedpca.why_wishart_satisfied", p=number(p, 3)),
        (message("claims.fedpca.cond_wishart"),),
    )


def wishart_runs(
    a: np.ndarray,
    n: int,
    dataset: str,
    epsilons: Sequence[float],
    delta: float,
    k: int,
    reps: int,
    rng: np.random.Generator,
    *,
    calibration: Calibration = "classical",
) -> pd.DataFrame:
    """Central Analyze Gauss, the Wishart mechanism and Laplace input perturbation on one dataset's pooled ``A``
    (all central: no split), at every ε, ``reps`` repetitions from ``rng`` (each repetition: the Gaussian draws at
    every ε, then the Wishart draws; the Laplace draws come from ``rng.spawn(1)[0]``, so that they leave the other two
    arms' draws as they were): one row per (rep, ε, method) with the captured energy of the released subspace
    (``captured_energy``) and of its first column (``captured_energy_1``: the same mechanism's release at ``k = 1``,
    the top eigenvector of the same noisy matrix)."""
    reps = check_int(reps, "reps", minimum=1)
    rng = check_rng(rng)
    lap_rng = rng.spawn(1)[0]
    eps = [check_epsilon(e, "epsilons") for e in epsilons]
    a = np.asarray(a, dtype=float)
    d = a.shape[0]
    taus = np.array([noise_scale(e, delta, n, calibration=calibration) for e in eps])
    subs, rows = [], []
    for rep in range(reps):
        gauss = top_k_subspace(a + symmetric_gaussian(d, taus, rng, size=(len(eps),)), k)
        subs += [
            gauss,
            wishart_subspaces(a, n, k, eps, rng),
            laplace_subspaces(a, n, k, eps, lap_rng),
        ]
        rows += [(rep, e, m) for m in RUN_METHODS for e in eps]
    subs = np.concatenate(subs)
    out = pd.DataFrame(rows, columns=["rep", "epsilon", "method"])
    out.insert(0, "dataset", dataset)
    out["captured_energy"] = np.asarray(captured_energy(a, subs), dtype=float)
    # the same releases at k = 1: the top eigenvector of the same noisy matrix (PPCA's comparison, referee 14)
    out["captured_energy_1"] = np.asarray(captured_energy(a, subs[..., :1]), dtype=float)
    return out


def wishart_sweep(
    datasets: Sequence[str],
    epsilons: Sequence[float],
    delta: Deltas,
    k: int,
    reps: int,
    seed: int,
    *,
    calibration: Calibration = "classical",
) -> pd.DataFrame:
    """:func:`wishart_runs` on every dataset (its pooled ``A``, its ``n`` and δ), each from its own stream: child
    ``i`` of ``child_seed(seed, WISHART_STREAM)`` for the ``i``-th dataset."""
    parent = child_seed(seed, WISHART_STREAM)
    # small matrices: a threaded BLAS only oversubscribes the cores (as the chapter's sweeps, one thread)
    with threadpool_limits(limits=1):
        parts = _sweep_parts(datasets, epsilons, delta, k, reps, seed, parent, calibration)
    return pd.concat(parts, ignore_index=True)


def _sweep_parts(datasets, epsilons, delta, k, reps, seed, parent, calibration):
    return [
        wishart_runs(
            _second_moment(name, seed), _dataset(name, seed).n, name, epsilons,
            _delta_of(delta, name), k, reps, make_rng(child_seed(parent, i)),
            calibration=calibration,
        )
        for i, name in enumerate(datasets)
    ]  # fmt: skip


def wishart_comparisons(
    runs: pd.DataFrame,
    quantity: str | Md,
    delta: Deltas,
    *,
    calibration: Calibration = "classical",
    seed: int = 0,
    pair: tuple[str, str] = ("central", "wishart"),
) -> pd.DataFrame:
    """Arm ``pair[0]`` against arm ``pair[1]`` (methods of :data:`RUN_METHODS`; default Analyze Gauss against the
    Wishart mechanism) in every (dataset, ε) of :func:`wishart_runs`: the two-sided ``"tie"`` test of
    :class:`~dpcompendium.core.comparison.Comparison` on the energy not captured, paired by repetition (the arms ran
    in the same repetitions), Holm-corrected over the settings. Analyze Gauss's arm carries its claim at the
    dataset's n, δ and bounds (:func:`privacy_claim`); the Wishart arm takes :func:`wishart_privacy_claim` at the
    same (ε, δ) (not private: every sentence says so); Laplace input perturbation's arm takes
    :func:`~dpcompendium.chapters.federated_pca.laplace.laplace_privacy_claim`, ε-DP, stated at the same δ. One row
    per setting: ``dataset``, ``epsilon``, ``d`` (the dataset's width), ``ratio`` (``pair[0]`` over ``pair[1]``), ``lo``, ``hi``,
    ``p_adjusted``, ``outcome``, ``result``."""
    first, second = pair
    if first == second or not {first, second} <= set(RUN_METHODS):
        raise ValueError(f"pair must be two different methods of {list(RUN_METHODS)}, got {pair!r}")
    keys, comps = [], []
    for (name, eps), g in runs.groupby(["dataset", "epsilon"], sort=True):
        wide = g.pivot_table(index="rep", columns="method", values="captured_energy")
        if len(wide) < 2 or not {first, second} <= set(wide.columns):
            continue
        la, lb = 1.0 - wide[first].to_numpy(), 1.0 - wide[second].to_numpy()
        if not ((la > 0).all() and (lb > 0).all()):
            continue
        key, claims = setting_claims(str(name), float(eps), delta, calibration, seed)
        keys.append(key)
        comps.append(
            Comparison(
                quantity,
                Arm.of(first, claims[first], la),
                Arm.of(second, claims[second], lb),
                "tie",
                test="paired",
                non_private=message("fedpca.wishart_compared") if "wishart" in pair else "",
                setting=_setting_label({"dataset": name, "epsilon": float(eps)}),
            )
        )
    return family_table(keys, comps)


def setting_claims(
    name: str, epsilon: float, delta: Deltas, calibration: Calibration, seed: int
) -> tuple[dict[str, object], dict[str, PrivacyClaim]]:
    """One setting of the central comparisons (dataset ``name`` at ``epsilon``): its key (``dataset``, ``epsilon``,
    ``d``) and the claims of its arms at the dataset's n, δ and bounds: Analyze Gauss's (:func:`privacy_claim`), the
    Wishart mechanism's at the same (ε, δ) and Laplace input perturbation's, ε-DP stated at the same δ."""
    data = _dataset(name, seed)
    d = int(data.x.shape[1])
    gauss = privacy_claim(
        "central", epsilon, _delta_of(delta, name), data.n, dataset=name, calibration=calibration
    )
    claims = {
        "central": gauss,
        "wishart": wishart_privacy_claim(epsilon, gauss.delta),
        "laplace-input": laplace_privacy_claim(epsilon, gauss.delta, data.n, d),
    }
    return {"dataset": name, "epsilon": epsilon, "d": d}, claims


def family_table(keys: Sequence[Mapping[str, object]], comps: Sequence[Comparison]) -> pd.DataFrame:
    """The comparisons ``comps`` decided as one Holm family, one row each after its setting's ``keys`` (``dataset``,
    ``epsilon``, ``d``): ``ratio``, ``lo``, ``hi``, ``p_adjusted``, ``outcome`` and ``result`` (the
    :class:`~dpcompendium.core.comparison.ComparisonResult`); no row for an empty family."""
    results = holm([c.result() for c in comps]) if comps else []
    rows = [
        {**key, "ratio": r.ratio, "lo": r.lo, "hi": r.hi, "p_adjusted": r.p_adjusted,
         "outcome": r.outcome, "result": r}
        for key, r in zip(keys, results, strict=True)
    ]  # fmt: skip
    cols = ["dataset", "epsilon", "d", "ratio", "lo", "hi", "p_adjusted", "outcome", "result"]
    return pd.DataFrame(rows, columns=cols)


def laplace_take(results, slack: float) -> Md:
    """Laplace input perturbation against Analyze Gauss in one plain clause (message ``fedpca.take_laplace``; reader
    review 5, M1: no test named, no count of zero), from the results of :func:`wishart_comparisons` with
    ``pair=("laplace-input", "central")`` (Holm-decided): how its verdicts fall
    (:func:`~dpcompendium.core.comparison.verdict_tally`), the span of the ratios of the energy not captured over
    the settings where it is shown higher (referee 13, n7: not over the settings not separated), and ``slack``, how
    far its ``Δ₁`` may exceed the true sensitivity (the largest
    :func:`~dpcompendium.chapters.federated_pca.laplace.laplace_slack` of the datasets compared), as a percentage."""
    results = list(results)
    if not results:
        raise ValueError("results must hold at least one comparison")
    slack = float(slack)
    if not (math.isfinite(slack) and slack >= 0):
        raise ValueError(f"slack must be finite and >= 0, got {slack!r}")
    ratios = [r.ratio for r in results if r.outcome == "worse"]
    return message(
        "fedpca.take_laplace",
        span=message(
            "fedpca.take_laplace_span", lo=number(min(ratios), 3), hi=number(max(ratios), 3)
        )
        if ratios
        else "",
        tally=verdict_tally(results, spans=False),
        n=str(len(results)),
        slack=f"{number(100 * slack, 2)} %",
    )


def _setting_cells(row) -> tuple[Md, str]:
    """A setting of the comparison families as a table names it: the dataset's display name and ε."""
    return dataset_md(row.dataset), f"{float(row.epsilon):g}"


def comparison_table(family: pd.DataFrame, power: float | None = 0.9) -> tuple[Md, Md]:
    """One family of :func:`wishart_comparisons` (or of the chapter's other comparison tables with ``dataset``,
    ``epsilon`` and ``result`` columns) as a reader reads it (reader review 5, M1): one plain sentence and a table
    with a row per setting, the tests said once in its caption
    (:func:`~dpcompendium.core.comparison.results_text`; with ``power``, a verdict short of runs flagged in its
    cell)."""
    if not len(family):
        raise ValueError("family must hold at least one comparison, got 0")
    return results_text(
        [(_setting_cells(r), r.result) for r in family.itertuples()],
        [message("hist.col_dataset"), message("hist.col_eps")],
        power=power,
    )


def comparison_grid(families: Sequence[pd.DataFrame]) -> tuple[Md, Md]:
    """Families of one arm against several others (:func:`wishart_comparisons`,
    :func:`~dpcompendium.chapters.federated_pca.ppca.ppca_comparisons`), side by side (reader review 5, M1): one
    row per (dataset, ε) every family tested, one column per family, named by its other arm; the text is one plain
    lead per family and the caption says the tests once (:func:`~dpcompendium.core.comparison.grid_text`)."""
    families = [f for f in families if len(f)]
    if not families:
        raise ValueError("families must hold at least one comparison, got 0")
    keyed = [{(r.dataset, float(r.epsilon)): r for r in f.itertuples()} for f in families]
    keys = [k for k in keyed[0] if all(k in m for m in keyed[1:])]
    rows = [(_setting_cells(keyed[0][k]), [m[k].result for m in keyed]) for k in keys]
    columns = [
        message("fedpca.col_against", name=f.result.iloc[0].comparison.b.name) for f in families
    ]
    first = families[0].result.iloc[0].comparison
    return grid_text(
        rows,
        [message("hist.col_dataset"), message("hist.col_eps")],
        columns,
        message("fedpca.cap_grid", a=first.a.name),
    )
