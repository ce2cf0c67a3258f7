"""Reader review 4, m11: a claim's ε that four digits would round to a round number it is not is typeset as that
number plus or minus the difference ("(1 + 5·10⁻⁶)-DP"), not as "1.000005-DP"; its plain text keeps the digits."""

from __future__ import annotations

import pytest

from dpcompendium.core.privacy import PrivacyClaim, epsilon_tex


@pytest.mark.parametrize(
    ("eps", "tex"),
    [
        (1 + 5e-6, r"(1 + 5 \cdot 10^{-6})"),
        (1.5 - 5e-6, r"(1.5 - 5 \cdot 10^{-6})"),
        (0.5 + 5e-6, r"(0.5 + 5 \cdot 10^{-6})"),
        (13 / 6, "2.167"),
        (1.48988, "1.49"),
        (1.0, "1"),
    ],
)
def test_a_near_round_epsilon_is_typeset_as_the_round_number_and_its_difference(eps, tex):
    assert epsilon_tex(eps) == tex


def test_the_guarantee_keeps_the_digits_in_plain_text_and_typesets_the_difference():
    claim = PrivacyClaim(mechanism="m", epsilon=1 + 5e-6, neighbours="replace-one", sensitivity="1")
    assert str(claim.guarantee_md) == "1.000005-DP"
    assert r"$(1 + 5 \cdot 10^{-6})$-DP" in claim.guarantee_md.myst
