"""LDP mini-batch SGD for linear regression (algorithm 4 of [src_hiera]; the setting of [wang2019collecting]).

Users hold (x_i, y_i) ∈ [−1, 1]^d × [−1, 1]; the model is y ≈ β·[1, x]. Each user takes part in one iteration only.
In iteration t the collector sends β_t to a fresh group of G users; each computes the gradient of
R = (β·x̃ − y)² + (λ/2)‖β‖², clips it to [−1, 1]^{d+1}, samples **one** coordinate j uniformly and reports it with an
ε-LDP mechanism (for HierA: LHP, with the level of x̃_j); the collector estimates every coordinate's mean gradient
and sets β_{t+1} = β_t − γ_t ĝ, γ_t = t^(−lr_power) (the source: 1/√t). Each user's report is ε-LDP (local neighbours, domain [−1, 1]); for
HierA, the LHP schedule's exact ε (:func:`~dpcompendium.ldp.hiera.lhp_exact_epsilon`).

``faithful=False`` follows the text: ĝ_j averages the reports of the users who sampled j (an unbiased estimate of
the mean gradient), the regulariser's gradient is λβ, HierA's schedule is {2ε, 1.75ε, 1.5ε, 1.25ε, ε}.
``faithful=True`` reproduces the source's code: reports are averaged over the whole group with zeros for the other
coordinates (ĝ shrunk by ≈ 1/(d+1)), the regulariser's gradient is λ|β| with none on the intercept, the schedule is
{5ε, …, ε}. Group size: ``"code"`` max(⌈d̃ ln d̃ / ε²⌉, 1000), ``"text"`` ⌈2 d̃ ln d̃ / ε²⌉ (d̃ = d + 1).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from functools import partial

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike
from sklearn.linear_model import LinearRegression
from sklearn.model_selection import KFold

from ..experiments import sweep
from ..validation import check_array, check_epsilon, check_int, check_rng
from .hiera import compensation_weights
from .levels import DEFAULT_EDGES, HIERA_MULTIPLIERS, SGD_TEXT_MULTIPLIERS, check_edges
from .numeric import _duchi_bits, _pm, duchi_constant

__all__ = [
    "SGD_METHODS",
    "SGD_VARIANTS",
    "group_size",
    "kfold_mse",
    "ldp_sgd",
    "least_squares_kfold_mse",
    "sgd_experiment",
]

#: ``corrected`` = the text; ``code-training`` = the code's SGD scored correctly; ``faithful`` = the code throughout.
SGD_VARIANTS = ("corrected", "code-training", "faithful")
#: ``none`` is the same SGD with exact gradients (no privacy, no coordinate sampling).
SGD_METHODS = ("none", "harmony", "pm", "graded-laplace", "hiera")


def group_size(d_tilde: int, epsilon: float, rule: str = "code") -> int:
    """Users per iteration: ``"code"`` max(⌈d̃ ln d̃/ε²⌉, 1000); ``"text"`` ⌈2 d̃ ln d̃/ε²⌉."""
    d_tilde = check_int(d_tilde, "d_tilde", minimum=2)
    eps = check_epsilon(epsilon)
    if rule == "code":
        return max(math.ceil(d_tilde * math.log(d_tilde) / eps**2), 1000)
    if rule == "text":
        return max(math.ceil(2 * d_tilde * math.log(d_tilde) / eps**2), 1)
    raise ValueError(f"group_rule must be 'code' or 'text', got {rule!r}")


def _estimate(
    method: str,
    gj: np.ndarray,
    xj: np.ndarray,
    j: np.ndarray,
    dt: int,
    eps: np.ndarray,
    sched: np.ndarray,
    edges: np.ndarray,
    mu: int,
    faithful: bool,
    rng: np.random.Generator,
) -> np.ndarray:
    """(R, d̃) estimated mean gradient of one group. ``gj``, ``xj``, ``j``: (R, G) sampled coordinate's clipped
    gradient, feature value and index; ``eps`` (R,) and ``sched`` (R, k): each run's budgets."""
    r, g = gj.shape
    cell = j + dt * np.arange(r)[:, None]  # (run, coordinate) index
    n_j = np.bincount(cell.ravel(), minlength=r * dt).reshape(r, dt)
    if (
        method == "hiera"
    ):  # user side: LHP with the level of x_j; collector side: HierA per coordinate
        k = sched.shape[1]
        level = np.searchsorted(edges, xj, side="right")
        e = np.exp(sched)
        keep = rng.random((r, g)) < np.take_along_axis(e / (e + k - 1.0), level, axis=1)
        other = rng.integers(0, k - 1, size=(r, g))
        other += other >= level
        s = np.where(keep, level, other)
        bits = _duchi_bits(gj, np.take_along_axis(sched, s, axis=1), rng)
        flat = (cell * k + s).ravel() * 2 + (bits.ravel() < 0)
        counts = np.bincount(flat, minlength=r * dt * k * 2).reshape(r, dt, k, 2)
        tot, n = _hiera_runs(counts, sched, mu, rng)
        est = np.divide(tot, n, out=np.zeros_like(tot), where=n > 0)
        return est * n_j / g if faithful else est
    if method == "harmony":
        rep = duchi_constant(eps)[:, None] * _duchi_bits(gj, eps[:, None], rng)
    elif method == "pm":
        rep = _pm(gj, eps[:, None], rng.random((r, g)))
    elif (
        method == "graded-laplace"
    ):  # the level of the gradient value itself, as in the source's code
        scale = 2.0 / np.take_along_axis(sched, np.searchsorted(edges, gj, side="right"), axis=1)
        rep = gj + rng.laplace(0.0, 1.0, size=(r, g)) * scale
    else:
        raise ValueError(f"method must be one of {', '.join(SGD_METHODS)}, got {method!r}")
    sums = np.bincount(cell.ravel(), weights=rep.ravel(), minlength=r * dt).reshape(r, dt)
    return sums / g if faithful else sums / np.maximum(n_j, 1)


def _hiera_runs(counts: np.ndarray, sched: np.ndarray, mu: int, rng: np.random.Generator):
    """HierA steps 3–6 on counts (R, d̃, k, 2) with one schedule per run (R, k); returns (Σ S, Σ N) (R, d̃)."""
    k = sched.shape[1]
    w = compensation_weights(k, mu)
    merged = counts * w[:, None]
    pi = np.exp(sched) / (np.exp(sched) + 1.0)  # (R, k)
    for i in range(k):
        for jj in range(i + 1, min(i + mu, k)):
            x = ((pi[:, i] + pi[:, jj] - 1.0) / (2.0 * pi[:, i] - 1.0))[:, None]
            c = counts[..., i, :]
            n1 = rng.binomial(c[..., 0], x) + rng.binomial(c[..., 1], 1.0 - x)
            merged[..., jj, 0] += n1
            merged[..., jj, 1] += c[..., 0] + c[..., 1] - n1
    n1 = merged[..., 0].astype(float)
    n2 = merged[..., 1].astype(float)
    n = n1 + n2
    p = pi[:, None, :]
    a = np.clip((p * n - n2) / (2.0 * p - 1.0), 0.0, n)
    b = np.clip((p * n - n1) / (2.0 * p - 1.0), 0.0, n)
    return (a - b).sum(axis=-1), n.sum(axis=-1)


def _sgd(xa, ya, train, method, eps, faithful, mu, lam, g, edges, rng, lr_power=0.5) -> np.ndarray:
    """Vectorized SGD: runs = (ε, fold) for budgets ``eps`` (E,) and training sets ``train`` (F, m); group size g.

    Returns β of shape (E, F, d̃). Visiting order: one uniformly random permutation of all users, restricted to each
    training set, so every run sees its users in a uniformly random order (runs of one fold share it) and the
    per-iteration gather reads nearly contiguous memory.
    """
    n_e, (n_f, m) = eps.size, train.shape
    dt = xa.shape[1] + 1
    perm = rng.permutation(ya.size)
    xp, yp = xa[perm], ya[perm]
    rank = np.empty_like(perm)
    rank[perm] = np.arange(perm.size)
    order = np.sort(rank[train], axis=1)  # positions in (xp, yp), in visiting order
    e_runs = np.repeat(eps, n_f)  # (R,), R = E·F, run r = (e, f) with f fastest
    sched = e_runs[:, None] * np.asarray(HIERA_MULTIPLIERS if faithful else SGD_TEXT_MULTIPLIERS)
    beta = rng.random((n_e, n_f, dt))
    f_idx = np.arange(n_f)[None, :, None]
    g_idx = np.arange(g)[None, None, :]
    xt = np.ones((n_f, g, dt))
    for t in range(1, m // g + 1):
        idx = order[:, (t - 1) * g : t * g]
        xt[..., 1:] = xp[idx]
        resid = np.einsum("fgd,efd->efg", xt, beta) - yp[idx]
        if faithful:
            reg = lam * np.abs(beta)
            reg[..., 0] = 0.0
        else:
            reg = lam * beta
        if method == "none":
            grad = 2.0 * xt[None] * resid[..., None] + reg[:, :, None, :]
            step = np.clip(grad, -1.0, 1.0).mean(axis=2)
        else:  # each user computes only the coordinate it reports
            j = rng.integers(0, dt, size=(n_e, n_f, g))
            xj = xt[f_idx, g_idx, j]
            gj = np.clip(2.0 * xj * resid + np.take_along_axis(reg, j, axis=2), -1.0, 1.0)
            flat = (n_e * n_f, g)
            step = _estimate(
                method,
                gj.reshape(flat),
                xj.reshape(flat),
                j.reshape(flat),
                dt,
                e_runs,
                sched,
                edges,
                mu,
                faithful,
                rng,
            ).reshape(n_e, n_f, dt)
        beta = beta - step * t ** (-lr_power)
    return beta


def _check_settings(lam, lr_power):
    if isinstance(lam, bool) or not isinstance(lam, int | float) or not 0 <= lam < math.inf:
        raise ValueError(f"lam must be a finite number >= 0, got {lam!r}")
    if (
        isinstance(lr_power, bool)
        or not isinstance(lr_power, int | float)
        or not 0 < lr_power < math.inf
    ):
        raise ValueError(f"lr_power must be a finite number > 0, got {lr_power!r}")


def _check_xy(x, y):
    xa = check_array(x, "x", ndim=2)
    ya = check_array(y, "y", ndim=1)
    if ya.size != xa.shape[0]:
        raise ValueError(f"y must have {xa.shape[0]} rows like x, got {ya.size}")
    if np.abs(xa).max() > 1 or np.abs(ya).max() > 1:
        raise ValueError("x and y must lie in [-1, 1]")
    return xa, ya


def ldp_sgd(
    x: ArrayLike,
    y: ArrayLike,
    method: str,
    epsilon: float,
    rng: np.random.Generator,
    *,
    faithful: bool = False,
    mu: int = 2,
    lam: float = 1e-4,
    group_rule: str = "code",
    lr_power: float = 0.5,
    edges: ArrayLike = DEFAULT_EDGES,
) -> np.ndarray:
    """Algorithm 4: one pass of LDP mini-batch SGD over the n users of (x, y); returns β = [b, α_1, …, α_d].

    Users are visited in a random order; the last n mod G users are not used (as in the source).
    """
    eps = check_epsilon(epsilon)
    rng = check_rng(rng)
    xa, ya, e, mu = _check_run(x, y, method, mu, edges, lam, lr_power)
    g = group_size(xa.shape[1] + 1, eps, group_rule)
    train = np.arange(ya.size)[None]
    return _sgd(xa, ya, train, method, np.array([eps]), faithful, mu, lam, g, e, rng, lr_power)[
        0, 0
    ]


def _check_run(x, y, method, mu, edges, lam, lr_power):
    """Validate the arguments shared by :func:`ldp_sgd` and :func:`kfold_mse`; return (x, y, edges, mu)."""
    e = check_edges(edges)
    mu = check_int(mu, "mu", minimum=1, maximum=e.size + 1)
    xa, ya = _check_xy(x, y)
    _check_settings(lam, lr_power)
    if method not in SGD_METHODS:
        raise ValueError(f"method must be one of {', '.join(SGD_METHODS)}, got {method!r}")
    return xa, ya, e, mu


def _folds(n: int, folds: int, faithful: bool, rng: np.random.Generator):
    kf = KFold(
        n_splits=folds,
        shuffle=not faithful,
        random_state=None if faithful else int(rng.integers(2**31)),
    )
    return list(kf.split(np.arange(n)))


def kfold_mse(
    x: ArrayLike,
    y: ArrayLike,
    method: str,
    epsilons: Sequence[float],
    rng: np.random.Generator,
    *,
    folds: int = 5,
    faithful: bool = False,
    faithful_eval: bool | None = None,
    mu: int = 2,
    lam: float = 1e-4,
    group_rule: str = "code",
    lr_power: float = 0.5,
    edges: ArrayLike = DEFAULT_EDGES,
) -> np.ndarray:
    """Cross-validated MSE of :func:`ldp_sgd` for each ε (squared errors pooled over folds, as in the source).

    ``faithful=False``: shuffled :class:`sklearn.model_selection.KFold`, predictions on each fold's test rows.
    ``faithful=True``: the source's ``five_folds_sgd`` — contiguous folds, and predictions made on rows x[j] of the
    *whole* data (its first rows) but compared with the test targets y_test[j]. (Its outer loop that repeats the
    five folds five times changes nothing in expectation and is not repeated.) All folds and every ε with the same
    group size run in one vectorized pass; training sets are cut to the shortest fold's length (one user less at
    most). ``faithful_eval`` (default: ``faithful``) sets the evaluation alone, so that the code's training can be
    scored correctly. Returns an array aligned with ``epsilons``.
    """
    rng = check_rng(rng)
    xa, ya, e, mu = _check_run(x, y, method, mu, edges, lam, lr_power)
    eps = np.array([check_epsilon(v) for v in epsilons])
    folds = check_int(folds, "folds", minimum=2)
    faithful_eval = faithful if faithful_eval is None else bool(faithful_eval)
    splits = _folds(ya.size, folds, faithful_eval, rng)
    m = min(len(tr) for tr, _ in splits)
    train = np.stack([tr[:m] for tr, _ in splits])
    sizes = np.array([group_size(xa.shape[1] + 1, v, group_rule) for v in eps])
    mse = np.empty(eps.size)
    for g in np.unique(sizes):
        which = np.flatnonzero(sizes == g)
        beta = _sgd(xa, ya, train, method, eps[which], faithful, mu, lam, int(g), e, rng, lr_power)
        for w, b_eps in zip(which, beta, strict=True):
            se = []
            for (_, te), b in zip(splits, b_eps, strict=True):
                rows = np.arange(te.size) if faithful_eval else te
                se.append((b[0] + xa[rows] @ b[1:] - ya[te]) ** 2)
            mse[w] = float(np.mean(np.concatenate(se)))
    return mse


def least_squares_kfold_mse(
    x: ArrayLike, y: ArrayLike, rng: np.random.Generator, *, folds: int = 5
) -> float:
    """Non-private reference: ordinary least squares (scikit-learn), the same shuffled K-fold MSE."""
    rng = check_rng(rng)
    xa = check_array(x, "x", ndim=2)
    ya = check_array(y, "y", ndim=1)
    se = []
    for tr, te in _folds(ya.size, check_int(folds, "folds", minimum=2), False, rng):
        fit = LinearRegression().fit(xa[tr], ya[tr])
        se.append((fit.predict(xa[te]) - ya[te]) ** 2)
    return float(np.mean(np.concatenate(se)))


def _sgd_cell(dataset, method, variant, rng, *, data, epsilons, folds, **kw):
    x, y = data[dataset]
    if method == "least-squares":
        return [
            {
                "epsilon": np.nan,
                "folds": folds,
                "mse": least_squares_kfold_mse(x, y, rng, folds=folds),
            }
        ]
    eps = [np.nan] if method == "none" else list(epsilons)
    mse = kfold_mse(
        x,
        y,
        method,
        [1.0] if method == "none" else eps,
        rng,
        folds=folds,
        faithful=variant != "corrected",
        faithful_eval=variant == "faithful",
        **kw,
    )
    return [{"epsilon": e, "folds": folds, "mse": float(v)} for e, v in zip(eps, mse, strict=True)]


def sgd_experiment(
    data: Mapping[str, tuple[np.ndarray, np.ndarray]],
    epsilons: Sequence[float],
    methods: Sequence[str],
    seed: int,
    *,
    variants: Sequence[str] = SGD_VARIANTS,
    folds: int = 5,
    n_jobs: int = 1,
    **kw,
) -> pd.DataFrame:
    """Experiment 3: K-fold MSE per dataset, method, variant and ε, plus ``least-squares`` (non-private, OLS).

    Variants: ``corrected`` (the text), ``code-training`` (the code's training, scored correctly), ``faithful`` (the
    code's training and its evaluation).

    Columns dataset, method, variant, epsilon (empty for non-private rows), folds, mse. ``method="none"`` is the
    same SGD without privacy. One random stream per (dataset, method, variant) cell (:func:`~dpcompendium.experiments.sweep`).
    """
    for v in variants:
        if v not in SGD_VARIANTS:
            raise ValueError(f"variants must be among {', '.join(SGD_VARIANTS)}, got {v!r}")
    grid = {"dataset": list(data), "method": [*methods, "least-squares"], "variant": list(variants)}
    cell = partial(_sgd_cell, data=dict(data), epsilons=list(epsilons), folds=folds, **kw)
    runs = sweep(cell, grid, 1, seed, n_jobs=n_jobs).drop(columns="rep")
    keep = ~((runs["method"] == "least-squares") & (runs["variant"] != variants[0]))
    runs = runs[keep].reset_index(drop=True)
    runs.loc[runs["method"] == "least-squares", "variant"] = "non-private"
    return runs[["dataset", "method", "variant", "epsilon", "folds", "mse"]]
