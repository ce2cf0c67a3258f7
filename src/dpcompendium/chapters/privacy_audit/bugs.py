"""A second benchmark, from the DP-bug literature: mechanisms written from the papers as a student would, about half
of them private, audited as ``dpcompendium audit`` audits a student's code.

The literature benchmark (:mod:`.benchmark`) is StatDP's and DP-Sniper's: noisy maxes, histograms and sparse vectors
on vectors of query answers. This one covers the other families a course meets, each with its relation and its input
family: randomized response (local), the exponential mechanism with and without its factor 2
[mcsherry2007mechanism], report noisy max with one shared noise draw, one-shot noisy top-k with the budget split
over the k selections or not [audit_durfee2019practical], PATE's noisy-argmax aggregator of teacher votes
[audit_papernot2017semi] under the relation its proof needs (one vote added: ``one-query``) and under the one it does
not cover (a vote moved: ``queries``), composition of two releases at ε/2 and of three at ε, Poisson subsampling
with the tight amplification [balle2018privacy] and with the linear one, replace-one histograms with the noise of
add-remove, an output-form leak (``None`` when a cell is empty), data-dependent clipping (a winsorized mean),
monotone sparse vector under ``monotone`` [audit_lyu2017understanding] (Alg. 7), a clamped mean, and the classical
Gaussian mechanism at (ε, δ) with and without its δ term.

Each function is ``f(data, rng, *, ..., size=None)``, vectorized over ``size`` outputs; ``BUGS`` lists them with
the claim audited (ε, δ), the inputs and relation, and the true ε of the worst pair the family holds at that claim
(``math.inf``: no finite ε), from the papers' analyses. :func:`run_bugs` audits them all
(:func:`~dpcompendium.book.usercode.audit_callable`, passed in: a chapter does not import the book layer).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ...core.mechanisms.gaussian import gaussian_epsilon

__all__ = ["BUGS", "BugMechanism", "run_bugs"]


def _n(size):
    return 1 if size is None else int(size)


def _out(x, size):
    return x[0] if size is None else x


# ------------------------------------------------------------------------------------------- randomized response
def randomized_response(value, rng, *, epsilon, size=None):
    """Warner's randomized response on a bit: keep it with probability e^ε/(1 + e^ε); ε-LDP."""
    keep = rng.random(_n(size)) < math.exp(epsilon) / (1 + math.exp(epsilon))
    return _out(np.where(keep, int(value), 1 - int(value)), size)


def grr_binary_formula(value, rng, *, epsilon, k=4, size=None):
    """WRONG: k-ary randomized response keeping the value with the binary probability e^ε/(1 + e^ε) instead of
    e^ε/(e^ε + k − 1) [wang2017locally]: ε + ln(k − 1)-LDP."""
    n = _n(size)
    keep = rng.random(n) < math.exp(epsilon) / (1 + math.exp(epsilon))
    other = (int(value) + rng.integers(1, k, size=n)) % k
    return _out(np.where(keep, int(value), other), size)


# --------------------------------------------------------------------------------------- selection on scores
def _gumbel_argmax(scores, rng, n, scale):
    return np.argmax(scores + rng.gumbel(scale=scale, size=(n, scores.size)), axis=1)


def exponential_mechanism(scores, rng, *, epsilon, size=None):
    """The exponential mechanism on scores of sensitivity 1: P[i] ∝ exp(ε u_i / 2) (sampled as the argmax of
    u_i + Gumbel(2/ε)); ε-DP when every score moves by at most 1."""
    u = np.asarray(scores, dtype=float)
    return _out(_gumbel_argmax(u, rng, _n(size), 2 / epsilon), size)


def exponential_mechanism_no_half(scores, rng, *, epsilon, size=None):
    """WRONG: P[i] ∝ exp(ε u_i) — the factor 2 dropped: 2ε-DP when the scores may move in opposite directions."""
    u = np.asarray(scores, dtype=float)
    return _out(_gumbel_argmax(u, rng, _n(size), 1 / epsilon), size)


def noisy_max_shared_noise(scores, rng, *, epsilon, size=None):
    """WRONG: one Laplace draw added to every score, then the argmax — the noise cancels and the index is the true
    argmax: no finite ε."""
    u = np.asarray(scores, dtype=float)
    noise = rng.laplace(scale=2 / epsilon, size=(_n(size), 1))
    return _out(np.argmax(u + noise, axis=1), size)


def noisy_top_k(scores, rng, *, epsilon, k=2, size=None):
    """One-shot noisy top-k [audit_durfee2019practical]: the k largest of u_i + Gumbel(2k/ε), in order — the same
    law as k rounds of the exponential mechanism at ε/k each: ε-DP."""
    u = np.asarray(scores, dtype=float)
    noisy = u + rng.gumbel(scale=2 * k / epsilon, size=(_n(size), u.size))
    return _out(np.argsort(-noisy, axis=1)[:, :k], size)


def noisy_top_k_full_budget(scores, rng, *, epsilon, k=2, size=None):
    """WRONG: Gumbel(2/ε) noise — the budget of one selection spent on each of the k: kε-DP."""
    u = np.asarray(scores, dtype=float)
    noisy = u + rng.gumbel(scale=2 / epsilon, size=(_n(size), u.size))
    return _out(np.argsort(-noisy, axis=1)[:, :k], size)


def pate_noisy_argmax(votes, rng, *, epsilon, size=None):
    """PATE's aggregator [audit_papernot2017semi]: the class with the most teacher votes after Lap(1/ε) noise on each
    count. ε-DP when one vote is added (one count moves: ``one-query``); a teacher who changes its vote moves two
    counts in opposite directions, where this noise gives only 2ε (the paper's (2γ, 0) for Lap(1/γ))."""
    v = np.asarray(votes, dtype=float)
    return _out(
        np.argmax(v + rng.laplace(scale=1 / epsilon, size=(_n(size), v.size)), axis=1), size
    )


# ----------------------------------------------------------------------------------------------- composition
def two_releases(value, rng, *, epsilon=0.5, size=None):
    """Two Laplace releases of a value of sensitivity 1, each at its own ``epsilon`` (default 0.5): by sequential
    composition 2·epsilon-DP — the claim ε = 1 at the default."""
    out = float(value) + rng.laplace(scale=1 / epsilon, size=(_n(size), 2))
    return _out(out, size)


def three_releases_full_budget(value, rng, *, epsilon, size=None):
    """WRONG: three Laplace releases each at the whole ε (no split): 3ε-DP."""
    out = float(value) + rng.laplace(scale=1 / epsilon, size=(_n(size), 3))
    return _out(out, size)


# ------------------------------------------------------------------------------------------ Poisson subsampling
def subsampled_sum(data, rng, *, noise_epsilon=2.0, rate=0.1, size=None):
    """Poisson subsampling at ``rate`` q, then the sum of the kept records (clamped to [0, 1]) + Lap(1/ε₀):
    ln(1 + q(e^ε₀ − 1))-DP under add-remove [balle2018privacy] (0.494 at the defaults)."""
    x = np.clip(np.asarray(data, dtype=float), 0.0, 1.0)
    n = _n(size)
    kept = rng.random((n, x.size)) < rate
    return _out((kept * x).sum(axis=1) + rng.laplace(scale=1 / noise_epsilon, size=n), size)


def subsampled_true_epsilon(noise_epsilon: float = 2.0, rate: float = 0.1) -> float:
    """ln(1 + q(e^ε₀ − 1)): the tight ε of Poisson subsampling at rate q followed by an ε₀-DP mechanism."""
    return math.log1p(rate * math.expm1(noise_epsilon))


# ------------------------------------------------------------------------------------------------- histograms
def histogram_add_remove_noise(counts, rng, *, epsilon, size=None):
    """WRONG under replace-one: Lap(1/ε) per count, the noise of add-remove; moving one record changes two counts,
    an ℓ1 sensitivity of 2: 2ε-DP."""
    c = np.asarray(counts, dtype=float)
    return _out(c + rng.laplace(scale=1 / epsilon, size=(_n(size), c.size)), size)


def histogram_replace_one(counts, rng, *, epsilon, size=None):
    """Lap(2/ε) per count: ε-DP under replace-one (ℓ1 sensitivity 2)."""
    c = np.asarray(counts, dtype=float)
    return _out(c + rng.laplace(scale=2 / epsilon, size=(_n(size), c.size)), size)


# ------------------------------------------------------------------------------------------------------ means
def clamped_mean(data, rng, *, epsilon, lo=0.0, hi=1.0, size=None):
    """mean(clip(x, lo, hi)) + Lap((hi − lo)/(n ε)): ε-DP under replace-one (n public)."""
    x = np.clip(np.asarray(data, dtype=float), lo, hi)
    return x.mean() + rng.laplace(scale=(hi - lo) / (x.size * epsilon), size=size)


def winsorized_mean(data, rng, *, epsilon, lo=0.0, hi=1.0, size=None):
    """WRONG: clipped to the data's own 10th and 90th percentiles with the noise of a clamped mean: on 10 records,
    (lo, lo, hi×8) vs (lo, hi×9) moves it by 0.19 (hi − lo) against a noise scale for 0.1: 1.9ε."""
    x = np.clip(np.asarray(data, dtype=float), lo, hi)
    p10, p90 = np.percentile(x, [10, 90])
    return np.clip(x, p10, p90).mean() + rng.laplace(
        scale=(hi - lo) / (x.size * epsilon), size=size
    )


def large_values_mean(data, rng, *, epsilon, threshold=0.5, size=None):
    """WRONG: the noisy mean of the records above ``threshold``, ``None`` when there are none — whether the data hold
    a large record shows in the output's form: no finite ε."""
    x = np.clip(np.asarray(data, dtype=float), 0.0, 1.0)
    large = x[x > threshold]
    if large.size == 0:
        return None if size is None else [None] * int(size)
    vals = large.mean() + rng.laplace(scale=1 / (large.size * epsilon), size=_n(size))
    return float(vals[0]) if size is None else list(vals)


# ------------------------------------------------------------------------------------------------ sparse vector
def monotone_sparse_vector(queries, rng, *, epsilon, threshold=1.0, size=None):
    """Lyu–Su–Li Alg. 7 with monotonic queries, c = 1 [audit_lyu2017understanding]: ρ ~ Lap(2/ε), ν_i ~ Lap(2/ε)
    (half of Alg. 1's query noise), stop at the first ⊤ (NaN after it). ε-DP under ``monotone`` neighbours."""
    q = np.asarray(queries, dtype=float)
    n = _n(size)
    rho = rng.laplace(scale=2 / epsilon, size=n)
    out = np.full((n, q.size), np.nan)
    live = np.ones(n, dtype=bool)
    for i in range(q.size):
        above = q[i] + rng.laplace(scale=2 / epsilon, size=n) >= threshold + rho
        out[live, i] = above[live]
        live &= ~above
    return _out(out, size)


# --------------------------------------------------------------------------------------------------- Gaussian
def gaussian_classical(value, rng, *, epsilon, delta, size=None):
    """The classical Gaussian mechanism, σ = √(2 ln(1.25/δ))/ε for sensitivity 1 [dwork2014algorithmic]: (ε, δ)-DP
    for ε < 1."""
    sigma = math.sqrt(2 * math.log(1.25 / delta)) / epsilon
    return float(value) + rng.normal(scale=sigma, size=size)


def gaussian_no_delta_term(value, rng, *, epsilon, delta, size=None):
    """WRONG: σ = 1/ε, the Laplace scale, without the √(2 ln(1.25/δ)) factor: at ε = 1, δ = 10⁻⁵ its ε at that δ is
    4.38 [balle2018improving]."""
    return float(value) + rng.normal(scale=1 / epsilon, size=size)


# ------------------------------------------------------------------------------------------------------ the table
@dataclass(frozen=True)
class BugMechanism:
    """One mechanism of the benchmark: its function, the claim audited (``epsilon``, ``delta``), the input family
    and relation (``neighbours``; ``sensitivity`` and ``norm`` for the query relations), the function's own
    parameters (``params``), whether it is private at the claim, the true ε of the worst pair of the family at the
    claimed δ (``math.inf``: none finite) and where it comes from."""

    name: str
    function: Callable
    private: bool
    true_epsilon: float
    inputs: str
    epsilon: float = 1.0
    delta: float = 0.0
    neighbours: str | None = None
    sensitivity: float | None = None
    norm: str = "linf"
    params: dict = field(default_factory=dict)
    source: str = ""


def _gauss_true(sigma: float, delta: float) -> float:
    return gaussian_epsilon(sigma, 1.0, delta)


BUGS: tuple[BugMechanism, ...] = (
    BugMechanism("randomized response", randomized_response, True, 1.0, "category:2",
                 source="Warner 1965"),
    BugMechanism("k-ary RR, binary keep probability", grr_binary_formula, False, 1 + math.log(3), "category:4",
                 source="wang2017locally"),
    BugMechanism("exponential mechanism", exponential_mechanism, True, 1.0, "queries:5", sensitivity=1.0,
                 source="mcsherry2007mechanism"),
    BugMechanism("exponential mechanism, no factor 2", exponential_mechanism_no_half, False, 2.0, "queries:5",
                 sensitivity=1.0, source="mcsherry2007mechanism"),
    BugMechanism("noisy max, one shared draw", noisy_max_shared_noise, False, math.inf, "queries:5",
                 sensitivity=1.0, source="ding2018detecting"),
    BugMechanism("noisy top-k (Gumbel, budget split)", noisy_top_k, True, 1.0, "queries:5", sensitivity=1.0,
                 source="audit_durfee2019practical"),
    BugMechanism("noisy top-k, budget not split", noisy_top_k_full_budget, False, 2.0, "queries:5",
                 sensitivity=1.0, source="audit_durfee2019practical"),
    BugMechanism("PATE aggregator, one vote added", pate_noisy_argmax, True, 1.0, "queries:5",
                 neighbours="one-query", sensitivity=1.0, source="audit_papernot2017semi"),
    BugMechanism("PATE aggregator, a vote moved", pate_noisy_argmax, False, 2.0, "queries:5",
                 sensitivity=1.0, source="audit_papernot2017semi"),
    BugMechanism("two releases at ε/2", two_releases, True, 1.0, "scalar:0,1", source="dwork2014algorithmic"),
    BugMechanism("three releases at ε", three_releases_full_budget, False, 3.0, "scalar:0,1",
                 source="dwork2014algorithmic"),
    BugMechanism("Poisson subsampling, tight amplification", subsampled_sum, True, subsampled_true_epsilon(),
                 "dataset:10,0,1", epsilon=0.5, neighbours="add-remove", source="balle2018privacy"),
    BugMechanism("Poisson subsampling, linear amplification", subsampled_sum, False, subsampled_true_epsilon(),
                 "dataset:10,0,1", epsilon=0.2, neighbours="add-remove", source="balle2018privacy"),
    BugMechanism("histogram, replace-one with add-remove noise", histogram_add_remove_noise, False, 2.0,
                 "histogram:4", neighbours="replace-one", source="dwork2014algorithmic"),
    BugMechanism("histogram, replace-one", histogram_replace_one, True, 1.0, "histogram:4",
                 neighbours="replace-one", source="dwork2014algorithmic"),
    BugMechanism("clamped mean", clamped_mean, True, 1.0, "dataset:10,0,1", neighbours="replace-one",
                 source="dwork2014algorithmic"),
    BugMechanism("winsorized mean, clip bounds from the data", winsorized_mean, False, 1.9, "dataset:10,0,1",
                 neighbours="replace-one", source="this benchmark"),
    BugMechanism("mean of large values, None when empty", large_values_mean, False, math.inf, "dataset:10,0,1",
                 neighbours="replace-one", source="this benchmark"),
    BugMechanism("monotone sparse vector (Alg. 7)", monotone_sparse_vector, True, 1.0, "queries:10",
                 neighbours="monotone", sensitivity=1.0, source="audit_lyu2017understanding"),
    BugMechanism("Gaussian, classical calibration", gaussian_classical, True,
                 _gauss_true(math.sqrt(2 * math.log(1.25 / 1e-5)) / 0.5, 1e-5), "scalar:0,1", epsilon=0.5,
                 delta=1e-5, source="dwork2014algorithmic"),
    BugMechanism("Gaussian, no δ term", gaussian_no_delta_term, False, _gauss_true(1.0, 1e-5), "scalar:0,1",
                 delta=1e-5, source="dwork2014algorithmic"),
)  # fmt: skip


def run_bugs(audit, *, samples: int = 200_000, seed: int = 0, names=None, **kw) -> pd.DataFrame:
    """Every mechanism of ``BUGS`` (or those in ``names``) audited at its claim by ``audit`` (the book's
    :func:`~dpcompendium.book.usercode.audit_callable`, passed in), ``samples`` per input: verdict, bound, seconds,
    pair and the report's sentence."""
    rows = []
    for m in BUGS:
        if names is not None and m.name not in names:
            continue
        start = time.perf_counter()
        extra = {"sensitivity": m.sensitivity, "norm": m.norm} if m.sensitivity is not None else {}
        rep = audit(m.function, epsilon=m.epsilon, delta=m.delta, neighbours=m.neighbours, inputs=m.inputs,
                    params=m.params, samples=samples, seed=seed, **extra, **kw)  # fmt: skip
        rows.append({"mechanism": m.name, "private": m.private, "claimed_epsilon": m.epsilon,
                     "claimed_delta": m.delta, "true_epsilon": m.true_epsilon, "verdict": rep.verdict,
                     "epsilon_lower": rep.epsilon_lower, "samples": samples,
                     "seconds": time.perf_counter() - start, "pair": rep.pair, "report": rep.summary(),
                     "source": m.source})  # fmt: skip
    return pd.DataFrame(rows)
