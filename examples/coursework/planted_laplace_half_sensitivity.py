"""Planted bug of the privacy-audit chapter as user code: Laplace calibrated to half the sensitivity.

``value`` is a query answer of sensitivity 1 (``--input scalar:0,1``). It claims ε-DP and delivers 2ε-DP. See
:func:`dpcompendium.chapters.privacy_audit.laplace_half_sensitivity`.

    dpcompendium audit examples/coursework/planted_laplace_half_sensitivity.py:laplace_half_sensitivity \\
        --epsilon 1 --input scalar:0,1
"""


def laplace_half_sensitivity(value, rng, *, epsilon, sensitivity=1.0, size=None):
    """PLANTED BUG: value + Lap((sensitivity/2)/ε)."""
    return value + rng.laplace(0.0, 0.5 * sensitivity / epsilon, size=size)
