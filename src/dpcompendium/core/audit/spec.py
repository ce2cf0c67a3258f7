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


def _count_difference(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Multiplicity of each distinct record in ``a`` minus in ``b`` (records compared exactly, as rows)."""
    if a.shape[1] != b.shape[1]:
        if a.shape[0] and b.shape[0]:
            return np.array([a.shape[0], -b.shape[0]])  # different record widths: nothing in common
        a, b = (a.reshape(0, b.shape[1]), b) if a.shape[0] == 0 else (a, b.reshape(0, a.shape[1]))
    stack = np.concatenate([a, b])
    if stack.shape[0] == 0:
        return np.zeros(0, dtype=np.int64)
    _, inv = np.unique(stack, axis=0, return_inverse=True)
    inv = np.asarray(inv).ravel()
    m = int(inv.max()) + 1
    return np.bincount(inv[: a.shape[0]], minlength=m) - np.bincount(inv[a.shape[0] :], minlength=m)


def _flat_neighbours(a: np.ndarray, b: np.ndarray, relation: str) -> bool:
    if relation == "local":
        return a.shape[0] == 1 and b.shape[0] == 1
    diff = _count_difference(a, b)
    if relation == "add-remove":
        return abs(a.shape[0] - b.shape[0]) == 1 and (
            bool(np.all(diff >= 0)) or bool(np.all(diff <= 0))
        )
    # replace-one: same size, exactly one record swapped for a different one
    return a.shape[0] == b.shape[0] and int(np.abs(diff).sum()) == 2


def are_neighbours(d: Dataset, d2: Dataset, relation: str) -> bool:
    """True iff raw datasets ``d`` and ``d2`` are neighbours under ``relation``.

    - ``"add-remove"``: one is the other plus exactly one record (as multisets);
    - ``"replace-one"``: same size, and they differ in exactly one record (one record replaced by a different one);
    - ``"local"``: each is a single record (one user's input; any two inputs are neighbours).

    Records are compared exactly, as rows of the first axis. A tuple of arrays is a partition over sites (site sizes
    public): neighbours iff exactly one site's part is a neighbour of its counterpart and every other part is equal.
    """
    if relation not in NEIGHBOUR_RELATIONS:
        raise ValueError(f"relation must be one of {sorted(NEIGHBOUR_RELATIONS)}, got {relation!r}")
    if isinstance(d, tuple) or isinstance(d2, tuple):
        if not (isinstance(d, tuple) and isinstance(d2, tuple)) or len(d) != len(d2):
            return False
        parts = [(_records(x, "d"), _records(y, "d2")) for x, y in zip(d, d2, strict=True)]
        differ = [
            i
            for i, (x, y) in enumerate(parts)
            if x.shape != y.shape or _count_difference(x, y).any()
        ]
        return len(differ) == 1 and _flat_neighbours(*parts[differ[0]], relation)
    return _flat_neighbours(_records(d, "d"), _records(d2, "d2"), relation)


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
        if not are_neighbours(spec.datasets[i], spec.datasets[j], spec.claim.neighbours):
            raise ValueError(
                f"spec {spec.mechanism!r}: datasets {i} and {j} are not {spec.claim.neighbours} neighbours"
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
