"""Whole-profile audits of (ε, δ) mechanisms: the trade-off curve and the privacy profile δ(ε) from samples.

A single-event audit (:func:`~dpcompendium.core.audit.empirical.empirical_audit`) tests one point of a mechanism's
privacy profile: at a claimed δ = 10⁻⁵ the event that witnesses the Gaussian mechanism's ε lies in a tail of
probability ≈ 10⁻⁴, where 10⁶ samples hold about a hundred hits, and the bound stays far below the truth (the book's
Gaussian row: 0.18 against a true 0.35). The whole curve is much better determined: its bulk, where the
threshold tests have error rates near ½, is estimated to ±10⁻³ from the same samples.

:func:`profile_audit` draws ``n_samples`` outputs on each neighbour, fixes ``n_thresholds`` cut points t_k on the
first ``n_select`` of them (quantiles of the pooled statistic), and on the other samples bounds the 2K probabilities
P_D[x > t_k], P_D′[x > t_k] with Clopper–Pearson intervals at level 1 − α/(2K) each [clopper1934use], so that all
hold *together* with probability ≥ 1 − α (union bound; the cut points are functions of the selection samples only).
From these one confidence band follow, simultaneously:

- the **certified profile** δ_lo(ε) = max over the 4K threshold events S (x > t_k or x ≤ t_k, either neighbour
  first) of P_lo(S) − e^ε Q_hi(S): a lower bound on the pair's hockey-stick divergence, hence on the mechanism's
  δ(ε), at every ε at once; its ε at the claimed δ, ε_lo, is the rigorous bound, and the **verdict** is
  ``violated`` iff ε_lo exceeds the claimed ε (equivalently: the certified trade-off points cross the claim's
  trade-off function f_{ε,δ}, :func:`~dpcompendium.core.fdp.dp_tradeoff`);
- a **μ-GDP bound** [audit_dong2022gaussian]: a μ-GDP mechanism has β ≥ Φ(Φ⁻¹(1 − α) − μ) for every test, so each
  test's upper bounds (α_hi, β_hi) give μ ≥ Φ⁻¹(1 − α_hi) − Φ⁻¹(β_hi); ``mu_lower`` is the largest: the mechanism is
  not μ-GDP for any smaller μ (with the band's confidence);
- the **shape check**: each threshold's interval of μ (its lower and upper bounds) contains the μ of a Gaussian
  trade-off curve G_μ; ``gaussian_shape`` is True when one μ lies in all of them, i.e. the samples do not reject a
  Gaussian-shaped curve;
- the **whole-profile estimate** ``epsilon_gdp``: the ε at the claimed δ of μ_lo-GDP (:func:`~dpcompendium.core.fdp.gdp_delta`).
  It is a lower bound on the mechanism's ε at that δ *if* its trade-off curve is Gaussian-shaped (as for the
  Gaussian mechanism and its compositions, the case of auditing DP-SGD [audit_nasr2023tight]); it rests on that
  assumption, which the shape check tests but cannot prove, so it never sets the verdict.

This is the f-DP view of auditing [audit_nasr2023tight, audit_andrew2024one]: the whole trade-off curve from the
samples of one neighbouring pair, rather than one point; Delta-Siege [audit_lokna2023group] searches the whole
profile for the ε–δ points that violate a claim. Here both are reported: the certified profile (no assumption) and
the Gaussian fit (one stated assumption).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
from scipy.special import ndtr, ndtri

from ..fdp import gdp_delta
from ..mechanisms.gaussian import gaussian_epsilon
from ..messages import Md, literal, message, number, tex
from ..privacy import PrivacyClaim
from ..validation import check_int, check_rng
from .events import Sampler, _as_statistic, _check_confidence, _check_shape, clopper_pearson
from .result import claimed_privacy

__all__ = ["MIN_SHAPE_POINTS", "ProfileAudit", "claimed_profile", "profile_audit"]

#: The fewest distinct trade-off points on which the shape check is made (one point fits every curve).
MIN_SHAPE_POINTS = 3


def claimed_profile(epsilons, epsilon: float, delta: float) -> np.ndarray:
    """The privacy profile implied by an (ε₀, δ₀) claim: δ(ε) = δ₀ + (1 − δ₀)·max(0, e^{ε₀} − e^ε)/(1 + e^{ε₀})
    (the hockey-stick divergence of the canonical (ε₀, δ₀) pair, whose trade-off function is f_{ε₀,δ₀}
    [audit_dong2022gaussian]): the largest δ(ε) a mechanism that keeps the claim can have at each ε."""
    e = np.asarray(epsilons, dtype=float)
    return delta + (1 - delta) * np.maximum(0.0, math.exp(epsilon) - np.exp(e)) / (
        1 + math.exp(epsilon)
    )


def _mu_from(alpha: np.ndarray, beta: np.ndarray) -> np.ndarray:
    """μ with G_μ(α) = β: Φ⁻¹(1 − α) − Φ⁻¹(β) (±inf at the ends)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return ndtri(1.0 - alpha) - ndtri(beta)


@dataclass(frozen=True)
class ProfileAudit:
    """A whole-profile audit of one neighbouring pair (module docstring).

    ``thresholds``: the K cut points; ``p``/``q``: P_D[x > t_k], P_D′[x > t_k] on the evaluation samples, with their
    simultaneous bounds ``p_lo``, ``p_hi``, ``q_lo``, ``q_hi``. ``epsilon_lower``: the rigorous bound at the claimed
    δ; ``mu_lower``: not μ-GDP below it; ``mu_hat``: the point estimate at the most central threshold;
    ``epsilon_gdp``: ε at the claimed δ of ``mu_lower``-GDP; ``gaussian_shape``: the shape check.
    """

    mechanism: str
    claimed_epsilon: float
    claimed_delta: float
    confidence: float
    n_samples: int
    n_evaluation: int
    thresholds: np.ndarray = field(repr=False)
    p: np.ndarray = field(repr=False)
    q: np.ndarray = field(repr=False)
    p_lo: np.ndarray = field(repr=False)
    p_hi: np.ndarray = field(repr=False)
    q_lo: np.ndarray = field(repr=False)
    q_hi: np.ndarray = field(repr=False)
    epsilon_lower: float
    mu_lower: float
    mu_upper_min: float
    mu_hat: float
    epsilon_gdp: float
    gaussian_shape: bool
    n_points: int

    @property
    def verdict(self) -> str:
        """``violated`` iff the certified profile crosses the claim (ε_lo > claimed ε); no assumption."""
        return "violated" if self.epsilon_lower > self.claimed_epsilon else "holds"

    @property
    def gdp_exceeds_claim(self) -> bool:
        """The Gaussian-shaped estimate exceeds the claim, and the samples do not reject the shape."""
        return self.gaussian_shape and self.epsilon_gdp > self.claimed_epsilon

    def statement(self) -> Md:
        """The audit as a sentence (``audit.profile.*`` templates): the rigorous verdict, then the whole-profile
        estimate or why none is made."""
        if self.gaussian_shape:
            shape = message(
                "audit.profile.gaussian", mu=number(self.mu_lower), eps_gdp=number(self.epsilon_gdp)
            )
        elif self.n_points < MIN_SHAPE_POINTS:
            shape = message("audit.profile.few_points", n=self.n_points)
        else:
            shape = message(
                "audit.profile.not_gaussian",
                mu_lo=number(self.mu_lower),
                mu_hi=number(self.mu_upper_min),
            )
        return message(
            "audit.profile.line",
            mechanism=literal(self.mechanism),
            # the verdict word in normal case (issue 49: no HOLDS/VIOLATED in prose)
            verdict=message(f"audit.word.{self.verdict}"),
            claimed=message(
                "audit.claim_delta",
                eps=literal(f"{self.claimed_epsilon:g}"),
                # δ in the maths as a power of ten ($10^{-5}$), not Python's "1e-05" (zh review 8, M2)
                delta=tex(f"{self.claimed_delta:g}"),
            ),
            eps_lo=number(self.epsilon_lower),
            delta=tex(f"{self.claimed_delta:g}"),
            conf=number(self.confidence, 4),
            n=f"{self.n_samples:,}",
            shape=shape,
        )

    def _events(self) -> tuple[np.ndarray, np.ndarray]:
        """(lower bounds of P(S), upper bounds of Q(S)) of the 4K threshold events, D first then D′ first."""
        num = np.concatenate([self.p_lo, 1 - self.p_hi, self.q_lo, 1 - self.q_hi])
        den = np.concatenate([self.q_hi, 1 - self.q_lo, self.p_hi, 1 - self.p_lo])
        return num, den

    def certified_delta(self, epsilons) -> np.ndarray:
        """δ_lo(ε): the certified lower bound on the mechanism's privacy profile at each ε (≥ 0)."""
        e = np.atleast_1d(np.asarray(epsilons, dtype=float))
        num, den = self._events()
        return np.maximum(0.0, (num[None, :] - np.exp(e)[:, None] * den[None, :]).max(axis=1))

    def gdp_delta(self, epsilons) -> np.ndarray:
        """The privacy profile of ``mu_lower``-GDP at each ε."""
        return np.asarray(gdp_delta(np.asarray(epsilons, dtype=float), self.mu_lower))

    def tradeoff_points(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """(α, β, α_hi, β_hi) of the tests "x > t_k rejects D" (or their complements, whichever separates the pair):
        the empirical trade-off curve and the corners of its confidence band."""
        up = np.mean(self.q - self.p) >= 0  # D′ tends to larger x
        if up:
            return self.p, 1 - self.q, self.p_hi, 1 - self.q_lo
        return 1 - self.p, self.q, 1 - self.p_lo, self.q_hi


def _threshold_counts(x: np.ndarray, t: np.ndarray) -> np.ndarray:
    """#{x > t_k} for sorted cut points t (O(n log K): one searchsorted and a cumulative count)."""
    idx = np.searchsorted(t, x, side="left")  # number of cut points strictly below x
    below = np.bincount(
        idx, minlength=t.size + 1
    )  # below[j]: samples with exactly j cut points below
    return np.cumsum(below[::-1])[::-1][1:].astype(np.int64)  # x > t_k  <=>  idx >= k + 1


def _mu_split(
    x_a: np.ndarray,
    x_b: np.ndarray,
    h: int,
    t: np.ndarray,
    c: float,
    counts: tuple[np.ndarray, np.ndarray] | None = None,
) -> float:
    """μ ≥ Φ⁻¹(1 − α_hi) − Φ⁻¹(β_hi) for the one threshold test chosen on the first h samples (the largest
    μ̂ − 2 sd there), its (α_hi, β_hi) one-sided bounds at level (1 − c)/2 each on the rest. ``counts``: the
    rest's ``_threshold_counts`` at ``t`` for both inputs when the caller has them (the same numbers, not counted
    twice)."""
    sa, sb = _threshold_counts(x_a[:h], t) / h, _threshold_counts(x_b[:h], t) / h
    alpha = np.concatenate([sa, 1 - sa, sb, 1 - sb])  # P_first(S) of the four orientations
    beta = np.concatenate([1 - sb, sb, 1 - sa, sa])  # 1 - P_second(S)
    inner = (alpha > 0) & (alpha < 1) & (beta > 0) & (beta < 1)
    if not inner.any():
        return 0.0
    with np.errstate(divide="ignore", invalid="ignore"):
        za, zb = ndtri(1 - alpha), ndtri(beta)
        sd = np.hypot(
            np.sqrt(alpha * (1 - alpha) / h) / _phi(za), np.sqrt(beta * (1 - beta) / h) / _phi(zb)
        )
        score = np.where(inner, za - zb - 2 * sd, -np.inf)
    j = int(np.argmax(score))
    n_ev = x_a.size - h
    if counts is None:
        counts = (_threshold_counts(x_a[h:], t), _threshold_counts(x_b[h:], t))
    ea, eb = counts[0] / 1, counts[1] / 1
    k_first = np.concatenate([ea, n_ev - ea, eb, n_ev - eb])[j]  # first input's count in S
    k_second_out = np.concatenate([n_ev - eb, eb, n_ev - ea, ea])[
        j
    ]  # second input's count outside S
    each = 1 - (1 - c) / 2
    _, a_hi = clopper_pearson(k_first, n_ev, each, side="upper")
    _, b_hi = clopper_pearson(k_second_out, n_ev, each, side="upper")
    mu = float(_mu_from(np.asarray(a_hi), np.asarray(b_hi)))
    return mu if math.isfinite(mu) else 0.0


def _phi(z: np.ndarray) -> np.ndarray:
    return np.exp(-0.5 * z * z) / math.sqrt(2 * math.pi)


def profile_audit(
    sampler_a: Sampler,
    sampler_b: Sampler,
    *,
    statistic: Callable[[np.ndarray], np.ndarray] | None = None,
    claimed_epsilon: float | None = None,
    claimed_delta: float = 0.0,
    claim: PrivacyClaim | None = None,
    n_samples: int = 4_000_000,
    n_select: int | None = None,
    n_thresholds: int = 32,
    confidence: float = 0.95,
    mechanism: str = "",
    rng: np.random.Generator,
) -> ProfileAudit:
    """Audit the whole privacy profile of a mechanism on one neighbouring pair (module docstring).

    ``sampler_a(n, rng)``/``sampler_b(n, rng)`` draw n outputs on D and D′ (through ``statistic`` to scalars if
    given); ``n_select`` of them (default n // 10) fix the ``n_thresholds`` cut points, the rest are counted. Every
    bound holds with probability ≥ ``confidence``, all of them together."""
    claimed_eps, delta = claimed_privacy(claimed_epsilon, claimed_delta, claim)
    n = check_int(n_samples, "n_samples", minimum=100)
    h = check_int(n // 10 if n_select is None else n_select, "n_select", minimum=10, maximum=n - 10)
    k = check_int(n_thresholds, "n_thresholds", minimum=1, maximum=10_000)
    c = _check_confidence(confidence)
    rng = check_rng(rng)
    out_a, out_b = sampler_a(n, rng), sampler_b(n, rng)
    _check_shape("sampler_a", out_a, n)
    _check_shape("sampler_b", out_b, n)
    x_a = np.asarray(_as_statistic(out_a, statistic), dtype=float)
    x_b = np.asarray(_as_statistic(out_b, statistic), dtype=float)
    pooled = np.concatenate([x_a[:h], x_b[:h]])
    levels = ndtr(np.linspace(-3.5, 3.5, k)) if k > 1 else np.array([0.5])
    t = np.unique(np.quantile(pooled, levels))
    n_ev = n - h
    ka, kb = _threshold_counts(x_a[h:], t), _threshold_counts(x_b[h:], t)
    # half the error budget: 2|t| two-sided intervals, all together (union bound); the other half: one test chosen
    # on the selection samples for the mu bound (two one-sided intervals)
    each = 1 - (1 - c) / 2 / (2 * t.size)
    p_lo, p_hi = clopper_pearson(ka, n_ev, each)
    q_lo, q_hi = clopper_pearson(kb, n_ev, each)
    p, q = ka / n_ev, kb / n_ev
    res = dict(thresholds=t, p=p, q=q, p_lo=p_lo, p_hi=p_hi, q_lo=q_lo, q_hi=q_hi)
    num = np.concatenate([p_lo, 1 - p_hi, q_lo, 1 - q_hi])
    den = np.concatenate([q_hi, 1 - q_lo, p_hi, 1 - p_lo])
    with np.errstate(divide="ignore", invalid="ignore"):
        eps_k = np.where(num - delta > 0, np.log(np.maximum(num - delta, 1e-300) / den), 0.0)
    eps_lo = float(max(0.0, np.max(eps_k)))
    # tests "S rejects the first input": alpha = P_first(S), beta = 1 - P_second(S), in all four orientations
    a_hi = np.concatenate([p_hi, 1 - p_lo, q_hi, 1 - q_lo])
    b_hi = np.concatenate([1 - q_lo, q_hi, 1 - p_lo, p_hi])
    a_lo = np.concatenate([p_lo, 1 - p_hi, q_lo, 1 - q_hi])
    b_lo = np.concatenate([1 - q_hi, q_lo, 1 - p_hi, p_lo])
    mu_lo_k, mu_hi_k = _mu_from(a_hi, b_hi), _mu_from(a_lo, b_lo)
    mu_band = float(np.nanmax(np.where(np.isfinite(mu_lo_k), mu_lo_k, -np.inf)))
    mu_lower = max(0.0, mu_band, _mu_split(x_a, x_b, h, t, 1 - (1 - c) / 2, (ka, kb)))
    # the shape check: one mu in every threshold's interval (those that separate the pair in this orientation)
    sep = mu_lo_k > 0
    mu_upper_min = float(np.min(mu_hi_k[sep])) if sep.any() else math.inf
    # a shape needs points: the distinct interior trade-off points (a binary output gives one)
    inner = (ka > 0) & (ka < n_ev) | (kb > 0) & (kb < n_ev)
    n_points = int(np.unique(np.stack([ka[inner], kb[inner]]), axis=1).shape[1])
    gaussian_shape = bool(mu_lower <= mu_upper_min and n_points >= MIN_SHAPE_POINTS)
    j = int(np.argmin(np.abs(p + q - 1)))  # the most central threshold
    a_c, b_c = (p[j], 1 - q[j]) if q[j] >= p[j] else (q[j], 1 - p[j])
    mu_hat = float(_mu_from(np.array(a_c), np.array(b_c)))
    eps_gdp = gaussian_epsilon(1.0 / mu_lower, 1.0, delta) if mu_lower > 0 and delta > 0 else 0.0
    if mu_lower > 0 and delta == 0:
        eps_gdp = math.inf  # no μ > 0 is pure DP
    return ProfileAudit(
        mechanism=mechanism,
        claimed_epsilon=claimed_eps,
        claimed_delta=delta,
        confidence=c,
        n_samples=n,
        n_evaluation=n_ev,
        epsilon_lower=eps_lo,
        mu_lower=mu_lower,
        mu_upper_min=mu_upper_min,
        mu_hat=mu_hat,
        epsilon_gdp=float(eps_gdp),
        gaussian_shape=gaussian_shape,
        n_points=n_points,
        **res,
    )
