"""dpcompendium.core.accounting: each numerical accountant against a closed form, each closed form against its
definition, with the tolerance each comparison allows and why.

- PLD accountant (dp-accounting, pessimistic discretization with step h): for T composed Gaussian mechanisms the
  composition is one Gaussian with σ/√T, whose exact profile is Balle–Wang's; the accountant discretizes the loss
  once, rounding it up by at most h, so δ_exact(ε) ≤ δ_PLD(ε) ≤ δ_exact(ε − h) (+ its truncated tail mass, ≤ 1e-12
  here). The same for one Laplace mechanism against its exact profile 1 − e^{(ε − ε₀)/2}.
- RDP accountant: the Gaussian's RDP curve is ρα with zCDP's ρ = Δ²/(2σ²), so the accountant's ε equals the
  conversion of T·ρ·α on the same orders (to float rounding), and zCDP's continuous optimum over α is at most that
  and within 1 % of it (the order grid is 0.1 apart below α = 11).
- Monte-Carlo: δ(ε) = E[(1 − e^{ε − L})₊] of the sampled privacy loss, a mean of values in [0, 1], within 5 standard
  errors of the closed form.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from dpcompendium.core import accounting as acc
from dpcompendium.core.mechanisms.gaussian import gaussian_epsilon

H = 1e-4  # the PLD accountant's discretization step (its default)
TAIL = 1e-12
EPS_GRID = np.linspace(0.0, 6.0, 61)


@pytest.mark.parametrize(("sigma", "steps"), [(0.5, 1), (1.0, 1), (3.0, 10), (10.0, 100)])
def test_pld_gaussian_brackets_the_exact_profile(sigma, steps):
    pld = acc.pld_delta("gaussian", sigma, EPS_GRID, steps=steps)
    exact = acc.gaussian_profile(EPS_GRID, sigma / math.sqrt(steps))
    shifted = acc.gaussian_profile(np.maximum(EPS_GRID - H, 0.0), sigma / math.sqrt(steps))
    assert np.all(pld >= exact - TAIL), np.max(exact - pld)
    assert np.all(pld <= shifted + TAIL), np.max(pld - shifted)


@pytest.mark.parametrize(
    ("sigma", "steps", "delta"), [(1.0, 1, 1e-5), (2.0, 20, 1e-6), (5.0, 100, 1e-5)]
)
def test_pld_gaussian_epsilon_is_the_exact_epsilon(sigma, steps, delta):
    exact = gaussian_epsilon(sigma / math.sqrt(steps), 1.0, delta)
    got = acc.pld_epsilon("gaussian", sigma, delta, steps=steps)
    # ε_exact ≤ ε_PLD ≤ ε_exact + h (+ the root finder's tolerance)
    assert exact - 1e-9 <= got <= exact + H + 1e-6, (got, exact)


@pytest.mark.parametrize("scale", [0.5, 1.0, 4.0])
def test_pld_laplace_brackets_the_exact_profile(scale):
    pld = acc.pld_delta("laplace", scale, EPS_GRID)
    exact = acc.laplace_profile(EPS_GRID, scale)
    shifted = acc.laplace_profile(np.maximum(EPS_GRID - H, 0.0), scale)
    assert np.all(pld >= exact - TAIL)
    assert np.all(pld <= shifted + TAIL)


def test_pld_subsampled_laplace_reaches_the_amplified_epsilon():
    """Poisson-subsampled ε₀-DP Laplace is ln(1 + q(e^ε₀ − 1))-DP, and the bound is attained (the worst loss has
    positive probability), so the PLD's ε at a negligible δ is that closed form, up to h."""
    q, scale = 0.1, 0.5
    amplified = acc.subsampled_epsilon(1.0 / scale, q)
    got = acc.pld_epsilon("laplace", scale, 1e-10, sampling_probability=q)
    assert abs(got - amplified) <= 2 * H + 1e-6, (got, amplified)


@pytest.mark.parametrize(("sigma", "steps"), [(1.0, 1), (5.0, 100), (2.0, 30)])
def test_rdp_accountant_is_zcdp_of_the_gaussian(sigma, steps):
    delta = 1e-5
    rho = acc.compose_rho([acc.gaussian_rho(sigma)] * steps)
    orders = np.array(acc.DEFAULT_ORDERS)
    assert np.allclose(acc.gaussian_rdp(orders, sigma) * steps, rho * orders, rtol=1e-12)
    via_curve = acc.rdp_epsilon_from_curve(orders, rho * orders, delta)
    got = acc.rdp_epsilon("gaussian", sigma, delta, steps=steps)
    assert got == pytest.approx(via_curve, rel=1e-9)
    z = acc.zcdp_epsilon(rho, delta)
    assert z <= via_curve + 1e-9
    assert via_curve - z <= 0.01 * via_curve
    # zCDP's optimum is never worse than Bun–Steinke's closed form, and the PLD (exact) is below both
    assert z <= acc.zcdp_epsilon(rho, delta, method="bun-steinke") + 1e-12
    assert acc.pld_epsilon("gaussian", sigma, delta, steps=steps) <= z + H


def test_laplace_rdp_agrees_with_dp_accounting_and_its_limits():
    from dp_accounting.rdp.rdp_privacy_accountant import _laplace_rdp

    alphas = np.array([1.5, 2.0, 10.0, 100.0])
    for scale in (0.5, 1.0, 4.0):
        mine = acc.laplace_rdp(alphas, scale)
        ref = [_laplace_rdp(1.0 / scale, a) for a in alphas]
        assert np.allclose(mine, ref, rtol=1e-10)
        e0 = 1.0 / scale
        assert np.all(mine <= e0 + 1e-12)  # RDP of an ε₀-DP mechanism is at most ε₀
        assert np.all(mine <= alphas * e0**2 / 2 + 1e-12)  # and at most α ε₀²/2 (zCDP of pure DP)
    assert acc.laplace_rdp(1e6, 1.0) == pytest.approx(1.0, abs=1e-5)


def test_rdp_laplace_composition_adds_the_curves():
    delta, steps, scale = 1e-5, 40, 8.0
    orders = np.array(acc.DEFAULT_ORDERS)
    via_curve = acc.rdp_epsilon_from_curve(orders, steps * acc.laplace_rdp(orders, scale), delta)
    assert acc.rdp_epsilon("laplace", scale, delta, steps=steps) == pytest.approx(
        via_curve, rel=1e-9
    )


@pytest.mark.parametrize("noise", ["gaussian", "laplace"])
def test_monte_carlo_privacy_loss_matches_the_profile(noise):
    rng = np.random.default_rng(20261126)
    scale, n = 1.0, 200_000
    y = rng.normal(0, scale, n) if noise == "gaussian" else rng.laplace(0, scale, n)
    loss = acc.privacy_loss(y, noise, scale)
    profile = acc.gaussian_profile if noise == "gaussian" else acc.laplace_profile
    for eps in (0.0, 0.3, 0.8):
        values = np.maximum(1.0 - np.exp(eps - loss), 0.0)
        se = values.std(ddof=1) / math.sqrt(n)
        assert abs(values.mean() - profile(eps, scale)) <= 5 * se + 1e-12, eps
    if noise == "gaussian":  # L ~ N(μ, 2μ), μ = Δ²/(2σ²)
        mu = acc.gaussian_rho(scale)
        assert stats.kstest(loss, stats.norm(mu, math.sqrt(2 * mu)).cdf).pvalue > 1e-4


def test_gaussian_profile_is_balle_wang():
    from dpcompendium.core.mechanisms.gaussian import analytic_gaussian_sigma

    sigma = analytic_gaussian_sigma(1.0, 1.0, 1e-5)
    assert acc.gaussian_profile(1.0, sigma) == pytest.approx(1e-5, rel=1e-6)
    assert np.all(np.diff(acc.gaussian_profile(EPS_GRID, 1.0)) <= 0)


def test_laplace_profile_closed_form():
    assert acc.laplace_profile(0.0, 1.0) == pytest.approx(1 - math.exp(-0.5))
    assert acc.laplace_profile(1.0, 1.0) == 0.0
    assert acc.laplace_profile([2.0, 5.0], 0.5, sensitivity=1.0) == pytest.approx([0.0, 0.0])


def test_zcdp_constants_and_composition():
    assert acc.gaussian_rho(2.0, sensitivity=3.0) == pytest.approx(9 / 8)
    assert acc.pure_dp_rho(0.5) == pytest.approx(0.125)
    assert acc.exponential_rho(0.5) == pytest.approx(0.03125)
    assert acc.compose_rho([0.1, 0.2, 0.3]) == pytest.approx(0.6)
    rho, delta = 0.5, 1e-6
    assert acc.zcdp_epsilon(rho, delta, method="bun-steinke") == pytest.approx(
        rho + 2 * math.sqrt(rho * math.log(1 / delta))
    )


def test_basic_advanced_group_and_amplification_closed_forms():
    assert acc.basic_composition([0.1] * 10, [1e-6] * 10) == pytest.approx((1.0, 1e-5))
    e, d = acc.advanced_composition(0.1, 0.0, 100, 1e-6)
    assert e == pytest.approx(0.1 * math.sqrt(200 * math.log(1e6)) + 10 * math.expm1(0.1))
    assert d == pytest.approx(1e-6)
    assert e < 100 * 0.1  # sqrt(k) beats k here
    assert acc.group_privacy(0.5, 1e-6, 3) == pytest.approx((1.5, 3 * math.exp(1.0) * 1e-6))
    assert acc.subsampled_epsilon(1.0, 1.0) == pytest.approx(1.0)
    assert acc.subsampled_epsilon(1.0, 0.01) == pytest.approx(math.log1p(0.01 * math.expm1(1.0)))


def test_shuffle_bound_and_its_condition():
    e0, n, delta = 1.0, 10_000, 1e-6
    assert acc.shuffle_applies(e0, n, delta)
    x = math.e
    expected = math.log1p(
        (x - 1) / (x + 1) * (8 * math.sqrt(x * math.log(4 / delta)) / math.sqrt(n) + 8 * x / n)
    )
    assert acc.shuffle_epsilon(e0, n, delta) == pytest.approx(expected)
    assert acc.shuffle_epsilon(e0, 10 * n, delta) < acc.shuffle_epsilon(e0, n, delta)
    # outside the condition ε₀ ≤ ln(n / (16 ln(2/δ))) nothing is claimed beyond ε₀
    assert not acc.shuffle_applies(8.0, 1000, delta)
    assert acc.shuffle_epsilon(8.0, 1000, delta) == 8.0


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (lambda: acc.pld_epsilon("cauchy", 1.0, 1e-5), "noise"),
        (lambda: acc.pld_epsilon("gaussian", -1.0, 1e-5), "scale"),
        (lambda: acc.pld_epsilon("gaussian", 1.0, 1.5), "delta"),
        (lambda: acc.pld_epsilon("gaussian", 1.0, 1e-5, steps=0), "steps"),
        (
            lambda: acc.pld_epsilon("gaussian", 1.0, 1e-5, sampling_probability=0.0),
            "sampling_probability",
        ),
        (lambda: acc.rdp_epsilon("laplace", 1.0, 1e-5, sampling_probability=0.5), "noise"),
        (lambda: acc.gaussian_profile(-1.0, 1.0), "epsilon"),
        (lambda: acc.gaussian_rdp(1.0, 1.0), "alpha"),
        (lambda: acc.zcdp_epsilon(0.5, 1e-5, method="x"), "method"),
        (lambda: acc.shuffle_epsilon(1.0, 0, 1e-6), "n"),
        (lambda: acc.advanced_composition(0.1, 0.0, 10, 0.0), "delta_prime"),
        (lambda: acc.rdp_epsilon_from_curve([2.0, 3.0], [0.1], 1e-5), "rdp"),
    ],
)
def test_bad_input_names_the_argument(call, match):
    with pytest.raises(ValueError, match=match):
        call()


@pytest.mark.parametrize(("epsilon0", "k"), [(1.0, 1), (0.5, 10), (0.1, 100), (2.0, 30)])
def test_optimal_pure_composition_is_the_pld_of_randomized_response(epsilon0, k):
    """Kairouz–Oh–Viswanath's closed form against dp-accounting's PLD of k binary randomized responses (the worst
    case), which rounds each of its k discretized losses up by at most h: ε_exact ≤ ε_PLD ≤ ε_exact + k h.
    (dp-accounting 0.6.0 composes a SelfComposedDpEvent of RandomizedResponseDpEvent once, whatever its count, so
    the k responses are listed one by one.)"""
    import dp_accounting
    from dp_accounting.pld.pld_privacy_accountant import PLDAccountant

    delta = 1e-5
    rr = dp_accounting.RandomizedResponseDpEvent(2 / (1 + math.exp(epsilon0)), 2)
    pld = PLDAccountant(
        dp_accounting.NeighboringRelation.REPLACE_ONE, value_discretization_interval=H
    )
    pld.compose(dp_accounting.ComposedDpEvent([rr] * k))
    exact = acc.pure_composition_epsilon(epsilon0, k, delta)
    assert exact - 1e-9 <= pld.get_epsilon(delta) <= exact + k * H + 1e-9
    # the optimal composition is below basic and advanced composition, and above any particular ε₀-DP mechanism
    assert exact <= k * epsilon0 + 1e-9
    assert exact <= acc.advanced_composition(epsilon0, 0.0, k, delta)[0]
    assert acc.pld_epsilon("laplace", 1 / epsilon0, delta, steps=k) <= exact + k * H


def test_pure_composition_of_one_mechanism_is_randomized_response():
    eps = np.array([0.0, 0.5, 1.0, 2.0])
    rr = np.maximum(math.e - np.exp(eps), 0) / (1 + math.e)
    assert np.allclose(acc.pure_composition_delta(eps, 1.0, 1), rr, atol=1e-15)
