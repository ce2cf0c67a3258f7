"""The exponential mechanism, numerically stable and vectorized over independent selections."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike
from scipy.special import softmax

from ..validation import check_array, check_epsilon, check_rng, check_sensitivity


def exponential_probabilities(
    scores: ArrayLike, sensitivity: float, epsilon: float, axis: int = -1
) -> np.ndarray:
    """P(r) = exp(ε u(r) / (2Δu)) / Σ_r' exp(ε u(r') / (2Δu)) along ``axis`` (McSherry & Talwar, FOCS 2007).

    Computed as a softmax (max-shifted), so huge scores do not overflow. ε-DP when every score has sensitivity Δu.
    """
    eps = check_epsilon(epsilon)
    du = check_sensitivity(sensitivity)
    u = check_array(scores, "scores")
    return softmax(u * (eps / (2.0 * du)), axis=axis)


def exponential_mechanism(
    scores: ArrayLike,
    sensitivity: float,
    epsilon: float,
    rng: np.random.Generator,
) -> np.ndarray | int:
    """Index chosen by the exponential mechanism.

    ``scores`` of shape (..., m): one independent selection per leading index (e.g. per repetition or per bin),
    drawn by inverse-CDF sampling with one uniform per selection. Returns an int for 1-D scores, else an int array
    of the leading shape.
    """
    rng = check_rng(rng)
    p = exponential_probabilities(scores, sensitivity, epsilon, axis=-1)
    cdf = np.cumsum(p, axis=-1)
    u = rng.random(size=(*p.shape[:-1], 1)) * cdf[..., -1:]
    idx = np.minimum((cdf < u).sum(axis=-1), p.shape[-1] - 1)
    return int(idx) if np.ndim(idx) == 0 else idx
