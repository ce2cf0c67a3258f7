"""Shared fixtures. Statistical tests use fixed seeds and tolerances derived from the variance (z = 5 unless said)."""

from __future__ import annotations

import numpy as np
import pytest

#: z-score for Monte-Carlo tolerances: a correct implementation fails a given check with probability < 1e-6.
Z = 5.0


@pytest.fixture
def rng() -> np.random.Generator:
    return np.random.default_rng(20260207)


def mc_tol(variance: float, n: int, z: float = Z) -> float:
    """Tolerance for a sample mean of n iid draws with the given variance: z·sqrt(variance/n)."""
    return z * float(np.sqrt(variance / n))
