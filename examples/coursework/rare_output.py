"""A pmf that hides a rare output: why an exact audit is only as good as the check of its pmf.

``rare_output`` is randomized response on one user's bit (``--input category:2``, local DP) that keeps the bit
with probability 0.6 — ln(0.6/0.4) = ln 1.5 ≈ 0.405-LDP — plus a rare "flag" output (2), left in from debugging,
of probability 1e-4 when the bit is 1 and 1e-6 when it is 0. Its true ε is ln(1e-4/1e-6) = ln 100 ≈ 4.6.

``rare_output_pmf`` declares the flag with probability 1e-5 on both inputs, so the *declared* pmf's exact ε is
about 0.405 < 0.5, the claim. A goodness-of-fit check of n draws cannot see an output of probability ≈ 1e-4 (it
shows up at least once with probability 95 % only if p ≥ 3/n), and at 200 000 samples the empirical audit cannot
see it either: the audit must say "not established", never "exact ε = 0.41". With 4 000 000 samples per input
the empirical audit sees the flag and the verdict is VIOLATED (inconsistent with the declared pmf)::

    dpcompendium audit examples/coursework/rare_output.py:rare_output --epsilon 0.5 --input category:2
    dpcompendium audit examples/coursework/rare_output.py:rare_output --epsilon 0.5 --input category:2 --samples 4000000
"""

import numpy as np

KEEP = 0.6
#: the flag's true probability given the bit (0, 1), and the probability the pmf declares for both
FLAG = (1e-6, 1e-4)
DECLARED_FLAG = 1e-5


def rare_output(value, rng, *, size=None):
    """RR on a bit (keep with probability 0.6), and with probability FLAG[value] the flag 2 instead."""
    shape = () if size is None else size
    keep = rng.random(shape) < KEEP
    bit = np.where(keep, int(value), 1 - int(value))
    flag = rng.random(shape) < FLAG[int(value)]
    return np.where(flag, 2, bit)


def rare_output_pmf(value, **_):
    """WRONG (on purpose): declares the flag with probability 1e-5 whatever the bit."""
    v = int(value)
    rest = 1.0 - DECLARED_FLAG
    return {v: rest * KEEP, 1 - v: rest * (1 - KEEP), 2: DECLARED_FLAG}
