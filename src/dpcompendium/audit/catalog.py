"""The catalogue: every mechanism of the book, audited from two raw neighbouring datasets.

Each chapter declares how its mechanisms are audited next to them, in ``dpcompendium/<subpackage>/audits.py``
(``audit_specs() -> list[AuditSpec]``; the audit package's own planted bugs and floating-point rows are in
:mod:`.builtin`). An :class:`~dpcompendium.audit.spec.AuditSpec` holds the mechanism's own privacy claim, raw
neighbouring datasets (checked by :func:`~dpcompendium.audit.spec.are_neighbours`), the whole pipeline on them
(preprocessing included) and the verdict the book expects. :func:`catalog` discovers the specs (chapters whose module
is not importable are skipped and listed by :func:`missing_chapters`); :func:`run_catalog` runs every spec through
:func:`~dpcompendium.audit.spec.run_audit` with its own random stream (``SeedSequence(seed).spawn``, through
:func:`dpcompendium.experiments.sweep`), so the table depends only on the seed, never on ``n_jobs``.

Family-wise error. With ``family_wise=True`` (default) every empirical row is run at confidence
``1 − (1 − confidence)/m`` (m = number of empirical rows; Bonferroni across rows), so the probability that *any*
correct mechanism in the table is flagged is at most ``1 − confidence``.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable

import numpy as np
import pandas as pd

from ..experiments import sweep
from ..mechanisms import laplace_mechanism
from ..validation import check_int
from .spec import AuditSpec, run_audit, value_events

__all__ = [
    "AUDIT_MODULES",
    "COLUMNS",
    "CatalogEntry",
    "catalog",
    "grr_distributions",
    "laplace_samplers",
    "missing_chapters",
    "row_confidence",
    "run_catalog",
    "value_events",
]

#: A catalogue entry is an audit spec (the old name, kept for users).
CatalogEntry = AuditSpec

#: chapter id → (module declaring its audits, function returning its specs), in book order.
AUDIT_MODULES: dict[str, tuple[str, str]] = {
    "core": ("dpcompendium.mechanisms.audits", "audit_specs"),
    "planted": ("dpcompendium.audit.builtin", "planted_specs"),
    "floating-point": ("dpcompendium.audit.builtin", "floating_specs"),
    "dp-mean": ("dpcompendium.mean.audits", "audit_specs"),
    "mwem": ("dpcompendium.mwem.audits", "audit_specs"),
    "histograms": ("dpcompendium.histograms.audits", "audit_specs"),
    "federated-pca": ("dpcompendium.pca.audits", "audit_specs"),
    "hiera": ("dpcompendium.ldp.audits", "audit_specs"),
}

COLUMNS = [
    "mechanism",
    "chapter",
    "variant",
    "neighbours",
    "claimed_private",
    "claimed_epsilon",
    "claimed_delta",
    "audit",
    "audited_epsilon",
    "confidence",
    "verdict",
    "expected",
    "true_epsilon",
    "event",
    "n_samples",
]


def grr_distributions(p: float, q: float, k: int) -> np.ndarray:
    """Output distribution of a k-ary randomized response for every input: row v = q everywhere, p at v."""
    d = np.full((k, k), q)
    np.fill_diagonal(d, p)
    return d


def laplace_samplers(
    epsilon: float, func: Callable = laplace_mechanism
) -> tuple[Callable, Callable]:
    """Samplers of ``func(value, 1, ε, rng, size=n)`` at f(D) = 0 and f(D') = 1 (a sensitivity-1 pair)."""
    return (
        lambda n, g: func(0.0, 1.0, epsilon, g, size=n),
        lambda n, g: func(1.0, 1.0, epsilon, g, size=n),
    )


def _builder(chapter: str) -> Callable[[], list[AuditSpec]] | None:
    module, fn = AUDIT_MODULES[chapter]
    try:
        mod = importlib.import_module(module)
    except ImportError:
        return None
    return getattr(mod, fn)


def missing_chapters() -> list[str]:
    """Chapters whose audit module cannot be imported (their mechanisms are left out of the catalogue)."""
    return [ch for ch in AUDIT_MODULES if _builder(ch) is None]


def catalog(chapters: Iterable[str] | None = None) -> list[AuditSpec]:
    """Every audit spec of the given chapters (default: all whose module is importable), in book order."""
    wanted = list(AUDIT_MODULES) if chapters is None else list(chapters)
    for ch in wanted:
        if ch not in AUDIT_MODULES:
            raise ValueError(f"chapters must be among {'|'.join(AUDIT_MODULES)}, got {ch!r}")
    specs: list[AuditSpec] = []
    for ch in wanted:
        build = _builder(ch)
        if build is not None:
            specs.extend(build())
    return specs


def row_confidence(entries: list[AuditSpec], confidence: float, family_wise: bool = True) -> float:
    """Confidence of each empirical row: ``1 − (1 − confidence)/m`` over the m empirical rows (family-wise)."""
    m = sum(e.audit == "empirical" for e in entries)
    return 1.0 - (1.0 - confidence) / max(m, 1) if family_wise else confidence


def _row(entry: AuditSpec, n_samples: int, confidence: float, rng: np.random.Generator) -> dict:
    res = run_audit(entry, n_samples=n_samples, confidence=confidence, rng=rng)
    return {
        "mechanism": entry.mechanism,
        "chapter": entry.chapter,
        "variant": entry.variant,
        "neighbours": entry.claim.neighbours,
        "claimed_private": entry.claim.private,
        "claimed_epsilon": res.claimed_epsilon,
        "claimed_delta": res.claimed_delta,
        "audit": res.audit,
        "audited_epsilon": res.audited_epsilon,
        "confidence": res.confidence,
        "verdict": res.verdict,
        "expected": entry.expected,
        "true_epsilon": entry.true_epsilon,
        "event": res.event,
        "n_samples": res.n_samples,
    }


def run_catalog(
    entries: list[AuditSpec] | None = None,
    *,
    n_samples: int = 1_000_000,
    confidence: float = 0.95,
    family_wise: bool = True,
    seed: int = 0,
    n_jobs: int = 1,
) -> pd.DataFrame:
    """Audit every entry; one row per entry with the columns of ``COLUMNS`` (the chapter's ``audit.csv``).

    ``family_wise=True``: ``confidence`` is the family-wise confidence over all empirical rows
    (:func:`row_confidence`); otherwise it is each row's own.
    """
    entries = catalog() if entries is None else list(entries)
    n_samples = check_int(n_samples, "n_samples", minimum=20)
    if not entries:
        raise ValueError("entries must hold at least one CatalogEntry, got none")
    conf = row_confidence(entries, confidence, family_wise)

    def one(index: int, rng: np.random.Generator) -> dict:
        return _row(entries[index], n_samples, conf, rng)

    runs = sweep(
        one, {"index": list(range(len(entries)))}, reps=1, seed=seed, n_jobs=n_jobs, progress=False
    )
    return runs[COLUMNS].reset_index(drop=True)
