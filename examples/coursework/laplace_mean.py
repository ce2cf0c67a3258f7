"""A student's differentially private mean, written as user code for ``dpcompendium audit``.

Both functions release the mean of ``data`` (records clamped to [lo, hi]) with Laplace noise. Neighbours:
replace-one with the number of records n public, so the mean has sensitivity Δ = (hi − lo)/n.

- ``correct_mean`` adds Lap(Δ/ε): ε-DP.
- ``half_noise_mean`` adds Lap(Δ/(2ε)) — half the needed noise: it is only 2ε-DP, and the audit says so.

Three more of the commonest bugs, each caught by the audit's probes beyond the declared bounds (records outside
[lo, hi], one-record and empty datasets) with the same ``--input dataset:10,0,1``:

- ``unclamped_mean`` forgets the clamp: one record far outside [lo, hi] moves the mean by more than Δ;
- ``true_n_mean`` claims add-remove neighbours (n private) but divides a noisy sum by the true n, without noise;
- ``data_sensitivity_mean`` computes the sensitivity from the data ((max − min)/n): zero noise on a constant
  dataset, and unbounded in general.

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


def unclamped_mean(data, rng, *, epsilon, lo=0.0, hi=1.0, size=None):
    """BUG: no clamp — the noise assumes records in [lo, hi], but nothing keeps them there (unbounded sensitivity)."""
    x = np.asarray(data, dtype=float)
    sensitivity = (hi - lo) / x.size
    return x.mean() + rng.laplace(0.0, sensitivity / epsilon, size=size)


def true_n_mean(data, rng, *, epsilon, lo=0.0, hi=1.0, size=None):
    """BUG under add-remove neighbours (n is private): the sum is private (Lap(max(|lo|, |hi|)/ε) for one record
    added or removed), but it is divided by the true n, without noise — the output's scale reveals n."""
    x = np.clip(np.asarray(data, dtype=float), lo, hi)
    noisy_sum = x.sum() + rng.laplace(0.0, max(abs(lo), abs(hi)) / epsilon, size=size)
    return noisy_sum / x.size


def data_sensitivity_mean(data, rng, *, epsilon, lo=0.0, hi=1.0, size=None):
    """BUG: the sensitivity is computed from the data, (max − min)/n, instead of (hi − lo)/n: no noise at all on a
    dataset of equal records, and no bound in general."""
    x = np.clip(np.asarray(data, dtype=float), lo, hi)
    sensitivity = (x.max() - x.min()) / x.size
    return x.mean() + rng.laplace(0.0, sensitivity / epsilon, size=size)
