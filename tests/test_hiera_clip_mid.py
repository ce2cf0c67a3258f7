"""hiera (referee 13, §3): PrivUnitG at the midpoint clip C = d̃^(1/4), the geometric midpoint of its two clips 1
and √d̃ — its clip, its claim and registration, its run (PrivUnitG at that clip, bit for bit), its place in the SGD's
Holm family and the sentence that says what the three clips show."""

from __future__ import annotations

import math
import re

import numpy as np
import pandas as pd
import pytest

from dpcompendium.chapters.hiera import sgd, verdicts
from dpcompendium.chapters.hiera.datasets import synthetic_regression
from dpcompendium.chapters.hiera.hiera import privacy_claim
from dpcompendium.core import methods as registry
from dpcompendium.core.mechanisms.privunit import privunitg, privunitg_claim
from dpcompendium.core.messages import message


@pytest.mark.parametrize("dt", [2, 7, 11, 101])
def test_the_midpoint_clip_is_the_geometric_mean_of_1_and_sqrt_dt(dt):
    mid = sgd.privunitg_clip("privunitg-mid", dt)
    one, box = sgd.privunitg_clip("privunitg", dt), sgd.privunitg_clip("privunitg-box", dt)
    assert mid == pytest.approx(dt**0.25, rel=1e-15)
    assert one < mid < box and mid == pytest.approx(math.sqrt(one * box), rel=1e-15)


def test_the_midpoint_clip_refuses_a_bad_dimension():
    with pytest.raises(ValueError, match="d_tilde"):
        sgd.privunitg_clip("privunitg-mid", 1)


def test_the_midpoint_claim_is_privunitgs_at_its_clip():
    """The same claim factory as PrivUnitG at its other clips: ε-LDP, local neighbours, the gradient clipped to
    ℓ2 norm d̃^(1/4) (named in the sensitivity and the condition)."""
    for eps in (0.25, 1.0):
        claim = privacy_claim("privunitg-mid", eps)
        base = privunitg_claim(eps)
        assert claim.private and claim.epsilon == eps and claim.delta == 0
        assert claim.neighbours == base.neighbours == "local"
        assert str(claim.mechanism) == str(base.mechanism)
        assert r"\tilde d^{1/4}" in claim.sensitivity.myst
        assert any(r"\tilde d^{1/4}" in getattr(c, "myst", str(c)) for c in claim.conditions)
        # the SGD's arm carries the same claim
        assert verdicts.arm_claim("privunitg-mid", eps, "sgd") == claim


def test_the_midpoint_arm_is_registered_as_a_privunitg_method():
    m = registry.get("privunitg-mid")
    assert m.chapter == "hiera"
    assert m.resolve("estimator") is privunitg
    assert m.resolve("claim") is privunitg_claim
    assert "1/4" in m.name("en") and "1/4" in m.name("zh_CN")
    assert m.colour == registry.get("privunitg").colour
    # its marker is its own among the chapter's methods
    markers = [x.marker for x in registry.methods("hiera") if x.marker]
    assert markers.count(m.marker) == 1
    assert "privunitg-mid" in sgd.SGD_METHODS and "privunitg-mid" in sgd.PRIVUNITG_METHODS


def test_the_midpoint_arm_is_privunitg_at_that_clip_bit_for_bit():
    """Same streams: the arm is PrivUnitG with clip_norm = d̃^(1/4), and its MSE differs from C = 1's."""
    x, y = synthetic_regression(4000, 3, np.random.default_rng(1))
    dt = x.shape[1] + 1
    run = {"s": (x, y)}
    a = sgd.sgd_experiment(run, [0.5], ["privunitg-mid"], 7, variants=["corrected"], reps=2)
    b = sgd.sgd_experiment(
        run,
        [0.5],
        ["privunitg"],
        7,
        variants=["corrected"],
        reps=2,
        settings=sgd.SGDSettings(clip_norm=dt**0.25),
    )
    c = sgd.sgd_experiment(run, [0.5], ["privunitg"], 7, variants=["corrected"], reps=2)
    am = a[a["method"] == "privunitg-mid"]["mse"].to_numpy()
    assert len(am) == 2 and np.isfinite(am).all()
    assert np.array_equal(am, b[b["method"] == "privunitg"]["mse"].to_numpy())
    assert not np.array_equal(am, c[c["method"] == "privunitg"]["mse"].to_numpy())


def _runs(levels: dict[str, float], n: int = 8, seed: int = 0) -> pd.DataFrame:
    """Paired runs of the corrected SGD at the smallest ε: MSE = level × a shared factor per repetition × 1 ± 1 %."""
    rng = np.random.default_rng(seed)
    shared = rng.uniform(0.5, 1.5, n)
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


def _levels(mid: float) -> dict[str, float]:
    return {"harmony": 1.0, "pm": 1.0, "privunitg": 0.5, "privunitg-box": 2.0, "privunitg-mid": mid}


def test_the_midpoint_pairs_join_the_sgd_family():
    """Its two pairs are in the one Holm family: the family has them, and Holm's adjustment counts them."""
    assert {("privunitg-mid", "privunitg"), ("privunitg-mid", "privunitg-box")} <= set(
        verdicts.SGD_PAIRS
    )
    t = verdicts.sgd_comparisons(_runs(_levels(1.0)))
    pairs = set(zip(t["a"], t["b"], strict=True))
    assert {("privunitg-mid", "privunitg"), ("privunitg-mid", "privunitg-box")} <= pairs
    ran = set(_levels(1.0))
    n = sum(a in ran and b in ran for a, b in verdicts.SGD_PAIRS)
    assert n == 6 and len(t) == 2 * n
    without = verdicts.sgd_comparisons(
        _runs(_levels(1.0)),
        pairs=[p for p in verdicts.SGD_PAIRS if p[0] != "privunitg-mid"],
    )
    assert len(without) == len(t) - 4
    # the smallest p-value is multiplied by the family's size
    assert t["p_holm"].min() == pytest.approx(min(1.0, len(t) * t["p_value"].min()))


@pytest.mark.parametrize(
    ("mid", "reading"),
    [
        (0.25, "the midpoint $C = \\tilde d^{1/4}$ gives PrivUnitG the smallest MSE"),
        (1.0, "$C = 1$ gives PrivUnitG the smallest MSE"),
        (4.0, "no clip of the three"),
    ],
)
def test_the_three_clips_sentence_follows_the_verdicts(mid, reading):
    t = verdicts.sgd_comparisons(_runs(_levels(mid)))
    text = str(verdicts.clip_midpoint(t).myst)
    assert reading in text
    # both tallies, each with its span of ratios, from the comparisons (reader review 5, M1: no tests said)
    assert len(re.findall(r"in all \d+ \(", text)) >= 2 and "Holm" not in text
    r1 = t[(t["a"] == "privunitg-mid") & (t["b"] == "privunitg")]["ratio"]
    assert f"{r1.min():.3g}"[:3] in text


def test_the_three_clips_sentence_without_the_arm_says_not_tested():
    t = verdicts.sgd_comparisons(_runs({"harmony": 1.0, "pm": 1.0, "privunitg": 0.5}))
    assert str(verdicts.clip_midpoint(t)) == str(message("hiera.no_cells"))
