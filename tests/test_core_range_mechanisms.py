"""Range-query mechanisms of the core (Identity, least squares, Hb, Privelet, DAWA): closed forms, reference
definitions and the compiled kernels against their numpy references."""

from __future__ import annotations

import math

import numpy as np
import pytest

from dpcompendium.core.experiments import RangeQueries
from dpcompendium.core.mechanisms import dawa as dw
from dpcompendium.core.mechanisms import ranges as rm


def _all_ranges(n: int) -> RangeQueries:
    return RangeQueries.from_ranges(n, [(i, j) for i in range(n) for j in range(i, n)])


def _mc_check(mse: np.ndarray, expected: float, z: float = 5.0) -> None:
    """The mean of per-release MSEs within z standard errors (estimated from the sample) of its expectation."""
    se = mse.std(ddof=1) / math.sqrt(mse.size)
    assert abs(mse.mean() - expected) < z * se, (mse.mean(), expected, se)


def _mse(workload: RangeQueries, x: np.ndarray, est: np.ndarray) -> np.ndarray:
    return np.mean((workload.answer(est) - workload.answer(x)) ** 2, axis=-1)


# ---------------------------------------------------------------------------------------------- Identity
@pytest.mark.parametrize("neighbours", ["add-remove", "replace-one"])
def test_identity_expected_mse(neighbours):
    x = np.arange(12.0)
    w = _all_ranges(12)
    eps = 0.7
    est = rm.identity(x, eps, np.random.default_rng(1), neighbours=neighbours, size=4000)
    f = rm.neighbour_factor(neighbours)
    _mc_check(_mse(w, x, est), 2 * (f / eps) ** 2 * float(np.mean(w.lengths)))
    assert est.shape == (4000, 12)
    assert rm.identity(x, eps, np.random.default_rng(1)).shape == (12,)


# ---------------------------------------------------------------------------------------------- Hb
def _tree_matrix_1d(n_pad: int, b: int) -> np.ndarray:
    """The tree's query matrix, rows leaves first then level by level up to the root (hb_inference's order)."""
    rows, width = [], 1
    while width <= n_pad:
        for s in range(0, n_pad, width):
            r = np.zeros(n_pad)
            r[s : s + width] = 1
            rows.append(r)
        width *= b
    return np.array(rows)


@pytest.mark.parametrize(("n_pad", "b"), [(8, 2), (9, 3), (16, 4), (16, 16)])
def test_hb_inference_is_least_squares(n_pad, b):
    a = _tree_matrix_1d(n_pad, b)
    y = np.random.default_rng(2).normal(size=a.shape[0])
    levels, pos = [], 0
    width = n_pad
    while width >= 1:
        levels.append(y[pos : pos + width][None, :])
        pos += width
        width //= b
    got = rm.hb_inference(levels, b)[0]
    want = np.linalg.lstsq(a, y, rcond=None)[0]
    np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-10)


def test_hb_branching_follows_qardaji():
    assert rm.hb_branching(4096) == 16  # Qardaji et al.'s b ≈ 16 for large 1-D domains
    for n in (10, 100, 1000):
        cost = {
            b: (b - 1) * rm.hb_height(n, b) ** 3 - 2 * (b + 1) * rm.hb_height(n, b) ** 2 / 3
            for b in range(2, n + 1)
        }
        assert rm.hb_branching(n) == min(cost, key=lambda b: (cost[b], b))


@pytest.mark.parametrize(("shape", "b"), [((13,), 2), ((10,), 3), ((5, 3), 2)])
def test_hb_expected_mse_matches_closed_form(shape, b):
    """MC workload MSE against 2b²‖W A⁺‖²/m, A the tree's boxes on the padded grid (cropped)."""
    x = np.random.default_rng(3).integers(0, 9, size=shape).astype(float)
    w = RangeQueries.from_ranges(
        shape, [tuple((0, n - 1) for n in shape), tuple((n // 3, n - 1) for n in shape)]
    )
    eps = 1.3
    h = rm.hb_height(max(shape), b)
    side = b**h
    pad_shape = (side,) * len(shape)
    tree = rm.hb_strategy(pad_shape, b)
    a_pinv = np.linalg.pinv(tree.matrix())
    w_pad = RangeQueries(pad_shape, w.lo, w.hi)
    expected = rm.linear_expected_mse(w_pad, a_pinv, (h + 1) / eps)
    est = rm.hb(x, eps, np.random.default_rng(4), branching=b, size=6000)
    _mc_check(_mse(w, x, est), expected)


def test_hb_is_exact_without_noise():
    x = np.random.default_rng(5).integers(0, 9, size=(7, 4)).astype(float)
    np.testing.assert_allclose(rm.hb(x, 1e12, np.random.default_rng(0)), x, atol=1e-6)


# ---------------------------------------------------------------------------------------------- Privelet
def test_haar_round_trip_and_sensitivity():
    v = np.random.default_rng(6).normal(size=(3, 32))
    np.testing.assert_allclose(rm.haar_inverse(rm.haar_forward(v)), v, atol=1e-12)
    e = np.zeros(32)
    e[11] = 1
    coef = rm.haar_forward(e)
    assert np.abs(coef).sum() == 6 and set(np.abs(coef[coef != 0])) == {
        1.0
    }  # m + 1 = 6 coefficients of ±1


def test_privelet_cell_variance_closed_form():
    n, eps = 16, 0.8
    m = 4
    b = rm.privelet_scale((n,), eps)
    assert b == (m + 1) / eps
    expected = 2 * b**2 * (4.0**-m + sum(4.0**-j for j in range(1, m + 1)))
    x = np.zeros(n)
    est = rm.privelet(x, eps, np.random.default_rng(7), size=20000)
    var = est.var(axis=0, ddof=1)
    # the sample variance of Laplace-sum noise: relative sd ≈ sqrt((κ − 1)/R), κ ≤ 6 (Laplace kurtosis)
    assert np.all(np.abs(var / expected - 1) < 5 * math.sqrt(5 / 20000))


def test_privelet_2d_exact_without_noise_and_scale():
    x = np.random.default_rng(8).integers(0, 9, size=(5, 6)).astype(float)
    np.testing.assert_allclose(rm.privelet(x, 1e12, np.random.default_rng(0)), x, atol=1e-6)
    assert rm.privelet_scale((5, 6), 1.0) == 4 * 4  # (⌈log₂5⌉ + 1)(⌈log₂6⌉ + 1)
    assert rm.privelet_scale((5, 6), 1.0, "replace-one") == 32


# ---------------------------------------------------------------------------------------------- least squares
def test_least_squares_expected_mse_and_sensitivity():
    n = 10
    strategy = _all_ranges(n)  # 55 queries; cell i is covered by (i + 1)(n − i) of them
    assert rm.least_squares_sensitivity(strategy) == max((i + 1) * (n - i) for i in range(n))
    x = np.random.default_rng(9).integers(0, 20, size=n).astype(float)
    w = RangeQueries.half_open(n, [0, 2, 5], [10, 7, 6])
    eps = 2.0
    b = rm.least_squares_sensitivity(strategy) / eps
    expected = rm.linear_expected_mse(w, np.linalg.pinv(strategy.matrix()), b)
    est = rm.least_squares(x, eps, np.random.default_rng(10), queries=strategy, size=5000)
    _mc_check(_mse(w, x, est), expected)


def test_least_squares_underdetermined_is_min_norm():
    """m < N: the estimate is A⁺y, the same as numpy's pseudo-inverse."""
    strategy = RangeQueries.half_open(9, [0, 3, 2, 0], [4, 9, 6, 9])
    x = np.arange(9.0)
    got = rm.least_squares(x, 1e12, np.random.default_rng(0), queries=strategy)
    want = np.linalg.pinv(strategy.matrix()) @ strategy.answer(x)
    np.testing.assert_allclose(got, want, atol=1e-6)


def test_range_claims():
    c = rm.range_claim("hb", 0.5, "replace-one")
    assert c.private and c.epsilon == 0.5 and c.neighbours == "replace-one"
    with pytest.raises(ValueError, match="method"):
        rm.range_claim("nope", 1.0)
    with pytest.raises(ValueError, match="neighbours"):
        rm.identity(np.ones(3), 1.0, np.random.default_rng(0), neighbours="local")
    with pytest.raises(ValueError, match="x must"):
        rm.hb(-np.ones(3), 1.0, np.random.default_rng(0))


# ---------------------------------------------------------------------------------------------- DAWA
@pytest.mark.parametrize("engine", ["compiled", "merge"])
def test_dawa_deviations_compiled_equals_numpy(engine):
    rng = np.random.default_rng(11)
    for n in (1, 2, 3, 7, 8, 64, 300, 1024, 1500):
        x = rng.integers(0, 30, size=n).astype(float)
        x[rng.random(n) < 0.3] = 0
        # and runs of tied values, which the window means cross back and forth
        ties = np.repeat(rng.integers(0, 3, size=n // 4 + 1), 4)[:n].astype(float)
        for y in (x, ties):
            a = dw.dawa_deviations(y, engine="numpy")
            b = dw.dawa_deviations(y, engine=engine)
            assert np.array_equal(a, b)
        # real values (a noisy histogram): the same up to the rounding of the sums, taken in another order
        z = x + rng.laplace(0.0, 7.0, size=n)
        a = dw.dawa_deviations(z, engine="numpy")
        b = dw.dawa_deviations(z, engine=engine)
        fin = np.isfinite(a)
        assert np.array_equal(fin, np.isfinite(b))
        tol = 1e-13 * (1 + np.abs(z).sum())
        assert np.all(np.abs(a[fin] - b[fin]) <= tol)
    # direct definition on one bucket
    x = np.array([0.0, 4.0, 1.0, 7.0])
    assert dw.dawa_deviations(x, engine=engine)[3, 2] == np.abs(x - x.mean()).sum()
    with pytest.raises(ValueError, match="engine"):
        dw.dawa_deviations(x, engine="fenwick")


@pytest.mark.parametrize("calibration", ["proved", "authors", "noisy-histogram"])
def test_dawa_partition_compiled_equals_numpy(calibration):
    x = np.random.default_rng(12).integers(0, 50, size=200).astype(float)
    for eps in (0.05, 0.5, 5.0):
        a = dw.dawa_partition(
            x, eps, np.random.default_rng(13), size=7, calibration=calibration, engine="numpy"
        )
        b = dw.dawa_partition(x, eps, np.random.default_rng(13), size=7, calibration=calibration)
        assert np.array_equal(a, b)


def test_dawa_noisy_histogram_small_domain_compiled_equals_numpy():
    """The audits' small domains (n <= 64: all repetitions at once) take the compiled partition unless
    ``engine="numpy"``; the same starts, draw for draw."""
    for n in (1, 5, 8, 64):
        x = np.random.default_rng(n).integers(0, 6, size=n).astype(float)
        for eps in (0.1, 2.0):
            kw = dict(size=300, calibration="noisy-histogram", ratio=0.5)
            a = dw.dawa_partition(x, eps, np.random.default_rng(7), engine="numpy", **kw)
            b = dw.dawa_partition(x, eps, np.random.default_rng(7), **kw)
            assert a.shape == (300, n) and np.array_equal(a, b)
            assert a[:, 0].all()  # every partition starts a bucket at cell 0


def _partition_cost(starts: np.ndarray, score: np.ndarray) -> float:
    """The cost of the partition ``starts`` (n,) under ``score`` (n, J): Σ over buckets of score[end, log₂ length]."""
    edges = np.append(np.flatnonzero(starts), starts.size)
    lens = np.diff(edges)
    return float(score[edges[1:] - 1, np.log2(lens).astype(int)].sum())


def test_dawa_merge_engine_finds_a_least_cost_partition_up_to_ties():
    """The merge kernel's partitions (mwem's engine, issue 50) are least-cost partitions under the numpy reference's
    costs: where they differ from the reference's, the two cost the same up to the rounding of the sums (a tie
    broken by the last ulp), never more. Checked on noisy histograms (the ``"noisy-histogram"`` partition's input)
    of dense and sparse counts, and through :func:`dawa_partition`: the same draws, the same noisy histogram."""
    rng = np.random.default_rng(16)
    differ = 0
    for n in (100, 256, 1000):
        for dense in (True, False):
            x = rng.integers(0, 200 if dense else 3, size=n).astype(float)
            for scale in (0.5, 8.0, 80.0):
                z = x + rng.laplace(0.0, scale, size=n)
                corr = scale * dw.noise_deviation(n)[0]
                s_np = dw.dawa_deviations(z, engine="numpy") - corr + 4.0
                s_mg = dw.dawa_deviations(z, engine="merge") - corr + 4.0
                a = dw._partition_numpy(s_np[None])[0]
                b = dw._partition_numpy(s_mg[None])[0]
                ca, cb = _partition_cost(a, s_np), _partition_cost(b, s_np)
                tol = 1e-12 * (n * 4.0 + np.abs(z).sum() + np.abs(corr).sum() * n)
                assert ca <= cb + tol  # the reference's partition is the least-cost one (sanity)
                assert cb <= ca + tol  # the merge kernel's costs as little, up to rounding
                differ += not np.array_equal(a, b)
    assert differ < 12  # ties are the exception, not the rule
    # through dawa_partition: the same noisy histograms (same draws), partitions of the same cost
    x = np.random.default_rng(17).integers(0, 40, size=300).astype(float)
    for eps in (0.05, 0.5, 5.0):
        kw = dict(size=5, calibration="noisy-histogram", neighbours="replace-one")
        a = dw.dawa_partition(x, eps, np.random.default_rng(18), engine="numpy", **kw)
        b = dw.dawa_partition(x, eps, np.random.default_rng(18), engine="merge", **kw)
        eps1, eps2 = dw._split(eps, 0.25)
        scale = dw.neighbour_factor("replace-one") / eps1
        noisy = x[None, :] + np.random.default_rng(18).laplace(0.0, scale, size=(5, 300))
        corr = scale * dw.noise_deviation(300)[0]
        for r in range(5):
            s_np = dw.dawa_deviations(noisy[r], engine="numpy") - corr + 2.0 / eps2
            tol = 1e-12 * (300 * 2.0 / eps2 + np.abs(noisy[r]).sum() + np.abs(corr).sum() * 300)
            assert abs(_partition_cost(a[r], s_np) - _partition_cost(b[r], s_np)) <= tol
    # on integer counts every sum is exact: the merge engine gives DAWA's output bit for bit
    q = RangeQueries.from_ranges(64, [(0, 9), (3, 40), (10, 63)])
    h = np.random.default_rng(19).integers(0, 20, size=64).astype(float)
    for cal in ("proved", "authors"):
        a = dw.dawa(h, 1.0, np.random.default_rng(20), workload=q, calibration=cal, size=4)
        b = dw.dawa(
            h, 1.0, np.random.default_rng(20), workload=q, calibration=cal, size=4, engine="merge"
        )
        assert np.array_equal(a, b)


def test_dawa_partition_finds_the_pieces_of_a_crafted_histogram():
    """Piecewise-constant counts on dyadic pieces at a large ε: merging two pieces costs their deviation (≥ 56
    here) against noise of scale ≈ 4/ε₁, so every piece boundary starts a bucket; inside a piece the deviation is 0
    and only the Δ/ε₂ per bucket and the noise decide. Without noise on the costs (ε → ∞ with the ratio fixed the
    noise stays ∝ Δ/ε₂), the boundaries are found in every repetition."""
    x = np.repeat(
        [100.0, 0.0, 40.0, 47.0, 7.0], [8, 4, 2, 2, 16]
    )  # pieces start at 0, 8, 12, 14, 16
    starts = dw.dawa_partition(x, 1e3, np.random.default_rng(14), size=200)
    assert starts[:, [0, 8, 12, 14, 16]].all()
    # and the exact argmin of the noiseless costs is the pieces themselves (checked with the numpy programme)
    dev = dw.dawa_deviations(x)
    score = np.maximum(dev + 1.0, 1.0)[None]  # noiseless costs, Δ/ε₂ = 1
    want = np.zeros(x.size, dtype=bool)
    want[[0, 8, 12, 14, 16]] = True
    assert np.array_equal(dw._partition_numpy(score)[0], want)


def test_greedy_hierarchy_weights_and_least_squares():
    """Path weights sum to 1 (sensitivity 1), and the two-pass tree estimate equals dense least squares."""
    rng = np.random.default_rng(15)
    n = 11
    w = RangeQueries.from_ranges(n, [(0, 3), (2, 9), (5, 10), (4, 4), (0, 10), (7, 8)])
    starts = np.zeros(n, dtype=bool)
    starts[[0, 2, 3, 7, 9]] = True
    pieces = dw.workload_pieces(w)
    nb, pq, pa, pb, pw = dw._reduce_pieces(pieces, starts)
    tree = dw.greedy_hierarchy(nb, pq, pa, pb, pw)
    lo, hi, weight = tree.lo, tree.hi, tree.weight
    # every bucket's path weights sum to 1
    for bucket in range(nb):
        on_path = (lo <= bucket) & (bucket < hi)
        assert math.isclose(weight[on_path].sum(), 1.0, rel_tol=1e-12)
    # dense least squares over the measured weighted totals
    meas = weight > 0
    a = np.zeros((meas.sum(), nb))
    for row, v in enumerate(np.flatnonzero(meas)):
        a[row, lo[v] : hi[v]] = weight[v]
    y = rng.normal(size=(3, a.shape[0]))
    want = y @ np.linalg.pinv(a).T
    full_y = np.zeros((3, weight.size))
    full_y[:, meas] = y
    got = dw.tree_least_squares(tree, full_y)
    np.testing.assert_allclose(got, want, atol=1e-9)
    # the reduced workload: query (2, 9) covers buckets 1 [2,3), 2 [3,7) fully, 3 [7,9) fully, 4 [9,11) half
    sel = pq == 1
    got_w = sorted(zip(pa[sel], pb[sel], pw[sel], strict=True))
    assert got_w == [(1, 3, 1.0), (4, 4, 0.5)]


@pytest.mark.parametrize("shape", [(40,), (300,), (16, 16), (20, 12)])
def test_greedy_hierarchy_compiled_equals_numpy(shape):
    """The compiled bottom-up pass performs the numpy reference's operations (only a query's partial pieces in one
    node are summed in another order): the same tree, and weights and errors equal to a few ulp, for one tree and
    for a forest of repetitions side by side (as :func:`dawa` builds it)."""
    rng = np.random.default_rng(sum(shape))
    x = rng.integers(0, 20, size=shape).astype(float)
    x[rng.random(shape) < 0.4] = 0
    lo = np.stack([rng.integers(0, k, size=60) for k in shape], axis=1)
    hi = np.stack([rng.integers(lo[:, d], k) for d, k in enumerate(shape)], axis=1)
    w = RangeQueries(shape, lo, hi)
    pieces = dw.workload_pieces(w)
    n, order = pieces[0], pieces[4]
    flat = np.zeros(n)
    flat[order >= 0] = x.ravel()[order[order >= 0]]
    starts = dw.dawa_partition(flat, 1.0, rng, size=3)
    parts = [dw._reduce_pieces(pieces, s) for s in starts]
    offs = np.concatenate([[0], np.cumsum([p[0] for p in parts])])
    forest = (
        int(offs[-1]),
        np.concatenate([p[1] + i * w.m for i, p in enumerate(parts)]),
        np.concatenate([p[2] + offs[i] for i, p in enumerate(parts)]),
        np.concatenate([p[3] + offs[i] for i, p in enumerate(parts)]),
        np.concatenate([p[4] for p in parts]),
    )
    for args, roots in ((parts[0], None), (forest, offs)):
        ref = dw.greedy_hierarchy(*args, roots=roots, engine="numpy")
        got = dw.greedy_hierarchy(*args, roots=roots)
        for f in ("lo", "hi", "depth", "parent", "left"):
            assert np.array_equal(getattr(got, f), getattr(ref, f)), f
        np.testing.assert_allclose(got.weight, ref.weight, rtol=1e-12, atol=0)
        np.testing.assert_allclose(got.err, ref.err, rtol=1e-12, atol=0)
        assert ref.weight.min() < 1.0  # the workload makes the greedy step share weights
        # the compiled least squares is the numpy reference bit for bit (signs of zeros included)
        y = rng.laplace(size=(3, ref.weight.size)) * 5.0 + 20.0 * ref.weight
        a = dw.tree_least_squares(ref, y, engine="numpy")
        b = dw.tree_least_squares(ref, y)
        assert np.array_equal(a, b) and np.array_equal(np.signbit(a), np.signbit(b))
    with pytest.raises(ValueError, match="engine"):
        dw.greedy_hierarchy(*parts[0], engine="x")
    with pytest.raises(ValueError, match="engine"):
        dw.tree_least_squares(ref, y, engine="x")


@pytest.mark.parametrize("shape", [(300,), (16, 16), (20, 12)])
def test_reduce_pieces_forest_equals_the_rows_bit_for_bit(shape):
    """:func:`dawa`'s forest reducer gives every row's pieces and weights bit for bit as the per-row reference
    :func:`_reduce_pieces` laid side by side (queries shifted by r·m, buckets by the rows before), sorted as
    :func:`greedy_hierarchy` sorts them; and the stable combined-key sort there is np.lexsort's order."""
    rng = np.random.default_rng(sum(shape) + 1)
    lo = np.stack([rng.integers(0, k, size=50) for k in shape], axis=1)
    hi = np.stack([rng.integers(lo[:, d], k) for d, k in enumerate(shape)], axis=1)
    w = RangeQueries(shape, lo, hi)
    pieces = dw.workload_pieces(w)
    n = pieces[0]
    starts = rng.random((5, n)) < 0.3
    starts[:, 0] = True
    starts[1, 1:] = False  # a row that is one bucket
    starts[2, :] = True  # a row of single cells
    parts = [dw._reduce_pieces(pieces, s) for s in starts]
    offs = np.concatenate([[0], np.cumsum([p[0] for p in parts])])
    ref = (
        np.concatenate([p[1] + i * w.m for i, p in enumerate(parts)]),
        np.concatenate([p[2] + offs[i] for i, p in enumerate(parts)]),
        np.concatenate([p[3] + offs[i] for i, p in enumerate(parts)]),
        np.concatenate([p[4] for p in parts]),
    )
    got_offs, *got = dw._reduce_pieces_forest(pieces, starts, w.m)
    assert np.array_equal(got_offs, offs)
    key = lambda q, a: np.lexsort((a, q))  # noqa: E731
    o_ref, o_got = key(ref[0], ref[1]), key(got[0], got[1])
    for a, b in zip(ref, got, strict=True):
        assert np.array_equal(a[o_ref], b[o_got])
        assert a.dtype.kind == b.dtype.kind
    nb = int(offs[-1])
    assert np.array_equal(
        np.argsort(ref[0] * (nb + 1) + ref[1], kind="stable"), np.lexsort((ref[1], ref[0]))
    )


def test_dawa_exact_without_noise_and_hilbert():
    x = np.repeat([5.0, 0.0, 9.0], [4, 4, 8])
    w = _all_ranges(16)
    est = dw.dawa(x, 1e9, np.random.default_rng(16), workload=w, size=2)
    np.testing.assert_allclose(est, np.broadcast_to(x, est.shape), atol=1e-5)
    hx, hy = dw.hilbert_order(16)
    assert np.all(np.abs(np.diff(hx)) + np.abs(np.diff(hy)) == 1)
    assert len(set(zip(hx.tolist(), hy.tolist(), strict=True))) == 256
    x2 = np.random.default_rng(17).integers(0, 5, size=(6, 5)).astype(float)
    w2 = RangeQueries.from_ranges((6, 5), [((0, 5), (0, 4)), ((1, 3), (2, 4)), ((4, 4), (0, 1))])
    est2 = dw.dawa(x2, 1e9, np.random.default_rng(18), workload=w2)
    np.testing.assert_allclose(w2.answer(est2), w2.answer(x2), atol=1e-4)


def test_dawa_claims():
    assert dw.dawa_claim(1.0).epsilon == 1.0
    c = dw.dawa_claim(1.0, ratio=0.25, calibration="authors")
    assert not c.private and "clamped" in c.why
    with pytest.raises(ValueError, match="calibration"):
        dw.dawa_claim(1.0, calibration="x")
    with pytest.raises(ValueError, match="ratio"):
        dw.dawa(np.ones(4), 1.0, np.random.default_rng(0), workload=_all_ranges(4), ratio=1.0)


@pytest.mark.parametrize(("n", "m"), [(30, 10), (30, 80), (50, 20), (7, 3), (12, 40)])
def test_prefix_least_squares_is_the_pseudo_inverse(n, m):
    """The sparse interval-graph solver (1-D, large workloads) returns exactly A⁺y, including ranges that start
    at 0 or end at n, repeated ranges and cells no range covers."""
    rng = np.random.default_rng(n * 100 + m)
    lo = rng.integers(0, n, size=m)
    hi = np.minimum(lo + rng.integers(1, n // 2 + 1, size=m), n)
    lo[0], hi[-1] = 0, n
    lo = np.append(lo, lo[1])
    hi = np.append(hi, hi[1])  # a repeated range
    q = RangeQueries.half_open(n, lo, hi)
    y = rng.normal(size=(3, q.m))
    got = rm._prefix_least_squares(q, y)
    want = y @ np.linalg.pinv(q.matrix()).T
    np.testing.assert_allclose(got, want, atol=1e-10)
