"""Valid parameter sets of a chapter, drawn from its declared contract, at a small size (property-based tests).

A chapter's contract (``dpcompendium.book.contract``) gives every parameter's type, its per-parameter constraint and the
``# require:`` lines between parameters. :func:`parameter_strategy` turns it into a hypothesis strategy that draws
only valid sets: numbers inside the declared bounds *and* inside the chapter's fuzz size below, lists of distinct
elements of at most ``max_len`` items, choices among the declared ones, then a filter on every ``# require:`` line.

The fuzz size is declared in one place, the ``[fuzz]`` table of the chapter's manifest (:func:`fuzz_size`): it caps the parameters that set the cost of a run
(repetitions, sample sizes, rounds, list lengths), so that one drawn example runs in seconds. An integer without a
cap is drawn between its lower bound and its default (the default is the paper scale, the most expensive setting
the book runs); a float without a cap between its bounds intersected with :data:`FLOAT_RANGE`.

:func:`small_overrides` gives the same caps as ``-p`` overrides for one command (used to shrink documented commands
and regression cases to the fuzz size while keeping their shape).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from .contract import Chapter, Parameter, validate_parameters

__all__ = [
    "FLOAT_RANGE",
    "MAX_LEN",
    "EdgeSet",
    "ExtremeCase",
    "edge_sets",
    "edge_subset",
    "edge_values",
    "extreme_cases",
    "fuzz_size",
    "parameter_strategy",
    "small_overrides",
]

#: Default range of a float parameter in the fuzz (intersected with its declared bounds).
FLOAT_RANGE = (0.05, 20.0)
#: Default longest list drawn.
MAX_LEN = 3
#: Parameters never drawn (set by ``--out``).
SKIP = frozenset({"output_dir"})


def fuzz_size(chapter: Chapter) -> dict[str, Any]:
    """The chapter's fuzz size, from the ``[fuzz]`` table of its manifest: ``name -> (low, high)`` caps of a number
    (elementwise for a list), ``max_len`` (longest list), and for lists whose shape a ``# require:`` line fixes,
    ``list_len`` (name -> exact length) and ``sorted`` (names drawn in increasing order), so that the strategy draws
    them valid instead of filtering most draws out."""
    raw = chapter.manifest.fuzz if chapter.manifest is not None else {}
    out: dict[str, Any] = {}
    for name, value in raw.items():
        if name == "sorted":
            out[name] = set(value)
        elif isinstance(value, list):
            if len(value) != 2:
                raise ValueError(
                    f"fuzz size of {chapter.id}: {name} must be [low, high], got {value!r}"
                )
            out[name] = (value[0], value[1])
        else:
            out[name] = value
    return out


def __getattr__(name: str) -> Any:
    if name == "FUZZ_SIZE":  # every chapter's fuzz size, by id (read from the manifests)
        from .contract import chapters

        return {ch.id: fuzz_size(ch) for ch in chapters()}
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _bounds(p: Parameter) -> tuple[float, float, bool, bool]:
    """(low, high, low strict, high strict) of a numeric constraint; ±inf where absent."""
    lo, hi, lo_strict, hi_strict = -math.inf, math.inf, False, False
    for part in p.constraint.split(","):
        op, _, num = part.strip().partition(" ")
        if part.strip().startswith((">", "<")):
            op, num = part.strip()[0], part.strip()[1:]
        try:
            v = float(num)
        except ValueError:
            continue
        if op in (">", "min"):
            lo, lo_strict = v, op == ">"
        elif op in ("<", "max"):
            hi, hi_strict = v, op == "<"
    return lo, hi, lo_strict, hi_strict


def _proto(p: Parameter) -> Any:
    """The element prototype of a list parameter, or the default of a scalar one."""
    if not isinstance(p.default, list):
        return p.default
    elems = [d for d in p.default if d is not None]
    if any(isinstance(d, float) for d in elems):
        return 0.0
    return elems[0]


def _element(chapter: Chapter, p: Parameter):
    from hypothesis import strategies as st

    proto = _proto(p)
    caps = fuzz_size(chapter)
    if isinstance(proto, bool):
        return st.booleans()
    if isinstance(proto, str):
        if "|" in p.constraint:
            return st.sampled_from([c.strip() for c in p.constraint.split("|")])
        return st.just(proto)
    lo, hi, lo_strict, hi_strict = _bounds(p)
    if isinstance(proto, int):
        if p.name in caps:
            clo, chi = caps[p.name]
        elif p.name == "seed":
            clo, chi = 0, 2**32 - 1
        else:
            clo, chi = -math.inf, max(p.default) if isinstance(p.default, list) else p.default
        if math.isfinite(lo):
            clo = max(clo, math.floor(lo) + 1 if lo_strict else math.ceil(lo))
        if math.isfinite(hi):
            chi = min(chi, math.ceil(hi) - 1 if hi_strict else math.floor(hi))
        return st.integers(int(clo), int(chi))
    clo, chi = caps.get(p.name, FLOAT_RANGE)
    low, high = max(lo, clo), min(hi, chi)
    return st.floats(
        low,
        high,
        exclude_min=lo_strict and low == lo,
        exclude_max=hi_strict and high == hi,
        allow_nan=False,
        allow_infinity=False,
    )


def parameter_strategy(chapter: Chapter, fixed: dict[str, Any] | None = None):
    """A hypothesis strategy of ``{name: value}`` dicts: every parameter of ``chapter`` (except ``output_dir``)
    drawn at the fuzz size, valid for ``validate_parameters``; ``fixed`` values are kept as given."""
    from hypothesis import strategies as st

    fixed = dict(fixed or {})
    max_len = fuzz_size(chapter).get("max_len", MAX_LEN)
    fields = {}
    for name, p in chapter.parameters.items():
        if name in SKIP:
            continue
        if name in fixed:
            fields[name] = st.just(fixed[name])
        elif isinstance(p.default, list):
            size = fuzz_size(chapter).get("list_len", {}).get(name)
            lists = st.lists(
                _element(chapter, p),
                min_size=size or 1,
                max_size=size or max_len,
                unique_by=None if size else repr,
            )
            if name in fuzz_size(chapter).get("sorted", ()):
                lists = lists.map(sorted)
            fields[name] = lists
        else:
            fields[name] = _element(chapter, p)

    # a drawn set is kept when dpcompendium run would plan it (the contract and the memory estimate)
    return st.fixed_dictionaries(fields).filter(lambda values: _accepts(chapter, values))


def small_overrides(chapter: Chapter, given: dict[str, Any] | None = None) -> dict[str, Any]:
    """``-p`` overrides that shrink a run of ``chapter`` to the fuzz size: every capped parameter not in ``given``
    whose default exceeds its cap is set to the cap (a list is cut to ``max_len`` elements within the cap).
    The result, merged with ``given``, satisfies the contract (checked)."""
    given = dict(given or {})
    caps = fuzz_size(chapter)
    max_len = caps.get("max_len", MAX_LEN)
    out: dict[str, Any] = {}
    for name, p in chapter.parameters.items():
        if name in given or name in SKIP:
            continue
        cap = caps.get(name)
        if isinstance(p.default, list):
            vals = (
                [v for v in p.default if cap is None or cap[0] <= v <= cap[1]] if cap else p.default
            )
            if not vals:
                vals = [cap[1]]
            vals = vals[:max_len]
            if vals != p.default:
                out[name] = vals
        elif (
            cap is not None
            and isinstance(p.default, int | float)
            and not isinstance(p.default, bool)
        ):
            if p.default > cap[1]:
                out[name] = type(p.default)(cap[1])
            elif p.default < cap[0]:
                out[name] = type(p.default)(cap[0])
    validate_parameters(chapter, {**out, **given})
    return out


# ---- the extremes fuzz: boundary values of every parameter, each refused up front or run to the end


@dataclass(frozen=True)
class ExtremeCase:
    """One boundary value: ``values`` are the ``-p`` overrides of a run of ``chapter``; ``valid`` says whether the
    contract (types, bounds, ``# require:`` lines, the memory estimate) accepts them — then the run must end with
    its results, else ``dpcompendium run`` must refuse them before a kernel starts."""

    chapter: str
    what: str
    values: dict[str, Any]
    valid: bool


def _accepts(chapter: Chapter, values: dict[str, Any]) -> bool:
    """Whether ``dpcompendium run`` plans a run of ``values`` (:func:`~dpcompendium.book.preflight.preflight`
    without an output folder: the contract and the memory estimate)."""
    from .preflight import preflight

    try:
        preflight(chapter, values)
    except ValueError:
        return False
    return True


def _outside_and_edges(p: Parameter) -> tuple[list[tuple[str, Any]], list[tuple[str, Any]]]:
    """(edge values allowed by the bounds: smallest, largest), (values outside: just below/above, huge, tiny,
    negative) of a numeric parameter, elements of its list for a list parameter."""
    proto = _proto(p)
    lo, hi, lo_strict, hi_strict = _bounds(p)
    edges, outside = [], []
    if isinstance(proto, bool) or not isinstance(proto, int | float):
        return edges, outside
    if isinstance(proto, int):
        if math.isfinite(lo):
            first = math.floor(lo) + 1 if lo_strict else math.ceil(lo)
            edges.append(("smallest allowed", first))
            outside.append(("just below", first - 1))
        if math.isfinite(hi):
            last = math.ceil(hi) - 1 if hi_strict else math.floor(hi)
            edges.append(("largest allowed", last))
            outside.append(("just above", last + 1))
        outside += [("huge", 10**12), ("negative", -1)]
    else:
        if math.isfinite(lo):
            first = math.nextafter(lo, math.inf) if lo_strict else lo
            edges.append(("smallest allowed", first))
            outside.append(("just below", math.nextafter(first, -math.inf)))
        if math.isfinite(hi):
            last = math.nextafter(hi, -math.inf) if hi_strict else hi
            edges.append(("largest allowed", last))
            outside.append(("just above", math.nextafter(last, math.inf)))
        outside += [("huge", 1e300), ("tiny", 1e-300), ("zero", 0.0), ("negative", -1.0)]
    return edges, outside


def _as_value(p: Parameter, element: Any) -> Any:
    return [element] if isinstance(p.default, list) else element


def extreme_cases(chapter: Chapter) -> list[ExtremeCase]:
    """The extremes fuzz of one chapter.

    Refusal cases, one per parameter and value: just outside each bound, and huge, tiny, zero and negative values
    (each alone: the other parameters at their defaults); those the contract accepts become run cases too. Run cases: every
    parameter at the smallest value its bounds allow in one run and at the largest in another, the other parameters
    at the fuzz size (:func:`small_overrides`) — a parameter that the fuzz size caps (a cost: repetitions, sample
    sizes) is taken at its cap, its contract maximum being covered by the memory estimate (a value above it is
    refused with the estimate) — split into more runs where a ``# require:`` line or the memory estimate forbids
    the combination."""
    caps = fuzz_size(chapter)
    cases: list[ExtremeCase] = []
    sides: dict[str, dict[str, Any]] = {"smallest allowed": {}, "largest allowed": {}}
    for name, p in chapter.parameters.items():
        if name in SKIP:
            continue
        edges, outside = _outside_and_edges(p)
        for label, element in outside:
            values = {name: _as_value(p, element)}
            if _accepts(
                chapter, values
            ):  # accepted (a huge seed, n_jobs capped): runs, at the fuzz size
                values = {**(_shrunk(chapter, values) or {}), **values}
            cases.append(
                ExtremeCase(chapter.id, f"{name} {label}", values, _accepts(chapter, values))
            )
        for label, element in edges:
            if name in caps and isinstance(caps[name], tuple):  # a cost: at the fuzz size's cap
                element = type(element)(
                    caps[name][0] if label == "smallest allowed" else caps[name][1]
                )
            sides[label][name] = _as_value(p, element)
    for label, chosen in sides.items():
        pending = dict(chosen)
        while pending:
            run: dict[str, Any] = {}
            for name, value in list(pending.items()):
                trial = {**run, name: value}
                base = _shrunk(chapter, trial)
                if base is not None and _accepts(chapter, {**base, **trial}):
                    run[name] = value
                    del pending[name]
            if not run:  # a value no combination accepts: a refusal case of its own
                name, value = pending.popitem()
                cases.append(ExtremeCase(chapter.id, f"{name} {label}", {name: value}, False))
                continue
            names = ", ".join(run)
            base = _shrunk(chapter, run) or {}
            cases.append(ExtremeCase(chapter.id, f"{label}: {names}", {**base, **run}, True))
    return cases


def _shrunk(chapter: Chapter, given: dict[str, Any]) -> dict[str, Any] | None:
    try:
        return small_overrides(chapter, given)
    except ValueError:
        return None


# ---- the edge fuzz: every parameter at the ends of its range, combined pairwise (a covering array)


@dataclass(frozen=True)
class EdgeSet:
    """One parameter set of the edge fuzz of ``chapter``: ``values`` gives every parameter (but ``output_dir``)
    one of its edge values (:func:`edge_values`); ``index`` is its place in :func:`edge_sets`."""

    chapter: str
    index: int
    values: dict[str, Any]


def _edge_ends(p: Parameter, cap: tuple[Any, Any] | None) -> list[Any]:
    """The smallest and the largest element the declared range of ``p`` allows (the largest at most the fuzz
    size's cap, which bounds the cost; an integer without an upper bound or cap: its lower end, and for ``seed``
    the largest the random fuzz draws)."""
    edges, _ = _outside_and_edges(p)
    ends = dict(edges)
    proto = _proto(p)
    out = []
    if "smallest allowed" in ends:
        out.append(ends["smallest allowed"])
    high = ends.get("largest allowed")
    if cap is not None:
        high = cap[1] if high is None else min(high, cap[1])
    elif high is None and p.name == "seed":
        high = 2**32 - 1
    if high is not None:
        high = type(proto)(high)
        if not out or high != out[0]:
            out.append(high)
    return out


def _run_of(p: Parameter, end: Any, length: int, low: bool) -> list[Any]:
    """``length`` distinct elements at the ``low`` (or high) end of the range of ``p``, in increasing order."""
    step = (lambda v: v + 1) if isinstance(end, int) else (lambda v: math.nextafter(v, math.inf))
    back = (lambda v: v - 1) if isinstance(end, int) else (lambda v: math.nextafter(v, -math.inf))
    out = [end]
    while len(out) < length:
        out.append(step(out[-1]) if low else back(out[-1]))
    return sorted(out)


def edge_values(chapter: Chapter) -> dict[str, list[Any]]:
    """Each parameter's edge values (``output_dir`` left out): a number's smallest and largest allowed values
    (``_edge_ends``; the largest capped by the fuzz size), a choice's every option, a boolean both, a list
    of numbers its smallest and its largest element alone (a list of the length the fuzz size fixes, at either
    end), a list of choices each option alone; a string without choices its default."""
    caps = fuzz_size(chapter)
    fixed_len = caps.get("list_len", {})
    out: dict[str, list[Any]] = {}
    for name, p in chapter.parameters.items():
        if name in SKIP:
            continue
        proto = _proto(p)
        cap = caps.get(name) if isinstance(caps.get(name), tuple) else None
        if isinstance(proto, bool):
            elems: list[Any] = [False, True]
        elif isinstance(proto, str):
            elems = [c.strip() for c in p.constraint.split("|")] if "|" in p.constraint else [proto]
        else:
            elems = _edge_ends(p, cap)
        if not isinstance(p.default, list):
            out[name] = elems
        elif name in fixed_len:
            n = fixed_len[name]
            out[name] = [_run_of(p, elems[0], n, True), _run_of(p, elems[-1], n, False)]
        else:
            out[name] = [[e] for e in elems]
    return out


def _valid(chapter: Chapter, values: dict[str, Any]) -> bool:
    """Whether ``values`` — each an edge value, valid alone (checked once in :func:`edge_sets`) — satisfy every
    ``# require:`` line of ``chapter``."""
    merged = {**chapter.defaults, **values}
    try:
        for req in chapter.requires:
            req.check(merged)
    except ValueError:
        return False
    return True


def _complete(
    chapter: Chapter, row: dict[str, Any], domains: dict[str, list[Any]], base: dict[str, Any]
) -> dict[str, Any] | None:
    """A valid full parameter set extending ``row``: the other parameters at their first edge value, one of them
    at another edge value where a ``# require:`` line needs it; None if there is none."""
    rest = [n for n in domains if n not in row]
    full = {**base, **{n: domains[n][0] for n in rest}, **row}
    if _valid(chapter, full):
        return full
    for n in rest:
        for v in domains[n][1:]:
            trial = {**full, n: v}
            if _valid(chapter, trial):
                return trial
    return None


def edge_sets(chapter: Chapter) -> list[EdgeSet]:
    """The edge fuzz of one chapter: parameter sets in which every parameter takes one of its edge values
    (:func:`edge_values`), such that every pair of (parameter, edge value) that some valid set holds appears in one
    of them (a pairwise covering array, built greedily: each set starts from the first pair not yet covered and
    gives every other parameter the edge value that covers the most pairs not yet covered and keeps the set
    valid; deterministic). A pair that no valid set holds (a ``# require:`` line forbids it) is left out; each
    edge value alone is in some set. The sets run at the fuzz size: the ranges' upper ends are capped by it."""
    domains = edge_values(chapter)
    for name, edges in domains.items():  # each edge value alone fits its parameter's type and range
        for value in edges:
            chapter.parameters[name].check(value)
    names = list(domains)
    base = small_overrides(chapter)
    index = {n: i for i, n in enumerate(names)}

    def key(n, v):  # a hashable (parameter, value)
        return (n, repr(v))

    uncovered: dict[tuple, None] = {}  # insertion-ordered set of pairs
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            for va in domains[a]:
                for vb in domains[b]:
                    uncovered[(key(a, va), key(b, vb))] = None
    singles = {key(n, v) for n in names for v in domains[n]}

    def pairs_of(values: dict[str, Any]) -> set[tuple]:
        items = sorted(
            (key(n, values[n]) for n in names if key(n, values[n]) in singles),
            key=lambda k: index[k[0]],
        )
        return {(x, y) for i, x in enumerate(items) for y in items[i + 1 :]}

    lookup = {key(n, v): (n, v) for n in names for v in domains[n]}
    sets: list[dict[str, Any]] = []
    while uncovered:
        first = next(iter(uncovered))
        row = dict(lookup[k] for k in first)
        if _complete(chapter, row, domains, base) is None:
            del uncovered[first]  # no valid set holds this pair
            continue
        for n in sorted(names, key=lambda n: -len(domains[n])):
            if n in row:
                continue
            best, best_gain = None, -1
            for v in domains[n]:
                trial = {**row, n: v}
                gain = sum(
                    1
                    for m, w in row.items()
                    if tuple(sorted((key(n, v), key(m, w)), key=lambda k: index[k[0]])) in uncovered
                )
                if gain > best_gain and _complete(chapter, trial, domains, base) is not None:
                    best, best_gain = v, gain
            if best is not None:
                row[n] = best
        full = _complete(chapter, row, domains, base)
        assert full is not None  # every step kept the row completable
        values = {n: full[n] for n in names}
        for pair in pairs_of(values):
            uncovered.pop(pair, None)
        sets.append(values)
    return [EdgeSet(chapter.id, i, v) for i, v in enumerate(sets)]


def _upper_ends(chapter: Chapter, values: dict[str, Any]) -> int:
    """How many of the parameters the fuzz size caps (those that set a run's cost) ``values`` sets at their
    largest edge value."""
    domains = edge_values(chapter)
    caps = fuzz_size(chapter)
    return sum(
        1
        for name, value in values.items()
        if isinstance(caps.get(name), tuple)
        and len(domains[name]) > 1
        and value == domains[name][-1]
    )


def edge_subset(chapter: Chapter, n: int = 1) -> list[EdgeSet]:
    """``n`` sets of :func:`edge_sets` for a quick run (make test), chosen greedily: each next set holds the most
    (parameter, edge value) not yet held by the sets chosen, then the fewest costs (parameters the fuzz size caps)
    at their largest value, then the earliest. Every parameter is at an edge in every set, so one set already puts
    each parameter at an edge once."""
    sets = edge_sets(chapter)
    chosen: list[EdgeSet] = []
    held: set[tuple[str, str]] = set()
    for _ in range(min(n, len(sets))):
        best = min(
            (s for s in sets if s not in chosen),
            key=lambda s: (
                -len({(k, repr(v)) for k, v in s.values.items()} - held),
                _upper_ends(chapter, s.values),
                s.index,
            ),
        )
        chosen.append(best)
        held |= {(k, repr(v)) for k, v in best.values.items()}
    return chosen
