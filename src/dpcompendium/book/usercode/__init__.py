"""Audit your own mechanism: ``audit_callable`` and ``dpcompendium audit TARGET`` (coursework mode).

A user function ``f(data, rng, **params)`` claims (ε, δ)-DP. The audit

1. loads it (``path/to/file.py:function`` or ``module:function``, :func:`load_target`) and checks that it is a
   well-behaved randomized function: it must not raise, must not return NaN/inf, and must draw all its randomness
   from ``rng`` (two calls with the same seed must give identical outputs) — else :class:`UserCodeError`;
2. takes candidate neighbouring inputs, given (``pair``) or from a built-in family (``inputs``, :func:`input_pairs`):
   ``scalar:A,B``, ``dataset:N,A,B``, ``histogram:K``, ``ldp``, ``category:K``, ``queries:K`` (vectors of query
   answers under the ``queries`` relation, with ``sensitivity`` and ``norm``: the DP-testing literature's patterns);
   outputs may be of any type (tuples, lists of varying length, ``None``, strings, booleans, NaN), encoded by the
   audit;
3. draws ``samples // 2`` outputs per candidate input (selection half), and on them chooses the pair, the output
   statistic and the output event S (an interval of the statistic, in either direction) with the largest
   Wilson-penalized privacy-loss estimate — among the statistics a learned one, a classifier's score trained on
   the selection half as DP-Sniper does — the selection of :func:`dpcompendium.core.audit.empirical_audit`,
   StatDP/DP-Sniper style [ding2018detecting, bichsel2021dpsniper];
4. draws ``samples`` fresh outputs per input of the chosen pair only and hands them, with the event fixed, to
   :func:`dpcompendium.core.audit.spec.run_audit` — the path of the book's own audits — which checks that the pair is
   neighbouring, fixes the direction on the first half and bounds ε ≥ ln((p_lo − δ)/q_hi) on the other
   ``samples − samples // 2`` with one-sided Clopper–Pearson bounds at level α/2 each [clopper1934use]. The pair,
   the event and its direction are fixed before the evaluation samples are drawn, so the bound holds with
   probability ≥ ``confidence`` whatever the search did;
5. if the output is discrete and the function comes with a probability mass function ``pmf(data, **params) ->
   {output: probability}`` (the CLI looks for ``<function>_pmf`` in the same module), the exact ε *of the declared
   pmf* on every candidate pair (:func:`dpcompendium.core.audit.exact_epsilon`), a χ² check of the sampler against it
   on at most ``SAMPLER_CHECK_DRAWS`` draws per input — which sees an output only if its probability is at least
   :func:`detectable_probability` (≈ 3/n) — and the empirical audit of steps 3–4, which must agree
   (``_exact_report``).

The neighbour relation is the user's to state (``replace-one`` or ``add-remove`` for datasets and histograms; no
default) and is named in the verdict line. ``dataset:N,A,B`` inputs also probe beyond the declared bounds
(:func:`dataset_probes`: records outside [A, B], one-record and empty datasets), where a missing clamp, a
data-dependent n or an unbounded sensitivity shows.

The audit warns when the outputs never vary or do not depend on the input, and names the audited pair in full
(``pair.json`` beside the report). The verdict is ``violated`` when the audited ε (a lower bound) exceeds the claimed ε, else ``holds``; with a pmf also
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
(:func:`~dpcompendium.core.audit.empirical.empirical_audit` with ``chunk_size``, :func:`dpcompendium.core.experiments.count_events_many`:
chunk i from child i of its own ``SeedSequence``, counts summed, both inputs' chunks in one batch of tasks), in this
process, over ``n_jobs`` processes or as tasks on the Dask cluster of ``DPCOMPENDIUM_SCHEDULER`` (or ``scheduler=``),
so a worker holds one chunk (or one pair's selection outputs) at a time and ``samples=10**8`` runs in bounded memory.
The direction of the chosen event is fixed on ``min(samples // 2, C)`` fresh outputs per input, counted in the same
batch as the evaluation chunks (``seeded_samplers``: :func:`sample_outputs` takes one integer from the generator it is
given, so those outputs can be drawn in a task from a snapshot of it): this process holds no samples. The report
depends on (seed, samples, C) only, never on where the tasks ran. The user's function travels to the workers by
value (cloudpickle; a module loaded from a file path is registered for pickling by value), so a worker needs the same
lock installed, not the user's file.

Modules: :mod:`dpcompendium.book.usercode.common`, :mod:`dpcompendium.book.usercode.target`, :mod:`dpcompendium.book.usercode.families`, :mod:`dpcompendium.book.usercode.sampling`, :mod:`dpcompendium.book.usercode.events`, :mod:`dpcompendium.book.usercode.describe`, :mod:`dpcompendium.book.usercode.report`,
:mod:`dpcompendium.book.usercode.audit`.
"""

from __future__ import annotations

from .audit import SAMPLER_CHECK_DRAWS, audit_callable, detectable_probability
from .common import CHUNK_SIZE, FAMILIES, MAX_DISCRETE, NEIGHBOURS, UserCodeError
from .families import PROBE_REACH, InputPair, dataset_probes, input_pairs
from .report import AuditReport
from .sampling import check_user_function, sample_outputs
from .target import load_module, load_target

__all__ = [
    "CHUNK_SIZE",
    "FAMILIES",
    "MAX_DISCRETE",
    "NEIGHBOURS",
    "PROBE_REACH",
    "SAMPLER_CHECK_DRAWS",
    "AuditReport",
    "InputPair",
    "UserCodeError",
    "audit_callable",
    "check_user_function",
    "dataset_probes",
    "detectable_probability",
    "input_pairs",
    "load_module",
    "load_target",
    "sample_outputs",
]
