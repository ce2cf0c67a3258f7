"""LDP mini-batch SGD for linear regression (algorithm 4 of [src_hiera]; the setting of [wang2019collecting]).

Users hold (x_i, y_i) ∈ [−1, 1]^d × [−1, 1]; the model is y ≈ β·[1, x]. Each user takes part in one iteration only.
In iteration t the collector sends β_t to a fresh group of G users; each computes the gradient of
R = (β·x̃ − y)² + (λ/2)‖β‖², clips it to [−1, 1]^{d+1}, samples **one** coordinate j uniformly and reports it with an
ε-LDP mechanism (for HierA: LHP, with the level of x̃_j); the collector estimates every coordinate's mean gradient
and sets β_{t+1} = β_t − γ_t ĝ, γ_t = t^(−lr_power) (the source: 1/√t). Each user's report is ε-LDP (local neighbours, domain [−1, 1]); for
HierA, the LHP schedule's exact ε (:func:`~dpcompendium.chapters.hiera.hiera.lhp_exact_epsilon`).

``faithful=False`` follows the text: ĝ_j averages the reports of the users who sampled j (an unbiased estimate of
the mean gradient), the regulariser's gradient is λβ, HierA's schedule is {2ε, 1.75ε, 1.5ε, 1.25ε, ε}.
``faithful=True`` reproduces the source's code: reports are averaged over the whole group with zeros for the other
coordinates (ĝ shrunk by ≈ 1/(d+1)), the regulariser's gradient is λ|β| with none on the intercept, the schedule is
{5ε, …, ε}. Group size: ``"code"`` max(⌈d̃ ln d̃ / ε²⌉, 1000), ``"text"`` ⌈2 d̃ ln d̃ / ε²⌉ (d̃ = d + 1).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import partial

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike
from scipy.linalg import lstsq
from scipy.special import ndtr, ndtri

from ...core._jit import compiled
from ...core.experiments import summarize_runs, sweep
from ...core.mechanisms.privunit import privunitg_params, privunitg_rows
from ...core.validation import check_array, check_epsilon, check_int, check_rng
from .hiera import calibrate_base_epsilon, compensation_weights
from .levels import DEFAULT_EDGES, HIERA_MULTIPLIERS, SGD_TEXT_MULTIPLIERS, check_edges
from .numeric import _pm, duchi_constant

__all__ = [
    "HALF_CLIP",
    "L2_METHODS",
    "PRIVUNITG_METHODS",
    "SGD_METHODS",
    "SGD_VARIANTS",
    "STEP_GRID",
    "STEP_METHODS",
    "TUNED_METHODS",
    "SGDSettings",
    "group_size",
    "kfold_mse",
    "kfold_mse_reps",
    "l2_scalar_reports",
    "ldp_sgd",
    "least_squares_kfold_mse",
    "mse_summary",
    "privunitg_clip",
    "sgd_experiment",
    "step_factor",
    "step_split",
    "tune_steps",
    "tuned_experiment",
]

#: ``corrected`` = the text; ``code-training`` = the code's SGD scored correctly; ``faithful`` = the code throughout.
SGD_VARIANTS = ("corrected", "code-training", "faithful")
#: ``none`` is the same SGD with exact gradients (no privacy, no coordinate sampling); ``hiera-calibrated`` is HierA
#: with its schedule scaled so that each report is exactly ε-LDP with the level taken from x (level and value
#: separate inputs, :func:`~dpcompendium.chapters.hiera.hiera.calibrate_base_epsilon` with ``coupled=False``).
#: ``privunitg`` reports each user's whole gradient, clipped in ℓ2 to :attr:`SGDSettings.clip_norm`, with PrivUnitG
#: at the same per-user ε [asi2022optimal]; ``privunitg-box`` the same with the clip norm √d̃ (d̃ = d + 1), the ℓ2 ball
#: that contains the box [−1, 1]^d̃ the per-coordinate mechanisms bound their gradients to (referee 10, V3: the same
#: gradients reach both, none shrunk more than the others' clipping shrinks them); ``harmony-l2`` and ``pm-l2`` are
#: Harmony and PM on the gradient clipped in ℓ2 as ``privunitg``'s (:data:`L2_METHODS`; referee 11, M1);
#: ``harmony-l2-step`` and ``pm-l2-step`` the same with PrivUnitG's step noise (:data:`STEP_METHODS`; referee 12, #1);
#: ``privunitg-mid`` PrivUnitG at the clip d̃^(1/4), the geometric midpoint of 1 and √d̃ (referee 13, §3: its MSE
#: moves 4–7× between the two clips; run at the smallest ε only, where it is tested); ``privunitg-half`` PrivUnitG at
#: the clip 1/2, below the smallest of those three (referee 14, L3; the smallest ε only); ``harmony-tuned`` and
#: ``pm-tuned`` Harmony and PM on the box at a tuned step (:data:`TUNED_METHODS`; referee 14, H1).
SGD_METHODS = (
    "none",
    "harmony",
    "pm",
    "graded-laplace",
    "hiera",
    "hiera-calibrated",
    "privunitg",
    "privunitg-box",
    "privunitg-mid",
    "harmony-l2",
    "pm-l2",
    "harmony-l2-step",
    "pm-l2-step",
    "privunitg-tuned",
    "harmony-l2-tuned",
    "pm-l2-tuned",
    "privunitg-half",
    "harmony-tuned",
    "pm-tuned",
)

#: The scalar mechanisms on the gradient clipped in ℓ2, as PrivUnitG's (referee 11, M1): each user clips its whole
#: gradient (d̃ coordinates) to ℓ2 norm C = :attr:`SGDSettings.clip_norm` — the clip of ``privunitg`` — then samples
#: one coordinate j and reports g_j/C ∈ [−1, 1] with the scalar mechanism at ε; the collector's estimate is
#: multiplied back by C. The same gradients reach them as reach PrivUnitG at C, so that the two differ only in the
#: mechanism. Method → its scalar mechanism.
L2_METHODS: dict[str, str] = {"harmony-l2": "harmony", "pm-l2": "pm"}

#: The scalar mechanisms at PrivUnitG's clip and PrivUnitG's step noise (referee 12, #1: mechanism against step
#: size): the users report exactly as ``harmony-l2`` and ``pm-l2`` do (:func:`l2_scalar_reports`), and the collector
#: multiplies its estimate by C·s instead of C, s = :func:`step_factor`, a public number of ε and d̃ alone (below 1
#: where PrivUnitG's noise is the smaller: small ε). The noise of their step then has PrivUnitG's root mean square at
#: the same clip C and group size; their signal is multiplied by s. Method → its scalar mechanism.
STEP_METHODS: dict[str, str] = {"harmony-l2-step": "harmony", "pm-l2-step": "pm"}

#: The tuned-step arms (referee 13, #1: a learning rate per method): PrivUnitG at C = 1, Harmony and PM on the same
#: ℓ2-clipped gradient, and Harmony and PM on the box [−1, 1]^d̃, their own clip (referee 14, H1: on it their MSE is
#: 2–3× lower than on the ℓ2-clipped gradient), each with its learning rate η·t^(−lr_power), η chosen from
#: :data:`STEP_GRID` on held-out users (:func:`tune_steps`, :func:`step_split`) and passed to :func:`sgd_experiment`
#: as ``steps``. The users' reports and their claims are those of the method tuned (the step is the collector's
#: processing). Method → the method tuned.
TUNED_METHODS: dict[str, str] = {
    "privunitg-tuned": "privunitg",
    "harmony-l2-tuned": "harmony-l2",
    "pm-l2-tuned": "pm-l2",
    "harmony-tuned": "harmony",
    "pm-tuned": "pm",
}

#: The step grid of :func:`tune_steps`: η = 2^−3 … 2^1 times the source's learning rate t^(−lr_power), geometric;
#: it reaches below the matched-noise arm's s = 0.34–0.47 (referee 13, #1: "the optimum could lie below s") and
#: above the source's step. Its range was set after an earlier run on the default data (PrivUnitG's best η was 0.5–1
#: there; a 2^−4 … 2^1 grid chose interior steps): a choice informed by the data, said on the page (referee 14, H3).
STEP_GRID: tuple[float, ...] = (0.125, 0.25, 0.5, 1.0, 2.0)


def step_factor(method: str, epsilon: float, d_tilde: int) -> float:
    """The factor s of a :data:`STEP_METHODS` arm: the ratio of the root mean square of one coordinate's step noise
    of PrivUnitG to that of the scalar mechanism, both on gradients clipped to ℓ2 norm C, in the corrected SGD.

    PrivUnitG: the group's mean of G reports C·U/m has per-coordinate second moment C²·E‖U/m‖²/(d̃ G)
    (``variance`` of :func:`~dpcompendium.core.mechanisms.privunit.privunitg_params`; exact, whatever the gradient).
    The scalar mechanism: coordinate j is the mean of about G/d̃ reports C·M(v), second moment C²·E[M(v)²]·d̃/G,
    with E[M²] at v = 0: Harmony's constant squared ((e^ε + 1)/(e^ε − 1))², whatever v; PM's
    (e^{ε/2} + 3)/(3 (e^{ε/2} − 1)²). So s = √(E‖U/m‖² / (d̃² E[M(0)²])): C and G cancel, s depends on ε and d̃
    only — public numbers, not the data (the shrink is the collector's processing; the users' reports and their
    claim are those of :data:`L2_METHODS`)."""
    base = STEP_METHODS.get(method, method)
    if base not in ("harmony", "pm"):
        raise ValueError(f"method must be one of {', '.join(STEP_METHODS)}, got {method!r}")
    eps = check_epsilon(epsilon)
    dt = check_int(d_tilde, "d_tilde", minimum=2)
    if base == "harmony":
        second = float(duchi_constant(np.array([eps]))[0]) ** 2
    else:
        h = math.expm1(eps / 2.0)
        second = (h + 4.0) / (3.0 * h * h)
    return math.sqrt(privunitg_params(eps, dt).variance / (dt * dt * second))


#: The PrivUnitG methods of the SGD (:func:`privunitg_clip` gives each one's ℓ2 clip).
PRIVUNITG_METHODS = ("privunitg", "privunitg-box", "privunitg-mid", "privunitg-half")

#: The clip of ``privunitg-half`` (referee 14, L3: C = 1 was the smallest clip tried, and the MSE moved with C).
HALF_CLIP = 0.5


def privunitg_clip(method: str, d_tilde: int, settings_clip: float = 1.0) -> float:
    """The ℓ2 clip norm of a PrivUnitG method of the SGD: ``privunitg`` the settings' (default 1), ``privunitg-box``
    √d̃, the smallest ℓ2 ball containing the box [−1, 1]^d̃ of the per-coordinate mechanisms, ``privunitg-mid``
    d̃^(1/4), the geometric midpoint of 1 and √d̃ (referee 13, §3), ``privunitg-half`` :data:`HALF_CLIP` = 1/2, below
    the three (referee 14, L3)."""
    if method == "privunitg-half":
        return HALF_CLIP
    if method == "privunitg-box":
        return math.sqrt(check_int(d_tilde, "d_tilde", minimum=2))
    if method == "privunitg-mid":
        return math.sqrt(math.sqrt(check_int(d_tilde, "d_tilde", minimum=2)))
    if method == "privunitg":
        return float(settings_clip)
    raise ValueError(
        f"method must be privunitg, privunitg-box, privunitg-mid or privunitg-half, got {method!r}"
    )


def l2_scalar_reports(
    gradients: ArrayLike,
    epsilon: float,
    rng: np.random.Generator,
    *,
    method: str = "harmony-l2",
    clip_norm: float = 1.0,
) -> tuple[np.ndarray, np.ndarray]:
    """One report per user of ``harmony-l2`` or ``pm-l2`` (:data:`L2_METHODS`; referee 11, M1), as the SGD's users
    send it: each row g of ``gradients`` (n, d̃) is clipped to ℓ2 norm C = ``clip_norm``, a coordinate j is drawn
    uniformly (``rng.integers``, before the mechanism's draws, as in the SGD), and g_j·min(1, C/‖g‖)/C ∈ [−1, 1] is
    reported with Harmony (Duchi's bit times its constant) or PM at ``epsilon``, times C. Returns (j, report), both
    (n,); E[report | g, j] is the clipped g_j. Privacy: ε-LDP, local neighbours (any two gradients of one user;
    :func:`~dpcompendium.chapters.hiera.hiera.l2_clip_claim`)."""
    g = check_array(gradients, "gradients", ndim=2)
    eps = check_epsilon(epsilon)
    rng = check_rng(rng)
    if method not in L2_METHODS:
        raise ValueError(f"method must be one of {', '.join(L2_METHODS)}, got {method!r}")
    c = float(clip_norm)
    if not 0 < c < math.inf:
        raise ValueError(f"clip_norm must be a finite number > 0, got {clip_norm!r}")
    n, dt = g.shape
    norm = np.sqrt(np.einsum("nd,nd->n", g, g))
    j = rng.integers(0, dt, size=n)
    v = g[np.arange(n), j] * np.minimum(1.0, c / np.maximum(norm, np.finfo(float).tiny)) / c
    u = rng.random(n)
    if L2_METHODS[method] == "harmony":
        k = float(duchi_constant(np.array([eps]))[0])
        rep = np.where(u < (1.0 + v * math.tanh(eps / 2.0)) / 2.0, k, -k)
    else:
        rep = _pm(v, eps, u)
    return j, rep * c


def group_size(d_tilde: int, epsilon: float, rule: str = "code") -> int:
    """Users per iteration: ``"code"`` max(⌈d̃ ln d̃/ε²⌉, 1000); ``"text"`` ⌈2 d̃ ln d̃/ε²⌉."""
    d_tilde = check_int(d_tilde, "d_tilde", minimum=2)
    eps = check_epsilon(epsilon)
    if rule == "code":
        return max(math.ceil(d_tilde * math.log(d_tilde) / eps**2), 1000)
    if rule == "text":
        return max(math.ceil(2 * d_tilde * math.log(d_tilde) / eps**2), 1)
    raise ValueError(f"group_rule must be 'code' or 'text', got {rule!r}")


class _Runs:
    """Per-run constants of one vectorized SGD pass (R runs, d̃ coordinates, k levels), computed once per pass.

    Every table holds exactly the value the per-iteration code would compute from the gathered budgets (e.g.
    tanh(ε_s/2) looked up instead of recomputed), so the results and the random stream do not change.
    """

    def __init__(self, eps: np.ndarray, sched: np.ndarray, edges: np.ndarray, mu: int, dt: int):
        r, k = sched.shape
        self.r, self.dt, self.k, self.mu = r, dt, k, mu
        self.edges = np.asarray(edges, dtype=float)
        self.cell_off = (dt * np.arange(r))[:, None]  # row offset of run r in a flat (R, d̃) table
        self.lvl_off = (k * np.arange(r))[:, None]  # row offset of run r in a flat (R, k) table
        e = np.exp(sched)
        self.p_keep = (e / (e + k - 1.0)).ravel()  # GRR: keep the level
        self.tanh_sched = np.tanh(sched / 2.0).ravel()  # Duchi under the perturbed level's budget
        self.lap_scale = (2.0 / sched).ravel()  # graded Laplace
        self.eps = eps[:, None]
        self.tanh_eps = np.tanh(self.eps / 2.0)  # Harmony
        self.duchi_c = duchi_constant(eps)[:, None]
        self.w = compensation_weights(k, mu)[:, None]
        pi = np.exp(sched) / (np.exp(sched) + 1.0)  # (R, k)
        self.pi = pi[:, None, :]
        self.two_pi_1 = 2.0 * self.pi - 1.0
        self.plc = []  # PLC conversions i → jj: (i, jj, x, 1 − x), x (R, 1)
        for i in range(k):
            for jj in range(i + 1, min(i + mu, k)):
                x = ((pi[:, i] + pi[:, jj] - 1.0) / (2.0 * pi[:, i] - 1.0))[:, None]
                self.plc.append((i, jj, x, 1.0 - x))

    def level(self, v: np.ndarray) -> np.ndarray:
        """``np.searchsorted(edges, v, side="right")`` (int8): #edges − #{edges > v}, NaN → #edges as well."""
        lvl = np.full(v.shape, self.edges.size, dtype=np.int8)
        below = np.empty(v.shape, dtype=bool)
        for e in self.edges:
            np.less(v, e, out=below)
            lvl -= below.view(np.int8)
        return lvl


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
    runs = _Runs(eps, sched, edges, mu, dt)
    return _estimate_runs(method, gj, xj, j + runs.cell_off, runs, faithful, rng)


def _estimate_runs(
    method: str,
    gj: np.ndarray,
    xj: np.ndarray,
    cell: np.ndarray,
    runs: _Runs,
    faithful: bool,
    rng: np.random.Generator,
) -> np.ndarray:
    """:func:`_estimate` with the per-run constants precomputed; ``cell`` (R, G) = run · d̃ + sampled coordinate."""
    r, g = gj.shape
    dt, k = runs.dt, runs.k
    if compiled_kernels and method in ("hiera", "harmony", "graded-laplace"):
        return _estimate_compiled(method, gj, xj, cell, runs, faithful, rng)
    n_j = np.bincount(cell.ravel(), minlength=r * dt).reshape(r, dt)
    if (
        method == "hiera"
    ):  # user side: LHP with the level of x_j; collector side: HierA per coordinate
        level = runs.level(xj)
        keep = rng.random((r, g)) < runs.p_keep.take(level + runs.lvl_off)  # GRR on the level
        other = rng.integers(0, k - 1, size=(r, g))
        other += other >= level
        s = np.where(keep, level, other)
        # Duchi under ε_s: P(+1) = (1 + g·tanh(ε_s/2))/2; bit −1 ⟺ u ≥ P(+1)
        p_plus = gj * runs.tanh_sched.take(s + runs.lvl_off)
        p_plus += 1.0
        p_plus *= 0.5
        flat = cell * k
        flat += s
        flat *= 2
        flat += rng.random((r, g)) >= p_plus
        counts = np.bincount(flat.ravel(), minlength=r * dt * k * 2).reshape(r, dt, k, 2)
        tot, n = _hiera_runs(counts, runs, rng)
        est = np.divide(tot, n, out=np.zeros_like(tot), where=n > 0)
        return est * n_j / g if faithful else est
    if method == "harmony":
        p_plus = gj * runs.tanh_eps
        p_plus += 1.0
        p_plus *= 0.5
        rep = np.where(rng.random((r, g)) < p_plus, runs.duchi_c, -runs.duchi_c)
    elif method == "pm":
        rep = _pm(gj, runs.eps, rng.random((r, g)))
    elif (
        method == "graded-laplace"
    ):  # the level of the gradient value itself, as in the source's code
        scale = runs.lap_scale.take(runs.level(gj) + runs.lvl_off)
        rep = rng.laplace(0.0, 1.0, size=(r, g))
        rep *= scale
        rep += gj
    else:
        raise ValueError(f"method must be one of {', '.join(SGD_METHODS)}, got {method!r}")
    sums = np.bincount(cell.ravel(), weights=rep.ravel(), minlength=r * dt).reshape(r, dt)
    return sums / g if faithful else sums / np.maximum(n_j, 1)


def _level_of(v, edges):  # pragma: no cover - run compiled
    """LHP's level of ``v`` (compiled by :data:`_level_kernel`): ``np.searchsorted(edges, v, side="right")`` as
    #edges − #{edges > v}, as :meth:`_Runs.level` computes it (NaN → #edges as well)."""
    lvl = edges.shape[0]
    for q in range(edges.shape[0]):
        if v < edges[q]:
            lvl -= 1
    return lvl


def _lhp_cell(x, gj, o, u1, u2, keep, tanh_s, row, edges):  # pragma: no cover - run compiled
    """One user's LHP report (compiled by :data:`_lhp_cell_kernel`), the HierA branch that :func:`_tally_loop`
    and :func:`_sgd_pass_loop` share: the level t of ``x``; GRR keeps it when ``u1`` < ``keep[row, t]``, else
    takes the other level ``o`` (drawn in 0..k − 2, shifted past t); the Duchi bit of the clipped gradient ``gj``
    under ε_s is −1 when ``u2`` ≥ (1 + gj·``tanh_s[row, s]``)/2. Returns 2·s + (1 if the bit is −1 else 0), the
    report's column in a (k, 2) count table; the numpy reference is :func:`_estimate_runs`' HierA branch."""
    lvl = _level_of(x, edges)
    if o >= lvl:
        o += 1
    s = lvl if u1 < keep[row, lvl] else o
    p = gj * tanh_s[row, s]
    p += 1.0
    p *= 0.5
    return 2 * s + (1 if u2 >= p else 0)


_level_kernel = compiled(_level_of)
_lhp_cell_kernel = compiled(_lhp_cell, _level_kernel)


def _tally_loop(
    kind, gj, xj, cell, u1, other, u2, table, table2, edges, k, sums, n_j, counts
):  # pragma: no cover - run compiled
    """The user-side arithmetic of :func:`_estimate_runs` in one pass (compiled by :data:`_tally_kernel`), with the
    uniforms (``u1``, ``u2``), Laplace draws (``u1``) and GRR draws (``other``) drawn by numpy beforehand in the
    reference's order: the same IEEE operations in the same order, and the sums accumulated in ``bincount``'s
    (row-major) order, so bit-identical. ``kind`` 0: Harmony (``table`` tanh(ε/2), ``table2`` Duchi's C per run);
    1: graded Laplace (``table`` 2/ε_s per run and level); 2: HierA's counts (``table`` GRR keep probability,
    ``table2`` tanh(ε_s/2), per run and level)."""
    r, g = gj.shape
    for row in range(r):
        for i in range(g):
            c = cell[row, i]
            n_j[c] += 1
            if kind == 0:
                p = gj[row, i] * table[row, 0]
                p += 1.0
                p *= 0.5
                sums[c] += table2[row, 0] if u1[row, i] < p else -table2[row, 0]
            elif kind == 1:
                v = gj[row, i]
                rep = u1[row, i] * table[row, _level_of(v, edges)]
                rep += v
                sums[c] += rep
            else:
                sb = _lhp_cell(
                    xj[row, i],
                    gj[row, i],
                    other[row, i],
                    u1[row, i],
                    u2[row, i],
                    table,
                    table2,
                    row,
                    edges,
                )
                counts[c * k * 2 + sb] += 1


_tally_kernel = compiled(_tally_loop, _level_kernel, _lhp_cell_kernel)

#: Whether :func:`_estimate_runs` uses the compiled tallies (the numpy code is their reference in the tests).
compiled_kernels = True


def _estimate_compiled(method, gj, xj, cell, runs, faithful, rng):
    """:func:`_estimate_runs` for HierA, Harmony and graded Laplace with the user-side arithmetic compiled: the same
    draws in the same order, the same numbers (tested bit for bit)."""
    r, g = gj.shape
    dt, k = runs.dt, runs.k
    n_j = np.zeros(r * dt, dtype=np.int64)
    sums = np.zeros(r * dt)
    empty_f = np.zeros((1, 1))
    empty_i = np.zeros((1, 1), dtype=np.int64)
    edges = runs.edges
    tally = _tally_kernel()
    if method == "harmony":
        u = rng.random((r, g))
        tally(
            0,
            gj,
            gj,
            cell,
            u,
            empty_i,
            empty_f,
            runs.tanh_eps,
            runs.duchi_c,
            edges,
            k,
            sums,
            n_j,
            empty_i,
        )
    elif method == "graded-laplace":
        lap = rng.laplace(0.0, 1.0, size=(r, g))
        scale = runs.lap_scale.reshape(r, k)
        tally(1, gj, gj, cell, lap, empty_i, empty_f, scale, empty_f, edges, k, sums, n_j, empty_i)
    else:
        u1 = rng.random((r, g))
        other = rng.integers(0, k - 1, size=(r, g))
        u2 = rng.random((r, g))
        counts = np.zeros(r * dt * k * 2, dtype=np.int64)
        p_keep, tanh_s = runs.p_keep.reshape(r, k), runs.tanh_sched.reshape(r, k)
        tally(2, gj, xj, cell, u1, other, u2, p_keep, tanh_s, edges, k, sums, n_j, counts)
        tot, n = _hiera_runs(counts.reshape(r, dt, k, 2), runs, rng)
        est = np.divide(tot, n, out=np.zeros_like(tot), where=n > 0)
        return est * n_j.reshape(r, dt) / g if faithful else est
    sums = sums.reshape(r, dt)
    n_j = n_j.reshape(r, dt)
    return sums / g if faithful else sums / np.maximum(n_j, 1)


def _hiera_runs_py(counts: np.ndarray, runs: _Runs, rng: np.random.Generator):
    """HierA steps 3–6 on counts (R, d̃, k, 2) with one schedule per run (R, k); returns (Σ S, Σ N) (R, d̃). The
    numpy reference of :func:`_hiera_runs`."""
    merged = counts * runs.w
    for i, jj, x, not_x in runs.plc:
        c = counts[..., i, :]
        n1 = rng.binomial(c[..., 0], x) + rng.binomial(c[..., 1], not_x)
        merged[..., jj, 0] += n1
        merged[..., jj, 1] += c[..., 0] + c[..., 1] - n1
    n1 = merged[..., 0].astype(float)
    n2 = merged[..., 1].astype(float)
    n = n1 + n2
    p = runs.pi
    a = np.clip((p * n - n2) / runs.two_pi_1, 0.0, n)
    b = np.clip((p * n - n1) / runs.two_pi_1, 0.0, n)
    return (a - b).sum(axis=-1), n.sum(axis=-1)


def _hiera_tail_loop(
    counts, w, src, dst, draws, pi, two_pi_1, tot, nsum
):  # pragma: no cover - run compiled
    """The arithmetic of :func:`_hiera_runs_py` after its binomial draws (``draws`` (P, 2, R, d̃): PLC conversion
    q moves level ``src[q]`` into ``dst[q]``), in loops (compiled by :data:`_hiera_tail_kernel`): integer counts
    exact, then the same IEEE operations per cell, np.clip's comparisons, and each sum over the k levels in
    order (numpy's for k < 8), so bit-identical."""
    r_n, dt, k, _ = counts.shape
    n_q = src.shape[0]
    m0 = np.empty(k, dtype=np.int64)
    m1 = np.empty(k, dtype=np.int64)
    for r in range(r_n):
        for d in range(dt):
            for lv in range(k):
                m0[lv] = counts[r, d, lv, 0] * w[lv]
                m1[lv] = counts[r, d, lv, 1] * w[lv]
            for q in range(n_q):
                i = src[q]
                n1 = draws[q, 0, r, d] + draws[q, 1, r, d]
                m0[dst[q]] += n1
                m1[dst[q]] += counts[r, d, i, 0] + counts[r, d, i, 1] - n1
            st = 0.0
            sn = 0.0
            for lv in range(k):
                f1 = float(m0[lv])
                f2 = float(m1[lv])
                n = f1 + f2
                p = pi[r, lv]
                q2 = two_pi_1[r, lv]
                a = (p * n - f2) / q2
                if not np.isnan(a):
                    a = a if a > 0.0 else 0.0
                    a = a if a < n else n
                b = (p * n - f1) / q2
                if not np.isnan(b):
                    b = b if b > 0.0 else 0.0
                    b = b if b < n else n
                st += a - b
                sn += n
            tot[r, d] = st
            nsum[r, d] = sn


_hiera_tail_kernel = compiled(_hiera_tail_loop)


def _hiera_runs(counts: np.ndarray, runs: _Runs, rng: np.random.Generator):
    """:func:`_hiera_runs_py` with its binomial draws in one call (the same draws: numpy draws an array's
    binomials one element after the other, in the order of the separate calls) and the rest compiled."""
    r_n, dt = counts.shape[:2]
    n_q = len(runs.plc)
    nn = np.empty((n_q, 2, r_n, dt), dtype=counts.dtype)
    pp = np.empty((n_q, 2, r_n, 1))
    for q, (i, _, x, not_x) in enumerate(runs.plc):
        nn[q] = np.moveaxis(counts[..., i, :], -1, 0)
        pp[q, 0], pp[q, 1] = x, not_x
    draws = rng.binomial(nn, pp) if n_q else nn
    src = np.array([c[0] for c in runs.plc], dtype=np.int64)
    dst = np.array([c[1] for c in runs.plc], dtype=np.int64)
    tot = np.empty((r_n, dt))
    nsum = np.empty((r_n, dt))
    _hiera_tail_kernel()(
        counts, runs.w[:, 0], src, dst, draws, runs.pi[:, 0, :], runs.two_pi_1[:, 0, :], tot, nsum
    )
    return tot, nsum


def _gradients_py(xp, yp, idx, beta, j, lam, faithful, clip_l2=0.0):
    """The sampled coordinate's clipped gradient of one group, the numpy reference of :func:`_gradients`.

    ``xp`` (n, d̃) the users' ``[1, x]`` in visiting order, ``yp`` (n,) their targets, ``idx`` (F, G) the group's
    positions per fold, ``beta`` (E, F, d̃), ``j`` (E, F, G) the sampled coordinates. Returns ``gj`` =
    clip(2 x̃_j (β·x̃ − y) + reg_j, −1, 1) and ``xj`` = x̃_j, both (E, F, G); reg = λβ, or λ|β| with none on the
    intercept (``faithful``). With ``clip_l2`` = C > 0 the whole gradient g is clipped in ℓ2 instead (the
    ``*-l2`` methods, :data:`L2_METHODS`): ``gj`` = g_j·min(1, C/‖g‖₂)/C ∈ [−1, 1]."""
    n_e, n_f, g = j.shape
    dt = xp.shape[1]
    xt = xp.take(idx, axis=0)  # (F, G, d̃)
    resid = np.einsum("fgd,efd->efg", xt, beta) - yp.take(idx)
    reg = lam * np.abs(beta) if faithful else lam * beta
    if faithful:
        reg[..., 0] = 0.0
    xj = xt.take(j + (dt * np.arange(n_f * g)).reshape(n_f, g))
    gj = xj * 2.0
    gj *= resid
    gj += reg.take(j + (dt * np.arange(n_e * n_f)).reshape(n_e, n_f, 1))
    if clip_l2 > 0.0:
        full = xt[None] * 2.0 * resid[..., None] + reg[:, :, None, :]  # (E, F, G, d̃)
        norm = np.sqrt(np.einsum("efgd,efgd->efg", full, full))
        gj *= np.minimum(1.0, clip_l2 / np.maximum(norm, np.finfo(float).tiny))
        gj /= clip_l2
        return gj, xj
    np.clip(gj, -1.0, 1.0, out=gj)
    return gj, xj


def _residual(xp, yp, u, beta, e, f):  # pragma: no cover - run compiled
    """User ``u``'s residual x̃_u·β − y_u in run (``e``, ``f``), β·x̃ summed in coordinate order: the step
    :func:`_gradients_loop`, :func:`_full_step_loop` and :func:`_sgd_pass_loop` share (compiled by
    :data:`_residual_kernel`; the numpy references' einsum sums in SIMD lanes: a few ulp apart)."""
    dot = 0.0
    for d in range(xp.shape[1]):
        dot += xp[u, d] * beta[e, f, d]
    return dot - yp[u]


_residual_kernel = compiled(_residual)


def _l2_scale(xp, u, beta, e, f, resid, lam, faithful, clip_l2):  # pragma: no cover - run compiled
    """min(1, C/‖g‖₂)/C for user ``u``'s whole gradient g (d̃ coordinates, each computed as the sampled one is) in
    run (``e``, ``f``), C = ``clip_l2`` (compiled by :data:`_l2_scale_kernel`); the squares summed in coordinate
    order. The numpy reference is :func:`_gradients_py`'s ``clip_l2`` branch."""
    ss = 0.0
    for d in range(xp.shape[1]):
        b = beta[e, f, d]
        reg = (0.0 if d == 0 else lam * abs(b)) if faithful else lam * b
        v = xp[u, d] * 2.0 * resid + reg
        ss += v * v
    norm = max(np.sqrt(ss), 2.2250738585072014e-308)
    return min(1.0, clip_l2 / norm) / clip_l2


_l2_scale_kernel = compiled(_l2_scale)


def _gradients_loop(
    xp, yp, idx, beta, j, lam, faithful, clip_l2, gj, xj
):  # pragma: no cover - run compiled
    """:func:`_gradients_py` in loops (compiled by :data:`_gradients_kernel`), into ``gj`` and ``xj``: the same
    operations, but β·x̃ summed in coordinate order (numpy's einsum sums in SIMD lanes: a few ulp apart)."""
    n_e, n_f, g = j.shape
    for f in range(n_f):
        for i in range(g):
            u = idx[f, i]
            for e in range(n_e):
                resid = _residual(xp, yp, u, beta, e, f)
                c = j[e, f, i]
                b = beta[e, f, c]
                reg = (0.0 if c == 0 else lam * abs(b)) if faithful else lam * b
                x = xp[u, c]
                v = x * 2.0 * resid + reg
                if clip_l2 > 0.0:
                    gj[e, f, i] = v * _l2_scale(xp, u, beta, e, f, resid, lam, faithful, clip_l2)
                else:
                    gj[e, f, i] = min(max(v, -1.0), 1.0)
                xj[e, f, i] = x


_gradients_kernel = compiled(_gradients_loop, _residual_kernel, _l2_scale_kernel)


def _gradients(xp, yp, idx, beta, j, lam, faithful, clip_l2=0.0):
    """:func:`_gradients_py` compiled (numba): one pass over the group instead of a dozen array passes."""
    gj = np.empty(j.shape)
    xj = np.empty(j.shape)
    _gradients_kernel()(xp, yp, idx, beta, j, float(lam), bool(faithful), float(clip_l2), gj, xj)
    return gj, xj


def _full_step_py(xp, yp, idx, beta, lam, faithful):
    """The non-private step: every coordinate's clipped gradient averaged over the group, (E, F, d̃); the numpy
    reference of :func:`_full_step`."""
    xt = xp.take(idx, axis=0)  # (F, G, d̃)
    resid = np.einsum("fgd,efd->efg", xt, beta) - yp.take(idx)
    reg = lam * np.abs(beta) if faithful else lam * beta
    if faithful:
        reg[..., 0] = 0.0
    grad = 2.0 * xt[None] * resid[..., None] + reg[:, :, None, :]
    return np.clip(grad, -1.0, 1.0).mean(axis=2)


def _full_step_loop(xp, yp, idx, beta, lam, faithful, out):  # pragma: no cover - run compiled
    """:func:`_full_step_py` in loops (compiled by :data:`_full_step_kernel`), into ``out`` (E, F, d̃)."""
    n_e, n_f, dt = beta.shape
    g = idx.shape[1]
    out[:] = 0.0
    for f in range(n_f):
        for i in range(g):
            u = idx[f, i]
            for e in range(n_e):
                resid = _residual(xp, yp, u, beta, e, f)
                for d in range(dt):
                    b = beta[e, f, d]
                    reg = (0.0 if d == 0 else lam * abs(b)) if faithful else lam * b
                    v = 2.0 * xp[u, d] * resid + reg
                    out[e, f, d] += min(max(v, -1.0), 1.0)
    for e in range(n_e):
        for f in range(n_f):
            for d in range(dt):
                out[e, f, d] /= g


_full_step_kernel = compiled(_full_step_loop, _residual_kernel)


def _full_step(xp, yp, idx, beta, lam, faithful):
    """:func:`_full_step_py` compiled (numba)."""
    out = np.empty(beta.shape)
    _full_step_kernel()(xp, yp, idx, beta, float(lam), bool(faithful), out)
    return out


def _sgd_pass_loop(
    kind,
    rng,
    xp,
    yp,
    order,
    n_e,
    beta,
    lrs,
    g,
    lam,
    faithful,
    table,
    table2,
    edges,
    k,
    w,
    src,
    dst,
    plc_p,
    pi,
    two_pi_1,
    clip_l2,
    out_scale,
):  # pragma: no cover - run compiled
    """Every step of one private pass of :func:`_sgd` in one compiled call (:data:`_sgd_pass_kernel`): per step t,
    the sampled coordinates (``rng.integers(0, d̃, (E, F, G))``), each user's clipped gradient
    (:func:`_gradients_loop`'s operations), the method's draws and tallies (:func:`_tally_loop`'s; for PM,
    :func:`~dpcompendium.chapters.hiera.numeric._pm`'s), HierA's PLC binomials and tail (:func:`_hiera_tail_loop`),
    the estimate and β ← β − ĝ·``lrs[t − 1]``. numba's ``Generator`` shares numpy's bit generator and draws as numpy
    does, and every draw comes in the per-step code's order (all coordinates, then the mechanism's arrays one after
    the other, row-major), so β and the generator's final state are those of the per-step code, bit for bit.

    ``kind`` 0: Harmony (``table`` tanh(ε/2), ``table2`` Duchi's C, per run); 1: graded Laplace (``table`` 2/ε_s per
    run and level); 2: HierA (``table`` GRR keep probability, ``table2`` tanh(ε_s/2), per run and level; ``w``,
    ``src``, ``dst``, ``plc_p`` (P, 2, R) the PLC conversions' x and 1 − x, ``pi`` and ``two_pi_1`` (R, k): the tail's tables);
    3: PM (``table`` (R, 5): ρ, p, (C − 1)/p − 1/ρ, C, (C + 1)/2 per run). ``clip_l2`` = C > 0 (Harmony and PM
    only): the whole gradient clipped to ℓ2 norm C and the sampled coordinate scaled to [−1, 1]
    (:func:`_l2_scale`), the estimate multiplied by ``out_scale[r]`` (C, :data:`L2_METHODS`; C·s,
    :data:`STEP_METHODS`). ``beta`` (E, F, d̃) is updated in place."""
    n_f, m = order.shape
    dt = xp.shape[1]
    r_n = n_e * n_f
    n_q = src.shape[0]
    u1 = np.zeros((1, 1))
    ob = np.zeros((1, 1), dtype=np.int64)
    sums = np.empty((r_n, dt))
    n_j = np.empty((r_n, dt), dtype=np.int64)
    counts = np.empty((r_n, dt, k, 2), dtype=np.int64)
    draws = np.empty((n_q, 2, r_n, dt), dtype=np.int64)
    tot = np.empty((r_n, dt))
    nsum = np.empty((r_n, dt))
    for t in range(1, m // g + 1):
        base = (t - 1) * g
        # the per-step code's draws, whole arrays in its order (numba's scalar integers allocate per call)
        jb = rng.integers(0, dt, (r_n, g))
        if kind == 1:
            u2 = rng.laplace(0.0, 1.0, (r_n, g))
        elif kind == 2:
            u1 = rng.random((r_n, g))
            ob = rng.integers(0, k - 1, (r_n, g))
            u2 = rng.random((r_n, g))
            counts[:] = 0
        else:
            u2 = rng.random((r_n, g))
        sums[:] = 0.0
        n_j[:] = 0
        for r in range(r_n):
            e = r // n_f
            f = r % n_f
            for i in range(g):
                u = order[f, base + i]
                resid = _residual(xp, yp, u, beta, e, f)
                c = jb[r, i]
                b = beta[e, f, c]
                reg = (0.0 if c == 0 else lam * abs(b)) if faithful else lam * b
                x = xp[u, c]
                v = x * 2.0 * resid + reg
                if clip_l2 > 0.0:
                    gj = v * _l2_scale(xp, u, beta, e, f, resid, lam, faithful, clip_l2)
                else:
                    gj = min(max(v, -1.0), 1.0)
                n_j[r, c] += 1
                if kind == 0:
                    p = gj * table[r, 0]
                    p += 1.0
                    p *= 0.5
                    sums[r, c] += table2[r, 0] if u2[r, i] < p else -table2[r, 0]
                elif kind == 1:
                    rep = u2[r, i] * table[r, _level_of(gj, edges)]
                    rep += gj
                    sums[r, c] += rep
                elif kind == 3:
                    uu = u2[r, i]
                    a = table[r, 4] * gj
                    a += table[r, 4]
                    a = table[r, 0] * a
                    y = min(max(uu - a, 0.0), table[r, 1])
                    y *= table[r, 2]
                    y += uu / table[r, 0]
                    y -= table[r, 3]
                    sums[r, c] += y
                else:
                    sb = _lhp_cell(x, gj, ob[r, i], u1[r, i], u2[r, i], table, table2, r, edges)
                    counts[r, c, sb // 2, sb % 2] += 1
        lr = lrs[t - 1]
        if kind == 2:
            for q in range(n_q):
                for h in range(2):
                    for r in range(r_n):
                        pq = plc_p[q, h, r]
                        for d in range(dt):
                            draws[q, h, r, d] = rng.binomial(counts[r, d, src[q], h], pq)
            _hiera_tail_loop(counts, w, src, dst, draws, pi, two_pi_1, tot, nsum)
            for r in range(r_n):
                e = r // n_f
                f = r % n_f
                for d in range(dt):
                    est = tot[r, d] / nsum[r, d] if nsum[r, d] > 0 else 0.0
                    if faithful:
                        est = est * n_j[r, d] / g
                    beta[e, f, d] = beta[e, f, d] - est * lr
        else:
            for r in range(r_n):
                e = r // n_f
                f = r % n_f
                for d in range(dt):
                    est = sums[r, d] / g if faithful else sums[r, d] / max(n_j[r, d], 1)
                    if clip_l2 > 0.0:
                        est = est * out_scale[r]
                    beta[e, f, d] = beta[e, f, d] - est * lr


_sgd_pass_kernel = compiled(
    _sgd_pass_loop,
    _hiera_tail_kernel,
    _level_kernel,
    _lhp_cell_kernel,
    _residual_kernel,
    _l2_scale_kernel,
)

#: Whether :func:`_sgd` runs a private pass as one compiled call (:data:`_sgd_pass_kernel`); the per-step code
#: (``False``) is its reference in the tests, bit for bit.
fused_passes = True


class _Visit:
    """The data-only work of a K-fold SGD, shared by every method and budget that trains on the same training sets
    (:func:`_sgd`): the visiting order, one uniformly random permutation of all users drawn from ``rng``; ``xp``
    (n, d̃) the users' [1, x] and ``yp`` their targets in that order; ``order`` (F, m) the positions in (xp, yp) of
    each training set of ``split`` (a :class:`_Split`), increasing. It depends only on the data, the split and the
    draw, never on a method's noise."""

    def __init__(self, xa: np.ndarray, ya: np.ndarray, split: _Split, rng: np.random.Generator):
        n, dt = ya.size, xa.shape[1] + 1
        perm = rng.permutation(n)
        self.xp = np.empty((n, dt))  # [1, x] of the users in visiting order
        self.xp[:, 0] = 1.0
        self.xp[:, 1:] = xa.take(
            perm, axis=0
        )  # (a contiguous gather, then a copy: faster than take into the view)
        self.yp = ya.take(perm)
        self.order = split.orders(perm)
        self.split = split


def _sgd(visit, method, eps, faithful, settings, g, rng, base=None) -> np.ndarray:
    """Vectorized SGD: runs = (ε, fold) for budgets ``eps`` (E,) and the F training sets of ``visit.split`` (m rows
    each), visited in the order of ``visit`` (a :class:`_Visit`); group size g.

    Returns β of shape (E, F, d̃). Visiting order: one uniformly random permutation of all users, restricted to each
    training set, so every run sees its users in a uniformly random order (runs of one fold share it) and the
    per-iteration gather reads nearly contiguous memory. ``base`` (E,): the base of HierA's schedule per budget
    (default ``eps``; the calibrated HierA passes its scaled base).
    """
    split, xp, yp, order = visit.split, visit.xp, visit.yp, visit.order
    n_e, n_f, m = eps.size, split.count, split.m
    dt = xp.shape[1]
    e_runs = np.repeat(eps, n_f)  # (R,), R = E·F, run r = (e, f) with f fastest
    b_runs = e_runs if base is None else np.repeat(base, n_f)
    sched = b_runs[:, None] * np.asarray(HIERA_MULTIPLIERS if faithful else SGD_TEXT_MULTIPLIERS)
    lam, lr_power = settings.lam, settings.lr_power
    runs = _Runs(e_runs, sched, settings.edges, settings.mu, dt)
    beta = rng.random((n_e, n_f, dt))
    flat = (n_e * n_f, g)
    cell_off = runs.cell_off.reshape(n_e, n_f, 1)
    if method in PRIVUNITG_METHODS:
        clip = privunitg_clip(method, dt, settings.clip_norm)
        return _sgd_privunitg(visit, eps, beta, faithful, settings, g, rng, clip)
    clip_l2 = 0.0  # the scalar mechanisms on the l2-clipped gradient (referee 11, M1)
    shrink = np.ones(e_runs.size)  # and at PrivUnitG's step noise (referee 12, #1)
    if method in STEP_METHODS:
        shrink = np.array([step_factor(method, float(v), dt) for v in e_runs])
        method, clip_l2 = STEP_METHODS[method], float(settings.clip_norm)
    elif method in L2_METHODS:
        method, clip_l2 = L2_METHODS[method], float(settings.clip_norm)
    out_scale = clip_l2 * shrink  # the estimate's factor per run (clip_l2 > 0 only)
    if fused_passes and method != "none":
        return _sgd_fused(visit, method, runs, beta, faithful, settings, g, rng, clip_l2, out_scale)
    for t in range(1, m // g + 1):
        idx = order[:, (t - 1) * g : t * g]
        if method == "none":
            step = _full_step(xp, yp, idx, beta, lam, faithful)
        else:  # each user computes only the coordinate it reports
            j = rng.integers(0, dt, size=(n_e, n_f, g))
            gj, xj = _gradients(xp, yp, idx, beta, j, lam, faithful, clip_l2)
            cell = j + cell_off  # run · d̃ + j, the run's cell of the flat (E·F, d̃) tables
            step = _estimate_runs(
                method, gj.reshape(flat), xj.reshape(flat), cell.reshape(flat), runs, faithful, rng
            ).reshape(n_e, n_f, dt)
            if clip_l2 > 0.0:
                step *= out_scale.reshape(n_e, n_f, 1)
        beta = beta - step * (settings.lr_scale * t ** (-lr_power))
    return beta


#: The most gradient entries :func:`_sgd_privunitg` holds at once (training sets are taken in blocks).
_PRIVUNITG_BLOCK = 2**22


def _privunitg_step_loop(
    xp, yp, idx, beta, lam, faithful, c, scale, keep_u, cap, x, w, out
):  # pragma: no cover - run compiled
    """One PrivUnitG step of :func:`_sgd_privunitg` for F' training sets (compiled by
    :data:`_privunitg_step_kernel`): the group's mean report, drawn from the same distribution as the mean of the
    users' reports of :func:`~dpcompendium.core.mechanisms.privunit.privunitg_rows` but with d̃ Gaussians per
    training set instead of G·d̃.

    A user's report is (C/m)·U with U = Z + (α − ⟨Z, u⟩) u = (I − uuᵀ) Z + α u, where u is the unit vector of its
    clipped gradient (±e₁ for a zero one), α = ±x (x the truncated normal's quantile, the sign from the rounding and
    the cap) and Z ~ N(0, I). The users' Z are independent, so Σᵢ (I − uᵢuᵢᵀ) Zᵢ ~ N(0, M) with
    M = G·I − Σᵢ uᵢuᵢᵀ (positive semi-definite): it is drawn as L·W, L the Cholesky factor of M (a pivot that
    rounding leaves ≤ 0 belongs to a direction M does not have: its column is set to 0) and W = ``w[f]`` ~ N(0, I).
    Per user u = ``idx[f, i]``: the gradient 2 x̃ (β·x̃ − y) + reg clipped to ℓ2 norm ``c``, the rounding
    (``keep_u``), the cap (``cap``) and the quantile (``x``) as numpy drew them; ``out`` (F', d̃) gets
    (C/m)/G·(L W + Σᵢ αᵢuᵢ) (``scale`` = C/m). Sums in index order (no fast-math): the same bits on every CPU."""
    n_f, g = idx.shape
    dt = xp.shape[1]
    grad = np.empty(dt)
    acc = np.empty(dt)
    m = np.empty((dt, dt))
    low = np.empty((dt, dt))
    for f in range(n_f):
        for a in range(dt):
            acc[a] = 0.0
            for b in range(dt):
                m[a, b] = 0.0
        for i in range(g):
            u = idx[f, i]
            dot = 0.0
            for d in range(dt):
                dot += xp[u, d] * beta[f, d]
            resid = (dot - yp[u]) * 2.0
            ss = 0.0
            for d in range(dt):
                b = beta[f, d]
                reg = (0.0 if d == 0 else lam * abs(b)) if faithful else lam * b
                v = xp[u, d] * resid + reg
                grad[d] = v
                ss += v * v
            norm = np.sqrt(ss)
            s = min(1.0, c / max(norm, 2.2250738585072014e-308))
            norm = min(norm, c)
            inv = 1.0 / norm if norm != 0.0 else 1.0
            keep = keep_u[f, i] < 0.5 * (1.0 + min(norm / c, 1.0))
            alpha = -x[f, i] if cap[f, i] == keep else x[f, i]
            for d in range(dt):
                gd = grad[d] * s * inv
                if norm == 0.0:
                    gd = 1.0 if d == 0 else 0.0
                grad[d] = gd
                acc[d] += alpha * gd
            for a in range(dt):
                ga = grad[a]
                for b in range(a + 1):
                    m[a, b] += ga * grad[b]
        # M = G I - sum u u^T (lower triangle), its Cholesky factor
        for a in range(dt):
            for b in range(a + 1):
                v = (g if a == b else 0.0) - m[a, b]
                for k in range(b):
                    v -= low[a, k] * low[b, k]
                if a == b:
                    low[a, a] = np.sqrt(v) if v > 0.0 else 0.0
                else:
                    low[a, b] = v / low[b, b] if low[b, b] > 0.0 else 0.0
        for a in range(dt):
            noise = 0.0
            for k in range(a + 1):
                noise += low[a, k] * w[f, k]
            out[f, a] = (noise + acc[a]) * scale / g


_privunitg_step_kernel = compiled(_privunitg_step_loop)

#: Whether :func:`_sgd_privunitg` draws each step's mean report as one Gaussian vector per training set
#: (:data:`_privunitg_step_kernel`); the per-user numpy code (``False``, a Gaussian vector per user) draws from the
#: same distribution and is its reference in the tests.
compiled_privunitg = True


def _privunitg_step(xp, yp, idx, b, lam, faithful, c, pr, rng) -> np.ndarray:
    """One PrivUnitG step's mean report (F', d̃) of the training sets ``idx`` (F', G) at β ``b`` (F', d̃)
    (:data:`_privunitg_step_kernel`): the uniforms (3, F', G) of
    :func:`~dpcompendium.core.mechanisms.privunit.privunitg_rows` and its quantiles drawn by numpy, then one
    standard Gaussian vector (F', d̃) per training set."""
    n_f, g = idx.shape
    dt = xp.shape[1]
    draws = rng.random((3, n_f, g))
    cap = draws[1] < pr.p
    x = ndtri((1.0 - draws[2]) * np.where(cap, pr.q, ndtr(pr.gamma)))
    w = rng.standard_normal((n_f, dt))
    out = np.empty((n_f, dt))
    _privunitg_step_kernel()(
        xp,
        yp,
        np.ascontiguousarray(idx),
        np.ascontiguousarray(b),
        float(lam),
        bool(faithful),
        float(c),
        c / pr.m,
        draws[0],
        cap,
        x,
        w,
        out,
    )
    return out


def _sgd_privunitg(visit, eps, beta, faithful, settings, g, rng, clip=None) -> np.ndarray:
    """The private pass of :func:`_sgd` with PrivUnitG [asi2022optimal]: in iteration t every user of the group
    computes its whole gradient (d̃ coordinates: 2 x̃ (β·x̃ − y) + reg, reg as in :func:`_full_step_py`), clips it
    to ℓ2 norm ``clip`` (default ``settings.clip_norm``; :func:`privunitg_clip`) and reports it with
    :func:`~dpcompendium.core.mechanisms.privunit.privunitg` (:func:`~dpcompendium.core.mechanisms.privunit.privunitg_rows`) at the run's ε — the same per-user budget as one
    coordinate's report of the other methods, spent on the whole vector; the collector averages the group's
    unbiased reports (with or without ``faithful``: every user reports every coordinate). Draws per iteration, per
    budget in the order of ``eps`` and per block of training sets (at most :data:`_PRIVUNITG_BLOCK` gradient
    entries F·G·d̃): with :data:`compiled_privunitg` (the default), the users' uniforms and one Gaussian vector per
    training set (:func:`_privunitg_step`: the group's mean report drawn from its exact distribution, issue 50's
    CPU); without, one :func:`privunitg` call on the block's (F, G, d̃) gradients (a Gaussian vector per user)."""
    split, xp, yp, order = visit.split, visit.xp, visit.yp, visit.order
    dt, lam = xp.shape[1], settings.lam
    c = settings.clip_norm if clip is None else float(clip)
    params = [privunitg_params(float(e), dt) for e in eps]
    n_f = order.shape[0]
    # training sets per block: at most _PRIVUNITG_BLOCK gradient entries (F, G, d̃) at a time, whatever F
    width = max(1, _PRIVUNITG_BLOCK // (g * dt))
    for t in range(1, split.m // g + 1):
        step = np.empty(beta.shape)
        for e, pr in enumerate(params):
            for lo in range(0, n_f, width):
                f = slice(lo, min(lo + width, n_f))
                idx = order[f, (t - 1) * g : t * g]
                b = beta[e, f]
                if compiled_privunitg:
                    step[e, f] = _privunitg_step(xp, yp, idx, b, lam, faithful, c, pr, rng)
                    continue
                xt = xp.take(idx, axis=0)  # (F', G, d̃)
                resid = np.einsum("fgd,fd->fg", xt, b) - yp.take(idx)
                resid *= 2.0
                reg = lam * np.abs(b) if faithful else lam * b
                if faithful:
                    reg[..., 0] = 0.0
                grad = xt * resid[..., None]  # 2 x̃ (β·x̃ − y) + reg
                grad += reg[:, None, :]
                norm = np.sqrt(np.einsum("fgd,fgd->fg", grad, grad))
                grad *= np.minimum(1.0, c / np.maximum(norm, np.finfo(float).tiny))[..., None]
                np.minimum(norm, c, out=norm)  # the clipped rows' norms
                step[e, f] = privunitg_rows(grad, norm, pr, rng, clip_norm=c).mean(axis=1)
        beta = beta - step * (settings.lr_scale * t ** (-settings.lr_power))
    return beta


def _sgd_fused(
    visit, method, runs, beta, faithful, settings, g, rng, clip_l2=0.0, out_scale=None
) -> np.ndarray:
    """The private pass of :func:`_sgd` from its initial β (E, F, d̃) as one call of :data:`_sgd_pass_kernel`: the
    per-step code's draws and numbers, bit for bit. ``clip_l2`` > 0: Harmony or PM on the ℓ2-clipped gradient, the
    estimate multiplied by ``out_scale`` (R,) per run (default C)."""
    if out_scale is None:
        out_scale = np.full(runs.r, float(clip_l2))
    r_n, k, n_steps = runs.r, runs.k, visit.split.m // g
    lrs = np.array([settings.lr_scale * t ** (-settings.lr_power) for t in range(1, n_steps + 1)])
    empty_f = np.zeros((1, 1))
    empty_i = np.zeros(0, dtype=np.int64)
    src, dst = empty_i, empty_i
    plc_p = np.zeros((0, 2, r_n))
    pi, two_pi_1, w = empty_f, empty_f, np.ascontiguousarray(runs.w[:, 0])
    if method == "harmony":
        kind, table, table2 = 0, runs.tanh_eps, runs.duchi_c
    elif method == "graded-laplace":
        kind, table, table2 = 1, runs.lap_scale.reshape(r_n, k), empty_f
    elif method == "hiera":
        kind, table, table2 = 2, runs.p_keep.reshape(r_n, k), runs.tanh_sched.reshape(r_n, k)
        src = np.array([c[0] for c in runs.plc], dtype=np.int64)
        dst = np.array([c[1] for c in runs.plc], dtype=np.int64)
        plc_p = np.empty((len(runs.plc), 2, r_n))
        for q, (_, _, x, not_x) in enumerate(runs.plc):
            plc_p[q, 0], plc_p[q, 1] = x[:, 0], not_x[:, 0]
        pi, two_pi_1 = runs.pi[:, 0, :], runs.two_pi_1[:, 0, :]
    elif method == "pm":  # numeric._pm's constants, computed as it computes them
        h = np.exp(runs.eps / 2.0)
        c = (h + 1.0) / (h - 1.0)
        p_in = h / (h + 1.0)
        rho = (1.0 - p_in) / (c + 1.0)
        slope = (c - 1.0) / p_in - 1.0 / rho
        kind, table, table2 = 3, np.hstack([rho, p_in, slope, c, (c + 1.0) / 2.0]), empty_f
    else:
        raise ValueError(f"method must be one of {', '.join(SGD_METHODS)}, got {method!r}")
    if clip_l2 > 0.0 and kind not in (0, 3):
        raise ValueError(f"clip_l2 applies to harmony and pm only, got method {method!r}")
    beta = np.ascontiguousarray(beta)
    _sgd_pass_kernel()(
        kind,
        rng,
        visit.xp,
        visit.yp,
        visit.order,
        beta.shape[0],
        beta,
        lrs,
        g,
        float(settings.lam),
        bool(faithful),
        np.ascontiguousarray(table),
        np.ascontiguousarray(table2),
        runs.edges,
        k,
        w,
        src,
        dst,
        plc_p,
        np.ascontiguousarray(pi),
        np.ascontiguousarray(two_pi_1),
        float(clip_l2),
        np.ascontiguousarray(out_scale, dtype=float),
    )
    return beta


@dataclass(frozen=True, eq=False)
class SGDSettings:
    """The settings of :func:`ldp_sgd` and :func:`kfold_mse` beyond the data, ε and the variant, validated once.

    ``mu``: HierA's data-reuse factor (1 to the number of levels); ``lam``: the regularisation coefficient λ ≥ 0;
    ``group_rule``: users per iteration, ``"code"`` or ``"text"`` (:func:`group_size`); ``lr_power``: the learning
    rate t^(−lr_power) at iteration t (> 0; the source: 1/√t); ``edges``: the level edges of LHP, one level per
    budget of the schedule (stored as an array); ``clip_norm``: the ℓ2 norm PrivUnitG's gradients are clipped to
    (method ``privunitg`` only; the other methods clip each coordinate to [−1, 1]); ``lr_scale``: η > 0, the
    learning rate is η·t^(−lr_power) (1: the source's; :func:`tune_steps` chooses it per method).
    """

    mu: int = 2
    lam: float = 1e-4
    group_rule: str = "code"
    lr_power: float = 0.5
    edges: ArrayLike = DEFAULT_EDGES
    clip_norm: float = 1.0
    lr_scale: float = 1.0

    def __post_init__(self) -> None:
        e = check_edges(self.edges)
        if e.size != len(HIERA_MULTIPLIERS) - 1:  # one level per budget of the schedule
            raise ValueError(
                f"edges must have {len(HIERA_MULTIPLIERS) - 1} entries (5 levels), got {e.tolist()}"
            )
        object.__setattr__(self, "edges", e)
        object.__setattr__(self, "mu", check_int(self.mu, "mu", minimum=1, maximum=e.size + 1))
        lam, lr_power = self.lam, self.lr_power
        if isinstance(lam, bool) or not isinstance(lam, int | float) or not 0 <= lam < math.inf:
            raise ValueError(f"lam must be a finite number >= 0, got {lam!r}")
        if (
            isinstance(lr_power, bool)
            or not isinstance(lr_power, int | float)
            or not 0 < lr_power < math.inf
        ):
            raise ValueError(f"lr_power must be a finite number > 0, got {lr_power!r}")
        if self.group_rule not in ("code", "text"):
            raise ValueError(f"group_rule must be 'code' or 'text', got {self.group_rule!r}")
        c = self.clip_norm
        if isinstance(c, bool) or not isinstance(c, int | float) or not 0 < c < math.inf:
            raise ValueError(f"clip_norm must be a finite number > 0, got {c!r}")
        h = self.lr_scale
        if isinstance(h, bool) or not isinstance(h, int | float) or not 0 < h < math.inf:
            raise ValueError(f"lr_scale must be a finite number > 0, got {h!r}")


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
    settings: SGDSettings = SGDSettings(),
) -> np.ndarray:
    """Algorithm 4: one pass of LDP mini-batch SGD over the n users of (x, y); returns β = [b, α_1, …, α_d].

    Users are visited in a random order; the last n mod G users are not used (as in the source). ``settings``: μ,
    λ, the group-size rule, the learning rate and the level edges (:class:`SGDSettings`).
    """
    eps = check_epsilon(epsilon)
    rng = check_rng(rng)
    _check_method(method)
    xa, ya = _check_xy(x, y)
    g = group_size(xa.shape[1] + 1, eps, settings.group_rule)
    visit = _Visit(xa, ya, _Split(ya.size), rng)
    return _sgd(visit, method, np.array([eps]), faithful, settings, g, rng)[0, 0]


def _check_method(method: str) -> None:
    if method not in SGD_METHODS:
        raise ValueError(f"method must be one of {', '.join(SGD_METHODS)}, got {method!r}")


def _fold_ids(n: int, folds: int, shuffle: bool, rng: np.random.Generator) -> np.ndarray:
    """The test fold of each of ``n`` rows under scikit-learn's ``KFold(folds, shuffle=shuffle)`` (n,): the same
    splits (tested equal), drawn from ``rng`` the same way (one ``integers(2**31)`` seeding KFold's ``RandomState``
    when shuffled, nothing otherwise), but as one array of fold ids instead of ``folds`` boolean masks."""
    if folds > n:
        raise ValueError(
            f"Cannot have number of splits n_splits={folds} greater than the number of samples: n_samples={n}."
        )
    indices = np.arange(n)
    if shuffle:
        np.random.RandomState(int(rng.integers(2**31))).shuffle(
            indices
        )  # KFold's check_random_state(int)
    sizes = np.full(folds, n // folds)
    sizes[: n % folds] += 1
    fold = np.empty(n, dtype=np.intp)
    fold[indices] = np.repeat(np.arange(folds), sizes)
    return fold


def _folds(n: int, folds: int, faithful: bool, rng: np.random.Generator):
    """[(train, test)] of scikit-learn's KFold (shuffled unless ``faithful``): sorted row indices, as ``KFold.split``."""
    fold = _fold_ids(n, folds, not faithful, rng)
    return [(np.flatnonzero(fold != f), np.flatnonzero(fold == f)) for f in range(folds)]


class _Split:
    """The training sets of :func:`_sgd`: ``None`` (every row, one set) or one fold-id array per repetition
    (:func:`_fold_ids`); every training set is cut to ``m`` rows (its first ``m`` in row order)."""

    def __init__(self, n: int, fold_ids: Sequence[np.ndarray] | None = None, folds: int = 1):
        self.n, self.fold_ids, self.folds = n, fold_ids, folds
        if fold_ids is None:
            self.m = n
        else:
            self.m = n - (n // folds + (1 if n % folds else 0))  # the shortest training set

    @property
    def count(self) -> int:
        return 1 if self.fold_ids is None else len(self.fold_ids) * self.folds

    def orders(self, perm: np.ndarray) -> np.ndarray:
        """(F, m) positions in ``perm`` (the visiting order) of each training set's rows, increasing: the rows of
        the training set restricted to the visiting order, with rows beyond its first ``m`` (in row order) left out."""
        if self.fold_ids is None:
            return np.arange(self.n)[None]
        order = np.empty((self.count, self.m), dtype=np.intp)
        inv = None
        for r, fold in enumerate(self.fold_ids):
            fp = fold.take(perm)  # the test fold of the user at each position
            for f in range(self.folds):
                keep = fp != f
                if np.count_nonzero(keep) > self.m:
                    # drop the training set's last rows (in row order) beyond m: a mask, not a set difference
                    # (which sorts); the same increasing positions
                    extra = np.flatnonzero(fold != f)[self.m :]
                    if inv is None:
                        inv = np.empty(self.n, dtype=np.intp)
                        inv[perm] = np.arange(self.n)
                    keep[inv.take(extra)] = False
                order[r * self.folds + f] = np.flatnonzero(keep)
        return order


def kfold_mse(*args, **kw) -> np.ndarray:
    """Cross-validated MSE of :func:`ldp_sgd` for each ε (squared errors pooled over folds, as in the source).

    ``faithful=False``: shuffled :class:`sklearn.model_selection.KFold`, predictions on each fold's test rows.
    ``faithful=True``: the source's ``five_folds_sgd`` — contiguous folds, and predictions made on rows x[j] of the
    *whole* data (its first rows) but compared with the test targets y_test[j]. (Its outer loop that repeats the
    five folds five times changes nothing in expectation and is not repeated.) All folds and every ε with the same
    group size run in one vectorized pass; training sets are cut to the shortest fold's length (one user less at
    most). ``faithful_eval`` (default: ``faithful``) sets the evaluation alone, so that the code's training can be
    scored correctly. ``settings``: as in :func:`ldp_sgd`. Returns an array aligned with ``epsilons``; one
    repetition of :func:`kfold_mse_reps`, with its arguments (x, y, method, epsilons, rng, folds, faithful,
    faithful_eval, settings) but ``reps``.
    """
    return kfold_mse_reps(*args, reps=1, **kw)[:, 0]


def kfold_mse_reps(
    x: ArrayLike,
    y: ArrayLike,
    method: str,
    epsilons: Sequence[float],
    rng: np.random.Generator,
    *,
    folds: int = 5,
    faithful: bool = False,
    faithful_eval: bool | None = None,
    settings: SGDSettings = SGDSettings(),
    reps: int = 1,
) -> np.ndarray:
    """:func:`kfold_mse` repeated ``reps`` times — new folds (when shuffled), visiting order and noise each time —
    in one vectorized pass over the reps × folds training sets. Returns an array (len(epsilons), reps)."""
    xa, ya = _check_xy(x, y)
    return _kfold_mse_reps(
        xa, ya, method, epsilons, rng, folds, faithful, faithful_eval, settings, reps
    )


def _kfold_mse_reps(xa, ya, method, epsilons, rng, folds, faithful, faithful_eval, settings, reps):
    """:func:`kfold_mse_reps` on data checked by :func:`_check_xy`."""
    rng = check_rng(rng)
    _check_method(method)
    eps = np.array([check_epsilon(v) for v in epsilons])
    folds = check_int(folds, "folds", minimum=2)
    reps = check_int(reps, "reps", minimum=1)
    faithful_eval = faithful if faithful_eval is None else bool(faithful_eval)
    visit = _kfold_visit(xa, ya, folds, reps, faithful_eval, rng)
    beta = _train(visit, method, eps, faithful, settings, rng)
    return _evaluate(xa, ya, visit, beta, faithful_eval)


def _kfold_visit(xa, ya, folds, reps, faithful_eval, rng) -> _Visit:
    """The folds of ``reps`` repetitions of a K-fold SGD (shuffled unless ``faithful_eval``) and its visiting order
    (:class:`_Visit`), drawn from ``rng`` in this order."""
    fold_ids = [_fold_ids(ya.size, folds, not faithful_eval, rng) for _ in range(reps)]
    return _Visit(xa, ya, _Split(ya.size, fold_ids, folds), rng)


def _train(visit, method, eps, faithful, settings, rng, steps=None) -> np.ndarray:
    """β (E, F, d̃) of one method for budgets ``eps`` (E,) on the training sets of ``visit``: one vectorized pass
    (:func:`_sgd`) per group size, in increasing order, all in the visiting order of ``visit``. A
    :data:`TUNED_METHODS` arm trains as the method it tunes with ``lr_scale`` = ``steps[method]``."""
    n_feat = visit.xp.shape[1] - 1
    base = None
    if method in TUNED_METHODS:
        if not steps or method not in steps:
            raise ValueError(f"steps must give a step for {method!r}, got {steps!r}")
        settings = dataclasses.replace(settings, lr_scale=steps[method])
        method = TUNED_METHODS[method]
    if method == "hiera-calibrated":
        mult = HIERA_MULTIPLIERS if faithful else SGD_TEXT_MULTIPLIERS
        base = np.array(
            [calibrate_base_epsilon(v, mult, edges=settings.edges, coupled=False) for v in eps]
        )
        method = "hiera"
    sizes = np.array([group_size(n_feat + 1, v, settings.group_rule) for v in eps])
    beta = np.empty((eps.size, visit.split.count, n_feat + 1))
    for g in np.unique(sizes):
        which = np.flatnonzero(sizes == g)
        beta[which] = _sgd(
            visit,
            method,
            eps[which],
            faithful,
            settings,
            int(g),
            rng,
            base=None if base is None else base[which],
        )
    return beta


def _evaluate(xa, ya, visit, beta, faithful_eval) -> np.ndarray:
    """The K-fold MSE (B, reps) of β (B, F, d̃) trained on the training sets of ``visit``: squared errors pooled
    over the folds of each repetition, one matrix product per fold for every row of β at once (B may stack the
    budgets of several methods: the test rows are gathered once)."""
    split = visit.split
    folds, reps = split.folds, len(split.fold_ids)
    sse = np.zeros((beta.shape[0], reps))
    for r in range(reps):
        for f in range(folds):
            te = np.flatnonzero(
                split.fold_ids[r] == f
            )  # the test rows, increasing (as KFold.split)
            xf = xa[: te.size] if faithful_eval else xa.take(te, axis=0)
            err = beta[:, r * folds + f, 1:] @ xf.T  # (B, |test|): b[0] + x·b[1:] − y
            err += beta[:, r * folds + f, :1]
            err -= ya.take(te)
            sse[:, r] += np.square(err).sum(axis=1)
    return sse / ya.size


def least_squares_kfold_mse(
    x: ArrayLike, y: ArrayLike, rng: np.random.Generator, *, folds: int = 5
) -> float:
    """Non-private reference: ordinary least squares with an intercept, the same shuffled K-fold MSE. Each fold is
    fitted as scikit-learn's ``LinearRegression`` fits it (``_ols_predict``: the same predictions, bit for bit,
    tested), without importing scikit-learn (about a CPU-second per chapter run)."""
    rng = check_rng(rng)
    xa = check_array(x, "x", ndim=2)
    ya = check_array(y, "y", ndim=1)
    se = []
    for tr, te in _folds(ya.size, check_int(folds, "folds", minimum=2), False, rng):
        se.append((_ols_predict(xa[tr], ya[tr], xa[te]) - ya[te]) ** 2)
    return float(np.mean(np.concatenate(se)))


def _ols_predict(x_train: np.ndarray, y_train: np.ndarray, x_test: np.ndarray) -> np.ndarray:
    """Predictions for ``x_test`` of ordinary least squares with an intercept fitted on (``x_train``,
    ``y_train``), computed as scikit-learn's ``LinearRegression().fit(...).predict(...)`` computes them (dense
    float64 data, no weights): both centred on their means, ``scipy.linalg.lstsq`` (gelsd, ``cond=1e-6``, the
    estimator's ``tol``) on the centred data, intercept ȳ − x̄·β, prediction x·β + intercept — the same
    operations, so the same bits (``tests/test_ldp_sgd.py`` compares them with scikit-learn)."""
    xc = np.array(x_train, dtype=float, copy=True)
    yc = np.array(y_train, dtype=float, copy=True)
    x_off = np.average(xc, axis=0)
    xc -= x_off
    y_off = np.average(yc, axis=0)
    yc -= y_off
    coef = lstsq(xc, yc, cond=1e-6)[0]
    return x_test @ coef + (y_off - x_off @ coef)


def _sgd_cell(
    dataset,
    variant,
    reps,
    rng,
    *,
    data,
    methods,
    epsilons,
    folds,
    first_variant,
    settings,
    least_squares=True,
    steps=None,
):
    """One (dataset, variant) cell of :func:`sgd_experiment`: every method of ``methods`` trained on the same folds
    and visiting order (data-only work, drawn first from the cell's stream), each with its own noise stream (the
    cell's i-th spawned child for the i-th method; the last child is the least-squares reference's), and scored
    together."""
    x, y = data[dataset]  # validated by sgd_experiment
    private = [m for m in methods if m != "least-squares"]
    faithful, faithful_eval = variant != "corrected", variant == "faithful"
    children = rng.spawn(len(methods))
    betas, spans = [], {}
    visit = _kfold_visit(x, y, folds, reps, faithful_eval, rng) if private else None
    for i, method in enumerate(methods):
        if method == "least-squares":
            continue
        eps = np.array([1.0] if method == "none" else [check_epsilon(v) for v in epsilons])
        start = sum(b.shape[0] for b in betas)
        betas.append(_train(visit, method, eps, faithful, settings, children[i], steps))
        spans[method] = slice(start, start + eps.size)
    mse = _evaluate(x, y, visit, np.concatenate(betas), faithful_eval) if betas else None
    rows = []
    for i, method in enumerate(methods):
        if method == "least-squares":
            if variant == first_variant and least_squares:
                ls = least_squares_kfold_mse(x, y, children[i], folds=folds)
                rows.append(
                    {"method": method, "rep": 0, "epsilon": np.nan, "folds": folds, "mse": ls}
                )
            continue
        eps = [np.nan] if method == "none" else list(epsilons)
        block = mse[spans[method]]
        rows.extend(
            {"method": method, "rep": r, "epsilon": e, "folds": folds, "mse": float(row[r])}
            for e, row in zip(eps, block, strict=True)
            for r in range(reps)
        )
    return rows


def sgd_experiment(
    data: Mapping[str, tuple[np.ndarray, np.ndarray]],
    epsilons: Sequence[float],
    methods: Sequence[str],
    seed: int,
    *,
    settings: SGDSettings = SGDSettings(),
    variants: Sequence[str] = SGD_VARIANTS,
    folds: int = 5,
    reps: int = 1,
    n_jobs: int = 1,
    least_squares: bool = True,
    steps: Mapping[str, float] | None = None,
) -> pd.DataFrame:
    """Experiment 3: K-fold MSE per dataset, method, variant and ε, plus ``least-squares`` (non-private, OLS).

    Variants: ``corrected`` (the text), ``code-training`` (the code's training, scored correctly), ``faithful`` (the
    code's training and its evaluation). ``settings``: the SGD's settings (:class:`SGDSettings`), the same for every
    cell.

    Columns dataset, method, variant, epsilon (empty for non-private rows), folds, rep, mse: ``reps`` independent
    repetitions of the K-fold SGD per cell (:func:`kfold_mse_reps`; least squares once). ``method="none"`` is the
    same SGD without privacy. One random stream per (dataset, variant) cell
    (:func:`~dpcompendium.core.experiments.sweep`): its folds and visiting order are drawn once and shared by every
    method of the cell (data-only work), and each method's noise comes from its own spawned child stream. Repetition
    r of two methods therefore shares its folds and visiting order: the methods' MSEs are paired by repetition, not
    independent, and :func:`~dpcompendium.chapters.hiera.verdicts.sgd_comparisons` tests them paired. ``least_squares=False`` leaves the OLS reference out (no row; the other
    methods keep their streams, so every other row is the same as with it). ``steps``: the step η of each
    :data:`TUNED_METHODS` arm among ``methods`` (:func:`tune_steps`), the same for every dataset of the call.
    """
    for v in variants:
        if v not in SGD_VARIANTS:
            raise ValueError(f"variants must be among {', '.join(SGD_VARIANTS)}, got {v!r}")
    for m in methods:
        _check_method(m)
    folds = check_int(folds, "folds", minimum=2)
    all_methods = [*methods, "least-squares"]
    grid = {"dataset": list(data), "variant": list(variants)}
    checked = {name: _check_xy(*xy) for name, xy in data.items()}
    cell = partial(
        _sgd_cell,
        data=checked,
        methods=all_methods,
        epsilons=list(epsilons),
        folds=folds,
        first_variant=variants[0] if variants else None,
        settings=settings,
        least_squares=bool(least_squares),
        steps=dict(steps) if steps else None,
    )
    runs = sweep(
        cell, grid, check_int(reps, "reps", minimum=1), seed, n_jobs=n_jobs, vectorized=True
    )
    if runs.empty:
        return pd.DataFrame(
            columns=["dataset", "method", "variant", "epsilon", "folds", "rep", "mse"]
        )
    # rows in the order (dataset, method, variant) of the grid the table has always had
    key = pd.DataFrame(
        {
            "d": runs["dataset"].map({d: i for i, d in enumerate(data)}),
            "m": runs["method"].map({m: i for i, m in enumerate(all_methods)}),
            "v": runs["variant"].map({v: i for i, v in enumerate(variants)}),
        }
    )
    runs = runs.loc[key.sort_values(["d", "m", "v"], kind="stable").index].reset_index(drop=True)
    runs.loc[runs["method"] == "least-squares", "variant"] = "non-private"
    return runs[["dataset", "method", "variant", "epsilon", "folds", "rep", "mse"]]


def mse_summary(
    runs: pd.DataFrame, variant: str = "corrected"
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The mean K-fold MSE over repetitions and its standard error, of every method of ``variant`` in ``runs`` (a
    table of :func:`sgd_experiment`), as two tables indexed by (dataset, epsilon), one column per method: the means,
    and sd / √reps (sample standard deviation over the repetitions; NaN where a cell has one repetition, never a
    missing column). Rows without an ε (the non-private ``none`` and ``least-squares``) are left out: with no
    private method, both tables are empty (no row, no column)."""
    if variant not in SGD_VARIANTS:
        raise ValueError(f"variant must be among {', '.join(SGD_VARIANTS)}, got {variant!r}")
    rows = runs[(runs["variant"] == variant) & runs["epsilon"].notna()]
    summary = summarize_runs(rows, ["dataset", "epsilon", "method"], ["mse"], sd=["mse"])
    summary["mse_se"] = summary["mse_sd"] / np.sqrt(summary["reps"])
    wide = summary.pivot(index=["dataset", "epsilon"], columns="method")
    if rows.empty:  # pivot leaves no value column to select
        empty = pd.DataFrame(
            index=pd.MultiIndex.from_tuples([], names=["dataset", "epsilon"]),
            columns=pd.Index([], name="method"),
            dtype=float,
        )
        return empty, empty.copy()
    return wide["mse"], wide["mse_se"]


def step_split(n: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """A held-out split of ``n`` users for :func:`tune_steps`: (tuning rows, evaluation rows), the two halves of a
    uniformly random permutation drawn from ``rng``, each increasing; disjoint, sizes ⌊n/2⌋ and ⌈n/2⌉. The same size,
    so SGD on either runs the same number of iterations at the same group size."""
    n = check_int(n, "n", minimum=4)
    perm = rng.permutation(n)
    half = n // 2
    return np.sort(perm[:half]), np.sort(perm[half:])


def tune_steps(
    x: ArrayLike,
    y: ArrayLike,
    methods: Sequence[str],
    epsilon: float,
    seed: np.random.SeedSequence,
    *,
    grid: Sequence[float] = STEP_GRID,
    folds: int = 5,
    reps: int = 1,
    settings: SGDSettings = SGDSettings(),
) -> tuple[dict[str, float], pd.DataFrame]:
    """The step η of each :data:`TUNED_METHODS` arm of ``methods``, chosen on (``x``, ``y``) — users held out from
    the evaluation (:func:`step_split`) — as the η of ``grid`` with the smallest mean corrected K-fold MSE over
    ``reps`` repetitions at ``epsilon`` (ties: the first in ``grid``; a step whose SGD diverged, a non-finite MSE,
    only if every step did).

    Streams: ``seed`` spawns one child per method (in the order of ``methods``); every η of a method starts from that
    child's seed, so the grid is compared on the same folds, visiting order and noise draws (common random numbers:
    the choice is not a draw's luck). Nothing of the evaluation users enters: the chosen η is a function of the
    held-out users alone, a public constant for the evaluation. Returns ({method: η}, a table method, step, mse
    (mean over reps), mse_se, chosen)."""
    xa, ya = _check_xy(x, y)
    eps = check_epsilon(epsilon)
    grid_values = [float(v) for v in grid]
    if not grid_values or any(not 0 < v < math.inf for v in grid_values):
        raise ValueError(f"grid must hold finite numbers > 0, got {list(grid)!r}")
    for m in methods:
        if m not in TUNED_METHODS:
            raise ValueError(f"methods must be among {', '.join(TUNED_METHODS)}, got {m!r}")
    children = seed.spawn(len(methods))
    chosen, rows = {}, []
    for m, child in zip(methods, children, strict=True):
        means = []
        for eta in grid_values:
            mse = _kfold_mse_reps(
                xa,
                ya,
                TUNED_METHODS[m],
                [eps],
                np.random.default_rng(child),
                folds,
                False,
                False,
                dataclasses.replace(settings, lr_scale=eta),
                reps,
            )[0]
            se = float(mse.std(ddof=1) / math.sqrt(mse.size)) if mse.size > 1 else math.nan
            means.append(float(mse.mean()))
            rows.append({"method": m, "step": eta, "mse": means[-1], "mse_se": se})
        finite = np.where(np.isfinite(means), means, np.inf)  # a diverged step is never chosen
        chosen[m] = grid_values[int(np.argmin(finite))]
    table = pd.DataFrame(rows, columns=["method", "step", "mse", "mse_se"])
    table["chosen"] = [chosen[m] == v for m, v in zip(table["method"], table["step"], strict=True)]
    return chosen, table


def tuned_experiment(
    data: Mapping[str, tuple[np.ndarray, np.ndarray]],
    methods: Sequence[str],
    epsilon: float,
    seed: np.random.SeedSequence,
    *,
    reps: Mapping[str, int],
    grid: Sequence[float] = STEP_GRID,
    tune_reps: int | Mapping[str, int] = 1,
    folds: int = 5,
    settings: SGDSettings = SGDSettings(),
    n_jobs: int = 1,
) -> tuple[dict[str, dict[str, float]], pd.DataFrame, pd.DataFrame]:
    """The tuned-step arms (referee 13, #1) on each dataset of ``data``: its users split in two halves
    (:func:`step_split`), each :data:`TUNED_METHODS` arm of ``methods`` tuned on one (:func:`tune_steps`, ``grid``,
    ``tune_reps`` repetitions, or ``tune_reps[dataset]``), then all of them run on the other at ``epsilon`` with ``reps[dataset]`` repetitions
    (:func:`sgd_experiment`, corrected variant, each at its chosen step).

    Streams: ``seed`` spawns one child per dataset (in the order of ``data``), each spawning (split, tuning,
    evaluation): the tuning draws nothing from the evaluation's stream and reads none of its users. Returns (dataset →
    {method: η}, the tuning tables with a ``dataset`` column, the evaluation's runs as :func:`sgd_experiment`'s)."""
    eps = check_epsilon(epsilon)
    steps: dict[str, dict[str, float]] = {}
    tables, parts = [], []
    for d, child in zip(data, seed.spawn(len(data)), strict=True):
        split_seq, tune_seq, eval_seq = child.spawn(3)
        x, y = _check_xy(*data[d])
        tune_rows, eval_rows = step_split(y.size, np.random.default_rng(split_seq))
        steps[d], table = tune_steps(
            x[tune_rows],
            y[tune_rows],
            methods,
            eps,
            tune_seq,
            grid=grid,
            folds=folds,
            reps=tune_reps if isinstance(tune_reps, int) else tune_reps[d],
            settings=settings,
        )
        tables.append(table.assign(dataset=d))
        parts.append(
            sgd_experiment(
                {d: (x[eval_rows], y[eval_rows])},
                [eps],
                methods,
                int(eval_seq.generate_state(1)[0]),
                variants=["corrected"],
                folds=folds,
                reps=reps[d],
                n_jobs=n_jobs,
                settings=settings,
                least_squares=False,
                steps=steps[d],
            )
        )
    if not parts:
        empty = pd.DataFrame(
            columns=["dataset", "method", "variant", "epsilon", "folds", "rep", "mse"]
        )
        return (
            steps,
            pd.DataFrame(columns=["method", "step", "mse", "mse_se", "chosen", "dataset"]),
            empty,
        )
    return steps, pd.concat(tables, ignore_index=True), pd.concat(parts, ignore_index=True)
