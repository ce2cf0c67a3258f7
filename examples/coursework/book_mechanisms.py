"""The book's correct mechanisms written as user code: the audit must let them pass.

- ``laplace``: value + Lap(sensitivity/ε), ε-DP for a query of that sensitivity (``--input scalar:0,1``);
- ``gaussian``: value + N(0, σ²) with the classical σ = Δ√(2 ln(1.25/δ))/ε, (ε, δ)-DP for ε < 1 (``--delta``);
- ``grr`` (with ``grr_pmf``): k-ary randomized response, ε-LDP (``--input category:4 --neighbours local``);
- ``clamped_mean``: the dp-mean chapter's clamped average, ε-DP under replace-one (``--input dataset:10,140,200``).

They call the library, as a student who uses it would.
"""

import numpy as np

from dpcompendium.chapters.dp_mean import noisy_average_clamped
from dpcompendium.core.mechanisms import (
    gaussian_mechanism,
    grr_privatise,
    grr_probabilities,
    laplace_mechanism,
)


def laplace(value, rng, *, epsilon, sensitivity=1.0, size=None):
    """The Laplace mechanism (ε-DP)."""
    return laplace_mechanism(value, sensitivity, epsilon, rng, size=size)


def gaussian(value, rng, *, epsilon, delta, sensitivity=1.0, size=None):
    """The Gaussian mechanism, classical calibration ((ε, δ)-DP for ε < 1)."""
    return gaussian_mechanism(value, sensitivity, epsilon, delta, rng, size=size)


def grr(value, rng, *, k, epsilon, size=None):
    """k-ary randomized response (ε-LDP)."""
    shape = () if size is None else size
    return grr_privatise(np.full(shape, int(value), dtype=np.int64), k, epsilon, rng)


def grr_pmf(value, *, k, epsilon):
    """Exact output law of :func:`grr`."""
    p, q = grr_probabilities(k, epsilon)
    return {o: (p if o == int(value) else q) for o in range(k)}


def clamped_mean(data, rng, *, epsilon, lo=140.0, hi=200.0, size=None):
    """The dp-mean chapter's clamped noisy average (ε-DP, replace-one, n public)."""
    return noisy_average_clamped(np.asarray(data, dtype=float), epsilon, (lo, hi), rng, size=size)
