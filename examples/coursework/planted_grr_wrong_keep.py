"""Planted bug of the privacy-audit chapter as user code: k-ary randomized response with the binary keep probability.

One user's category in {0, …, k−1} (``--input category:4``, local DP). It keeps the true category with probability
e^ε/(e^ε + 1) instead of e^ε/(e^ε + k − 1): it claims ε-LDP and delivers ε + ln(k − 1). ``grr_wrong_keep_pmf`` gives
the exact output law, so the audit is exact. See :func:`dpcompendium.chapters.privacy_audit.grr_wrong_keep`.

    dpcompendium audit examples/coursework/planted_grr_wrong_keep.py:grr_wrong_keep \\
        --epsilon 1 --neighbours local --input category:4 -p k 4
"""

import math

import numpy as np


def _keep(k, epsilon):
    return math.exp(epsilon) / (math.exp(epsilon) + 1.0)  # PLANTED BUG: should be e^ε/(e^ε + k − 1)


def grr_wrong_keep(value, rng, *, k, epsilon, size=None):
    """PLANTED BUG: keep the true category with probability e^ε/(e^ε + 1), else a uniform other one."""
    shape = () if size is None else size
    keep = rng.random(shape) < _keep(k, epsilon)
    other = rng.integers(0, k - 1, size=shape)
    return np.where(keep, value, other + (other >= value))


def grr_wrong_keep_pmf(value, *, k, epsilon):
    """The exact output law of :func:`grr_wrong_keep`: {output: probability}."""
    p = _keep(k, epsilon)
    return {o: (p if o == int(value) else (1.0 - p) / (k - 1)) for o in range(k)}
