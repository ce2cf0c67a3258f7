"""LDP mini-batch SGD: coordinate estimates, the source's code behaviours (faithful), cross-validation."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from conftest import LIBM_ULPS, mc_tol
from hypothesis import given, settings
from hypothesis import strategies as st

from dpcompendium.chapters.hiera import sgd as sgd_module
from dpcompendium.chapters.hiera.datasets import synthetic_regression, synthetic_values
from dpcompendium.chapters.hiera.hiera import compensation_weights
from dpcompendium.chapters.hiera.levels import DEFAULT_EDGES, SGD_TEXT_MULTIPLIERS
from dpcompendium.chapters.hiera.numeric import _duchi_bits, _pm, duchi_constant
from dpcompendium.chapters.hiera.sgd import (
    SGDSettings,
    _estimate,
    _fold_ids,
    _folds,
    _Runs,
    _sgd_privunitg,
    _Split,
    _Visit,
    group_size,
    kfold_mse,
    ldp_sgd,
    least_squares_kfold_mse,
    mse_summary,
    sgd_experiment,
)


def test_group_size_rules():
    assert group_size(11, 1.0, "code") == 1000
    assert group_size(11, 0.05, "code") == int(np.ceil(11 * np.log(11) / 0.05**2))
    assert group_size(11, 2.5, "text") == int(np.ceil(2 * 11 * np.log(11) / 2.5**2))
    with pytest.raises(ValueError, match="group_rule"):
        group_size(11, 1.0, "book")


@pytest.mark.parametrize("method", ["harmony", "pm", "graded-laplace", "hiera"])
def test_corrected_coordinate_estimates_are_unbiased(method, rng):
    """Corrected averaging: ĝ_j estimates the mean of coordinate j (HierA: up to its [0, N] clipping)."""
    g, dt, eps = 200_000, 4, 1.0
    target = np.array([0.5, -0.3, 0.05, 0.8])
    j = rng.integers(0, dt, size=(1, g))
    gj = target[j]
    xj = np.where(j == 0, 1.0, 0.0)
    sched = eps * np.asarray(SGD_TEXT_MULTIPLIERS)[None]
    est = _estimate(
        method, gj, xj, j, dt, np.array([eps]), sched, np.asarray(DEFAULT_EDGES), 1, False, rng
    )[0]
    worst = (2 / (np.tanh(eps / 2))) ** 2 + 2 * (
        2 / eps
    ) ** 2  # ≥ every method's per-report variance here
    assert np.all(np.abs(est - target) < mc_tol(worst, g // dt - 5_000))


def test_faithful_shrinks_by_share_of_users(rng):
    """The source's code averages over the whole group (zeros for other coordinates): ĝ_j × n_j / G."""
    g, dt, eps = 5_000, 3, 1.0
    j = rng.integers(0, dt, size=(1, g))
    gj = np.full((1, g), 0.4)
    xj = np.zeros((1, g))
    sched = eps * np.asarray(SGD_TEXT_MULTIPLIERS)[None]
    args = (gj, xj, j, dt, np.array([eps]), sched, np.asarray(DEFAULT_EDGES), 2)
    a = _estimate("hiera", *args, False, np.random.default_rng(9))
    b = _estimate("hiera", *args, True, np.random.default_rng(9))
    n_j = np.bincount(j.ravel(), minlength=dt)
    assert np.allclose(b, a * n_j / g)
    h = _estimate("harmony", *args, True, np.random.default_rng(9))
    assert np.all(np.abs(h) <= duchi_constant(eps) * n_j / g + 1e-12)


def test_nonprivate_sgd_reaches_least_squares(rng):
    x, y = synthetic_regression(200_000, 5, np.random.default_rng(1))
    ols = least_squares_kfold_mse(x, y, rng)
    sgd = kfold_mse(x, y, "none", [1.0], rng)[0]
    assert ols < sgd < 1.1 * ols


def test_least_squares_is_sklearn_linear_regression_bit_for_bit():
    """The non-private reference fits each fold as scikit-learn's ``LinearRegression`` does (issue 50: the chapter no
    longer imports scikit-learn): the same predictions to the last bit on both of the chapter's kinds of data (the
    Adult regression and the synthetic model), and the same K-fold MSE."""
    from sklearn.linear_model import LinearRegression

    from dpcompendium.chapters.hiera import datasets
    from dpcompendium.chapters.hiera.sgd import _ols_predict

    data = {
        "adult": datasets.adult_regression(),
        "synthetic": synthetic_regression(50_000, 10, np.random.default_rng(4)),
    }
    for x, y in data.values():
        se = []
        for tr, te in _folds(y.size, 5, False, np.random.default_rng(3)):
            pred = LinearRegression().fit(x[tr], y[tr]).predict(x[te])
            assert np.array_equal(_ols_predict(x[tr], y[tr], x[te]), pred)
            se.append((pred - y[te]) ** 2)
        ols = least_squares_kfold_mse(x, y, np.random.default_rng(3))
        assert ols == float(np.mean(np.concatenate(se)))


def test_faithful_evaluation_misaligns_rows(rng):
    """Predicting on x[j] of the whole data but scoring against y_test[j] inflates the MSE to ≈ Var(y) + Var(ŷ)."""
    x, y = synthetic_regression(100_000, 3, np.random.default_rng(2), noise=0.02)
    good = kfold_mse(x, y, "none", [1.0], rng)[0]
    bad = kfold_mse(x, y, "none", [1.0], rng, faithful=True)[0]
    assert bad > 1.5 * y.var() > 10 * good
    folds = _folds(100, 5, True, rng)
    assert [te.tolist() for _, te in folds][1] == list(
        range(20, 40)
    )  # contiguous, as in the source


@pytest.mark.parametrize("n", [5, 12, 101, 1003])
@pytest.mark.parametrize("folds", [2, 3, 5])
@pytest.mark.parametrize("shuffle", [True, False])
def test_fold_ids_are_sklearn_kfold(n, folds, shuffle):
    """The folds are scikit-learn's KFold's (seeded by the same draw): same train and test rows, same order, and
    the stream moves on as it did with KFold (one integers(2**31) when shuffled, nothing otherwise)."""
    from sklearn.model_selection import KFold

    a, b = np.random.default_rng(n), np.random.default_rng(n)
    seed = int(b.integers(2**31)) if shuffle else None
    kf = KFold(n_splits=folds, shuffle=shuffle, random_state=seed).split(np.arange(n))
    ours = _folds(n, folds, not shuffle, a)
    for (tr, te), (tr_k, te_k) in zip(ours, kf, strict=True):
        assert tr.tolist() == tr_k.tolist() and te.tolist() == te_k.tolist()
    assert a.integers(2**62) == b.integers(2**62)
    with pytest.raises(ValueError, match="n_splits"):
        _fold_ids(3, 4, shuffle, a)


@pytest.mark.parametrize("n", [12, 101, 1003])
@pytest.mark.parametrize("folds", [2, 3, 5])
def test_split_orders_are_the_training_sets_in_visiting_order(n, folds):
    """_Split.orders: for every repetition and fold, the positions in the visiting order of the training set's
    first m rows (m = the shortest training set), as the former masks computed them."""
    rng = np.random.default_rng(n + folds)
    ids = [_fold_ids(n, folds, True, rng) for _ in range(3)]
    split = _Split(n, ids, folds)
    perm = rng.permutation(n)
    trains = [np.flatnonzero(fold != f) for fold in ids for f in range(folds)]
    m = min(len(tr) for tr in trains)
    assert split.m == m and split.count == 3 * folds
    got = split.orders(perm)
    for f, tr in enumerate(trains):
        member = np.zeros(n, dtype=bool)
        member[tr[:m]] = True
        assert got[f].tolist() == np.flatnonzero(member.take(perm)).tolist()
    assert _Split(n).orders(perm).tolist() == [list(range(n))]


def test_sgd_experiment_without_least_squares_keeps_the_other_rows():
    data = {"s": synthetic_regression(6_000, 2, np.random.default_rng(4))}
    a = sgd_experiment(data, [1.0], ["harmony", "none"], seed=3, reps=2)
    b = sgd_experiment(data, [1.0], ["harmony", "none"], seed=3, reps=2, least_squares=False)
    assert "least-squares" in set(a["method"]) and "least-squares" not in set(b["method"])
    pd.testing.assert_frame_equal(
        a[a["method"] != "least-squares"].reset_index(drop=True), b, check_exact=True
    )


def test_ldp_sgd_runs_and_validates(rng):
    x, y = synthetic_regression(5_000, 3, np.random.default_rng(3))
    beta = ldp_sgd(x, y, "hiera", 1.0, rng)
    assert beta.shape == (4,) and np.all(np.isfinite(beta))
    with pytest.raises(ValueError, match="method"):
        ldp_sgd(x, y, "nope", 1.0, rng)
    with pytest.raises(ValueError, match="y must"):
        ldp_sgd(x, y[:10], "pm", 1.0, rng)
    with pytest.raises(ValueError, match="lie in"):
        ldp_sgd(2 * x, y, "pm", 1.0, rng)
    with pytest.raises(ValueError, match="epsilon"):
        ldp_sgd(x, y, "pm", 0.0, rng)


def test_sgd_experiment_table_reproducible():
    data = {"s": synthetic_regression(6_000, 2, np.random.default_rng(4))}
    a = sgd_experiment(data, [1.0, 2.0], ["harmony", "hiera"], seed=1, n_jobs=1)
    b = sgd_experiment(data, [1.0, 2.0], ["harmony", "hiera"], seed=1, n_jobs=2)
    pd.testing.assert_frame_equal(a, b)
    assert list(a.columns) == ["dataset", "method", "variant", "epsilon", "folds", "rep", "mse"]
    assert set(a["variant"]) == {"corrected", "code-training", "faithful", "non-private"}
    assert a.loc[a["method"] == "least-squares", "epsilon"].isna().all()


def test_sgd_experiment_repetitions():
    data = {"s": synthetic_regression(4_000, 2, np.random.default_rng(4))}
    a = sgd_experiment(
        data, [1.0], ["harmony", "hiera-calibrated"], seed=2, variants=["corrected"], reps=3
    )
    private = a[a["method"].isin(["harmony", "hiera-calibrated"])]
    assert sorted(private.groupby("method")["rep"].apply(list).iloc[0]) == [0, 1, 2]
    assert (a.loc[a["method"] == "least-squares", "rep"] == 0).all()
    assert private.groupby("method")["mse"].nunique().eq(3).all()


def test_mse_summary_one_repetition_keeps_every_method():
    """Issue 45: with one repetition (sgd_reps = 1) there is no standard error, but every method keeps its column
    (pivot_table dropped the all-NaN ones, and the chapter failed with KeyError: 'graded-laplace')."""
    data = {"s": synthetic_regression(3_000, 2, np.random.default_rng(5))}
    methods = ["harmony", "graded-laplace", "none"]
    one = sgd_experiment(data, [0.5, 2.0], methods, seed=3, variants=["corrected"], reps=1)
    mean, se = mse_summary(one)
    # "none" has no epsilon: left out
    assert list(mean.columns) == list(se.columns) == ["graded-laplace", "harmony"]
    assert list(se.index) == list(mean.index) == [("s", 0.5), ("s", 2.0)]
    assert se.isna().all().all()
    rows = one[one["method"] == "harmony"].set_index("epsilon")["mse"]
    assert mean["harmony"].droplevel("dataset").to_dict() == rows.to_dict()


def test_mse_summary_without_a_private_method_is_empty():
    """The edge set sgd_methods = ["none"] (issue 45: KeyError 'mse'): no private method, nothing to summarise."""
    data = {"s": synthetic_regression(2_000, 1, np.random.default_rng(6))}
    runs = sgd_experiment(data, [1.0], ["none"], seed=5, variants=["corrected"], reps=2)
    assert set(runs["method"]) == {"none", "least-squares"}
    mean, se = mse_summary(runs)
    assert mean.empty and se.empty and list(mean.index.names) == ["dataset", "epsilon"]


def test_mse_summary_standard_error():
    data = {"s": synthetic_regression(3_000, 2, np.random.default_rng(5))}
    runs = sgd_experiment(data, [1.0], ["pm"], seed=4, variants=["corrected", "faithful"], reps=4)
    mean, se = mse_summary(runs)
    mse = runs[(runs["method"] == "pm") & (runs["variant"] == "corrected")]["mse"]
    assert mean.loc[("s", 1.0), "pm"] == pytest.approx(mse.mean())
    assert se.loc[("s", 1.0), "pm"] == pytest.approx(mse.std(ddof=1) / 2)
    faithful, _ = mse_summary(runs, "faithful")
    assert faithful.loc[("s", 1.0), "pm"] != mean.loc[("s", 1.0), "pm"]
    with pytest.raises(ValueError, match=r"variant must be among .*, got 'text'"):
        mse_summary(runs, "text")


def test_synthetic_values():
    rng = np.random.default_rng(0)
    for kind in ("normal", "uniform", "exponential"):
        v = synthetic_values(kind, 1000, rng)
        assert v.min() >= -1 and v.max() <= 1
    with pytest.raises(ValueError, match="kind"):
        synthetic_values("beta", 10, rng)


@given(
    st.lists(
        st.one_of(st.floats(-1.0, 1.0), st.sampled_from([*DEFAULT_EDGES, -1.0, 1.0, np.nan])),
        min_size=1,
        max_size=50,
    )
)
@settings(max_examples=200, deadline=None)
def test_level_is_searchsorted(values):
    """The loop's level (comparisons, int8) is ``np.searchsorted(edges, v, side="right")``, on the edges and NaN."""
    v = np.array(values)[None]
    edges = np.asarray(DEFAULT_EDGES)
    sched = np.asarray(SGD_TEXT_MULTIPLIERS)[None]
    level = _Runs(np.array([1.0]), sched, edges, 2, 3).level(v)
    assert np.array_equal(level, np.searchsorted(edges, v, side="right"))


def _estimate_reference(method, gj, xj, j, dt, eps, sched, edges, mu, faithful, rng):
    """The per-iteration estimate as first written (fancy indexing, searchsorted, ±1 bits): the same random stream
    and the same arithmetic as :func:`_estimate`, which hoists the per-run constants out of the loop."""
    r, g = gj.shape
    cell = j + dt * np.arange(r)[:, None]
    n_j = np.bincount(cell.ravel(), minlength=r * dt).reshape(r, dt)
    if method == "hiera":
        k = sched.shape[1]
        level = np.searchsorted(edges, xj, side="right")
        e = np.exp(sched)
        keep = rng.random((r, g)) < np.take_along_axis(e / (e + k - 1.0), level, axis=1)
        other = rng.integers(0, k - 1, size=(r, g))
        other += other >= level
        s = np.where(keep, level, other)
        bits = _duchi_bits(gj, np.take_along_axis(sched, s, axis=1), rng)
        flat = (cell * k + s).ravel() * 2 + (bits.ravel() < 0)
        counts = np.bincount(flat, minlength=r * dt * k * 2).reshape(r, dt, k, 2)
        merged = counts * compensation_weights(k, mu)[:, None]
        pi = np.exp(sched) / (np.exp(sched) + 1.0)
        for i in range(k):
            for jj in range(i + 1, min(i + mu, k)):
                x = ((pi[:, i] + pi[:, jj] - 1.0) / (2.0 * pi[:, i] - 1.0))[:, None]
                c = counts[..., i, :]
                n1 = rng.binomial(c[..., 0], x) + rng.binomial(c[..., 1], 1.0 - x)
                merged[..., jj, 0] += n1
                merged[..., jj, 1] += c[..., 0] + c[..., 1] - n1
        n1, n2 = merged[..., 0].astype(float), merged[..., 1].astype(float)
        n = n1 + n2
        p = pi[:, None, :]
        a = np.clip((p * n - n2) / (2.0 * p - 1.0), 0.0, n)
        b = np.clip((p * n - n1) / (2.0 * p - 1.0), 0.0, n)
        tot, n = (a - b).sum(axis=-1), n.sum(axis=-1)
        est = np.divide(tot, n, out=np.zeros_like(tot), where=n > 0)
        return est * n_j / g if faithful else est
    if method == "harmony":
        rep = duchi_constant(eps)[:, None] * _duchi_bits(gj, eps[:, None], rng)
    elif method == "pm":
        rep = _pm(gj, eps[:, None], rng.random((r, g)))
    else:
        scale = 2.0 / np.take_along_axis(sched, np.searchsorted(edges, gj, side="right"), axis=1)
        rep = gj + rng.laplace(0.0, 1.0, size=(r, g)) * scale
    sums = np.bincount(cell.ravel(), weights=rep.ravel(), minlength=r * dt).reshape(r, dt)
    return sums / g if faithful else sums / np.maximum(n_j, 1)


@pytest.mark.numerics
@pytest.mark.parametrize("faithful", [False, True])
@pytest.mark.parametrize("method", ["harmony", "pm", "graded-laplace", "hiera"])
def test_estimate_is_the_reference_to_rounding(method, faithful):
    """Hoisting the per-run tables changes neither the random draws (the generators end in the same state) nor the
    estimate beyond rounding (μ = 1, 2, 3). The two are numpy rewrites of one formula: exp over arrays of other
    shapes and strides may take another of numpy's CPU-dispatched kernels, a few ulp apart (book/reproducibility.md).
    Tolerance: p = e^s/(e^s + 1) moves by ≤ 2·LIBM_ULPS ulp; the unbiasing (p·n − n₂)/(2p − 1) amplifies that by
    ≤ 3/(2p − 1)² = 3/tanh(s/2)² per level, summed over k levels and divided by n: ≤ 16·k·LIBM_ULPS·u/tanh(s_min/2)²
    in absolute terms (4.6e-12 here; a wrong formula moves an estimate by > 1e-3; on this machine they are equal)."""
    data = np.random.default_rng(5)
    r, g, dt = 12, 3_000, 6
    eps = np.repeat([0.25, 1.0, 2.5, 0.5], 3)
    sched = eps[:, None] * np.asarray(SGD_TEXT_MULTIPLIERS)
    j = data.integers(0, dt, size=(r, g))
    xj = np.where(j == 0, 1.0, data.uniform(-1.0, 1.0, (r, g)))
    gj = np.clip(data.normal(0.0, 0.6, (r, g)), -1.0, 1.0)
    gj[0, :4] = DEFAULT_EDGES  # values on the edges
    for mu in (1, 2, 3):
        args = (method, gj, xj, j, dt, eps, sched, np.asarray(DEFAULT_EDGES), mu, faithful)
        g_new, g_ref = np.random.default_rng(mu), np.random.default_rng(mu)
        new = _estimate(*args, g_new)
        ref = _estimate_reference(*args, g_ref)
        assert g_new.bit_generator.state == g_ref.bit_generator.state  # the same draws
        k = sched.shape[1]
        atol = 16 * k * LIBM_ULPS * np.finfo(float).eps / np.tanh(sched.min() / 2) ** 2
        np.testing.assert_allclose(new, ref, rtol=0, atol=atol)


def test_edges_give_one_level_per_budget(rng):
    x, y = synthetic_regression(2_000, 2, np.random.default_rng(3))
    with pytest.raises(ValueError, match="edges must have 4 entries"):
        kfold_mse(x, y, "hiera", [1.0], rng, settings=SGDSettings(edges=(-0.5, 0.0, 0.5)))


@pytest.mark.parametrize(
    ("kw", "name"),
    [
        ({"mu": 6}, "mu"),
        ({"lam": -1.0}, "lam"),
        ({"lr_power": 0.0}, "lr_power"),
        ({"group_rule": "book"}, "group_rule"),
        ({"clip_norm": 0.0}, "clip_norm"),
        ({"clip_norm": float("inf")}, "clip_norm"),
    ],
)
def test_sgd_settings_are_validated_once_on_construction(kw, name):
    with pytest.raises(ValueError, match=name):
        SGDSettings(**kw)
    assert SGDSettings().edges.tolist() == list(DEFAULT_EDGES)


@pytest.mark.numerics
@pytest.mark.parametrize("faithful", [False, True])
def test_compiled_gradients_are_the_numpy_reference(faithful):
    """The compiled group gradients (:func:`_gradients`, :func:`_full_step`) against their numpy references: the
    gathered coordinate x̃_j exactly; the clipped gradients to the rounding of β·x̃, which the two sum in another
    order (coordinate order; numpy's einsum in SIMD lanes). Each order's error is ≤ γ_d̃ Σ_d |x̃_d β_d| (γ_n =
    n·u/(1 − n·u), u = 2⁻⁵³), so the residuals differ by ≤ 2γ_d̃ S and the gradient 2x̃_j·r by ≤ 4|x̃_j|γ_d̃ S, plus
    an ulp of each rounding after it; clipping to [−1, 1] only contracts. A wrong index or sign moves a gradient
    by ~0.1 or more."""
    from dpcompendium.chapters.hiera.sgd import _full_step, _full_step_py, _gradients, _gradients_py

    data = np.random.default_rng(11)
    n, dt, n_e, n_f, g = 500, 7, 3, 4, 50
    xp = np.ones((n, dt))
    xp[:, 1:] = data.uniform(-1.0, 1.0, (n, dt - 1))
    yp = data.uniform(-1.0, 1.0, n)
    order = np.stack([data.permutation(n) for _ in range(n_f)])
    idx = order[:, 100 : 100 + g]  # a strided view, as the SGD passes it
    beta = data.normal(0.0, 2.0, (n_e, n_f, dt))
    j = data.integers(0, dt, size=(n_e, n_f, g))
    lam = 0.3  # large, so that a wrong regulariser shows
    gj, xj = _gradients(xp, yp, idx, beta, j, lam, faithful)
    gj_ref, xj_ref = _gradients_py(xp, yp, idx, beta, j, lam, faithful)
    assert np.array_equal(xj, xj_ref)
    u = np.finfo(float).eps / 2
    gamma = dt * u / (1 - dt * u)
    s = np.einsum("fgd,efd->efg", np.abs(xp.take(idx, axis=0)), np.abs(beta))  # Σ_d |x̃_d β_d|
    tol = 4 * np.abs(xj) * gamma * s + 4 * u * (1 + np.abs(gj_ref))
    assert np.all(np.abs(gj - gj_ref) <= tol)
    assert np.any(np.abs(gj_ref) == 1.0) and np.any(np.abs(gj_ref) < 1.0)  # both sides of the clip
    step, step_ref = (
        _full_step(xp, yp, idx, beta, lam, faithful),
        _full_step_py(xp, yp, idx, beta, lam, faithful),
    )
    # a mean of g clipped gradients, each within 4γ_d̃ S + 4u of the reference's, the sums g·u apart per term
    s_max = s.max(axis=-1)[..., None]
    assert np.all(np.abs(step - step_ref) <= 4 * gamma * s_max + 4 * u * (1 + g * u) + 2 * g * u)


@pytest.mark.numerics
@pytest.mark.parametrize("faithful", [False, True])
@pytest.mark.parametrize("method", ["harmony", "graded-laplace", "hiera"])
def test_compiled_tallies_are_the_numpy_code_bit_for_bit(method, faithful, monkeypatch):
    """The compiled user-side tallies of :func:`_estimate_runs` (HierA's counts, Harmony's and graded Laplace's
    sums) draw the same numbers in the same order and perform the numpy code's operations in its order: the same
    estimates to the last bit, and the generators end in the same state (μ = 1, 2, 3; values on the level edges)."""
    from dpcompendium.chapters.hiera import sgd

    data = np.random.default_rng(7)
    r, g, dt = 12, 2_000, 6
    eps = np.repeat([0.25, 1.0, 2.5, 0.5], 3)
    sched = eps[:, None] * np.asarray(SGD_TEXT_MULTIPLIERS)
    j = data.integers(0, dt, size=(r, g))
    xj = np.where(j == 0, 1.0, data.uniform(-1.0, 1.0, (r, g)))
    xj[1, :4] = DEFAULT_EDGES
    gj = np.clip(data.normal(0.0, 0.6, (r, g)), -1.0, 1.0)
    gj[0, :4] = DEFAULT_EDGES
    for mu in (1, 2, 3):
        runs = _Runs(eps, sched, np.asarray(DEFAULT_EDGES), mu, dt)
        cell = j + runs.cell_off
        out = {}
        for flag in (True, False):
            monkeypatch.setattr(sgd, "compiled_kernels", flag)
            gen = np.random.default_rng(mu)
            out[flag] = (
                sgd._estimate_runs(method, gj, xj, cell, runs, faithful, gen),
                gen.bit_generator.state,
            )
        assert out[True][1] == out[False][1]
        assert np.array_equal(out[True][0], out[False][0])


@pytest.mark.numerics
@pytest.mark.parametrize("mu", [1, 2, 3, 5])
def test_hiera_runs_compiled_is_the_numpy_reference_bit_for_bit(mu):
    """:func:`_hiera_runs` (PLC's binomials in one call, the rest compiled) against :func:`_hiera_runs_py`: the
    same draws in the same order (the generators end in the same state) and the same sums to the last bit, with
    empty cells, small counts (inversion) and large ones (BTPE), and per-run schedules."""
    from dpcompendium.chapters.hiera.sgd import _hiera_runs, _hiera_runs_py

    data = np.random.default_rng(mu)
    r, dt = 9, 6
    eps = np.repeat([0.25, 1.0, 2.5], 3)
    sched = eps[:, None] * np.asarray(SGD_TEXT_MULTIPLIERS)
    runs = _Runs(eps, sched, np.asarray(DEFAULT_EDGES), mu, dt)
    counts = data.integers(0, 12, size=(r, dt, 5, 2))
    counts[0] = 0
    counts[1] = data.integers(0, 5_000, size=(dt, 5, 2))
    out = {}
    for name, fn in (("compiled", _hiera_runs), ("numpy", _hiera_runs_py)):
        gen = np.random.default_rng(100 + mu)
        tot, n = fn(counts.copy(), runs, gen)
        out[name] = (tot, n, gen.bit_generator.state)
    assert out["compiled"][2] == out["numpy"][2]
    assert np.array_equal(out["compiled"][0], out["numpy"][0])
    assert np.array_equal(out["compiled"][1], out["numpy"][1])
    assert np.any(out["numpy"][0] != 0.0)


@pytest.mark.numerics
@pytest.mark.parametrize("mu", [1, 2, 5])
@pytest.mark.parametrize("faithful", [False, True])
@pytest.mark.parametrize(
    "method",
    [
        "harmony",
        "pm",
        "graded-laplace",
        "hiera",
        "harmony-l2",
        "pm-l2",
        "harmony-l2-step",
        "pm-l2-step",
    ],
)
def test_fused_pass_is_the_per_step_code_bit_for_bit(method, faithful, mu, monkeypatch):
    """A private pass of :func:`_sgd` as one compiled call (:data:`_sgd_pass_kernel`) against the per-step code
    (``fused_passes = False``: numpy draws, the compiled gradients and tallies, numpy's PM): the same β to the last
    bit and the generator in the same state, over several steps, folds and budgets with per-run schedules (HierA's
    scaled base), a large λ (so that a wrong regulariser shows) and both of the code's variants."""
    from dpcompendium.chapters.hiera import sgd

    data = np.random.default_rng(3)
    n, d = 3_000, 4
    x = data.uniform(-1.0, 1.0, (n, d))
    y = np.clip(x @ data.uniform(-0.5, 0.5, d) + data.normal(0.0, 0.2, n), -1.0, 1.0)
    settings = SGDSettings(mu=mu, lam=0.3)
    eps = np.array([0.25, 1.0, 2.5])
    out = {}
    for flag in (True, False):
        monkeypatch.setattr(sgd, "fused_passes", flag)
        gen = np.random.default_rng(10 * mu + faithful)
        split = _Split(n, [_fold_ids(n, 3, True, gen) for _ in range(2)], 3)
        visit = sgd._Visit(x, y, split, gen)
        base = 0.4 * eps if method == "hiera" else None
        beta = sgd._sgd(visit, method, eps, faithful, settings, 150, gen, base=base)
        out[flag] = (beta, gen.bit_generator.state)
    assert out[True][1] == out[False][1]
    assert np.array_equal(out[True][0], out[False][0])
    assert np.all(np.isfinite(out[True][0])) and np.ptp(out[True][0]) > 0


@pytest.mark.parametrize(("faithful", "block"), [(False, 2**22), (True, 2**22), (False, 1)])
def test_privunitg_step_is_the_mean_clipped_gradient_unbiased(faithful, block, monkeypatch):
    """One PrivUnitG step over a group of all n users moves β by the group's mean report: over K independent
    steps from the same β, the mean move is the mean of the users' whole gradients clipped to ℓ2 norm C, within
    4 standard errors (from the moves' sample variance) per coordinate."""
    monkeypatch.setattr(sgd_module, "_PRIVUNITG_BLOCK", block)  # 1: one training set per block
    n, d, eps, k = 400, 3, 1.0, 300
    x, y = synthetic_regression(n, d, np.random.default_rng(2))
    st = SGDSettings(clip_norm=0.7, lam=0.1)
    beta0 = np.random.default_rng(3).random((1, 1, d + 1))
    visit = _Visit(x, y, _Split(n), np.random.default_rng(4))
    moves = np.array(
        [
            (beta0 - _sgd_privunitg(visit, np.array([eps]), beta0, faithful, st, n, rng))[0, 0]
            for rng in np.random.default_rng(5).spawn(k)
        ]
    )
    xt = np.column_stack([np.ones(n), x])
    reg = st.lam * (np.abs(beta0[0, 0]) if faithful else beta0[0, 0])
    if faithful:
        reg[0] = 0.0
    grad = 2.0 * xt * (xt @ beta0[0, 0] - y)[:, None] + reg
    norm = np.linalg.norm(grad, axis=1, keepdims=True)
    target = (grad * np.minimum(1.0, st.clip_norm / norm)).mean(axis=0)
    assert np.any(norm > st.clip_norm)  # the clipping is exercised
    se = moves.std(axis=0, ddof=1) / np.sqrt(k)
    assert np.all(np.abs(moves.mean(axis=0) - target) < 4 * se)


@pytest.mark.parametrize("block", [2**22, 1])
def test_privunitg_sgd_reproducible_and_learns(block, monkeypatch):
    """The same seed gives the same table; at ε = 4 PrivUnitG's SGD beats predicting from its random start
    (MSE below Var(y) on every fold) on 20 000 users; also one training set per block (block = 1)."""
    monkeypatch.setattr(sgd_module, "_PRIVUNITG_BLOCK", block)
    data = {"s": synthetic_regression(20_000, 3, np.random.default_rng(4))}
    a = sgd_experiment(data, [4.0], ["privunitg"], seed=1, variants=["corrected"], reps=2)
    # n_jobs = 2 runs in fresh worker processes, which do not see the patched block size
    jobs = 2 if block == 2**22 else 1
    b = sgd_experiment(
        data, [4.0], ["privunitg"], seed=1, variants=["corrected"], reps=2, n_jobs=jobs
    )
    pd.testing.assert_frame_equal(a, b, check_exact=True)
    mse = a.loc[a["method"] == "privunitg", "mse"]
    assert len(mse) == 2 and (mse < data["s"][1].var()).all()


@pytest.mark.numerics
@pytest.mark.parametrize("faithful", [False, True])
@pytest.mark.parametrize("clip", [1.0, 0.7])
def test_l2_clipped_gradients_are_the_numpy_reference(faithful, clip):
    """The ℓ2-clipped coordinate of the ``*-l2`` methods (referee 11, M1), compiled (:func:`_gradients` with
    ``clip_l2``) against numpy: g_j·min(1, C/‖g‖)/C, within the rounding the two orders of summation allow (each
    coordinate of g within 4|x̃_d|γ S + 4u(1 + |g_d|) as in the box test, so ‖g‖ within the norm of those bounds;
    the scale min(1, C/‖g‖) then moves by at most its relative error). Every value lies in [−1, 1], the clip binds
    for some users and not for others, and a unit-norm gradient is left unscaled: a box clip instead of the ℓ2 one,
    or a missing 1/C, moves values by ≥ 0.1."""
    from dpcompendium.chapters.hiera.sgd import _gradients, _gradients_py

    data = np.random.default_rng(12)
    n, dt, n_e, n_f, g = 500, 7, 3, 4, 50
    xp = np.ones((n, dt))
    xp[:, 1:] = data.uniform(-1.0, 1.0, (n, dt - 1))
    yp = data.uniform(-1.0, 1.0, n)
    order = np.stack([data.permutation(n) for _ in range(n_f)])
    idx = order[:, 100 : 100 + g]
    beta = data.normal(0.0, 0.3, (n_e, n_f, dt))
    j = data.integers(0, dt, size=(n_e, n_f, g))
    lam = 0.3
    gj, xj = _gradients(xp, yp, idx, beta, j, lam, faithful, clip)
    gj_ref, xj_ref = _gradients_py(xp, yp, idx, beta, j, lam, faithful, clip)
    assert np.array_equal(xj, xj_ref)
    # the whole gradients, to check the clip directly
    xt = xp.take(idx, axis=0)
    resid = np.einsum("fgd,efd->efg", xt, beta) - yp.take(idx)
    reg = lam * np.abs(beta) if faithful else lam * beta
    if faithful:
        reg[..., 0] = 0.0
    full = 2.0 * xt[None] * resid[..., None] + reg[:, :, None, :]
    norm = np.linalg.norm(full, axis=-1)
    want = np.take_along_axis(full, j[..., None], -1)[..., 0] * np.minimum(1.0, clip / norm) / clip
    u = np.finfo(float).eps / 2
    gamma = dt * u / (1 - dt * u)
    s = np.einsum("fgd,efd->efg", np.abs(xt), np.abs(beta))
    dv = 4 * gamma * s[..., None] * np.abs(xt[None]) + 4 * u * (1 + np.abs(full))
    rel = (
        np.linalg.norm(dv, axis=-1) / norm + 4 * dt * u
    )  # relative error of the norm, hence of the scale
    tol = (np.abs(want) * rel + dv.max(axis=-1)) / clip + 4 * u
    assert np.all(np.abs(gj - gj_ref) <= tol) and np.all(np.abs(gj - want) <= tol)
    assert np.all(np.abs(gj) <= 1.0 + 1e-12)
    assert np.any(norm > clip) and np.any(norm < clip)  # both sides of the clip
    inside = norm < clip
    np.testing.assert_allclose(gj[inside], want[inside], rtol=1e-12, atol=1e-15)


@pytest.mark.parametrize("faithful", [False, True])
@pytest.mark.parametrize("method", ["harmony-l2", "pm-l2"])
def test_l2_method_step_is_the_mean_l2_clipped_gradient_unbiased(method, faithful):
    """One step of Harmony or PM on the ℓ2-clipped gradient (referee 11, M1) over a group of all n users moves β by
    the estimate of the mean gradient clipped to ℓ2 norm C (as PrivUnitG's, above), not the box-clipped one: over
    K independent steps from the same β the mean move is within 4 standard errors of the ℓ2 target per coordinate,
    and that target is far (> 8 standard errors) from the box-clipped mean in some coordinate."""
    from dpcompendium.chapters.hiera import sgd

    n, d, eps, k = 400, 3, 1.0, 300
    x, y = synthetic_regression(n, d, np.random.default_rng(2))
    st = SGDSettings(clip_norm=0.7, lam=0.1)
    beta0 = np.random.default_rng(3).random((1, 1, d + 1)) * 2.0
    visit = _Visit(x, y, _Split(n), np.random.default_rng(4))
    e = np.array([eps])
    runs = sgd._Runs(e, e[:, None] * np.asarray(SGD_TEXT_MULTIPLIERS), st.edges, st.mu, d + 1)
    base = sgd.L2_METHODS[method]
    moves = np.array(
        [
            (
                beta0
                - sgd._sgd_fused(visit, base, runs, beta0.copy(), faithful, st, n, g, st.clip_norm)
            )[0, 0]
            for g in np.random.default_rng(5).spawn(k)
        ]
    )
    xt = np.column_stack([np.ones(n), x])
    reg = st.lam * (np.abs(beta0[0, 0]) if faithful else beta0[0, 0])
    if faithful:
        reg[0] = 0.0
    grad = 2.0 * xt * (xt @ beta0[0, 0] - y)[:, None] + reg
    norm = np.linalg.norm(grad, axis=1, keepdims=True)
    target = (grad * np.minimum(1.0, st.clip_norm / norm)).mean(axis=0)
    if faithful:  # the code's estimate: the group's sum over all G users, ≈ 1/d̃ of the mean
        target = target / (d + 1)
    assert np.any(norm > st.clip_norm)
    se = moves.std(axis=0, ddof=1) / np.sqrt(k)
    assert np.all(np.abs(moves.mean(axis=0) - target) < 4 * se)
    box = np.clip(grad, -1.0, 1.0).mean(axis=0) / ((d + 1) if faithful else 1)
    assert np.any(np.abs(box - target) > 8 * se)


@pytest.mark.parametrize("faithful", [False, True])
def test_compiled_privunitg_step_has_the_per_user_distribution(faithful, monkeypatch):
    """PrivUnitG's step drawn as one Gaussian vector per training set (:data:`_privunitg_step_kernel`) against the
    per-user numpy code (``compiled_privunitg = False``), over K independent steps from the same β on a group of all
    n users, a zero gradient among them: the same mean (both within 4 standard errors of the mean ℓ2-clipped
    gradient) and the same covariance — each entry of the two sample covariance matrices within 5 standard errors
    of their difference (the variance of a sample covariance of K normal draws, (σ_ab² + σ_aa σ_bb)/K, estimated
    from both). Leaving out the Gaussian part, or the users' α u part, changes the variances by far more."""
    from dpcompendium.chapters import hiera

    n, d, eps, k = 300, 3, 1.0, 1500
    x, y = synthetic_regression(n, d, np.random.default_rng(2))
    x[5] = 0.0
    st = SGDSettings(clip_norm=0.7, lam=0.0 if not faithful else 0.1)
    beta0 = np.random.default_rng(3).random((1, 1, d + 1))
    moves = {}
    for flag in (True, False):
        monkeypatch.setattr(hiera.sgd, "compiled_privunitg", flag)
        visit = _Visit(x, y, _Split(n), np.random.default_rng(4))
        moves[flag] = np.array(
            [
                (beta0 - _sgd_privunitg(visit, np.array([eps]), beta0, faithful, st, n, g))[0, 0]
                for g in np.random.default_rng(5).spawn(k)
            ]
        )
    xt = np.column_stack([np.ones(n), x])
    reg = st.lam * (np.abs(beta0[0, 0]) if faithful else beta0[0, 0])
    if faithful:
        reg[0] = 0.0
    grad = 2.0 * xt * (xt @ beta0[0, 0] - y)[:, None] + reg
    norm = np.linalg.norm(grad, axis=1, keepdims=True)
    target = (grad * np.minimum(1.0, st.clip_norm / np.maximum(norm, 1e-300))).mean(axis=0)
    cov = {}
    for flag, mv in moves.items():
        se = mv.std(axis=0, ddof=1) / np.sqrt(k)
        assert np.all(np.abs(mv.mean(axis=0) - target) < 4 * se)
        cov[flag] = np.cov(mv, rowvar=False)
    c = (cov[True] + cov[False]) / 2
    var_entry = (c**2 + np.outer(np.diag(c), np.diag(c))) / k  # of one sample covariance entry
    assert np.all(np.abs(cov[True] - cov[False]) < 5 * np.sqrt(2 * var_entry))
