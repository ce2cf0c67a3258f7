"""Sampling the user's function: outputs on one input, in chunks, checked."""

from __future__ import annotations

import inspect
import math
import warnings
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from ...core.rng import child_seed as _chunk_seed
from ...core.validation import check_int
from .common import _REPRO_SAMPLES, CHUNK_SIZE, UserCodeError


def _accepts_size(func: Callable) -> bool:
    try:
        return "size" in inspect.signature(func).parameters
    except (TypeError, ValueError):
        return False


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


#: The token a NaN becomes inside a structured output (so that two equal outputs compare equal).
NAN = "NaN"


def _canonical(x: Any) -> Any:
    """One output as a hashable, comparable structure: sequences (lists, tuples, arrays) as tuples, numbers as
    floats (booleans as 0.0/1.0), NaN as :data:`NAN`, ``None`` and strings as they are."""
    if type(x) is float and math.isfinite(x):  # the commonest atom first
        return x
    if x is None or isinstance(x, str):
        return x
    if isinstance(x, bool | np.bool_):
        return float(x)
    if isinstance(x, np.ndarray):
        return tuple(_canonical(v) for v in x.tolist()) if x.ndim else _canonical(x.item())
    if isinstance(x, list | tuple):
        return tuple(_canonical(v) for v in x)
    if isinstance(x, int | float | np.integer | np.floating):
        v = float(x)
        if math.isnan(v):
            return NAN
        if math.isinf(v):
            raise ValueError(f"an infinite value ({v!r})")
        return v
    if isinstance(x, bytes):
        return x.decode("utf-8", "replace")
    raise ValueError(f"a value of type {type(x).__name__} ({x!r})")


def as_structured(outs: list, name: str) -> np.ndarray:
    """Outputs of any type — tuples, lists of varying length, ``None``, strings, booleans, NaN — as a 1-D object
    array of canonical structures (``_canonical``), which the audit's encoder turns into features."""
    arr = np.empty(len(outs), dtype=object)
    try:
        arr[:] = [_canonical(o) for o in outs]
    except ValueError as exc:
        raise UserCodeError(
            f"{name} returned {exc}; outputs must be numbers, strings, None, or sequences of them"
        ) from exc
    return arr


def _plain(out: Any) -> np.ndarray | None:
    """``out`` as a numeric or string array if it is one (NaN allowed), else None (a structured output)."""
    if out is None or (
        isinstance(out, list | tuple)
        and any(v is None or isinstance(v, list | tuple | str) for v in out)
    ):
        return None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            arr = np.asarray(out)
    except ValueError:  # ragged
        return None
    if arr.dtype.kind not in "biufUS":
        return None
    return arr


def _as_output_array(out, n: int, name: str, batched: bool) -> np.ndarray:
    """A call's outputs as an array: numbers or strings of one shape (NaN allowed), else (structured outputs) a
    1-D object array of canonical structures (:func:`as_structured`); infinite values are refused."""
    if batched:
        arr = _plain(out)
        if arr is None:
            if not isinstance(out, list | tuple | np.ndarray) or len(out) != n:
                raise UserCodeError(
                    f"{name}(..., size={n}) must return {n} outputs, got {out!r:.80}"
                )
            return as_structured(list(out), name)
        if arr.ndim == 0 or arr.shape[0] != n:
            raise UserCodeError(
                f"{name}(..., size={n}) must return {n} outputs along the first axis, got shape {arr.shape}"
            )
    else:
        arr = _plain(out)
        if arr is None:
            return as_structured([out], name)
        arr = arr[None]
    if arr.dtype.kind in "fc" and np.isinf(arr).any():
        bad = arr[np.isinf(arr)].ravel()[0].item()
        raise UserCodeError(
            f"{name} returned an infinite value ({bad!r}); outputs must not be ±inf"
        )
    return arr


def _stack(parts: list[np.ndarray]) -> np.ndarray:
    """Outputs of several calls on the first axis: one array if they share a kind and shape, else structured."""
    if len({(p.dtype.kind in "USa", p.dtype == object, p.shape[1:]) for p in parts}) == 1:
        return np.concatenate(parts) if len(parts) > 1 else parts[0]
    return as_structured([o for p in parts for o in p], "function")


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
    Outputs of any type are accepted: numbers or strings of one shape (NaN included) stay an array; tuples, lists of
    varying length, ``None`` and mixtures become a 1-D object array of canonical structures
    (:func:`as_structured`), encoded by the audit. Raises :class:`UserCodeError` if the function raises, returns
    the wrong number of outputs or an infinite value.
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
            chunks.append(_from_calls([_call(func, data, g, params) for _ in range(m)], name))
    return _stack(chunks)


def _from_calls(outs: list, name: str) -> np.ndarray:
    """The outputs of one call each, converted at once (the per-call conversion took more time than many users'
    functions): numbers of one shape → one numeric array; lists, tuples and ``None`` without strings → the
    structured array; anything else (strings) call by call as before, the same arrays either way."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            arr = np.asarray(outs)
    except (ValueError, TypeError):  # ragged
        arr = None
    if arr is not None and arr.dtype.kind in "biuf" and arr.ndim >= 1 and arr.shape[0] == len(outs):
        if arr.dtype.kind == "f" and np.isinf(arr).any():
            bad = arr[np.isinf(arr)].ravel()[0].item()
            raise UserCodeError(
                f"{name} returned an infinite value ({bad!r}); outputs must not be ±inf"
            )
        return arr
    if not any(_has_text(o) for o in outs):
        return as_structured(outs, name)
    return _stack([_as_output_array(o, 1, name, False) for o in outs])


def _has_text(x: Any) -> bool:
    """``x`` holds a string (or bytes) anywhere."""
    if isinstance(x, str | bytes):
        return True
    if isinstance(x, np.ndarray):
        return x.dtype.kind in "USaO" and (
            x.dtype.kind != "O" or any(_has_text(v) for v in x.ravel())
        )
    if isinstance(x, list | tuple):
        return any(_has_text(v) for v in x)
    return False


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
    same = first.shape == second.shape and (
        np.array_equal(first, second, equal_nan=True)
        if first.dtype.kind in "biufc" and second.dtype.kind in "biufc"
        else bool(np.all(first == second))
    )
    if not same:
        name = getattr(func, "__name__", "function")
        raise UserCodeError(
            f"{name} is not reproducible: two calls with the same seed gave different outputs — draw all "
            "randomness from the rng argument (no np.random.* / random module / default_rng() inside)"
        )
    return batched
