"""Empirical lower bounds on ε for mechanisms with continuous (or huge) output spaces.

If M is (ε, δ)-DP then for neighbours D, D' and every output set S,
P[M(D) ∈ S] ≤ e^ε P[M(D') ∈ S] + δ, hence ε ≥ ln((P[M(D) ∈ S] − δ) / P[M(D') ∈ S]).
An audit samples M(D) and M(D'), replaces the two probabilities by a Clopper–Pearson lower bound on the numerator
and upper bound on the denominator (each at level α/2, so both hold jointly with probability ≥ 1 − α,
[clopper1934use]) and reports ε̂ = ln((p_lo − δ)/q_hi), a lower bound on the true ε with confidence 1 − α.

The event S is searched, as in StatDP [ding2018detecting] and DP-Sniper [bichsel2021dpsniper], among all intervals
(t_i, t_j] of a scalar statistic of the output, with cut points t at quantiles of the pooled samples (tails
included), in both directions (D over D' and D' over D). To keep the bound valid after this search:

- ``selection="split"`` (default): the event is chosen on the first half of the samples and its bound is computed on
  the second, independent half;
- ``selection="bonferroni"``: the ``bonferroni_m`` most promising candidates are chosen on the first half and all of
  them are evaluated on the second half, each at level α/m; the reported bound is their maximum.

Validity. In both modes the events are functions of the first half only, hence independent of the second half on
which the bounds are computed. Given the first half, each Clopper–Pearson pair covers with probability ≥ 1 − α/m
(m = 1 for ``split``), so by the union bound all m bounds hold simultaneously with probability ≥ 1 − α, and so does
their maximum. (Choosing the cut points and the candidates on the *same* samples the bounds are evaluated on — the
earlier form of the Bonferroni mode — makes the events data-dependent and the union bound unproven.) Coverage for a
Gaussian and a discrete sampler is checked in ``tests/test_audit.py``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Literal

import numpy as np
import pandas as pd

from ..privacy import PrivacyClaim
from ..rng import generators
from ..validation import check_int, check_rng
from .chunked import _count_evaluation, _one_event_in_tasks
from .events import (  # noqa: F401 - re-exported: the audit's public names
    Event,
    Sampler,
    _as_statistic,
    _bound_result,
    _check_confidence,
    _check_events,
    _check_shape,
    _interval_counts,
    _result,
    _selection_z,
    _wilson_score,
    clopper_pearson,
    epsilon_lower_bound,
    interval_cuts,
    pooled_sorted,
    select_event,
)
from .result import AuditResult, claimed_privacy

__all__ = [
    "Sampler",
    "clopper_pearson",
    "coverage_experiment",
    "empirical_audit",
    "empirical_audit_chunked",
    "epsilon_lower_bound",
    "interval_cuts",
]


def empirical_audit(
    sampler_a: Sampler,
    sampler_b: Sampler,
    *,
    statistic: Callable[[np.ndarray], np.ndarray] | None = None,
    events: Sequence[Event] | None = None,
    selection: Literal["split", "bonferroni"] = "split",
    max_cuts: int = 160,
    bonferroni_m: int = 64,
    confidence: float = 0.95,
    mechanism: str = "",
    claimed_epsilon: float | None = None,
    claimed_delta: float = 0.0,
    claim: PrivacyClaim | None = None,
    n_samples: int = 1_000_000,
    n_select: int | None = None,
    chunk_size: int | None = None,
    n_jobs: int = 1,
    seeded_samplers: bool = False,
    rng: np.random.Generator,
) -> AuditResult:
    """Lower-bound ε of a mechanism from ``n_samples`` outputs on each of two neighbouring inputs.

    ``sampler_a(n, rng)`` / ``sampler_b(n, rng)`` draw n outputs on D and D'. Events are the intervals of
    ``statistic(outputs)`` (default: the outputs themselves, which must then be scalars), or the given ``events``.
    With ``claimed_delta > 0`` the bound is on ε at that δ. Returns an :class:`AuditResult` whose ``audited_epsilon``
    is ≤ the true ε with probability ≥ ``confidence`` (for a correct mechanism the verdict is "holds" with at least
    that probability); ``p_a``, ``p_b`` are the event's frequencies on the evaluation samples.
    ``n_select`` samples per input choose the event (default ``n_samples // 2``), the other ``n_samples − n_select``
    bound ε.
    ``chunk_size`` (split selection only): 10^8+ samples in bounded memory, the evaluation counted in chunks of that
    size, over ``n_jobs`` or a Dask cluster (:mod:`~dpcompendium.core.audit.chunked`; the default ``n_select`` is then
    ``min(n_samples // 2, chunk_size)``, and ``seeded_samplers`` declares samplers whose one-event selection may run
    as tasks too; in memory it changes nothing).
    The claim: ``claimed_epsilon`` (and ``claimed_delta``), validated here, or a validated ``claim``
    (:func:`~dpcompendium.core.audit.result.claimed_privacy`; :func:`~dpcompendium.core.audit.spec.run_audit` passes
    its spec's).
    """
    if selection not in ("split", "bonferroni"):
        raise ValueError(f"selection must be one of split|bonferroni, got {selection!r}")
    if chunk_size is not None and selection != "split":
        raise ValueError(f"chunk_size needs selection='split', got selection={selection!r}")
    claimed_epsilon, delta = claimed_privacy(claimed_epsilon, claimed_delta, claim)
    n = check_int(n_samples, "n_samples", minimum=20)
    if chunk_size is not None:
        chunk_size = check_int(chunk_size, "chunk_size", minimum=1)
    if n_select is None:
        n_select = n // 2 if chunk_size is None else min(n // 2, chunk_size)
    n_sel = check_int(n_select, "n_select", minimum=10, maximum=n - 10)
    c = _check_confidence(confidence)
    rng = check_rng(rng)
    _check_events(events, statistic)
    if chunk_size is None:
        bonferroni_m = check_int(bonferroni_m, "bonferroni_m", minimum=1)
    elif seeded_samplers and events is not None and len(events) == 1 and n_sel <= chunk_size:
        name, forward, ka, kb = _one_event_in_tasks(
            sampler_a, sampler_b, events[0], n, n_sel, chunk_size, n_jobs, rng, delta, c
        )
        return _bound_result(
            mechanism, claimed_epsilon, delta, c, name, forward, ka, kb, n - n_sel, n
        )
    # in memory all n samples per input; chunked only the n_sel that choose the event
    n_drawn = n if chunk_size is None else n_sel
    out_a = sampler_a(n_drawn, rng)
    out_b = sampler_b(n_drawn, rng)
    _check_shape("sampler_a", out_a, n_drawn)
    _check_shape("sampler_b", out_b, n_drawn)
    h = n_sel  # the event is chosen on the first h samples, its bound computed on the rest
    n_ev = n - h
    if selection == "split":
        name, indicator, forward = select_event(
            out_a[:h], out_b[:h], h, statistic, events, max_cuts, delta, c
        )
        if chunk_size is None:
            ka, kb = (int(np.count_nonzero(indicator(out[h:]))) for out in (out_a, out_b))
        else:
            del out_a, out_b
            ka, kb = _count_evaluation(
                sampler_a, sampler_b, indicator, n_ev, chunk_size, n_jobs, rng
            )
        return _bound_result(mechanism, claimed_epsilon, delta, c, name, forward, ka, kb, n_ev, n)
    eps, name, forward, p_a, p_b = _bonferroni(
        out_a, out_b, h, statistic, events, max_cuts, bonferroni_m, delta, c
    )
    return _result(mechanism, claimed_epsilon, delta, eps, c, name, forward, p_a, p_b, n)


#: :func:`empirical_audit` counted in chunks (``chunk_size`` 10^6 unless given): the name under which the chunked
#: audit was documented before ``empirical_audit(..., chunk_size=...)`` became its one entry.
#:
#: :meta hide-value:
empirical_audit_chunked = functools.partial(empirical_audit, chunk_size=1_000_000)


def _bonferroni(out_a, out_b, h, statistic, events, max_cuts, bonferroni_m, delta, c):
    """Bonferroni over the ``bonferroni_m`` top candidates chosen on the first ``h`` samples, evaluated on the rest:
    (ε bound, event name, forward, p_a, p_b)."""
    n_sel, n_ev = h, out_a.shape[0] - h
    if events is not None:
        names = [name for name, _ in events]
        ind_a = np.stack([np.asarray(fn(out_a), dtype=bool) for _, fn in events])  # (E, n)
        ind_b = np.stack([np.asarray(fn(out_b), dtype=bool) for _, fn in events])
        ka_s, kb_s = ind_a[:, :h].sum(1).astype(float), ind_b[:, :h].sum(1).astype(float)
        ka_e, kb_e = ind_a[:, h:].sum(1).astype(float), ind_b[:, h:].sum(1).astype(float)
    else:
        x_a, x_b = _as_statistic(out_a, statistic), _as_statistic(out_b, statistic)
        sa, sb = np.sort(x_a[:h]), np.sort(x_b[:h])
        cuts = interval_cuts(np.concatenate([sa, sb]), max_cuts)
        iu = np.triu_indices(len(cuts), k=1)
        ka_s, kb_s = _interval_counts(sa, cuts)[iu], _interval_counts(sb, cuts)[iu]
        ea, eb = np.sort(x_a[h:]), np.sort(x_b[h:])
        ka_e, kb_e = _interval_counts(ea, cuts)[iu], _interval_counts(eb, cuts)[iu]
    m_all = 2 * ka_s.size
    z = _selection_z(c, m_all)
    cand = np.concatenate(
        [
            _wilson_score(ka_s, n_sel, kb_s, n_sel, delta, z),
            _wilson_score(kb_s, n_sel, ka_s, n_sel, delta, z),
        ]
    )
    # the m candidates are fixed by the first half: a union bound over them on the independent second half
    top = np.argsort(cand, kind="stable")[::-1][: min(bonferroni_m, m_all)]
    c_adj = 1 - (1 - c) / top.size
    e_top, fwd_top = top % ka_s.size, top < ka_s.size
    num = np.where(fwd_top, ka_e[e_top], kb_e[e_top])
    den = np.where(fwd_top, kb_e[e_top], ka_e[e_top])
    vals = np.atleast_1d(epsilon_lower_bound(num, n_ev, den, n_ev, delta=delta, confidence=c_adj))
    best = int(np.argmax(vals))
    e, forward = int(e_top[best]), bool(fwd_top[best])
    # only the chosen event is named (naming all ~10^4 candidate intervals took most of an audit's time)
    if events is not None:
        name = names[e]
    else:
        name = f"statistic in ({cuts[iu[0][e]]:.6g}, {cuts[iu[1][e]]:.6g}]"
    return float(vals[best]), name, forward, ka_e[e] / n_ev, kb_e[e] / n_ev


def coverage_experiment(
    sampler_a: Sampler,
    sampler_b: Sampler,
    *,
    events: Sequence[Event] | None = None,
    selections: Sequence[str] = ("split", "bonferroni"),
    confidence: float = 0.95,
    true_epsilon: float,
    delta: float = 0.0,
    n_samples: int,
    reps: int,
    seed: int,
) -> pd.DataFrame:
    """Repeat :func:`empirical_audit` ``reps`` times per selection rule (streams ``generators(seed, reps)``) on a
    mechanism whose true ε (at ``delta``) is known; the fraction of rows with ``exceeds_true`` estimates the bound's
    error rate, which must be at most 1 − confidence."""
    reps = check_int(reps, "reps", minimum=1)
    rows = []
    for selection in selections:
        for rep, g in enumerate(generators(seed, reps)):
            res = empirical_audit(
                sampler_a,
                sampler_b,
                events=events,
                selection=selection,  # type: ignore[arg-type]
                confidence=confidence,
                claimed_epsilon=true_epsilon,
                claimed_delta=delta,
                n_samples=n_samples,
                rng=g,
            )
            rows.append(
                {"selection": selection, "rep": rep, "audited_epsilon": res.audited_epsilon}
            )
    out = pd.DataFrame(rows)
    out["exceeds_true"] = out["audited_epsilon"] > true_epsilon
    return out
