"""Duchi et al.'s one-bit mechanism for a value in [-1, 1] as user code, with a planted bug (hiera chapter).

A user with value v reports +1/c with probability (1 + c v)/2 and -1/c otherwise; the report is unbiased for v.
With c = tanh(ε/2) = (e^ε - 1)/(e^ε + 1) the likelihood ratio is at most (1 + c)/(1 - c) = e^ε: ε-LDP. This is the
c_s of the hiera chapter's LHP. The planted bug writes c = tanh(ε): the ratio becomes e^{2ε}, so the report is only
2ε-LDP (with a smaller variance, which is how such a bug looks like an improvement). Both functions come with their
probability mass function, so the audit is exact::

    dpcompendium audit examples/coursework/hiera_duchi_wrong_tanh.py:duchi_wrong_tanh --epsilon 1 \\
        --neighbours local --input ldp --samples 20000
"""

import numpy as np


def _report(data, rng, c, size):
    v = float(np.clip(data, -1.0, 1.0))
    up = rng.random(size) < (1.0 + c * v) / 2.0
    return np.where(up, 1.0 / c, -1.0 / c)


def _pmf(data, c):
    v = float(np.clip(data, -1.0, 1.0))
    return {1.0 / c: (1.0 + c * v) / 2.0, -1.0 / c: (1.0 - c * v) / 2.0}


def duchi(data, rng, *, epsilon, size=None):
    """±1/c with P(+1/c) = (1 + c v)/2, c = tanh(ε/2): ε-LDP."""
    return _report(data, rng, np.tanh(epsilon / 2.0), size)


def duchi_pmf(data, *, epsilon):
    """The exact output law of :func:`duchi`."""
    return _pmf(data, np.tanh(epsilon / 2.0))


def duchi_wrong_tanh(data, rng, *, epsilon, size=None):
    """PLANTED BUG: c = tanh(ε) instead of tanh(ε/2); the report is 2ε-LDP, not ε-LDP."""
    return _report(data, rng, np.tanh(epsilon), size)


def duchi_wrong_tanh_pmf(data, *, epsilon):
    """The exact output law of :func:`duchi_wrong_tanh`."""
    return _pmf(data, np.tanh(epsilon))
