"""The DP-testing literature's benchmark, written from the papers as a student would, and audited.

The mechanisms of StatDP [ding2018detecting] and DP-Sniper [bichsel2021dpsniper]: Report Noisy Max with Laplace or
exponential noise, returning the index (correct) or the value (wrong); a noisy histogram with Laplace noise of
scale 1/ε (correct) or ε (wrong); the six sparse-vector variants of Lyu, Su and Li [audit_lyu2017understanding] (their
Alg. 1–6: two correct, four not ε-DP) and the numerical sparse vector [audit_wang2019proving]. Each is a plain function
``f(queries, rng, *, epsilon, size=None)`` on a vector of query answers — vectorized over ``size`` outputs, a loop
over the (ten) queries only — so that ``dpcompendium audit`` runs it as it runs a student's code, on the
``queries`` neighbour relation (each answer moves by at most Δ = 1, or, for the histogram, all of them together by
at most 1 in ℓ1) and the literature's input patterns (``queries:K``).

Sparse-vector outputs are arrays of ``size × K``: 1.0 for ⊤, 0.0 for ⊥ and NaN for a query not answered (after the
c-th ⊤) — the audit encodes NaN itself; Alg. 3 and the numerical sparse vector also release the noisy answer of
each ⊤ query (K more columns, NaN elsewhere).

:data:`PUBLISHED` holds what the papers report (DP-Sniper's reference results at ε = 0.1: its lower bound
``eps_lcb``, the total time of its search, and its input pair), to set beside ours (:func:`run_benchmark`).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ...core.audit import AuditResult
from ...core.audit.power import samples_needed

__all__ = [
    "BENCHMARK",
    "DPSNIPER_CONFIG",
    "POWER_NEEDED",
    "POWER_PILOT_SEED",
    "POWER_SAMPLES",
    "PUBLISHED",
    "BenchmarkMechanism",
    "audit_mechanism",
    "round_up",
    "run_benchmark",
]


def _n(size: int | None) -> int:
    return 1 if size is None else int(size)


def _out(x: np.ndarray, size: int | None) -> np.ndarray:
    return x[0] if size is None else x


def _answers(queries) -> np.ndarray:
    return np.asarray(queries, dtype=float)


# ------------------------------------------------------------------------------------------------ Report Noisy Max
def noisy_max_laplace(queries, rng, *, epsilon, size=None):
    """Report Noisy Max [dwork2014algorithmic]: the index of the largest q_i + Lap(2/ε). ε-DP when each answer moves
    by at most 1 (ℓ∞)."""
    q = _answers(queries)
    return _out(
        np.argmax(q + rng.laplace(scale=2 / epsilon, size=(_n(size), q.size)), axis=1), size
    )


def noisy_max_exponential(queries, rng, *, epsilon, size=None):
    """Report Noisy Max with one-sided exponential noise Exp(2/ε) (the "report noisy argmax" with exponential noise,
    equivalent to the exponential mechanism): ε-DP."""
    q = _answers(queries)
    return _out(
        np.argmax(q + rng.exponential(scale=2 / epsilon, size=(_n(size), q.size)), axis=1), size
    )


def noisy_max_laplace_value(queries, rng, *, epsilon, size=None):
    """WRONG: returns the largest noisy *value* max_i q_i + Lap(2/ε) instead of its index (StatDP's noisy max 3):
    about K·ε/2-DP for K answers, not ε-DP."""
    q = _answers(queries)
    return _out(np.max(q + rng.laplace(scale=2 / epsilon, size=(_n(size), q.size)), axis=1), size)


def noisy_max_exponential_value(queries, rng, *, epsilon, size=None):
    """WRONG: returns the largest noisy value max_i q_i + Exp(2/ε) (StatDP's noisy max 4): not ε-DP."""
    q = _answers(queries)
    return _out(
        np.max(q + rng.exponential(scale=2 / epsilon, size=(_n(size), q.size)), axis=1), size
    )


# ------------------------------------------------------------------------------------------------------ histograms
def histogram(queries, rng, *, epsilon, size=None):
    """A noisy histogram: every count + Lap(1/ε); ε-DP when one record changes the counts by 1 in ℓ1."""
    q = _answers(queries)
    return _out(q + rng.laplace(scale=1 / epsilon, size=(_n(size), q.size)), size)


def histogram_wrong_scale(queries, rng, *, epsilon, size=None):
    """WRONG: noise Lap(ε) instead of Lap(1/ε) (StatDP's incorrect histogram): (1/ε)-DP, not ε-DP for ε < 1."""
    q = _answers(queries)
    return _out(q + rng.laplace(scale=epsilon, size=(_n(size), q.size)), size)


# ---------------------------------------------------------------------------------------------------- sparse vector
def _svt(
    q, rng, n, *, rho_scale, nu_scale, c, threshold, value_scale=None, resample=None, stop=True
):
    """The sparse-vector loop over the K queries, vectorized over n runs: ⊤ (1) if q_i + ν_i ≥ T + ρ, else ⊥ (0);
    after the c-th ⊤ (``stop``) the rest is NaN (not answered). ``value_scale``: release q_i + Lap(value_scale) at
    each ⊤ (0: the comparison's own noisy value q_i + ν_i); ``resample``: a fresh ρ ~ Lap(resample) after each ⊤."""
    k = q.size
    rho = rng.laplace(scale=rho_scale, size=n)
    # built query by query as rows of (K, n) arrays (contiguous writes), transposed once at the end; the draws are
    # the same, in the same order, as a column-by-column loop's
    bits = np.empty((k, n))
    values = np.empty((k, n)) if value_scale is not None else None
    count = np.zeros(n, dtype=np.int64)
    cut = threshold + rho
    for i in range(k):
        nu = rng.laplace(scale=nu_scale, size=n) if nu_scale > 0 else np.zeros(n)
        above = q[i] + nu >= cut
        if stop:
            live = count < c
            hit = live & above
            bits[i] = np.where(live, above, np.nan)
        else:  # every query answered
            hit = above
            bits[i] = above
        if values is not None:
            released = (
                q[i] + nu if value_scale == 0 else q[i] + rng.laplace(scale=value_scale, size=n)
            )
            values[i] = np.where(hit, released, np.nan)
        if resample is not None:
            fresh = rng.laplace(scale=resample, size=n)
            rho = np.where(hit, fresh, rho)
            cut = threshold + rho
        count += hit
    return np.ascontiguousarray((bits if values is None else np.vstack([bits, values])).T)


def svt1(queries, rng, *, epsilon, c=1, threshold=0.5, size=None):
    """Sparse vector, Lyu–Su–Li Alg. 1 [audit_lyu2017understanding]: ρ ~ Lap(2/ε), ν_i ~ Lap(4c/ε), stop after c ⊤;
    ε-DP."""
    out = _svt(_answers(queries), rng, _n(size), rho_scale=2 / epsilon, nu_scale=4 * c / epsilon, c=c,
               threshold=threshold)  # fmt: skip
    return _out(out, size)


def svt2(queries, rng, *, epsilon, c=1, threshold=1.0, size=None):
    """Lyu–Su–Li Alg. 2 (Dwork–Roth's sparse vector [dwork2014algorithmic]): ε₁ = ε₂ = ε/2, ρ ~ Lap(c/ε₁),
    resampled after each ⊤, ν_i ~ Lap(2c/ε₂); ε-DP."""
    e1 = e2 = epsilon / 2
    out = _svt(_answers(queries), rng, _n(size), rho_scale=c / e1, nu_scale=2 * c / e2, c=c, threshold=threshold,
               resample=c / e1)  # fmt: skip
    return _out(out, size)


def svt3(queries, rng, *, epsilon, c=1, threshold=1.0, size=None):
    """WRONG — Lyu–Su–Li Alg. 3 (Roth's lecture notes): ρ ~ Lap(2/ε), ν_i ~ Lap(2c/ε), and each ⊤ releases the
    noisy answer q_i + ν_i itself: not ε'-DP for any ε'."""
    out = _svt(_answers(queries), rng, _n(size), rho_scale=2 / epsilon, nu_scale=2 * c / epsilon, c=c,
               threshold=threshold, value_scale=0)  # fmt: skip
    return _out(out, size)


def svt4(queries, rng, *, epsilon, c=1, threshold=1.0, size=None):
    """WRONG — Lyu–Su–Li Alg. 4 (Lee and Clifton): ε₁ = ε/4, ρ ~ Lap(1/ε₁), ν_i ~ Lap(1/ε₂) with ε₂ = 3ε/4,
    not scaled with c: ((1 + 6c)/4)·ε-DP, not ε-DP."""
    out = _svt(_answers(queries), rng, _n(size), rho_scale=4 / epsilon, nu_scale=4 / (3 * epsilon), c=c,
               threshold=threshold)  # fmt: skip
    return _out(out, size)


def svt5(queries, rng, *, epsilon, threshold=1.0, size=None):
    """WRONG — Lyu–Su–Li Alg. 5 (Stoddard et al.): ρ ~ Lap(2/ε), no noise on the queries, no cutoff: not ε'-DP
    for any ε'."""
    out = _svt(_answers(queries), rng, _n(size), rho_scale=2 / epsilon, nu_scale=0.0, c=0, threshold=threshold,
               stop=False)  # fmt: skip
    return _out(out, size)


def svt6(queries, rng, *, epsilon, threshold=1.0, size=None):
    """WRONG — Lyu–Su–Li Alg. 6 (Chen et al.): ρ ~ Lap(2/ε), ν_i ~ Lap(2/ε), no cutoff: not ε'-DP for any ε'."""
    out = _svt(_answers(queries), rng, _n(size), rho_scale=2 / epsilon, nu_scale=2 / epsilon, c=0,
               threshold=threshold, stop=False)  # fmt: skip
    return _out(out, size)


def numerical_svt(queries, rng, *, epsilon, c=2, threshold=1.0, size=None):
    """The numerical sparse vector [audit_wang2019proving]: ρ ~ Lap(3/ε), ν_i ~ Lap(6c/ε), each ⊤ releases q_i + Lap(3c/ε)
    (fresh noise), stop after c ⊤; ε-DP."""
    out = _svt(_answers(queries), rng, _n(size), rho_scale=3 / epsilon, nu_scale=6 * c / epsilon, c=c,
               threshold=threshold, value_scale=3 * c / epsilon)  # fmt: skip
    return _out(out, size)


# ------------------------------------------------------------------------------------------------------- the table
@dataclass(frozen=True)
class BenchmarkMechanism:
    """One benchmark mechanism: its function, whether it is ε-DP at its claim (the papers' analysis), its true ε
    as a multiple of the claim (``math.inf``: not private for any ε), and its input family (``queries:K``) and
    norm."""

    name: str
    function: object
    private: bool
    true_factor: float
    k: int
    norm: str = "linf"
    source: str = ""


BENCHMARK: tuple[BenchmarkMechanism, ...] = (
    BenchmarkMechanism(
        "noisy max (Laplace)", noisy_max_laplace, True, 1.0, 5, source="ReportNoisyMax1"
    ),
    BenchmarkMechanism(
        "noisy max (exponential)", noisy_max_exponential, True, 1.0, 5, source="ReportNoisyMax2"
    ),
    BenchmarkMechanism(
        "noisy max, value (Laplace)",
        noisy_max_laplace_value,
        False,
        2.5,
        5,
        source="ReportNoisyMax3",
    ),
    BenchmarkMechanism(
        "noisy max, value (exponential)",
        noisy_max_exponential_value,
        False,
        math.nan,
        5,
        source="ReportNoisyMax4",
    ),
    BenchmarkMechanism("histogram", histogram, True, 1.0, 5, "l1", source="NoisyHist1"),
    BenchmarkMechanism(
        "histogram, scale ε", histogram_wrong_scale, False, math.nan, 5, "l1", source="NoisyHist2"
    ),
    BenchmarkMechanism(
        "sparse vector, Alg. 1", svt1, True, 1.0, 10, source="SparseVectorTechnique1"
    ),
    BenchmarkMechanism(
        "sparse vector, Alg. 2", svt2, True, 1.0, 10, source="SparseVectorTechnique2"
    ),
    BenchmarkMechanism(
        "sparse vector, Alg. 3", svt3, False, math.inf, 10, source="SparseVectorTechnique3"
    ),
    BenchmarkMechanism(
        "sparse vector, Alg. 4", svt4, False, 1.75, 10, source="SparseVectorTechnique4"
    ),
    BenchmarkMechanism(
        "sparse vector, Alg. 5", svt5, False, math.inf, 10, source="SparseVectorTechnique5"
    ),
    BenchmarkMechanism(
        "sparse vector, Alg. 6", svt6, False, math.inf, 10, source="SparseVectorTechnique6"
    ),
    BenchmarkMechanism(
        "numerical sparse vector", numerical_svt, True, 1.0, 10, source="NumericalSVT"
    ),
)

#: DP-Sniper's reference results [bichsel2021dpsniper] (its repository's ``eval_sp2021/reference-results``, the
#: runs behind the paper's tables) at the claim ε = 0.1: the lower bound ``eps_lcb`` (confidence 0.95, 10⁷ samples),
#: the search's and the final estimate's total seconds, and the input pair it found. Alg. 5 was run at ε = 0.05.
PUBLISHED: dict[str, dict] = {
    "ReportNoisyMax1": {"eps_lcb": 0.0923, "seconds": 61.8, "pair": "[1,1,1,1,1] vs [0,2,2,2,2]"},
    "ReportNoisyMax2": {"eps_lcb": 0.0975, "seconds": 58.4, "pair": "[1,1,1,1,1] vs [0,2,2,2,2]"},
    "ReportNoisyMax3": {"eps_lcb": 0.2478, "seconds": 62.4, "pair": "[0,0,0,0,0] vs [1,1,1,1,1]"},
    "ReportNoisyMax4": {"eps_lcb": 0.3463, "seconds": 62.9, "pair": "[1,1,1,1,1] vs [2,2,2,2,2]"},
    "NoisyHist1": {"eps_lcb": 0.0978, "seconds": 37.7, "pair": "[0,1,1,1,1] vs [1,1,1,1,1]"},
    "NoisyHist2": {"eps_lcb": 4.602, "seconds": 40.6, "pair": "[0,1,1,1,1] vs [1,1,1,1,1]"},
    "SparseVectorTechnique1": {
        "eps_lcb": 0.0858,
        "seconds": 126.0,
        "pair": "[0×5,1×5] vs [1×5,0×5]",
    },
    "SparseVectorTechnique2": {
        "eps_lcb": 0.0859,
        "seconds": 159.9,
        "pair": "[0×5,1×5] vs [1×5,0×5]",
    },
    "SparseVectorTechnique3": {"eps_lcb": 0.1716, "seconds": 160.3, "pair": "[1×10] vs [2×5,0×5]"},
    "SparseVectorTechnique4": {"eps_lcb": 0.1687, "seconds": 130.5, "pair": "[1×10] vs [2×5,0×5]"},
    "SparseVectorTechnique5": {"eps_lcb": 1.761, "seconds": 58.9, "pair": "[2×5,0×5] vs [1×10]"},
    "SparseVectorTechnique6": {
        "eps_lcb": 0.2720,
        "seconds": 95.5,
        "pair": "[1×5,0×5] vs [0×5,1×5]",
    },
    "NumericalSVT": {"eps_lcb": 0.0343, "seconds": 151.7, "pair": "[2×10] vs [1×10]"},
}


#: DP-Sniper's default configuration (its ``DDConfig``): samples to train the classifier, to estimate the event's
#: probabilities for the final bound, and the bound's confidence.
DPSNIPER_CONFIG = {"n_train": 10_700_000, "n_final": 200_000_000, "confidence": 0.9}


def audit_mechanism(
    audit, mech: BenchmarkMechanism, epsilon: float, *, samples: int = 200_000, seed: int = 0, **kw
):
    """Audit one benchmark mechanism at claimed ``epsilon`` as ``dpcompendium audit`` does — ``audit`` is the book's
    :func:`~dpcompendium.book.usercode.audit_callable`, passed in (a chapter does not import the book layer) — on
    the ``queries:K`` family (Δ = 1 in the mechanism's norm), ``samples`` per input. Returns (report, seconds)."""
    start = time.perf_counter()
    report = audit(mech.function, epsilon=epsilon, inputs=f"queries:{mech.k}", sensitivity=1.0, norm=mech.norm,
                   samples=samples, seed=seed, **kw)  # fmt: skip
    return report, time.perf_counter() - start


#: The design of :data:`POWER_SAMPLES` (issue 50: samples chosen from each verdict's power): the pilot's samples per
#: input, the power, the safety factor on its estimate (it takes the event as fixed and its frequencies as observed)
#: and the floor (half the samples train the classifier that chooses the event).
POWER_PILOT, POWER, POWER_SAFETY, POWER_FLOOR = 100_000, 0.9, 1.5, 10_000
#: The seed of the pilot run behind :data:`POWER_NEEDED` (the chapter's default seed).
POWER_PILOT_SEED = 20260207

#: :func:`~dpcompendium.core.audit.power.samples_needed` at power ``POWER`` of the event each mechanism that is
#: not private at the claim chose, in the benchmark's pilot run at ``POWER_PILOT`` samples per input (seed
#: ``POWER_PILOT_SEED``), per claim: conditional on that run's events. Choosing samples this way knows which
#: mechanisms are broken; a blind audit keeps the same samples for every mechanism.
POWER_NEEDED: dict[float, dict[str, int]] = {
    0.7: {
        "noisy max, value (Laplace)": 5_580,
        "noisy max, value (exponential)": 4_170,
        "histogram, scale ε": 1_016,
        "sparse vector, Alg. 3": 26_240,
        "sparse vector, Alg. 4": 31_280,
        "sparse vector, Alg. 5": 134,
        "sparse vector, Alg. 6": 7_900,
    }
}


def round_up(x: float) -> int:
    """The smallest of 1, 2 and 5 × 10^k that is at least ``x`` (> 0)."""
    if not (x > 0 and math.isfinite(x)):
        raise ValueError(f"x must be a finite number > 0, got {x!r}")
    k = math.floor(math.log10(x))
    for step in (1, 2, 5, 10):
        if step * 10**k >= x:
            return int(step * 10**k)
    raise AssertionError("unreachable")  # pragma: no cover


#: Samples per input of each mechanism that is *not* private at a claim, at that claim: its
#: :data:`POWER_NEEDED` times ``POWER_SAFETY``, rounded up (:func:`round_up`), at least ``POWER_FLOOR``. The
#: correct mechanisms keep the run's ``samples``: their HOLDS is a non-rejection whose reach grows with the samples.
#: :func:`run_benchmark` reports each row's ``samples_needed`` again, from that run, so a table says whether its
#: samples were enough.
POWER_SAMPLES: dict[float, dict[str, int]] = {
    eps: {name: max(POWER_FLOOR, round_up(POWER_SAFETY * n)) for name, n in needed.items()}
    for eps, needed in POWER_NEEDED.items()
}


def run_benchmark(
    audit,
    epsilon: float,
    *,
    samples: int = 200_000,
    seed: int = 0,
    names=None,
    by_power: bool = False,
    power: float = POWER,
) -> pd.DataFrame:
    """Every benchmark mechanism (or those in ``names``) audited at claimed ``epsilon`` by ``audit``
    (:func:`audit_mechanism`): verdict, bound, samples, seconds and pair, beside DP-Sniper's published result.

    ``by_power``: a mechanism listed in :data:`POWER_SAMPLES` at this ``epsilon`` is audited with
    ``min(samples, POWER_SAMPLES[epsilon][name])`` samples per input, the others with ``samples``. Every row's
    ``samples_needed`` is :func:`~dpcompendium.core.audit.power.samples_needed` at ``power`` of its own event
    (``inf`` where the event's frequencies do not exceed the claim)."""
    caps = POWER_SAMPLES.get(float(epsilon), {}) if by_power else {}
    rows = []
    for mech in BENCHMARK:
        if names is not None and mech.name not in names:
            continue
        n = min(samples, caps.get(mech.name, samples))
        rep, seconds = audit_mechanism(audit, mech, epsilon, samples=n, seed=seed)
        pub = PUBLISHED[mech.source]
        result = AuditResult(mech.name, "empirical", rep.claimed_epsilon, rep.claimed_delta,
                             rep.epsilon_lower, rep.confidence, rep.verdict, rep.event, rep.p_a, rep.p_b,
                             rep.n_samples)  # fmt: skip
        rows.append({"mechanism": mech.name, "private": mech.private, "claimed_epsilon": epsilon,
                     "verdict": rep.verdict, "epsilon_lower": rep.epsilon_lower, "samples": n,
                     "samples_needed": samples_needed(result, power),
                     "seconds": seconds, "pair": rep.pair, "event": rep.event,
                     "dpsniper_name": mech.source, "dpsniper_eps_lcb": pub["eps_lcb"],
                     "dpsniper_seconds": pub["seconds"], "dpsniper_pair": pub["pair"]})  # fmt: skip
    return pd.DataFrame(rows)
