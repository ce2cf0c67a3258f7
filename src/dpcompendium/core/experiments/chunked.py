"""Event counts over more Monte-Carlo samples than fit in memory: independent chunks, counts summed.

``count_events(sampler, event, n_samples, seed=..., chunk_size=c)`` splits the samples into chunks
i = 0, …, ⌈n/c⌉ − 1 of c samples (the last one shorter). Chunk i is ``outputs_i = sampler(m_i, rng_i)`` with rng_i
the generator of child i of ``SeedSequence(seed)`` — ``SeedSequence(seed).spawn(n_chunks)[i]`` — and contributes
the number of its samples in the event, ``event(outputs_i).sum(axis=-1)``. The total is
K = Σ_i Σ_{j < m_i} 1[event(outputs_i)_j], a Binomial(n, p) count when the samples are i.i.d.
:func:`count_events_many` counts several such jobs (each with its own seed) in one batch of tasks.

Chunks are grouped ``chunks_per_task`` at a time into tasks, run in this process (``n_jobs=1``), in a local
pool (``n_jobs > 1``) or on the Dask cluster named by ``DPCOMPENDIUM_SCHEDULER`` (:mod:`dpcompendium.core.parallel`).
A task holds one chunk in memory at a time and returns only counts, so memory per worker is O(chunk_size) whatever
``n_samples``. The counts depend only on (seed, n_samples, chunk_size) and the two functions: never on
``chunks_per_task``, ``n_jobs``, the backend, the order in which tasks finish, or a task rerun after its worker died.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np

from ..parallel import run_tasks
from ..rng import child_seed, make_rng, seed_sequence
from ..validation import check_int

__all__ = ["count_events", "count_events_many"]


def _count_task(sampler, event, root: np.random.SeedSequence, chunks: list[tuple[int, int]]):
    total: np.ndarray | None = None
    for index, m in chunks:
        out = sampler(m, make_rng(child_seed(root, index)))
        if np.ndim(out) == 0 or np.shape(out)[0] != m:
            raise ValueError(
                f"sampler must return {m} outputs (first axis) for n = {m}, got shape {np.shape(out)}"
            )
        hits = np.asarray(event(out))
        if hits.dtype != bool or hits.ndim == 0 or hits.shape[-1] != m:
            raise ValueError(
                f"event must return booleans of shape (..., {m}) for {m} outputs, "
                f"got dtype {hits.dtype} and shape {hits.shape}"
            )
        counts = np.count_nonzero(hits, axis=-1).astype(np.int64)
        if total is not None and counts.shape != total.shape:
            raise ValueError(
                f"event must return the same number of events for every chunk, got {counts.shape} and {total.shape}"
            )
        total = counts if total is None else total + counts
    return total


def count_events_many(
    jobs: Sequence[tuple[Callable, Callable, int, int | np.random.SeedSequence]],
    *,
    chunk_size: int = 1_000_000,
    chunks_per_task: int = 1,
    n_jobs: int = 1,
) -> list[np.ndarray]:
    """The counts of several ``(sampler, event, n_samples, seed)`` jobs, one per job, from ONE batch of tasks.

    Each job is chunked as in :func:`count_events` (its own seed, its chunks grouped ``chunks_per_task`` at a time),
    and the tasks of all jobs go in one submission (:func:`dpcompendium.core.parallel.run_tasks`) to the pool or the cluster, with no
    barrier between jobs, so a worker that finishes job 0's last chunk starts on job 1 while another still counts.
    ``result[j]`` is byte-identical to ``count_events(*jobs[j][:3], seed=jobs[j][3], ...)`` whatever ``n_jobs``.
    """
    c = check_int(chunk_size, "chunk_size", minimum=1)
    per_task = check_int(chunks_per_task, "chunks_per_task", minimum=1)
    n_jobs = check_int(n_jobs, "n_jobs", minimum=-1)
    if n_jobs == 0:
        raise ValueError("n_jobs must be >= 1 or -1 (all cores), got 0")
    if len(jobs) == 0:
        raise ValueError("jobs must list at least one (sampler, event, n_samples, seed), got none")
    owners, tasks = [], []
    for j, (sampler, event, n_samples, seed) in enumerate(jobs):
        n = check_int(n_samples, "n_samples", minimum=1)
        root = seed_sequence(seed)
        n_chunks = math.ceil(n / c)
        sizes = [(i, min(c, n - i * c)) for i in range(n_chunks)]
        for k in range(0, n_chunks, per_task):
            owners.append(j)
            tasks.append((sampler, event, root, sizes[k : k + per_task]))
    totals: list[np.ndarray | None] = [None] * len(jobs)
    # one submission of every task (a few bytes each: seeds, no data), to the pool or straight to the Dask scheduler
    for j, counts in zip(owners, run_tasks(_count_task, tasks, n_jobs), strict=True):
        total = totals[j]
        if total is not None and counts.shape != total.shape:
            raise ValueError(
                f"event must return the same number of events for every chunk, got {counts.shape} and {total.shape}"
            )
        totals[j] = counts if total is None else total + counts
    return totals  # type: ignore[return-value]  # every job has >= 1 chunk


def count_events(
    sampler: Callable[[int, np.random.Generator], np.ndarray],
    event: Callable[[np.ndarray], np.ndarray],
    n_samples: int,
    *,
    seed: int | np.random.SeedSequence,
    chunk_size: int = 1_000_000,
    chunks_per_task: int = 1,
    n_jobs: int = 1,
) -> np.ndarray:
    """Number of ``n_samples`` draws of ``sampler`` that fall in ``event``, drawn chunk by chunk (module docstring).

    ``sampler(m, rng)`` returns m i.i.d. outputs (first axis); ``event(outputs)`` returns booleans of shape
    ``(m,)`` for one event or ``(E, m)`` for E events at once. Returns an int64 array of the event's leading shape
    (``()`` for one event): the counts K, each Binomial(n_samples, p_e) for i.i.d. draws. The one-job case of
    :func:`count_events_many`.
    """
    job = (sampler, event, n_samples, seed)
    kw = {"chunk_size": chunk_size, "chunks_per_task": chunks_per_task, "n_jobs": n_jobs}
    return count_events_many([job], **kw)[0]
