"""Sentences of a chapter's prose computed from its run (issue 26), typeset (issue 33).

A chapter's text is read beside the run that printed it, at any parameters. Numbers the run computes are glued
(``glue("key", prose.num(x), display=False)`` in a code cell tagged ``remove-cell``, the ``{glue:md}`` role (``key:myst``) in the
markdown), and a qualitative result statement ("P-HP wins on sparse histograms") is either generated from the run's
numbers or guarded: :func:`guarded` returns the statement when the check computed from the run holds, and otherwise
a visible note that says what the run found instead.

Every helper returns a :class:`~dpcompendium.core.messages.Md`: its ``str`` is the plain text (unchanged, for
``{glue:text}``, CSVs and asserts) and its MyST (``.myst``, what ``myst_nb.glue`` stores as ``text/markdown``)
typesets the maths: ``pairs({1: 285})`` is "285 at ε = 1" and "285 at $\varepsilon = 1$". The sentences come from
the templates of :mod:`dpcompendium.core.messages` (one catalogue, one table per language). A string built with an
f-string is plain text again: :func:`glue` (a drop-in for ``myst_nb.glue``) typesets any string it is given
(:func:`~dpcompendium.core.messages.to_myst`), so every glued value can be pasted with ``{glue:md}``.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Iterable
from typing import Any

from ..core.messages import (
    CATALOGUE,
    EDITIONS,
    NOUNS,
    Md,
    join,
    message,
    myst,
    number,
    show,
    tex_number,
    to_myst,
)

__all__ = [
    "NOTE",
    "Md",
    "count",
    "glue",
    "guarded",
    "listing",
    "markdown",
    "num",
    "pairs",
    "plural",
    "show",
    "span",
    "translated_key",
]

#: How a guarded statement that does not hold at the run's parameters begins.
NOTE = "At these parameters"


def num(x: float, digits: int = 3) -> Md:
    """``x`` to ``digits`` significant figures, as the headline cells print it (``1.23e+04`` becomes ``12300``;
    numbers from 10⁶ on keep the exponent, typeset as $2.5 \\times 10^{7}$); ``nan`` as "n/a"."""
    text = number(float(x), digits)
    if "e" in text or "∞" in text:
        return Md(text, f"${tex_number(text)}$")
    # the page sets a negative number with a true minus sign (reader review 4, m11); the plain text keeps the
    # hyphen-minus of the headline cells
    return Md(text, "−" + text[1:] if text.startswith("-") else text)


def span(values: Iterable[float], digits: int = 3, sep: str = "–") -> Md:
    """The range of ``values`` as ``lo–hi`` (one number when both round alike), e.g. ``8.9–19``."""
    vals = [float(v) for v in values if not math.isnan(float(v))]
    if not vals:
        return message("prose.na")
    lo, hi = num(min(vals), digits), num(max(vals), digits)
    return lo if lo == hi else lo + sep + hi


def listing(values: Iterable[float], digits: int = 3) -> Md:
    """``values`` as a comma-separated list, e.g. ``285, 229, 207``."""
    return join(num(v, digits) for v in values)


def pairs(values, name: str = "ε", digits: int = 3) -> Md:
    """A mapping or a pandas Series ``{key: value}`` as ``value at name = key, …``, e.g. ``285 at ε = 1, 207 at
    ε = 10`` (typeset: ``285 at $\\varepsilon = 1$``)."""
    items = values.items() if hasattr(values, "items") else values
    symbol = Md(name, to_myst(name).strip("$") if to_myst(name).startswith("$") else name)
    return join(
        (
            message(
                "prose.pair",
                value=num(v, digits),
                name=Md(name, symbol.myst),
                key=Md(f"{k:g}", f"{k:g}"),
            )
            for k, v in items
        ),
        clauses=True,
    )


def plural(n: int, noun: str, many: str | None = None) -> Md:
    """``n noun`` with the noun agreeing: ``1 repetition``, ``2 repetitions`` (``many``: an irregular plural)."""
    n = int(n)
    word = noun if n == 1 else (many or noun + "s")
    by_lang = {lang: to_myst(NOUNS.get(lang, {}).get(noun, word)) for lang in CATALOGUE}
    by_lang["en"] = to_myst(word)
    return message("prose.plural", n=str(n), noun=Md(word, to_myst(word), by_lang))


def count(k: int, n: int, *, every: bool = False) -> Md:
    """``k of n``; with ``every``, ``all n`` when every one of several is counted (native review 9, S5: "在 8 个中
    8 个" read "8 of 8" word for word). Opt-in: a count that opens a sentence ("12 of 12 verdicts are right") would
    read "all 12 …" in lower case."""
    if every and int(k) == int(n) > 1:
        return message("prose.count_all", n=str(int(n)))
    return message("prose.count", k=str(int(k)), n=str(int(n)))


def guarded(holds: bool, statement: str, instead: str) -> Md:
    """``statement`` when the run's check ``holds``; otherwise a visible note: "At these parameters: ``instead``
    (unlike the book's default run)" (``instead`` says what the run found, with its numbers). Neither ends with a
    full stop: the sentence around the paste supplies the punctuation."""
    if bool(holds):
        return statement if isinstance(statement, Md) else Md(str(statement))
    if isinstance(instead, Md):
        found = Md(
            _unstopped(str(instead)),
            _unstopped(instead.myst),
            {lang: _unstopped(text) for lang, text in instead.by_lang.items()},
        )
    else:
        found = Md(_unstopped(str(instead)))
    return message("prose.note", instead=found)


def _unstopped(text: str) -> str:
    """``text`` without the full stops and spaces it ends with (a found text "… no check. " or "… z = 1 ."): the
    note closes it with its own "(unlike the book's default run)", and the sentence around the paste supplies the
    punctuation, so no space or second full stop may stand before the note's end (issue 49)."""
    return text.rstrip(" \t\n.。")


def markdown(value: Any) -> Any:
    """``value`` as the book glues it: an :class:`Md` as it is, a string typeset
    (:func:`~dpcompendium.core.messages.to_myst`), a number as Python writes it (round it with :func:`num`: the
    text/plain stays what IPython would store, so ``{glue:text}`` is unchanged); anything else (a figure, a
    table) unchanged."""
    if isinstance(value, Md):
        return value
    if isinstance(value, str):
        return Md(value)
    if isinstance(value, numbers.Number) and not isinstance(value, bool):
        from IPython.lib.pretty import pretty

        return Md(pretty(value), myst(str(value)))
    return value


def translated_key(name: str, lang: str) -> str:
    """The key under which :func:`glue` stores the rendering of glued value ``name`` in ``lang``."""
    return f"{name}__{lang}"


def _plain_of_myst(text: str) -> str:
    """The plain text of a MyST rendering (maths delimiters and backslash escapes removed)."""
    import re

    text = re.sub(r"(?<!\\)\$", "", text)
    return re.sub(r"\\([\\`*_\[\]<>|${}])", r"\1", text)


def glue(name: str, variable: Any, display: bool = True) -> None:
    """``myst_nb.glue`` with ``variable`` typeset (:func:`markdown`), so that the ``{glue:md}`` role (``name:myst``) pastes its
    maths; ``{glue:text}`` still pastes the plain text.

    A text built from the message templates (an :class:`Md` with renderings in other languages) is also glued as
    ``name__<lang>`` for each language of ``EDITIONS`` where its MyST differs from the English: the edition in
    that language pastes it in place of ``name`` (``dpcompendium.book.glue_i18n``), from the same execution."""
    from myst_nb import glue as _glue

    value = markdown(variable)
    _glue(name, value, display=display)
    if isinstance(value, Md) and value.by_lang:
        for lang in EDITIONS:
            text = value.in_language(lang)
            if text != value.in_language("en"):
                _glue(translated_key(name, lang), Md(_plain_of_myst(text), text), display=False)
