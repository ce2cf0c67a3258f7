"""The built-in families of neighbouring inputs (``--inputs``)."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ...core.audit.spec import QUERY_NORMS, QUERY_RELATIONS
from ...core.validation import check_int
from .common import FAMILIES, NEIGHBOURS


def _identity(d: Any) -> Any:
    return d


def _single(d: Any) -> Any:
    """A one-record raw dataset → the value itself (local DP, scalar inputs)."""
    return np.asarray(d)[0]


@dataclass(frozen=True)
class InputPair:
    """Two neighbouring inputs D, D' as the user function receives them (``a``, ``b``), the same as *raw
    datasets* (records on the first axis; ``raw_a``, ``raw_b``) that
    :func:`~dpcompendium.core.audit.spec.are_neighbours` checks under ``relation``, and ``to_input`` mapping a raw
    dataset to the function's input (a one-record dataset → its value; records → a histogram of counts)."""

    name: str
    a: Any
    b: Any
    raw_a: Any = None
    raw_b: Any = None
    relation: str = "add-remove"
    to_input: Callable[[Any], Any] = field(default=_identity, repr=False, compare=False)
    #: a pair beyond the declared family (records outside [A, B], one-record or empty datasets): the audit drops it,
    #: with a note, if the function raises or returns NaN on it, instead of stopping
    probe: bool = False
    #: the query relations' sensitivity and norm (:func:`~dpcompendium.core.audit.spec.are_neighbours`)
    neighbour_kw: dict = field(default_factory=dict, compare=False)
    #: which part of the family the pair comes from: ``declared`` (the family's own pairs), ``mixed`` (datasets
    #: mixing the two bounds, :func:`mixed_pairs`), ``probe`` (beyond the declared bounds, :func:`dataset_probes`)
    kind: str = "declared"

    def __post_init__(self) -> None:
        if self.raw_a is None:
            object.__setattr__(self, "raw_a", self.a)
        if self.raw_b is None:
            object.__setattr__(self, "raw_b", self.b)


def _local_pair(name: str, a: Any, b: Any) -> InputPair:
    return InputPair(name, a, b, np.array([a]), np.array([b]), "local", _single)


def _parse_int(value: float, name: str, minimum: int) -> int:
    if value != int(value):
        raise ValueError(f"{name} must be an integer, got {value:g}")
    return check_int(int(value), name, minimum=minimum)


def _parse_numbers(text: str, count: int, family: str) -> list[float]:
    parts = [p for p in text.split(",") if p.strip()]
    if len(parts) != count:
        raise ValueError(f"inputs {family}: expected {count} comma-separated numbers, got {text!r}")
    try:
        return [float(p) for p in parts]
    except ValueError as exc:
        raise ValueError(f"inputs {family}: expected numbers, got {text!r}") from exc


#: Inputs of at most this many values are printed in full (the report's ``pair.json`` always holds the pair).
FULL_PRINT = 64


def _nested(arr: np.ndarray) -> str:
    """An array as a nested list, numbers in ``%g`` (``[0, 0, 11]``)."""
    if arr.ndim == 0:
        v = arr.item()
        return f"{v:g}" if isinstance(v, int | float) else repr(v)
    return "[" + ", ".join(_nested(a) for a in arr) + "]"


def _describe(x: Any) -> str:
    arr = np.asarray(x)
    if arr.ndim == 0:
        return f"{arr.item()!r}"
    if arr.size <= FULL_PRINT:
        return _nested(arr)
    vals, counts = np.unique(arr, return_counts=True)
    if vals.size <= 3 and arr.ndim == 1:
        return "[" + ", ".join(f"{v:g}×{c}" for v, c in zip(vals, counts, strict=True)) + "]"
    return f"array{arr.shape}"


def input_pairs(
    inputs: str,
    neighbours: str | None = None,
    *,
    probe: bool = True,
    neighbour_kw: dict | None = None,
    mixed: bool = True,
) -> list[InputPair]:
    """The candidate neighbouring pairs of a built-in input family (the audit keeps the worst one).

    ``scalar``, ``ldp`` and ``category`` inputs are one value each, and any two values are neighbours (the
    ``local`` relation, whatever ``neighbours`` says); ``neighbours`` applies to ``dataset`` and ``histogram``, and
    is required for them (``replace-one`` or ``add-remove``: the relation the privacy claim is about — a correct
    replace-one mean is not add-remove private, so no default is safe).

    - ``scalar:A,B`` — one value in [A, B]; any two values are neighbours (a query answer of sensitivity B − A, or
      one person's value): pairs (A, B), (A, mid), (mid, B).
    - ``ldp`` — a value in [−1, 1] held by one user (local DP): (−1, 1), (−1, 0), (0, 1).
    - ``category:K`` — a category in {0, …, K−1} held by one user (local DP): all pairs (the first 10 if K > 5).
    - ``dataset:N,A,B`` — a float array of records in [A, B]. ``replace-one``: N records, one replaced,
      (A,…,A) vs (A,…,A,B) and (B,…,B) vs (B,…,B,A). ``add-remove``: N records vs the same plus one,
      (A×N) vs (A×N, B), (B×N) vs (B×N, A), (A×N) vs (A×(N+1)), (B×N) vs (B×(N+1)). Then the datasets that mix
      the two bounds (:func:`mixed_pairs`: k records at B, the rest at A, one record moved between them or added),
      where clip bounds, percentiles or medians taken from the data show (unless ``mixed=False``). With ``probe``
      (the
      default) also the pairs of :func:`dataset_probes` beyond the declared bounds: records outside [A, B],
      one-record and (add-remove) empty datasets — where a missing clamp, a data-dependent n or an unbounded
      sensitivity shows.
    - ``queries:K`` — a vector of K query answers (a query relation: ``queries``, the default, ``monotone`` or
      ``one-query``; ``neighbour_kw`` its ``sensitivity`` Δ and ``norm``): the patterns of the DP-testing
      literature that fit the relation, :func:`query_pairs`.
    - ``histogram:K`` — an int array of counts over K bins. ``add-remove``: one count added,
      0 vs e₀ and 10·1 vs 10·1 + e₀. ``replace-one``: one record moved from bin 0 to bin K−1, from 10·e₀ and
      from 10·1.
    """
    if neighbours is not None and neighbours not in NEIGHBOURS:
        raise ValueError(f"neighbours must be one of {'|'.join(NEIGHBOURS)}, got {neighbours!r}")
    if not isinstance(inputs, str) or not inputs:
        raise ValueError(
            f"inputs must be one of {'|'.join(FAMILIES)} (e.g. 'scalar:0,1'), got {inputs!r}"
        )
    family, _, spec = inputs.partition(":")
    family = family.strip()
    if family not in FAMILIES:
        raise ValueError(f"inputs must start with one of {'|'.join(FAMILIES)}, got {inputs!r}")
    if family == "queries":
        if neighbours is not None and neighbours not in QUERY_RELATIONS:
            raise ValueError(
                f"inputs {inputs} are vectors of query answers: neighbours must be one of "
                f"{'|'.join(QUERY_RELATIONS)}, got {neighbours!r}"
            )
        return query_pairs(spec, neighbour_kw or {}, neighbours or "queries")
    if neighbours in QUERY_RELATIONS:
        raise ValueError(
            f"neighbours {neighbours} needs inputs queries:K (vectors of answers), got {inputs!r}"
        )
    if family in ("dataset", "histogram") and neighbours is None:
        raise ValueError(
            f"neighbours is required for inputs {inputs}: replace-one (n public) or add-remove"
        )
    if family in ("dataset", "histogram") and neighbours == "local":
        raise ValueError(
            f"neighbours must be replace-one|add-remove for inputs {family}, got 'local' (use ldp or category)"
        )
    if family in ("scalar", "ldp"):
        if family == "ldp":
            if spec:
                raise ValueError(f"inputs ldp takes no arguments, got {inputs!r}")
            a, b = -1.0, 1.0
        else:
            a, b = _parse_numbers(spec, 2, "scalar:A,B")
            if not (math.isfinite(a) and math.isfinite(b) and a < b):
                raise ValueError(f"inputs scalar:A,B needs finite A < B, got {inputs!r}")
        m = 0.5 * (a + b)
        return [
            _local_pair(f"{a:g} vs {b:g}", a, b),
            _local_pair(f"{a:g} vs {m:g}", a, m),
            _local_pair(f"{m:g} vs {b:g}", m, b),
        ]
    if family == "category":
        k = _parse_int(_parse_numbers(spec, 1, "category:K")[0], "category K", minimum=2)
        pairs = [(i, j) for i in range(k) for j in range(i + 1, k)][:10]
        return [_local_pair(f"{i} vs {j}", np.int64(i), np.int64(j)) for i, j in pairs]
    if family == "dataset":
        n_f, a, b = _parse_numbers(spec, 3, "dataset:N,A,B")
        if not (math.isfinite(a) and math.isfinite(b) and a < b):
            raise ValueError(f"inputs dataset:N,A,B needs finite A < B, got {inputs!r}")
        n = _parse_int(n_f, "dataset N", minimum=1 if neighbours == "replace-one" else 0)
        pairs = _dataset_pairs(n, a, b, neighbours)
        pairs += mixed_pairs(n, a, b, neighbours) if mixed else []
        return _unique_pairs(pairs + dataset_probes(n, a, b, neighbours) if probe else pairs)
    # histogram
    k = _parse_int(_parse_numbers(spec, 1, "histogram:K")[0], "histogram K", minimum=2)
    e0, ek = np.zeros(k, dtype=np.int64), np.zeros(k, dtype=np.int64)
    e0[0], ek[-1] = 1, 1
    flat = np.full(k, 10, dtype=np.int64)

    def counts(d, k=k):
        return np.bincount(np.asarray(d, dtype=np.int64), minlength=k)

    def records(h):
        return np.repeat(np.arange(k), h).astype(float)

    if neighbours == "add-remove":
        bases = [np.zeros(k, dtype=np.int64), flat]
        changes = [(f"{_describe(h)} + e0", h, h + e0) for h in bases]
    else:
        bases = [10 * e0, flat]
        changes = [
            (f"{_describe(h)}, one record bin 0 -> bin {k - 1}", h, h - e0 + ek) for h in bases
        ]

    def raw_pair(h, h2):
        """The records of h, and of h2 as the same records with one added (at the end) or one moved (in place)."""
        r = records(h)
        if neighbours == "add-remove":
            return r, np.append(r, 0.0)
        r2 = r.copy()
        r2[int(np.argmax(r == 0))] = k - 1
        return r, r2

    return [InputPair(name, h, h2, *raw_pair(h, h2), neighbours, counts) for name, h, h2 in changes]


def _unique_pairs(pairs: list[InputPair]) -> list[InputPair]:
    """The pairs in order, each (D, D') once."""
    seen, out = set(), []
    for pr in pairs:
        key = (
            np.asarray(pr.raw_a).tobytes(),
            np.asarray(pr.raw_b).tobytes(),
            np.shape(pr.raw_a),
            np.shape(pr.raw_b),
        )
        if key not in seen:
            seen.add(key)
            out.append(pr)
    return out


def _dataset_pair(
    x: np.ndarray, y: np.ndarray, neighbours: str, probe: bool = False, kind: str = "declared"
) -> InputPair:
    name = f"{_describe(x)} vs {_describe(y)}"
    return InputPair(name, x, y, relation=neighbours, probe=probe, kind="probe" if probe else kind)


def _dataset_pairs(n: int, a: float, b: float, neighbours: str) -> list[InputPair]:
    """The declared ``dataset:N,A,B`` pairs: N records at a bound, one replaced by (or one added at) a bound."""
    A, B = np.full(n, a), np.full(n, b)
    if neighbours == "replace-one":
        A2, B2 = A.copy(), B.copy()
        A2[-1], B2[-1] = b, a
        return [_dataset_pair(A, A2, neighbours), _dataset_pair(B, B2, neighbours)]
    return [
        _dataset_pair(x, y, neighbours)
        for x, y in (
            (A, np.append(A, b)),
            (B, np.append(B, a)),
            (A, np.append(A, a)),
            (B, np.append(B, b)),
        )
    ]


#: The most mixed datasets :func:`mixed_pairs` builds (N + 1 for N ≤ 24: every count of records at B).
MIXED_MAX = 25


def mixed_counts(n: int) -> list[int]:
    """The counts k of records at B in the mixed datasets of N records: every k = 0…N when N + 1 ≤
    :data:`MIXED_MAX`, else the ends (0–3 and N−3…N) and k, k + 1 around each 5 %-quantile position (k ≈ qN for
    q = 0.05, 0.1, …, 0.95), where a percentile (a clip bound, a median) taken from the data changes."""
    if n + 1 <= MIXED_MAX:
        return list(range(n + 1))
    ks = {0, 1, 2, 3, n - 3, n - 2, n - 1, n}
    for q in np.arange(1, 20) / 20:
        k = math.floor(q * n)
        ks.update({k - 1, k, k + 1})
    return sorted(k for k in ks if 0 <= k <= n)


def _mixed(n: int, k: int, a: float, b: float) -> np.ndarray:
    """N records, the first N − k at A and the last k at B."""
    return np.r_[np.full(n - k, a), np.full(k, b)]


def mixed_pairs(n: int, a: float, b: float, neighbours: str) -> list[InputPair]:
    """Neighbouring datasets that mix the two bounds: X_k = (A×(N−k), B×k), k records at B, for the counts k of
    :func:`mixed_counts` — every mix of A and B when N ≤ 24.

    ``replace-one``: X_k vs X_{k+1} (the last A replaced by B) for consecutive counts; ``add-remove``: X_k vs
    X_k with one A added (in front) and X_k with one B added (at the end). A mechanism that takes its clip bounds,
    a percentile or its median from the data changes most between two such datasets — (A, A, B×8) vs (A, B×9)
    moves a 10 %-percentile from A to near B — and never between two datasets at one bound."""
    ks = mixed_counts(n)
    out = []
    if neighbours == "replace-one":
        for k in ks:
            if k + 1 in ks:
                out.append(
                    _dataset_pair(
                        _mixed(n, k, a, b), _mixed(n, k + 1, a, b), neighbours, kind="mixed"
                    )
                )
    else:
        for k in ks:
            x = _mixed(n, k, a, b)
            out.append(_dataset_pair(x, np.r_[a, x], neighbours, kind="mixed"))
            out.append(_dataset_pair(x, np.r_[x, b], neighbours, kind="mixed"))
    return out


def family_coverage(pairs: list[InputPair], inputs: str = "") -> dict[str, int]:
    """How many candidate pairs of each kind (``declared``, ``mixed``, ``probe``) an audit searched, and how many
    distinct inputs they use (``inputs``)."""
    out = {"declared": 0, "mixed": 0, "probe": 0}
    seen = set()
    for pr in pairs:
        out[pr.kind] = out.get(pr.kind, 0) + 1
        for x in (pr.a, pr.b):
            arr = np.asarray(x)
            seen.add((arr.dtype.str, arr.shape, arr.tobytes()))
    out["inputs"] = len(seen)
    return out


#: How far beyond [A, B] the probes put a record, in widths B − A (a missing clamp then moves a mean of N records by
#: 10/N of the width: far beyond its sensitivity, so even a small audit sees it).
PROBE_REACH = 10.0


def dataset_probes(n: int, a: float, b: float, neighbours: str) -> list[InputPair]:
    """Neighbouring pairs beyond the declared family ``dataset:N,A,B`` (the audit's default probes).

    Records are promised to lie in [A, B], but a mechanism's privacy may not rest on that promise: the clamp is part
    of the mechanism. With w = B − A and the extremes A⁻ = A − 10w, B⁺ = B + 10w:

    - records outside [A, B] — ``replace-one``: (A×N) vs (A×(N−1), B⁺) and (B×N) vs (B×(N−1), A⁻);
      ``add-remove``: (A×N) vs (A×N, B⁺) and (B×N) vs (B×N, A⁻): a missing clamp (or any sensitivity that grows
      with the data) shows here;
    - one-record datasets — ``replace-one``: (A) vs (B) (if N > 1); ``add-remove``: (A) vs (A, B) and (B) vs (B, B):
      where n changes most in relative terms, so a mean that divides by the true n without noise shows here;
    - ``add-remove`` only: the empty dataset vs (B).

    Every probe is a pair of neighbouring raw datasets (:func:`~dpcompendium.core.audit.spec.are_neighbours`); a function
    that raises or returns NaN on one is not audited on it (the report says so) rather than stopped.
    """
    lo, hi = a - PROBE_REACH * (b - a), b + PROBE_REACH * (b - a)
    A, B = np.full(n, a), np.full(n, b)
    if neighbours == "replace-one":
        A2, B2 = A.copy(), B.copy()
        A2[-1], B2[-1] = hi, lo
        pairs = [(A, A2), (B, B2)] + ([(np.array([a]), np.array([b]))] if n > 1 else [])
    else:
        pairs = [
            (A, np.append(A, hi)),
            (B, np.append(B, lo)),
            (np.array([a]), np.array([a, b])),
            (np.array([b]), np.array([b, b])),
            (np.array([], dtype=float), np.array([b])),
        ]
    return [_dataset_pair(x, y, neighbours, probe=True) for x, y in pairs]


def query_pairs(spec: str, neighbour_kw: dict, relation: str = "queries") -> list[InputPair]:
    """The candidate pairs of ``queries:K``: vectors of K answers of neighbouring datasets, each answer moving by
    at most Δ (``norm="linf"``, the default) or all of them by at most Δ in total (``norm="l1"``).

    The patterns of StatDP [ding2018detecting] and DP-Sniper [bichsel2021dpsniper], from D = (Δ, …, Δ) (and
    D = (0, …, 0)): ℓ∞ — one up / rest down (Δ·(2, 0, …, 0)), one down / rest up, one up, one down, half up /
    half down, all up, all down, alternating (2, 0, 2, 0, …), and the X shape (1, …, 1, 0, …, 0) vs
    (0, …, 0, 1, …, 1); ℓ1 — one up, one down, one up and one down by Δ/2 each, the first half up and the second
    half down by Δ/K each.

    ``relation="monotone"`` keeps the patterns whose answers all move the same way and adds the half-moves (the
    first or the second half up, or down, the rest unchanged) and the last answer up or down;
    ``relation="one-query"`` keeps one answer moving: the first, the middle or the last one, up or down.
    """
    from ...core.audit.spec import neighbour_violation

    k = _parse_int(_parse_numbers(spec, 1, "queries:K")[0], "queries K", minimum=1)
    delta = neighbour_kw.get("sensitivity")
    norm = neighbour_kw.get("norm", "linf")
    if delta is None or not (float(delta) > 0 and math.isfinite(float(delta))):
        raise ValueError(
            f"sensitivity must be a finite number > 0 for inputs queries:{k}, got {delta!r}"
        )
    if norm not in QUERY_NORMS:
        raise ValueError(f"norm must be one of {'|'.join(QUERY_NORMS)}, got {norm!r}")
    d = float(delta)
    one = np.full(k, d)
    h = k // 2
    if norm == "linf":
        up, down = d * np.eye(k)[0], -d * np.eye(k)[0]
        alt = np.where(np.arange(k) % 2 == 0, d, -d)
        half = np.r_[np.full(k - h, d), np.full(h, -d)]
        moves = [("one up, rest down", np.r_[d, np.full(k - 1, -d)]), ("one down, rest up", np.r_[-d, np.full(k - 1, d)]),
                 ("one up", up), ("one down", down), ("half up, half down", half),
                 ("all up", np.full(k, d)), ("all down", np.full(k, -d)), ("alternating", alt)]  # fmt: skip
        pairs = [(name, one, one + m) for name, m in moves]
        x = np.r_[np.full(k - h, d), np.zeros(h)]
        pairs.append(("X shape", x, x[::-1].copy()))
        if relation != "queries":
            first, second = np.r_[np.ones(k - h), np.zeros(h)], np.r_[np.zeros(k - h), np.ones(h)]
            last, mid = np.eye(k)[-1], np.eye(k)[k // 2]
            for name, m in (("first half up", first), ("second half up", second), ("last up", last),
                            ("middle up", mid)):  # fmt: skip
                pairs += [(name, one, one + d * m), (name.replace("up", "down"), one, one - d * m)]
    else:
        e0 = np.eye(k)[0]
        moves = [("one up", d * e0), ("one down", -d * e0)]
        if k > 1:
            moves.append(("one up, one down", 0.5 * d * (e0 - np.eye(k)[1])))
            moves.append(("half up, half down", np.r_[np.full(k - h, d / k), np.full(h, -d / k)]))
        pairs = [(name, one, one + m) for name, m in moves]
    kw = {"sensitivity": d, "norm": norm}
    out, seen = [], set()
    for name, a, b in pairs:
        key = (a.tobytes(), b.tobytes())
        if (
            key in seen
            or np.array_equal(a, b)
            or neighbour_violation(a, b, relation, **kw) is not None
        ):
            continue
        seen.add(key)
        out.append(InputPair(f"{_describe(a)} vs {_describe(b)} ({name})", a, b, relation=relation,
                             neighbour_kw=kw))  # fmt: skip
    return out
