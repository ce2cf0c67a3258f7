"""Sentences of a chapter's prose computed from its run (issue 26).

A chapter's text is read beside the run that printed it, at any parameters. Numbers the run computes are glued
(``glue("key", prose.num(x), display=False)`` in a code cell, ``{glue:text}`key` `` in the markdown), and a
qualitative result statement ("P-HP wins on sparse histograms") is either generated from the run's numbers or
guarded: :func:`guarded` returns the statement when the check computed from the run holds, and otherwise a visible
note that says what the run found instead. Plain text, no markup: ``{glue:text}`` pastes it as it is (the book shades
pasted text on a rerun page).
"""

from __future__ import annotations

import math
from collections.abc import Iterable

__all__ = ["NOTE", "count", "guarded", "listing", "num", "pairs", "plural", "span"]

#: How a guarded statement that does not hold at the run's parameters begins.
NOTE = "At these parameters"


def num(x: float, digits: int = 3) -> str:
    """``x`` to ``digits`` significant figures, as the headline cells print it (``1.23e+04`` becomes ``12300``;
    numbers from 10⁶ on keep the exponent); ``nan`` as "n/a"."""
    x = float(x)
    if math.isnan(x):
        return "n/a"
    if math.isinf(x):
        return "∞" if x > 0 else "−∞"
    text = f"{x:.{digits}g}"
    if "e" in text and abs(x) < 1e6:
        text = f"{float(text):.0f}"
    return text


def span(values: Iterable[float], digits: int = 3, sep: str = "–") -> str:
    """The range of ``values`` as ``lo–hi`` (one number when both round alike), e.g. ``8.9–19``."""
    vals = [float(v) for v in values if not math.isnan(float(v))]
    if not vals:
        return "n/a"
    lo, hi = num(min(vals), digits), num(max(vals), digits)
    return lo if lo == hi else f"{lo}{sep}{hi}"


def listing(values: Iterable[float], digits: int = 3) -> str:
    """``values`` as a comma-separated list, e.g. ``285, 229, 207``."""
    return ", ".join(num(v, digits) for v in values)


def pairs(values, name: str = "ε", digits: int = 3) -> str:
    """A mapping or a pandas Series ``{key: value}`` as ``value at name = key, …``, e.g. ``285 at ε = 1, 207 at ε = 10``."""
    items = values.items() if hasattr(values, "items") else values
    return ", ".join(f"{num(v, digits)} at {name} = {k:g}" for k, v in items)


def plural(n: int, noun: str, many: str | None = None) -> str:
    """``n noun`` with the noun agreeing: ``1 repetition``, ``2 repetitions`` (``many``: an irregular plural)."""
    n = int(n)
    return f"{n} {noun if n == 1 else (many or noun + 's')}"


def count(k: int, n: int) -> str:
    """``k of n``."""
    return f"{int(k)} of {int(n)}"


def guarded(holds: bool, statement: str, instead: str) -> str:
    """``statement`` when the run's check ``holds``; otherwise a visible note: "At these parameters: ``instead``
    (unlike the book's default run)" (``instead`` says what the run found, with its numbers). Neither ends with a
    full stop: the sentence around the paste supplies the punctuation."""
    if bool(holds):
        return statement
    return f"{NOTE}: {instead.rstrip('.')} (unlike the book's default run)"
