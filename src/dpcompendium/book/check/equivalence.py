"""One test per cell whose three answers cannot contradict each other: *same*, *differs*, or *too few runs*.

A check compares a student's runs ``x`` with a reference implementation's runs ``y`` (same settings, as many runs) in
several cells (one per setting and metric). The errors of a DP algorithm are positive and heavy-tailed (one run's
mean squared error can be ten times another's), so each run's value is compared on the log scale, ``log(1 + v)``,
where the runs' spread is roughly symmetric and a t-interval is trustworthy from a few dozen runs; the difference of
the two means there is the log of the ratio of their geometric means (of ``1 + v``).

Per cell, with the difference ``d`` of the two log-scale means, its 95 % Welch interval ``[lo, hi]`` and the margin
``m`` (:func:`margin`):

- **same** (within the margin) when ``-m < lo`` and ``hi < m``: two one-sided tests (TOST) at level 0.025 each
  reject "the difference is at least the margin" [schuirmann1987comparison];
- **differs** when not *same* and the Welch test of ``d = 0`` rejects after Holm's correction over the cells of the
  family (family-wise level 0.05) [holm1979simple];
- **undetermined** otherwise.

A family of cells (one reference implementation) is *same* when every cell is (an intersection–union test: a wrong
"same" has probability at most 0.025 without a multiplicity correction [berger1982multiparameter]), *differs* when
any cell differs, else *undetermined*, with :func:`runs_needed` the number of runs that would let the equivalence of
a truly equal implementation show with probability about 0.9.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
from scipy.stats import norm
from scipy.stats import t as student_t

__all__ = [
    "LEVEL",
    "RELATIVE_MARGIN",
    "SPREAD_MARGIN",
    "classify",
    "compare_cell",
    "family_verdict",
    "holm",
    "margin",
    "runs_needed",
]

#: Family-wise level of "differs" (Holm over a family's cells); "same" is tested at LEVEL / 2 per side and cell.
LEVEL = 0.05
#: A difference matters when it is larger than both 10 % of the value (the ratio of geometric means of 1 + v outside
#: [1/1.1, 1.1]) ...
RELATIVE_MARGIN = 0.10
#: ... and three quarters of the reference's own run-to-run standard deviation on the log scale (an algorithm whose
#: single runs scatter by a factor of e is not told apart from one whose typical error is 1.1 times larger: two runs
#: of the same code differ more).
SPREAD_MARGIN = 0.75
#: A family is *same* with probability about this when the implementations are equal and ``runs_needed`` runs are made.
POWER = 0.9


def margin(y_log: np.ndarray) -> float:
    """The equivalence margin on the log scale: ``max(log(1 + RELATIVE_MARGIN), SPREAD_MARGIN · sd(y_log))``."""
    sd = float(np.std(y_log, ddof=1)) if len(y_log) > 1 else 0.0
    return max(math.log1p(RELATIVE_MARGIN), SPREAD_MARGIN * sd)


def _welch(x: np.ndarray, y: np.ndarray) -> tuple[float, float, float]:
    """(difference of means, its standard error, Welch–Satterthwaite degrees of freedom)."""
    vx, vy = np.var(x, ddof=1) / len(x), np.var(y, ddof=1) / len(y)
    d, se2 = float(x.mean() - y.mean()), float(vx + vy)
    if se2 == 0:
        return d, 0.0, float(len(x) + len(y) - 2)
    df = se2**2 / (vx**2 / (len(x) - 1) + vy**2 / (len(y) - 1))
    return d, math.sqrt(se2), float(df)


def compare_cell(x: np.ndarray, y: np.ndarray) -> dict[str, float]:
    """One cell: ``d`` (log scale), the 95 % interval ``lo``–``hi``, the two-sided ``p`` of ``d = 0``, the margin
    ``m`` and whether the interval lies within it (``within``). ``x``, ``y``: the runs' values (≥ 0)."""
    x, y = np.log1p(np.asarray(x, dtype=float)), np.log1p(np.asarray(y, dtype=float))
    d, se, df = _welch(x, y)
    m = margin(y)
    if se == 0:  # both constant
        lo = hi = d
        p = 1.0 if d == 0 else 0.0
    else:
        half = float(student_t.ppf(1 - LEVEL / 2, df)) * se
        lo, hi = d - half, d + half
        p = float(2 * student_t.sf(abs(d) / se, df))
    return {"d": d, "lo": lo, "hi": hi, "p": p, "m": m, "within": bool(-m < lo and hi < m)}


def holm(p: np.ndarray, level: float = LEVEL) -> np.ndarray:
    """Holm's step-down procedure: which hypotheses are rejected at family-wise ``level``."""
    p = np.asarray(p, dtype=float)
    order = np.argsort(p, kind="stable")
    reject = np.zeros(len(p), dtype=bool)
    for rank, i in enumerate(order):
        if p[i] > level / (len(p) - rank):
            break
        reject[i] = True
    return reject


def classify(cells: pd.DataFrame) -> pd.Series:
    """Each cell of a family (rows of :func:`compare_cell`): ``same``, ``differs`` or ``undetermined``."""
    reject = holm(cells["p"].to_numpy())
    within = cells["within"].to_numpy(dtype=bool)
    return pd.Series(
        np.where(within, "same", np.where(reject, "differs", "undetermined")), index=cells.index
    )


def family_verdict(states: pd.Series) -> str:
    """``same`` when every cell is, ``differs`` when any cell does, else ``undetermined``."""
    if (states == "same").all():
        return "same"
    return "differs" if (states == "differs").any() else "undetermined"


def runs_needed(sd_x: np.ndarray, sd_y: np.ndarray, m: np.ndarray) -> int:
    """Runs per setting (as many of each implementation) with which an implementation equal to the reference shows
    as *same* in every one of the cells with probability about ``POWER``: per cell
    ``n = ((z(0.975) + z(1 − (1 − POWER)/(2·cells))) · √(sd_x² + sd_y²) / m)²`` (normal approximation; the
    standard deviations on the log scale as these runs estimate them), the largest over the cells."""
    sd_x, sd_y, m = (np.asarray(v, dtype=float) for v in (sd_x, sd_y, m))
    z = norm.ppf(1 - LEVEL / 2) + norm.ppf(1 - (1 - POWER) / (2 * max(len(m), 1)))
    n = (z * np.sqrt(sd_x**2 + sd_y**2) / m) ** 2
    return int(max(2, math.ceil(float(np.max(n))))) if len(n) else 2
