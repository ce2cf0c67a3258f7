"""Two robust means a student might write, as user code for ``dpcompendium audit``: both leak through the data.

Neighbours: replace-one with n public; records in [lo, hi], so a mean of clamped records has sensitivity
Δ = (hi − lo)/n.

- ``winsorized_mean`` winsorizes at the data's 10th and 90th percentiles before averaging, to resist outliers, and
  adds the Lap(Δ/ε) noise of a plain clamped mean. But the clip bounds come from the data: moving one record moves
  the percentiles and so every clipped record. On (lo, lo, hi×8) vs (lo, hi×9) the mean moves by 0.19 (hi − lo)
  instead of Δ = 0.1 (hi − lo) (n = 10): the pair's privacy loss is 1.9 ε. Records all at lo or all at hi never show
  it (the percentiles do not move); the audit's mixed datasets do (``--input dataset:10,0,1`` alone).
- ``large_values_mean`` averages only the records above ``threshold`` and returns ``None`` when there are none: a
  dataset without a large record gives ``None`` always, its neighbour with one never — no finite ε.

Try::

    dpcompendium audit examples/coursework/winsorized_mean.py:winsorized_mean --epsilon 1 \\
        --neighbours replace-one --input dataset:10,0,1
"""

import numpy as np


def winsorized_mean(data, rng, *, epsilon, lo=0.0, hi=1.0, size=None):
    """BUG: mean of the records clipped to their own 10th and 90th percentiles, + Lap((hi − lo)/(n ε)): the clip
    bounds depend on the data, so the sensitivity is larger than (hi − lo)/n (1.9 times on n = 10 records)."""
    x = np.clip(np.asarray(data, dtype=float), lo, hi)
    p10, p90 = np.percentile(x, [10, 90])
    winsorized = np.clip(x, p10, p90)
    return winsorized.mean() + rng.laplace(0.0, (hi - lo) / (x.size * epsilon), size=size)


def large_values_mean(data, rng, *, epsilon, lo=0.0, hi=1.0, threshold=0.5):
    """BUG: the mean of the records above ``threshold`` with Laplace noise — and ``None`` when there are none, which
    tells whether the dataset holds a large record at all."""
    x = np.clip(np.asarray(data, dtype=float), lo, hi)
    large = x[x > threshold]
    if large.size == 0:
        return None
    return float(large.mean() + rng.laplace(0.0, (hi - lo) / (large.size * epsilon)))
