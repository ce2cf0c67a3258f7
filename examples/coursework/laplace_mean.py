"""A student's differentially private mean, written as user code for ``dpcompendium audit``.

Both functions release the mean of ``data`` (records clamped to [lo, hi]) with Laplace noise. Neighbours:
replace-one with the number of records n public, so the mean has sensitivity Δ = (hi − lo)/n.

- ``correct_mean`` adds Lap(Δ/ε): ε-DP.
- ``half_noise_mean`` adds Lap(Δ/(2ε)) — half the needed noise: it is only 2ε-DP, and the audit says so.

Try::

    dpcompendium audit examples/coursework/laplace_mean.py:half_noise_mean --epsilon 1 \\
        --neighbours replace-one --input dataset:10,0,1 -p lo 0 -p hi 1
"""

import numpy as np


def correct_mean(data, rng, *, epsilon, lo=0.0, hi=1.0, size=None):
    """mean(clip(data, lo, hi)) + Lap((hi − lo)/(n ε)); ε-DP under replace-one neighbours (n public)."""
    x = np.clip(np.asarray(data, dtype=float), lo, hi)
    sensitivity = (hi - lo) / x.size
    return x.mean() + rng.laplace(0.0, sensitivity / epsilon, size=size)


def half_noise_mean(data, rng, *, epsilon, lo=0.0, hi=1.0, size=None):
    """BUG: the noise scale is Δ/(2ε), half of what ε-DP needs — the release is only 2ε-DP."""
    x = np.clip(np.asarray(data, dtype=float), lo, hi)
    sensitivity = (hi - lo) / x.size
    return x.mean() + rng.laplace(0.0, 0.5 * sensitivity / epsilon, size=size)
