"""Privacy claims: what each mechanism promises, stated in one place.

Every mechanism or estimator in the book states its neighbour relation, its sensitivity and its (ε, δ). A
:class:`PrivacyClaim` is that statement as data, so that chapters can tabulate it and the ``privacy-audit`` chapter can
check it against what the mechanism actually delivers.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Literal

Neighbours = Literal["replace-one", "add-remove", "local"]

NEIGHBOUR_RELATIONS: dict[str, str] = {
    "replace-one": "datasets of the same public size n that differ in one record (bounded DP)",
    "add-remove": "datasets that differ by adding or removing one record (unbounded DP)",
    "local": "any two inputs of one user (local DP: the guarantee holds per report)",
}


@dataclass(frozen=True)
class PrivacyClaim:
    """A mechanism's privacy statement.

    ``private`` is False for methods that the book shows are *not* private as written; ``why`` then says why.
    """

    mechanism: str
    neighbours: Neighbours
    sensitivity: str
    epsilon: float
    delta: float = 0.0
    private: bool = True
    why: str = ""

    def __post_init__(self) -> None:
        if self.neighbours not in NEIGHBOUR_RELATIONS:
            raise ValueError(
                f"neighbours must be one of {sorted(NEIGHBOUR_RELATIONS)}, got {self.neighbours!r}"
            )

    def as_dict(self) -> dict:
        return asdict(self)
