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
from ..validation import check_delta, check_epsilon, check_int, check_rng
from .events import (
    Event,
    Sampler,
    _as_statistic,
    _check_confidence,
    _interval_counts,
    _result,
    _selection_z,
    _wilson_score,
    epsilon_lower_bound,
    interval_cuts,
    pooled_sorted,
)
from .result import AuditResult

__all__ = ["empirical_audit_chunked"]


def _in_interval(out: np.ndarray, lo: float, hi: float, statistic=None) -> np.ndarray:
    s = _as_statistic(out, statistic)
    return (s > lo) & (s <= hi)


def _as_bool(out: np.ndarray, event) -> np.ndarray:
    return np.asarray(event(out), dtype=bool)


def _check_shape(name: str, out: np.ndarray, n: int) -> None:
    if np.ndim(out) == 0 or np.shape(out)[0] != n:
        raise ValueError(f"{name} must return {n} outputs (first axis), got shape {np.shape(out)}")


def _with_generator(sampler, rng: np.random.Generator, m: int, _chunk_rng=None) -> np.ndarray:
    """``sampler(m, rng)`` on a copy of ``rng`` (a snapshot of the caller's generator), ignoring the chunk's own."""
    return sampler(m, copy.deepcopy(rng))


def _event_direction(ka, kb, n_sel, delta, c) -> bool:
    """The selection of one given event: its direction (a over b?) by the Wilson-score bound on the counts."""
    ka, kb = np.array([ka], dtype=float), np.array([kb], dtype=float)
    z = _selection_z(c, 2 * ka.size)
    sab = _wilson_score(ka, n_sel, kb, n_sel, delta, z)
    sba = _wilson_score(kb, n_sel, ka, n_sel, delta, z)
    return bool(sab.max() >= sba.max())


def _select(out_a, out_b, n_sel, statistic, events, max_cuts, delta, c):
    """The event with the best Wilson-score bound on the selection samples: (name, indicator, forward)."""
    if events is not None:
        ka = np.array([_as_bool(out_a, fn).sum() for _, fn in events], dtype=float)
        kb = np.array([_as_bool(out_b, fn).sum() for _, fn in events], dtype=float)
        z = _selection_z(c, 2 * ka.size)
        sab = _wilson_score(ka, n_sel, kb, n_sel, delta, z)
        sba = _wilson_score(kb, n_sel, ka, n_sel, delta, z)
        forward = bool(sab.max() >= sba.max())
        name, fn = events[int(np.argmax(sab if forward else sba))]
        return name, functools.partial(_as_bool, event=fn), forward
    sa = np.sort(_as_statistic(out_a, statistic))
    sb = np.sort(_as_statistic(out_b, statistic))
    cuts = interval_cuts(pooled_sorted(sa, sb), max_cuts)
    Ka, Kb = _interval_counts(sa, cuts), _interval_counts(sb, cuts)
    valid = np.triu(np.ones(Ka.shape, dtype=bool), k=1)
    z = _selection_z(c, int(valid.sum()) * 2)
    sab = np.where(valid, _wilson_score(Ka, n_sel, Kb, n_sel, delta, z), -np.inf)
    sba = np.where(valid, _wilson_score(Kb, n_sel, Ka, n_sel, delta, z), -np.inf)
    forward = bool(sab.max() >= sba.max())
    i, j = np.unravel_index(int(np.argmax(sab if forward else sba)), Ka.shape)
    lo, hi = float(cuts[i]), float(cuts[j])
    indicator = functools.partial(_in_interval, lo=lo, hi=hi, statistic=statistic)
    return f"statistic in ({lo:.6g}, {hi:.6g}]", indicator, forward


def empirical_audit_chunked(
    sampler_a: Sampler,
    sampler_b: Sampler,
    *,
    claimed_epsilon: float,
    claimed_delta: float = 0.0,
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
    """
    claimed_epsilon = check_epsilon(claimed_epsilon, "claimed_epsilon")
    delta = 0.0 if claimed_delta == 0 else check_delta(claimed_delta, "claimed_delta")
    n = check_int(n_samples, "n_samples", minimum=20)
    chunk_size = check_int(chunk_size, "chunk_size", minimum=1)
    n_sel = min(n // 2, chunk_size) if n_select is None else n_select
    n_sel = check_int(n_sel, "n_select", minimum=10, maximum=n - 10)
    c = _check_confidence(confidence)
    rng = check_rng(rng)
    if events is not None and statistic is not None:
        raise ValueError("events and statistic are exclusive: events see the raw outputs, got both")
    if events is not None and len(events) == 0:
        raise ValueError("events must list at least one (name, indicator) pair, got none")
    if seeded_samplers and events is not None and len(events) == 1 and n_sel <= chunk_size:
        return _one_event_in_tasks(sampler_a, sampler_b, events[0], n, n_sel, chunk_size, n_jobs, rng, delta, c,
                                   claimed_epsilon, mechanism)  # fmt: skip
    out_a, out_b = sampler_a(n_sel, rng), sampler_b(n_sel, rng)
    _check_shape("sampler_a", out_a, n_sel)
    _check_shape("sampler_b", out_b, n_sel)
    name, indicator, forward = _select(out_a, out_b, n_sel, statistic, events, max_cuts, delta, c)
    del out_a, out_b
    n_ev = n - n_sel
    root = np.random.SeedSequence([int(v) for v in rng.integers(0, 2**32, size=4)])
    seed_a, seed_b = root.spawn(2)
    kw = {"chunk_size": chunk_size, "n_jobs": n_jobs}
    # both inputs' chunks in one batch of tasks: no barrier between the two counts
    jobs = [(sampler_a, indicator, n_ev, seed_a), (sampler_b, indicator, n_ev, seed_b)]
    ka, kb = (int(k) for k in count_events_many(jobs, **kw))
    num, den = (ka, kb) if forward else (kb, ka)
    eps = float(epsilon_lower_bound(num, n_ev, den, n_ev, delta=delta, confidence=c))
    return _result(
        mechanism, claimed_epsilon, delta, eps, c, name, forward, ka / n_ev, kb / n_ev, n
    )


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
    root = np.random.SeedSequence([int(v) for v in rng.integers(0, 2**32, size=4)])
    seed_a, seed_b = root.spawn(2)
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
    forward = _event_direction(sel_a, sel_b, n_sel, delta, c)
    num, den = (ka, kb) if forward else (kb, ka)
    eps = float(epsilon_lower_bound(num, n_ev, den, n_ev, delta=delta, confidence=c))
    return _result(mechanism, claimed, delta, eps, c, name, forward, ka / n_ev, kb / n_ev, n)
