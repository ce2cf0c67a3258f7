"""Planted bugs: three mechanisms that *claim* ε-DP and are not, so that the audits can be shown to catch them.

- :func:`laplace_scale_epsilon` adds Lap(ε) instead of Lap(Δ/ε) (true ε = Δ/ε, a violation whenever ε < √Δ);
- :func:`laplace_half_sensitivity` calibrates to Δ/2 instead of Δ (true ε = 2ε);
- :func:`grr_wrong_keep` keeps the true category of k with the binary-RR probability e^ε/(e^ε + 1) instead of
  e^ε/(e^ε + k − 1) (true ε = ε + ln(k − 1)).

Never use them for anything but testing audits.
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import ArrayLike

from ...core.mechanisms import add_noise, grr_perturb, laplace_scale
from ...core.privacy import PrivacyClaim
from ...core.validation import check_epsilon, check_int, check_sensitivity

__all__ = [
    "grr_wrong_keep",
    "grr_wrong_keep_probabilities",
    "laplace_half_sensitivity",
    "laplace_scale_epsilon",
    "planted_claim",
    "planted_true_epsilon",
]

PLANTED = ("laplace-scale-epsilon", "laplace-half-sensitivity", "grr-wrong-keep")


def laplace_scale_epsilon(value, sensitivity, epsilon, rng, size=None):
    """PLANTED BUG: value + Lap(ε) — the scale is ε instead of Δ/ε. Claims ε-DP; delivers Δ/ε."""
    check_sensitivity(sensitivity)
    return add_noise(value, check_epsilon(epsilon), rng, size, noise="laplace")


def laplace_half_sensitivity(value, sensitivity, epsilon, rng, size=None):
    """PLANTED BUG: value + Lap((Δ/2)/ε) — half the needed sensitivity. Claims ε-DP; delivers 2ε."""
    scale = laplace_scale(0.5 * check_sensitivity(sensitivity), epsilon)  # Δ/2 where Δ is needed
    return add_noise(value, scale, rng, size, noise="laplace")


def grr_wrong_keep_probabilities(k: int, epsilon: float) -> tuple[float, float]:
    """PLANTED BUG: (p, q) with p = e^ε/(e^ε + 1) (binary RR) and q = (1 − p)/(k − 1); p/q = e^ε (k − 1)."""
    k = check_int(k, "k", minimum=2)
    e = math.exp(check_epsilon(epsilon))
    p = e / (e + 1.0)
    return p, (1.0 - p) / (k - 1)


def grr_wrong_keep(
    values: ArrayLike, k: int, epsilon: float, rng: np.random.Generator
) -> np.ndarray:
    """PLANTED BUG: GRR (:func:`~dpcompendium.core.mechanisms.grr_perturb`) with the keep probability of
    :func:`grr_wrong_keep_probabilities` instead of :func:`~dpcompendium.core.mechanisms.grr_probabilities`."""
    p, _ = grr_wrong_keep_probabilities(k, epsilon)
    return grr_perturb(values, k, p, rng)


def planted_claim(bug: str, epsilon: float, sensitivity: float = 1.0, k: int = 4) -> PrivacyClaim:
    """What the buggy code claims (ε-DP). The audit chapter shows the claim is false."""
    if bug not in PLANTED:
        raise ValueError(f"bug must be one of {'|'.join(PLANTED)}, got {bug!r}")
    if bug == "grr-wrong-keep":
        return PrivacyClaim(
            f"GRR, k={k}, wrong keep probability (planted bug)", "local", "any two inputs", epsilon
        )
    return PrivacyClaim(
        f"Laplace {bug} (planted bug)", "add-remove", f"L1 sensitivity {sensitivity:g}", epsilon
    )


def planted_true_epsilon(bug: str, epsilon: float, sensitivity: float = 1.0, k: int = 4) -> float:
    """The ε the buggy code actually delivers (analytic)."""
    eps = check_epsilon(epsilon)
    if bug == "laplace-scale-epsilon":
        return sensitivity / eps
    if bug == "laplace-half-sensitivity":
        return 2.0 * eps
    if bug == "grr-wrong-keep":
        return eps + math.log(k - 1)
    raise ValueError(f"bug must be one of {'|'.join(PLANTED)}, got {bug!r}")
