"""The audit's event in words and values: what the outputs in it look like, how often each input gives them, and
whether the leak it shows is finite (:func:`event_text`, :func:`bound_text`, :func:`coverage_text`).

Every sentence comes from the message catalogue (:mod:`dpcompendium.core.messages`, ``audit.*``), so a report's text
is rendered in English (plain for the console, MyST for a page) and in Chinese from the same run.
"""

from __future__ import annotations

import math
from collections import Counter
from typing import Any

import numpy as np

from ...core.messages import Md, join, literal, message
from .sampling import NAN, as_structured

#: Outputs per input of the chosen pair drawn to describe the event (a fresh stream: the bound never sees them).
DESCRIBE_DRAWS = 2_000
#: An event is named by its values when its outputs take at most this many distinct values (that the other outputs
#: never take).
MAX_NAMED = 4
#: The count on the frequent side from which a zero count on the other side reads as an infinite leak.
INFINITE_MIN_COUNT = 10


def _atom(v: Any) -> str:
    if v is None:
        return "None"
    if v == NAN:
        return "NaN"
    if isinstance(v, str):
        return repr(v)
    if isinstance(v, tuple):
        return "[" + ", ".join(_atom(a) for a in v) + "]"
    return f"{float(v):.6g}"


def value_text(v: Any) -> Md:
    """One canonical output (:func:`~dpcompendium.book.usercode.sampling.as_structured`) as text: ``None``,
    ``'yes'``, ``0.5``, ``[1, NaN, NaN]``, or "an empty list"."""
    if v == ():
        return message("audit.empty_list")
    text = _atom(v)
    return literal(text if len(text) <= 60 else text[:57] + "…")


def canonical(out: np.ndarray) -> list:
    """The outputs of one call each, as hashable canonical values (numbers, tuples, ``None``, strings)."""
    if out.dtype == object:
        return list(out)
    if out.dtype.kind in "USa":
        return [o.item() if np.ndim(o) == 0 else tuple(x.item() for x in o) for o in out]
    if out.dtype.kind in "biuf" and out.ndim in (1, 2) and not np.isinf(out).any():
        return _canonical_numeric(out)
    return list(as_structured(list(out), "function"))


def _canonical_numeric(out: np.ndarray) -> list:
    """:func:`canonical` of a finite-or-NaN numeric array of one or two dimensions, without the per-value type
    dispatch of ``as_structured``: the same values (Python floats, :data:`NAN` for NaN, rows as tuples)."""
    x = out.astype(np.float64, copy=False)
    nan = np.isnan(x)
    values = x.tolist()
    if x.ndim == 1:
        if not nan.any():
            return values
        return [NAN if m else v for v, m in zip(values, nan.tolist(), strict=True)]
    rows = nan.any(axis=1).tolist()
    masks = nan.tolist()
    return [
        tuple(NAN if m else v for v, m in zip(row, mask, strict=True)) if has else tuple(row)
        for row, mask, has in zip(values, masks, rows, strict=True)
    ]


def statistic_text(key: str) -> Md:
    """The statistic an interval event is on, in words."""
    if key.startswith("coordinate:"):
        return message("audit.stat.coordinate", j=literal(key.partition(":")[2]))
    return message(f"audit.stat.{key}")


def _interval(lo: float, hi: float) -> Md:
    return literal(f"({lo:.6g}, {hi:.6g}]")


def event_values(inside: list, outside: list, stat_key: str, lo: float, hi: float) -> Md:
    """The event in words: its values (``output is None``, ``output is one of 0, 1``) when its outputs take at most
    :data:`MAX_NAMED` distinct values that outputs outside it never take; else an interval of the output
    (``output ≤ 0.15``), or of the statistic with the most common outputs in it as examples."""
    counts = Counter(inside)
    if counts and len(counts) <= MAX_NAMED and not any(o in counts for o in outside):
        vals = [value_text(v) for v, _ in counts.most_common()]
        if len(vals) == 1:
            return message("audit.output_is", value=vals[0])
        return message("audit.output_one_of", values=join(vals))
    if stat_key == "output":
        if math.isinf(lo) and lo < 0:
            return message("audit.output_at_most", hi=literal(f"{hi:.6g}"))
        if math.isinf(hi):
            return message("audit.output_above", lo=literal(f"{lo:.6g}"))
        return message("audit.output_in", interval=_interval(lo, hi))
    examples = join([value_text(v) for v, _ in counts.most_common(2)]) if counts else literal("—")
    return message(
        "audit.statistic_in",
        statistic=statistic_text(stat_key),
        interval=_interval(lo, hi),
        examples=examples,
    )


def frequency(count: int, n: int) -> Md:
    """How often an input gave the event: ``41 %``, ``0.032 %`` or ``never (0 of 100000)``."""
    if count == 0:
        return message("audit.never", n=literal(str(n)))
    pct = 100.0 * count / n
    return literal(f"{pct:.0f} %" if pct >= 10 else f"{pct:.2g} %")


D, D2 = Md("D", "$D$"), Md("D′", "$D'$")


def event_text(description: Md, k_a: int, k_b: int, n: int) -> Md:
    """The event and its frequencies on the evaluation samples: ``output is None: 41 % on D, never (0 of 100000)
    on D′``."""
    return message(
        "audit.event_freq",
        event=description,
        pa=frequency(k_a, n),
        d=D,
        pb=frequency(k_b, n),
        d2=D2,
    )


def infinite(k_num: int, k_den: int) -> bool:
    """The event never happened on one input and often on the other: an infinite leak as far as the samples show."""
    return k_den == 0 and k_num >= INFINITE_MIN_COUNT


def bound_text(
    eps: float, confidence: float, k_a: int, k_b: int, n: int, forward: bool, delta: float = 0.0
) -> Md:
    """The audited bound: ``audited ε ≥ 1.951 with confidence 0.95``; when the event never happened on the input in
    the denominator (:func:`infinite`), the infinite leak said as such, with the bound as what the samples reach;
    when its count on the input in the numerator is too small for any bound above 0 even against a count of 0 on
    the other input (or the bound is NaN), "too few samples to bound ε" (issue 45: a bound these samples cannot
    give is said, not printed as 0 or NaN)."""
    from ...core.audit.events import epsilon_lower_bound

    k_num, k_den = (k_a, k_b) if forward else (k_b, k_a)
    eps_t, conf_t = literal(f"{eps:.3f}"), literal(f"{confidence:.3g}")
    best = float(epsilon_lower_bound(k_num, n, 0, n, delta=delta, confidence=confidence))
    if math.isnan(eps) or (eps == 0.0 and best == 0.0):
        return message(
            "audit.bound_too_few", k=literal(str(k_num)), on=D if forward else D2, n=literal(str(n)),
            conf=conf_t,
        )  # fmt: skip
    if infinite(k_num, k_den):
        return message(
            "audit.bound_infinite",
            never=D2 if forward else D,
            n=literal(str(n)),
            eps=eps_t,
            conf=conf_t,
        )
    return message("audit.bound", eps=eps_t, conf=conf_t)


def parameters_text(sources: dict) -> Md:
    """``, function run with epsilon = 0.5 (its default)``: where the function's ``epsilon`` and ``delta`` came
    from (the audit's ``sources``: set with ``params``, the function's default, or the claim); empty if it has
    neither."""
    if not sources:
        return Md("", "")
    parts = [
        message(
            f"audit.param.{how}",
            name=literal(name),
            value=literal(f"{value}" if not isinstance(value, float) else f"{value:g}"),
        )
        for name, (value, how) in sources.items()
    ]
    return message("audit.ran_with", params=join(parts))


def coverage_text(counts: dict, mixed: dict | None = None) -> Md:
    """What the search covered: the candidate pairs by kind (:func:`~dpcompendium.book.usercode.families.family_coverage`)
    and, for the mixed datasets, the counts k of records at the upper bound (``mixed``: ``size``, ``a``, ``b``,
    ``ks``)."""
    parts = []
    if counts.get("declared"):
        parts.append(message("audit.coverage.declared", n=literal(str(counts["declared"]))))
    if counts.get("mixed") and mixed is not None:
        parts.append(
            message(
                "audit.coverage.mixed",
                n=literal(str(counts["mixed"])),
                size=literal(str(mixed["size"])),
                a=literal(f"{mixed['a']:g}"),
                b=literal(f"{mixed['b']:g}"),
                ks=literal(_ranges(mixed["ks"])),
            )
        )
    if counts.get("probe"):
        parts.append(message("audit.coverage.probe", n=literal(str(counts["probe"]))))
    total = counts.get("declared", 0) + counts.get("mixed", 0) + counts.get("probe", 0)
    return message(
        "audit.coverage",
        n=literal(str(total)),
        inputs=literal(str(counts["inputs"])),
        parts=join(parts),
    )


def _ranges(ks: list[int]) -> str:
    """``[0, 1, 2, 3, 7, 8]`` → ``0…3, 7, 8``."""
    out, start = [], None
    for i, k in enumerate(ks):
        if start is None:
            start = k
        if i + 1 == len(ks) or ks[i + 1] != k + 1:
            out.append(
                f"{start}…{k}" if k - start >= 2 else ", ".join(str(v) for v in range(start, k + 1))
            )
            start = None
    return ", ".join(out)
