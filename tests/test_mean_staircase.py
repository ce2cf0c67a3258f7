"""Tests of dpcompendium.chapters.dp_mean.staircase against the staircase mechanism's definition
(Geng & Viswanath): its density is ε-DP for a shift up to Δ, the sampler inverts its tail exactly, the closed-form
moments match draws, the optimal γ minimizes them, and the chapter's paired comparison with Laplace."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import optimize

from dpcompendium.chapters import dp_mean as M

B = M.HEIGHT_BOUNDS
DELTA = B[1] - B[0]


def density(x: np.ndarray, eps: float, sens: float, gamma: float) -> np.ndarray:
    """The staircase density of the paper, written from its definition (not from the module)."""
    b = math.exp(-eps)
    a = (1 - b) / (2 * sens * (gamma + b * (1 - gamma)))
    z = np.abs(np.asarray(x, dtype=float)) / sens
    k = np.floor(z)
    return a * b**k * np.where(z - k < gamma, 1.0, b)


def tail(x: np.ndarray, eps: float, sens: float, gamma: float) -> np.ndarray:
    """P(|X| >= x), integrated from the density step by step."""
    b = math.exp(-eps)
    p0 = gamma / (gamma + b * (1 - gamma))
    z = np.asarray(x, dtype=float) / sens
    k = np.floor(z)
    o = z - k
    with np.errstate(divide="ignore", invalid="ignore"):  # gamma at 0 or 1: one step only
        c = np.where(o < gamma, p0 * o / gamma, p0 + (1 - p0) * (o - gamma) / (1 - gamma))
    return b**k * (1 - (1 - b) * c)


def piecewise_integral(lo: float, hi: float, eps: float, gamma: float) -> float:
    """The integral of the (unit-sensitivity) density over [lo, hi]: value at each step's midpoint × width."""
    ends = [
        k + o for k in range(math.floor(lo) - 1, math.ceil(hi) + 1) for o in (0.0, gamma, -gamma)
    ]
    cuts = np.unique(np.clip(np.array([*ends, lo, hi]), lo, hi))
    mids = (cuts[1:] + cuts[:-1]) / 2
    return float(np.sum(density(mids, eps, 1.0, gamma) * np.diff(cuts)))


@pytest.mark.parametrize("eps", [0.05, 1.0, 5.0])
@pytest.mark.parametrize("gamma", [0.1, 0.5, 0.9])
def test_density_is_eps_dp_for_shifts_up_to_the_sensitivity_and_integrates_to_one(eps, gamma):
    x = np.linspace(-6, 6, 2401)
    for d in (0.25, 0.5, 1.0):  # shifts of at most the sensitivity (1)
        ratio = density(x, eps, 1.0, gamma) / density(x + d, eps, 1.0, gamma)
        assert ratio.max() <= math.exp(eps) * (1 + 1e-12)
    # a shift beyond the sensitivity breaks it (the test can fail)
    far = density(x, eps, 1.0, gamma) / density(x + 2.0, eps, 1.0, gamma)
    assert far.max() > math.exp(eps) * 1.01
    # the density is a step function: integrate it exactly, step by step
    assert piecewise_integral(-80, 80, eps, gamma) == pytest.approx(
        1.0 - math.exp(-80 * eps), abs=1e-9
    )
    # the tail used below is the density's
    for x0 in (0.3, 1.7, 2.05):
        assert tail(np.array(x0), eps, 1.0, gamma) == pytest.approx(
            2 * piecewise_integral(x0, 80, eps, gamma) + math.exp(-80 * eps), rel=1e-9
        )


@pytest.mark.parametrize("eps", [0.01, 0.3, 2.0, 20.0])
@pytest.mark.parametrize("gamma", [0.0, 0.2, 0.7, 1.0])
def test_the_sampler_inverts_the_tail(eps, gamma):
    t = np.concatenate([np.geomspace(1e-12, 1, 400), np.linspace(0.001, 1, 400)])
    x = M.staircase_from_tail(np.ones_like(t), t, eps, 3.0, gamma)
    assert np.all(x >= 0)
    back = tail(x, eps, 3.0, gamma)
    assert np.allclose(back, t, rtol=1e-7, atol=1e-12)
    # monotone: a smaller tail probability gives a larger draw
    order = np.argsort(t)
    assert np.all(np.diff(x[order[::-1]]) >= -1e-9)


@pytest.mark.parametrize("eps", [0.05, 0.5, 1.0, 2.0, 5.0])
def test_optimal_gamma_minimizes_the_closed_form_cost(eps):
    for cost, f in (("l2", M.staircase_mse), ("l1", M.staircase_mae)):
        best = optimize.minimize_scalar(
            lambda g, f=f: f(eps, 1.0, g), bounds=(0, 1), method="bounded", options={"xatol": 1e-10}
        )
        assert M.staircase_gamma(eps, cost) == pytest.approx(best.x, abs=1e-6)
    # the paper's unfactored form of the l2 optimum
    b = math.exp(-eps)
    paper = -b / (1 - b) + (b - 2 * b**2 + 2 * b**4 - b**5) ** (1 / 3) / (
        2 ** (1 / 3) * (1 - b) ** 2
    )
    assert M.staircase_gamma(eps) == pytest.approx(paper, rel=1e-7)


def test_the_staircase_beats_laplace_in_closed_form_and_tends_to_it():
    ratios = [M.staircase_mse(e) / (2 / e**2) for e in (0.01, 0.1, 1.0, 5.0, 20.0)]
    assert all(r < 1 for r in ratios)
    assert np.all(np.diff(ratios) < 0)
    assert ratios[0] == pytest.approx(1.0, abs=1e-4)
    assert M.staircase_mae(1.0) < 1.0  # Laplace's E|X| is 1/eps


@pytest.mark.parametrize("eps", [0.1, 1.0, 4.0])
def test_draws_match_the_closed_form_moments(eps):
    rng = np.random.default_rng(7)
    n = 400_000
    x = M.staircase_noise(eps, 2.0, rng, size=n)
    sq = x * x
    mse = M.staircase_mse(eps, 2.0)
    assert abs(sq.mean() - mse) < 5 * sq.std() / math.sqrt(n)
    assert abs(x.mean()) < 5 * math.sqrt(mse / n)
    g1 = M.staircase_gamma(eps, "l1")
    y = np.abs(M.staircase_noise(eps, 2.0, rng, size=n, gamma=g1))
    assert abs(y.mean() - M.staircase_mae(eps, 2.0)) < 5 * y.std() / math.sqrt(n)


def test_noisy_average_and_claim():
    rng = np.random.default_rng(3)
    x = rng.uniform(*B, size=40)
    y = M.noisy_average_staircase(x, 0.05, B, rng, size=5000)
    assert y.min() >= B[0] and y.max() <= B[1]
    raw = M.noisy_average_staircase(x, 0.05, B, rng, size=5000, clamp=False)
    assert raw.min() < B[0] or raw.max() > B[1]
    same = [M.noisy_average_staircase(x, 1.0, B, np.random.default_rng(5), size=3) for _ in "ab"]
    assert np.array_equal(*same)
    claim = M.noisy_average_staircase.privacy_claim(1.0, B, 40)
    assert claim.neighbours == "replace-one" and claim.delta == 0 and claim.private
    assert f"{DELTA / 40:g}" in str(claim.sensitivity)
    assert f"{M.staircase_gamma(1.0):.4g}" in str(claim.conditions[0])


@pytest.mark.parametrize(
    "call, word",
    [
        (lambda: M.staircase_gamma(1.0, "l3"), "cost"),
        (lambda: M.staircase_gamma(0.0), "epsilon"),
        (lambda: M.staircase_mse(1.0, 1.0, 1.5), "gamma"),
        (lambda: M.staircase_noise(1.0, -1.0, np.random.default_rng(0)), "sensitivity"),
        (lambda: M.staircase_noise(1.0, 1.0, 3), "rng"),
        (lambda: M.staircase_from_tail([1.0], [0.0], 1.0, 1.0, 0.5), "tail"),
        (lambda: M.noisy_average_staircase([], 1.0, B, np.random.default_rng(0)), "x"),
        (lambda: M.staircase_errors({}, [1.0], 0, 1), "reps"),
    ],
)
def test_bad_input_is_one_line_naming_the_argument(call, word):
    with pytest.raises(ValueError, match=word) as err:
        call()
    assert "\n" not in str(err.value)


def test_paired_errors_are_reproducible_and_each_arm_has_its_mse():
    rng = np.random.default_rng(11)
    n = 10_000
    data = {("heights", n): (np.clip(rng.normal(170, 10, n), *B), B)}
    runs = M.staircase_errors(data, [1.0, 3.0], 4000, seed=5)
    again = M.staircase_errors(data, [1.0, 3.0], 4000, seed=5)
    assert runs.equals(again)
    assert len(runs) == 8000
    for e, g in runs.groupby("epsilon"):
        # no clamping at n eps >= 10^4: the arms are the plain noises over n
        for col, mse in (
            ("se_laplace", 2 * (DELTA / e) ** 2),
            ("se_staircase", M.staircase_mse(e, DELTA)),
        ):
            v = g[col].to_numpy() * n * n
            assert abs(v.mean() - mse) < 5 * v.std() / math.sqrt(v.size)
        # the same random numbers: the arms' errors are strongly correlated
        assert np.corrcoef(g["se_laplace"], g["se_staircase"])[0, 1] > 0.9
