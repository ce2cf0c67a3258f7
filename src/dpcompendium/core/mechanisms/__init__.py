"""Textbook mechanisms, vectorized over arrays.

- :func:`laplace_mechanism` — ε-DP for an L1 sensitivity Δ: add Lap(Δ/ε) (Dwork, McSherry, Nissim, Smith 2006).
- :func:`gaussian_mechanism` — (ε, δ)-DP for an L2 sensitivity Δ, ε < 1: σ = Δ√(2 ln(1.25/δ))/ε (Dwork & Roth 2014, Thm A.1);
  :func:`gaussian_claim` states where a calibration is valid (exact profile, Balle & Wang 2018).
- :func:`exponential_mechanism` — ε-DP selection with probability ∝ exp(ε u / (2Δu)) (McSherry & Talwar 2007).
- :func:`grr_privatise` / :func:`grr_frequencies` — generalized randomized response over k categories (Wang et al. 2017).
- :mod:`~dpcompendium.core.mechanisms.ranges` — range-query mechanisms over histograms (Identity, least squares over
  measured queries, Hb, Privelet) and :mod:`~dpcompendium.core.mechanisms.dawa` (DAWA), vectorized over repetitions.
- :func:`privunitg` — ε-LDP unbiased report of a vector of ℓ2 norm ≤ C (PrivUnitG, Asi, Feldman & Talwar 2022);
  :func:`privunitg_claim` its claim.
- :func:`add_noise` / :func:`grr_perturb` — the release steps these are built from (noise of a given scale, RR with a
  given keep probability), with no claim of their own.
"""

from .exponential import exponential_mechanism, exponential_probabilities
from .gaussian import (
    analytic_gaussian_sigma,
    gaussian_claim,
    gaussian_delta,
    gaussian_epsilon,
    gaussian_mechanism,
    gaussian_sigma,
)
from .laplace import laplace_mechanism, laplace_scale
from .noise import add_noise, release_shape
from .privunit import privunitg, privunitg_claim, privunitg_params
from .randomized_response import grr_frequencies, grr_perturb, grr_privatise, grr_probabilities

__all__ = [
    "add_noise",
    "analytic_gaussian_sigma",
    "exponential_mechanism",
    "exponential_probabilities",
    "gaussian_claim",
    "gaussian_delta",
    "gaussian_epsilon",
    "gaussian_mechanism",
    "gaussian_sigma",
    "grr_frequencies",
    "grr_perturb",
    "grr_privatise",
    "grr_probabilities",
    "laplace_mechanism",
    "laplace_scale",
    "privunitg",
    "privunitg_claim",
    "privunitg_params",
    "release_shape",
]
