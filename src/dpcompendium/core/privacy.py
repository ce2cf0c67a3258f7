"""Privacy claims: what each mechanism promises, and the conditions it rests on, stated in one place.

Every mechanism or estimator in the book states its neighbour relation, its sensitivity, its (ε, δ) and the
assumptions the guarantee needs (public preprocessing statistics, which quantities are public, the range where a
noise calibration is proved). A :class:`PrivacyClaim` is that statement as data, so that chapters tabulate it and
render every sentence that states a guarantee from it (:meth:`PrivacyClaim.statement`, :func:`claims_table`), and the
``privacy-audit`` chapter checks it against what the mechanism actually delivers. A claim whose parameters fall
outside its conditions is ``private=False`` with the reason in ``why``.
"""

from __future__ import annotations

import dataclasses
import math
import numbers
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass
from typing import Literal

import numpy as np

Neighbours = Literal["replace-one", "add-remove", "local"]
#: The neighbour relations of the book (the values of ``Neighbours``).
NEIGHBOUR_RELATIONS: tuple[str, ...] = ("replace-one", "add-remove", "local")

NEIGHBOUR_RELATIONS: dict[str, str] = {
    "replace-one": "datasets of the same public size n that differ in one record (bounded DP)",
    "add-remove": "datasets that differ by adding or removing one record (unbounded DP)",
    "local": "any two inputs of one user (local DP: the guarantee holds per report)",
}


def _real(value: object, name: str) -> float:
    """``value`` as a float if it is a real number (not a bool, not NaN); else a one-line ValueError."""
    if (
        isinstance(value, bool | np.bool_)
        or not isinstance(value, numbers.Real)
        or math.isnan(float(value))
    ):
        raise ValueError(f"{name} must be a real number, got {value!r}")
    return float(value)


def _fmt(x: float) -> str:
    """4 significant digits, or 7 when rounding to 4 gives a round number that hides a difference (ε(1 + 5·10⁻⁶)
    is "1.000005", not "1"; 2.1666… stays "2.167")."""
    if math.isinf(x):
        return "inf"
    short = f"{x:.4g}"
    digits = short.split("e")[0].replace("-", "").replace(".", "").lstrip("0")
    hides = len(digits) < 4 and abs(float(short) - x) > 1e-9 * abs(x)
    return f"{x:.7g}" if hides else short


@dataclass(frozen=True)
class PrivacyClaim:
    """A mechanism's privacy statement.

    ``private`` is False for methods that the book shows are *not* private as written, or whose parameters fall
    outside the conditions of the guarantee; ``why`` then says why (``why`` may also comment a private claim).
    ``conditions`` lists the assumptions the guarantee rests on (each a short sentence); a ``private=True`` claim is
    true only under them, and :meth:`statement` always prints them.
    """

    mechanism: str
    neighbours: Neighbours
    sensitivity: str
    epsilon: float
    delta: float = 0.0
    private: bool = True
    why: str = ""
    conditions: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        """Validated on construction, so that no layer above re-checks a claim: the relation is one of
        :data:`NEIGHBOUR_RELATIONS`; ε a real number > 0 (∞ only in a claim that is not private); δ in [0, 1); the
        sensitivity a non-empty statement; the conditions a tuple of strings."""
        if self.neighbours not in NEIGHBOUR_RELATIONS:
            raise ValueError(
                f"neighbours must be one of {sorted(NEIGHBOUR_RELATIONS)}, got {self.neighbours!r}"
            )
        eps = _real(self.epsilon, "epsilon")
        if not eps > 0 or (self.private and math.isinf(eps)):
            bound = "finite and > 0" if self.private else "> 0"
            raise ValueError(f"epsilon must be {bound}, got {self.epsilon!r}")
        delta = _real(self.delta, "delta")
        if not 0.0 <= delta < 1.0:
            raise ValueError(f"delta must be in [0, 1), got {self.delta!r}")
        if not isinstance(self.sensitivity, str) or not self.sensitivity.strip():
            raise ValueError(f"sensitivity must be a non-empty statement, got {self.sensitivity!r}")
        if not isinstance(self.private, bool | np.bool_):
            raise ValueError(f"private must be True or False, got {self.private!r}")
        if isinstance(self.conditions, str):
            raise ValueError(f"conditions must be a tuple of strings, got {self.conditions!r}")
        object.__setattr__(self, "conditions", tuple(self.conditions))

    @property
    def guarantee(self) -> str:
        """``"(ε, δ)-DP"`` or ``"ε-DP"`` with the numbers (``"ε-LDP"`` for local claims)."""
        dp = "LDP" if self.neighbours == "local" else "DP"
        if self.delta:
            return f"({_fmt(self.epsilon)}, {self.delta:.3g})-{dp}"
        return f"{_fmt(self.epsilon)}-{dp}"

    def statement(self) -> str:
        """One sentence stating the guarantee with its relation and conditions, or why there is none."""
        if not self.private:
            return f"{self.mechanism}: not {self.guarantee} as claimed — {self.why}"
        rel = "" if self.neighbours == "local" else f" under {self.neighbours} neighbours"
        cond = f", given: {'; '.join(self.conditions)}" if self.conditions else ""
        return f"{self.mechanism}: {self.guarantee}{rel} (sensitivity {self.sensitivity}){cond}"

    def failing(self, why: str) -> PrivacyClaim:
        """The same claim, ``private=False`` with reason ``why`` (a condition does not hold)."""
        return dataclasses.replace(self, private=False, why=why)

    def with_conditions(self, *conditions: str) -> PrivacyClaim:
        """The same claim with extra conditions appended."""
        return dataclasses.replace(self, conditions=(*self.conditions, *conditions))

    def as_dict(self) -> dict:
        d = asdict(self)
        d["conditions"] = "; ".join(self.conditions)
        d["guarantee"] = self.guarantee if self.private else "none"
        d["statement"] = self.statement()
        return d


def claims_table(claims: Mapping[str, PrivacyClaim] | Iterable[PrivacyClaim], key: str = "method"):
    """A DataFrame of claims, one row each (``key`` column from the mapping's keys), with the rendered statement."""
    import pandas as pd

    items = (
        list(claims.items()) if isinstance(claims, Mapping) else [(c.mechanism, c) for c in claims]
    )
    return pd.DataFrame([{key: k, **c.as_dict()} for k, c in items])
