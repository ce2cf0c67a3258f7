"""hiera (referee 15, H1, H2, H3, L1): the summaries lead with each method at its own clip and tuned step and label the
full-n ratios as at the source's step, with what that step costs Harmony and PM (from the tuning table); a verdict a
summary states that is short of runs carries the flag; the clip-1/2 sentence reads the gain against halving the step;
the claims table states PrivUnitG's claim at every clip."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from test_hiera_tuned_box import ALL, _runs

from dpcompendium.chapters.hiera import sgd, verdicts
from dpcompendium.core.messages import message

NOTEBOOK = Path(__file__).resolve().parents[1] / "notebooks" / "hiera.ipynb"
BOX = ["harmony-tuned", "pm-tuned"]


def _tuning(
    mse: dict[tuple[str, str, float], float], chosen: dict[tuple[str, str], float]
) -> pd.DataFrame:
    """A tuning table (the columns of ``sgd.tuned_experiment``'s): (dataset, method, η) → MSE, the chosen η per
    (dataset, method)."""
    return pd.DataFrame(
        [
            {
                "method": m,
                "step": st,
                "mse": v,
                "mse_se": 0.01,
                "chosen": chosen[d, m] == st,
                "dataset": d,
            }
            for (d, m, st), v in mse.items()
        ]
    )


GRID = (0.25, 0.5, 1.0)
TUNING = _tuning(
    {
        **{("adult", "harmony-tuned", st): v for st, v in zip(GRID, (0.2, 0.3, 0.8), strict=True)},
        **{("adult", "pm-tuned", st): v for st, v in zip(GRID, (0.25, 0.3, 1.0), strict=True)},
        **{
            ("adult", "privunitg-tuned", st): v
            for st, v in zip(GRID, (0.3, 0.2, 0.25), strict=True)
        },
        **{
            ("synthetic", "harmony-tuned", st): v
            for st, v in zip(GRID, (0.04, 0.05, 0.12), strict=True)
        },
    },
    {
        ("adult", "harmony-tuned"): 0.25,
        ("adult", "pm-tuned"): 0.25,
        ("adult", "privunitg-tuned"): 0.5,
        ("synthetic", "harmony-tuned"): 0.25,
    },
)


def test_step_cost_is_the_mse_at_the_step_over_the_tuned_one():
    assert verdicts.step_cost(TUNING, BOX) == pytest.approx([0.8 / 0.2, 1.0 / 0.25, 0.12 / 0.04])
    assert verdicts.step_cost(TUNING, BOX, step=0.5) == pytest.approx([1.5, 1.2, 1.25])
    assert verdicts.step_cost(TUNING, BOX, step=2.0) == []  # a step not tried
    assert verdicts.step_cost(TUNING, ["privunitg-tuned"]) == pytest.approx([1.25])
    with pytest.raises(ValueError, match="tuning"):
        verdicts.step_cost(TUNING.drop(columns="chosen"), BOX)


def test_step_halving_is_the_mse_at_half_over_the_mse_at_one():
    assert verdicts.step_halving(TUNING) == pytest.approx({"adult": 0.2 / 0.25})
    assert verdicts.step_halving(TUNING, "harmony-tuned") == pytest.approx(
        {"adult": 0.3 / 0.8, "synthetic": 0.05 / 0.12}
    )
    assert verdicts.step_halving(TUNING[TUNING["step"] != 0.5]) == {}


def test_the_net_step_cost_divides_by_privunitg_own_cost():
    """Re-check N3: η = 1 costs PrivUnitG too (0.25/0.2 on Adult here), so Harmony's and PM's handicap there is
    their cost over its cost, dataset by dataset; a dataset without PrivUnitG's cost is left out."""
    assert verdicts.net_step_cost(TUNING, BOX) == pytest.approx([4.0 / 1.25, 4.0 / 1.25])
    assert verdicts.net_step_cost(TUNING, BOX, step=0.25) == pytest.approx([1 / 1.5, 1 / 1.5])
    assert verdicts.net_step_cost(TUNING[TUNING["method"] != "privunitg-tuned"], BOX) == []


def test_the_full_n_takeaway_is_labelled_as_at_the_source_step():
    """H1: with the tuning table's cost, the full-n ratios are said to be at the source's step η = 1, with the
    span of Harmony's and PM's cost there net of PrivUnitG's (re-check N3); without it, the unlabelled form."""
    t = verdicts.sgd_comparisons(_runs(ALL))
    cost = verdicts.net_step_cost(TUNING, BOX)
    text = verdicts.pu_take(t, 0.25, ["harmony", "pm"], cost)
    assert "at the source's step" in text and "3.2× PrivUnitG's cost" in text
    assert "on all users" in text
    zh = text.in_language("zh_CN")
    assert "原文的步长" in zh and "给 PrivUnitG 的 3.2 倍" in zh
    plain = verdicts.pu_take(t, 0.25, ["harmony", "pm"])
    assert "source's step" not in plain and "on all the users" in plain


def test_the_step_cost_is_labelled_as_point_estimates_on_the_tuning_half():
    """Referee 16, m2: the cost is a quotient of point estimates on the tuning half (n/2 users, half the
    iterations; each tuned MSE a minimum over the grid on the same runs), so both summaries say so, in both
    languages, right after the number; the full-n form, which quotes no cost, does not."""
    t = verdicts.sgd_comparisons(_runs(ALL))
    text = verdicts.pu_take(t, 0.25, ["harmony", "pm"], verdicts.net_step_cost(TUNING, BOX))
    assert "3.2× PrivUnitG's cost (tuning-half point estimates)" in text
    assert "给 PrivUnitG 的 3.2 倍（一半调参用户上的点估计）" in text.in_language("zh_CN")
    plain = verdicts.pu_take(t, 0.25, ["harmony", "pm"])
    assert "tuning-half" not in plain and "调参用户" not in plain.in_language("zh_CN")


def test_the_tuned_takeaway_leads_with_each_method_at_its_own_clip():
    """H1: the tuned takeaway quotes the box (Harmony's and PM's own clip) first, PrivUnitG's ℓ2 clip after."""
    runs = _runs(ALL)
    runs.loc[runs["method"].isin(BOX), "mse"] *= (
        2  # box ratios 0.25, ℓ2 ratios 0.4: told apart by their digits
    )
    t = verdicts.sgd_comparisons(runs)
    take = verdicts.tuned_take(t).in_language("en")
    rb = t[(t["a"] == "privunitg-tuned") & t["b"].isin(BOX)]["ratio"]
    rl = t[(t["a"] == "privunitg-tuned") & t["b"].isin(["harmony-l2-tuned", "pm-l2-tuned"])][
        "ratio"
    ]
    assert (
        take.index(f"{rb.min():.3g}") < take.index("$\\ell_2$ clip") < take.index(f"{rl.min():.3g}")
    )


def _short_box(one: bool, tie: bool = False) -> pd.DataFrame:
    """The family with PrivUnitG's tuned arm against the box's near its threshold: short of runs on the synthetic
    data against Harmony (``one``) or in several comparisons; ``tie``: PM on Adult not separated."""
    runs = _runs({**ALL, "harmony-tuned": 0.26, "pm-tuned": 0.4 if one else 0.26}, spread=0.1)
    if one:
        runs.loc[(runs["dataset"] == "adult") & (runs["method"] == "harmony-tuned"), "mse"] *= 1.5
    if tie:  # PM on Adult at PrivUnitG's level, its own noise
        far = (runs["dataset"] == "adult") & (runs["method"] == "pm-tuned")
        runs.loc[far, "mse"] = 0.2 * (1 + 0.1 * np.random.default_rng(3).standard_normal(far.sum()))
    return verdicts.sgd_comparisons(runs)


@pytest.mark.parametrize("tie", [False, True])
def test_a_verdict_short_of_runs_carries_the_flag_in_the_takeaway(tie):
    """H2: a shown verdict the comparison object says is short of runs for power 0.9 is flagged with its runs and
    the runs it needs; the others are not."""
    t = _short_box(one=True, tie=tie)
    short = [s for s in verdicts.short_runs(t) if s[0] == "privunitg-tuned"]
    assert len(short) == 1 and short[0][1:3] == ("harmony-tuned", "synthetic")
    take = verdicts.tuned_take(t)
    flag = f"short of runs: 8 of {int(short[0][4])}"
    assert take.count("short of runs") == 1 and flag in take
    # the box's verdicts name their datasets (re-check N4)
    assert (
        "not separated against PM" if tie else "lower on adult against both"
    ) in take and "lower on synthetic against both (" in take
    assert f"重复次数不足：8 次，需要 {int(short[0][4])} 次" in take.in_language("zh_CN")
    # at a power the runs reach, no flag
    assert not [s for s in verdicts.short_runs(t, 0.1) if s[0] == "privunitg-tuned"]
    assert "short of runs" not in verdicts.tuned_take(t, power=0.1)


def test_several_verdicts_short_of_runs_are_counted():
    t = _short_box(one=False)
    k = sum(s[0] == "privunitg-tuned" and s[1] in BOX for s in verdicts.short_runs(t))
    assert k > 1
    take = verdicts.tuned_take(t)
    # counted dataset by dataset, as the takeaway names its datasets (re-check N4)
    per = Counter(s[2] for s in verdicts.short_runs(t) if s[0] == "privunitg-tuned" and s[1] in BOX)
    assert sum(per.values()) == k
    for kd in per.values():
        assert f"{kd} of them short of runs" in take
        assert f"其中 {kd} 个重复次数不足" in take.in_language("zh_CN")
    # the body's ratios (no power) carry no flag: their tallies say it
    assert "short of runs" not in verdicts.clip_ratios(t, "privunitg-tuned", bs=BOX)


def test_the_half_clip_gain_is_read_against_halving_the_step():
    """H3: when C = 1/2 is lower, with the tuning table the sentence says that a smaller clip at a fixed step is a
    smaller step, quotes the halved step's ratio, calls the two of the same size only when they are within SAME_SIZE
    on every dataset, and limits "favours the other arms" to the untuned rows."""
    t = verdicts.sgd_comparisons(
        _runs({**ALL, "privunitg-half": 0.1})
    )  # clip ratio ≈ 1/3 on both datasets
    text = verdicts.clip_half(t, halving={"adult": 0.35, "synthetic": 0.32})
    assert "also a smaller step" in text and "0.32–0.35" in text and "of the same size" in text
    assert "only in the rows at the source's step" in text
    assert "步长减半" in text.in_language("zh_CN") and "0.32–0.35" in text.in_language("zh_CN")
    # native review 7, C3: the sentence names what favours whom (the clip C = 1 against 1/2 favours Harmony and PM)
    assert "PrivUnitG at $C = 1$ rather than $C = 1/2$ thus favours them only" in text.myst
    assert "It favours" not in text
    zh = text.in_language("zh_CN")
    assert "在 $C = 1$ 而非 $C = 1/2$ 下让 Harmony 和 PM 与 PrivUnitG 比较" in zh
    assert "只在使用原文步长的各行中对 Harmony 和 PM 有利" in zh and "它只在" not in zh
    apart = verdicts.clip_half(t, halving={"adult": 0.35, "synthetic": 0.8})  # 0.8 is 2.4 times 1/3
    assert "not of the same size here" in apart and "0.35–0.8" in apart
    assert "source's step" not in apart
    assert "a clip below 1 lowers" in verdicts.clip_half(t)  # no tuning table: the plain reading
    higher = verdicts.sgd_comparisons(_runs(ALL))  # C = 1/2 higher: the halving changes nothing
    assert str(verdicts.clip_half(higher, halving={"adult": 0.8})) == str(
        verdicts.clip_half(higher)
    )
    assert str(verdicts.clip_half(t.iloc[:0], halving={"adult": 0.8})) == str(
        message("hiera.no_cells")
    )


def test_the_claims_table_states_every_privunitg_clip():
    """L1: the chapter's claims table lists PrivUnitG's claim at each clip the SGD runs."""
    nb = json.loads(NOTEBOOK.read_text())
    cell = next(
        "".join(c["source"])
        for c in nb["cells"]
        if "claims = pd.DataFrame(" in "".join(c["source"])
    )
    for m in sgd.PRIVUNITG_METHODS:
        assert f'"{m}"' in cell, m


def test_the_calibrated_summary_carries_the_flag_of_its_verdicts_short_of_runs():
    """H2: HierA calibrated as the summaries quote it: one span over its comparisons with Harmony and PM, and the
    flag of the verdicts among them that the comparison object says are short of runs."""
    runs = _runs({**ALL, "hiera-calibrated": 1.3}, spread=0.1)
    t = verdicts.sgd_comparisons(runs)
    short = [s for s in verdicts.short_runs(t) if s[0] == "hiera-calibrated"]
    text = verdicts.cal_take(t, ["harmony", "pm"])
    assert "times Harmony's and PM's MSE" in text
    rows = t[t["a"] == "hiera-calibrated"]["ratio"]
    assert f"{rows.min():.2g}" in text
    if len(short) == 1:
        assert f"1 of them short of runs: 8 of {int(short[0][4])}" in text
    else:
        assert f"{len(short)} of them short of runs" in text
    assert short, "the runs were made to be short for at least one verdict"
    assert "short of runs" not in verdicts.cal_take(t, ["harmony", "pm"], power=None)
    assert "倍" in text.in_language("zh_CN")
    assert str(verdicts.cal_take(t.iloc[:0], ["harmony"])) == str(message("hiera.no_cells"))


def test_the_tuned_box_verdicts_name_their_datasets():
    """Re-check N4: "lower on synthetic against both; on Adult higher against Harmony and not separated against
    PM", from the comparison objects, in both languages; the ℓ2 clip's tests keep their one tally."""
    runs = _runs({**ALL, "harmony-tuned": 0.4, "pm-tuned": 0.4})
    adult = runs["dataset"] == "adult"
    runs.loc[adult & (runs["method"] == "harmony-tuned"), "mse"] = 0.1 * (
        1 + 0.05 * np.random.default_rng(5).standard_normal(8)
    )
    runs.loc[adult & (runs["method"] == "pm-tuned"), "mse"] = 0.2 * (
        1 + 0.05 * np.random.default_rng(6).standard_normal(8)
    )
    t = verdicts.sgd_comparisons(runs)
    box = t[(t["a"] == "privunitg-tuned") & t["b"].isin(BOX)].set_index(["dataset", "b"])["outcome"]
    assert box["adult", "harmony-tuned"] == "worse" and box["adult", "pm-tuned"] == "tie"
    assert set(box["synthetic"]) == {"better"}
    take = verdicts.tuned_take(t, power=None)
    en = take.in_language("en")
    assert "on Adult higher against Harmony (" in en and "not separated against PM (" in en
    assert "lower on synthetic against both (" in en
    assert en.index("synthetic") < en.index("$\\ell_2$ clip") and "lower in all 4 tests" in en
    zh = take.in_language("zh_CN")
    assert "在 Adult 数据上与 Harmony 相比更高" in zh and "与 PM 相比未能区分" in zh
    assert "在合成数据上与二者相比都更低" in zh
