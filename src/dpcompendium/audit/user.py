"""Audit your own mechanism: ``audit_callable`` and ``dpcompendium audit TARGET`` (coursework mode).

A user function ``f(data, rng, **params)`` claims (ε, δ)-DP. The audit

1. loads it (``path/to/file.py:function`` or ``module:function``, :func:`load_target`) and checks that it is a
   well-behaved randomized function: it must not raise, must not return NaN/inf, and must draw all its randomness
   from ``rng`` (two calls with the same seed must give identical outputs) — else :class:`UserCodeError`;
2. takes candidate neighbouring inputs, given (``pair``) or from a built-in family (``inputs``, :func:`input_pairs`):
   ``scalar:A,B``, ``dataset:N,A,B``, ``histogram:K``, ``ldp``, ``category:K``;
3. draws ``samples // 2`` outputs per candidate input (selection half), and on them chooses the pair, the output
   statistic and the output event S (an interval of the statistic, in either direction) with the largest
   Wilson-penalized privacy-loss estimate — the selection of :func:`dpcompendium.audit.empirical_audit`,
   StatDP/DP-Sniper style [ding2018detecting, bichsel2021dpsniper];
4. draws ``samples`` fresh outputs per input of the chosen pair only and hands them, with the event fixed, to
   :func:`dpcompendium.audit.spec.run_audit` — the path of the book's own audits — which checks that the pair is
   neighbouring, fixes the direction on the first half and bounds ε ≥ ln((p_lo − δ)/q_hi) on the other
   ``samples − samples // 2`` with one-sided Clopper–Pearson bounds at level α/2 each [clopper1934use]. The pair,
   the event and its direction are fixed before the evaluation samples are drawn, so the bound holds with
   probability ≥ ``confidence`` whatever the search did;
5. if the output is discrete and the function comes with a probability mass function ``pmf(data, **params) ->
   {output: probability}`` (the CLI looks for ``<function>_pmf`` in the same module), the exact ε *of the declared
   pmf* on every candidate pair (:func:`dpcompendium.audit.exact_epsilon`), a χ² check of the sampler against it
   on at most ``SAMPLER_CHECK_DRAWS`` draws per input — which sees an output only if its probability is at least
   :func:`detectable_probability` (≈ 3/n) — and the empirical audit of steps 3–4, which must agree
   (``_exact_report``).

The neighbour relation is the user's to state (``replace-one`` or ``add-remove`` for datasets and histograms; no
default) and is named in the verdict line. ``dataset:N,A,B`` inputs also probe beyond the declared bounds
(:func:`dataset_probes`: records outside [A, B], one-record and empty datasets), where a missing clamp, a
data-dependent n or an unbounded sensitivity shows.

The verdict is ``violated`` when the audited ε (a lower bound) exceeds the claimed ε, else ``holds``; with a pmf also
``inconsistent`` (the sampler's bound exceeds the declared pmf's ε) and ``not established`` (the pmf declares an
output too rare for the sampler check to verify). "holds" is not a proof of privacy: an audit only ever finds
violations on the inputs and events it tries.

All sampling goes through :func:`sample_outputs` ``(func, data, params, n_samples, seed)``: chunks of
``chunk_size`` outputs, chunk i drawn from the i-th child of the ``SeedSequence`` (without mutating it), so the
samples depend only on (seed, n_samples, chunk_size), and the chunks can be run anywhere, in any order.

Big audits (``chunk_size=C``, ``dpcompendium audit ... --chunk-size C``): the selection uses ``min(samples // 2, C)``
outputs per candidate input, drawn from the same streams as in memory but as one task per candidate pair (it draws
the pair's selection outputs and returns only its rows and best event, so this process holds no samples and the
pairs are searched in parallel); the evaluation outputs of step 4 are drawn and counted in chunks of C
(:func:`~dpcompendium.audit.chunked.empirical_audit_chunked`, :func:`dpcompendium.experiments.count_events_many`:
chunk i from child i of its own ``SeedSequence``, counts summed, both inputs' chunks in one batch of tasks), in this
process, over ``n_jobs`` processes or as tasks on the Dask cluster of ``DPCOMPENDIUM_SCHEDULER`` (or ``scheduler=``),
so a worker holds one chunk (or one pair's selection outputs) at a time and ``samples=10**8`` runs in bounded memory.
The direction of the chosen event is fixed on ``min(samples // 2, C)`` fresh outputs per input, counted in the same
batch as the evaluation chunks (``seeded_samplers``: :func:`sample_outputs` takes one integer from the generator it is
given, so those outputs can be drawn in a task from a snapshot of it): this process holds no samples. The report
depends on (seed, samples, C) only, never on where the tasks ran. The user's function travels to the workers by
value (cloudpickle; a module loaded from a file path is registered for pickling by value), so a worker needs the same
lock installed, not the user's file.
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
import inspect
import math
import pickle
import sys
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import joblib
import numpy as np
import pandas as pd

from ..parallel import check_scheduler, joblib_backend, using_scheduler
from ..privacy import NEIGHBOUR_RELATIONS, PrivacyClaim
from ..validation import check_delta, check_epsilon, check_int
from .empirical import (
    _check_confidence,
    _interval_counts,
    _selection_z,
    _wilson_score,
    interval_cuts,
    pooled_sorted,
)
from .result import verdict
from .spec import AuditSpec, are_neighbours, run_audit

__all__ = [
    "FAMILIES",
    "NEIGHBOURS",
    "AuditReport",
    "InputPair",
    "UserCodeError",
    "audit_callable",
    "check_user_function",
    "dataset_probes",
    "detectable_probability",
    "input_pairs",
    "load_target",
    "sample_outputs",
]

FAMILIES = ("scalar", "dataset", "histogram", "ldp", "category")
NEIGHBOURS = NEIGHBOUR_RELATIONS
#: Outputs per chunk of :func:`sample_outputs` (the unit of work a distributed runner would schedule).
CHUNK_SIZE = 100_000
#: A discrete output with at most this many distinct values gets singleton events (and a bar chart).
MAX_DISCRETE = 50
_REPRO_SAMPLES = 32


class UserCodeError(ValueError):
    """The audited function misbehaves (raises, returns NaN, ignores ``rng``, wrong output shape)."""


# ------------------------------------------------------------------------------------------------ loading
def load_target(target: str) -> Callable:
    """``path/to/file.py:function`` or ``package.module:function`` → the function object."""
    if not isinstance(target, str) or target.count(":") < 1:
        raise ValueError(
            f"target must be 'path/to/file.py:function' or 'module:function', got {target!r}"
        )
    where, _, name = target.rpartition(":")
    if not where or not name.isidentifier():
        raise ValueError(
            f"target must be 'path/to/file.py:function' or 'module:function', got {target!r}"
        )
    module = load_module(where)
    func = getattr(module, name, None)
    if func is None or not callable(func):
        raise ValueError(f"target {target!r}: {where} defines no function {name!r}")
    return func


def load_module(where: str):
    """Import a module from a ``.py`` path or a dotted module name (errors as one-line ValueError)."""
    try:
        if where.endswith(".py") or "/" in where or "\\" in where:
            path = Path(where).expanduser().resolve()
            if not path.is_file():
                raise ValueError(f"target file {where!r} does not exist")
            modname = f"_dpcompendium_user_{path.stem}_{abs(hash(str(path))) % 10**8}"
            spec = importlib.util.spec_from_file_location(modname, path)
            if spec is None or spec.loader is None:
                raise ValueError(f"target file {where!r} is not a Python module")
            module = importlib.util.module_from_spec(spec)
            sys.modules[modname] = module
            spec.loader.exec_module(module)
            _pickle_by_value(module)
            return module
        return importlib.import_module(where)
    except ValueError:
        raise
    except Exception as exc:  # the user's module failed to import
        raise UserCodeError(f"importing {where!r} failed: {type(exc).__name__}: {exc}") from exc


def _pickle_by_value(module) -> None:
    """Worker processes cannot import a module loaded from a file path: have cloudpickle ship its functions by
    value (with the globals they use) instead of by reference."""
    try:
        import cloudpickle
    except ImportError:  # pragma: no cover - joblib >= 1.5 depends on it
        return
    cloudpickle.register_pickle_by_value(module)


class _Shipped:
    """A callable pickled by value with cloudpickle whatever the pickler that carries it: Dask tries the standard
    pickle first, which would send a user function by reference (an import the worker cannot do)."""

    __slots__ = ("fn",)

    def __init__(self, fn: Callable) -> None:
        self.fn = fn

    def __call__(self, *args: Any) -> Any:
        return self.fn(*args)

    def __reduce__(self):
        import cloudpickle

        return _unship, (cloudpickle.dumps(self.fn),)


def _unship(payload: bytes) -> _Shipped:
    return _Shipped(pickle.loads(payload))


# ------------------------------------------------------------------------------------------ input families
def _identity(d: Any) -> Any:
    return d


def _single(d: Any) -> Any:
    """A one-record raw dataset → the value itself (local DP, scalar inputs)."""
    return np.asarray(d)[0]


@dataclass(frozen=True)
class InputPair:
    """Two neighbouring inputs D, D' as the user function receives them (``a``, ``b``), the same as *raw
    datasets* (records on the first axis; ``raw_a``, ``raw_b``) that
    :func:`~dpcompendium.audit.spec.are_neighbours` checks under ``relation``, and ``to_input`` mapping a raw
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


def _describe(x: Any) -> str:
    arr = np.asarray(x)
    if arr.ndim == 0:
        return f"{arr.item()!r}"
    if arr.size <= 6:
        return np.array2string(arr, separator=", ")
    vals, counts = np.unique(arr, return_counts=True)
    if vals.size <= 3 and arr.ndim == 1:
        return "[" + ", ".join(f"{v:g}×{c}" for v, c in zip(vals, counts, strict=True)) + "]"
    return f"array{arr.shape}"


def input_pairs(
    inputs: str, neighbours: str | None = None, *, probe: bool = True
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
      (A×N) vs (A×N, B), (B×N) vs (B×N, A), (A×N) vs (A×(N+1)), (B×N) vs (B×(N+1)). With ``probe`` (the
      default) also the pairs of :func:`dataset_probes` beyond the declared bounds: records outside [A, B],
      one-record and (add-remove) empty datasets — where a missing clamp, a data-dependent n or an unbounded
      sensitivity shows.
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
    return [
        InputPair(name, h, h2, records(h), records(h2), neighbours, counts)
        for name, h, h2 in changes
    ]


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


def _dataset_pair(x: np.ndarray, y: np.ndarray, neighbours: str, probe: bool = False) -> InputPair:
    name = f"{_describe(x)} vs {_describe(y)}"
    return InputPair(name, x, y, relation=neighbours, probe=probe)


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

    Every probe is a pair of neighbouring raw datasets (:func:`~dpcompendium.audit.spec.are_neighbours`); a function
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


# -------------------------------------------------------------------------------------------- sampling
def _accepts_size(func: Callable) -> bool:
    try:
        return "size" in inspect.signature(func).parameters
    except (TypeError, ValueError):
        return False


def _chunk_seed(seed: np.random.SeedSequence, i: int) -> np.random.SeedSequence:
    """The i-th child of ``seed`` (what ``seed.spawn`` would return first), without mutating ``seed``."""
    return np.random.SeedSequence(
        seed.entropy, spawn_key=(*seed.spawn_key, i), pool_size=seed.pool_size
    )


def _as_seed(seed: int | np.random.SeedSequence | np.random.Generator) -> np.random.SeedSequence:
    if isinstance(seed, np.random.SeedSequence):
        return seed
    if isinstance(seed, np.random.Generator):
        return np.random.SeedSequence(int(seed.integers(0, 2**63)))
    return np.random.SeedSequence(check_int(seed, "seed", minimum=0))


def _call(func, data, rng, params, size=None):
    try:
        if size is None:
            return func(_copy(data), rng, **params)
        return func(_copy(data), rng, size=size, **params)
    except Exception as exc:
        name = getattr(func, "__name__", "function")
        raise UserCodeError(f"{name} raised {type(exc).__name__}: {exc}".splitlines()[0]) from exc


def _copy(data):
    return data.copy() if isinstance(data, np.ndarray) else data


def _as_output_array(out, n: int, name: str, batched: bool) -> np.ndarray:
    arr = np.asarray(out)
    if batched and (arr.ndim == 0 or arr.shape[0] != n):
        raise UserCodeError(
            f"{name}(..., size={n}) must return {n} outputs along the first axis, got shape {arr.shape}"
        )
    if arr.dtype == object:
        raise UserCodeError(
            f"{name} must return numbers, arrays or strings, got objects ({arr.ravel()[0]!r})"
        )
    if arr.dtype.kind in "fc" and not np.all(np.isfinite(arr)):
        bad = arr[~np.isfinite(arr)].ravel()[0]
        raise UserCodeError(f"{name} returned a non-finite value ({bad!r}); outputs must be finite")
    return arr


def sample_outputs(
    func: Callable,
    data: Any,
    params: Mapping[str, Any] | None,
    n_samples: int,
    seed: int | np.random.SeedSequence | np.random.Generator,
    *,
    chunk_size: int = CHUNK_SIZE,
    batched: bool | None = None,
) -> np.ndarray:
    """``n_samples`` outputs of ``func(data, rng, **params)``, stacked on the first axis.

    Chunk i (of ``ceil(n_samples / chunk_size)``) draws from ``Generator(PCG64(child i of seed))``; within a
    chunk the function is called once with ``size=m`` when it has a ``size`` parameter (vectorized), else m times.
    Raises :class:`UserCodeError` if the function raises, returns a wrong shape or a non-finite value.
    """
    n = check_int(n_samples, "n_samples", minimum=1)
    chunk_size = check_int(chunk_size, "chunk_size", minimum=1)
    ss = _as_seed(seed)
    params = dict(params or {})
    batched = _accepts_size(func) if batched is None else batched
    name = getattr(func, "__name__", "function")
    chunks = []
    for i, start in enumerate(range(0, n, chunk_size)):
        m = min(chunk_size, n - start)
        g = np.random.Generator(np.random.PCG64(_chunk_seed(ss, i)))
        if batched:
            chunks.append(_as_output_array(_call(func, data, g, params, size=m), m, name, True))
        else:
            outs = [
                _as_output_array(_call(func, data, g, params), 1, name, False) for _ in range(m)
            ]
            shapes = {o.shape for o in outs}
            if len(shapes) > 1:
                raise UserCodeError(
                    f"{name} must return outputs of one shape, got {sorted(shapes)}"
                )
            chunks.append(np.stack(outs))
    return np.concatenate(chunks) if len(chunks) > 1 else chunks[0]


def check_user_function(
    func: Callable, data: Any, params: Mapping[str, Any] | None = None, *, seed: int = 0
) -> bool:
    """Reject a function that raises, returns NaN, or ignores ``rng`` (two draws with one seed differ).

    Returns whether the function is called in vectorized batches (it has a ``size`` parameter).
    """
    if not callable(func):
        raise ValueError(f"func must be callable, got {func!r}")
    batched = _accepts_size(func)
    ss = np.random.SeedSequence(seed)
    first = sample_outputs(func, data, params, _REPRO_SAMPLES, ss, batched=batched)
    second = sample_outputs(func, data, params, _REPRO_SAMPLES, ss, batched=batched)
    same = first.shape == second.shape and np.array_equal(first, second)
    if not same:
        name = getattr(func, "__name__", "function")
        raise UserCodeError(
            f"{name} is not reproducible: two calls with the same seed gave different outputs — draw all "
            "randomness from the rng argument (no np.random.* / random module / default_rng() inside)"
        )
    return batched


# ----------------------------------------------------------------------------------------- statistics
@dataclass
class _Statistic:
    """A scalar statistic of the outputs, fitted on the selection half only."""

    name: str
    fn: Callable[[np.ndarray], np.ndarray]


class _Encoder:
    """Maps the outputs of one audit to a numeric array (codes for strings), consistently across draws."""

    def __init__(self) -> None:
        self.codes: dict[Any, int] = {}
        self.frozen = False

    def frozen_copy(self) -> _Encoder:
        """The same codes, fixed: a value the selection did not see gets NaN (in no interval event), so the
        evaluation counts do not depend on the order in which chunks meet new values."""
        enc = _Encoder()
        enc.codes, enc.frozen = dict(self.codes), True
        return enc

    def __call__(self, out: np.ndarray) -> np.ndarray:
        if out.dtype.kind in "biuf":
            return out.astype(float, copy=False).reshape(
                out.shape[0], -1
            )  # no copy of float64 outputs
        if out.dtype.kind not in "USa":
            raise UserCodeError(
                f"outputs must be numbers, arrays or strings, got dtype {out.dtype}"
            )
        flat = out.reshape(out.shape[0], -1)
        if flat.shape[1] != 1:
            raise UserCodeError(
                f"string outputs must be one string per call, got shape {out.shape[1:]}"
            )
        vals, inv = np.unique(flat[:, 0], return_inverse=True)
        if not self.frozen:
            for v in vals:
                self.codes.setdefault(v.item(), len(self.codes))
        lut = np.array([self.codes.get(v.item(), np.nan) for v in vals], dtype=float)
        return lut[inv][:, None]

    def label(self, code: float) -> str:
        inv = {c: v for v, c in self.codes.items()}
        return repr(inv.get(int(code), code)) if self.codes else f"{code:g}"


def _snap(stat: _Statistic, ref: np.ndarray) -> _Statistic:
    """Round the statistic to 10 significant digits (of its largest value on the selection samples).

    A statistic with an atom (e.g. a sum of saturated terms) takes the atom's value only up to a few ulps, and
    which ulp depends on the floating-point grid of the input: x + Lap(b) and x' + Lap(b) lie on different grids.
    Unrounded, an interval ending at the atom would measure that rounding, not the mechanism (a floating-point
    leak [mironov2012significance] that the chapter audits separately). Rounding merges the ulps.
    """
    top = float(np.max(np.abs(stat.fn(ref)))) if ref.size else 1.0
    dec = int(9 - math.floor(math.log10(top))) if top > 0 and math.isfinite(top) else 9
    return _Statistic(stat.name, functools.partial(_rounded, f=stat.fn, d=dec))


# The statistics are partials of module functions (not lambdas), so a selection task can return them from a worker.
def _rounded(x: np.ndarray, f: Callable, d: int) -> np.ndarray:
    return np.round(f(x), d)


def _column(x: np.ndarray, j: int) -> np.ndarray:
    return x[:, j]


def _project(x: np.ndarray, w: np.ndarray) -> np.ndarray:
    return x @ w


def _l1_ratio(x: np.ndarray, a: np.ndarray, b: np.ndarray, s: np.ndarray) -> np.ndarray:
    return (np.abs(x - a) / s - np.abs(x - b) / s).sum(1)


def _candidate_statistics(xa: np.ndarray, xb: np.ndarray) -> list[_Statistic]:
    """Scalar statistics of (n, d) outputs: the output itself (d = 1), else the projection on the difference of
    means, an L1 likelihood-ratio statistic (Laplace noise), and the most shifted coordinate; all rounded by
    :func:`_snap`."""
    ref = np.concatenate([xa, xb])
    d = xa.shape[1]
    if d == 1:
        return [_snap(_Statistic("output", functools.partial(_column, j=0)), ref)]
    mu_a, mu_b = xa.mean(0), xb.mean(0)
    diff = mu_b - mu_a
    if not np.any(diff):
        diff = np.ones(d)
    med_a, med_b = np.median(xa, 0), np.median(xb, 0)
    sd = np.sqrt(0.5 * (xa.var(0) + xb.var(0))) + 1e-12
    j = int(np.argmax(np.abs(diff) / sd))
    stats = [
        _Statistic("projection on mean(D') − mean(D)", functools.partial(_project, w=diff)),
        _Statistic(
            "Σ |o − med(D)| − |o − med(D')|",
            functools.partial(_l1_ratio, a=med_a, b=med_b, s=sd),
        ),
        _Statistic(f"output coordinate {j}", functools.partial(_column, j=j)),
    ]
    return [_snap(st, ref) for st in stats]


def _draw_outputs(func, to_input, params, batched, data, n, rng) -> np.ndarray:
    """A spec's ``sample(dataset, n, rng)`` for user code: n outputs of ``func`` on ``to_input(dataset)``."""
    return sample_outputs(func, to_input(data), params, n, rng, batched=batched)


def _in_event(stat, enc, lo: float, hi: float, out: np.ndarray) -> np.ndarray:
    """The chosen event: the statistic of the encoded outputs in (lo, hi]."""
    s = stat(enc(out))
    return (s > lo) & (s <= hi)


@dataclass
class _Choice:
    score: float
    pair: int
    stat: _Statistic
    lo: float
    hi: float
    forward: bool


def _best_interval(sa, sb, delta, z, max_cuts) -> tuple[float, float, float, bool]:
    """Best Wilson-penalized interval event (lo, hi] for sa over sb (forward) or sb over sa."""
    return _best_interval_sorted(np.sort(sa), np.sort(sb), delta, z, max_cuts)


def _best_interval_sorted(sa, sb, delta, z, max_cuts) -> tuple[float, float, float, bool]:
    """:func:`_best_interval` on sorted ``sa``, ``sb``."""
    cuts = interval_cuts(pooled_sorted(sa, sb), max_cuts)
    Ka, Kb = _interval_counts(sa, cuts), _interval_counts(sb, cuts)
    valid = np.triu(np.ones(Ka.shape, dtype=bool), k=1)
    sab = np.where(valid, _wilson_score(Ka, sa.size, Kb, sb.size, delta, z), -np.inf)
    sba = np.where(valid, _wilson_score(Kb, sb.size, Ka, sa.size, delta, z), -np.inf)
    forward = sab.max() >= sba.max()
    s = sab if forward else sba
    i, j = np.unravel_index(int(np.argmax(s)), Ka.shape)
    return float(s[i, j]), float(cuts[i]), float(cuts[j]), bool(forward)


@dataclass
class _PairSelection:
    """What the selection of one candidate pair returns (small: no samples). ``values`` (string outputs drawn
    without codes): each side's sorted distinct strings, to build the audit's codes; else ``rows`` (one per
    statistic), ``best`` (the pair's best event), ``support`` (the distinct encoded outputs of a one-number output
    when they name the event: strings, or at most ``MAX_DISCRETE`` values) and ``plot`` (:func:`_plot_summary` of
    the best statistic)."""

    dims: tuple[int, int]
    values: tuple[list | None, list | None] | None = None
    rows: list[dict] = field(default_factory=list)
    best: _Choice | None = None
    support: np.ndarray | None = None
    plot: dict | None = None


def _selection_z_for(c: float, n_pairs: int, dims: int, max_cuts: int) -> float:
    """The Wilson penalty of the selection: the number of (pair, statistic, interval, direction) candidates."""
    n_stats = 1 if dims == 1 else 3
    return _selection_z(c, 2 * n_pairs * n_stats * (max_cuts + 2) ** 2 // 2)


def _pair_selection(k, name, xa, xb, has_codes, n_pairs, c, delta, max_cuts) -> _PairSelection:
    """Selection on candidate pair ``k`` from its encoded selection outputs ``xa``, ``xb``: each candidate
    statistic's best Wilson-penalized interval (a row each) and the pair's best (the first of the largest score)."""
    dims = (xa.shape[1], xb.shape[1])
    if dims[0] != dims[1]:  # the caller raises with every input's size
        return _PairSelection(dims)
    z = _selection_z_for(c, n_pairs, dims[0], max_cuts)
    rows, best, best_sorted = [], None, None
    for st in _candidate_statistics(xa, xb):
        sa, sb = np.sort(st.fn(xa)), np.sort(st.fn(xb))
        score, lo, hi, fwd = _best_interval_sorted(sa, sb, delta, z, max_cuts)
        rows.append({"pair": name, "statistic": st.name,
                     "event": f"({lo:.6g}, {hi:.6g}], {'M(D) over M(D_)' if fwd else 'M(D_) over M(D)'}",
                     "selection_estimate": max(score, 0.0)})  # fmt: skip
        if best is None or score > best.score:
            best, best_sorted = _Choice(score, k, st, lo, hi, fwd), (sa, sb)
        del sa, sb
    assert best is not None and best_sorted is not None
    support = None
    # more than MAX_DISCRETE distinct values among the first 1000 outputs: more in all (no need to sort them all)
    if dims == (1, 1) and (has_codes or np.unique(xa[:1000, 0]).size <= MAX_DISCRETE):
        support = np.unique(np.concatenate([xa[:, 0], xb[:, 0]]))
        if not (has_codes or support.size <= MAX_DISCRETE):
            support = None
    plot = _plot_summary(*best_sorted, presorted=True)
    return _PairSelection(dims, rows=rows, best=best, support=support, plot=plot)


def _select_pair_task(
    func, params, batched, k, name, inputs, seeds, n_sel, codes, n_pairs, c, delta, max_cuts
):
    """One selection task (a worker's share of a chunked audit): draw the pair's ``n_sel`` selection outputs per
    input from their seeds — the streams of the serial selection — encode them with the audit's ``codes`` and run
    :func:`_pair_selection`. String outputs with ``codes=None`` return only their distinct values (the caller builds
    the codes and runs the task again). The samples never leave the task."""
    fn = func.fn if isinstance(func, _Shipped) else func
    outs = [
        sample_outputs(fn, x, params, n_sel, ss, batched=batched)
        for x, ss in zip(inputs, seeds, strict=True)
    ]
    if codes is None and any(o.dtype.kind in "USa" for o in outs):
        values, dims = [], []
        for o in outs:
            enc = _Encoder()
            dims.append(enc(o).shape[1])  # validates the outputs as the encoding does
            values.append(list(enc.codes) if enc.codes else None)
        return _PairSelection((dims[0], dims[1]), values=(values[0], values[1]))
    enc = _Encoder()
    enc.codes, enc.frozen = dict(codes or {}), True
    xa, xb = enc(outs[0]), enc(outs[1])
    del outs
    return _pair_selection(k, name, xa, xb, bool(codes), n_pairs, c, delta, max_cuts)


def _plot_summary(sa: np.ndarray, sb: np.ndarray, presorted: bool = False) -> dict:
    """What the report's figure draws from the chosen statistic on the two inputs' samples, without the samples:
    at most ``MAX_DISCRETE`` distinct values → each value's frequency; else an 80-bin histogram (edges in [a, b), the
    last [a, b], as ``np.histogram``) of the central 99.8 % (quantiles 0.001, 0.999 of both samples). Computed on the
    sorted samples (``presorted``: already sorted), in linear time after the sort."""
    if not presorted:
        sa, sb = np.sort(sa), np.sort(sb)

    def distinct(s):
        return s[np.concatenate([[True], s[1:] != s[:-1]])] if s.size else s

    da = distinct(sa)
    if da.size <= MAX_DISCRETE:
        vals = np.union1d(da, distinct(sb))
        if vals.size <= MAX_DISCRETE:

            def freq(s):
                return (
                    np.searchsorted(s, vals, "right") - np.searchsorted(s, vals, "left")
                ) / s.size

            return {"values": vals, "pa": freq(sa), "pb": freq(sb)}
    lo_q, hi_q = np.quantile(np.sort(np.concatenate([sa, sb]), kind="stable"), [0.001, 0.999])
    bins = np.linspace(lo_q, hi_q, 80)

    def hist(s):
        edges = np.searchsorted(s, bins, "left")
        edges[-1] = np.searchsorted(s, bins[-1], "right")
        return np.diff(edges)

    return {"bins": bins, "ha": hist(sa), "hb": hist(sb)}


# -------------------------------------------------------------------------------------------- report
@dataclass
class AuditReport:
    """The outcome of :func:`audit_callable`.

    ``epsilon_lower`` is a lower bound on the function's ε at the claimed δ that holds with probability at least
    ``confidence`` — the empirical audit's, also with a pmf (``method="exact"``), where ``exact_epsilon`` is the
    exact ε of the declared pmf over the candidate pairs and ``empirical`` the empirical audit's report.
    ``table`` has one row per candidate pair (its selection-half estimate; the chosen row also carries the
    evaluation-half counts and the bound).
    """

    verdict: str
    epsilon_lower: float
    confidence: float
    table: pd.DataFrame
    claimed_epsilon: float
    claimed_delta: float
    neighbours: str
    method: str
    pair: str
    event: str
    p_a: float
    p_b: float
    n_samples: int
    batched: bool
    function: str = ""
    inputs: str = ""
    params: dict = field(default_factory=dict)
    chunk_size: int | None = None
    #: exact audits (``method="exact"``): the exact ε of the declared pmf, the sampler check's draws per input and
    #: the smallest output probability it sees with probability 95 %, the empirical audit of the sampler, and why
    #: the verdict is what it is (inconsistent, not established)
    exact_epsilon: float | None = None
    sampler_draws: int = 0
    detectable_p: float = math.nan
    empirical: AuditReport | None = None
    reason: str = ""
    #: what the user should know beyond the verdict (probes not audited, what the sampler check can see)
    notes: list[str] = field(default_factory=list)
    _plot: dict = field(default_factory=dict, repr=False)

    def summary(self) -> str:
        """One line: the verdict, the claim with its neighbour relation, the audited ε and its confidence (exact
        audits: the declared pmf's exact ε, then the empirical bound on the sampler, then the reason)."""
        delta = f", δ = {self.claimed_delta:g}" if self.claimed_delta else ""
        claim = f"{self.verdict.upper()}: claimed ε = {self.claimed_epsilon:g}{delta} ({self.neighbours} neighbours)"
        bound = f"ε ≥ {self.epsilon_lower:.3f} with confidence {self.confidence:.3g}"
        if self.method == "exact":
            emp = self.empirical
            witness = f" (pair {emp.pair}; event {emp.event})" if emp is not None else ""
            line = (
                f"{claim}; exact ε of the declared pmf = {self.exact_epsilon:.4g} (pair {self.pair}; event "
                f"{self.event}); empirical {bound}{witness}"
            )
            return f"{line} — {self.reason}" if self.reason else line
        return f"{claim}; audited {bound} (pair {self.pair}; event {self.event})"

    def to_markdown(self) -> str:
        """A short report: claim, verdict, witness event, per-pair table."""
        lines = [
            f"# Privacy audit of `{self.function or 'function'}`",
            "",
            f"**Verdict: {self.verdict}.** {self.summary()}",
            "",
            f"- claim: ε = {self.claimed_epsilon:g}, δ = {self.claimed_delta:g}, neighbours: {self.neighbours}",
            f"- inputs: {self.inputs or 'given pair'}; parameters: {self.params or '{}'}",
            f"- method: {self.method}" + self._method_note(),
            *(f"- note: {n}" for n in self.notes),
            f"- witness: pair {self.pair}; event {self.event}; P[M(D) ∈ S] = {self.p_a:.4g}, "
            f"P[M(D') ∈ S] = {self.p_b:.4g}",
            f"- calls: {'vectorized (size=...)' if self.batched else 'one call per sample (no size parameter)'}",
            "",
            "A verdict of *holds* means no violation was found on these inputs and events; it is not a proof.",
            "",
            self.table.to_markdown(index=False, floatfmt=".4g"),
            "",
            "![Output distributions on the chosen pair](report.png)",
            "",
        ]
        return "\n".join(lines)

    def _method_note(self) -> str:
        n = self.n_samples
        if self.method != "empirical":
            return (
                f" — output probabilities from the declared pmf (sampler checked on {self.sampler_draws} draws per "
                "input), and the empirical audit of the sampler"
                + (self.empirical._method_note() if self.empirical else "")
            )
        if self.chunk_size is None:
            return (
                f" — pair and event chosen on {n // 2} samples per input; on the chosen pair {n} fresh samples, "
                f"direction fixed on half, ε bounded on {n - n // 2} (Clopper–Pearson)"
            )
        k = min(n // 2, self.chunk_size)
        return (
            f" — pair and event chosen on {k} samples per input; on the chosen pair {n} fresh samples, direction "
            f"fixed on {k}, ε bounded on {n - k} counted in chunks of {self.chunk_size} (Clopper–Pearson)"
        )

    def figure(self):
        """The two output distributions (of the chosen statistic) on the chosen pair, the event shaded."""
        from matplotlib.figure import Figure

        fig = Figure(figsize=(7, 3.6))
        ax = fig.subplots()
        summary = self._plot.get("summary")
        if summary is None and self._plot.get("a") is not None:
            summary = _plot_summary(self._plot["a"], self._plot["b"])
        labels = self._plot.get("labels", ("M(D)", "M(D')"))
        if summary is None:
            ax.text(0.5, 0.5, "no samples", ha="center")
            return fig
        if "values" in summary:
            w = 0.4
            vals, pa, pb = summary["values"], summary["pa"], summary["pb"]
            pos = np.arange(vals.size)
            ax.bar(pos - w / 2, pa, w, label=labels[0])
            ax.bar(pos + w / 2, pb, w, label=labels[1])
            enc = self._plot.get("encoder")
            ax.set_xticks(pos, [enc.label(v) if enc else f"{v:g}" for v in vals], fontsize=8)
            ax.set(ylabel="probability")
            lo, hi = self._plot.get("event", (np.nan, np.nan))
            for p, v in zip(pos, vals, strict=True):
                if lo < v <= hi:
                    ax.axvspan(p - 0.5, p + 0.5, color="0.85", zorder=0)
        else:
            bins = summary["bins"]
            lo_q, hi_q = bins[0], bins[-1]
            # the histogram of the samples, drawn from its counts (one weighted point per bin)
            for counts, label in zip((summary["ha"], summary["hb"]), labels, strict=True):
                ax.hist(
                    bins[:-1], bins=bins, weights=counts, density=True, histtype="step", label=label
                )
            lo, hi = self._plot.get("event", (np.nan, np.nan))
            ax.axvspan(max(lo, lo_q), min(hi, hi_q), color="0.85", zorder=0, label="event S")
            ax.set(ylabel="density")
        ax.set(xlabel=self._plot.get("statistic", "output"), title=f"{self.verdict}: {self.pair}")
        ax.legend(fontsize=8)
        fig.tight_layout()
        return fig

    def save(self, out_dir: str | Path) -> list[Path]:
        """Write ``report.csv``, ``report.md`` and ``report.png`` into ``out_dir``; returns the paths."""
        out = Path(out_dir)
        out.mkdir(parents=True, exist_ok=True)
        paths = [out / "report.csv", out / "report.md", out / "report.png"]
        self.table.to_csv(paths[0], index=False)
        paths[1].write_text(self.to_markdown(), encoding="utf-8")
        self.figure().savefig(paths[2], dpi=110)
        return paths


# --------------------------------------------------------------------------------------------- audit
def _check_pair(pair, neighbours: str | None) -> InputPair:
    """A given pair: two scalars are one value each (local); anything else is a raw dataset (records on the first
    axis) under ``neighbours``."""
    if isinstance(pair, InputPair):
        return pair
    if not isinstance(pair, Sequence) or isinstance(pair, str) or len(pair) != 2:
        raise ValueError(f"pair must be two inputs (D, D'), got {pair!r}")
    a, b = (np.asarray(x, dtype=float) if isinstance(x, list) else x for x in pair)
    name = f"{_describe(a)} vs {_describe(b)}"
    if np.ndim(a) == 0 and np.ndim(b) == 0:
        return _local_pair(name, a, b)
    if neighbours is None:
        raise ValueError(
            f"neighbours is required for a pair of datasets ({name}): replace-one (n public) or add-remove"
        )
    return InputPair(name, a, b, relation=neighbours)


def _spec(name, pr: InputPair, epsilon, delta, **kw) -> AuditSpec:
    claim = PrivacyClaim(name, pr.relation, "declared by the user", epsilon, delta)
    return AuditSpec(name, "user", "user code", claim, (pr.raw_a, pr.raw_b), **kw)


def _pmf_table(pmf, data, params) -> dict:
    try:
        table = pmf(_copy(data), **params)
    except Exception as exc:
        raise UserCodeError(f"pmf raised {type(exc).__name__}: {exc}".splitlines()[0]) from exc
    if not isinstance(table, Mapping):
        arr = np.asarray(table, dtype=float)
        table = {i: float(p) for i, p in enumerate(arr)}
    probs = np.array(list(table.values()), dtype=float)
    if np.any(probs < 0) or abs(probs.sum() - 1) > 1e-6:
        raise UserCodeError(
            f"pmf must return probabilities summing to 1, got sum {probs.sum():.6g}"
        )
    return {(k.item() if isinstance(k, np.generic) else k): float(p) for k, p in table.items()}


def _check_pmf(func, data, table, params, n_check, seed, batched) -> None:
    """The pmf must describe the sampler: no unlisted output, chi-square goodness of fit at p >= 1e-6."""
    from scipy.stats import chisquare

    out = sample_outputs(func, data, params, n_check, seed, batched=batched)
    vals, counts = np.unique(out.reshape(out.shape[0], -1)[:, 0], return_counts=True)
    unknown = [v.item() for v in vals if v.item() not in table]
    if unknown:
        raise UserCodeError(
            f"the sampler returned {unknown[0]!r}, which the pmf gives probability 0"
        )
    ks = list(table)
    found = dict(zip((v.item() for v in vals), counts, strict=True))
    obs = np.array([found.get(o, 0) for o in ks], dtype=float)
    exp = np.array([table[o] for o in ks]) * n_check
    keep = exp > 0
    if keep.sum() > 1 and chisquare(obs[keep], exp[keep]).pvalue < 1e-6:
        raise UserCodeError(
            f"the pmf does not describe the sampler on input {_describe(data)} (chi-square p < 1e-6)"
        )


def _exact_event(event: str) -> str:
    return event.replace(" (inputs 0 vs 1)", "")


def _exact(func, pmf, pairs, params, name, epsilon, delta, n_check, ss, batched):
    """Exact ε of every pair from the pmf, through :func:`~dpcompendium.audit.spec.run_audit`."""
    tables = [(_pmf_table(pmf, pr.a, params), _pmf_table(pmf, pr.b, params)) for pr in pairs]
    keys = sorted({o for ta, tb in tables for o in (*ta, *tb)}, key=repr)
    rows, results = [], []
    for k, (pr, (ta, tb)) in enumerate(zip(pairs, tables, strict=True)):
        for side, (data, table) in enumerate(((pr.a, ta), (pr.b, tb))):
            _check_pmf(func, data, table, params, n_check, _chunk_seed(ss, 2 * k + side), batched)
        vec = {
            id(pr.raw_a): [ta.get(o, 0.0) for o in keys],
            id(pr.raw_b): [tb.get(o, 0.0) for o in keys],
        }
        spec = _spec(name, pr, epsilon, delta, distribution=lambda d, v=vec: np.asarray(v[id(d)]),
                     outputs=[repr(o) for o in keys])  # fmt: skip
        res = run_audit(spec, rng=np.random.default_rng(0))  # exact: the generator is not used
        results.append(res)
        rows.append({"pair": pr.name, "statistic": "output", "event": _exact_event(res.event),
                     "exact_epsilon": res.audited_epsilon, "p_a": res.p_a, "p_b": res.p_b})  # fmt: skip
    k = int(np.argmax([r.audited_epsilon for r in results]))
    return rows, k, results[k], keys, tables[k], tables


def _check_dims(name: str, dims: set[int]) -> None:
    if len(dims) > 1:
        raise UserCodeError(
            f"{name} returns outputs of different sizes on different inputs: {sorted(dims)}"
        )


def _select_in_tasks(
    func, params, batched, pairs, key_of, distinct, ss_sel, n_sel, enc, sel_args, n_jobs
):
    """The chunked audit's selection: one :func:`_select_pair_task` per candidate pair, in one ``joblib.Parallel``
    (``n_jobs`` processes, or the Dask cluster of ``DPCOMPENDIUM_SCHEDULER``). Each task draws its inputs from the
    seeds of the serial selection, so the result is the same wherever it runs. String outputs take two rounds:
    the first returns each input's distinct strings, from which ``enc`` gets the codes the serial selection would
    give (inputs in order, each one's strings sorted); the second selects with those codes, frozen."""
    shipped = _Shipped(func)

    def run(codes):
        tasks = (
            joblib.delayed(_select_pair_task)(
                shipped,
                params,
                batched,
                k,
                pr.name,
                (pr.a, pr.b),
                tuple(_chunk_seed(ss_sel, distinct[key_of(x)]) for x in (pr.a, pr.b)),
                n_sel,
                codes,
                *sel_args,
            )
            for k, pr in enumerate(pairs)
        )
        with joblib_backend(n_jobs) as n:
            return joblib.Parallel(n_jobs=n, pre_dispatch="all")(tasks)

    selected = run(None)
    values: dict[int, list | None] = {}
    dims: dict[int, int] = {}
    for pr, sel in zip(pairs, selected, strict=True):
        for x, d, v in zip((pr.a, pr.b), sel.dims, sel.values or (None, None), strict=True):
            dims[distinct[key_of(x)]], values[distinct[key_of(x)]] = d, v
    _check_dims(getattr(func, "__name__", "function"), set(dims.values()))
    if any(sel.values is not None for sel in selected):
        for i in sorted(values):
            for v in values[i] or ():
                enc.codes.setdefault(v, len(enc.codes))
        selected = run(dict(enc.codes))
    return selected


def audit_callable(
    func: Callable,
    *,
    epsilon: float,
    delta: float = 0.0,
    neighbours: str | None = None,
    inputs: str | None = None,
    pair: Sequence | None = None,
    params: Mapping[str, Any] | None = None,
    samples: int = 200_000,
    confidence: float = 0.95,
    seed: int = 0,
    pmf: Callable | None = None,
    max_cuts: int = 160,
    chunk_size: int | None = None,
    n_jobs: int = 1,
    scheduler: str | None = None,
    probes: bool = True,
) -> AuditReport:
    """Audit ``func(data, rng, **params)`` against its claimed (ε, δ) on neighbouring inputs.

    Give either ``inputs`` (a family of :func:`input_pairs`: ``"scalar:A,B"``, ``"dataset:N,A,B"``,
    ``"histogram:K"``, ``"ldp"``, ``"category:K"``) or ``pair=(D, D')`` (two scalars: one value each, local; else
    raw datasets with records on the first axis, which must be neighbours under ``neighbours``). ``samples // 2``
    outputs per candidate input choose the pair, statistic and event; then ``samples`` fresh outputs per input of
    the chosen pair go through :func:`~dpcompendium.audit.spec.run_audit` — the path of the book's own audits —
    which fixes the direction on half of them and bounds ε (Clopper–Pearson) on the other half.
    A ``size`` parameter of ``func`` (returning ``size`` outputs stacked on the first axis) makes sampling
    vectorized; without it ``func`` is called once per sample. A parameter of ``func`` named ``epsilon``
    (``delta``) that ``params`` does not set receives the claimed value. ``neighbours`` (``replace-one`` or
    ``add-remove``) is required for ``dataset`` and ``histogram`` inputs and for a pair of datasets; one-value inputs
    are ``local``. Inputs ``dataset:N,A,B`` also probe beyond the declared bounds (:func:`dataset_probes`) unless
    ``probes=False`` (the declared family only: an audit that trusts the data to lie in [A, B]).
    ``pmf(data, **params) -> {output: probability}`` adds the exact ε of the declared pmf on every pair
    (``_exact_report``: it is the sampler's ε only as far as the sampler check can see, so the empirical audit
    runs too and must agree). Raises :class:`UserCodeError` for misbehaving code and ``ValueError`` for bad
    arguments.

    ``chunk_size`` (10 ≤ C ≤ ``samples``): a big audit in bounded memory (module docstring): ``min(samples // 2, C)``
    selection outputs per candidate input (one task per candidate pair), the evaluation counted in chunks of C — in
    this process, over ``n_jobs`` processes, or on a Dask cluster (``scheduler``: ``local:N`` or an address; default
    ``$DPCOMPENDIUM_SCHEDULER``). The report depends on (seed, samples, C), never on ``n_jobs`` or the cluster.
    """
    epsilon = check_epsilon(epsilon)
    delta = 0.0 if delta == 0 else check_delta(delta)
    if neighbours is not None and neighbours not in NEIGHBOURS:
        raise ValueError(f"neighbours must be one of {'|'.join(NEIGHBOURS)}, got {neighbours!r}")
    if (inputs is None) == (pair is None):
        raise ValueError(
            "give exactly one of inputs (a family such as 'scalar:0,1') and pair=(D, D')"
        )
    pairs = (
        input_pairs(inputs, neighbours, probe=probes)
        if inputs is not None
        else [_check_pair(pair, neighbours)]
    )
    for pr in pairs:
        if not are_neighbours(pr.raw_a, pr.raw_b, pr.relation):
            raise ValueError(
                f"pair must be {pr.relation} neighbours (raw datasets, records on the first axis), got {pr.name}"
            )
    samples = check_int(samples, "samples", minimum=200)
    if chunk_size is not None:
        chunk_size = check_int(chunk_size, "chunk_size", minimum=10)
        if chunk_size > samples:
            raise ValueError(f"chunk_size must be <= samples ({samples}), got {chunk_size}")
    n_jobs = check_int(n_jobs, "n_jobs", minimum=-1)
    if n_jobs == 0:
        raise ValueError("n_jobs must be >= 1 or -1 (all cores), got 0")
    if scheduler is not None:
        scheduler = check_scheduler(scheduler, "scheduler")
        if chunk_size is None:
            raise ValueError(
                f"scheduler needs chunk_size (the evaluation is counted in chunks on the cluster), got "
                f"scheduler={scheduler!r} and no chunk_size"
            )
    c = _check_confidence(confidence)
    seed = check_int(seed, "seed", minimum=0)
    params = dict(params or {})
    if not callable(func):
        raise ValueError(f"func must be callable, got {func!r}")
    try:
        accepted = inspect.signature(func).parameters
    except (TypeError, ValueError):
        accepted = {}
    for key, value in (("epsilon", epsilon), ("delta", delta)):
        if key in accepted and key not in params and (key == "epsilon" or delta > 0):
            params[key] = value  # the claim, unless the caller sets the parameter
    name = getattr(func, "__name__", "function")
    batched = check_user_function(func, pairs[0].a, params, seed=seed)
    pairs, notes = _screen_probes(func, pairs, params, seed, batched)
    root = np.random.SeedSequence(seed)
    relation = pairs[0].relation
    common = dict(
        claimed_epsilon=epsilon, claimed_delta=delta, neighbours=relation, n_samples=samples,
        batched=batched, function=name, inputs=inputs or "", params=params,
    )  # fmt: skip
    kw = dict(
        c=c, root=root, chunk_size=chunk_size, n_jobs=n_jobs, scheduler=scheduler, max_cuts=max_cuts
    )
    if pmf is None:
        report = _empirical_report(func, pairs, params, common, **kw)
    else:
        report = _exact_report(func, pmf, pairs, params, common, **kw)
    report.notes = notes + report.notes
    return report


def _empirical_report(
    func, pairs, params, common, *, c, root, chunk_size, n_jobs, scheduler, max_cuts
) -> AuditReport:
    """The empirical audit (module docstring, steps 3–4): the pair, statistic and event chosen on ``samples // 2``
    outputs per candidate input (stream: child 0 of ``root``), ε bounded by :func:`run_audit` on fresh outputs of
    the chosen pair (child 1)."""
    epsilon, delta, samples = (
        common["claimed_epsilon"],
        common["claimed_delta"],
        common["n_samples"],
    )
    batched, name = common["batched"], common["function"]
    ss_sel, ss_ev = _chunk_seed(root, 0), _chunk_seed(root, 1)
    # ---- selection half: n_sel outputs of every distinct candidate input i, drawn from child i of ss_sel
    n_sel = samples // 2 if chunk_size is None else min(samples // 2, chunk_size)
    n_ev = (
        samples - n_sel
    )  # the evaluation samples of run_audit (its direction is fixed on the other n_sel)
    enc = _Encoder()

    def key_of(x) -> bytes:
        arr = np.asarray(x)
        return repr((arr.dtype.str, arr.shape)).encode() + arr.tobytes()

    distinct: dict[bytes, int] = {}
    for pr in pairs:
        for x in (pr.a, pr.b):
            distinct.setdefault(key_of(x), len(distinct))
    sel_args = (len(pairs), c, delta, max_cuts)
    with using_scheduler(scheduler if chunk_size is not None else None):
        if chunk_size is None:
            # in memory: each distinct input drawn once, encoded in order, shared by the pairs that use it
            cache = {}
            for pr in pairs:
                for x in (pr.a, pr.b):
                    if key_of(x) not in cache:
                        out = sample_outputs(func, x, params, n_sel, _chunk_seed(ss_sel, distinct[key_of(x)]),
                                             batched=batched)  # fmt: skip
                        cache[key_of(x)] = enc(out)
            _check_dims(name, {v.shape[1] for v in cache.values()})
            selected = [
                _pair_selection(
                    k, pr.name, cache[key_of(pr.a)], cache[key_of(pr.b)], bool(enc.codes), *sel_args
                )
                for k, pr in enumerate(pairs)
            ]
            del cache
        else:
            # chunked: one task per candidate pair (workers draw, the driver gets the small results)
            selected = _select_in_tasks(func, params, batched, pairs, key_of, distinct, ss_sel, n_sel, enc,
                                        sel_args, n_jobs)  # fmt: skip
        rows = [row for sel in selected for row in sel.rows]
        best = None
        for sel in selected:
            if best is None or sel.best.score > best.score:
                best = sel.best
        assert best is not None
        chosen, chosen_sel = pairs[best.pair], selected[best.pair]
        if chosen_sel.support is not None:
            support = chosen_sel.support
            inside = support[(support > best.lo) & (support <= best.hi)]
            members = [enc.label(v) if enc.codes else f"{v:g}" for v in inside]
            event_name = f"output in {{{', '.join(members)}}}"
        else:
            event_name = f"{best.stat.name} in ({best.lo:.6g}, {best.hi:.6g}]"

        # ---- evaluation half: fresh samples on the chosen pair, the event fixed, through run_audit
        rng_ev = np.random.Generator(np.random.PCG64(ss_ev))
        if chunk_size is not None:
            # counted in chunks wherever they run: the sampler and the event travel by value, the encoder is frozen
            draw = _Shipped(
                functools.partial(_draw_outputs, func, chosen.to_input, params, batched)
            )
            event = _Shipped(
                functools.partial(_in_event, best.stat.fn, enc.frozen_copy(), best.lo, best.hi)
            )
            # sample_outputs takes one integer from the generator it is given: the direction's selection samples
            # can be drawn in tasks too (empirical_audit_chunked's seeded_samplers), none in this process
            spec = _spec(name, chosen, epsilon, delta, sample=draw, events=[(event_name, event)],
                         audit_kw={"seeded_samplers": True})  # fmt: skip
            res = run_audit(spec, n_samples=samples, confidence=c, rng=rng_ev, chunk_size=chunk_size,
                            n_jobs=n_jobs)  # fmt: skip
            # the figure shows the chosen pair's selection samples (the evaluation samples are never gathered)
            summary = chosen_sel.plot
        else:
            kept = {}

            def sample(d, n, g):
                out = sample_outputs(func, chosen.to_input(d), params, n, g, batched=batched)
                kept["a" if "a" not in kept else "b"] = best.stat.fn(enc(out))
                return out

            def indicator(out):
                s_ = best.stat.fn(enc(out))
                return (s_ > best.lo) & (s_ <= best.hi)

            # run_audit (split selection) fixes the direction on the first half of these and bounds ε on the second
            spec = _spec(
                name, chosen, epsilon, delta, sample=sample, events=[(event_name, indicator)]
            )
            res = run_audit(spec, n_samples=samples, confidence=c, rng=rng_ev)
            summary = _plot_summary(kept["a"], kept["b"])
    table = pd.DataFrame(rows)
    table["event"] = table["event"].str.replace("D_", "D'")
    table["chosen"] = False
    idx = next(
        i
        for i, r in enumerate(rows)
        if r["pair"] == chosen.name and r["statistic"] == best.stat.name
    )
    table.loc[idx, "chosen"] = True
    vals = (("k_a", round(res.p_a * n_ev)), ("k_b", round(res.p_b * n_ev)), ("n_eval", n_ev),
            ("epsilon_lower", res.audited_epsilon))  # fmt: skip
    for col, val in vals:
        table[col] = np.nan
        table.loc[idx, col] = val
    table["claimed_epsilon"], table["claimed_delta"], table["confidence"] = epsilon, delta, c
    plot = {"summary": summary, "event": (best.lo, best.hi), "statistic": best.stat.name,
            "encoder": enc if enc.codes else None}  # fmt: skip
    return AuditReport(
        verdict=res.verdict, epsilon_lower=float(res.audited_epsilon), confidence=c, table=table,
        method="empirical", pair=chosen.name, event=res.event, p_a=res.p_a, p_b=res.p_b, _plot=plot,
        chunk_size=chunk_size, **common,
    )  # fmt: skip


#: Draws per input of the sampler check of an exact audit (at most; fewer if ``samples`` is smaller). The check is a
#: sanity check of the pmf (wrong support, grossly wrong frequencies); the sampler's rare outputs are the empirical
#: audit's job, on all ``samples``.
SAMPLER_CHECK_DRAWS = 20_000


def detectable_probability(n_draws: int, power: float = 0.95) -> float:
    """The smallest output probability p that ``n_draws`` independent draws show at least once with probability
    ``power``: 1 − (1 − p)^n ≥ power ⇔ p ≥ 1 − (1 − power)^(1/n) (≈ 3/n at 95 %). An output rarer than that — or a
    sampler that puts more mass on it than its pmf declares — is invisible to a goodness-of-fit check of n draws."""
    n = check_int(n_draws, "n_draws", minimum=1)
    return float(-math.expm1(math.log1p(-power) / n))


def _exact_verdict(
    exact_eps: float, emp: AuditReport, epsilon: float, rare: list
) -> tuple[str, str]:
    """(verdict, reason) of an exact audit: the declared pmf's exact ε, the empirical bound on the sampler, and the
    declared outputs too rare for the sampler check to verify (``rare``: (output, probability) pairs)."""
    declared = verdict(exact_eps, epsilon, "exact")
    if emp.epsilon_lower > exact_eps * (1 + 1e-9) + 1e-12:
        why = (f"inconsistent: the sampler's empirical ε ≥ {emp.epsilon_lower:.3f} exceeds the declared pmf's exact "
               f"ε = {exact_eps:.4g}, so the pmf does not describe the sampler")  # fmt: skip
        return (
            "violated" if emp.verdict == "violated" or declared == "violated" else "inconsistent"
        ), why
    if declared == "violated":
        return "violated", ""
    if rare:
        o, pr = rare[0]
        why = (f"not established: the pmf declares output {o!r} with probability {pr:.2g}, below what the sampler "
               f"check can see, and the empirical audit cannot tell the sampler's ε from the claim at this sample "
               f"size (more --samples, or a proof)")  # fmt: skip
        return "not established", why
    return "holds", ""


def _exact_report(
    func, pmf, pairs, params, common, *, c, root, chunk_size, n_jobs, scheduler, max_cuts
) -> AuditReport:
    """An audit with a declared pmf: the exact ε of the *declared* pmf on every candidate pair, a χ² check that the
    sampler follows it (on ``min(samples, SAMPLER_CHECK_DRAWS)`` draws per input, stream child 2 of ``root``), and
    the empirical audit of the sampler (:func:`_empirical_report`, same samples and streams as without the pmf).

    The declared ε is the sampler's only as far as the check can see: it detects an output of probability
    p ≥ :func:`detectable_probability` (n) with 95 % probability, and ε is often decided by rarer outputs. Verdict
    (``_exact_verdict``): ``violated`` if the declared ε or the empirical bound exceeds the claim;
    ``inconsistent`` if the empirical bound exceeds the declared ε (the pmf is wrong) but not the claim;
    ``not established`` if the pmf declares an output rarer than the check can see (the claim then rests on
    probabilities nothing verified); else ``holds``.
    """
    epsilon, delta, samples = (
        common["claimed_epsilon"],
        common["claimed_delta"],
        common["n_samples"],
    )
    name, batched = common["function"], common["batched"]
    n_check = min(samples, SAMPLER_CHECK_DRAWS)
    rows, k, res, keys, (ta, tb), tables = _exact(
        func, pmf, pairs, params, name, epsilon, delta, n_check, _chunk_seed(root, 2), batched
    )
    emp = _empirical_report(func, pairs, params, common, c=c, root=root, chunk_size=chunk_size, n_jobs=n_jobs,
                            scheduler=scheduler, max_cuts=max_cuts)  # fmt: skip
    p_seen = detectable_probability(n_check)
    rare = sorted(
        {(o, pr) for both in tables for t in both for o, pr in t.items() if 0 < pr < p_seen},
        key=lambda x: (x[1], repr(x[0])),
    )
    exact_eps = float(res.audited_epsilon)
    verdict_, reason = _exact_verdict(exact_eps, emp, epsilon, rare)
    table = pd.DataFrame(rows)
    table["chosen"] = np.arange(len(rows)) == k
    table = pd.concat([table.assign(method="exact (declared pmf)"), emp.table.assign(method="empirical")],
                      ignore_index=True)  # fmt: skip
    enc = _Encoder()
    enc.codes = {kk: i for i, kk in enumerate(keys)}
    p = np.array([ta.get(o, 0.0) for o in keys])
    q = np.array([tb.get(o, 0.0) for o in keys])
    o = int(
        np.argmax(
            np.where((p == 0) & (q == 0), -1.0, np.abs(np.log(p + 1e-300) - np.log(q + 1e-300)))
        )
    )
    grid = np.arange(len(keys), dtype=float)
    plot = {"a": np.repeat(grid, np.round(p * 10_000).astype(int)),
            "b": np.repeat(grid, np.round(q * 10_000).astype(int)),
            "event": (o - 0.5, o + 0.5), "statistic": "output (declared probabilities)", "encoder": enc}  # fmt: skip
    notes = [
        f"exact ε from {name}_pmf is the declared pmf's; the sampler check (χ² on {n_check} draws per input) "
        f"sees an output of probability ≥ {p_seen:.2g} with probability 95 %; rarer outputs, where ε is often "
        f"decided, it cannot see — the empirical audit ({samples} samples per input) bounds the sampler's ε directly"
    ]
    return AuditReport(
        verdict=verdict_, epsilon_lower=emp.epsilon_lower, confidence=emp.confidence, table=table,
        method="exact", pair=pairs[k].name, event=_exact_event(res.event), p_a=res.p_a, p_b=res.p_b, _plot=plot,
        exact_epsilon=exact_eps, sampler_draws=n_check, detectable_p=p_seen, reason=reason, empirical=emp,
        notes=notes, **common,
    )  # fmt: skip


def _screen_probes(func, pairs, params, seed, batched) -> tuple[list[InputPair], list[str]]:
    """Drop the probe pairs (:func:`dataset_probes`) on which ``func`` raises, returns NaN, or returns outputs of
    another shape or kind than on the declared inputs; one note per dropped pair. Declared pairs are never dropped
    (misbehaving code on them stops the audit)."""
    if not any(pr.probe for pr in pairs):
        return pairs, []
    ref = sample_outputs(func, pairs[0].a, params, 2, seed, batched=batched)
    kept, notes = [], []
    for pr in pairs:
        if not pr.probe:
            kept.append(pr)
            continue
        try:
            with warnings.catch_warnings(), np.errstate(all="ignore"):
                warnings.simplefilter("ignore")
                for x in (pr.a, pr.b):
                    out = sample_outputs(func, x, params, 2, seed, batched=batched)
                    if out.shape[1:] != ref.shape[1:] or (out.dtype.kind in "USa") != (
                        ref.dtype.kind in "USa"
                    ):
                        raise UserCodeError(
                            f"outputs of shape {out.shape[1:]} instead of {ref.shape[1:]}"
                        )
        except UserCodeError as exc:
            notes.append(f"probe {pr.name} not audited: {str(exc).splitlines()[0]}")
            continue
        kept.append(pr)
    return kept, notes
