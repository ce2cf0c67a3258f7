"""Planted bug of the privacy-audit chapter as user code: Laplace noise of scale ε instead of Δ/ε.

``value`` is a query answer of sensitivity 1 (``--input scalar:0,1``). It claims ε-DP and delivers 1/ε-DP: a
violation whenever ε < 1 (the chapter audits ε = 0.5, true ε = 2). See
:func:`dpcompendium.chapters.privacy_audit.laplace_scale_epsilon`.

    dpcompendium audit examples/coursework/planted_laplace_scale_epsilon.py:laplace_scale_epsilon \\
        --epsilon 0.5 --input scalar:0,1
"""


def laplace_scale_epsilon(value, rng, *, epsilon, sensitivity=1.0, size=None):
    """PLANTED BUG: value + Lap(ε) (the scale should be sensitivity/ε)."""
    return value + rng.laplace(0.0, epsilon, size=size)
