"""Empirical audits with 10^8+ samples per input: the event chosen on a sample in memory, counted in chunks.

:func:`~dpcompendium.core.audit.empirical.empirical_audit` with ``chunk_size`` is its ``selection="split"`` audit
with bounded memory; that function validates, draws the selection samples and chooses the event, this module counts.
The event is chosen, exactly as in memory, on ``n_select`` samples of M(D) and of M(D') drawn from ``rng``; the
remaining ``n_eval = n_samples − n_select`` samples of each are drawn and counted by
:func:`dpcompendium.core.experiments.count_events_many` in chunks of ``chunk_size`` — both inputs' chunks in one batch
of tasks, locally (``n_jobs``) or on the Dask cluster named by ``DPCOMPENDIUM_SCHEDULER`` — and only the two counts
come back. The evaluation streams are the children of ``SeedSequence(entropy drawn from rng)`` (one per input, then
one per chunk), independent of the selection samples, so ε̂ = ln((p_lo − δ)/q_hi) with Clopper–Pearson bounds at
level α/2 each [clopper1934use] is a (1 − α)-confidence lower bound on ε, as in the split audit. The result depends
on (rng's state, n_samples, chunk_size, n_select), never on ``n_jobs`` or the cluster. Memory: O(n_select +
chunk_size) samples per process. The selection runs in this process (its samples come from ``rng`` in sequence),
except for ``seeded_samplers`` with one given event (the user audit's case), where it joins the evaluation's batch of
tasks (``_one_event_in_tasks``).
"""

from __future__ import annotations

import copy
import functools

import numpy as np

from ..experiments.chunked import count_events_many
from .events import _as_bool, _best_direction

__all__: list[str] = []


def _with_generator(sampler, rng: np.random.Generator, m: int, _chunk_rng=None) -> np.ndarray:
    """``sampler(m, rng)`` on a copy of ``rng`` (a snapshot of the caller's generator), ignoring the chunk's own."""
    return sampler(m, copy.deepcopy(rng))


def _evaluation_seeds(rng: np.random.Generator) -> list[np.random.SeedSequence]:
    """The two inputs' evaluation streams: children of ``SeedSequence(entropy drawn from rng)``."""
    return np.random.SeedSequence([int(v) for v in rng.integers(0, 2**32, size=4)]).spawn(2)


def _count_evaluation(
    sampler_a, sampler_b, indicator, n_ev, chunk_size, n_jobs, rng
) -> tuple[int, int]:
    """The chosen event's counts on ``n_ev`` evaluation samples of each input (:func:`_evaluation_seeds`), counted
    in chunks of ``chunk_size``: both inputs' chunks in one batch of tasks, so no barrier between the two counts."""
    seed_a, seed_b = _evaluation_seeds(rng)
    jobs = [(sampler_a, indicator, n_ev, seed_a), (sampler_b, indicator, n_ev, seed_b)]
    ka, kb = (int(k) for k in count_events_many(jobs, chunk_size=chunk_size, n_jobs=n_jobs))
    return ka, kb


def _one_event_in_tasks(sampler_a, sampler_b, event, n, n_sel, chunk_size, n_jobs, rng, delta, c):
    """The chunked audit with seeded samplers and one event: the two selection counts (each on a snapshot of ``rng``
    taken where the serial audit would call the sampler, then advanced by the one draw the call takes) and the
    evaluation chunks, in one batch of tasks: (event name, forward, the two evaluation counts)."""
    name, fn = event
    indicator = functools.partial(_as_bool, event=fn)
    snapshots = []
    for _ in range(2):
        snapshots.append(copy.deepcopy(rng))
        rng.integers(0, 2**63)  # what the sampler's call takes from rng
    n_ev = n - n_sel
    seed_a, seed_b = _evaluation_seeds(rng)
    jobs = [
        (functools.partial(_with_generator, sampler_a, snapshots[0]), indicator, n_sel, 0),
        (functools.partial(_with_generator, sampler_b, snapshots[1]), indicator, n_sel, 0),
        (sampler_a, indicator, n_ev, seed_a),
        (sampler_b, indicator, n_ev, seed_b),
    ]
    # n_sel <= chunk_size: each selection job is one chunk (its chunk stream unused: the snapshot draws)
    sel_a, sel_b, ka, kb = (
        int(k) for k in count_events_many(jobs, chunk_size=chunk_size, n_jobs=n_jobs)
    )
    sel_a, sel_b = np.array([sel_a], dtype=float), np.array([sel_b], dtype=float)
    forward, _ = _best_direction(sel_a, n_sel, sel_b, n_sel, delta, c)  # one event: its direction
    return name, forward, ka, kb
