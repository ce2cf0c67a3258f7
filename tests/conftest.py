"""Shared fixtures. Statistical tests use fixed seeds and tolerances derived from the variance (z = 5 unless said)."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

# As the Makefile does: use ../shared/data (beside the checkout) as the data cache when nothing else is configured.
_SHARED = Path(__file__).resolve().parents[2] / "shared" / "data"
if "DPCOMPENDIUM_DATA_DIR" not in os.environ and (_SHARED / "SHA256SUMS").is_file():
    os.environ["DPCOMPENDIUM_DATA_DIR"] = str(_SHARED)
    os.environ.setdefault("DPCOMPENDIUM_OFFLINE", "1")

#: z-score for Monte-Carlo tolerances: a correct implementation fails a given check with probability < 1e-6.
Z = 5.0


@pytest.fixture
def rng() -> np.random.Generator:
    return np.random.default_rng(20260207)


def mc_tol(variance: float, n: int, z: float = Z) -> float:
    """Tolerance for a sample mean of n iid draws with the given variance: z·sqrt(variance/n)."""
    return z * float(np.sqrt(variance / n))
