"""hiera (referee 10): PrivUnitG at the box's clip √d̃ (V3), the unequal-privacy tag of HierA at the source's
budgets (V5), a chapter column that names the chapter (N4) and PrivUnitG audited in the runs' dimensions (H2)."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from dpcompendium.chapters import hiera
from dpcompendium.chapters.hiera import verdicts
from dpcompendium.chapters.hiera.audits import audit_specs
from dpcompendium.core.tables import readable


def test_privunitg_box_clips_to_the_ball_around_the_box():
    assert hiera.sgd.privunitg_clip("privunitg-box", 11) == pytest.approx(math.sqrt(11))
    assert hiera.sgd.privunitg_clip("privunitg", 11, 1.0) == 1.0
    with pytest.raises(ValueError, match="method must be privunitg"):
        hiera.sgd.privunitg_clip("pm", 11)
    claim = hiera.privacy_claim("privunitg-box", 1.0)
    assert claim.private and claim.epsilon == 1.0 and "tilde d" in claim.sensitivity.myst


def test_privunitg_box_runs_and_differs_from_the_unit_clip():
    rng = np.random.default_rng(0)
    x, y = hiera.datasets.synthetic_regression(4000, 3, rng)
    t = hiera.sgd.sgd_experiment(
        {"s": (x, y)},
        [1.0],
        ["privunitg", "privunitg-box"],
        7,
        variants=["corrected"],
        folds=2,
        reps=2,
        least_squares=False,
    )
    m = t.groupby("method")["mse"].mean()
    assert set(m.index) == {"privunitg", "privunitg-box"} and np.isfinite(m).all()
    assert m["privunitg"] != m["privunitg-box"]


def _sgd_runs(methods, n=6, seed=1):
    rng = np.random.default_rng(seed)
    rows = []
    for r in range(n):
        for i, m in enumerate(methods):
            rows.append(
                {
                    "dataset": "synthetic",
                    "method": m,
                    "variant": "corrected",
                    "epsilon": 0.25,
                    "rep": r,
                    "mse": 0.01 * (1 + 0.1 * i) * rng.uniform(0.9, 1.1),
                }
            )
    return pd.DataFrame(rows)


def test_the_source_s_budgets_are_tagged_as_unequal_privacy_not_as_not_private():
    t = verdicts.sgd_comparisons(
        _sgd_runs(["harmony", "pm", "hiera", "privunitg", "privunitg-box"])
    )
    row = t[(t["a"] == "hiera") & (t["b"] == "harmony")].iloc[0]
    tag = str(row["result"].comparison.caveat())
    exact = hiera.privacy_claim(
        "hiera", 0.25, multipliers=hiera.SGD_TEXT_MULTIPLIERS, coupled=False
    ).epsilon
    assert "not private" not in tag and "not equal privacy" in tag
    assert f"{exact:.2g}" in tag
    # PrivUnitG's pairs are in the SGD's one Holm family
    assert {("privunitg", "harmony"), ("privunitg-box", "pm")} <= set(
        zip(t["a"], t["b"], strict=True)
    )
    ran = {"harmony", "pm", "hiera", "privunitg", "privunitg-box"}
    # one dataset, one ε: every pair of methods that ran, once, Holm over all of them
    assert len(t) == sum(a in ran and b in ran for a, b in verdicts.SGD_PAIRS) == 6
    assert (t["p_holm"] >= t["p_value"] - 1e-15).all()


def test_a_chapter_column_shows_the_chapter_not_a_method():
    df = pd.DataFrame({"mechanism": ["PrivUnitG (d = 7) sampler"], "chapter": ["hiera"]})
    html = readable(df)._repr_html_()
    assert "source" not in html and ">hiera<" in html


def test_privunitg_is_audited_in_the_runs_dimensions():
    names = [s.mechanism for s in audit_specs() if s.mechanism.startswith("PrivUnitG")]
    assert names == ["PrivUnitG (d = 7) sampler", "PrivUnitG (d = 11) sampler"]
