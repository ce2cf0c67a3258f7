"""hiera (referee 13, #1): the tuned-step arms — each method's learning rate η·t^(−lr_power), η chosen from a grid on
held-out users — their step, their tuning (never on the evaluation's users or streams), their place in the SGD's
Holm family and the sentence that says what they show."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from dpcompendium.chapters.hiera import sgd, verdicts
from dpcompendium.chapters.hiera.datasets import synthetic_regression
from dpcompendium.chapters.hiera.hiera import privacy_claim

TUNED = list(sgd.TUNED_METHODS)


def _data(n=4000, d=2, seed=1):
    return synthetic_regression(n, d, np.random.default_rng(seed))


@pytest.mark.parametrize("method", ["pm-l2", "harmony", "privunitg", "none"])
def test_lr_scale_one_is_the_source_step_bit_for_bit(method):
    """η = 1 leaves every path (fused scalar kernel, PrivUnitG, exact) bit-identical to the default settings."""
    x, y = _data()
    a = sgd.ldp_sgd(x, y, method, 0.5, np.random.default_rng(3))
    b = sgd.ldp_sgd(
        x, y, method, 0.5, np.random.default_rng(3), settings=sgd.SGDSettings(lr_scale=1.0)
    )
    assert np.array_equal(a, b)


@pytest.mark.parametrize("method", ["pm-l2", "privunitg"])
def test_lr_scale_multiplies_the_step(method):
    """One iteration (1000 users, one group): β = β0 − η·ĝ with the same draws for every η, so β is affine in η:
    β(1) − β(2) = β(2) − β(3), and not constant (η is used)."""
    x, y = _data(n=1000)
    beta = {
        h: sgd.ldp_sgd(
            x, y, method, 0.5, np.random.default_rng(3), settings=sgd.SGDSettings(lr_scale=h)
        )
        for h in (1.0, 2.0, 3.0)
    }
    assert not np.allclose(beta[1.0], beta[2.0])
    np.testing.assert_allclose(beta[1.0] - beta[2.0], beta[2.0] - beta[3.0], rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("bad", [0, -1.0, float("inf"), float("nan"), True, "1"])
def test_bad_lr_scale_is_refused(bad):
    with pytest.raises(ValueError, match="lr_scale"):
        sgd.SGDSettings(lr_scale=bad)


def test_a_tuned_arm_needs_its_step():
    x, y = _data()
    with pytest.raises(ValueError, match="steps"):
        sgd.sgd_experiment({"s": (x, y)}, [0.5], ["privunitg-tuned"], 1, variants=["corrected"])


@pytest.mark.parametrize("tuned", TUNED)
def test_a_tuned_arm_is_its_method_at_its_step(tuned):
    """Same streams (the cell's first child): the tuned arm at η is the tuned method with lr_scale = η."""
    x, y = _data()
    a = sgd.sgd_experiment(
        {"s": (x, y)}, [0.5], [tuned], 7, variants=["corrected"], reps=2, steps={tuned: 0.5}
    )
    b = sgd.sgd_experiment(
        {"s": (x, y)},
        [0.5],
        [sgd.TUNED_METHODS[tuned]],
        7,
        variants=["corrected"],
        reps=2,
        settings=sgd.SGDSettings(lr_scale=0.5),
    )
    am, bm = a[a["method"] == tuned], b[b["method"] == sgd.TUNED_METHODS[tuned]]
    assert len(am) == 2
    assert np.array_equal(am["mse"].to_numpy(), bm["mse"].to_numpy())


def test_step_split_halves_are_disjoint_and_cover():
    tune, ev = sgd.step_split(1001, np.random.default_rng(0))
    assert tune.size == 500 and ev.size == 501
    assert np.intersect1d(tune, ev).size == 0
    assert np.array_equal(np.union1d(tune, ev), np.arange(1001))
    assert np.all(np.diff(tune) > 0) and np.all(np.diff(ev) > 0)


def test_tune_steps_compares_the_grid_on_common_draws_and_takes_the_smallest():
    """The same η twice gives the same MSE (every η of a method starts from the same stream); a step 64 times the
    source's diverges and is never chosen, even listed first (ties would take the first)."""
    x, y = _data()
    _, same = sgd.tune_steps(x, y, TUNED, 0.5, np.random.SeedSequence(2), grid=(0.5, 0.5))
    for m in TUNED:
        v = same[same["method"] == m]["mse"].to_numpy()
        assert v[0] == v[1]
    chosen, table = sgd.tune_steps(x, y, TUNED, 0.5, np.random.SeedSequence(2), grid=(64.0, 0.5))
    for m in TUNED:
        t = table[table["method"] == m]
        assert chosen[m] == 0.5
        assert chosen[m] == float(t["step"].to_numpy()[np.argmin(t["mse"].to_numpy())])
        assert t["chosen"].sum() == 1
    with pytest.raises(ValueError, match="methods"):
        sgd.tune_steps(x, y, ["privunitg"], 0.5, np.random.SeedSequence(2))
    with pytest.raises(ValueError, match="grid"):
        sgd.tune_steps(x, y, TUNED, 0.5, np.random.SeedSequence(2), grid=(0.5, -1.0))


def _split_of(seed: int, n: int):
    """The (tuning, evaluation) rows tuned_experiment draws for its first dataset from SeedSequence(seed)."""
    split_seq = np.random.SeedSequence(seed).spawn(1)[0].spawn(3)[0]
    return sgd.step_split(n, np.random.default_rng(split_seq))


def test_the_tuning_never_sees_the_evaluation():
    """Changing every evaluation user's target changes the evaluation's MSEs but neither the steps chosen nor one
    number of the tuning table; and the tuning table is tune_steps on the tuning half with the tuning stream alone
    (no draw of the evaluation's stream comes before it)."""
    x, y = _data(n=6000)
    kw = {"reps": {"s": 2}, "grid": (0.25, 0.5, 1.0)}
    steps, table, runs = sgd.tuned_experiment(
        {"s": (x, y)}, TUNED, 0.5, np.random.SeedSequence(9), **kw
    )
    tune, ev = _split_of(9, y.size)
    y2 = y.copy()
    y2[ev] = np.random.default_rng(5).uniform(-1, 1, ev.size)
    steps2, table2, runs2 = sgd.tuned_experiment(
        {"s": (x, y2)}, TUNED, 0.5, np.random.SeedSequence(9), **kw
    )
    assert steps2 == steps
    pd.testing.assert_frame_equal(table2, table)
    assert not np.array_equal(runs2["mse"].to_numpy(), runs["mse"].to_numpy())
    tune_seq = np.random.SeedSequence(9).spawn(1)[0].spawn(3)[1]
    direct, dtable = sgd.tune_steps(x[tune], y[tune], TUNED, 0.5, tune_seq, grid=kw["grid"])
    assert direct == steps["s"]
    pd.testing.assert_frame_equal(dtable, table.drop(columns="dataset"))
    assert set(runs["method"]) == set(TUNED) and (runs.groupby("method").size() == 2).all()


def _runs(values: dict[str, list[float]], dataset="synthetic", eps=0.25) -> pd.DataFrame:
    rows = [
        {
            "dataset": dataset,
            "method": m,
            "variant": "corrected",
            "epsilon": eps,
            "folds": 5,
            "rep": r,
            "mse": v,
        }
        for m, vs in values.items()
        for r, v in enumerate(vs)
    ]
    return pd.DataFrame(rows)


def test_the_tuned_comparisons_join_the_family_and_are_said():
    """PrivUnitG's tuned arm clearly lower than both scalar tuned arms: two comparisons in the SGD family, both
    "better"; the sentence names the steps and, when a step sits at an end of the grid, says so (both languages)."""
    rng = np.random.default_rng(0)
    runs = _runs(
        {
            "privunitg-tuned": list(0.05 * (1 + 0.05 * rng.standard_normal(8))),
            "harmony-l2-tuned": list(0.3 * (1 + 0.05 * rng.standard_normal(8))),
            "pm-l2-tuned": list(0.35 * (1 + 0.05 * rng.standard_normal(8))),
        }
    )
    tests = verdicts.sgd_comparisons(runs)
    tuned = tests[tests["a"] == "privunitg-tuned"]
    assert sorted(tuned["b"]) == ["harmony-l2-tuned", "pm-l2-tuned"]
    assert (tuned["outcome"] == "better").all()
    text = verdicts.tuned_separation(tests)
    assert "all 2 comparisons" in text and "全部 2 个" in text.in_language("zh_CN")
    assert verdicts.tuned_separation(tests.iloc[:0]) == verdicts.tuned_separation(
        verdicts.sgd_comparisons(_runs({"privunitg": [0.1, 0.2]}))
    )


def test_the_chosen_steps_are_named_and_a_grid_end_is_flagged():
    steps = {"synthetic": {"privunitg-tuned": 0.5, "harmony-l2-tuned": 0.25, "pm-l2-tuned": 0.125}}
    text = verdicts.tuned_choice(steps, (0.125, 0.25, 0.5, 1.0, 2.0))
    for v in ("0.5", "0.25", "0.125"):
        assert v in text and v in text.in_language("zh_CN")
    assert "end of the grid" in text and "网格端点" in text.in_language("zh_CN")
    inner = verdicts.tuned_choice(steps, (0.0625, 0.25, 0.5, 1.0))
    assert "end of the grid" not in inner and "网格端点" not in inner.in_language("zh_CN")
    assert verdicts.tuned_choice({}, (0.5, 1.0)) == verdicts.tuned_choice(
        {"d": {"privunitg-tuned": 1.0}}
    )


@pytest.mark.parametrize("tuned", TUNED)
def test_a_tuned_arm_carries_its_methods_claim(tuned):
    """The step is the collector's processing: the tuned arm's claim is the tuned method's (same ε, neighbours)."""
    a = verdicts.arm_claim(tuned, 0.25, "sgd")
    b = privacy_claim(sgd.TUNED_METHODS[tuned], 0.25)
    assert a.epsilon == b.epsilon and a.neighbours == b.neighbours
    assert privacy_claim(tuned, 0.25).epsilon == b.epsilon


def test_a_diverged_step_is_never_chosen(monkeypatch):
    """A step whose SGD diverges (non-finite MSE) loses to any finite one, even listed first."""
    real = sgd._kfold_mse_reps

    def fake(xa, ya, method, eps, rng, folds, faithful, faithful_eval, settings, reps):
        out = real(xa, ya, method, eps, rng, folds, faithful, faithful_eval, settings, reps)
        return np.full_like(out, np.nan) if settings.lr_scale > 1 else out

    monkeypatch.setattr(sgd, "_kfold_mse_reps", fake)
    x, y = _data()
    chosen, _ = sgd.tune_steps(x, y, TUNED, 0.5, np.random.SeedSequence(2), grid=(4.0, 0.5))
    assert set(chosen.values()) == {0.5}
