"""Unit and property tests of dpcompendium.chapters.dp_mean."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import integrate, stats

from dpcompendium import PrivacyClaim
from dpcompendium.book.chapter import save_table
from dpcompendium.chapters import dp_mean as M

B = M.HEIGHT_BOUNDS  # (140, 200)
A, Bh = B
ESTIMATORS = [
    M.noisy_average_composition,
    M.noisy_average_resampling,
    M.noisy_average_clamped,
    M.noisy_average_normalized,
]
X = np.array([150.0, 160.0, 170.0, 180.0, 190.0])


# ------------------------------------------------------------------------------------------ estimators: shapes
@pytest.mark.parametrize("func", ESTIMATORS)
def test_scalar_and_vector_outputs(func, rng):
    y = func(X, 1.0, B, rng)
    assert isinstance(y, float)
    v = func(X, 1.0, B, rng, size=7)
    assert isinstance(v, np.ndarray) and v.shape == (7,)
    w = func(X, 1.0, B, rng, size=(3, 4))
    assert w.shape == (3, 4)
    assert np.all(np.isfinite(w))


@pytest.mark.parametrize("func", ESTIMATORS)
def test_same_seed_same_output_and_seed_matters(func):
    a = func(X, 0.5, B, np.random.default_rng(3), size=50)
    b = func(X, 0.5, B, np.random.default_rng(3), size=50)
    c = func(X, 0.5, B, np.random.default_rng(4), size=50)
    np.testing.assert_array_equal(a, b)
    assert not np.array_equal(a, c)


@pytest.mark.parametrize("func", [M.noisy_average_resampling, M.noisy_average_clamped])
def test_range_restricted_methods_stay_in_bounds(func, rng):
    y = func(X, 0.05, B, rng, size=5000)
    assert y.min() >= A and y.max() <= Bh


def test_clamped_without_clamp_leaves_the_range(rng):
    y = M.noisy_average_clamped(X, 0.05, B, rng, size=5000, clamp=False)
    assert y.min() < A and y.max() > Bh


def test_normalized_clamp_option(rng):
    y = M.noisy_average_normalized(X, 0.05, B, rng, size=5000, variant="corrected", clamp=True)
    assert y.min() >= A and y.max() <= Bh


def test_composition_fallback_is_midpoint_when_count_small(rng):
    y = M.noisy_average_composition([], 1.0, B, rng, size=2000)
    # the noisy count of an empty set is <= 1 with probability 1 - e^{-1/2}/2 ~ 0.7
    assert np.mean(y == (A + Bh) / 2) > 0.5


def test_empty_branches(rng):
    y = M.noisy_average_clamped([], 1.0, B, rng, size=4000)
    assert np.any(y == A) and np.any(y == Bh) and np.any((y > A) & (y < Bh))
    z = M.noisy_average_resampling([], 1.0, B, rng, size=4000)
    assert z.min() >= A and z.max() <= Bh and np.all((z > A) & (z < Bh))


def test_empty_branch_probabilities_sum_to_one():
    for eps in (0.01, 1.0, 10.0):
        p = M.empty_branch_probabilities(eps)
        assert math.isclose(sum(p), 1.0)
        assert p[0] == p[2] == 0.5 * math.exp(-eps / 2)


def test_resampling_refuses_hopeless_acceptance(rng):
    with pytest.raises(ValueError, match="acceptance probability"):
        M.noisy_average_resampling([A], 1e-9, B, rng)


# --------------------------------------------------------------------------------------------- privacy claims
def test_composition_epsilon_formula():
    # add-remove, as written: eps/2 * max(|a|,|b|)/(b-a) + eps/2
    assert math.isclose(M.composition_epsilon(1.0, B), 0.5 * 200 / 60 + 0.5)
    assert math.isclose(M.composition_epsilon(1.0, B, "corrected"), 1.0)
    assert math.isclose(M.composition_epsilon(1.0, B, neighbours="replace-one"), 0.5)
    # 0 inside the bounds: the as-written calibration is already enough under add-remove
    assert M.composition_epsilon(1.0, (-1.0, 3.0)) <= 1.0


@pytest.mark.parametrize(
    ("method", "variant", "neighbours", "private"),
    [
        ("composition", "as-written", "add-remove", False),
        ("composition", "corrected", "add-remove", True),
        ("composition", "as-written", "replace-one", True),
        ("resampling", "as-written", "replace-one", False),
        ("resampling", "corrected", "replace-one", True),
        ("resampling", "corrected", "add-remove", False),
        ("clamped", "as-written", "replace-one", True),
        ("clamped", "as-written", "add-remove", False),
        ("normalized", "as-written", "add-remove", True),
        ("normalized", "corrected", "add-remove", True),
    ],
)
def test_privacy_claims(method, variant, neighbours, private):
    claim = M.privacy_claim(method, 1.0, B, variant, neighbours)
    assert isinstance(claim, PrivacyClaim)
    assert claim.private is private and claim.neighbours == neighbours and claim.epsilon == 1.0
    assert bool(claim.why) is (not private) or "over-noised" in claim.why


def test_privacy_claim_defaults_and_attributes():
    assert M.privacy_claim("clamped", 1.0, B).neighbours == "replace-one"
    assert M.privacy_claim("normalized", 1.0, B).neighbours == "add-remove"
    assert M.noisy_average_resampling.privacy_claim(1.0, B).private is False
    for bad in ({"method": "median"}, {"variant": "faithful"}, {"neighbours": "local"}):
        kw = {"method": "composition", "variant": "as-written", "neighbours": "add-remove", **bad}
        with pytest.raises(ValueError, match=next(iter(bad))):
            M.privacy_claim(kw["method"], 1.0, B, kw["variant"], kw["neighbours"])
    with pytest.raises(ValueError, match="variant"):
        M.privacy_claim("clamped", 1.0, B, "corrected")


# --------------------------------------------------------------------------------------- closed forms (exact)
def _laplace_pdf(t, scale):
    return stats.laplace.pdf(t, scale=scale)


@pytest.mark.parametrize(
    ("mu", "scale"), [(170.0, 5.0), (141.0, 30.0), (199.0, 200.0), (140.0, 1.0)]
)
def test_clamped_error_matches_numerical_integration(mu, scale):
    lo, hi = B
    pts = [lo - mu, hi - mu]
    mse_in = integrate.quad(lambda t: t * t * _laplace_pdf(t, scale), *pts)[0]
    mae_in = integrate.quad(lambda t: abs(t) * _laplace_pdf(t, scale), *pts, points=[0.0])[0]
    p_lo, p_hi = stats.laplace.cdf(lo - mu, scale=scale), stats.laplace.sf(hi - mu, scale=scale)
    mse = mse_in + p_lo * (mu - lo) ** 2 + p_hi * (hi - mu) ** 2
    mae = mae_in + p_lo * (mu - lo) + p_hi * (hi - mu)
    got = M.clamped_laplace_error(mu, scale, B)
    assert got == pytest.approx((mae, mse), rel=1e-7, abs=1e-12)


@pytest.mark.parametrize(
    ("mu", "scale"), [(170.0, 5.0), (141.0, 30.0), (199.0, 200.0), (140.0, 1.0)]
)
def test_truncated_error_matches_numerical_integration(mu, scale):
    lo, hi = B
    z = integrate.quad(lambda t: _laplace_pdf(t, scale), lo - mu, hi - mu, points=[0.0])[0]
    mse = (
        integrate.quad(lambda t: t * t * _laplace_pdf(t, scale), lo - mu, hi - mu, points=[0.0])[0]
        / z
    )
    mae = (
        integrate.quad(lambda t: abs(t) * _laplace_pdf(t, scale), lo - mu, hi - mu, points=[0.0])[0]
        / z
    )
    assert M.truncated_laplace_error(mu, scale, B) == pytest.approx((mae, mse), rel=1e-7)


def test_laplace_error_and_limits():
    mae, mse = M.laplace_error(100, 0.5, B)
    assert mae == pytest.approx(60 / 50) and mse == pytest.approx(2 * (60 / 50) ** 2)
    # far from the bounds, clamping and truncation change nothing
    assert M.clamped_laplace_error(170.0, 0.01, B) == pytest.approx((0.01, 2e-4))
    assert M.truncated_laplace_error(170.0, 0.01, B) == pytest.approx((0.01, 2e-4))
    # without count noise, the first-order ratio error is the Laplace error of the sum over n
    assert M.ratio_first_order_error(0.0, 10, 3.0, 1.0) == pytest.approx((0.3, 2 * 0.09))


def test_sum_of_two_laplaces_mean_absolute_value():
    b1, b2 = 2.0, 0.5  # density of L1 + L2: (b1 e^{-|z|/b1} - b2 e^{-|z|/b2}) / (2 (b1^2 - b2^2))
    dens = lambda z: (b1 * np.exp(-abs(z) / b1) - b2 * np.exp(-abs(z) / b2)) / (2 * (b1**2 - b2**2))  # noqa: E731
    mae = 2 * integrate.quad(lambda z: z * dens(z), 0, np.inf)[0]
    # ratio_first_order_error(mu_offset, n=1, sum_scale=b1, eps): b2 = |mu_offset| * 2 / eps
    assert M.ratio_first_order_error(0.5, 1, b1, 2.0)[0] == pytest.approx(mae, rel=1e-8)


def test_closed_form_error_dispatch():
    for method, variant in M.SWEEP_METHODS:
        _, mse, kind = M.closed_form_error(method, variant, 170.0, 100, 1.0, B)
        assert kind in {"exact", "first-order", "none"}
        assert (kind == "none") == math.isnan(mse)
    with pytest.raises(ValueError, match="method"):
        M.closed_form_error("median", "as-written", 170.0, 100, 1.0, B)


# ------------------------------------------------------------------------------------- exact probabilities
def test_resampling_acceptance_formula():
    s, n, eps = 1500.0, 10, 0.7
    beta = 60 / eps
    direct = stats.laplace.cdf(n * Bh - s, scale=beta) - stats.laplace.cdf(n * A - s, scale=beta)
    assert M.resampling_acceptance(s, n, eps, B) == pytest.approx(direct, rel=1e-12)
    more_noise = M.resampling_acceptance(s, n, eps, B, "corrected")
    assert more_noise < M.resampling_acceptance(s, n, eps, B)


@pytest.mark.parametrize("x", [[], [A], [A, A, Bh], list(X)])
@pytest.mark.parametrize("eps", [0.1, 2.0])
def test_event_probabilities_partition(x, eps):
    mid = (A + Bh) / 2
    for method in ("clamped", "resampling"):
        total = M.event_probability(method, x, eps, B, (A, Bh))
        parts = (
            M.event_probability(method, x, eps, B, (A, mid))
            + M.event_probability(method, x, eps, B, (mid, Bh), closed=False)
            + M.event_probability(method, x, eps, B, (Bh, Bh))
        )
        assert total == pytest.approx(1.0) and parts == pytest.approx(1.0)
        assert M.event_probability(method, x, eps, B, (0.0, 100.0)) == 0.0


def test_clamped_add_remove_violation_formula():
    # D = {a}, D' = {a, a}: P(a < y < b) = (1 - e^{-eps})/2 and (1 - e^{-2 eps})/2, ratio 1 + e^{-eps}
    for eps in (0.1, 0.3, 1.0):
        p = M.event_probability("clamped", [A], eps, B, B, closed=False)
        q = M.event_probability("clamped", [A, A], eps, B, B, closed=False)
        assert p == pytest.approx(0.5 * (1 - math.exp(-eps)))
        assert q / p == pytest.approx(1 + math.exp(-eps))
        assert (q / p > math.exp(eps)) is (eps < math.log((1 + math.sqrt(5)) / 2))


def test_empty_branch_is_eps_dp_against_singletons():
    # the three-point answer for n = 0 vs any one-record dataset: every event within e^eps (checked on a grid)
    eps = 0.8
    events = [(A, A), (Bh, Bh), (A, A + 1), (170, 171), (Bh - 1, Bh), (150, 190)]
    for xv in (A, 155.0, 170.0, Bh):
        for ev in events:
            p = M.event_probability("clamped", [], eps, B, ev)
            q = M.event_probability("clamped", [xv], eps, B, ev)
            assert max(p / q, q / p) <= math.exp(eps) * (1 + 1e-12)


def test_resampling_pair_loss():
    for eps in (0.05, 0.5, 1.0, 5.0):
        assert M.resampling_pair_loss(1, eps, B) == pytest.approx(eps)
        for n in (2, 10, 1000):
            assert M.resampling_pair_loss(n, eps, B) > eps
            assert M.resampling_pair_loss(n, eps, B, "corrected") <= eps
    # the loss is the log density ratio at y = a: compare with probabilities of a tiny event
    n, eps, h = 10, 1.0, 1e-6
    d, d2 = [A] * n, [A] * (n - 1) + [Bh]
    ratio = M.event_probability("resampling", d, eps, B, (A, A + h)) / M.event_probability(
        "resampling", d2, eps, B, (A, A + h)
    )
    assert math.log(ratio) == pytest.approx(M.resampling_pair_loss(n, eps, B), abs=1e-5)


def test_resampling_evidence_table(rng):
    ev = M.resampling_evidence(10, 1.0, B, 0.6, 1000, rng)
    assert list(ev["variant"]) == ["as-written", "as-written", "corrected", "corrected"]
    assert set(ev.columns) >= {"exact", "simulated", "se", "ratio", "e_eps"}
    with pytest.raises(ValueError, match="width"):
        M.resampling_evidence(10, 1.0, B, 0.0, 1000, rng)


# ------------------------------------------------------------------------------------------------ data
def test_heights(rng):
    h = M.heights(1000, rng)
    assert h.shape == (1000,) and h.min() >= A and h.max() <= Bh
    assert abs(h.mean() - 170) < 5 * 10 / math.sqrt(1000)
    assert M.heights(0, rng).shape == (0,)


def test_dataset_loader(rng):
    x, bounds = M.dataset("adult-age", 500, rng)
    assert x.shape == (500,) and bounds == M.AGE_BOUNDS
    assert x.min() >= bounds[0] and x.max() <= bounds[1]
    ages = M.adult_ages()
    assert ages.size == 32561 and ages.min() == 17 and ages.max() == 90
    with pytest.raises(ValueError, match="name"):
        M.dataset("weights", 10, rng)
    with pytest.raises(ValueError, match="n must be <="):
        M.dataset("adult-age", 10**6, rng)


# ------------------------------------------------------------------------------------------ experiments
def test_error_sweep_is_deterministic_whatever_n_jobs(tmp_path):
    data = M.build_data(["heights"], [50], seed=5)
    methods = [("clamped", "as-written"), ("resampling", "as-written"), ("normalized", "corrected")]
    one = M.error_sweep(data, [0.1, 1.0], 40, seed=9, methods=methods, n_jobs=1)
    two = M.error_sweep(data, [0.1, 1.0], 40, seed=9, methods=methods, n_jobs=2)
    p1, p2 = save_table(one, "a", tmp_path), save_table(two, "b", tmp_path)
    assert p1.read_bytes() == p2.read_bytes()
    assert list(one.columns) == [
        "dataset",
        "method",
        "variant",
        "n",
        "epsilon",
        "reps",
        "mae",
        "rmse",
        "mse",
        "mse_se",
    ]
    assert len(one) == 6 and (one["reps"] == 40).all()
    assert np.allclose(one["rmse"] ** 2, one["mse"])
    again = M.build_data(["heights"], [50], seed=5)
    np.testing.assert_array_equal(again[("heights", 50)][0], data[("heights", 50)][0])
    with pytest.raises(ValueError, match="methods"):
        M.error_sweep(data, [1.0], 5, 1, methods=[("median", "as-written")])


def test_closed_form_and_conclusion_tables():
    data = M.build_data(["heights"], [100], seed=1)
    errors = M.error_sweep(data, [1.0], 30, seed=2)
    cf = M.closed_form_table(errors, data)
    assert set(cf["kind"]) == {"exact", "first-order"}
    # no closed form: normalized-clamped, gaussian (clamped), private-bounds, coinpress and the two add-remove
    # centred rows
    assert len(cf) == len(errors) - 6
    conc = M.conclusion_table(errors, data)
    assert set(conc["comparison"]) == set(M.COMPARISONS) and len(conc) == len(M.COMPARISONS)
    # one relation per comparison, and the split each side used
    assert conc.groupby("comparison")["relation"].nunique().eq(1).all()
    assert set(conc["relation"]) == {"replace-one", "add-remove"}
    row = conc[conc["comparison"] == "replace-one: method 4 vs method 3"].iloc[0]
    assert row["split"] == "sum 1, count 0 (n public) / all on one release"
    e = errors.set_index(["method", "variant"])["rmse"]
    assert row["rmse_ratio"] == pytest.approx(
        e[("centred-clamped", "replace-one")] / e[("clamped", "as-written")]
    )
    assert row["predicted"] == pytest.approx(1.0)  # method 3's release, in law
    assert isinstance(cf, pd.DataFrame)


# ------------------------------------------------------------------------------- validation (hypothesis)
bad_eps = st.one_of(
    st.floats(max_value=0.0, allow_nan=False),
    st.just(float("nan")),
    st.just(float("inf")),
    st.just(True),
)


@settings(max_examples=30, deadline=None)
@given(eps=bad_eps, k=st.integers(0, 3))
def test_bad_epsilon_rejected(eps, k):
    with pytest.raises(ValueError, match="epsilon"):
        ESTIMATORS[k](X, eps, B, np.random.default_rng(0))


@settings(max_examples=30, deadline=None)
@given(
    x=st.lists(st.floats(140, 200), min_size=0, max_size=20),
    pos=st.integers(0, 20),
    bad=st.one_of(
        st.just(float("nan")),
        st.just(float("inf")),
        st.floats(200.001, 1e6),
        st.floats(-1e6, 139.999),
    ),
    k=st.integers(0, 3),
)
def test_bad_values_rejected(x, pos, bad, k):
    x = list(x)
    x.insert(min(pos, len(x)), bad)
    with pytest.raises(ValueError, match=r"^x must"):
        ESTIMATORS[k](x, 1.0, B, np.random.default_rng(0))


@settings(max_examples=30, deadline=None)
@given(
    x=st.lists(st.floats(140, 200), min_size=0, max_size=20),
    eps=st.floats(0.05, 10),
    k=st.integers(0, 3),
)
def test_valid_inputs_including_empty_give_finite_answers(x, eps, k):
    y = ESTIMATORS[k](x, eps, B, np.random.default_rng(0), size=3)
    assert y.shape == (3,) and np.all(np.isfinite(y))


@settings(max_examples=30, deadline=None)
@given(lo=st.floats(-1e3, 1e3), width=st.floats(-1e3, 0.0), k=st.integers(0, 3))
def test_bad_bounds_rejected(lo, width, k):
    with pytest.raises(ValueError, match="bounds"):
        ESTIMATORS[k]([], 1.0, (lo, lo + width), np.random.default_rng(0))


@pytest.mark.parametrize("func", ESTIMATORS)
def test_other_bad_arguments(func):
    rng = np.random.default_rng(0)
    with pytest.raises(ValueError, match="rng"):
        func(X, 1.0, B, 42)
    with pytest.raises(ValueError, match="size"):
        func(X, 1.0, B, rng, size=-1)
    with pytest.raises(ValueError, match="x must be one-dimensional"):
        func(X.reshape(1, -1), 1.0, B, rng)
    if func in (
        M.noisy_average_composition,
        M.noisy_average_resampling,
        M.noisy_average_normalized,
    ):
        with pytest.raises(ValueError, match="variant"):
            func(X, 1.0, B, rng, variant="faithful")


# ------------------------------------------------------------------------------ added: loss, tables, plots
@pytest.mark.parametrize("eps", [0.01, 0.5, 1.0, 4.0])
def test_empty_branch_loss_is_attained_and_below_eps(eps):
    loss = M.empty_branch_loss(eps)
    assert eps / 2 <= loss < eps
    # attained by the continuous part: uniform density vs the Laplace density of {a} at y = b (tiny window)
    h = 1e-7 * (Bh - A)
    p = M.event_probability("clamped", [], eps, B, (Bh - 2 * h, Bh - h))
    q = M.event_probability("clamped", [A], eps, B, (Bh - 2 * h, Bh - h))
    assert math.log(p / q) == pytest.approx(loss, abs=1e-5)


def test_conclusion_table_predictions():
    data = M.build_data(["heights"], [1000], seed=3)
    errors = M.error_sweep(data, [1.0], 400, seed=4)
    conc = M.conclusion_table(errors, data)
    assert {"predicted", "z", "rmse_ratio_se"} <= set(conc.columns)
    row = conc[conc["comparison"] == "replace-one: clamping alone"].iloc[0]
    x = data[("heights", 1000)][0]
    beta = 60.0 / 1000  # exact: unclamped sqrt(2) beta over the clamped-Laplace RMSE
    expected = math.sqrt(2) * beta / math.sqrt(M.clamped_laplace_error(float(x.mean()), beta, B)[1])
    assert row["predicted"] == pytest.approx(expected, rel=1e-9)
    assert abs(row["z"]) <= 5
    pb = conc[conc["comparison"] == "replace-one: private vs declared bounds"]
    assert math.isnan(pb["predicted"].iloc[0])


def test_plots_return_figures():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    data = M.build_data(["heights", "adult-age"], [100], seed=3)
    errors = M.error_sweep(data, [0.5, 1.0], 20, seed=4)
    figs = [
        M.plot_errors(errors, 100, {"heights": B, "adult-age": M.AGE_BOUNDS}),
        M.plot_clipping_tradeoff(
            pd.DataFrame(
                {
                    "dataset": "heights",
                    "n": 100,
                    "lower": A,
                    "declared_upper": Bh,
                    **M.clipping_tradeoff(
                        data[("heights", 100)][0], A, np.linspace(150, 260, 12), 1.0
                    ),
                }
            )
        ),
        M.plot_closed_form(M.closed_form_table(errors, data)),
        M.plot_conclusion(M.conclusion_table(errors, data)),
        M.plot_resampling_loss(B, [0.1, 1.0], ns=(2, 5)),
    ]
    for fig in figs:
        assert any(ax.has_data() for ax in fig.axes)
        plt.close(fig)


def test_resampling_loss_approaches_twice_eps_and_normalized_spends_three_quarters():
    # as-written loss -> eps + ln(2 - e^{-eps}) ~ 2 eps for large n and small eps
    eps = 1e-3
    assert M.resampling_pair_loss(10_000, eps, B) / eps == pytest.approx(2.0, abs=0.01)
    assert M.resampling_pair_loss(10_000, 1.0, B) == pytest.approx(
        1 + math.log(2 - math.exp(-1)), rel=1e-9
    )
    assert "spends 0.75 of eps" in M.privacy_claim("normalized", 1.0, B).why
    assert (
        "spends 0.5 of eps" in M.privacy_claim("normalized", 1.0, B, neighbours="replace-one").why
    )


@pytest.mark.parametrize(("eps", "verdict"), [(1.0, "violated"), (2.0, "holds")])
def test_finding5_clamped_add_remove_threshold(eps, verdict):
    """Finding 5: method 3 under add-remove loses max(eps, ln 2 + eps/2): private exactly for eps >= 2 ln 2.
    Exact audit of the coarsened output law on the witness {a} vs {a, b} (raw add-remove neighbours)."""
    from dpcompendium.core.audit import are_neighbours, exact_audit

    d, d2 = np.array([A]), np.array([A, Bh])
    assert are_neighbours(d, d2, "add-remove")
    law = np.vstack([M.clamped_output_law(d, eps, B), M.clamped_output_law(d2, eps, B)])
    res = exact_audit(law, claimed_epsilon=eps, pairs=[(0, 1)])
    assert res.verdict == verdict
    loss = M.clamped_add_remove_loss(eps)
    assert loss == pytest.approx(max(eps, math.log(2) + eps / 2))
    # the coarsened law's exact eps is a lower bound that the 600 bins bring within 1e-3 of the loss
    assert loss - 1e-3 <= res.audited_epsilon <= loss * (1 + 1e-9)
    claim = M.privacy_claim("clamped", eps, B, neighbours="add-remove")
    assert claim.private is (verdict == "holds")
    if verdict == "violated":
        assert "2 e^(eps/2) = 3.3" in claim.why  # ratio 2e^{1/2} = 3.30 > e at eps = 1


def test_finding5_threshold_and_midpoint_ratio():
    assert pytest.approx(2 * math.log(2)) == M.CLAMPED_ADD_REMOVE_THRESHOLD
    for eps in (0.3, 1.0, 1.3):
        # density ratio at the midpoint of {a} vs {a, b}, from exact event probabilities of a tiny interval
        mid, h = (A + Bh) / 2, 1e-4
        p = M.event_probability("clamped", [A], eps, B, (mid - h, mid + h))
        q = M.event_probability("clamped", [A, Bh], eps, B, (mid - h, mid + h))
        assert q / p == pytest.approx(2 * math.exp(eps / 2), rel=1e-4)
        assert (q / p > math.exp(eps)) is (eps < 2 * math.log(2))
    assert M.privacy_claim("clamped", 1.39, B, neighbours="add-remove").private
    assert not M.privacy_claim("clamped", 1.38, B, neighbours="add-remove").private


# ------------------------------------------------------------------ what each method guarantees as run (issue 15)
@pytest.mark.parametrize("eps", [0.1, 1.0, 2.0])
def test_effective_claims_state_the_exact_loss_of_the_code(eps):
    a, b = M.HEIGHT_BOUNDS
    lo_age, hi_age = M.AGE_BOUNDS
    # method 1: the composition loss, 2.17 eps for heights and 1.12 eps for ages under add-remove
    for bounds, ratio in (((a, b), 2.17), ((lo_age, hi_age), 1.12)):
        c = M.effective_claim("composition", eps, bounds)
        assert c.private and c.neighbours == "add-remove"
        assert (
            c.epsilon == M.composition_epsilon(eps, bounds) and round(c.epsilon / eps, 2) == ratio
        )
    assert M.effective_claim("composition", eps, (a, b), "corrected").epsilon == pytest.approx(eps)
    # method 3: eps under replace-one, the exact add-remove loss max(eps, ln 2 + eps/2) otherwise
    assert M.effective_claim("clamped", eps, (a, b)).epsilon == eps
    ar = M.effective_claim("clamped", eps, (a, b), neighbours="add-remove")
    assert ar.epsilon == M.clamped_add_remove_loss(eps) == max(eps, math.log(2) + eps / 2)
    # method 4: Lap(2 Delta/eps) on a centred sum of sensitivity Delta/2 spends eps/4, the count eps/2
    assert M.effective_claim("normalized", eps, (a, b)).epsilon == pytest.approx(0.75 * eps)
    assert M.effective_claim("normalized", eps, (a, b), "corrected").epsilon == pytest.approx(eps)
    # method 2: the exact worst pair's loss increases with n to eps + ln(2 - e^-eps) < 2 eps
    sup = M.effective_claim("resampling", eps, (a, b)).epsilon
    losses = [M.resampling_pair_loss(n, eps, (a, b)) for n in (2, 10, 100, 10000)]
    assert eps < losses[0] and np.all(np.diff(losses) >= 0) and losses[-1] <= sup < 2 * eps
    assert sup - losses[-1] < 1e-9
    assert M.effective_claim("resampling", eps, (a, b), "corrected").epsilon == eps
    assert not M.effective_claim("resampling", eps, (a, b), neighbours="add-remove").private


def test_effective_claim_matches_the_nominal_claim_where_that_holds():
    a, b = M.HEIGHT_BOUNDS
    for m in M.METHODS:
        for v in M.VARIANTS if m != "clamped" else ("as-written",):
            for nb in ("replace-one", "add-remove"):
                nominal, eff = (
                    M.privacy_claim(m, 1.0, (a, b), v, nb),
                    M.effective_claim(m, 1.0, (a, b), v, nb),
                )
                assert eff.neighbours == nb
                if nominal.private:  # a private nominal claim: the code spends at most its eps
                    assert eff.epsilon <= 1.0 + 1e-12
                elif eff.private:  # a broken one: the code spends more than eps
                    assert eff.epsilon > 1.0
    with pytest.raises(ValueError, match="method"):
        M.effective_claim("median", 1.0, (a, b))


def test_error_sweep_runs_give_each_cells_squared_errors():
    """The runs error_sweep returns (for the bootstrap-t families) hold every repetition: their squared errors
    average to the table's MSE, cell by cell; testable refuses a missing cell and constant losses."""
    data = M.build_data(["heights"], [50], seed=3)
    methods = [("clamped", "as-written"), ("coinpress", "zcdp")]
    errors, runs = M.error_sweep(data, [0.5, 2.0], 30, seed=4, methods=methods, return_runs=True)
    assert errors.equals(M.error_sweep(data, [0.5, 2.0], 30, seed=4, methods=methods))
    sq = M.squared_errors(runs)
    assert len(sq) == len(errors) == 4
    for r in errors.itertuples():
        v = sq[(r.dataset, r.method, r.variant, int(r.n), float(r.epsilon))]
        assert v.size == 30 and v.mean() == pytest.approx(r.mse, rel=1e-12)
    key = ("heights", "clamped", "as-written", 50, 0.5)
    assert M.testable(sq, key) and not M.testable(sq, key, ("heights", "x", "y", 50, 0.5))
    assert not M.testable({key: np.ones(30)}, key)
