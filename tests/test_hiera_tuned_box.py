"""hiera (referee 14, H1, H3, L1, L3): Harmony and PM on the box at a tuned step against PrivUnitG's tuned arm, and
PrivUnitG at the clip 1/2 — their arms, claims and registrations, their place in the SGD's one Holm family, the
sentences that say what they show, and the tuning table the page shows."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from dpcompendium.chapters.hiera import sgd, verdicts
from dpcompendium.chapters.hiera.datasets import synthetic_regression
from dpcompendium.chapters.hiera.hiera import privacy_claim
from dpcompendium.chapters.registry import load_methods
from dpcompendium.core import methods as registry
from dpcompendium.core.messages import message

NEW_PAIRS = {
    ("privunitg-tuned", "harmony-tuned"),
    ("privunitg-tuned", "pm-tuned"),
    ("privunitg-half", "privunitg"),
}


def _data(n=4000, d=2, seed=1):
    return synthetic_regression(n, d, np.random.default_rng(seed))


def _runs(levels: dict[str, float], reps=8, spread=0.05, seed=0) -> pd.DataFrame:
    """Two datasets, every arm of ``levels`` at its level times 1 + spread·N(0, 1) per repetition."""
    rng = np.random.default_rng(seed)
    return pd.DataFrame(
        [
            {
                "dataset": d,
                "method": m,
                "variant": "corrected",
                "epsilon": 0.25,
                "folds": 5,
                "rep": r,
                "mse": v * (1 + spread * rng.standard_normal()),
            }
            for d in ("adult", "synthetic")
            for m, v in levels.items()
            for r in range(reps)
        ]
    )


ALL = {
    "harmony": 1.0,
    "pm": 1.0,
    "hiera": 0.5,
    "hiera-calibrated": 2.0,
    "privunitg": 0.3,
    "privunitg-box": 1.5,
    "privunitg-mid": 0.6,
    "privunitg-half": 0.6,
    "harmony-l2": 2.0,
    "pm-l2": 2.0,
    "harmony-l2-step": 0.8,
    "pm-l2-step": 0.8,
    "privunitg-tuned": 0.2,
    "harmony-l2-tuned": 0.5,
    "pm-l2-tuned": 0.5,
    "harmony-tuned": 0.4,
    "pm-tuned": 0.4,
}


def test_the_new_arms_are_methods_of_the_sgd():
    assert {"harmony-tuned", "pm-tuned", "privunitg-half"} <= set(sgd.SGD_METHODS)
    assert sgd.TUNED_METHODS["harmony-tuned"] == "harmony"
    assert sgd.TUNED_METHODS["pm-tuned"] == "pm"
    assert "privunitg-half" in sgd.PRIVUNITG_METHODS
    assert sgd.privunitg_clip("privunitg-half", 11) == sgd.HALF_CLIP == 0.5
    with pytest.raises(ValueError, match="method"):
        sgd.privunitg_clip("privunitg-quarter", 11)


@pytest.mark.parametrize("method", ["harmony-tuned", "pm-tuned", "privunitg-half"])
def test_the_new_arms_are_registered_in_both_languages(method):
    load_methods()
    m = registry.get(method)
    assert m.chapter == "hiera"
    assert m.name("en") and m.name("zh_CN") and m.name("en") != method
    base = {"harmony-tuned": "harmony", "pm-tuned": "pm", "privunitg-half": "privunitg"}[method]
    assert m.colour == registry.get(base).colour
    markers = [x.marker for x in registry.methods("hiera") if x.marker]
    assert markers.count(m.marker) == 1


@pytest.mark.parametrize(("tuned", "base"), [("harmony-tuned", "harmony"), ("pm-tuned", "pm")])
def test_a_box_tuned_arm_carries_the_box_arms_claim(tuned, base):
    """The step is the collector's processing: the box-tuned arm's claim is the box arm's, in the SGD's family and
    in the chapter's claim function."""
    for eps in (0.25, 1.0):
        assert verdicts.arm_claim(tuned, eps, "sgd") == verdicts.arm_claim(base, eps, "sgd")
        assert privacy_claim(tuned, eps) == privacy_claim(base, eps)


def test_the_half_clip_claim_states_its_clip():
    claim = privacy_claim("privunitg-half", 0.25)
    assert claim.epsilon == 0.25 and claim.neighbours == "local" and claim.private
    assert "0.5" in str(claim.statement())
    assert verdicts.arm_claim("privunitg-half", 0.25, "sgd") == claim


def test_privunitg_half_is_privunitg_at_clip_one_half_bit_for_bit():
    """Same streams (the cell's first child): the arm is PrivUnitG with clip_norm 1/2."""
    x, y = _data()
    a = sgd.sgd_experiment(
        {"s": (x, y)}, [0.5], ["privunitg-half"], 7, variants=["corrected"], reps=2
    )
    b = sgd.sgd_experiment(
        {"s": (x, y)},
        [0.5],
        ["privunitg"],
        7,
        variants=["corrected"],
        reps=2,
        settings=sgd.SGDSettings(clip_norm=0.5),
    )
    am = a[a["method"] == "privunitg-half"]["mse"].to_numpy()
    bm = b[b["method"] == "privunitg"]["mse"].to_numpy()
    assert am.size == 2 and np.array_equal(am, bm)


def test_the_new_pairs_join_the_one_family():
    """All 23 pairs on two datasets: a family of 46, Holm over all of them (the smallest p-value times 46)."""
    assert set(verdicts.SGD_PAIRS) >= NEW_PAIRS
    assert len(verdicts.SGD_PAIRS) == 23
    t = verdicts.sgd_comparisons(_runs(ALL))
    assert len(t) == 46
    assert set(zip(t["a"], t["b"], strict=True)) >= NEW_PAIRS
    assert t["p_holm"].min() == pytest.approx(min(1.0, 46 * t["p_value"].min()))
    without = verdicts.sgd_comparisons(
        _runs(ALL), pairs=[p for p in verdicts.SGD_PAIRS if p not in NEW_PAIRS]
    )
    assert len(without) == 40


@pytest.mark.parametrize(
    ("box", "en", "zh"),
    [
        (0.4, ("lower in all 4 (", "gain is neither"), "全部 4 个更低"),
        (0.1, ("higher in all 4 (", "is not shown against"), "仍然成立"),
    ],
)
def test_the_box_sentence_follows_the_verdicts(box, en, zh):
    levels = {**ALL, "harmony-tuned": box, "pm-tuned": box}
    t = verdicts.sgd_comparisons(_runs(levels))
    text = verdicts.tuned_box(t)
    assert all(e in text for e in en) and zh in text.in_language("zh_CN")
    # the pairs are named in the question's table (reader review 5, M1)
    assert (
        "Harmony (Duchi), tuned step" in verdicts.sgd_question_tables(t, ["harmony", "pm"])["tuned"]
    )
    assert str(verdicts.tuned_box(t.iloc[:0])) == str(message("hiera.no_cells"))


def test_the_box_sentence_counts_a_split():
    """Lower on one dataset, higher on the other: "lower in 2 and higher in 2 of 4", not shown everywhere."""
    runs = _runs(ALL)
    up = (runs["dataset"] == "adult") & runs["method"].isin(["harmony-tuned", "pm-tuned"])
    runs.loc[up, "mse"] *= 0.25
    t = verdicts.sgd_comparisons(runs)
    text = verdicts.tuned_box(t)
    assert "not shown everywhere" in text and "higher in 2" in text
    assert "处处成立" in text.in_language("zh_CN")


def test_the_l2_sentence_leaves_the_box_to_its_paragraph():
    t = verdicts.sgd_comparisons(_runs(ALL))
    assert "next paragraph" in verdicts.tuned_separation(t)
    only_l2 = t[~t["b"].isin(["harmony-tuned", "pm-tuned"])]
    assert "not on the box" in verdicts.tuned_separation(only_l2)


def test_the_takeaway_reports_the_tuned_ratios_apart_from_the_full_n_ones():
    """referee 14, H2: with the tuned arms, pu_take quotes the full-n ratios only, and tuned_take the half-n ones,
    on its l2 clip and on their box apart; a split outcome is quoted by verdict, each counted."""
    t = verdicts.sgd_comparisons(_runs(ALL))
    full = verdicts.pu_take(t, 0.25, ["harmony", "pm"])
    assert "on all the users" in full and "tuned" not in full
    take = verdicts.tuned_take(t)
    # the box's verdicts per dataset (referee 15 re-check, N4), the l2 clip's in one tally
    assert take.count("lower in all 4 tests") == 1 and "on its $\\ell_2$ clip" in take
    assert "lower on adult against both" in take and "lower on synthetic against both" in take
    rb = t[(t["a"] == "privunitg-tuned") & t["b"].isin(["harmony-tuned", "pm-tuned"])]["ratio"]
    assert f"{rb.min():.3g}" in take
    assert take.in_language("zh_CN").count("在全部 4 个检验中都更低") == 1
    runs = _runs(ALL)
    up = (runs["dataset"] == "adult") & runs["method"].isin(["harmony-tuned", "pm-tuned"])
    runs.loc[up, "mse"] *= 0.25
    split = verdicts.tuned_take(verdicts.sgd_comparisons(runs))
    assert "higher on adult against both" in split and "lower on synthetic against both" in split
    only_l2 = t[~t["b"].isin(["harmony-tuned", "pm-tuned"])]
    assert "their box not tuned" in verdicts.tuned_take(only_l2)
    assert str(verdicts.tuned_take(t.iloc[:0])) == str(message("hiera.no_cells"))


@pytest.mark.parametrize(
    ("half", "reading"),
    [
        (0.6, "of the four clips tried $C = 1$ gives PrivUnitG the smallest MSE"),
        (0.1, "a clip below 1 lowers PrivUnitG's MSE further"),
        (0.3, "do not put $C = 1/2$ or $C = 1$ lower in every comparison"),
    ],
)
def test_the_half_clip_sentence_follows_the_verdicts(half, reading):
    t = verdicts.sgd_comparisons(_runs({**ALL, "privunitg-half": half}))
    text = verdicts.clip_half(t)
    assert reading in text.myst
    assert "表明" in text.in_language("zh_CN") or "PrivUnitG" in text.in_language("zh_CN")
    r = t[(t["a"] == "privunitg-half")]["ratio"]
    assert f"{r.min():.3g}"[:3] in text
    # with C = 1/2 run, the three clips' sentence no longer says no clip below 1 was tried
    assert "none below 1" not in verdicts.clip_midpoint(t)
    assert str(verdicts.clip_half(t.iloc[:0])) == str(message("hiera.no_cells"))


def test_the_tuning_table_has_a_row_per_dataset_and_step_and_a_column_per_arm():
    """referee 14, H3: the table of tuned_experiment as the page shows it: rows dataset × η, columns dataset, η and
    one per arm tuned; MSE ± SE, the chosen step marked once per arm and dataset; both languages."""
    x, y = _data(n=6000)
    grid = (0.25, 0.5, 1.0)
    methods = ["privunitg-tuned", "harmony-l2-tuned", "harmony-tuned"]
    steps, tuning, _ = sgd.tuned_experiment(
        {"a": (x, y), "b": (x[::-1], y[::-1])},
        methods,
        0.5,
        np.random.SeedSequence(4),
        reps={"a": 2, "b": 2},
        grid=grid,
        tune_reps=3,
    )
    assert len(tuning) == 2 * len(grid) * len(methods)
    assert np.isfinite(tuning["mse_se"]).all()  # three tuning runs: an SE per cell
    md = verdicts.step_table(tuning)
    lines = md.in_language("en").splitlines()
    body = [ln for ln in lines if ln.startswith(("* -", "  -"))]
    assert len(body) == (1 + 2 * len(grid)) * (2 + len(methods))
    assert md.in_language("en").count("(chosen)") == 2 * len(methods)
    assert md.in_language("zh_CN").count("（选中）") == 2 * len(methods)
    assert " ± " in md.in_language("en")
    assert "dataset" in md.in_language("en") and "数据集" in md.in_language("zh_CN")
    for d, st in steps.items():
        for m, eta in st.items():
            row = tuning[(tuning["dataset"] == d) & (tuning["method"] == m)]
            assert row.loc[row["chosen"], "step"].tolist() == [eta]
    assert str(verdicts.step_table(tuning.iloc[:0])) == ""
    with pytest.raises(ValueError, match="tuning"):
        verdicts.step_table(tuning.drop(columns="mse_se"))


def test_the_tuning_runs_are_validated():
    x, y = _data()
    with pytest.raises(ValueError, match="reps"):
        sgd.tune_steps(x, y, ["harmony-tuned"], 0.5, np.random.SeedSequence(1), reps=0)


def test_the_design_table_names_its_rows_datasets():
    """referee 14, L1: the SGD's design table has one Holm family; its rows are datasets, and the column says so."""
    t = verdicts.sgd_comparisons(_runs(ALL))
    groups = [(d, t[t["dataset"] == d]) for d in ("adult", "synthetic")]
    _, tab = verdicts.design_table(t, groups, label=message("hiera.col_dataset"))
    header = tab.in_language("en").split("* -", 1)[1].splitlines()[0]
    assert "dataset" in header and "family" not in header
    assert "数据集" in tab.in_language("zh_CN")
