"""The equivalence test behind ``dpcompendium check``'s verdict: its error rates, its power, and one answer per cell."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from dpcompendium.book.check.equivalence import (
    SPREAD_MARGIN,
    classify,
    compare_cell,
    family_verdict,
    holm,
    runs_needed,
)
from dpcompendium.book.check.mwem import TOO_FEW, verdict_of


def _runs(rng, shift, n, size=()):
    """Values whose log(1 + v) is normal with sd 1 and mean 5 + shift (a metric's runs on the check's scale)."""
    return np.expm1(rng.normal(5.0 + shift, 1.0, size=(*size, n)))


def test_same_is_rarely_concluded_at_the_margin():
    """A true difference of exactly the margin (0.75 sd) is called "same" with probability at most 0.025 (TOST at
    0.025 per side; the margin estimated from the reference's runs adds a little): over 1500 cells at 60 runs,
    more than 3.5 % "same" has probability < 1e-3 if the rate is 0.025."""
    rng = np.random.default_rng(0)
    within = [
        compare_cell(_runs(rng, SPREAD_MARGIN, 60), _runs(rng, 0.0, 60))["within"]
        for _ in range(1500)
    ]
    assert np.mean(within) < 0.035


def test_equal_implementations_match_with_the_runs_needed():
    """With :func:`runs_needed` runs, two equal implementations are "same" in all 16 cells of a family in about 90 %
    of the trials (normal approximation; ≥ 78 % over 150 trials fails with probability < 1e-3 at 90 %), and with 5
    runs never."""
    rng = np.random.default_rng(1)
    n = runs_needed(np.ones(16), np.ones(16), np.full(16, SPREAD_MARGIN))
    assert 40 < n < 200

    def family(reps):
        rows = [compare_cell(_runs(rng, 0, reps), _runs(rng, 0, reps)) for _ in range(16)]
        return family_verdict(classify(pd.DataFrame(rows)))

    assert np.mean([family(n) == "same" for _ in range(150)]) >= 0.78
    assert all(family(5) != "same" for _ in range(50))


def test_a_large_difference_differs_and_small_samples_are_undetermined():
    rng = np.random.default_rng(2)
    rows = [compare_cell(_runs(rng, 3.0, 20), _runs(rng, 0.0, 20)) for _ in range(16)]
    assert family_verdict(classify(pd.DataFrame(rows))) == "differs"
    rows = [compare_cell(_runs(rng, 0.0, 3), _runs(rng, 0.0, 3)) for _ in range(16)]
    assert family_verdict(classify(pd.DataFrame(rows))) == "undetermined"


def test_each_cell_gets_one_answer_and_a_within_margin_cell_is_never_differs():
    """A significant but tiny difference (inside the margin) is "same", not "differs": the answers of one cell
    cannot contradict each other."""
    cells = pd.DataFrame({"p": [1e-9, 1e-9, 0.5, 0.5], "within": [True, False, True, False]})
    assert list(classify(cells)) == ["same", "differs", "same", "undetermined"]


def test_holm():
    p = np.array([0.01, 0.04, 0.03, 0.005])
    # 0.005 ≤ 0.05/4, 0.01 ≤ 0.05/3, 0.03 > 0.05/2: stops
    assert list(holm(p)) == [True, False, False, True]
    assert not holm(np.array([0.02, 0.02, 0.02])).any()


@pytest.mark.parametrize(
    ("standard", "coursework", "verdict"),
    [
        ("same", "differs", "matches the paper's MWEM"),
        ("same", "undetermined", "matches the paper's MWEM"),
        ("differs", "same", "matches the course's variant"),
        ("differs", "differs", "differs from both the paper's MWEM and the course's variant"),
        ("differs", "undetermined", TOO_FEW),
        ("undetermined", "undetermined", TOO_FEW),
    ],
)
def test_verdicts(standard, coursework, verdict):
    assert verdict_of(standard, coursework) == verdict
