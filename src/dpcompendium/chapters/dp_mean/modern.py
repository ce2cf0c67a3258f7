"""What a practitioner would use today for a DP average: private bounds, a Gaussian (zCDP) mean, a centred
add-remove mean with an optimised budget split, and the minimax lower bound they are measured against.

- :func:`dp_quantile`: the exponential-mechanism quantile of Smith {cite}`dpmean_smith2011privacy` on a wide
  public domain [A, B]: the gap between sorted points i and i+1 is chosen with probability ∝
  width·exp(−ε|i − qn|/2), then a point uniformly in it. Replace-one, public n: the rank utility has sensitivity
  1, so one quantile is ε-DP.
- :func:`noisy_average_private_bounds`: a share of ε buys two DP quantiles [l, u]; the data are clipped to [l, u]
  and the rest of ε goes to a clamped Laplace mean with sensitivity (u − l)/n. ε-DP by basic composition,
  replace-one with public n.
- :func:`noisy_average_gaussian`: clip, then N(0, σ²) with σ the analytic Gaussian calibration at sensitivity Δ/n
  {cite}`balle2018improving` (the smallest σ that is (ε, δ)-DP; a zCDP conversion gives a σ 16–45 % larger).
- :func:`noisy_average_centred`: method 4 calibrated to its own sensitivity: Δ/2 under add-remove, with a share
  ``count_share`` of ε on the count; under replace-one (n public) the count costs nothing and the centred sum, of
  sensitivity Δ, takes all of ε; :func:`optimal_count_share` minimizes its first-order MSE for a declared
  (public, data-independent) guess r₀ of |μ − m|.
- :func:`noisy_average_coinpress`: CoinPress {cite}`dpmean_biswas2020coinpress` in one dimension, an
  instance-adaptive mean with a private range: from the wide public domain, each step clips the data to the current
  interval widened by a margin γ, releases a Gaussian mean (ρₜ-zCDP, sensitivity 2(r + γ)/n) and shrinks the
  interval around it; the last step's mean is the release. ρ = Σρₜ, converted to (ε, δ)-DP under replace-one with
  public n; a declared guess of the data's spread sets γ (accuracy only, never the guarantee).
- :func:`minimax_lower_bound`: max over k of (kΔ/2n)/(1 + e^{kε}) (two-point method with group privacy): no
  ε-DP estimator has a worst-case mean absolute error below it {cite}`dpmean_kamath2020primer`. It is a bound with
  a loose constant; among data-independent additive noises for one query at fixed sensitivity the staircase
  mechanism is the exact optimum {cite}`geng2014optimal`.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from numpy.typing import ArrayLike
from scipy import optimize

from ...core.accounting import gaussian_rho, zcdp_epsilon
from ...core.mechanisms.gaussian import analytic_gaussian_sigma
from ...core.messages import message, tex
from ...core.privacy import PrivacyClaim
from ...core.validation import check_bounds, check_delta, check_epsilon, check_in_domain, check_int
from .estimators import _inputs, _out, _shape

__all__ = [
    "BOUNDS_SHARE",
    "COINPRESS_BETA",
    "COINPRESS_SHARES",
    "GAUSSIAN_DELTA",
    "MEAN_OFFSET_GUESS",
    "QUANTILES",
    "SCALE_GUESS",
    "WIDE_BOUNDS",
    "centred_first_order_rmse",
    "clipping_tradeoff",
    "coinpress_steps",
    "dp_quantile",
    "gaussian_mean_sigma",
    "minimax_lower_bound",
    "noisy_average_centred",
    "noisy_average_coinpress",
    "noisy_average_gaussian",
    "noisy_average_private_bounds",
    "optimal_count_share",
    "quantile_interval_probabilities",
    "rho_for_epsilon",
]

#: wide public domains the private bounds are searched in (declared, never taken from the rows): heights of
#: people in [0, 300] cm, ages in [0, 150] years
WIDE_BOUNDS: dict[str, tuple[float, float]] = {"heights": (0.0, 300.0), "adult-age": (0.0, 150.0)}
#: the quantiles the private-bounds mean clips to, and the share of ε they spend (half each)
QUANTILES: tuple[float, float] = (0.01, 0.99)
BOUNDS_SHARE = 0.2
#: δ of the Gaussian (zCDP) mean: δ·n ≤ 0.01 for n up to 10⁴
GAUSSIAN_DELTA = 1e-6
#: declared guess r₀ of |μ − m| (distance of the mean from the centre of the declared bounds) that sets the
#: add-remove budget split; public and data-independent: the source's height generator is centred at m = 170 cm
#: (r₀ = 0.5 cm allows for sampling), US adults' mean age (about 38 in the 1994 census population) is about 15
#: years below the centre 53.5 of [17, 90]
MEAN_OFFSET_GUESS: dict[str, float] = {"heights": 0.5, "adult-age": 15.0}
#: declared guess σ₀ of the data's standard deviation that sets CoinPress's clipping margin; public and
#: data-independent: the source's height generator has sd 10 cm, and the ages of a working-age population (17 to
#: 90) spread by about 15 years. It affects the accuracy only: the guarantee holds for any σ₀ and any data.
SCALE_GUESS: dict[str, float] = {"heights": 10.0, "adult-age": 15.0}
#: CoinPress's shares of ρ: two range-shrinking steps, then the mean (declared before the run)
COINPRESS_SHARES: tuple[float, ...] = (0.125, 0.125, 0.75)
#: CoinPress's failure probability per step in its margins (accuracy only)
COINPRESS_BETA = 0.01


# ------------------------------------------------------------------------------------------------ DP quantile
def _check_q(q: Any) -> float:
    if not (isinstance(q, int | float | np.floating) and 0.0 <= float(q) <= 1.0):
        raise ValueError(f"q must be a number in [0, 1], got {q!r}")
    return float(q)


def quantile_interval_probabilities(
    x: ArrayLike, q: float, epsilon: float, domain: Any
) -> tuple[np.ndarray, np.ndarray]:
    """(edges, probabilities) of Smith's exponential mechanism: gap i = [z_i, z_{i+1}] of the sorted points
    padded with the domain ends has probability ∝ (z_{i+1} − z_i)·exp(−ε|i − qn|/2), i = 0..n."""
    eps = check_epsilon(epsilon)
    lo, hi = check_bounds(domain, "domain")
    arr = np.sort(check_in_domain(x, (lo, hi), "x"))
    q = _check_q(q)
    n = arr.size
    edges = np.concatenate([[lo], arr, [hi]])
    width = np.diff(edges)
    with np.errstate(divide="ignore"):
        logw = np.log(width) - eps * np.abs(np.arange(n + 1) - q * n) / 2.0
    logw -= logw.max()
    p = np.exp(logw)
    return edges, p / p.sum()


def dp_quantile(
    x: ArrayLike,
    q: float,
    epsilon: float,
    domain: Any,
    rng: np.random.Generator,
    size: int | tuple[int, ...] | None = None,
) -> np.ndarray | float:
    """The q-quantile of ``x`` by the exponential mechanism {cite}`dpmean_smith2011privacy`, ε-DP under
    replace-one with public n (the utility −|i − qn| of a gap changes by at most 1 when one record moves).
    ``domain``: the public range [A, B] that holds every record and the output."""
    edges, p = quantile_interval_probabilities(x, q, epsilon, domain)
    shape = _shape(size)
    i = rng.choice(p.size, size=shape, p=p)
    return _out(edges[i] + rng.random(shape) * (edges[i + 1] - edges[i]))


def _domain_claim(
    what: str,
    sensitivity: str,
    epsilon: float,
    domain: Any,
    domain_condition: str,
    *conditions: Any,
    delta: float = 0.0,
    before: tuple[Any, ...] = (),
) -> PrivacyClaim:
    """The replace-one claim of an estimator on a public ``domain`` [A, B]: the mechanism ``claims.dpmean.mech_<what>``
    and the sensitivity ``claims.dpmean.<sensitivity>`` at ε (δ), its conditions ``before``, the domain's
    (``claims.dpmean.<domain_condition>``, with A and B), then ``conditions``."""
    eps = check_epsilon(epsilon)
    lo, hi = check_bounds(domain, "domain")
    return PrivacyClaim(
        message(f"claims.dpmean.mech_{what}"),
        "replace-one",
        message(f"claims.dpmean.{sensitivity}"),
        eps,
        delta,
        conditions=(
            *before,
            message(f"claims.dpmean.{domain_condition}", lo=tex(f"{lo:g}"), hi=tex(f"{hi:g}")),
            *conditions,
        ),
    )


def _claim_quantile(epsilon: float, domain: Any) -> PrivacyClaim:
    return _domain_claim(
        "quantile",
        "sens_rank",
        epsilon,
        domain,
        "cond_records_output_domain",
        message("claims.dpmean.cond_n_public"),
    )


dp_quantile.privacy_claim = _claim_quantile  # type: ignore[attr-defined]


# ---------------------------------------------------------------------------------------- private-bounds mean
def _clipped_sums(
    sorted_x: np.ndarray, csum: np.ndarray, lo: np.ndarray, hi: np.ndarray
) -> np.ndarray:
    """Σ clip(x, lo_r, hi_r) for every r, from the sorted data and its prefix sums (O(log n) per r)."""
    n = sorted_x.size
    i = np.searchsorted(sorted_x, lo, side="left")  # records below lo
    j = np.searchsorted(sorted_x, hi, side="right")  # records at most hi
    j = np.maximum(j, i)
    return lo * i + (csum[j] - csum[i]) + hi * (n - j)


def noisy_average_private_bounds(
    x: ArrayLike,
    epsilon: float,
    domain: Any,
    rng: np.random.Generator,
    size: int | tuple[int, ...] | None = None,
    *,
    quantiles: tuple[float, float] = QUANTILES,
    bounds_share: float = BOUNDS_SHARE,
) -> np.ndarray | float:
    """Private bounds, then a clamped Laplace mean: [l, u] = two DP quantiles (:func:`dp_quantile`, each at
    ε·share/2, sorted), y = Π_[l,u]((Σ clip(xᵢ, l, u) + Lap((u − l)/ε₂))/n), ε₂ = ε(1 − share).

    ε-DP under replace-one with public n ≥ 1 (basic composition; the second step's sensitivity u − l is set by
    the first step's output, so it is adaptive composition {cite}`dwork2014algorithmic`). ``domain``: the wide
    public range every record lies in; only it is declared.
    """
    arr, eps, lo, hi = _inputs(x, epsilon, domain, rng)
    q_lo, q_hi = (_check_q(q) for q in quantiles)
    if not 0.0 < bounds_share < 1.0:
        raise ValueError(f"bounds_share must be in (0, 1), got {bounds_share!r}")
    n = arr.size
    if n == 0:
        raise ValueError("x must hold at least one record (n public, n >= 1)")
    shape = _shape(size)
    e_q = eps * bounds_share / 2.0
    l1 = np.asarray(dp_quantile(arr, q_lo, e_q, (lo, hi), rng, size=shape), dtype=float)
    u1 = np.asarray(dp_quantile(arr, q_hi, e_q, (lo, hi), rng, size=shape), dtype=float)
    left, right = np.minimum(l1, u1), np.maximum(l1, u1)
    sorted_x = np.sort(arr)
    csum = np.concatenate([[0.0], np.cumsum(sorted_x)])
    s = _clipped_sums(sorted_x, csum, left, right)
    e2 = eps * (1.0 - bounds_share)
    y = (s + rng.laplace(0.0, 1.0, size=shape) * (right - left) / e2) / n
    return _out(np.clip(y, left, right))


def _claim_private_bounds(
    epsilon: float, domain: Any, bounds_share: float = BOUNDS_SHARE
) -> PrivacyClaim:
    return _domain_claim(
        "private_bounds",
        "sens_private_bounds",
        epsilon,
        domain,
        "cond_records_domain",
        message("claims.dpmean.n_public"),
        message(
            "claims.dpmean.cond_bounds_budget",
            q=tex(f"{bounds_share / 2:.3g}"),
            m=tex(f"{1 - bounds_share:.3g}"),
        ),
    )


noisy_average_private_bounds.privacy_claim = _claim_private_bounds  # type: ignore[attr-defined]


# ------------------------------------------------------------------------------------------- Gaussian (zCDP)
def rho_for_epsilon(epsilon: float, delta: float) -> float:
    """The largest ρ whose zCDP guarantee converts to (ε, δ)-DP (:func:`~dpcompendium.core.accounting.zcdp_epsilon`,
    inverted by Brent's method)."""
    eps, d = check_epsilon(epsilon), check_delta(delta)
    if d <= 0:
        raise ValueError(f"delta must be > 0 for a Gaussian mean, got {delta!r}")
    lo, hi = eps * eps * 1e-6, eps * eps
    while zcdp_epsilon(lo, d) > eps:
        lo /= 100.0
    while zcdp_epsilon(hi, d) < eps:
        hi *= 4.0
    return float(
        optimize.brentq(lambda r: zcdp_epsilon(r, d) - eps, lo, hi, xtol=lo * 1e-6, rtol=1e-12)
    )


def gaussian_mean_sigma(n: int, epsilon: float, delta: float, bounds: Any) -> float:
    """The noise sd on the mean of n values in [a, b]: the analytic Gaussian calibration
    (:func:`~dpcompendium.core.mechanisms.gaussian.analytic_gaussian_sigma`, Balle & Wang 2018) at sensitivity
    Δ/n, the smallest σ whose Gaussian mechanism is (ε, δ)-DP."""
    n = check_int(n, "n", minimum=1)
    lo, hi = check_bounds(bounds)
    eps, d = check_epsilon(epsilon), check_delta(delta)
    if d <= 0:
        raise ValueError(f"delta must be > 0 for a Gaussian mean, got {delta!r}")
    return analytic_gaussian_sigma((hi - lo) / n, eps, d)


def noisy_average_gaussian(
    x: ArrayLike,
    epsilon: float,
    delta: float,
    bounds: Any,
    rng: np.random.Generator,
    size: int | tuple[int, ...] | None = None,
    *,
    clamp: bool = True,
) -> np.ndarray | float:
    """Gaussian mean: Π_[a,b](μ + N(0, σ²)), σ = :func:`gaussian_mean_sigma` (analytic calibration): (ε, δ)-DP
    under replace-one with public n ≥ 1 (and ρ-zCDP with ρ = Δ²/(2(nσ)²) as well).
    ``clamp=False``: the plain Gaussian average (variance σ²)."""
    arr, eps, lo, hi = _inputs(x, epsilon, bounds, rng)
    n = arr.size
    if n == 0:
        raise ValueError("x must hold at least one record (n public, n >= 1)")
    sigma = gaussian_mean_sigma(n, eps, delta, (lo, hi))
    y = arr.mean() + sigma * rng.standard_normal(_shape(size))
    return _out(np.clip(y, lo, hi) if clamp else y)


def _claim_gaussian(epsilon: float, delta: float, bounds: Any, n: int = 1) -> PrivacyClaim:
    eps, d = check_epsilon(epsilon), check_delta(delta)
    lo, hi = check_bounds(bounds)
    sigma = gaussian_mean_sigma(n, eps, d, (lo, hi))
    rho = gaussian_rho(sigma, sensitivity=(hi - lo) / n)
    return PrivacyClaim(
        message("claims.dpmean.mech_gaussian"),
        "replace-one",
        message("claims.dpmean.sens_gaussian", x=tex(f"{(hi - lo) / n:g}")),
        eps,
        d,
        conditions=(
            message(
                "claims.dpmean.cond_gaussian_sigma",
                sigma=tex(f"{sigma:.4g}"),
                rho=tex(f"{rho:.4g}"),
            ),
            message("claims.dpmean.n_public"),
        ),
    )


noisy_average_gaussian.privacy_claim = _claim_gaussian  # type: ignore[attr-defined]


# ------------------------------------------------------------------------------ CoinPress (private range)
def _tail(beta: float) -> float:
    """√(1 + 2√L + 2L), L = log(1/β): a χ²₁ tail factor (Laurent–Massart), so that |Z| ≤ factor·sd with
    probability ≥ 1 − β for Z ~ N(0, sd²)."""
    big_l = math.log(1.0 / beta)
    return math.sqrt(1.0 + 2.0 * math.sqrt(big_l) + 2.0 * big_l)


def _check_coinpress(
    n: int, scale: float, shares: Any, beta: float
) -> tuple[float, tuple[float, ...]]:
    if not (isinstance(scale, int | float | np.floating) and math.isfinite(scale) and scale > 0):
        raise ValueError(f"scale must be a finite number > 0, got {scale!r}")
    sh = tuple(float(v) for v in np.atleast_1d(np.asarray(shares, dtype=float)))
    if not sh or min(sh) <= 0 or not math.isclose(sum(sh), 1.0, rel_tol=1e-9):
        raise ValueError(f"shares must be positive and sum to 1, got {shares!r}")
    if not (isinstance(beta, int | float | np.floating) and 0 < beta < 1):
        raise ValueError(f"beta must be in (0, 1), got {beta!r}")
    return float(scale), sh


def coinpress_steps(
    n: int,
    rho: float,
    domain: Any,
    *,
    scale: float,
    shares: Any = COINPRESS_SHARES,
    beta: float = COINPRESS_BETA,
) -> list[dict[str, float]]:
    """The data-independent part of :func:`noisy_average_coinpress` for a run that starts at the centre of
    ``domain`` [A, B]: per step its ρₜ, margin γ = σ₀·√(1 + 2√L + 2L) (L = log(n/β)), and, for the radius r it
    starts from, the clipping half-width r + γ and the noise sd 2(r + γ)/(n√(2ρₜ)); the radius after a range
    step is r' = √(σ₀²/n + sd²)·√(1 + 2√L' + 2L'), L' = log(2/β) {cite}`dpmean_biswas2020coinpress`. (The
    radius never depends on the data, only the centre does.)"""
    n = check_int(n, "n", minimum=1)
    if not (isinstance(rho, int | float | np.floating) and math.isfinite(rho) and rho > 0):
        raise ValueError(f"rho must be a finite number > 0, got {rho!r}")
    lo, hi = check_bounds(domain, "domain")
    scale, sh = _check_coinpress(n, scale, shares, beta)
    gamma = scale * _tail(beta / n)
    r = (hi - lo) / 2.0
    steps = []
    for share in sh:
        rho_t = share * rho
        half = r + gamma
        sd = 2.0 * half / (n * math.sqrt(2.0 * rho_t))
        steps.append({"rho": rho_t, "radius": r, "gamma": gamma, "half_width": half, "sd": sd})
        r = math.sqrt(scale * scale / n + sd * sd) * _tail(beta / 2.0)
    return steps


def noisy_average_coinpress(
    x: ArrayLike,
    epsilon: float,
    delta: float,
    domain: Any,
    rng: np.random.Generator,
    size: int | tuple[int, ...] | None = None,
    *,
    scale: float,
    shares: Any = COINPRESS_SHARES,
    beta: float = COINPRESS_BETA,
) -> np.ndarray | float:
    """CoinPress in one dimension {cite}`dpmean_biswas2020coinpress`: an instance-adaptive mean with a private
    range.

    Start at c₀ = (A + B)/2, r₀ = (B − A)/2 (the wide public ``domain``). Step t clips every record to
    [cₜ − (rₜ + γ), cₜ + (rₜ + γ)], releases Zₜ = mean(clipped) + N(0, sdₜ²) with sdₜ = 2(rₜ + γ)/(n√(2ρₜ)), and
    sets cₜ₊₁ = Zₜ, rₜ₊₁ as in :func:`coinpress_steps`; the last step's Zₜ, clamped to [A, B] (post-processing), is
    the release. ρₜ = ``shares[t]``·ρ with ρ = :func:`rho_for_epsilon` (ε, δ).

    Privacy: under replace-one with public n ≥ 1, step t is a Gaussian mechanism on a mean of values clipped to an
    interval of width 2(rₜ + γ) chosen from earlier releases only (sensitivity 2(rₜ + γ)/n), hence ρₜ-zCDP; by
    adaptive composition the whole is ρ-zCDP, hence (ε, δ)-DP {cite}`bun2016concentrated`. ``scale`` (σ₀, a
    declared guess of the data's sd) and ``beta`` set the margins and radii: they affect the accuracy, never the
    guarantee, and must not be read from the data."""
    arr = np.asarray(x, dtype=float)
    eps, d = check_epsilon(epsilon), check_delta(delta)
    lo, hi = check_bounds(domain, "domain")
    if arr.ndim != 1 or not np.isfinite(arr).all():
        raise ValueError(f"x must be a finite 1-D array, got shape {arr.shape}")
    if arr.size == 0:
        raise ValueError("x must hold at least one record (n public, n >= 1)")
    rho = rho_for_epsilon(eps, d)
    steps = coinpress_steps(arr.size, rho, (lo, hi), scale=scale, shares=shares, beta=beta)
    shape = _shape(size)
    sorted_x = np.sort(arr)
    csum = np.concatenate([[0.0], np.cumsum(sorted_x)])
    c = np.full(shape, (lo + hi) / 2.0)
    for step in steps:
        half = step["half_width"]
        s = _clipped_sums(sorted_x, csum, c - half, c + half)
        c = s / arr.size + step["sd"] * rng.standard_normal(shape)
    return _out(np.clip(c, lo, hi))


def _claim_coinpress(
    epsilon: float,
    delta: float,
    domain: Any,
    *,
    shares: Any = COINPRESS_SHARES,
) -> PrivacyClaim:
    eps, d = check_epsilon(epsilon), check_delta(delta)
    if d <= 0:
        raise ValueError(f"delta must be > 0 for a zCDP mean, got {delta!r}")
    check_bounds(domain, "domain")
    _, sh = _check_coinpress(1, 1.0, shares, 0.5)
    rho = rho_for_epsilon(eps, d)
    rho_condition = message(
        "claims.dpmean.cond_coinpress_rho",
        rho=tex(f"{rho:.4g}"),
        k=str(len(sh)),
        shares=", ".join(f"{v:g}" for v in sh),
    )
    return _domain_claim(
        "coinpress",
        "sens_coinpress",
        eps,
        domain,
        "cond_starts_domain",
        message("claims.dpmean.n_public"),
        delta=d,
        before=(rho_condition,),
    )


noisy_average_coinpress.privacy_claim = _claim_coinpress  # type: ignore[attr-defined]


# ----------------------------------------------------------------------------- centred mean, optimised split
def optimal_count_share(bounds: Any, mean_offset: float) -> float:
    """The share c of ε on the count that minimizes the first-order MSE of :func:`noisy_average_centred`,
    2[(Δ/2)²/((1−c)ε)² + r₀²/(cε)²]/n²: c = r₀^{2/3}/((Δ/2)^{2/3} + r₀^{2/3}). ``mean_offset`` r₀ is a declared
    guess of |μ − m|, never read from the data."""
    lo, hi = check_bounds(bounds)
    if not (
        isinstance(mean_offset, int | float | np.floating) and 0 < mean_offset <= (hi - lo) / 2
    ):
        raise ValueError(f"mean_offset must be in (0, {(hi - lo) / 2:g}], got {mean_offset!r}")
    a, r = ((hi - lo) / 2) ** (2 / 3), float(mean_offset) ** (2 / 3)
    return r / (a + r)


def centred_first_order_rmse(
    mu: float, n: int, epsilon: float, bounds: Any, count_share: float
) -> float:
    """First-order RMSE of :func:`noisy_average_centred` (unclamped): √2·√((Δ/2)²/ε_s² + (μ − m)²/ε_c²)/n with
    ε_s = (1 − c)ε, ε_c = cε (the noisy-ratio expansion of :mod:`~dpcompendium.chapters.dp_mean.analysis`)."""
    lo, hi = check_bounds(bounds)
    eps = check_epsilon(epsilon)
    e_s, e_c = (1 - count_share) * eps, count_share * eps
    m = (lo + hi) / 2
    return math.sqrt(2.0 * (((hi - lo) / 2 / e_s) ** 2 + ((mu - m) / e_c) ** 2)) / n


def noisy_average_centred(
    x: ArrayLike,
    epsilon: float,
    bounds: Any,
    rng: np.random.Generator,
    size: int | tuple[int, ...] | None = None,
    *,
    count_share: float = 0.5,
    calibration: str = "add-remove",
    clamp: bool = True,
) -> np.ndarray | float:
    """Method 4 calibrated to its own sensitivity, for the relation ``calibration`` names; clamped to [a, b]
    (post-processing).

    ``"add-remove"``: (Σ(xᵢ − m) + Lap((Δ/2)/ε_s))/(n + Lap(1/ε_c)) + m, or m when the noisy count is ≤ 1;
    ε_s = (1 − c)ε, ε_c = cε, c = ``count_share``. ε-DP under add-remove (sensitivities Δ/2 and 1, basic
    composition). Under replace-one the same release is 2(1 − c)ε-DP: the count never changes (it costs nothing)
    and the centred sum moves by up to Δ, twice its add-remove sensitivity. c = ½ is method 4 corrected;
    :func:`optimal_count_share` gives c for a declared guess of |μ − m|.

    ``"replace-one"`` (n public): the count costs nothing and needs no noise, the centred sum has sensitivity Δ and
    takes all of ε: (Σ(xᵢ − m) + Lap(Δ/ε))/n + m, ε-DP under replace-one (``count_share`` is not used). Centring
    then changes nothing: this is method 3's release, in law."""
    arr, eps, lo, hi = _inputs(x, epsilon, bounds, rng)
    if not 0.0 < count_share < 1.0:
        raise ValueError(f"count_share must be in (0, 1), got {count_share!r}")
    if calibration not in ("add-remove", "replace-one"):
        raise ValueError(f"calibration must be one of add-remove|replace-one, got {calibration!r}")
    shape = _shape(size)
    mid = (lo + hi) / 2
    if calibration == "replace-one":
        if arr.size == 0:
            raise ValueError("x must hold at least one record (n public, n >= 1)")
        noisy_s = float(np.sum(arr - mid)) + rng.laplace(0.0, (hi - lo) / eps, size=shape)
        y = noisy_s / arr.size + mid
        return _out(np.clip(y, lo, hi) if clamp else y)
    e_s, e_c = (1 - count_share) * eps, count_share * eps
    noisy_s = float(np.sum(arr - mid)) + rng.laplace(0.0, (hi - lo) / 2 / e_s, size=shape)
    noisy_c = arr.size + rng.laplace(0.0, 1.0 / e_c, size=shape)
    safe = np.where(noisy_c <= 1.0, 1.0, noisy_c)
    y = np.where(noisy_c <= 1.0, mid, noisy_s / safe + mid)
    return _out(np.clip(y, lo, hi) if clamp else y)


def _claim_centred(
    epsilon: float,
    bounds: Any,
    count_share: float = 0.5,
    neighbours: str = "add-remove",
    calibration: str = "add-remove",
) -> PrivacyClaim:
    """The claim of :func:`noisy_average_centred` run with ``calibration``, stated under ``neighbours``."""
    eps = check_epsilon(epsilon)
    lo, hi = check_bounds(bounds)
    if neighbours not in ("add-remove", "replace-one"):
        raise ValueError(f"neighbours must be one of add-remove|replace-one, got {neighbours!r}")
    if calibration == "replace-one":
        if neighbours != "replace-one":
            raise ValueError(
                "neighbours must be replace-one for calibration='replace-one' (the count is not noised), "
                f"got {neighbours!r}"
            )
        return PrivacyClaim(
            message("claims.dpmean.mech_centred_replace_one"),
            "replace-one",
            message("claims.dpmean.sens_centred_public_n", d=tex(f"{hi - lo:g}")),
            eps,
            conditions=(
                message("claims.dpmean.cond_all_on_sum"),
                message("claims.dpmean.n_public"),
            ),
        )
    if calibration != "add-remove":
        raise ValueError(f"calibration must be one of add-remove|replace-one, got {calibration!r}")
    split = message(
        "claims.dpmean.cond_split", s=tex(f"{1 - count_share:.3g}"), c=tex(f"{count_share:.3g}")
    )
    if neighbours == "replace-one":
        return PrivacyClaim(
            message("claims.dpmean.mech_centred_add_remove"),
            "replace-one",
            message(
                "claims.dpmean.sens_centred_twice",
                d=tex(f"{hi - lo:g}"),
                s=tex(f"{1 - count_share:.3g}"),
            ),
            2 * (1 - count_share) * eps,
            conditions=(split, message("claims.dpmean.cond_run_at", eps=tex(f"{eps:g}"))),
        )
    return PrivacyClaim(
        message("claims.dpmean.mech_centred_own"),
        "add-remove",
        message("claims.dpmean.sens_centred_add_remove", x=tex(f"{(hi - lo) / 2:g}")),
        eps,
        conditions=(split,),
    )


noisy_average_centred.privacy_claim = _claim_centred  # type: ignore[attr-defined]


# ----------------------------------------------------------------------------------------------- lower bound
def minimax_lower_bound(
    n: int, epsilon: float, bounds: Any, neighbours: str = "replace-one"
) -> float:
    """max_{1≤k≤n} (kΔ/2n)/(1 + e^{kε'}), ε' = ε (replace-one) or 2ε (add-remove): a lower bound on
    max_D E|M(D) − μ(D)| (hence on the worst-case RMSE) of every ε-DP M on [a, b]^n.

    Two-point method: D₀ = (a,…,a), D₁ with k records moved to b are k replacements apart, so
    P_{D₁}(A) ≥ e^{−kε}P_{D₀}(A) (group privacy); with A = {M closer to μ(D₀)} one of the two errors is ≥ kΔ/2n
    with probability ≥ 1/(1 + e^{kε}). It is Θ(Δ/(nε)) for n ≥ 1/ε (k ≈ 1.28/ε gives ≈ 0.139Δ/(nε)). Add-remove
    ε-DP implies replace-one 2ε-DP, hence ε' = 2ε there {cite}`dpmean_kamath2020primer`."""
    n = check_int(n, "n", minimum=1)
    eps = check_epsilon(epsilon)
    lo, hi = check_bounds(bounds)
    if neighbours not in ("replace-one", "add-remove"):
        raise ValueError(f"neighbours must be one of replace-one|add-remove, got {neighbours!r}")
    e = eps * (2.0 if neighbours == "add-remove" else 1.0)
    k = np.arange(1, n + 1, dtype=float)
    with np.errstate(over="ignore"):
        vals = k * (hi - lo) / (2.0 * n) / (1.0 + np.exp(np.minimum(k * e, 700.0)))
    return float(vals.max())


# ------------------------------------------------------------------------------------ clipping-range trade-off
def clipping_tradeoff(
    x: ArrayLike, lower: float, uppers: ArrayLike, epsilon: float
) -> dict[str, np.ndarray]:
    """Bias, noise sd and RMSE of the Laplace mean of ``x`` clipped to [lower, u] for every u of ``uppers``:
    bias = mean(clip(x)) − mean(x), sd = √2·(u − lower)/(nε), rmse = √(bias² + sd²) (exact for the unclamped
    Laplace average with public n)."""
    arr = np.asarray(x, dtype=float)
    if arr.ndim != 1 or arr.size == 0 or not np.isfinite(arr).all():
        raise ValueError(f"x must be a non-empty finite 1-D array, got shape {arr.shape}")
    eps = check_epsilon(epsilon)
    u = np.asarray(uppers, dtype=float)
    if u.ndim != 1 or not (u > lower).all():
        raise ValueError(f"uppers must be a 1-D array of values > lower = {lower:g}")
    srt = np.sort(arr)
    csum = np.concatenate([[0.0], np.cumsum(srt)])
    lo = np.full_like(u, float(lower))
    bias = _clipped_sums(srt, csum, lo, u) / arr.size - arr.mean()
    sd = math.sqrt(2.0) * (u - lower) / (arr.size * eps)
    return {"upper": u, "bias": bias, "sd": sd, "rmse": np.sqrt(bias**2 + sd**2)}
