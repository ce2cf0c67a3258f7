"""hiera (referee 12, #1): the step-matched arm — Harmony and PM at PrivUnitG's ℓ2 clip with their estimate shrunk
by the public factor s that gives their step PrivUnitG's noise — its factor, its SGD step, its place in the SGD's one
Holm family and the sentences that say what it separates."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from dpcompendium.chapters import hiera
from dpcompendium.chapters.hiera import sgd, verdicts
from dpcompendium.chapters.hiera.datasets import synthetic_regression
from dpcompendium.chapters.hiera.levels import SGD_TEXT_MULTIPLIERS
from dpcompendium.chapters.hiera.numeric import _pm
from dpcompendium.core.mechanisms.privunit import privunitg_params

STEP = ["harmony-l2-step", "pm-l2-step"]


def _one_step(visit, method, beta0, settings, n, rng, eps):
    """β0 minus β after one step over a group of all n users, from β0 (1, 1, d̃)."""
    if method == "privunitg":
        out = sgd._sgd_privunitg(visit, np.array([eps]), beta0.copy(), False, settings, n, rng)
        return (beta0 - out)[0, 0]
    e = np.array([eps])
    runs = sgd._Runs(
        e,
        e[:, None] * np.asarray(SGD_TEXT_MULTIPLIERS),
        settings.edges,
        settings.mu,
        beta0.shape[2],
    )
    c = settings.clip_norm
    scale = np.array([c * sgd.step_factor(method, eps, beta0.shape[2])])
    base = sgd.STEP_METHODS[method]
    out = sgd._sgd_fused(visit, base, runs, beta0.copy(), False, settings, n, rng, c, scale)
    return (beta0 - out)[0, 0]


def test_the_step_arm_has_privunitgs_step_noise():
    """One step of Harmony at PrivUnitG's clip, its estimate shrunk by s (:func:`step_factor`), over a group of all
    n users from the same β: over K independent steps, the moves' variance, pooled over the d̃ coordinates, is
    PrivUnitG's within 4 standard errors of the ratio (each pooled variance has relative standard error
    √(2/(K − 1))/√d̃; the two are independent). Unshrunk (the ℓ2 arm, s = 1) the ratio is 1/s² ≈ 2.9, far outside."""
    n, d, eps, k = 400, 3, 0.25, 600
    x, y = synthetic_regression(n, d, np.random.default_rng(2))
    st = sgd.SGDSettings(clip_norm=0.7, lam=0.1)
    beta0 = np.random.default_rng(3).random((1, 1, d + 1))
    visit = sgd._Visit(x, y, sgd._Split(n), np.random.default_rng(4))
    var = {}
    for m, seed in (("privunitg", 5), ("harmony-l2-step", 6)):
        moves = np.array(
            [
                _one_step(visit, m, beta0, st, n, g, eps)
                for g in np.random.default_rng(seed).spawn(k)
            ]
        )
        var[m] = moves.var(axis=0, ddof=1).mean()
    ratio = var["harmony-l2-step"] / var["privunitg"]
    se = math.sqrt(2.0) * math.sqrt(2.0 / (k - 1)) / math.sqrt(d + 1)
    assert abs(ratio - 1.0) < 4 * se
    s = sgd.step_factor("harmony-l2-step", eps, d + 1)
    assert abs(1.0 / s**2 - 1.0) > 12 * se  # the test can tell the unshrunk arm


def test_the_step_factor_is_the_mechanisms_second_moments():
    """s = √(E‖U/m‖² / (d̃² E[M(0)²])): Harmony's E[M²] is its constant squared; PM's, at input 0, the Monte
    Carlo second moment of :func:`_pm` (within 4 standard errors, carried to s); s < 1 and depends on ε and d̃."""
    eps, dt = 0.5, 7
    var = privunitg_params(eps, dt).variance
    k = (math.exp(eps) + 1.0) / (math.exp(eps) - 1.0)
    assert sgd.step_factor("harmony-l2-step", eps, dt) == pytest.approx(
        math.sqrt(var / (dt * dt * k * k)), rel=1e-12
    )
    n = 400_000
    sq = _pm(np.zeros(n), np.full(n, eps), np.random.default_rng(1).random(n)) ** 2
    m2, se = sq.mean(), sq.std(ddof=1) / math.sqrt(n)
    s = sgd.step_factor("pm-l2-step", eps, dt)
    want = math.sqrt(var / (dt * dt * m2))
    assert abs(s - want) < 4 * want * 0.5 * se / m2  # ds/s = dm2/(2 m2)
    for m in STEP:
        assert 0 < sgd.step_factor(m, 0.25, 11) < sgd.step_factor(m, 0.25, 4) < 1


@pytest.mark.parametrize(
    ("args", "match"),
    [
        (("hiera", 1.0, 4), "method must be one of"),
        (("harmony-l2-step", 0.0, 4), "epsilon"),
        (("pm-l2-step", 1.0, 1), "d_tilde"),
    ],
)
def test_the_step_factor_rejects_bad_input(args, match):
    with pytest.raises(ValueError, match=match):
        sgd.step_factor(*args)


@pytest.mark.parametrize("method", STEP)
def test_the_step_arm_moves_beta_by_s_times_the_l2_arms_move(method):
    """Through :func:`_sgd` (the dispatch the experiment uses), one step of the step arm from the same initial β with
    the same draws moves β by exactly s(ε) times the ℓ2 arm's move, run by run, at two budgets at once (each run
    gets its own ε's factor)."""
    n, d = 300, 3
    x, y = synthetic_regression(n, d, np.random.default_rng(2))
    st = sgd.SGDSettings(clip_norm=0.7)
    eps = np.array([0.25, 2.0])
    visit = sgd._Visit(x, y, sgd._Split(n), np.random.default_rng(4))
    beta0 = np.random.default_rng(7).random((2, 1, d + 1))
    l2 = method.removesuffix("-step")
    moves = {
        m: beta0 - sgd._sgd(visit, m, eps, False, st, n, np.random.default_rng(7))
        for m in (method, l2)
    }
    for e, v in enumerate(eps):
        s = sgd.step_factor(method, float(v), d + 1)
        np.testing.assert_allclose(moves[method][e], s * moves[l2][e], rtol=1e-10, atol=1e-14)
    assert np.all(moves[l2] != 0.0)


def test_the_step_arms_claims_are_the_l2_arms():
    for m in STEP:
        c, l2 = hiera.privacy_claim(m, 0.5), hiera.privacy_claim(m.removesuffix("-step"), 0.5)
        assert c.private and c.epsilon == l2.epsilon == 0.5
        assert str(c.statement()) == str(l2.statement())
        assert verdicts.arm_claim(m, 0.25, "sgd").epsilon == 0.25


def _runs(levels: dict[str, float], n: int = 8, seed: int = 2) -> pd.DataFrame:
    """Paired runs: every method's MSE of repetition r is its level times a shared factor times its own noise (1 %)."""
    rng = np.random.default_rng(seed)
    shared = rng.uniform(0.8, 1.2, n)
    return pd.DataFrame(
        [
            {
                "dataset": d,
                "method": m,
                "variant": "corrected",
                "epsilon": 0.25,
                "rep": r,
                "mse": lvl * shared[r] * rng.uniform(0.99, 1.01),
            }
            for d in ("adult", "synthetic")
            for m, lvl in levels.items()
            for r in range(n)
        ]
    )


def _levels(pu: float, step: float) -> dict[str, float]:
    lv = {"harmony": 1.0, "pm": 1.0, "privunitg-box": 1.5, "harmony-l2": 2.0, "pm-l2": 2.0}
    lv["privunitg"] = pu
    lv["harmony-l2-step"] = lv["pm-l2-step"] = step
    return lv


def test_the_step_pairs_join_the_sgd_family():
    t = verdicts.sgd_comparisons(_runs(_levels(0.3, 0.6)))
    pairs = set(zip(t["a"], t["b"], strict=True))
    assert {
        ("privunitg", "harmony-l2-step"),
        ("privunitg", "pm-l2-step"),
        ("harmony-l2-step", "harmony-l2"),
        ("pm-l2-step", "pm-l2"),
    } <= pairs
    # no HierA arm: its 4 pairs absent; no tuned-step arm (referee 13, #1; its 2 pairs on the l2 clip and 2 on the
    # box, referee 14, H1), no midpoint clip (referee 13, §3: 2 pairs) and no clip 1/2 (referee 14, L3: 1 pair)
    assert len(t) == 2 * len(verdicts.SGD_PAIRS) - 2 * 4 - 2 * 4 - 2 * 2 - 2 * 1


@pytest.mark.parametrize(
    ("pu", "step", "mech", "take"),
    [
        # PrivUnitG lower than the scalar mechanisms at its clip with its signal step (ℓ2 arm) and with its noise
        # matched: the mechanism has a part at the two step sizes tried, no more (referee 13, #1)
        (0.3, 0.6, "the mechanism has a part there", "the mechanism has a part at this step size"),
        # the scalar mechanisms with matched noise as low as PrivUnitG: its advantage is not shown to be the mechanism's
        (0.3, 0.3, "not shown to be the mechanism's", "not shown to be the mechanism's"),
    ],
)
def test_step_separation_says_what_the_tests_show(pu, step, mech, take):
    t = verdicts.sgd_comparisons(_runs(_levels(pu, step)))
    text = str(verdicts.step_separation(t))
    # the verdicts with their spans, then what they show; the tests are the table's caption's (reader review 5, M1)
    assert mech in text and "in all 4 (" in text and "Holm-corrected" not in text
    # no learning rate is tuned per method: never "separated" (referee 13, #1)
    assert "not fully separated" in text and "step size are separated" not in text
    if step > pu:
        take_text = str(verdicts.pu_take(t, 0.25, ["harmony", "pm"]))
        assert "none tuned per method" in take_text or "no step size tuned per method" in take_text
    alone = str(verdicts.step_alone(t))
    # the arm changes their step (signal and noise together), not only their noise (referee 13, #1)
    assert (
        "lowers their MSE in all 4 comparisons" in alone and "times smaller" in alone
    )  # 0.3 or 0.6 against 2
    assert "step noise" not in alone
    summary = str(verdicts.pu_take(t, 0.25, ["harmony", "pm"]))
    assert take in summary and "C = 1" in summary and "sqrt{\\tilde d}" in summary
    # the handicapped ℓ2 arm is not offered as support (referee 12 recheck, #1)
    assert "clip too" not in summary
    clip = str(verdicts.clip_separation(t))
    assert "no arm shrinks" not in clip and "So " not in clip  # the tallies only
    reading = str(verdicts.clip_reading(t, ["harmony", "pm"]))
    assert "not its noise" in reading and "per-coordinate noise too" in reading and "1.5" in reading
    tail = str(verdicts.pu_reading(t, ["harmony", "pm"]))
    assert "its clip with its per-coordinate noise" in tail and "step noise" not in tail


def test_a_part_only_where_privunitg_is_lower_at_both_step_sizes():
    """The ℓ2 arm matches PrivUnitG's signal step, the matched-noise arm its noise: "a part there" needs both
    lower (referee 13, #1). Here the ℓ2 arm (0.2) is below PrivUnitG (0.3), the matched-noise arm (0.6) above."""
    lv = _levels(0.3, 0.6)
    lv["harmony-l2"] = lv["pm-l2"] = 0.2
    text = str(verdicts.step_separation(verdicts.sgd_comparisons(_runs(lv))))
    assert (
        "lower in all 4 comparisons" in text
        and "has a part" not in text
        and "not fully separated" in text
    )


def test_without_the_step_arm_the_sentences_are_the_matched_clips():
    lv = _levels(0.3, 0.6)
    del lv["harmony-l2-step"], lv["pm-l2-step"]
    t = verdicts.sgd_comparisons(_runs(lv))
    assert str(verdicts.step_separation(t)).startswith("not tested")
    assert str(verdicts.step_alone(t)).startswith("not tested")
    assert "no arm shrinks" in str(verdicts.clip_separation(t))
    assert "are not separated" in str(verdicts.clip_reading(t, ["harmony", "pm"]))
    assert "step size are not separated" in str(verdicts.pu_take(t, 0.25, ["harmony", "pm"]))


def _edge_sets() -> list[dict]:
    """Four sets of the SGD's parameters at the ends of their declared ranges (the chapter's contract, the largest
    capped by its fuzz size; ``edge_values``), each end of each parameter in two of them: ε at 0.01 (a group
    larger than the training set: no step at all) and at 10 (the text's rule: groups of one user), d at 1 and at its
    cap, λ at 0 and 1000, the learning rate's power at 0.01 and 4, both group rules, the fewest folds and more."""
    from dpcompendium.book.contract import get_chapter
    from dpcompendium.book.fuzz import edge_values

    e = edge_values(get_chapter("hiera"))
    pick = [(0, 0, 0, 0, 0, 0), (1, 1, 1, 1, 1, 1), (1, 0, 1, 0, 1, 0), (0, 1, 0, 1, 0, 1)]
    names = ("epsilons", "sgd_d", "lam", "lr_power", "group_rule", "folds")
    return [{n: e[n][i] for n, i in zip(names, row, strict=True)} for row in pick]


@pytest.mark.parametrize("edge", _edge_sets(), ids=lambda v: str(v["epsilons"][0]))
def test_the_l2_and_step_arms_run_at_the_parameter_edges(edge):
    """Issue 45: a valid parameter set never crashes. PrivUnitG, the ℓ2 arms and the step arms run at the ends of
    the declared ranges with the fewest users (``sgd_n_users`` 1000) and two repetitions: every MSE is finite and
    every (method, repetition) has its row; the step factor is finite and positive (above 1 for PM at ε = 10, where
    PM's noise is the smaller: the arm then enlarges the estimate)."""
    methods = ["privunitg", "harmony-l2", "pm-l2", *STEP]
    x, y = synthetic_regression(1_000, edge["sgd_d"], np.random.default_rng(1))
    st = sgd.SGDSettings(lam=edge["lam"], lr_power=edge["lr_power"], group_rule=edge["group_rule"])
    runs = sgd.sgd_experiment(
        {"synthetic": (x, y)},
        edge["epsilons"],
        methods,
        3,
        settings=st,
        variants=["corrected"],
        folds=edge["folds"],
        reps=2,
        least_squares=False,
    )
    assert len(runs) == len(methods) * 2
    assert np.isfinite(runs["mse"]).all()
    for m in STEP:
        assert 0 < sgd.step_factor(m, edge["epsilons"][0], edge["sgd_d"] + 1) < math.inf
    t = verdicts.sgd_comparisons(runs)
    assert len(t) == 6 and set(t["outcome"]) <= {"better", "worse", "tie"}
