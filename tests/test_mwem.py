"""Tests for dpcompendium.chapters.mwem: the MW step, random workloads, the selection law, the engine, validation
(the range-query type itself, the core's, in test_core_ranges.py)."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from _chapter_ids import MWEM
from conftest import LIBM_ULPS, mc_tol

from dpcompendium.chapters.mwem import (
    PUBLIC_DOMAIN,
    RangeQueries,
    bootstrap_mean_ci,
    compare_with_reference,
    core,
    first_round_probabilities,
    identity_histogram,
    multiplicative_weights_step,
    mwem,
    mwem_sweep,
    privacy_accounting,
    privacy_claim,
    random_range_queries,
    reference_errors,
    report_errors,
    report_histogram,
    report_queries_1d,
    selection_probabilities,
    spent_claim,
    summarize_runs,
    workload_errors,
)
from dpcompendium.core.mechanisms import exponential_probabilities
from dpcompendium.core.rng import child_seeds, make_rng


# ------------------------------------------------------------------------------------------ multiplicative weights
def test_mw_step_matches_hand_computation():
    # A = (1, 2, 3, 4), n = 10, q = first two cells, m = 5: q(A) = 3, factor e^{(5-3)/(2*10)} = e^{0.1}
    a = np.array([1.0, 2.0, 3.0, 4.0])
    q = np.array([1.0, 1.0, 0.0, 0.0])
    f = math.exp(0.1)
    z = 1 * f + 2 * f + 3 + 4
    expected = np.array([10 * f / z, 20 * f / z, 30 / z, 40 / z])
    out = multiplicative_weights_step(a, q, 5.0, 10.0)
    np.testing.assert_allclose(out, expected, rtol=1e-14)
    assert out.sum() == pytest.approx(10.0, rel=1e-14)
    # the update moves q(A) towards the measurement, never past it for a small step
    assert 3.0 < out[:2].sum() < 5.0


def test_engine_first_round_equals_mw_step():
    hist = report_histogram(1)
    Q = report_queries_1d()
    res = mwem(hist, Q, 1.0, 1, passes=1, reps=5, rng=make_rng(3))
    n = hist.sum()
    a0 = np.full((5, 14), n / 14)
    masks = Q.masks(res.selected[:, 0])
    expected = multiplicative_weights_step(a0, masks, res.measurements[:, 0], n)
    np.testing.assert_allclose(res.last, expected, rtol=1e-12)
    np.testing.assert_allclose(res.average, expected, rtol=1e-12)  # T = 1: average = last


@pytest.mark.parametrize("shape", [(6,), (4, 3), (3, 2, 4)])
def test_engine_round_equals_mw_step_in_any_dimension(shape):
    hist = np.arange(1.0, 1.0 + np.prod(shape)).reshape(shape)
    Q = random_range_queries(shape, 10, make_rng(2))
    res = mwem(hist, Q, 2.0, 1, passes=1, reps=4, variant="coursework", rng=make_rng(8))
    n, N = hist.sum(), hist.size
    masks = Q.masks(res.selected[:, 0]).reshape(4, N)
    expected = multiplicative_weights_step(np.full((4, N), n / N), masks, res.measurements[:, 0], n)
    np.testing.assert_allclose(res.last.reshape(4, N), expected, rtol=1e-12)


def test_chapter_parameters_cell():
    from dpcompendium.book.contract import get_chapter, validate_parameters

    ch = get_chapter(MWEM)
    p = ch.parameters
    for name in (
        "seed",
        "output_dir",
        "reps",
        "epsilons",
        "T_1d",
        "T_2d",
        "q_size_2d",
        "mw_passes",
        "variants",
    ):
        assert name in p
    assert (p["reps"].default, p["T_1d"].default, p["T_2d"].default) == (100, 30, 200)
    assert (p["q_size_2d"].default, p["mw_passes"].default, p["epsilons"].default) == (
        400,
        20,
        [0.1, 1.0, 5.0, 10.0],
    )
    with pytest.raises(ValueError, match="T_1d"):
        validate_parameters(ch, {"T_1d": 61})
    with pytest.raises(ValueError, match="variants"):
        validate_parameters(ch, {"variants": ["paper"]})


def test_engine_two_passes_replay_the_measurement_twice():
    hist = report_histogram(1)
    Q = report_queries_1d()
    res = mwem(hist, Q, 1.0, 1, passes=2, reps=3, variant="coursework", rng=make_rng(4))
    n = hist.sum()
    masks = Q.masks(res.selected[:, 0])
    a = multiplicative_weights_step(np.full((3, 14), n / 14), masks, res.measurements[:, 0], n)
    a = multiplicative_weights_step(a, masks, res.measurements[:, 0], n)
    np.testing.assert_allclose(res.last, a, rtol=1e-12)


# ------------------------------------------------------------------------------------------ queries
def test_random_range_queries_distinct_and_valid(rng):
    Q = random_range_queries((14, 4), 400, rng)
    assert Q.m == 400 and len(set(Q.ranges())) == 400
    assert np.all(Q.lo <= Q.hi) and np.all(Q.hi < np.array([14, 4]))
    with pytest.raises(ValueError, match="m must be <= 1050"):
        random_range_queries((14, 4), 1051, rng)


def test_random_range_queries_follow_the_coursework_law(rng):
    # lo ~ U{0..n-1}, hi | lo ~ U{lo..n-1}: P(lo = 0, hi = n-1) = 1/n^2
    n, m = 5, 40000
    Q = random_range_queries((n,), m, rng, distinct=False)
    p = 1 / n**2
    freq = np.mean((Q.lo[:, 0] == 0) & (Q.hi[:, 0] == n - 1))
    assert abs(freq - p) < mc_tol(p * (1 - p), m)
    p_lo = np.bincount(Q.lo[:, 0], minlength=n) / m
    assert np.all(np.abs(p_lo - 1 / n) < mc_tol((1 / n) * (1 - 1 / n), m))


# ------------------------------------------------------------------------------------------ selection
def test_selection_probabilities_formula_and_core_agreement():
    s = np.array([0.0, 1.0, 3.0])
    p = selection_probabilities(s, 2.0)
    w = np.exp(2.0 * s / 2)
    np.testing.assert_allclose(p, w / w.sum())
    np.testing.assert_allclose(p, exponential_probabilities(s, 1.0, 2.0))
    # coursework: scores / 1e5 is the exponential mechanism with sensitivity 1e5
    np.testing.assert_allclose(selection_probabilities(s * 1e5, 2.0, score_scale=1e5), p)
    q = selection_probabilities(s, 2.0, exclude=[False, False, True])
    np.testing.assert_allclose(q, [w[0] / (w[0] + w[1]), w[1] / (w[0] + w[1]), 0.0])


def test_coursework_selection_is_nearly_uniform():
    hist, Q = report_histogram(1), report_queries_1d()
    for eps in (0.1, 10.0):
        p = first_round_probabilities(hist, Q, eps, 30, "coursework")
        # ratio bound exp(eps/(2T) * max score / (2e5))
        a0 = np.full(14, hist.sum() / 14)
        smax = np.abs(Q.answer(a0) - Q.answer(hist)).max()
        bound = math.exp(eps / 60 * smax / 2e5)
        assert p.max() / p.min() <= bound * (1 + 1e-12)
        assert bound < 1.2  # at most 20 % from uniform even at eps = 10 (0.1 % at eps = 0.1)
        p_std = first_round_probabilities(hist, Q, eps, 30, "standard")
        assert p_std.max() > 10 * p_std.min()  # the standard mechanism is far from uniform


def test_engine_selection_frequencies_match_the_law():
    hist, Q = report_histogram(1), report_queries_1d()
    eps, reps = 4e-4, 20000  # first-round scores reach ~1e5: a clearly non-uniform law
    p = first_round_probabilities(hist, Q, eps, 1, "standard")
    assert p.max() > 5 * p.min()
    res = mwem(hist, Q, eps, 1, passes=1, reps=reps, rng=make_rng(11))
    freq = np.bincount(res.selected[:, 0], minlength=Q.m) / reps
    tol = np.array([mc_tol(pk * (1 - pk), reps) for pk in p])
    assert np.all(np.abs(freq - p) <= tol + 1e-12)


def test_coursework_never_repeats_a_query_and_counts_draws():
    hist, Q = report_histogram(1), report_queries_1d()
    res = mwem(hist, Q, 1.0, 60, variant="coursework", passes=1, reps=200, rng=make_rng(5))
    assert all(len(set(row)) == 60 for row in res.selected)
    assert res.draws.min() >= 1 and np.all(res.draws[:, 0] == 1)
    # near-uniform selection: round i needs Geometric((m - i)/m) draws, mean m/(m - i), variance (1-p)/p^2
    m = 60
    p = (m - np.arange(m)) / m
    mean = np.sum(1 / p)
    var = np.sum((1 - p) / p**2)
    assert abs(res.draws.sum(axis=1).mean() - mean) < mc_tol(var, 200) + 0.01 * mean


def test_standard_may_repeat_queries():
    hist, Q = report_histogram(1), report_queries_1d()
    res = mwem(hist, Q, 10.0, 60, passes=1, reps=20, rng=make_rng(6))
    assert np.all(res.draws == 1)
    assert any(len(set(row)) < 60 for row in res.selected)


# ------------------------------------------------------------------------------------------ measurement noise
@pytest.mark.parametrize(
    ("variant", "dim", "divisor"), [("standard", 1, 1), ("standard", 2, 1), ("coursework", 2, 2)]
)
def test_laplace_measurement_scale(variant, dim, divisor):
    hist = report_histogram(dim)
    Q = report_queries_1d() if dim == 1 else random_range_queries(hist.shape, 50, make_rng(1))
    eps, T, reps = 2.0, 1, 20000
    res = mwem(hist, Q, eps, T, variant=variant, passes=1, reps=reps, rng=make_rng(7))
    noise = res.measurements[:, 0] - Q.answer(hist)[res.selected[:, 0]]
    b = 2 * T / (eps * divisor)
    assert abs(np.mean(noise**2) - 2 * b**2) < mc_tol(20 * b**4, reps)
    assert abs(np.mean(noise)) < mc_tol(2 * b**2, reps)


# ------------------------------------------------------------------------------------------ outputs and accuracy
def test_standard_error_falls_with_epsilon():
    hist, Q = report_histogram(1), report_queries_1d()
    sw = mwem_sweep(
        hist, Q, [0.1, 10.0], 30, variants=["standard"], reps=40, seed=3, outputs=("last",)
    )
    for col in ("mean_error_last", "mean_error"):
        lo = sw.runs.loc[sw.runs.epsilon == 10.0, col].to_numpy()
        hi = sw.runs.loc[sw.runs.epsilon == 0.1, col].to_numpy()
        margin = 5 * math.sqrt(lo.var(ddof=1) / lo.size + hi.var(ddof=1) / hi.size)
        assert hi.mean() - lo.mean() > margin


def test_workload_errors_definition(rng):
    Q = RangeQueries.from_ranges(3, [(0, 0), (0, 2)])
    hist = np.array([1.0, 2.0, 3.0])
    syn = np.array([[2.0, 2.0, 2.0]])
    e = workload_errors(syn, hist, Q)  # errors |2-1| = 1 and |6-6| = 0
    assert e["max_error"][0] == 1 and e["min_error"][0] == 0
    assert e["mse"][0] == pytest.approx(0.5) and e["mean_error"][0] == pytest.approx(0.5)


def test_identity_baseline_variance():
    hist = np.zeros(50)
    eps, reps = 0.5, 4000
    out = identity_histogram(hist, eps, make_rng(9), reps=reps)
    b = 2 / eps
    assert abs(np.mean(out**2) - 2 * b**2) < mc_tol(20 * b**4, out.size)
    out1 = identity_histogram(hist, eps, make_rng(9), reps=reps, neighbours="add-remove")
    assert abs(np.mean(out1**2) - 2 / eps**2) < mc_tol(20 / eps**4, out.size)


# ------------------------------------------------------------------------------------------ privacy
def test_privacy_claims():
    std = privacy_claim(1.0, 30, "standard", 2)
    assert std.private and std.epsilon == 1.0 and std.neighbours == "replace-one"
    c1 = privacy_claim(1.0, 30, "coursework", 1)
    assert c1.private and c1.epsilon == pytest.approx(0.5 + 0.5e-5)
    # finding 7: the data-dependent number of re-draws is an unaccounted release, carried as a condition
    assert any("re-draws" in c and "not released" in c for c in c1.conditions)
    # the standard variant has no re-draw condition; every claim rests on a public domain (issue 27)
    assert "re-draws" in c1.statement() and std.conditions == (PUBLIC_DOMAIN,)
    c2 = privacy_claim(1.0, 200, "coursework", 2)
    assert not c2.private and c2.epsilon == 1.0 and "nAtt" in c2.why and "1.000005" in c2.why
    # referee 7 m-d: in 2-D an upper bound above ε is not a refutation; from 3-D on the measurements alone exceed ε
    assert not c2.refuted and "upper bound" in c2.why
    assert c2.statement().startswith("MWEM (coursework): 1-DP as claimed is not shown")
    # referee 8 n2: in 3-D at T = 200 the composition total (1.500005) is an upper bound as well: not shown, with
    # the witness on the transcript; refuted only at T = 1, where the released histogram carries the witness
    c3 = privacy_claim(1.0, 200, "coursework", 3)
    assert not c3.private and not c3.refuted
    assert c3.statement().startswith("MWEM (coursework): 1-DP as claimed is not shown")
    assert "1.500005" in c3.why and "upper bound" in c3.why
    assert "transcript" in c3.why and "1.499995" in c3.why
    c31 = privacy_claim(1.0, 1, "coursework", 3)
    assert not c31.private and c31.refuted and "released histogram" in c31.why
    assert c31.statement().startswith("MWEM (coursework): not 1-DP as claimed")
    # no witness in 2-D: the event's loss is ε − 5·10⁻⁶ε
    assert not privacy_claim(1.0, 1, "coursework", 2).refuted


def test_coursework_witness_exceeds_epsilon_exactly_from_3d_on():
    """Referee 8 n2: the witness of :func:`coursework_witness`, checked on the library's own laws at T = 1 in 3-D: a
    record moved from cell u to cell v, the one selected box contains u and not v, the measurement is at or above
    its true count. The event's probability ratio is the selection law's ratio (computed exactly, from the engine's
    first-round probabilities) times the Laplace tail ratio exp(1/b), b = 2T/(ε·nAtt); its log exceeds ε and is at
    least the witness's loss. At T = 1 the released histogram determines the measurement (its box's mass is
    strictly increasing in it), so the loss is one of the histogram."""
    from dpcompendium.chapters.mwem import coursework_witness

    eps, T = 1.0, 1
    shape = (2, 3, 2)
    rng = make_rng(3)
    B = rng.integers(1, 9, size=shape).astype(float)
    u, v = (0, 0, 0), (1, 2, 1)
    B2 = B.copy()
    B2[u] -= 1
    B2[v] += 1  # replace-one: one record moved from u to v, n unchanged
    Q = random_range_queries(shape, 25, make_rng(4))
    sep = [
        k
        for k in range(Q.m)
        if np.all(Q.lo[k] <= u)
        and np.all(Q.hi[k] >= u)
        and not (np.all(Q.lo[k] <= v) and np.all(Q.hi[k] >= v))
    ]
    assert sep
    pB = first_round_probabilities(B, Q, eps, T, "coursework")
    pB2 = first_round_probabilities(B2, Q, eps, T, "coursework")
    b = 2.0 * T / (eps * 3)  # the coursework's Laplace scale in 3-D
    wit = coursework_witness(eps, T, 3)
    assert wit["exceeds"] and wit["released"] and wit["loss"] == pytest.approx(1.499995, abs=1e-12)
    for k in sep:
        loss = math.log(pB[k] / pB2[k]) + 1.0 / b  # P(m ≥ q(B)) = 1/2 under B, e^{-1/b}/2 under B′
        assert loss >= wit["loss"] - 1e-12 and loss > eps
    # in 2-D the same event gives at most ε + the unpaid selection: no witness
    assert not coursework_witness(eps, T, 2)["exceeds"]
    # at T = 1 the released histogram is A₀ after `passes` MW steps of one box and one measurement: the box's mass
    # grows strictly with the measurement, so the histogram determines it
    mask = Q.masks(np.array([sep[0]]))[0].ravel().astype(float)
    n = B.sum()
    got = []
    for m in (10.0, 11.0, 15.0):
        A = np.full(B.size, n / B.size)
        for _ in range(3):
            A = multiplicative_weights_step(A, mask, m, n)
        got.append(float(A @ mask))
    assert got[0] < got[1] < got[2]


def test_spent_claims_state_the_accounted_total():
    for variant, ndim, total in (
        ("standard", 2, 1.0),
        ("coursework", 1, 0.5 + 0.5e-5),
        ("coursework", 2, 1.0 + 0.5e-5),
        ("coursework", 3, 1.5 + 0.5e-5),
    ):
        c = spent_claim(1.0, 200, variant, ndim)
        acc = privacy_accounting(1.0, 200, variant, ndim)
        assert c.private and c.epsilon == pytest.approx(total, rel=1e-12)
        assert c.epsilon == acc["selection_epsilon"] + acc["measurement_epsilon"]
        assert c.conditions == privacy_claim(1.0, 200, variant, ndim).conditions
    # the 2-D excess is visible in the rendered guarantee, not rounded away
    assert "1.000005-DP" in spent_claim(1.0, 200, "coursework", 2).statement()
    assert "3.00001-DP" in spent_claim(2.0, 10, "coursework", 3).statement()
    acc = privacy_accounting(2.0, 10, "coursework", 3)
    assert acc["measurement_epsilon"] == pytest.approx(3.0)
    assert acc["selection_epsilon"] == pytest.approx(1e-5)


# ------------------------------------------------------------------------------------------ reproducibility
def test_sweep_cells_equal_single_runs_and_do_not_depend_on_n_jobs():
    hist = report_histogram(2)
    Q = random_range_queries(hist.shape, 40, make_rng(0))
    kw = dict(variants=["coursework", "standard"], passes=3, reps=4, seed=12)
    a = mwem_sweep(hist, Q, [0.5, 5.0], 8, **kw)
    b = mwem_sweep(hist, Q, [0.5, 5.0], 8, n_jobs=2, **kw)
    pd.testing.assert_frame_equal(a.runs, b.runs, check_exact=True)
    seeds = child_seeds(12, 4)
    single = mwem(hist, Q, 5.0, 8, variant="standard", passes=3, reps=4, rng=make_rng(seeds[3]))
    np.testing.assert_allclose(a.results[("standard", 5.0)].synthetic, single.synthetic, rtol=1e-12)
    single_c = mwem(hist, Q, 0.5, 8, variant="coursework", passes=3, reps=4, rng=make_rng(seeds[0]))
    np.testing.assert_array_equal(a.results[("coursework", 0.5)].selected, single_c.selected)
    np.testing.assert_allclose(a.results[("coursework", 0.5)].last, single_c.last, rtol=1e-12)


def test_variant_reps_keep_the_other_cells_and_do_not_depend_on_n_jobs():
    """``variant_reps`` runs the variants it names at their own number of repetitions; every other cell is the
    plain sweep's, bit for bit, and the table is the same whatever ``n_jobs`` (rows in the grid's order)."""
    hist = report_histogram(2)
    Q = random_range_queries(hist.shape, 40, make_rng(0))
    kw = dict(variants=["standard", "coursework", "zcdp"], delta=1e-6, passes=3, reps=5, seed=7)
    plain = mwem_sweep(hist, Q, [0.5, 5.0], 6, **kw)
    few = {"standard": 2, "zcdp": 3}
    a = mwem_sweep(hist, Q, [0.5, 5.0], 6, variant_reps=few, **kw)
    b = mwem_sweep(hist, Q, [0.5, 5.0], 6, variant_reps=few, n_jobs=2, **kw)
    pd.testing.assert_frame_equal(a.runs, b.runs, check_exact=True)
    assert a.runs.groupby("variant", sort=False).size().to_dict() == {
        "standard": 4,
        "coursework": 10,
        "zcdp": 6,
    }
    cw = a.runs[a.runs.variant == "coursework"].reset_index(drop=True)
    pd.testing.assert_frame_equal(
        cw, plain.runs[plain.runs.variant == "coursework"].reset_index(drop=True), check_exact=True
    )
    seeds = child_seeds(7, 6)
    single = mwem(hist, Q, 5.0, 6, variant="standard", passes=3, reps=2, rng=make_rng(seeds[1]))
    np.testing.assert_allclose(a.results[("standard", 5.0)].synthetic, single.synthetic, rtol=1e-12)
    with pytest.raises(ValueError, match="variant_reps"):
        mwem_sweep(hist, Q, [0.5], 6, variant_reps={"paper": 2}, **kw)


# ------------------------------------------------------------------------------------------ data and tables
def test_report_data_is_consistent():
    h1, h2 = report_histogram(1), report_histogram(2)
    assert h1.shape == (14,) and h2.shape == (14, 4)
    np.testing.assert_array_equal(h2.sum(axis=1), h1)
    assert h1.sum() == 1013184
    Q = report_queries_1d()
    assert Q.m == 60 and len(set(Q.ranges())) == 60
    for dim in (1, 2):
        for table in (reference_errors(dim), report_errors(dim)):
            assert list(table.epsilon) == [0.1, 1.0, 5.0, 10.0]
            assert list(table.columns) == ["epsilon", "max_error", "min_error", "mse", "mean_error"]


def test_compare_with_reference_and_bootstrap(rng):
    runs = pd.DataFrame(
        {
            "variant": "coursework",
            "epsilon": 1.0,
            "rep": np.arange(200),
            "max_error": rng.normal(10, 1, 200),
            "min_error": rng.normal(1, 0.1, 200),
            "mse": rng.normal(100, 5, 200),
            "mean_error": rng.normal(5, 0.5, 200),
        }
    )
    ref = pd.DataFrame(
        {
            "epsilon": [1.0],
            "max_error": [10.0],
            "min_error": [2.0],
            "mse": [100.0],
            "mean_error": [5.5],
        }
    )
    cmp = compare_with_reference(runs, ref, make_rng(1)).set_index("metric")
    assert cmp.loc["max_error", "inside_ci"] and cmp.loc["mse", "reproduced"]
    assert not cmp.loc["min_error", "reproduced"]  # 1 vs 2: outside the interval and 50 % off
    assert not cmp.loc["mean_error", "inside_ci"] and cmp.loc["mean_error", "within_tolerance"]
    s = summarize_runs(runs)
    assert s.loc[0, "reps"] == 200
    lo, hi = bootstrap_mean_ci(runs["mean_error"].to_numpy(), make_rng(2))
    assert lo < runs["mean_error"].mean() < hi


# ------------------------------------------------------------------------------------------ validation
@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"epsilon": 0.0}, "epsilon"),
        ({"epsilon": float("nan")}, "epsilon"),
        ({"T": 0}, "T must be >= 1"),
        ({"T": 61, "variant": "coursework"}, "T must be <= the number of queries"),
        ({"variant": "paper"}, "variant must be one of"),
        ({"passes": 0}, "passes must be >= 1"),
        ({"reps": 1.5}, "reps must be an integer"),
        ({"hist": -np.ones(14)}, "hist must hold non-negative"),
        ({"hist": np.ones(13)}, "hist must have the workload's shape"),
        ({"queries": [(0, 1)]}, "queries must be a RangeQueries"),
        ({"rng": 3}, "rng must be a numpy.random.Generator"),
    ],
)
def test_mwem_input_validation(kwargs, match):
    args = {"hist": report_histogram(1), "queries": report_queries_1d(), "epsilon": 1.0, "T": 5}
    args.update(kwargs)
    rng = args.pop("rng", make_rng(0))
    with pytest.raises(ValueError, match=match):
        mwem(
            args.pop("hist"),
            args.pop("queries"),
            args.pop("epsilon"),
            args.pop("T"),
            rng=rng,
            **args,
        )


def test_validation():
    with pytest.raises(ValueError, match="exclude must leave"):
        selection_probabilities([1.0, 2.0], 1.0, exclude=[True, True])
    with pytest.raises(ValueError, match="epsilons"):
        mwem_sweep(report_histogram(1), report_queries_1d(), [1.0, -1.0], 5, seed=0)
    with pytest.raises(ValueError, match="neighbours"):
        identity_histogram(np.ones(3), 1.0, make_rng(0), neighbours="local")


def test_compare_with_reference_without_a_common_epsilon(rng):
    """Epsilons the reference does not list: an empty table that keeps its columns (the chapter merges on them)."""
    runs = pd.DataFrame(
        {
            "variant": "coursework",
            "epsilon": 0.5,
            "rep": np.arange(5),
            **{m: rng.normal(5, 1, 5) for m in ("max_error", "min_error", "mse", "mean_error")},
        }
    )
    cmp = compare_with_reference(runs, reference_errors(1), make_rng(1), n_boot=100)
    assert cmp.empty and {"epsilon", "metric", "reproduced", "z_two_sample"} <= set(cmp.columns)
    report = report_errors(1).melt(id_vars="epsilon", var_name="metric", value_name="report")
    assert cmp.merge(report, on=["epsilon", "metric"]).empty


def test_guarantee_keeps_the_digits_that_matter():
    from dpcompendium import PrivacyClaim

    def g(eps):
        return PrivacyClaim("m", "replace-one", "1", eps).guarantee

    assert (
        g(1.0 + 5e-6) == "1.000005-DP" and g(0.5 + 5e-6) == "0.500005-DP"
    )  # not rounded to a round number
    assert g(13 / 6) == "2.167-DP" and g(1.0 + 2**-49) == "1-DP" and g(0.75) == "0.75-DP"


@pytest.mark.numerics
@pytest.mark.parametrize(
    "rows, cols, cuts", [(9, 5, 0), (256, 13, 3), (256, 256, 20), (1000, 7, 1), (4096, 3, 2)]
)
def test_row_sums_are_numpys_axis0_reduceat_bit_for_bit(rows, cols, cuts, rng):
    """The atoms' row masses (core._row_sums, compiled, issue 50) are ``np.add.reduceat(x, idx, axis=0)`` bit for
    bit: numpy's pairwise summation down each column, blocks of 128 rows and their splits included (segments of 1 to
    4095 rows), on values spread over many orders of magnitude (where the order of additions shows)."""
    chains = 3
    x = rng.random((chains * rows, cols)) * np.exp(
        rng.normal(0.0, 20.0, size=(chains * rows, cols))
    )
    idx = np.concatenate(
        [
            c * rows + np.unique(np.concatenate([[0], rng.integers(1, rows, size=cuts)]))
            for c in range(chains)
        ]
    )
    np.testing.assert_array_equal(core._row_sums()(x, idx), np.add.reduceat(x, idx, axis=0))


@pytest.mark.parametrize("shape", [(7,), (5, 3), (3, 2, 4)])
def test_compiled_replay_matches_the_numpy_reference_to_rounding(shape, rng):
    """The numba replay (every MWEM run) performs the reference's arithmetic in the reference's order; the one
    operation whose bits depend on the machine is expm1: numpy's SIMD kernel (AVX-512 here, another on other CPUs)
    in the reference, libm's in the compiled loop, at most LIBM_ULPS ulp apart (book/reproducibility.md). So the two
    agree to a relative tolerance derived from that (and are often bit-identical: with numpy's AVX-512 dispatch off,
    both call libm); the CSR cells of every query are exactly its indicator; a step is the MW update of the paper."""
    hist = rng.integers(0, 50, size=shape).astype(float)
    queries = random_range_queries(shape, 9, rng)
    n, t, C = hist.sum(), 6, 5
    offsets, members = core._box_members(queries)
    masks_all = queries.masks().reshape(queries.m, -1)
    for k in range(queries.m):  # the CSR cells are the query's indicator (integers: exact)
        np.testing.assert_array_equal(
            members[offsets[k] : offsets[k + 1]], np.flatnonzero(masks_all[k])
        )
    qpos = rng.integers(0, queries.m, size=(C, t))  # chain-major, as _run_batch keeps them
    meas = queries.answer(hist)[qpos] + rng.laplace(0.0, 30.0, size=(C, t))
    A = rng.uniform(0.5, 2.0, size=(C, hist.size))
    A *= (n / A.sum(axis=1))[:, None]
    ref, fast = A.copy(), A.copy()
    args = (offsets, members, qpos, meas, t, n, 1.0 / (2.0 * n))
    core._replay_pass_py(ref, *args)
    core._replay_pass()(fast, *args)
    assert not np.array_equal(ref, A)
    # Tolerance: a step's expm1 may differ by LIBM_ULPS ulp, perturbing the box's factor 1 + g = e^x relatively by
    # at most that much; a relative perturbation δ of A moves q_j(A) by δ (a sum of positive cells in the same
    # order), x = (m − q)/(2n) by ≤ δ/2 (q ≤ n) and s = n/(n + g·q) by ≤ δ·(1 + |g|): a gain of at most 3 per step.
    # After t steps δ ≤ LIBM_ULPS·u·3^t, doubled by the final rescaling to total n (t = 6: 1.3e-12; a wrong update
    # is off by > 1e-3; the difference seen between AVX-512 and libm is 2.3e-16).
    rtol = 2 * LIBM_ULPS * np.finfo(float).eps * 3.0**t
    np.testing.assert_allclose(fast, ref, rtol=rtol, atol=0)
    # one step by hand: A(x) ∝ A(x)·exp(q(x)(m − q(A))/(2n)) with q(x) the query's indicator
    one = A.copy()
    core._replay_pass_py(one, offsets, members, qpos[:, :1], meas[:, :1], 1, n, 1.0 / (2.0 * n))
    masks = queries.masks(qpos[:, 0]).reshape(C, -1)
    expect = A * np.exp(masks * (meas[:, 0] - (A * masks).sum(axis=1))[:, None] / (2.0 * n))
    np.testing.assert_allclose(one, expect * (n / expect.sum(axis=1))[:, None], rtol=1e-12)


@pytest.mark.numerics
@pytest.mark.parametrize("shape", [(60,), (16, 12), (6, 5, 4)])
@pytest.mark.parametrize("variant", ["standard", "coursework", "zcdp"])
def test_replay_on_atoms_equals_replay_on_cells(shape, variant, rng):
    """On a large domain the replay runs on the atoms of the measured boxes (an iterate is constant on each: A₀ is
    uniform and every step multiplies whole boxes). The atoms of every round's box are exactly its cells, and a
    batch run on atoms selects the same queries (same draws) and returns the iterates of the run on cells up to
    the grouping of the sums. Tolerance: a box sum over ≤ N atoms instead of cells moves it relatively by ≤ N·u;
    each of the passes·Σt sequential steps multiplies a relative perturbation by at most 3 (as in
    test_compiled_replay_matches_the_numpy_reference_to_rounding), doubled by the rescaling: with T = 3 rounds of
    2 passes (12 steps), 2·N·u·3¹² ≤ 3e-8 relative to n; an atom missing from a box moves it by > 1e-3."""
    hist = rng.integers(0, 30, size=shape).astype(float)
    queries = random_range_queries(shape, 25, rng)
    T, passes, reps = 3, 2, 6
    rounds = rng.integers(0, queries.m, size=T)
    cuts, ashape, offsets, members = core._atoms(queries, rounds)
    sizes = np.ones(1, dtype=np.int64)
    for c in cuts:  # atoms' cell counts, C order
        sizes = np.multiply.outer(sizes, np.diff(c)).ravel()
    assert sizes.size == np.prod(ashape)
    masks = queries.masks(rounds).reshape(T, -1)
    for r in range(T):  # each round's atoms tile its box
        atoms = members[offsets[r] : offsets[r + 1]]
        assert sizes[atoms].sum() == masks[r].sum()
        assert len(set(atoms.tolist())) == atoms.size
    cfg = core._config(variant, len(shape))
    dl = 1e-6 if variant == "zcdp" else None

    def run(atoms):
        cells = [(cfg, e, make_rng(k), dl) for k, e in enumerate((0.5, 20.0))]
        return core._run_batch(hist, queries, cells, T, passes, reps, atoms=atoms)

    n = hist.sum()
    rtol = 2 * hist.size * np.finfo(float).eps * 3.0**12
    for on_cells, on_atoms in zip(run(False), run(True), strict=True):
        np.testing.assert_array_equal(on_atoms.selected, on_cells.selected)
        for out in ("last", "average"):
            a, b = on_atoms.output(out), on_cells.output(out)
            np.testing.assert_allclose(a, b, rtol=0, atol=rtol * n)
            assert np.allclose(a.sum(axis=tuple(range(1, a.ndim))), n, rtol=1e-12)
    assert core._use_atoms((65536,), 10) and not core._use_atoms((14, 4), 200)


@pytest.mark.parametrize("shape", [(97,), (13, 17), (1, 40), (40, 1)])
@pytest.mark.parametrize("variant", ["standard", "coursework"])
@pytest.mark.parametrize("T", [1, 2, 6])
def test_batched_atoms_equal_the_chain_by_chain_reference(shape, variant, T, rng, monkeypatch):
    """The atoms of every chain at once (one compiled pass for the cuts and boxes, one ``reduceat`` per axis over
    every chain's cells, the compiled spread back) give the bits of the chain-by-chain reference
    ``_replay_on_atoms_py``: the same integers, each atom's cells summed by the same reduction over the same
    contiguous run, the same division. Exact equality (a wrong cut, atom or sum order fails it)."""
    hist = rng.integers(0, 40, size=shape).astype(float)
    queries = random_range_queries(shape, 30, rng)
    cfg = core._config(variant, len(shape))

    def run(fn):
        monkeypatch.setattr(core, "_replay_on_atoms", fn)
        cells = [(cfg, e, make_rng(k), None) for k, e in enumerate((0.4, 8.0))]
        return core._run_batch(hist, queries, cells, T, 2, 5, atoms=True)

    ref, fast = run(core._replay_on_atoms_py), run(core._replay_on_atoms)
    for a, b in zip(ref, fast, strict=True):
        for name in ("last", "average", "selected", "measurements"):
            np.testing.assert_array_equal(getattr(b, name), getattr(a, name))


@pytest.mark.numerics
@pytest.mark.parametrize("t", [1, 2, 9, 300])
def test_compiled_shuffle_is_the_numpy_reference(t, rng):
    """The coursework variant's per-pass reordering, compiled (a bucket sort of the uniform keys), gives numpy's
    argsort permutation of each column: for short and long rows, keys crowded into one bucket, and the extremes."""
    T, C = t + 3, 7
    cols = np.array([1, 2, 5, 6])
    qpos = rng.integers(0, 50, size=(C, T))  # chain-major, as _run_batch keeps them
    meas, pos = rng.normal(size=(C, T)), np.tile(np.arange(T), (C, 1))
    keys = rng.random((cols.size, t))
    keys[1] = 0.5 + keys[1] / (4 * t)  # all in one or two buckets: the insertion sort does the work
    keys[2, 0] = np.nextafter(1.0, 0.0)  # the largest key rng.random can draw, and the smallest
    keys[2, -1] = 0.0
    ref = [a.copy() for a in (qpos, meas, pos)]
    fast = [a.copy() for a in (qpos, meas, pos)]
    core._shuffle_rows_py(keys, cols, *ref)
    core._shuffle_rows()(keys, cols, *fast)
    for a, b, orig in zip(fast, ref, (qpos, meas, pos), strict=True):
        np.testing.assert_array_equal(a, b)
        np.testing.assert_array_equal(
            a[:, t:], orig[:, t:]
        )  # entries after t and other chains untouched
        np.testing.assert_array_equal(a[[0, 3, 4]], orig[[0, 3, 4]])
    assert t == 1 or not np.array_equal(fast[0], qpos)
    np.testing.assert_array_equal(
        np.sort(fast[2][cols, :t], axis=1), pos[cols, :t]
    )  # a permutation


@pytest.mark.parametrize("t", [1, 2, 17])
def test_round_passes_are_the_shuffles_and_replays_pass_by_pass(t, rng):
    """A round's passes in one compiled call, chain by chain (each chain's shuffle then replay, pass after pass),
    give the bits of the per-pass calls of the compiled shuffle and replay over all chains (the reference
    ``_round_passes_py``): histograms, replay orders and measurements exactly equal, shuffled chains or not."""
    shape, C, T, passes = (9, 7), 6, t + 2, 3
    queries = random_range_queries(shape, 30, rng)
    offsets, members = core._box_members(queries)
    n = 500.0
    A = rng.dirichlet(np.ones(queries.size), size=C) * n
    qpos = rng.integers(0, queries.m, size=(C, T))
    meas = rng.normal(50.0, 30.0, size=(C, T))
    pos = np.tile(np.arange(T), (C, 1))
    krow = np.array(
        [-1, 0, -1, 1, 2, -1]
    )  # chains 1, 3, 4 reorder with rows 0, 1, 2 of each pass's keys
    keys = rng.random((passes, 3, t))
    ref = [a.copy() for a in (A, qpos, meas, pos)]
    fast = [a.copy() for a in (A, qpos, meas, pos)]
    for out in (ref, fast):
        fn = core._round_passes_py if out is ref else core._round_passes()
        fn(out[0], offsets, members, *out[1:], keys, krow, t, passes, n, 1.0 / (2.0 * n))
    for a, b in zip(fast, ref, strict=True):
        np.testing.assert_array_equal(a, b)
    assert not np.array_equal(fast[0], A)  # the passes ran
    assert t < 17 or not np.array_equal(fast[1][1], qpos[1])  # a shuffled chain was reordered
    np.testing.assert_array_equal(fast[1][[0, 2, 5]], qpos[[0, 2, 5]])  # the others were not


# ------------------------------------------------------------------------------------------ the zCDP variant
@pytest.mark.parametrize("eps", [0.1, 1.0, 10.0])
@pytest.mark.parametrize("delta", [1e-9, 1e-5])
def test_zcdp_closed_forms_invert_and_compose(eps, delta):
    from dpcompendium.chapters.mwem import zcdp

    rho = zcdp.rho_for(eps, delta)
    assert zcdp.dp_epsilon(rho, delta) == pytest.approx(eps, rel=1e-12)
    par = zcdp.mwem_zcdp_parameters(eps, delta, 30)
    # T selections at eps0 (eps0^2/8 each) and T Gaussian counts (1/(2 sigma^2) each) compose to rho
    assert 30 * par["epsilon0"] ** 2 / 8 + 30 / (2 * par["sigma"] ** 2) == pytest.approx(rho)
    assert par["epsilon"] == pytest.approx(eps, rel=1e-12)
    # at T' = rounds_at_equal_noise(T) the Gaussian sigma equals the pure-DP Laplace standard deviation 2*sqrt(2)*T/eps
    t_eq = zcdp.rounds_at_equal_noise(eps, delta, 30)
    assert math.sqrt(t_eq / rho) == pytest.approx(2 * math.sqrt(2) * 30 / eps)
    # the zCDP conversion is no better than the exact Gaussian profile at one measurement (T = 1, sigma = 1/sqrt(rho))
    from dpcompendium.core.mechanisms.gaussian import gaussian_epsilon

    s1 = zcdp.mwem_zcdp_parameters(eps, delta, 1)["sigma"]
    assert gaussian_epsilon(s1, 1.0, delta) <= zcdp.dp_epsilon(s1**-2 / 2, delta)


def test_zcdp_measurement_noise_is_gaussian_with_the_accounted_sigma():
    hist = report_histogram(1)
    Q = report_queries_1d()
    eps, delta, T, reps = 2.0, 1e-6, 3, 20000
    res = mwem(hist, Q, eps, T, variant="zcdp", delta=delta, passes=1, reps=reps, rng=make_rng(5))
    noise = res.measurements - Q.answer(hist)[res.selected]
    from dpcompendium.chapters.mwem import mwem_zcdp_parameters

    s = mwem_zcdp_parameters(eps, delta, T)["sigma"]
    x = noise.ravel()
    assert abs(np.mean(x**2) - s**2) < mc_tol(2 * s**4, x.size)  # Var(Z^2) = 2 sigma^4
    # fourth moment 3 sigma^4 (Laplace of the same variance: 6 sigma^4); Var(Z^4) = 96 sigma^8
    assert abs(np.mean(x**4) - 3 * s**4) < mc_tol(96 * s**8, x.size)


def test_zcdp_variant_needs_delta_and_states_it():
    hist, Q = report_histogram(1), report_queries_1d()
    with pytest.raises(ValueError, match="delta must be given"):
        mwem(hist, Q, 1.0, 5, variant="zcdp", rng=make_rng(1))
    c = privacy_claim(1.0, 30, "zcdp", 1, delta=1e-7)
    assert c.private and c.delta == 1e-7 and c.epsilon == pytest.approx(1.0)
    assert "(1, 1e-07)-DP" in c.statement() and PUBLIC_DOMAIN in c.conditions
    acc = privacy_accounting(1.0, 30, "zcdp", 1, delta=1e-7)
    assert acc["rho"] == pytest.approx(acc["selection_rho"] + acc["measurement_rho"])


# ------------------------------------------------------------------------------------------ baselines
def test_baseline_runs_use_the_core_mechanisms_with_their_claims():
    from dpcompendium.chapters.mwem import BASELINES, baseline_claim, baseline_runs

    hist, Q = report_histogram(1), report_queries_1d()
    runs = baseline_runs(hist, Q, [1.0, 10.0], reps=400, seed=3, methods=BASELINES)
    assert set(runs.method) == set(BASELINES) and len(runs) == 4 * 2 * 400
    # the same table whatever n_jobs (every (method, ε) cell has its own stream)
    pd.testing.assert_frame_equal(
        baseline_runs(hist, Q, [1.0, 10.0, 5.0], reps=20, seed=4, methods=BASELINES, n_jobs=2),
        baseline_runs(hist, Q, [1.0, 10.0, 5.0], reps=20, seed=4, methods=BASELINES),
    )
    for m in BASELINES:
        c = baseline_claim(m, 1.0)
        assert c.private and c.neighbours == "replace-one" and c.epsilon == 1.0
    # Identity: a query over L cells has error variance 2L(2/eps)^2; its mean square error over the workload
    ident = runs[(runs.method == "Identity") & (runs.epsilon == 1.0)].mse.to_numpy()
    expected = float(np.mean(2 * Q.lengths * (2 / 1.0) ** 2))
    assert abs(ident.mean() - expected) < 5 * ident.std(ddof=1) / math.sqrt(ident.size)


def test_histograms_baselines_run_at_half_epsilon_under_replace_one():
    """HDMM and PrivTree come from the histograms chapter through the method registry (referee 10, M-mwem):
    calibrated under add-remove, they run at ε/2, so that their claim is ε-DP under replace-one as the others'.
    HDMM's mean workload MSE matches its analytic expectation at ε/2 (at ε it would be 4 times smaller)."""
    import importlib

    from dpcompendium.chapters.mwem import (
        ALL_BASELINES,
        BASELINES,
        ONE_D_ONLY,
        baseline_claim,
        baseline_release,
        baseline_runs,
        random_range_queries,
        replace_one_claim,
    )
    from dpcompendium.core.privacy import PrivacyClaim

    assert set(ONE_D_ONLY) == {"HDMM", "PrivTree"} and not set(ONE_D_ONLY) & set(BASELINES)
    assert set(ALL_BASELINES) == set(BASELINES) | set(ONE_D_ONLY)
    for m in ONE_D_ONLY:
        c = baseline_claim(m, 0.8)
        assert c.private and c.neighbours == "replace-one" and c.epsilon == pytest.approx(0.8)
        assert c.delta == 0 and any("0.4" in str(x) for x in c.conditions)
    with pytest.raises(ValueError, match="add-remove"):
        replace_one_claim(PrivacyClaim("x", "replace-one", "1", 1.0))
    with pytest.raises(ValueError, match="add-remove"):
        replace_one_claim(PrivacyClaim("x", "add-remove", "1", 1.0, 1e-6))
    hist = np.random.default_rng(0).poisson(3.0, 256).astype(float)
    Q = random_range_queries(hist.shape, 60, make_rng(1))
    with pytest.raises(ValueError, match="1-D"):
        baseline_release("HDMM", np.ones((4, 4)), Q, 1.0, make_rng(2), reps=2)
    eps = 1.0
    runs = baseline_runs(hist, Q, [eps], reps=400, seed=5, methods=("HDMM", "PrivTree"))
    assert set(runs.method) == {"HDMM", "PrivTree"} and len(runs) == 2 * 400
    hdmm = importlib.import_module("dpcompendium.chapters.histograms.hdmm")
    expected = hdmm.hdmm_expected_mse(Q, eps / 2)
    mse = runs[runs.method == "HDMM"].mse.to_numpy()
    assert abs(mse.mean() - expected) < 5 * mse.std(ddof=1) / math.sqrt(mse.size)


def test_row_names_are_in_the_readers_language():
    """A DPBench row's name is rendered per language (zh review 7, residual English 2): no "standard, last" in
    Chinese, and DAWA's variant named by its Chinese name."""
    from dpcompendium.chapters.mwem import DAWA_NAME, row_label, row_name

    mw = pd.Series({"method": "MWEM standard", "output": "last", "T": 10.0})
    name = row_name(mw)
    assert (
        str(name) == "Standard MWEM, last iterate, T = 10"
        and row_label(mw) == "MWEM standard, last, T = 10"
    )
    assert "标准 MWEM" in name.by_lang["zh_CN"] and "last" not in name.by_lang["zh_CN"]
    dawa = row_name(pd.Series({"method": DAWA_NAME, "output": "estimate", "T": np.nan}))
    assert "partition" not in dawa.by_lang["zh_CN"] and str(dawa) == DAWA_NAME


def test_errors_by_output_and_best_against_baselines():
    from dpcompendium.chapters.mwem import best_against_baselines, coarsen, errors_by_output

    hist, Q = report_histogram(1), report_queries_1d()
    sw = mwem_sweep(
        hist, Q, [1.0], 5, variants=["standard"], reps=3, seed=1, outputs=("last", "average")
    )
    tab = errors_by_output(sw.runs)
    assert set(tab.output) == {"last", "average"} and (tab.reps == 3).all()
    last = tab[tab.output == "last"].mean_error.iloc[0]
    assert last == pytest.approx(sw.runs.mean_error_last.mean())
    base = pd.DataFrame(
        {
            "method": ["Identity", "Hb"],
            "output": "estimate",
            "epsilon": 1.0,
            "mean_error": [2 * last, 3 * last],
        }
    )
    best = best_against_baselines(pd.concat([tab, base], ignore_index=True))
    assert best.best_baseline.iloc[0] == "Identity"
    assert best.ratio.iloc[0] == pytest.approx(min(tab.mean_error) / (2 * last))
    assert coarsen(np.arange(8.0), 2).tolist() == [6.0, 22.0]
    with pytest.raises(ValueError, match="cells must divide"):
        coarsen(np.arange(8.0), 3)


@pytest.mark.parametrize("shape", [(14,), (4096,), (14, 4), (9, 31)])
@pytest.mark.parametrize("lead", [(), (3,), (2, 5)])
def test_compiled_answers_are_the_core_method_bit_for_bit(shape, lead, rng):
    """The engine scores the workload with a compiled loop (core._answer); it must give the bits of
    RangeQueries.answer (the same additions in the same order), also on zeros, sparse and heavy-tailed counts."""
    Q = random_range_queries(shape, 200, rng, distinct=False)
    x = rng.standard_cauchy(lead + shape) * 1e3
    x[..., : shape[0] // 3] = 0.0
    got, want = core._answer(Q, x), Q.answer(x)
    assert got.shape == want.shape == (*lead, Q.m)
    np.testing.assert_array_equal(got.view(np.int64), want.view(np.int64))
    three = random_range_queries((3, 2, 4), 10, rng)
    y = rng.random((2, 3, 2, 4))
    np.testing.assert_array_equal(core._answer(three, y), three.answer(y))  # the core's, d = 3


# ------------------------------------------------------------------------------------------ issue 46, second review
def test_dawa_baseline_is_the_private_noisy_histogram_variant():
    from dpcompendium.chapters.mwem import BASELINES, DAWA_CALIBRATION, DAWA_NAME, baseline_claim

    assert DAWA_CALIBRATION == "noisy-histogram" and DAWA_NAME in BASELINES
    assert "noisy histogram" in DAWA_NAME  # the variant is in every table's name
    c = baseline_claim(DAWA_NAME, 1.0)
    assert c.private and "noisy histogram" in c.mechanism and c.neighbours == "replace-one"
    with pytest.raises(ValueError, match="method"):
        baseline_claim("DAWA", 1.0)


def test_dawa_baseline_runs_the_merge_kernel():
    """Issue 50: the chapter's DAWA partitions with the merge deviation kernel (the core's default stays the Fenwick
    one, for the other chapters); the release is the core's :func:`dawa` with that engine, draw for draw."""
    from dpcompendium.chapters.mwem import DAWA_NAME, baseline_release
    from dpcompendium.chapters.mwem.baselines import DAWA_CALIBRATION, DAWA_ENGINE, NEIGHBOURS
    from dpcompendium.core.mechanisms.dawa import dawa

    assert DAWA_ENGINE == "merge"
    rng = np.random.default_rng(31)
    # 192 cells: the deviations' kernel runs (not the sliding windows of small domains)
    hist = rng.integers(0, 40, size=(16, 12)).astype(float)
    Q = random_range_queries(hist.shape, 30, rng)
    got = baseline_release(DAWA_NAME, hist, Q, 0.5, np.random.default_rng(32), reps=3)
    want = dawa(hist, 0.5, np.random.default_rng(32), workload=Q, calibration=DAWA_CALIBRATION,
                neighbours=NEIGHBOURS, size=3, engine="merge")  # fmt: skip
    np.testing.assert_array_equal(got, want)


def _payoff_frame(mw_last, ident, sd_frac=0.1, reps=5):
    rows = []
    for x, (m, i) in zip((10.0, 100.0, 1000.0), zip(mw_last, ident, strict=True), strict=True):
        common = {"cells": 64, "workload": "random ranges", "scale_epsilon": x, "epsilon": x / 1e4,
                  "T": 10, "reps": reps}  # fmt: skip
        rows.append({**common, "method": "Identity", "output": "estimate", "mean_error": i,
                     "mean_error_sd": sd_frac * i})  # fmt: skip
        rows.append({**common, "method": "MWEM standard", "output": "last", "mean_error": m,
                     "mean_error_sd": sd_frac * m})  # fmt: skip
        rows.append({**common, "method": "MWEM standard", "output": "average", "mean_error": 9 * m,
                     "mean_error_sd": sd_frac * m})  # fmt: skip
    return pd.DataFrame(rows)


def test_payoff_shown_better_tests_every_cell_with_holm():
    from dpcompendium.chapters.mwem import payoff_shown_better

    # lower, not separated (ratio 1.02, the referee's cell), higher: listed per n*eps, not "up to" a maximum
    tab, family = payoff_shown_better(_payoff_frame([50.0, 102.0, 300.0], [100.0, 100.0, 100.0]))
    assert list(tab.outcome) == ["better", "tie", "worse"]
    assert list(tab.scale_epsilon[tab.outcome == "better"]) == [10.0]
    assert all(r.p_adjusted >= r.p_value for r in family) and len(family) == 3
    assert tab.ratio.tolist() == pytest.approx([0.5, 1.02, 3.0])
    # the average of the iterates is tested on its own rows
    avg, _ = payoff_shown_better(_payoff_frame([50.0, 102.0, 300.0], [100.0] * 3), output="average")
    assert avg.ratio.tolist() == pytest.approx([4.5, 9 * 1.02, 27.0])
    # one repetition: no spread, nothing tested
    one, fam1 = payoff_shown_better(_payoff_frame([50.0] * 3, [100.0] * 3, reps=1))
    assert one.empty and fam1 == []
    with pytest.raises(ValueError, match="columns"):
        payoff_shown_better(_payoff_frame([1.0] * 3, [1.0] * 3).drop(columns="mean_error_sd"))


def test_mwem_comparisons_name_their_setting():
    """Referee 7, m-b: the comparisons with the course's reference name their figure (ε and metric), and the pay-off
    grid's its cell (workload, cells, nε), so the design sentence names the noisiest one by where it was made."""
    from dpcompendium.chapters import mwem
    from dpcompendium.core.comparison import design_sentence

    tab, family = mwem.payoff_shown_better(_payoff_frame([50.0, 102.0, 300.0], [100.0] * 3))
    assert [str(r.comparison.setting) for r in family] == [
        f"{w}, {c} cells, nε = {ne:g}"
        for c, w, ne in tab[["cells", "workload", "scale_epsilon"]].itertuples(index=False)
    ]
    rng = np.random.default_rng(2)
    ref = mwem.reference_errors(1)
    runs = pd.DataFrame(
        [
            {"variant": "coursework", "epsilon": e, "rep": r,
             **{m: float(ref.set_index("epsilon").loc[e, m]) * rng.lognormal(0.0, 0.6) for m in mwem.METRICS}}
            for e in (0.1, 1.0) for r in range(20)
        ]
    )  # fmt: skip
    claim = mwem.privacy_claim(1.0, 30, "coursework", 1)
    agr, eq = mwem.reference_agreement(runs, ref, lambda e: claim)
    names = {
        "max_error": "max error",
        "min_error": "min error",
        "mse": "MSE",
        "mean_error": "mean error",
    }
    assert [str(r.comparison.setting) for r in agr.difference] == [
        f"ε = {e:g}, {names[m]}" for e, m in eq[["epsilon", "metric"]].itertuples(index=False)
    ]
    said = design_sentence(agr.difference)
    if "noisiest" in str(said):  # named by its figure, in each language
        assert "ε = " in str(said) and "the course" not in str(said)
        assert "$\\varepsilon$ = " in said.by_lang["zh_CN"]


def test_payoff_bootstrap_t_on_the_grid_runs():
    """Referee round 2, N10: the pay-off grid keeps every repetition (the same table) and its cells are decided by
    bootstrap-t on them, from the rng: the clear cells as Welch decides them, the same seed the same results."""
    from dpcompendium.chapters.mwem import payoff_grid, payoff_shown_better

    h = np.random.default_rng(3).poisson(50.0, 64).astype(float)
    args = dict(n_queries=30, reps=6, seed=11, passes=2)
    tab, runs = payoff_grid(h, (8, 64), (1.0, 1e5), 3, keep_runs=True, **args)
    assert tab.equals(payoff_grid(h, (8, 64), (1.0, 1e5), 3, **args))
    assert len(runs) == len(tab) * 6 and set(runs.output) == {"estimate", "last", "average"}
    sub = runs[(runs.cells == 8) & (runs.scale_epsilon == 1.0) & (runs.output == "last")]
    row = tab[(tab.cells == 8) & (tab.scale_epsilon == 1.0) & (tab.output == "last")].iloc[0]
    assert sub[sub.workload == row.workload].mean_error.mean() == pytest.approx(row.mean_error)
    boot, fam = payoff_shown_better(tab, runs=runs, rng=make_rng(1))
    boot2, _ = payoff_shown_better(tab, runs=runs, rng=make_rng(1))
    welch, _ = payoff_shown_better(tab)
    assert boot.equals(boot2) and all(r.comparison.test == "bootstrap-t" for r in fam)
    assert list(boot.ratio) == pytest.approx(list(welch.ratio))
    clear = (welch.hi < 0.5) | (welch.lo > 2)
    assert (boot.outcome[clear] == welch.outcome[clear]).all()
    with pytest.raises(ValueError, match="together"):
        payoff_shown_better(tab, runs=runs)
    with pytest.raises(ValueError, match="repetitions"):
        payoff_shown_better(tab, runs=runs.iloc[1:], rng=make_rng(1))


@pytest.mark.numerics
def test_replay_steps_with_extreme_factors_are_the_exact_update(rng):
    """The new-user review: MWEM at n·ε = 10 and T ≥ 80 (``dpbench_T_values`` up to 1000 is allowed) drew
    measurements so far from the estimate that 1 + g = e^x underflowed to 0 or overflowed, and the replay divided
    by zero. Such a step now runs on A itself: the compiled kernels equal the numpy reference, every mass stays
    finite and sums to n, and the step is the MW update's exact limit — a measurement far above a box's answer
    moves all the mass into the box (in proportion), one far below empties it, and a box holding all the mass
    keeps it."""
    from dpcompendium.chapters.mwem import payoff_grid

    shape, n_q, C = (12,), 6, 4
    hist = rng.integers(1, 50, size=shape).astype(float)
    queries = random_range_queries(shape, n_q, rng)
    n = hist.sum()
    offsets, members = core._box_members(queries)
    qpos = np.array([[0], [1], [2], [0]])
    box0 = np.zeros(hist.size, bool)
    box0[members[offsets[0] : offsets[1]]] = True
    ans = queries.answer(hist)[qpos[:, 0]]
    meas = (ans + np.array([1e9 * n, -1e9 * n, 0.0, -1e9 * n]))[:, None]
    A = np.tile(hist, (C, 1))
    A[3] = np.where(box0, A[3], 0.0)  # chain 3: all the mass in its box, measured far below
    A[3] *= n / A[3].sum()
    args = (offsets, members, qpos, meas, 1, n, 1.0 / (2.0 * n))
    ref, fast = A.copy(), A.copy()
    core._replay_pass_py(ref, *args)
    core._replay_pass()(fast, *args)
    np.testing.assert_allclose(fast, ref, rtol=1e-12, atol=0)
    assert np.isfinite(ref).all()
    np.testing.assert_allclose(ref.sum(axis=1), n, rtol=1e-12)
    masks = queries.masks(qpos[:, 0]).reshape(C, -1)
    up = A[0] * masks[0]
    np.testing.assert_allclose(ref[0], up * n / up.sum(), rtol=1e-12)  # all the mass into the box
    down = A[1] * (1 - masks[1])
    np.testing.assert_allclose(ref[1], down * n / down.sum(), rtol=1e-12)  # the box emptied
    np.testing.assert_allclose(ref[3], A[3], rtol=1e-12)  # a box with all the mass keeps it
    # the whole grid at the review's scale: finite errors where it crashed
    h = rng.poisson(50.0, 64).astype(float)
    tab = payoff_grid(h, (8, 64), (10.0,), 100, n_queries=5, reps=2, seed=0, passes=2)
    assert np.isfinite(tab.mean_error).all()
