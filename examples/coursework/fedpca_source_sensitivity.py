"""The noisy second-moment matrix of the federated-pca chapter as user code, calibrated as the source does.

Rows satisfy ||x||_2 <= 1. The release is the upper triangle (diagonal included) of A = X^T X / n plus independent
N(0, τ²) noise with the classical τ = Δ sqrt(2 ln(1.25/δ)) / ε and the source's Δ = 1/n. That Δ is right for
add-remove neighbours with public n; under the replace-one neighbours the source states, the upper triangle moves
by up to sqrt(2)/n (x = e1 replaced by e2), and the exact ε at the claimed δ exceeds the claim (about 1.10 at
ε = 1, δ = 1e-5). An empirical audit cannot see a gap that small at δ = 1e-5::

    dpcompendium audit examples/coursework/fedpca_source_sensitivity.py:second_moment_gauss --epsilon 1 \\
        --delta 1e-5 --neighbours replace-one --pair '[[1, 0], [0, 1]]' '[[1, 0], [1, 0]]' --samples 20000
"""

import numpy as np


def second_moment_gauss(data, rng, *, epsilon, delta, size=None):
    """Upper triangle of XᵀX/n + N(0, τ²), τ = (1/n)·sqrt(2 ln(1.25/δ))/ε (the source's calibration)."""
    x = np.asarray(data, dtype=float)
    n, d = x.shape
    iu = np.triu_indices(d)
    a = (x.T @ x / n)[iu]
    tau = np.sqrt(2.0 * np.log(1.25 / delta)) / (n * epsilon)
    shape = a.shape if size is None else (size, *a.shape)
    return a + rng.normal(0.0, tau, size=shape)
