"""How a mechanism is audited, as data: two (or more) raw neighbouring datasets and the whole pipeline on them.

An :class:`AuditSpec` holds the mechanism's own :class:`~dpcompendium.core.privacy.PrivacyClaim`, raw datasets (records
on the first axis, or a tuple of per-site record arrays), and *either* ``sample(dataset, n, rng)`` — n independent
outputs of the whole pipeline, preprocessing included, on one dataset (empirical audit) — *or*
``distribution(dataset)`` — the exact output law over a finite output space (exact audit). :func:`run_audit` first
checks, with :func:`are_neighbours`, that every audited pair is a pair of neighbouring datasets under the claim's
relation, then runs :func:`~dpcompendium.core.audit.empirical.empirical_audit` or
:func:`~dpcompendium.core.audit.exact.exact_audit` at the claim's (ε, δ). The book's catalogue
(:mod:`dpcompendium.chapters.privacy_audit.catalog`) and user code go through this one path.

Each chapter declares its specs next to its mechanisms, in ``dpcompendium/<subpackage>/audits.py``
(``audit_specs() -> list[AuditSpec]``).
"""

from __future__ import annotations

import itertools
import math
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..privacy import NEIGHBOUR_RELATIONS, PrivacyClaim
from ..validation import check_int, check_rng
from .empirical import Event, empirical_audit
from .exact import exact_audit
from .result import AuditResult

__all__ = [
    "AuditSpec",
    "Dataset",
    "are_neighbours",
    "check_neighbours",
    "neighbour_violation",
    "run_audit",
    "value_events",
]

#: A raw dataset: records on the first axis (scalars or rows), or a tuple of such arrays (one per site).
Dataset = Any


def _records(d: Any, name: str) -> np.ndarray:
    a = np.asarray(d, dtype=float)
    if a.ndim == 0:
        raise ValueError(f"{name} must hold records on its first axis, got a scalar {d!r}")
    return a.reshape(a.shape[0], int(np.prod(a.shape[1:], dtype=np.int64)))


def _rows_equal(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Row-by-row equality of two record arrays of one shape (NaN equals NaN)."""
    return np.all((a == b) | (np.isnan(a) & np.isnan(b)), axis=1)


def _same(a: np.ndarray, b: np.ndarray) -> bool:
    return a.shape == b.shape and bool(np.all(_rows_equal(a, b)))


def _width_compatible(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """The two record arrays with one record width (an empty dataset takes the other's), or None."""
    if a.shape[1] == b.shape[1]:
        return a, b
    if a.shape[0] == 0:
        return a.reshape(0, b.shape[1]), b
    if b.shape[0] == 0:
        return a, b.reshape(0, a.shape[1])
    return None


def _one_deleted(longer: np.ndarray, shorter: np.ndarray) -> bool:
    """True iff ``shorter`` is ``longer`` with exactly one row deleted (positions kept in order)."""
    n = shorter.shape[0]
    if longer.shape[0] != n + 1:
        return False
    eq = _rows_equal(longer[:n], shorter)
    i = n if eq.all() else int(np.argmin(eq))  # the first position where they differ
    return bool(np.all(_rows_equal(longer[i + 1 :], shorter[i:])))


#: Norms of the query relations: the largest change of one answer (ℓ∞) or the total change (ℓ1).
QUERY_NORMS = ("linf", "l1")
#: The relations on vectors of query answers: ``queries`` (each answer moves by at most Δ), ``monotone`` (and all
#: of them in the same direction) and ``one-query`` (exactly one of them moves).
QUERY_RELATIONS = ("queries", "monotone", "one-query")


def _query_violation(
    a: Any, b: Any, sensitivity: float | None, norm: str, relation: str = "queries"
) -> str | None:
    if sensitivity is None or not (float(sensitivity) > 0 and math.isfinite(float(sensitivity))):
        raise ValueError(
            f"sensitivity must be a finite number > 0 for {relation} neighbours, got {sensitivity!r}"
        )
    if norm not in QUERY_NORMS:
        raise ValueError(f"norm must be one of {'|'.join(QUERY_NORMS)}, got {norm!r}")
    x, y = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    if x.shape != y.shape or x.ndim != 1:
        return f"vectors of query answers of one length (got shapes {x.shape} and {y.shape})"
    gap = np.abs(x - y)
    tol = 1e-9 * float(sensitivity)
    if norm == "linf" and np.any(gap > sensitivity + tol):
        i = int(np.argmax(gap))
        return (f"each answer moves by at most Δ = {sensitivity:g} (ℓ∞), but answer {i} moves by "
                f"{gap[i]:g} ({x[i]:g} vs {y[i]:g})")  # fmt: skip
    if norm == "l1" and gap.sum() > sensitivity + tol:
        return f"the answers move by at most Δ = {sensitivity:g} in total (ℓ1), but they move by {gap.sum():g}"
    step = y - x
    if relation == "monotone" and np.any(step > 0) and np.any(step < 0):
        i, j = int(np.argmax(step)), int(np.argmin(step))
        return (f"all answers moving in the same direction, but answer {i} goes up ({x[i]:g} to {y[i]:g}) and "
                f"answer {j} down ({x[j]:g} to {y[j]:g})")  # fmt: skip
    if relation == "one-query" and np.count_nonzero(step) > 1:
        moved = ", ".join(str(int(i)) for i in np.flatnonzero(step)[:6])
        return f"exactly one answer moving, but answers {moved} move"
    return None


def _flat_violation(a: np.ndarray, b: np.ndarray, relation: str) -> str | None:
    """Why two record arrays are not neighbours under ``relation`` (None if they are). Records are compared
    position by position (a record is a row of the first axis)."""
    if relation == "local":
        if a.shape[0] == 1 and b.shape[0] == 1:
            return None
        return f"one value each (got {a.shape[0]} and {b.shape[0]} records)"
    ab = _width_compatible(a, b)
    if ab is None:
        return f"records of one width (got rows of {a.shape[1]} and {b.shape[1]} values)"
    a, b = ab
    if relation == "add-remove":
        if abs(a.shape[0] - b.shape[0]) != 1:
            return (f"one record added or removed: the sizes must differ by 1 (got {a.shape[0]} and "
                    f"{b.shape[0]} records)")  # fmt: skip
        longer, shorter = (a, b) if a.shape[0] > b.shape[0] else (b, a)
        if not _one_deleted(longer, shorter):
            return "one record added or removed, the other records the same and in the same order"
        return None
    # replace-one: same size, exactly one position holds a different record
    if a.shape[0] != b.shape[0]:
        return f"one record replaced: the sizes must be equal (got {a.shape[0]} and {b.shape[0]} records)"
    differ = np.flatnonzero(~_rows_equal(a, b))
    if differ.size != 1:
        where = ", ".join(str(int(i)) for i in differ[:6]) + (", …" if differ.size > 6 else "")
        got = "no record differs" if differ.size == 0 else f"records {where} differ"
        return f"exactly one record (row) replaced, the others equal position by position ({got})"
    return None


def neighbour_violation(
    d: Dataset, d2: Dataset, relation: str, *, sensitivity: float | None = None, norm: str = "linf"
) -> str | None:
    """Why ``d`` and ``d2`` are not neighbours under ``relation`` (the rule, one line), or None if they are
    (:func:`are_neighbours`)."""
    if relation not in NEIGHBOUR_RELATIONS:
        raise ValueError(f"relation must be one of {sorted(NEIGHBOUR_RELATIONS)}, got {relation!r}")
    if relation in QUERY_RELATIONS:
        return _query_violation(d, d2, sensitivity, norm, relation)
    if isinstance(d, tuple) or isinstance(d2, tuple):
        if not (isinstance(d, tuple) and isinstance(d2, tuple)) or len(d) != len(d2):
            return "partitions over the same sites"
        parts = [(_records(x, "d"), _records(y, "d2")) for x, y in zip(d, d2, strict=True)]
        differ = [i for i, (x, y) in enumerate(parts) if not _same(x, y)]
        if len(differ) != 1:
            return f"exactly one site's records differ (got {len(differ)} sites)"
        why = _flat_violation(*parts[differ[0]], relation)
        return None if why is None else f"site {differ[0]}: {why}"
    return _flat_violation(_records(d, "d"), _records(d2, "d2"), relation)


def are_neighbours(
    d: Dataset, d2: Dataset, relation: str, *, sensitivity: float | None = None, norm: str = "linf"
) -> bool:
    """True iff raw datasets ``d`` and ``d2`` are neighbours under ``relation``.

    A record is a row of the first axis, and records are compared position by position (a dataset is a sequence
    of records, not a multiset: a pair that only reorders records is not a pair of neighbours):

    - ``"add-remove"``: one is the other with exactly one record inserted (anywhere), the rest in order;
    - ``"replace-one"``: same size, and exactly one position holds a different record;
    - ``"local"``: each is a single record (one user's input; any two inputs are neighbours);
    - ``"queries"``: two vectors of query answers (of neighbouring datasets) of one length, each answer moving by at
      most ``sensitivity`` (``norm="linf"``), or all of them together by at most ``sensitivity`` (``norm="l1"``)
      — the relation of the DP-testing literature's benchmarks [ding2018detecting, bichsel2021dpsniper];
    - ``"monotone"``: as ``"queries"``, and all answers move in the same direction (or stay): monotonic queries,
      such as counts under add-remove, for which the sparse vector's query noise can be halved
      [audit_lyu2017understanding] (their Alg. 7);
    - ``"one-query"``: as ``"queries"``, and exactly one answer moves: one vote of one teacher in PATE-style report
      noisy max, one count of a histogram of disjoint bins under add-remove, one query of a stream answered on one
      record.

    A tuple of arrays is a partition over sites (site sizes public): neighbours iff exactly one site's part is a
    neighbour of its counterpart and every other part is equal. :func:`neighbour_violation` says why a pair is not.
    """
    return neighbour_violation(d, d2, relation, sensitivity=sensitivity, norm=norm) is None


def value_events(values) -> list[Event]:
    """Singleton events {output == v}, for empirical audits of samplers with a finite output space."""
    return [(f"output == {v!r}", lambda y, v=v: np.asarray(y) == v) for v in values]


Sample = Callable[[Dataset, int, np.random.Generator], np.ndarray]
Distribution = Callable[[Dataset], np.ndarray]


@dataclass(frozen=True)
class AuditSpec:
    """How one mechanism is audited.

    ``datasets``: raw datasets; ``pairs``: the audited (i, j) index pairs, each a neighbouring pair under
    ``claim.neighbours`` (default ``((0, 1),)``; ``None`` = every pair, for local DP). Exactly one of ``sample``
    (empirical audit; one pair) and ``distribution`` (exact audit). ``statistic`` / ``events`` / ``audit_kw`` go to
    :func:`~dpcompendium.core.audit.empirical.empirical_audit`, ``outputs`` (output labels) to
    :func:`~dpcompendium.core.audit.exact.exact_audit`.

    ``variant``: ``core``, ``as-written`` / ``private`` (a source's method and its correction), ``planted bug`` or
    ``hardened``. ``expected``: the verdict the book predicts. ``true_epsilon``: the exact privacy loss of the
    audited pair when known (NaN otherwise). ``max_samples`` caps the samples of slow pipelines.
    """

    mechanism: str
    chapter: str
    variant: str
    claim: PrivacyClaim
    datasets: tuple
    sample: Sample | None = field(default=None, repr=False)
    distribution: Distribution | None = field(default=None, repr=False)
    pairs: tuple[tuple[int, int], ...] | None = ((0, 1),)
    statistic: Callable[[np.ndarray], np.ndarray] | None = field(default=None, repr=False)
    events: Sequence[Event] | None = field(default=None, repr=False)
    outputs: Sequence | None = None
    audit_kw: dict = field(default_factory=dict)
    expected: str = "holds"
    true_epsilon: float = math.nan
    max_samples: int | None = None
    note: str = ""
    #: the ``queries`` relation's ``sensitivity`` and ``norm`` (:func:`are_neighbours`)
    neighbour_kw: dict = field(default_factory=dict)

    def __post_init__(self) -> None:
        if (self.sample is None) == (self.distribution is None):
            raise ValueError(
                f"spec {self.mechanism!r} must give exactly one of sample and distribution"
            )
        if len(self.datasets) < 2:
            raise ValueError(
                f"datasets must hold at least two raw datasets, got {len(self.datasets)}"
            )
        if self.sample is not None and (self.pairs is None or len(self.pairs) != 1):
            raise ValueError(f"an empirical spec audits one pair, got pairs={self.pairs!r}")
        if self.expected not in ("holds", "violated"):
            raise ValueError(f"expected must be 'holds' or 'violated', got {self.expected!r}")

    @property
    def audit(self) -> str:
        return "exact" if self.distribution is not None else "empirical"

    @property
    def pair_list(self) -> list[tuple[int, int]]:
        m = len(self.datasets)
        if self.pairs is None:
            return list(itertools.combinations(range(m), 2))
        return [
            (
                check_int(i, "pairs[i]", minimum=0, maximum=m - 1),
                check_int(j, "pairs[j]", minimum=0, maximum=m - 1),
            )
            for i, j in self.pairs
        ]


def check_neighbours(spec: AuditSpec) -> None:
    """Raise ``ValueError`` unless every audited pair of ``spec`` is neighbouring under its claim's relation."""
    for i, j in spec.pair_list:
        why = neighbour_violation(
            spec.datasets[i], spec.datasets[j], spec.claim.neighbours, **spec.neighbour_kw
        )
        if why is not None:
            raise ValueError(
                f"spec {spec.mechanism!r}: datasets {i} and {j} are not {spec.claim.neighbours} neighbours: "
                f"{spec.claim.neighbours} needs {why}"
            )


def run_audit(
    spec: AuditSpec,
    *,
    n_samples: int = 1_000_000,
    confidence: float = 0.95,
    rng: np.random.Generator,
    chunk_size: int | None = None,
    n_jobs: int = 1,
) -> AuditResult:
    """Check the pairs (:func:`check_neighbours`), then audit the whole pipeline at the claim's (ε, δ) (the claim
    was validated on construction: the engine takes it as it is).

    ``chunk_size`` (empirical specs): the evaluation samples are counted in chunks of that size, over ``n_jobs``
    processes or the Dask cluster of ``DPCOMPENDIUM_SCHEDULER``
    (:mod:`~dpcompendium.core.audit.chunked`); the result depends on it, never on where the
    chunks run. ``None``: every sample in memory."""
    check_neighbours(spec)
    claim = spec.claim
    if spec.distribution is not None:
        dist = np.vstack([np.asarray(spec.distribution(d), dtype=float) for d in spec.datasets])
        return exact_audit(
            dist,
            claim=claim,
            pairs=spec.pair_list,
            mechanism=spec.mechanism,
            outputs=spec.outputs,
        )
    rng = check_rng(rng)
    n = check_int(n_samples, "n_samples", minimum=20)
    if spec.max_samples:
        n = min(n, spec.max_samples)
    (i, j), sample = spec.pair_list[0], spec.sample
    da, db = spec.datasets[i], spec.datasets[j]
    kw = dict(spec.audit_kw)
    if chunk_size is not None:
        kw.update(chunk_size=chunk_size, n_jobs=n_jobs)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        return empirical_audit(
            lambda m, g: sample(da, m, g),
            lambda m, g: sample(db, m, g),
            claim=claim,
            n_samples=n,
            confidence=confidence,
            statistic=spec.statistic,
            events=spec.events,
            rng=rng,
            mechanism=spec.mechanism,
            **kw,
        )
