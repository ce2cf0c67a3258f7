"""The core's one implementation of what the chapters share: validated privacy claims, the child-seed helper, the
bootstrap interval and the run summary (issue 25)."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from dpcompendium.core.experiments import bootstrap_mean, bootstrap_mean_ci, summarize_runs
from dpcompendium.core.privacy import PrivacyClaim
from dpcompendium.core.rng import child_seed, child_seeds, generators, make_rng


@pytest.mark.parametrize(
    ("kw", "message"),
    [
        ({"epsilon": 0.0}, "epsilon must be finite and > 0, got 0.0"),
        ({"epsilon": -1}, "epsilon must be finite and > 0, got -1"),
        ({"epsilon": math.inf}, "epsilon must be finite and > 0, got inf"),
        ({"epsilon": math.nan}, "epsilon must be a real number, got nan"),
        ({"epsilon": True}, "epsilon must be a real number, got True"),
        ({"epsilon": "1"}, "epsilon must be a real number, got '1'"),
        ({"delta": 1.0}, "delta must be in [0, 1), got 1.0"),
        ({"delta": -0.1}, "delta must be in [0, 1), got -0.1"),
        ({"sensitivity": ""}, "sensitivity must be a non-empty statement, got ''"),
        ({"neighbours": "swap"}, "neighbours must be one of"),
        ({"private": "yes"}, "private must be True or False, got 'yes'"),
    ],
)
def test_a_claim_validates_itself_on_construction(kw, message):
    args = {
        "mechanism": "m",
        "neighbours": "add-remove",
        "sensitivity": "L1 1",
        "epsilon": 1.0,
        **kw,
    }
    with pytest.raises(ValueError) as exc:
        PrivacyClaim(**args)
    assert str(exc.value).startswith(message) and "\n" not in str(exc.value)


def test_a_claim_that_is_not_private_may_state_an_infinite_epsilon():
    claim = PrivacyClaim("m", "add-remove", "unbounded", math.inf, private=False, why="no clipping")
    assert math.isinf(claim.epsilon) and not claim.private
    assert PrivacyClaim("m", "local", "1", np.float64(0.5), delta=0).epsilon == 0.5


def test_child_seed_is_the_spawned_child_and_advances_nothing():
    ss = np.random.SeedSequence(7)
    spawned = np.random.SeedSequence(7).spawn(4)
    for i in range(4):
        a, b = make_rng(child_seed(ss, i)), make_rng(spawned[i])
        assert a.integers(0, 2**63) == b.integers(0, 2**63)
    assert ss.n_children_spawned == 0
    assert [s.spawn_key for s in child_seeds(7, 3)] == [
        child_seed(7, i).spawn_key for i in range(3)
    ]
    with pytest.raises(ValueError, match=r"^index must be >= 0"):
        child_seed(7, -1)


def test_bootstrap_interval_covers_the_mean_and_is_nan_on_short_input():
    x = make_rng(0).normal(10.0, 1.0, size=400)
    lo, hi = bootstrap_mean_ci(x, make_rng(1))
    se = x.std(ddof=1) / math.sqrt(
        x.size
    )  # the interval is about ±1.96 standard errors of the mean
    assert lo < x.mean() < hi and 3.0 * se < hi - lo < 5.0 * se
    assert bootstrap_mean(x, make_rng(1))[:2] == (lo, hi)
    assert all(math.isnan(v) for v in bootstrap_mean_ci([3.0], make_rng(1)))
    assert all(math.isnan(v) for v in bootstrap_mean(np.array([]), make_rng(1)))
    with pytest.raises(ValueError, match=r"^values must be a 1-D array"):
        bootstrap_mean_ci(np.ones((2, 2)), make_rng(1))
    with pytest.raises(ValueError, match=r"^n_boot must be >= 100"):
        bootstrap_mean_ci(x, make_rng(1), n_boot=10)


def test_summarize_runs_groups_in_order_with_sd_and_intervals():
    runs = pd.DataFrame(
        {
            "g": ["b", "b", "a", "a", "a"],
            "m": [1.0, 3.0, 2.0, 4.0, 6.0],
            "n": [0.0, 0.0, 1.0, 1.0, 1.0],
        }
    )
    out = summarize_runs(runs, ["g"], ["m", "n"], sd=["m"], ci=["m"], seed=5)
    assert list(out.columns) == ["g", "reps", "m", "n", "m_sd", "m_lo", "m_hi"]
    assert out["g"].tolist() == ["b", "a"] and out["reps"].tolist() == [2, 3]
    assert out["m"].tolist() == [2.0, 4.0] and out["m_sd"].tolist() == [math.sqrt(2.0), 2.0]
    gens = generators(5, 2)
    assert (out.loc[1, "m_lo"], out.loc[1, "m_hi"]) == bootstrap_mean_ci([2.0, 4.0, 6.0], gens[1])
    with pytest.raises(ValueError, match=r"^runs must have columns \['z'\]"):
        summarize_runs(runs, ["g"], ["z"])


@pytest.mark.parametrize(
    "eps, text",
    [
        (1.000005, "1.000005-DP"),
        (0.500005, "0.500005-DP"),
        (1.48988, "1.49-DP"),
        (2.1666666, "2.167-DP"),
        (0.5, "0.5-DP"),
    ],
)
def test_a_guarantee_keeps_four_digits_unless_a_round_number_would_hide_a_difference(eps, text):
    """ε(1 + 5·10⁻⁶) must not read "1-DP" (a composition bound above its nominal ε); 1.48988 reads "1.49-DP", not
    six digits (reader review 3, m4)."""
    assert str(PrivacyClaim("m", "add-remove", "1", eps).guarantee_md) == text
