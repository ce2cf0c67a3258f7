"""How the audit chapter audits MWEM's two private steps [hardt2012simple, src_mwem].

Raw datasets: records are cell indices of the (flattened) domain; the pipeline builds the histogram from them. The
neighbouring pair is replace-one (n public, as MWEM's uniform start n·uniform needs): one record moves from the last
cell to the first. Claims: the chapter's ``privacy_claim`` (its ``private`` flag, why and conditions), with ε
replaced by the step's per-round share.

Selection: the exact first-round law (:func:`first_round_probabilities`), claimed ε/(2T) per round. Measurement: a
one-query workload, so that ``mwem(..., T=1)`` selects it surely and its recorded measurement is q(B) + Lap(2T/(ε·d))
alone (T = 1, as the coursework's re-drawing loop needs T ≤ number of queries); claimed ε/(2T) per round.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from ...core.audit.spec import AuditSpec
from ...core.experiments import RangeQueries
from ..registry import chapter_id
from .core import first_round_probabilities, mwem, privacy_claim
from .queries import random_range_queries

#: this chapter's id (from its manifest)
CHAPTER = chapter_id(__name__)

__all__ = ["audit_specs"]


def _histogram(records: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    idx = np.asarray(records, dtype=np.int64).ravel()
    return np.bincount(idx, minlength=int(np.prod(shape))).astype(float).reshape(shape)


def audit_specs() -> list[AuditSpec]:
    eps, T = 1.0, 10
    out: list[AuditSpec] = []
    for ndim in (1, 2):
        shape = (8,) if ndim == 1 else (4, 4)
        cells = int(np.prod(shape))
        counts = np.arange(1, 1 + cells)
        records = np.repeat(np.arange(cells), counts)  # histogram 1, 2, ..., cells
        moved = records.copy()
        moved[-1] = 0  # replace-one: a record moves from the last cell to the first
        queries = random_range_queries(
            shape, 20, np.random.default_rng(7)
        )  # a fixed public workload
        for variant in ("standard", "coursework"):
            step = eps / (2 * T)
            claim = dataclasses.replace(
                privacy_claim(eps, T, variant, ndim),
                mechanism=f"MWEM selection ({variant}, {ndim}-D)",
                sensitivity="score |q(A) - q(B)|: 1",
                epsilon=step,
            )
            out.append(
                AuditSpec(
                    f"MWEM selection, {variant}, {ndim}-D",
                    CHAPTER,
                    "private" if variant == "standard" else "as-written",
                    claim,
                    (records, moved),
                    distribution=lambda d, v=variant, s=shape, q=queries: first_round_probabilities(
                        _histogram(d, s), q, eps, T, v
                    ),
                    note=f"first round, eps = {eps:g}, T = {T}: claim eps/(2T) per round; 20 random boxes; "
                    "records moved from the last cell to the first",
                )
            )
        one_box = RangeQueries(
            shape, np.zeros((1, ndim), dtype=np.int64), np.zeros((1, ndim), dtype=np.int64)
        )
        for variant in ("standard", "coursework"):
            step = eps / 2.0  # T = 1 (the coursework needs T <= number of queries = 1)
            claim = dataclasses.replace(
                privacy_claim(eps, 1, variant, ndim),
                mechanism=f"MWEM measurement ({variant}, {ndim}-D)",
                sensitivity="range count: 1",
                epsilon=step,
            )
            divisor = ndim if variant == "coursework" else 1
            true = step * divisor
            out.append(
                AuditSpec(
                    f"MWEM measurement, {variant}, {ndim}-D",
                    CHAPTER,
                    "private" if variant == "standard" else "as-written",
                    claim,
                    (records, moved),
                    sample=lambda d, n, g, v=variant, s=shape, q=one_box: mwem(
                        _histogram(d, s), q, eps, 1, variant=v, passes=1, reps=n, rng=g
                    ).measurements[:, 0],
                    expected="violated" if true > step * (1 + 1e-12) else "holds",
                    true_epsilon=true,
                    max_samples=300_000,
                    note=f"T = 1, eps = {eps:g}, one box: Lap(2T/(eps*{divisor})) on a count of sensitivity 1, "
                    "claim eps/(2T)",
                )
            )
    return out
