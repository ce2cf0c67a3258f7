"""A student's generalized randomized response (k-ary RR, local DP), written as user code for ``dpcompendium audit``.

One user's category in {0, …, k−1} (``--input category:4``; any two values are neighbours: ``local``). GRR keeps
the true category with probability e^ε/(e^ε + k − 1) and otherwise reports one of the k − 1 others uniformly: the
ratio of any output's probabilities on two inputs is at most e^ε, so it is ε-LDP.

- ``grr`` — correct.
- ``grr_half_noise`` — BUG: the keep probability is computed with 2ε (half the noise): it is only 2ε-LDP.

    dpcompendium audit examples/coursework/grr_student.py:grr_half_noise --epsilon 1 --input category:4 -p k 4
"""

import math

import numpy as np


def _grr(value, rng, k, epsilon, size):
    shape = () if size is None else size
    keep = rng.random(shape) < math.exp(epsilon) / (math.exp(epsilon) + k - 1)
    other = rng.integers(0, k - 1, size=shape)
    return np.where(keep, value, other + (other >= value))


def grr(value, rng, *, k, epsilon, size=None):
    """Keep the true category with probability e^ε/(e^ε + k − 1), else a uniform other one: ε-LDP."""
    return _grr(value, rng, k, epsilon, size)


def grr_half_noise(value, rng, *, k, epsilon, size=None):
    """BUG: the keep probability of 2ε — the release is only 2ε-LDP."""
    return _grr(value, rng, k, 2.0 * epsilon, size)
