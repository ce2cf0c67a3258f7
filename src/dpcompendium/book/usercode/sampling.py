"""Sampling the user's function: outputs on one input, in chunks, checked."""

from __future__ import annotations

import inspect
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
