"""Families of comparisons with known effects, shared by the verdict tests (``test_verdict_plain``,
``test_verdict_table_lead``): arm ``a`` has gamma errors of mean 1, arm ``b`` of mean ``m`` in setting ``s<i>``."""

from __future__ import annotations

import numpy as np

from dpcompendium import PrivacyClaim
from dpcompendium.core.comparison import Arm, Comparison, ComparisonResult

CLAIM = PrivacyClaim("m", "add-remove", "1", 1.0)


def two_arm_results(
    means_b, seed: int = 5, a: str = "first", b: str = "second", runs: int = 300
) -> list[ComparisonResult]:
    """One two-sided comparison of errors per entry of ``means_b`` (not yet Holm-decided)."""
    rng = np.random.default_rng(seed)
    return [
        Comparison(
            "error",
            Arm.of("a", CLAIM, rng.gamma(50.0, 1 / 50, runs), label=a),
            Arm.of("b", CLAIM, rng.gamma(50.0, m / 50, runs), label=b),
            "tie",
            setting=f"s{i}",
        ).result()
        for i, m in enumerate(means_b)
    ]
