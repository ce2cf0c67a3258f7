"""Generalized randomized response (k-ary RR, "GRR" / "direct encoding"), user side and collector side apart.

User side, :func:`grr_privatise`: keep the true category with probability p = e^ε / (e^ε + k − 1), otherwise report one
of the other k − 1 categories uniformly (each with q = 1 / (e^ε + k − 1)). p/q = e^ε, so each report is ε-LDP.
Collector side, :func:`grr_frequencies`: unbiased frequency estimates f̂_v = (c_v/n − q) / (p − q)
(Wang, Blocki, Li, Jha, USENIX Security 2017).
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import ArrayLike

from ..validation import check_array, check_epsilon, check_int, check_probability, check_rng


def grr_probabilities(k: int, epsilon: float) -> tuple[float, float]:
    """(p, q): probability of reporting the true category, and each particular other one."""
    k = check_int(k, "k", minimum=2)
    e = math.exp(check_epsilon(epsilon))
    return e / (e + k - 1), 1.0 / (e + k - 1)


def grr_perturb(values: ArrayLike, k: int, keep: float, rng: np.random.Generator) -> np.ndarray:
    """The GRR perturbation with keep probability ``keep``: each value in {0, …, k−1} is kept with probability
    ``keep``, else replaced by one of the k − 1 other categories uniformly. ε-LDP only for the ``keep`` of
    :func:`grr_probabilities`; vectorized over users (any array shape)."""
    rng = check_rng(rng)
    k = check_int(k, "k", minimum=2)
    keep = check_probability(keep, "keep")
    v = check_array(values, "values", dtype=np.int64, allow_empty=True)
    if v.size and (v.min() < 0 or v.max() >= k):
        bad = v[(v < 0) | (v >= k)].ravel()[0]
        raise ValueError(f"values must lie in {{0, ..., {k - 1}}}, found {bad}")
    kept = rng.random(v.shape) < keep
    # A uniformly random *other* category: draw from k−1 values and skip over the true one.
    other = rng.integers(0, k - 1, size=v.shape)
    other = other + (other >= v)
    return np.where(kept, v, other)


def grr_privatise(
    values: ArrayLike, k: int, epsilon: float, rng: np.random.Generator
) -> np.ndarray:
    """Each user perturbs its own category in {0, …, k−1} (:func:`grr_perturb` with p of
    :func:`grr_probabilities`); vectorized over users (any array shape)."""
    p, _ = grr_probabilities(k, epsilon)
    return grr_perturb(values, k, p, rng)


def grr_frequencies(reports: ArrayLike, k: int, epsilon: float) -> np.ndarray:
    """Collector side: unbiased estimate of the k category frequencies from GRR reports."""
    p, q = grr_probabilities(k, epsilon)
    r = check_array(reports, "reports", dtype=np.int64)
    counts = np.bincount(r.ravel(), minlength=k)
    return (counts / r.size - q) / (p - q)
