"""The audit of a user's function: exact (a pmf) or empirical, one path (:func:`audit_callable`)."""

from __future__ import annotations

import dataclasses
import functools
import inspect
import math
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import joblib
import numpy as np
import pandas as pd

from ...core.audit.events import _check_confidence
from ...core.audit.result import verdict
from ...core.audit.spec import QUERY_RELATIONS, AuditSpec, neighbour_violation, run_audit
from ...core.parallel import check_scheduler, joblib_backend, using_scheduler
from ...core.privacy import PrivacyClaim
from ...core.rng import child_seed as _chunk_seed
from ...core.validation import check_int
from . import describe
from .common import NEIGHBOURS, UserCodeError
from .events import (
    _draw_outputs,
    _Encoder,
    _in_event,
    _pair_selection,
    _plot_summary,
    _select_pair_task,
)
from .families import InputPair, _describe, _local_pair, family_coverage, input_pairs, mixed_counts
from .report import AuditReport
from .sampling import _copy, check_user_function, sample_outputs
from .target import _Shipped


def _check_pair(pair, neighbours: str | None, neighbour_kw: dict | None = None) -> InputPair:
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
    return InputPair(name, a, b, relation=neighbours, neighbour_kw=dict(neighbour_kw or {}))


def _spec(claim: PrivacyClaim, pr: InputPair, **kw) -> AuditSpec:
    """The audit of the user's claim (validated once, by :func:`_resolve_request`) on the raw datasets of ``pr``."""
    return AuditSpec(claim.mechanism, "user", "user code", claim, (pr.raw_a, pr.raw_b),
                     neighbour_kw=pr.neighbour_kw, **kw)  # fmt: skip


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


def _exact(func, pmf, pairs, params, claim, n_check, ss, batched):
    """Exact ε of every pair from the pmf, through :func:`~dpcompendium.core.audit.spec.run_audit`."""
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
        spec = _spec(claim, pr, distribution=lambda d, v=vec: np.asarray(v[id(d)]),
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


def _select_in_tasks(func, params, batched, pairs, distinct, ss_sel, n_sel, enc, sel_args, n_jobs):
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
                tuple(_chunk_seed(ss_sel, distinct[_key_of(x)]) for x in (pr.a, pr.b)),
                n_sel,
                codes,
                *sel_args,
            )
            for k, pr in enumerate(pairs)
        )
        with joblib_backend(n_jobs) as n:
            return joblib.Parallel(n_jobs=n, pre_dispatch="all")(tasks)

    selected = run(None)
    values: dict[int, Any] = {}
    dims: dict[int, int] = {}
    for pr, sel in zip(pairs, selected, strict=True):
        for x, d, v in zip((pr.a, pr.b), sel.dims, sel.values or (None, None), strict=True):
            dims[distinct[_key_of(x)]], values[distinct[_key_of(x)]] = d, v
    if any(sel.values is not None for sel in selected):
        for i in sorted(values):  # the inputs in order, as the serial selection fits them
            if values[i] is not None:
                enc.merge(values[i])
        selected = run(enc.frozen_copy())
        dims = {k: d for sel in selected for k, d in enumerate(sel.dims)}
    _check_dims(getattr(func, "__name__", "function"), set(dims.values()))
    return selected


@dataclass(frozen=True)
class _Request:
    """A validated audit request (:func:`_resolve_request`): the user's claim — a
    :class:`~dpcompendium.core.privacy.PrivacyClaim`, validated once, on construction, and handed as it is to
    :func:`~dpcompendium.core.audit.spec.run_audit` — the candidate pairs and how the audit runs."""

    claim: PrivacyClaim
    pairs: list[InputPair]
    params: dict
    inputs: str
    samples: int
    confidence: float
    seed: int
    max_cuts: int
    chunk_size: int | None
    n_jobs: int
    scheduler: str | None
    #: where the function's ``epsilon``/``delta`` come from (:func:`_mechanism_parameters`)
    sources: dict = dataclasses.field(default_factory=dict)

    @property
    def epsilon(self) -> float:
        return float(self.claim.epsilon)

    @property
    def delta(self) -> float:
        return float(self.claim.delta)


def _candidate_pairs(
    inputs: str | None,
    pair: Sequence | None,
    neighbours: str | None,
    probes: bool,
    neighbour_kw: dict | None = None,
    mixed: bool = True,
) -> list[InputPair]:
    """The candidate input pairs, from a family (``inputs``) or given (``pair``), each checked to be neighbouring
    raw datasets under its relation."""
    if neighbours is not None and neighbours not in NEIGHBOURS:
        raise ValueError(f"neighbours must be one of {'|'.join(NEIGHBOURS)}, got {neighbours!r}")
    if (inputs is None) == (pair is None):
        raise ValueError(
            "give exactly one of inputs (a family such as 'scalar:0,1') and pair=(D, D')"
        )
    pairs = (
        input_pairs(inputs, neighbours, probe=probes, neighbour_kw=neighbour_kw, mixed=mixed)
        if inputs is not None
        else [_check_pair(pair, neighbours, neighbour_kw)]
    )
    for pr in pairs:
        why = neighbour_violation(pr.raw_a, pr.raw_b, pr.relation, **pr.neighbour_kw)
        if why is not None:
            raise ValueError(
                f"pair {pr.name} is not {pr.relation} neighbours: {pr.relation} needs {why}"
            )
    return pairs


def _query_kw(neighbours, sensitivity, norm) -> dict:
    """The query relations' options (:data:`~dpcompendium.core.audit.spec.QUERY_RELATIONS`), validated (none for
    the other relations)."""
    if neighbours not in QUERY_RELATIONS:
        if sensitivity is not None:
            raise ValueError(
                f"sensitivity applies to neighbours {'|'.join(QUERY_RELATIONS)} only, got neighbours "
                f"{neighbours!r}"
            )
        return {}
    if sensitivity is None:
        raise ValueError(
            f"sensitivity is required with neighbours {neighbours} (each answer moves by at most Δ)"
        )
    if (
        isinstance(sensitivity, bool)
        or not isinstance(sensitivity, int | float)
        or not (0 < float(sensitivity) < math.inf)
    ):
        raise ValueError(f"sensitivity must be a finite number > 0, got {sensitivity!r}")
    if norm not in ("linf", "l1"):
        raise ValueError(f"norm must be linf|l1, got {norm!r}")
    return {"sensitivity": float(sensitivity), "norm": norm}


def _check_execution(
    samples, chunk_size, n_jobs, scheduler
) -> tuple[int, int | None, int, str | None]:
    """``samples``, ``chunk_size`` (10 ≤ C ≤ samples, or None), ``n_jobs`` (≥ 1 or −1) and ``scheduler`` (only with
    a chunk size) validated."""
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
    return samples, chunk_size, n_jobs, scheduler


def _mechanism_parameters(
    func: Callable, params: Mapping | None, claim: PrivacyClaim
) -> tuple[dict, dict]:
    """The parameters ``func`` runs with, and where its ``epsilon`` and ``delta`` come from.

    The claim audited and the mechanism's parameters are two things: a function whose ``epsilon`` (``delta``) has a
    default runs at that default unless ``params`` sets it (a mechanism that spends ε/2 twice is audited against
    the claim ε while it runs at its own ε/2); only a parameter without a default that ``params`` does not set
    receives the claimed value (the function cannot run without one), and the report says so. Returns
    ``(params, sources)``: ``sources`` maps ``epsilon``/``delta`` to ``(value, "set" | "default" | "claim")``."""
    params = dict(params or {})
    try:
        accepted = inspect.signature(func).parameters
    except (TypeError, ValueError):
        accepted = {}
    claimed = {"epsilon": float(claim.epsilon), "delta": float(claim.delta)}
    sources: dict[str, tuple[Any, str]] = {}
    for key, value in claimed.items():
        if key in params:
            sources[key] = (params[key], "set")
        elif key in accepted:
            default = accepted[key].default
            if default is not inspect.Parameter.empty:
                sources[key] = (default, "default")
            elif key == "epsilon" or value > 0:
                params[key] = value  # no default: the claim, said in the report
                sources[key] = (value, "claim")
    return params, sources


def _resolve_request(
    func, *, epsilon, delta, neighbours, inputs, pair, params, samples, confidence, seed, max_cuts,
    chunk_size, n_jobs, scheduler, probes, sensitivity=None, norm="linf", mixed=True,
) -> _Request:  # fmt: skip
    """Every argument of :func:`audit_callable` validated (one-line ``ValueError`` naming it), the candidate pairs
    built and the claim made: the one place the user's (ε, δ) is checked (:class:`PrivacyClaim`, on construction)."""
    if (
        inputs is not None
        and str(inputs).partition(":")[0].strip() == "queries"
        and neighbours is None
    ):
        neighbours = (
            "queries"  # the default query relation (monotone and one-query are the user's to state)
        )
    kw = _query_kw(neighbours, sensitivity, norm)
    pairs = _candidate_pairs(inputs, pair, neighbours, probes, kw, mixed)
    name = getattr(func, "__name__", "function")
    # one relation for all candidates (a family's pairs, or the one given pair, share it)
    sens = (f"Δ = {kw['sensitivity']:g} per answer (ℓ∞)" if kw.get("norm") == "linf"
            else f"Δ = {kw['sensitivity']:g} (ℓ1)" if kw else "declared by the user")  # fmt: skip
    claim = PrivacyClaim(name, pairs[0].relation, sens, epsilon, delta)
    samples, chunk_size, n_jobs, scheduler = _check_execution(
        samples, chunk_size, n_jobs, scheduler
    )
    c = _check_confidence(confidence)
    seed = check_int(seed, "seed", minimum=0)
    if not callable(func):
        raise ValueError(f"func must be callable, got {func!r}")
    run_params, sources = _mechanism_parameters(func, params, claim)
    return _Request(
        claim, pairs, run_params, inputs or "", samples, c, seed, max_cuts, chunk_size, n_jobs, scheduler,
        sources,
    )  # fmt: skip


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
    sensitivity: float | None = None,
    norm: str = "linf",
    mixed: bool = True,
) -> AuditReport:
    """Audit ``func(data, rng, **params)`` against its claimed (ε, δ) on neighbouring inputs.

    Give either ``inputs`` (a family of :func:`input_pairs`: ``"scalar:A,B"``, ``"dataset:N,A,B"``,
    ``"histogram:K"``, ``"ldp"``, ``"category:K"``) or ``pair=(D, D')`` (two scalars: one value each, local; else
    raw datasets with records on the first axis, which must be neighbours under ``neighbours``). ``samples // 2``
    outputs per candidate input choose the pair, statistic and event; then ``samples`` fresh outputs per input of
    the chosen pair go through :func:`~dpcompendium.core.audit.spec.run_audit` — the path of the book's own audits —
    which fixes the direction on half of them and bounds ε (Clopper–Pearson) on the other half.
    A ``size`` parameter of ``func`` (returning ``size`` outputs stacked on the first axis) makes sampling
    vectorized; without it ``func`` is called once per sample. The claim audited (``epsilon``, ``delta``) and the
    mechanism's parameters are separate: ``func`` runs at its own default ``epsilon`` (``delta``) unless ``params``
    sets it; a parameter named ``epsilon`` (``delta``) without a default receives the claimed value. The report
    states both (``sources``). ``neighbours`` (``replace-one`` or
    ``add-remove``) is required for ``dataset`` and ``histogram`` inputs and for a pair of datasets; one-value inputs
    are ``local``. Inputs ``dataset:N,A,B`` also probe beyond the declared bounds (:func:`dataset_probes`) unless
    ``probes=False`` (an audit that trusts the data to lie in [A, B]); they also try the datasets that mix the two
    bounds (:func:`~dpcompendium.book.usercode.families.mixed_pairs`: data-dependent clip bounds, percentiles and
    medians show there) unless ``mixed=False``. The report says what the search covered (``coverage``).
    ``pmf(data, **params) -> {output: probability}`` adds the exact ε of the declared pmf on every pair
    (``_exact_report``: it is the sampler's ε only as far as the sampler check can see, so the empirical audit
    runs too and must agree). Raises :class:`UserCodeError` for misbehaving code and ``ValueError`` for bad
    arguments.

    ``neighbours="queries"`` (implied by ``inputs="queries:K"``): inputs are vectors of query answers, each moving by
    at most ``sensitivity`` Δ (``norm="linf"``) or all together by at most Δ (``norm="l1"``), validated position by
    position. Outputs may be of any type (numbers, NaN, strings, booleans, ``None``, tuples, lists of varying
    length): the audit encodes them (``events._Encoder``), and beside the interval events on three summary
    statistics it tries a learned event (a classifier trained on the selection half, as DP-Sniper
    [bichsel2021dpsniper]; ``events._learned_statistic``).

    ``chunk_size`` (10 ≤ C ≤ ``samples``): a big audit in bounded memory (module docstring): ``min(samples // 2, C)``
    selection outputs per candidate input (one task per candidate pair), the evaluation counted in chunks of C — in
    this process, over ``n_jobs`` processes, or on a Dask cluster (``scheduler``: ``local:N`` or an address; default
    ``$DPCOMPENDIUM_SCHEDULER``). The report depends on (seed, samples, C), never on ``n_jobs`` or the cluster.
    """
    req = _resolve_request(
        func, epsilon=epsilon, delta=delta, neighbours=neighbours, inputs=inputs, pair=pair, params=params,
        samples=samples, confidence=confidence, seed=seed, max_cuts=max_cuts, chunk_size=chunk_size,
        n_jobs=n_jobs, scheduler=scheduler, probes=probes, sensitivity=sensitivity, norm=norm, mixed=mixed,
    )  # fmt: skip
    batched = check_user_function(func, req.pairs[0].a, req.params, seed=req.seed)
    pairs, notes = _screen_probes(func, req.pairs, req.params, req.seed, batched)
    req = dataclasses.replace(req, pairs=pairs)
    alerts = _dependence_warnings(func, pairs, req.params, req.seed, batched)
    common = dict(
        claimed_epsilon=req.epsilon, claimed_delta=req.delta, neighbours=req.claim.neighbours,
        n_samples=req.samples, batched=batched, function=req.claim.mechanism, inputs=req.inputs,
        params=req.params, sources=req.sources, coverage=_coverage(req.inputs, pairs),
    )  # fmt: skip
    root = np.random.SeedSequence(req.seed)
    if pmf is None:
        report = _empirical_report(func, req, common, root)
    else:
        report = _exact_report(func, pmf, req, common, root)
    report.notes = notes + report.notes
    report.warnings = alerts
    chosen = next((pr for pr in pairs if pr.name == report.pair), None)
    if chosen is not None:
        report.pair_data = (chosen.a, chosen.b)
    return report


def _coverage(inputs: str, pairs: list[InputPair]) -> Any:
    """What the search covered, in words (:func:`~dpcompendium.book.usercode.describe.coverage_text`): the pairs by
    kind, the distinct inputs, and for ``dataset:N,A,B`` the counts of records at B of the mixed datasets."""
    counts = family_coverage(pairs)
    if len(pairs) < 2:  # one pair: nothing was searched
        return None
    mixed = None
    family, _, spec = inputs.partition(":")
    if family.strip() == "dataset" and counts.get("mixed"):
        n, a, b = (float(v) for v in spec.split(","))
        mixed = {"size": int(n), "a": a, "b": b, "ks": mixed_counts(int(n))}
    return describe.coverage_text(counts, mixed)


#: Draws per input of the dependence check (``_dependence_warnings``: constant or input-independent outputs).
DEPENDENCE_DRAWS = 64


def _dependence_warnings(func, pairs, params, seed, batched) -> list[str]:
    """Warnings an audit must not hide: outputs that never vary (a constant, or noise-free), and outputs that do not
    depend on the input — the same random stream gives the same outputs on both inputs of every candidate pair.
    Either way a HOLDS says nothing about a mechanism that releases its data."""
    name = getattr(func, "__name__", "function")
    outs = {}
    for pr in pairs:
        for x in (pr.a, pr.b):
            if _key_of(x) not in outs:
                outs[_key_of(x)] = sample_outputs(
                    func, x, params, DEPENDENCE_DRAWS, seed, batched=batched
                )
    first = next(iter(outs.values()))

    def same(u, v):
        if u.shape != v.shape or (u.dtype == object) != (v.dtype == object):
            return False
        if u.dtype.kind in "biufc" and v.dtype.kind in "biufc":
            return bool(np.array_equal(u, v, equal_nan=True))
        return bool(np.all(u == v))

    alerts = []
    v0 = first[0].tolist() if isinstance(first[0], np.ndarray | np.generic) else first[0]
    if all(same(o, np.repeat(first[:1], len(o), axis=0)) for o in outs.values()):
        alerts.append(f"{name}'s output never varies (always {v0!r:.60} on {DEPENDENCE_DRAWS} draws per "
                      "input): it releases nothing about its input, and an audit of it shows nothing")  # fmt: skip
    elif all(same(outs[_key_of(pr.a)], outs[_key_of(pr.b)]) for pr in pairs):
        alerts.append(f"{name}'s output does not depend on its input: with one random stream it gives the same "
                      f"outputs on both inputs of every candidate pair ({DEPENDENCE_DRAWS} draws) — is the data "
                      "used at all?")  # fmt: skip
    return alerts


def _key_of(x) -> bytes:
    """An input as bytes (dtype, shape, values): equal inputs share their selection samples."""
    arr = np.asarray(x)
    return repr((arr.dtype.str, arr.shape)).encode() + arr.tobytes()


def _select_in_memory(func, params, batched, pairs, distinct, ss_sel, n_sel, enc, sel_args) -> list:
    """The selection in this process: each distinct input's ``n_sel`` outputs drawn once (child ``distinct[key]`` of
    ``ss_sel``), encoded in order and shared by the pairs that use it, then every pair's best event
    (:func:`_pair_selection`)."""
    raw = {}
    for pr in pairs:
        for x in (pr.a, pr.b):
            if _key_of(x) not in raw:
                out = sample_outputs(func, x, params, n_sel, _chunk_seed(ss_sel, distinct[_key_of(x)]),
                                     batched=batched)  # fmt: skip
                enc.fit(out)  # every input's outputs before the first encoding: one layout for all
                raw[_key_of(x)] = out
    enc.frozen = True
    cache = {key: enc(out) for key, out in raw.items()}
    del raw
    _check_dims(getattr(func, "__name__", "function"), {v.shape[1] for v in cache.values()})
    return [
        _pair_selection(
            k, pr.name, cache[_key_of(pr.a)], cache[_key_of(pr.b)], enc.strings, *sel_args
        )
        for k, pr in enumerate(pairs)
    ]


def _chosen_event(selected, enc: _Encoder) -> tuple[Any, str]:
    """The best candidate over all pairs (the first of equal scores) and its event's name."""
    best = None
    for sel in selected:
        if best is None or sel.best.score > best.score:
            best = sel.best
    assert best is not None
    support = selected[best.pair].support
    if support is not None:
        inside = support[(support > best.lo) & (support <= best.hi)]
        members = [enc.label(v) if enc.strings else f"{v:g}" for v in inside]
        return best, f"output in {{{', '.join(members)}}}"
    return best, f"{best.stat.name} in ({best.lo:.6g}, {best.hi:.6g}]"


def _evaluate(func, req: _Request, batched, chosen, chosen_sel, best, event_name, enc, ss_ev):
    """Fresh outputs of the chosen pair, the event fixed, through :func:`run_audit` (split selection: the direction
    on the first half, ε bounded on the second): (result, the plot's summary of the two inputs' outputs)."""
    rng_ev = np.random.Generator(np.random.PCG64(ss_ev))
    params, samples, c = req.params, req.samples, req.confidence
    if req.chunk_size is not None:
        # counted in chunks wherever they run: the sampler and the event travel by value, the encoder is frozen
        draw = _Shipped(functools.partial(_draw_outputs, func, chosen.to_input, params, batched))
        event = _Shipped(
            functools.partial(_in_event, best.stat.fn, enc.frozen_copy(), best.lo, best.hi)
        )
        # sample_outputs takes one integer from the generator it is given: the direction's selection samples
        # can be drawn in tasks too (empirical_audit's seeded_samplers), none in this process
        spec = _spec(req.claim, chosen, sample=draw, events=[(event_name, event)],
                     audit_kw={"seeded_samplers": True})  # fmt: skip
        res = run_audit(spec, n_samples=samples, confidence=c, rng=rng_ev, chunk_size=req.chunk_size,
                        n_jobs=req.n_jobs)  # fmt: skip
        # the figure shows the chosen pair's selection samples (the evaluation samples are never gathered)
        return res, chosen_sel.plot
    # each input's outputs, and the statistic of each part of them the event was counted on (run_audit counts it on
    # the selection half, then on the evaluation half): the figure's statistic is those parts put together, so the
    # statistic (a classifier's score, say) is computed once per output, not twice
    drawn: list[np.ndarray] = []
    parts: list[dict[int, np.ndarray]] = []

    def sample(d, n, g):
        out = sample_outputs(func, chosen.to_input(d), params, n, g, batched=batched)
        drawn.append(out)
        parts.append({})
        return out

    def indicator(out):
        s_ = best.stat.fn(enc(out))
        where = _part_of(out, drawn)
        if where is not None:
            parts[where[0]][where[1]] = s_
        return (s_ > best.lo) & (s_ <= best.hi)

    spec = _spec(req.claim, chosen, sample=sample, events=[(event_name, indicator)])
    res = run_audit(spec, n_samples=samples, confidence=c, rng=rng_ev)
    stats = [_assembled(best.stat.fn, enc, out, got) for out, got in zip(drawn, parts, strict=True)]
    return res, _plot_summary(stats[0], stats[1])


def _part_of(part: np.ndarray, drawn: list[np.ndarray]) -> tuple[int, int] | None:
    """``(i, row)`` when ``part`` is the rows ``row:row + len(part)`` of ``drawn[i]`` (a slice, sharing its memory),
    else ``None``."""
    if not isinstance(part, np.ndarray) or part.ndim == 0:
        return None
    for i, out in enumerate(drawn):
        if out.ndim != part.ndim or out.shape[1:] != part.shape[1:] or out.strides != part.strides:
            continue
        if not out.shape[0] or out.strides[0] <= 0 or not np.shares_memory(part, out):
            continue
        offset = part.__array_interface__["data"][0] - out.__array_interface__["data"][0]
        if (
            offset % out.strides[0] == 0
            and 0 <= offset // out.strides[0] <= out.shape[0] - part.shape[0]
        ):
            return i, offset // out.strides[0]
    return None


def _assembled(stat, enc, out: np.ndarray, got: dict[int, np.ndarray]) -> np.ndarray:
    """The statistic of all of ``out``: its parts ``got`` (first row → values) put together when they cover it
    exactly, else computed."""
    rows, pieces = 0, []
    for start in sorted(got):
        if start != rows:
            break
        pieces.append(got[start])
        rows += len(got[start])
    if rows == out.shape[0] and pieces:
        return np.concatenate(pieces)
    return stat(enc(out))


def _empirical_table(selected, chosen, best, res, n_ev: int, req: _Request) -> pd.DataFrame:
    """One row per candidate pair and statistic (its selection-half estimate); the chosen row also carries the
    evaluation-half counts and the bound."""
    rows = [row for sel in selected for row in sel.rows]
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
    table["claimed_epsilon"], table["claimed_delta"] = req.epsilon, req.delta
    table["confidence"] = req.confidence
    return table


def _empirical_report(func, req: _Request, common, root) -> AuditReport:
    """The empirical audit (module docstring, steps 3–4): the pair, statistic and event chosen on ``samples // 2``
    outputs per candidate input (stream: child 0 of ``root``), ε bounded by :func:`run_audit` on fresh outputs of
    the chosen pair (child 1)."""
    pairs, samples, chunk_size, batched = req.pairs, req.samples, req.chunk_size, common["batched"]
    ss_sel, ss_ev = _chunk_seed(root, 0), _chunk_seed(root, 1)
    # ---- selection half: n_sel outputs of every distinct candidate input i, drawn from child i of ss_sel
    n_sel = samples // 2 if chunk_size is None else min(samples // 2, chunk_size)
    n_ev = (
        samples - n_sel
    )  # the evaluation samples of run_audit (its direction is fixed on the other n_sel)
    enc = _Encoder()
    distinct: dict[bytes, int] = {}
    for pr in pairs:
        for x in (pr.a, pr.b):
            distinct.setdefault(_key_of(x), len(distinct))
    sel_args = (len(pairs), req.confidence, req.delta, req.max_cuts)
    with using_scheduler(req.scheduler if chunk_size is not None else None):
        if chunk_size is None:
            selected = _select_in_memory(func, req.params, batched, pairs, distinct, ss_sel, n_sel, enc,
                                         sel_args)  # fmt: skip
        else:
            # chunked: one task per candidate pair (workers draw, the driver gets the small results)
            selected = _select_in_tasks(func, req.params, batched, pairs, distinct, ss_sel, n_sel, enc,
                                        sel_args, req.n_jobs)  # fmt: skip
        best, event_name = _chosen_event(selected, enc)
        chosen, chosen_sel = pairs[best.pair], selected[best.pair]
        # ---- evaluation half: fresh samples on the chosen pair, the event fixed, through run_audit
        res, summary = _evaluate(
            func, req, batched, chosen, chosen_sel, best, event_name, enc, ss_ev
        )
    table = _empirical_table(selected, chosen, best, res, n_ev, req)
    plot = {"summary": summary, "event": (best.lo, best.hi), "statistic": best.stat.name,
            "encoder": enc if enc.strings else None}  # fmt: skip
    k_a, k_b = round(res.p_a * n_ev), round(res.p_b * n_ev)
    forward = res.event.endswith("M(D) over M(D')")
    describe_args = (req.params, batched, chosen, best, enc.frozen_copy(), _chunk_seed(root, 3))
    if chunk_size is None:
        description = _describe_event(func, *describe_args)
    else:  # as a task, like every other draw of a chunked audit
        with using_scheduler(req.scheduler), joblib_backend(req.n_jobs) as n:
            task = joblib.delayed(_describe_event)(_Shipped(func), *describe_args)
            description = joblib.Parallel(n_jobs=n)([task])[0]
    return AuditReport(
        verdict=res.verdict, epsilon_lower=float(res.audited_epsilon), confidence=req.confidence,
        table=table, method="empirical", pair=chosen.name, event=res.event, p_a=res.p_a, p_b=res.p_b,
        _plot=plot, chunk_size=chunk_size, event_text=describe.event_text(description, k_a, k_b, n_ev),
        bound_text=describe.bound_text(float(res.audited_epsilon), req.confidence, k_a, k_b, n_ev, forward,
                                        req.delta),
        **common,
    )  # fmt: skip


def _describe_event(func, params, batched, chosen, best, enc, ss) -> Any:
    """The chosen event in words (:func:`~dpcompendium.book.usercode.describe.event_values`), from
    ``DESCRIBE_DRAWS`` fresh outputs of each input of the chosen pair (child ``ss``: never used by the bound)."""
    func = func.fn if isinstance(func, _Shipped) else func
    outs = [
        sample_outputs(
            func, x, params, describe.DESCRIBE_DRAWS, _chunk_seed(ss, i), batched=batched
        )
        for i, x in enumerate((chosen.a, chosen.b))
    ]
    frozen = enc.frozen_copy()
    inside, outside = [], []
    for out in outs:
        ind = np.asarray(_in_event(best.stat.fn, frozen, best.lo, best.hi, out), dtype=bool)
        values = describe.canonical(out)
        inside += [v for v, i in zip(values, ind, strict=True) if i]
        outside += [v for v, i in zip(values, ind, strict=True) if not i]
    return describe.event_values(inside, outside, best.stat.key, best.lo, best.hi)


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


def _exact_report(func, pmf, req: _Request, common, root) -> AuditReport:
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
    epsilon, samples, name, batched = (
        req.epsilon,
        req.samples,
        req.claim.mechanism,
        common["batched"],
    )
    n_check = min(samples, SAMPLER_CHECK_DRAWS)
    rows, k, res, keys, (ta, tb), tables = _exact(
        func, pmf, req.pairs, req.params, req.claim, n_check, _chunk_seed(root, 2), batched
    )
    emp = _empirical_report(func, req, common, root)
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
        method="exact", pair=req.pairs[k].name, event=_exact_event(res.event), p_a=res.p_a, p_b=res.p_b, _plot=plot,
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
