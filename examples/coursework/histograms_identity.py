"""The Identity histogram as user code, for the histograms chapter's exercise on neighbour relations.

``identity`` adds Lap(1/ε) to every bin of a histogram of counts. Under add-remove neighbours one record changes
one bin by 1 (L1 sensitivity 1): ε-DP. Under replace-one neighbours a record moves from one bin to another, two bins
change by 1 (L1 sensitivity 2), and the same code is only 2ε-DP. The audit sees the difference::

    dpcompendium audit examples/coursework/histograms_identity.py:identity --epsilon 1 \\
        --neighbours add-remove --input histogram:4 --samples 20000
    dpcompendium audit examples/coursework/histograms_identity.py:identity --epsilon 1 \\
        --neighbours replace-one --input histogram:4 --samples 20000
"""

import numpy as np


def identity(data, rng, *, epsilon, size=None):
    """counts + Lap(1/ε) per bin: ε-DP under add-remove, 2ε-DP under replace-one."""
    counts = np.asarray(data, dtype=float)
    shape = counts.shape if size is None else (size, *counts.shape)
    return counts + rng.laplace(0.0, 1.0 / epsilon, size=shape)
