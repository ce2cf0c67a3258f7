"""Empirical audits with 10^8+ samples per input: the event chosen on a sample in memory, counted in chunks.

:func:`empirical_audit_chunked` is the ``selection="split"`` audit of :mod:`.empirical` with bounded memory. The event
is chosen, exactly as there, on ``n_select`` samples of M(D) and of M(D') drawn from ``rng``; the remaining
``n_eval = n_samples − n_select`` samples of each are drawn and counted by
:func:`dpcompendium.core.experiments.count_events_many` in chunks of ``chunk_size`` — both inputs' chunks in one batch
of tasks, locally (``n_jobs``) or on the Dask cluster named by ``DPCOMPENDIUM_SCHEDULER`` — and only the two counts
come back. The evaluation streams are the children of ``SeedSequence(entropy drawn from rng)`` (one per input, then
one per chunk), independent of the selection samples, so ε̂ = ln((p_lo − δ)/q_hi) with Clopper–Pearson bounds at
level α/2 each [clopper1934use] is a (1 − α)-confidence lower bound on ε, as in the split audit. The result depends on (rng's state, n_samples,
chunk_size, n_select), never on ``n_jobs`` or the cluster. Memory: O(n_select + chunk_size) samples per process.
The selection runs in this process (its samples come from ``rng`` in sequence), except for ``seeded_samplers`` with
one given event (the user audit's case), where it joins the evaluation's batch of tasks.
"""

from __future__ import annotations

import copy
import functools
from collections.abc import Callable, Sequence

import numpy as np

from ..experiments.chunked import count_events_many
from ..privacy import PrivacyClaim
from ..validation import check_int, check_rng
from .events import (
    Event,
    Sampler,
    _as_bool,
    _best_direction,
    _bound_result,
    _check_confidence,
    _check_events,
    _check_shape,
    select_event,
)
from .result import AuditResult, claimed_privacy

__all__ = ["empirical_audit_chunked"]


def _with_generator(sampler, rng: np.random.Generator, m: int, _chunk_rng=None) -> np.ndarray:
    """``sampler(m, rng)`` on a copy of ``rng`` (a snapshot of the caller's generator), ignoring the chunk's own."""
    return sampler(m, copy.deepcopy(rng))


def _evaluation_seeds(rng: np.random.Generator) -> list[np.random.SeedSequence]:
    """The two inputs' evaluation streams: children of ``SeedSequence(entropy drawn from rng)``."""
    return np.random.SeedSequence([int(v) for v in rng.integers(0, 2**32, size=4)]).spawn(2)


def empirical_audit_chunked(
    sampler_a: Sampler,
    sampler_b: Sampler,
    *,
    claimed_epsilon: float | None = None,
    claimed_delta: float = 0.0,
    claim: PrivacyClaim | None = None,
    n_samples: int,
    chunk_size: int = 1_000_000,
    n_select: int | None = None,
    confidence: float = 0.95,
    statistic: Callable[[np.ndarray], np.ndarray] | None = None,
    events: Sequence[Event] | None = None,
    max_cuts: int = 160,
    n_jobs: int = 1,
    rng: np.random.Generator,
    mechanism: str = "",
    seeded_samplers: bool = False,
) -> AuditResult:
    """Lower-bound ε from ``n_samples`` outputs per input, in bounded memory (module docstring).

    ``n_select`` (default ``min(n_samples // 2, chunk_size)``) samples per input choose the event, the other
    ``n_samples − n_select`` are counted in chunks of ``chunk_size``. ``p_a``, ``p_b`` are the event's frequencies on
    the evaluation samples; ``n_samples`` in the result is the total per input.

    ``seeded_samplers=True`` declares that a sampler call takes exactly one ``rng.integers(0, 2**63)`` from ``rng``
    and nothing else (samplers built on :func:`dpcompendium.book.usercode.sample_outputs`, as the user audit's are). With one
    given event, the selection then only fixes its direction from two counts whose streams are known before any
    draw, so the selection samples are drawn and counted as tasks, in the same batch as the evaluation chunks, on
    snapshots of ``rng`` — the same samples, so the same result, and no sample in this process.

    The claim: ``claimed_epsilon`` (and ``claimed_delta``), validated here, or a validated ``claim``
    (:func:`~dpcompendium.core.audit.result.claimed_privacy`).
    """
    claimed_epsilon, delta = claimed_privacy(claimed_epsilon, claimed_delta, claim)
    n = check_int(n_samples, "n_samples", minimum=20)
    chunk_size = check_int(chunk_size, "chunk_size", minimum=1)
    n_sel = min(n // 2, chunk_size) if n_select is None else n_select
    n_sel = check_int(n_sel, "n_select", minimum=10, maximum=n - 10)
    c = _check_confidence(confidence)
    rng = check_rng(rng)
    _check_events(events, statistic)
    if seeded_samplers and events is not None and len(events) == 1 and n_sel <= chunk_size:
        return _one_event_in_tasks(sampler_a, sampler_b, events[0], n, n_sel, chunk_size, n_jobs, rng, delta, c,
                                   claimed_epsilon, mechanism)  # fmt: skip
    out_a, out_b = sampler_a(n_sel, rng), sampler_b(n_sel, rng)
    _check_shape("sampler_a", out_a, n_sel)
    _check_shape("sampler_b", out_b, n_sel)
    name, indicator, forward = select_event(
        out_a, out_b, n_sel, statistic, events, max_cuts, delta, c
    )
    del out_a, out_b
    n_ev = n - n_sel
    seed_a, seed_b = _evaluation_seeds(rng)
    kw = {"chunk_size": chunk_size, "n_jobs": n_jobs}
    # both inputs' chunks in one batch of tasks: no barrier between the two counts
    jobs = [(sampler_a, indicator, n_ev, seed_a), (sampler_b, indicator, n_ev, seed_b)]
    ka, kb = (int(k) for k in count_events_many(jobs, **kw))
    return _bound_result(mechanism, claimed_epsilon, delta, c, name, forward, ka, kb, n_ev, n)


def _one_event_in_tasks(
    sampler_a, sampler_b, event, n, n_sel, chunk_size, n_jobs, rng, delta, c, claimed, mechanism
):
    """:func:`empirical_audit_chunked` with seeded samplers and one event: the two selection counts (each on a
    snapshot of ``rng`` taken where the serial audit would call the sampler, then advanced by the one draw the call
    takes) and the evaluation chunks, in one batch of tasks."""
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
    return _bound_result(mechanism, claimed, delta, c, name, forward, ka, kb, n_ev, n)
