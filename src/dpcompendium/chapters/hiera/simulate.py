"""Monte-Carlo repetitions of the mean estimators, exact in distribution and vectorized over repetitions.

Simulating every user's report R times costs R·n random draws per mechanism. The estimators only need sufficient
statistics, which we draw from their exact laws:

- Duchi/Harmony: the number of +1 reports is a sum of independent Bernoulli((1 + v_i c)/2).
- HierA: a Duchi bit is Duchi's rounding r_i ~ ±1 with P(+1) = (1 + v_i)/2, kept with probability π_s
  [src_hiera, ``user.per_value``]. Users of one level with the same r are exchangeable, so the table n[s, b] is a sum
  of multinomials over the cells (t, r); PLC acts on counts by binomials (:func:`~dpcompendium.chapters.hiera.hiera.plc_counts`).
- Graded Laplace: a sum of n_t iid Lap(b_t) is Gamma(n_t, b_t) − Gamma(n_t, b_t).
- PM: one uniform per user and repetition (inverse CDF); Hybrid: the same uniform picks PM (u < α, then u/α is
  PM's uniform) or Duchi ((u − α)/(1 − α) against Duchi's P(+1)).
- IDUE mean (:mod:`~dpcompendium.chapters.hiera.idldp`): the numbers rounded up per level are Bernoulli sums; the
  number of 1-bits at grid point i is Bin(N_i, a_i) + Bin(n − N_i, b_i).

Bernoulli sums are drawn per distinct value when values repeat (Adult ages: binomials), else per user.
``tests/test_ldp_simulate.py`` checks these laws against the user-side functions.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from functools import partial

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

from ...core._jit import compiled
from ...core.experiments import summarize, sweep
from ...core.validation import check_array, check_epsilon, check_in_domain, check_int, check_rng
from .hiera import (
    calibrate_base_epsilon,
    graded_excess,
    graded_schedule,
    graded_targets,
    hiera_estimate,
    hiera_variance,
    level_transition,
    lhp_exact_epsilon,
)
from .idldp import idue_budgets, idue_estimate, idue_grid, idue_pair_epsilons
from .levels import DEFAULT_EDGES, HIERA_MULTIPLIERS, check_edges, schedule
from .numeric import _pm, duchi_constant, hybrid_alpha

__all__ = [
    "GRADED_METHODS",
    "METHODS",
    "UNIFORM_METHODS",
    "actual_epsilon",
    "hiera_closed_form",
    "mae_experiment",
    "mae_runs",
    "meets_graded",
    "methods_experiment",
    "methods_runs",
    "mu_experiment",
    "simulate_estimates",
    "summarize_mae",
]

#: Methods of experiment 2. ``hiera-calibrated``: HierA with its schedule scaled so that LHP is exactly ε-LDP;
#: ``hiera-graded``: LHP's budgets chosen to meet the graded bound min(ε_t, ε_t′) of the schedule multipliers·ε
#: (:func:`~dpcompendium.chapters.hiera.hiera.graded_schedule`); ``idldp``: IDUE after rounding, meeting the same bound.
METHODS = (
    "harmony",
    "pm",
    "hybrid",
    "graded-laplace",
    "hiera",
    "hiera-calibrated",
    "hiera-graded",
    "idldp",
)
#: The methods that are exactly ε-LDP at base ε (the uniform comparison).
UNIFORM_METHODS = ("harmony", "pm", "hybrid", "hiera-calibrated")
#: The methods that meet the graded bound min(ε_t, ε_t′) of the schedule multipliers·ε (the graded comparison):
#: every ε-LDP method does, since min_t ε_t = ε.
GRADED_METHODS = ("harmony", "pm", "hybrid", "hiera-calibrated", "hiera-graded", "idldp")

_MAX_DRAWS = 1 << 22  # random numbers per block (32 MiB of float64)


def _bernoulli_loop(rng, p, groups, out):  # pragma: no cover - run compiled
    """``out[r, groups[i]] += 1`` when the i-th uniform of repetition r is below ``p[i]`` (compiled by
    :data:`_bernoulli_kernel`): the uniforms of ``rng.random((reps, n))`` drawn one by one in the same (row-major)
    order from the same generator (numba's ``Generator`` shares numpy's bit generator), so the counts and the
    generator's final state are those of the numpy code, without its (reps, n) arrays."""
    reps = out.shape[0]
    n = p.shape[0]
    for r in range(reps):
        for i in range(n):
            out[r, groups[i]] += rng.random() < p[i]  # no branch: the outcome is a coin flip


def _pairwise_program(n: int) -> np.ndarray:
    """numpy's pairwise summation of n contiguous numbers (``add.reduce``: halves split at a multiple of 8 down to
    blocks of at most 128) as a postfix program for :func:`_pairwise_sum`: rows (start, length) sum a block, rows
    (−1, 0) add the last two partial sums."""
    prog: list[tuple[int, int]] = []

    def walk(lo: int, m: int) -> None:
        if m <= 128:
            prog.append((lo, m))
            return
        m2 = m // 2
        m2 -= m2 % 8
        walk(lo, m2)
        walk(lo + m2, m - m2)
        prog.append((-1, 0))

    walk(0, n)
    return np.array(prog, dtype=np.int64)


def _pairwise_sum(a, prog, stack):  # pragma: no cover - run compiled
    """The sum of ``a`` by the program of :func:`_pairwise_program`, operation for operation as numpy sums a
    contiguous row (a block: eight accumulators, combined as ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7)),
    then the remainder; fewer than 8 numbers: in order), so the sum has numpy's bits."""
    sp = 0
    for q in range(prog.shape[0]):
        lo, m = prog[q, 0], prog[q, 1]
        if lo < 0:
            stack[sp - 2] = stack[sp - 2] + stack[sp - 1]
            sp -= 1
            continue
        if m < 8:
            s = 0.0
            for i in range(m):
                s += a[lo + i]
        else:
            r0, r1, r2, r3 = a[lo], a[lo + 1], a[lo + 2], a[lo + 3]
            r4, r5, r6, r7 = a[lo + 4], a[lo + 5], a[lo + 6], a[lo + 7]
            i = 8
            while i < m - (m % 8):
                r0 += a[lo + i]
                r1 += a[lo + i + 1]
                r2 += a[lo + i + 2]
                r3 += a[lo + i + 3]
                r4 += a[lo + i + 4]
                r5 += a[lo + i + 5]
                r6 += a[lo + i + 6]
                r7 += a[lo + i + 7]
                i += 8
            s = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
            while i < m:
                s += a[lo + i]
                i += 1
        stack[sp] = s
        sp += 1
    return stack[0]


def _pm_mean_loop(
    rng, a, rho, p_in, slope, c, buf, prog, stack, out
):  # pragma: no cover - run compiled
    """Per repetition, the mean of PM's reports ``_pm(values, ε, rng.random((reps, n))).mean(axis=1)`` (compiled by
    :data:`_pm_mean_kernel`): the same uniforms in the same order, :func:`~dpcompendium.chapters.hiera.numeric._pm`'s
    operations in its order on ``a`` = ρ·(l(v) + C) precomputed, and numpy's pairwise sum, so the same bits;
    ``buf`` holds one repetition's reports."""
    n = a.shape[0]
    for r in range(out.shape[0]):
        for i in range(n):
            u = rng.random()
            x = min(max(u - a[i], 0.0), p_in)
            x *= slope
            x += u / rho
            x -= c
            buf[i] = x
        out[r] = _pairwise(buf, prog, stack) / n


def _hybrid_mean_loop(
    rng, a, rho, p_in, slope, c, alpha, p_plus, c_duchi, buf, prog, stack, out
):  # pragma: no cover - run compiled
    """Per repetition, the mean of the Hybrid mechanism's reports as :func:`simulate_estimates`' numpy code computes
    it (compiled by :data:`_hybrid_mean_kernel`): one uniform u per user, PM with u/α when u < α, else Duchi's
    ±C with (u − α)/(1 − α) against P(+1); the same uniforms in the same order and numpy's pairwise sum. Both
    reports are computed for every user and one is selected (no branch on the coin: about 2× faster, the same
    numbers; the divisor of a side never taken is replaced by 1, so that it cannot divide by zero)."""
    n = a.shape[0]
    one_minus = 1.0 - alpha
    al = alpha if alpha > 0.0 else 1.0  # α = 0: u < α never holds, the PM side is never taken
    om = one_minus if one_minus > 0.0 else 1.0  # α = 1: the Duchi side is never taken
    for r in range(out.shape[0]):
        for i in range(n):
            u = rng.random()
            w = u / al
            x = min(max(w - a[i], 0.0), p_in)
            x *= slope
            x += w / rho
            x -= c
            d = c_duchi if (u - alpha) / om < p_plus[i] else -c_duchi
            buf[i] = x if u < alpha else d
        out[r] = _pairwise(buf, prog, stack) / n


_bernoulli_kernel = compiled(_bernoulli_loop)
_pairwise_sum_jit = compiled(_pairwise_sum)
#: The summation :func:`_pm_mean_loop` calls (the compiled one once :func:`_pm_mean_kernel` has run).
_pairwise = _pairwise_sum


@functools.cache
def _pm_mean_kernel():
    """:func:`_pm_mean_loop` compiled (numba), calling the compiled :func:`_pairwise_sum`."""
    global _pairwise
    _pairwise = _pairwise_sum_jit()
    return compiled(_pm_mean_loop)()


@functools.cache
def _hybrid_mean_kernel():
    """:func:`_hybrid_mean_loop` compiled (numba), calling the compiled :func:`_pairwise_sum`."""
    _pm_mean_kernel()  # compiles the summation first
    return compiled(_hybrid_mean_loop)()


#: Whether :func:`simulate_estimates` draws its per-user Bernoulli sums and PM means with the compiled kernels (the
#: same draws, counts and bits as the numpy code, which is their reference in the tests).
compiled_kernels = True


def _bernoulli_sums(
    p: np.ndarray, groups: np.ndarray, n_groups: int, reps: int, rng: np.random.Generator
) -> np.ndarray:
    """(reps, n_groups): per group, the sum of independent Bernoulli(p_i) over its members, per repetition."""
    if compiled_kernels and _many_distinct(p, groups, n_groups):
        # one draw per user (below) needs no sorted pairs: skip the lexsort of the branch it would not take
        out = np.zeros((reps, n_groups), dtype=np.int64)
        _bernoulli_kernel()(
            rng, np.asarray(p, dtype=float), np.asarray(groups, dtype=np.int64), out
        )
        return out
    order = np.lexsort((p, groups))  # the distinct (group, p) pairs, in increasing (group, p) order
    g_s, p_s = groups[order], p[order]
    first = np.flatnonzero(np.r_[True, (g_s[1:] != g_s[:-1]) | (p_s[1:] != p_s[:-1])])
    if first.size * 8 <= p.size:  # few distinct (group, p): one binomial each
        counts = np.diff(np.r_[first, p.size])
        draws = rng.binomial(counts, p_s[first], size=(reps, first.size))
        onehot = np.zeros((first.size, n_groups))
        onehot[np.arange(first.size), g_s[first]] = 1.0
        return np.rint(draws @ onehot).astype(np.int64)
    if compiled_kernels:
        out = np.zeros((reps, n_groups), dtype=np.int64)
        _bernoulli_kernel()(
            rng, np.asarray(p, dtype=float), np.asarray(groups, dtype=np.int64), out
        )
        return out
    block = max(1, _MAX_DRAWS // p.size)
    if n_groups == 1:
        out = [
            (rng.random((min(block, reps - r), p.size)) < p).sum(axis=1)[:, None]
            for r in range(0, reps, block)
        ]
        return np.concatenate(out).astype(np.int64)
    onehot = np.zeros((p.size, n_groups))
    onehot[np.arange(p.size), groups] = 1.0
    out = [
        np.rint((rng.random((min(block, reps - r), p.size)) < p).astype(float) @ onehot)
        for r in range(0, reps, block)
    ]
    return np.concatenate(out).astype(np.int64)


def _many_distinct(p: np.ndarray, groups: np.ndarray, n_groups: int) -> bool:
    """Whether the (group, p) pairs are certainly too many for one binomial each (more than n/8 distinct: the test
    of :func:`_bernoulli_sums`), by hashing (O(n)) instead of its lexsort: the pairs as exact complex numbers
    p + i·group; hashing may tell 0.0 from −0.0 where the sort does not, at most one extra pair per group, so the
    answer is "yes" only when it holds for the sort's count too (otherwise the sort decides, as before)."""
    if p.size < 64:
        return False
    distinct = pd.unique(np.asarray(p, dtype=float) + 1j * np.asarray(groups, dtype=float)).size
    return (distinct - n_groups) * 8 > p.size


def _pm_means(
    v: np.ndarray, eps: float, reps: int, rng: np.random.Generator, hybrid: tuple | None = None
) -> np.ndarray:
    """``reps`` means of PM's reports of ``v`` by :data:`_pm_mean_kernel` (the numpy code's draws and bits); with
    ``hybrid`` = (α, P(+1) per user, Duchi's C), of the Hybrid mechanism's by :data:`_hybrid_mean_kernel`."""
    h = np.exp(np.asarray(eps, dtype=float) / 2.0)
    c = (h + 1.0) / (h - 1.0)
    p_in = h / (h + 1.0)
    rho = (1.0 - p_in) / (c + 1.0)
    a = rho * ((c + 1.0) / 2.0 * v + (c + 1.0) / 2.0)  # as numeric._pm computes it
    out = np.empty(reps)
    slope = (c - 1.0) / p_in - 1.0 / rho
    # the arguments both kernels take, before and after the Hybrid mechanism's own
    head = (rng, np.ascontiguousarray(a), float(rho), float(p_in), float(slope), float(c))
    tail = (np.empty(v.size), _pairwise_program(v.size), np.empty(64), out)
    if hybrid is None:
        _pm_mean_kernel()(*head, *tail)
        return out
    alpha, p_plus, c_duchi = hybrid
    own = (float(alpha), np.ascontiguousarray(p_plus, dtype=float), float(c_duchi))
    _hybrid_mean_kernel()(*head, *own, *tail)
    return out


def simulate_estimates(
    values: ArrayLike,
    method: str,
    epsilon: float,
    reps: int,
    rng: np.random.Generator,
    *,
    mu: int = 2,
    multipliers: Sequence[float] = HIERA_MULTIPLIERS,
    edges: ArrayLike = DEFAULT_EDGES,
    clip: bool = True,
    laplace_variant: str = "as-written",
) -> np.ndarray:
    """``reps`` independent mean estimates of ``method`` at base budget ε, as arrays of shape (reps,).

    Methods: ``harmony`` (Duchi, ε), ``pm`` (ε), ``hybrid`` (ε), ``graded-laplace`` (schedule multipliers·ε, as in
    the source), ``hiera`` (schedule multipliers·ε, μ), ``hiera-calibrated`` (schedule scaled so LHP is exactly
    ε-LDP), ``hiera-graded`` and ``idldp`` (meeting the graded bound of multipliers·ε, see :data:`METHODS`).
    """
    eps = check_epsilon(epsilon)
    reps = check_int(reps, "reps", minimum=1)
    rng = check_rng(rng)
    e = check_edges(edges)
    v = check_in_domain(check_array(values, "values").ravel(), (-1.0, 1.0), "values")
    n = v.size
    if method == "harmony":
        plus = _bernoulli_sums(
            0.5 * (1 + v * np.tanh(eps / 2)), np.zeros(n, np.int64), 1, reps, rng
        )[:, 0]
        return float(duchi_constant(eps)) * (2.0 * plus - n) / n
    if method == "pm":
        if compiled_kernels:
            return _pm_means(v, eps, reps, rng)
        block = max(1, _MAX_DRAWS // n)
        return np.concatenate(
            [
                _pm(v, eps, rng.random((min(block, reps - r), n))).mean(axis=1)
                for r in range(0, reps, block)
            ]
        )
    if method == "hybrid":
        alpha = hybrid_alpha(eps)
        c = float(duchi_constant(eps))
        p_plus = 0.5 * (1.0 + v * np.tanh(eps / 2.0))
        if compiled_kernels:
            return _pm_means(v, eps, reps, rng, hybrid=(alpha, p_plus, c))
        block = max(1, _MAX_DRAWS // n)
        out = []
        for r in range(0, reps, block):
            u = rng.random((min(block, reps - r), n))
            pm = _pm(v, eps, u / alpha) if alpha > 0 else np.zeros_like(u)
            duchi = np.where((u - alpha) / (1.0 - alpha) < p_plus, c, -c)
            out.append(np.where(u < alpha, pm, duchi).mean(axis=1))
        return np.concatenate(out)
    levels = np.searchsorted(e, v, side="right")
    k = e.size + 1
    if method == "idldp":
        sched = schedule(eps, multipliers)
        grid = idue_grid(e)
        lo = np.clip(
            np.searchsorted(grid, v, side="right") - 1, 0, k - 1
        )  # the cell of v on the grid
        w_up = (v - grid[lo]) / (grid[lo + 1] - grid[lo])
        up = _bernoulli_sums(w_up, lo, k, reps, rng)  # (reps, k): rounded up, per cell
        n_cell = np.bincount(lo, minlength=k)
        n_grid = np.zeros((reps, k + 1), dtype=np.int64)
        n_grid[:, :k] += n_cell - up
        n_grid[:, 1:] += up
        rho = idue_budgets(sched, edges=e)
        a = 1.0 / (1.0 + np.exp(-rho / 2.0))
        ones = rng.binomial(n_grid, a) + rng.binomial(n - n_grid, 1.0 - a)
        return np.asarray(idue_estimate(ones, np.full(reps, n), sched, edges=e))
    if method == "graded-laplace":
        sched = schedule(eps, multipliers)
        if laplace_variant not in ("as-written", "private"):
            raise ValueError(
                f"laplace_variant must be 'as-written' or 'private', got {laplace_variant!r}"
            )
        scale = 2.0 / (np.full(k, sched.min()) if laplace_variant == "private" else sched)
        n_t = np.bincount(levels, minlength=k).astype(float)
        noise = rng.gamma(n_t, scale, size=(reps, k)) - rng.gamma(n_t, scale, size=(reps, k))
        return v.mean() + noise.sum(axis=1) / n
    if method in ("hiera", "hiera-calibrated", "hiera-graded"):
        if method == "hiera-graded":
            sched = graded_schedule(eps, multipliers, edges=e)
        elif method == "hiera-calibrated":
            sched = schedule(calibrate_base_epsilon(eps, multipliers, edges=e), multipliers)
        else:
            sched = schedule(eps, multipliers)
        r_plus = _bernoulli_sums(0.5 * (1.0 + v), levels, k, reps, rng)  # (reps, k)
        n_t = np.bincount(levels, minlength=k)
        cells = np.stack((r_plus, n_t - r_plus), axis=-1)  # (reps, t, r)
        pi = np.exp(sched) / (np.exp(sched) + 1.0)
        keep = np.stack((pi, 1.0 - pi), axis=-1)  # [s, b] for r = +1
        flip = keep[:, ::-1]  # for r = −1
        g = level_transition(sched)  # [t, s]
        pvals = g[:, None, :, None] * np.stack((keep, flip))[None]  # [t, r, s, b]
        counts = (
            rng.multinomial(cells, pvals.reshape(k, 2, 2 * k)).sum(axis=(1, 2)).reshape(reps, k, 2)
        )
        return np.asarray(hiera_estimate(counts, sched, mu, rng, clip=clip))
    raise ValueError(f"method must be one of {', '.join(METHODS)}, got {method!r}")


def _cell(dataset, epsilon, reps, rng, *, data, method, mu, **kw):
    v = data[dataset]
    est = simulate_estimates(v, method, epsilon, reps, rng, mu=mu, **kw)
    return [{"rep": r, "error": float(x - v.mean())} for r, x in enumerate(est)]


def mae_runs(
    data: Mapping[str, np.ndarray],
    epsilons: Sequence[float],
    values: Sequence,
    reps: int,
    seed: int,
    *,
    axis: str,
    n_jobs: int = 1,
    **kw,
) -> pd.DataFrame:
    """The error of each repetition of the mean estimate per (dataset, ``axis``, ε): ``reps`` repetitions of
    :func:`simulate_estimates`, ``axis`` one of its options (``"mu"`` or ``"method"``) swept over ``values``, ``kw``
    its other options, fixed. Columns dataset, ``axis``, epsilon, rep, error (estimate − true mean): the per-run
    losses behind :func:`mae_experiment`'s summaries (one random stream per cell, so the same numbers)."""
    grid = {"dataset": list(data), axis: list(values), "epsilon": list(epsilons)}
    cell = partial(_cell, data=dict(data), **kw)
    return sweep(cell, grid, reps, seed, n_jobs=n_jobs, vectorized=True)


def summarize_mae(runs: pd.DataFrame, axis: str) -> pd.DataFrame:
    """A table of :func:`mae_runs` summarized per (dataset, ``axis``, ε): columns dataset, ``axis``, epsilon, reps,
    mae (mean absolute error over the repetitions), mae_se (its standard error, sd / √reps)."""
    return summarize(
        runs,
        ["dataset", axis, "epsilon"],
        {
            "mae": lambda e: float(np.mean(np.abs(e))),
            "mae_se": lambda e: float(np.std(np.abs(e), ddof=1)) / np.sqrt(e.size),
        },
    )


def mae_experiment(*args, axis: str, **kw) -> pd.DataFrame:
    """MAE of the mean estimate and its standard error per (dataset, ``axis``, ε), over ``reps`` repetitions of
    :func:`simulate_estimates`: :func:`summarize_mae` of :func:`mae_runs`, with its arguments (data, epsilons, values,
    reps, seed, ``axis``, n_jobs and the options ``kw``). Columns dataset, ``axis``, epsilon, reps, mae, mae_se.
    Experiments 1 and 2 are :func:`mu_experiment` and :func:`methods_experiment`."""
    return summarize_mae(mae_runs(*args, axis=axis, **kw), axis)


#: Experiment 1: HierA's MAE for each μ and ε, ``mu_experiment(data, epsilons, mus, reps, seed, *, n_jobs=1)``
#: (columns dataset, mu, epsilon, reps, mae, mae_se).
mu_experiment = partial(mae_experiment, axis="mu", method="hiera")

#: Experiment 2: MAE of each method per dataset and ε, ``methods_experiment(data, epsilons, methods, reps, seed, *,
#: mu=2, n_jobs=1)`` (columns dataset, method, epsilon, reps, mae, mae_se).
methods_experiment = partial(mae_experiment, axis="method", mu=2)

#: Experiment 2's per-run errors, ``methods_runs(data, epsilons, methods, reps, seed, *, mu=2, n_jobs=1)`` (columns
#: dataset, method, epsilon, rep, error): :func:`methods_experiment` is :func:`summarize_mae` of them, and the
#: comparisons of :func:`~dpcompendium.chapters.hiera.verdicts.methods_comparisons` are built from their losses.
methods_runs = partial(mae_runs, axis="method", mu=2)


def actual_epsilon(
    method: str, epsilon: float, multipliers: Sequence[float] = HIERA_MULTIPLIERS
) -> float:
    """The exact LDP level of one report of ``method`` at base ε, over every pair of inputs (∞ for the as-written
    graded Laplace)."""
    eps = check_epsilon(epsilon)
    if method in ("harmony", "pm", "hybrid", "hiera-calibrated"):
        return eps
    if method == "hiera":
        return lhp_exact_epsilon(schedule(eps, multipliers))
    if method == "hiera-graded":
        return lhp_exact_epsilon(graded_schedule(eps, multipliers))
    if method == "idldp":
        sched = schedule(eps, multipliers)
        return float(idue_pair_epsilons(idue_budgets(sched), sched.size).max())
    if method == "graded-laplace":
        return float("inf")
    raise ValueError(f"method must be one of {', '.join(METHODS)}, got {method!r}")


def meets_graded(
    method: str, epsilon: float, multipliers: Sequence[float] = HIERA_MULTIPLIERS
) -> bool:
    """Whether one report of ``method`` at base ε meets the graded bound min(ε_t, ε_t′) of multipliers·ε between
    values of levels t and t′, computed from its exact pairwise levels (ε-LDP methods: ε = min_t ε_t, so yes)."""
    eps = check_epsilon(epsilon)
    sched = schedule(eps, multipliers)
    bound = graded_targets(sched)
    tol = 1e-9 * eps
    if method in ("harmony", "pm", "hybrid"):
        return bool(eps <= bound.min() + tol)
    if method in ("hiera", "hiera-calibrated", "hiera-graded"):
        used = {
            "hiera": sched,
            "hiera-calibrated": schedule(calibrate_base_epsilon(eps, multipliers), multipliers),
            "hiera-graded": graded_schedule(eps, multipliers),
        }[method]
        return graded_excess(used, bound) <= tol
    if method == "idldp":
        return bool((idue_pair_epsilons(idue_budgets(sched), sched.size) <= bound + tol).all())
    if method == "graded-laplace":
        return False
    raise ValueError(f"method must be one of {', '.join(METHODS)}, got {method!r}")


def hiera_closed_form(
    values: ArrayLike,
    epsilons: Sequence[float],
    mus: Sequence[int],
    multipliers: Sequence[float] = HIERA_MULTIPLIERS,
) -> pd.DataFrame:
    """Per (μ, ε): sd of the unclipped HierA estimate and its MAE √(2/π)·sd (normal errors, n large)."""
    rows = []
    for mu in mus:
        for eps in epsilons:
            sd = float(np.sqrt(hiera_variance(values, schedule(eps, multipliers), mu)))
            rows.append(
                {"mu": mu, "epsilon": eps, "sd": sd, "mae_unclipped": sd * np.sqrt(2.0 / np.pi)}
            )
    return pd.DataFrame(rows)
