"""The catalogue: every mechanism of the book, with the pair of neighbouring inputs it is audited on.

Each :class:`CatalogEntry` holds the mechanism's own privacy claim (from its chapter's ``privacy_claim``), the
audit to run (exact for finite output spaces, empirical otherwise) and the verdict the book expects. Adapters here
call the chapters' public functions only. Chapters whose module is not importable are skipped and listed by
:func:`missing_chapters`. :func:`run_catalog` runs every entry with its own random stream
(``SeedSequence(seed).spawn``, through :func:`dpcompendium.experiments.sweep`), so the table depends only on the
seed, never on ``n_jobs``.
"""

from __future__ import annotations

import importlib
import math
import warnings
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ..experiments import sweep
from ..mechanisms import (
    exponential_probabilities,
    gaussian_mechanism,
    gaussian_sigma,
    grr_privatise,
    grr_probabilities,
    laplace_mechanism,
)
from ..privacy import PrivacyClaim
from ..validation import check_int
from .empirical import empirical_audit
from .exact import exact_audit, gaussian_epsilon
from .floating import low_bit_event, snapping_claim, snapping_epsilon, snapping_laplace
from .planted import (
    grr_wrong_keep,
    grr_wrong_keep_probabilities,
    laplace_half_sensitivity,
    laplace_scale_epsilon,
    planted_claim,
    planted_true_epsilon,
)
from .result import AuditResult

__all__ = [
    "COLUMNS",
    "CatalogEntry",
    "catalog",
    "empirical_runner",
    "exact_runner",
    "grr_distributions",
    "laplace_samplers",
    "missing_chapters",
    "run_catalog",
    "value_events",
]

#: Runner signature: (n_samples, confidence, rng) → AuditResult.
Runner = Callable[[int, float, np.random.Generator], AuditResult]

#: The columns of the table that :func:`run_catalog` returns (the chapter's ``audit.csv``).
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


@dataclass(frozen=True)
class CatalogEntry:
    """One audited mechanism.

    ``variant``: ``core`` (textbook mechanism), ``as-written`` / ``private`` (a source's method and its correction),
    ``planted bug`` or ``hardened``. ``expected``: the verdict the book predicts (``violated`` for planted bugs and
    for methods shown non-private when the violation is visible on the audited pair). ``true_epsilon``: the exact
    privacy loss of the audited pair or mechanism when known analytically (NaN otherwise). ``max_samples`` caps
    ``n_samples`` for slow samplers.
    """

    mechanism: str
    chapter: str
    variant: str
    claim: PrivacyClaim
    run: Runner = field(repr=False)
    expected: str = "holds"
    true_epsilon: float = math.nan
    max_samples: int | None = None
    note: str = ""


# ------------------------------------------------------------------------------------------------ helpers
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


def value_events(values: Iterable) -> list:
    """Singleton events {output == v}, for empirical audits of samplers with a finite output space."""
    return [(f"output == {v!r}", lambda y, v=v: np.asarray(y) == v) for v in values]


def empirical_runner(sampler_a, sampler_b, claim: PrivacyClaim, name: str, **kw) -> Runner:
    """A ``Runner`` that calls :func:`empirical_audit` at the claim's (ε, δ); ``kw`` goes to the audit."""

    def run(n: int, confidence: float, rng: np.random.Generator) -> AuditResult:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            return empirical_audit(
                sampler_a,
                sampler_b,
                claimed_epsilon=claim.epsilon,
                claimed_delta=claim.delta,
                n_samples=n,
                confidence=confidence,
                rng=rng,
                mechanism=name,
                **kw,
            )

    return run


def exact_runner(distributions, claim: PrivacyClaim, name: str, **kw) -> Runner:
    """A ``Runner`` that calls :func:`exact_audit` on fixed output distributions at the claim's (ε, δ)."""

    def run(n: int, confidence: float, rng: np.random.Generator) -> AuditResult:
        return exact_audit(
            distributions,
            claimed_epsilon=claim.epsilon,
            claimed_delta=claim.delta,
            mechanism=name,
            **kw,
        )

    return run


# -------------------------------------------------------------------------------------- core mechanisms
def _core_entries() -> list[CatalogEntry]:
    out: list[CatalogEntry] = []
    for eps in (0.5, 1.0, 2.0):
        claim = PrivacyClaim("Laplace mechanism", "add-remove", "L1 sensitivity 1", eps)
        out.append(
            CatalogEntry(
                f"Laplace mechanism, eps={eps:g}",
                "core",
                "core",
                claim,
                empirical_runner(
                    lambda n, g, e=eps: laplace_mechanism(0.0, 1.0, e, g, size=n),
                    lambda n, g, e=eps: laplace_mechanism(1.0, 1.0, e, g, size=n),
                    claim,
                    "laplace",
                ),
                true_epsilon=eps,
                note="f(D) = 0, f(D') = 1",
            )
        )
    delta = 1e-5
    for eps in (0.5, 0.9):
        claim = PrivacyClaim(
            "Gaussian mechanism (classical calibration)",
            "add-remove",
            "L2 sensitivity 1",
            eps,
            delta,
        )
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            sigma = gaussian_sigma(1.0, eps, delta)
        out.append(
            CatalogEntry(
                f"Gaussian mechanism, eps={eps:g}, delta=1e-5",
                "core",
                "core",
                claim,
                empirical_runner(
                    lambda n, g, e=eps: gaussian_mechanism(0.0, 1.0, e, delta, g, size=n),
                    lambda n, g, e=eps: gaussian_mechanism(1.0, 1.0, e, delta, g, size=n),
                    claim,
                    "gaussian",
                ),
                true_epsilon=gaussian_epsilon(sigma, 1.0, delta),
                note="f(D) = 0, f(D') = 1; true_epsilon: exact (Balle & Wang 2018) at the claimed delta",
            )
        )
    for eps in (0.5, 1.0, 2.0):
        # Worst-case neighbouring scores (sensitivity 1): candidate 0 gains 1, the others lose 1; with candidate 0
        # far below the rest the ratio P'(0)/P(0) tends to e^eps (the claim is tight only in the limit).
        u = np.array([-60.0 / eps, 0.0, 0.0, 0.0])
        u2 = u + np.array([1.0, -1.0, -1.0, -1.0])
        dist = np.vstack(
            [exponential_probabilities(u, 1.0, eps), exponential_probabilities(u2, 1.0, eps)]
        )
        claim = PrivacyClaim("exponential mechanism", "add-remove", "score sensitivity 1", eps)
        out.append(
            CatalogEntry(
                f"Exponential mechanism, eps={eps:g}",
                "core",
                "core",
                claim,
                exact_runner(dist, claim, "exponential", pairs=[(0, 1)]),
                true_epsilon=eps,
                note="worst-case scores u = (-60/eps, 0, 0, 0), u' = u + (1, -1, -1, -1)",
            )
        )
    k = 4
    for eps in (0.5, 1.0, 2.0):
        claim = PrivacyClaim(f"GRR, k={k}", "local", "any two inputs", eps)
        p, q = grr_probabilities(k, eps)
        out.append(
            CatalogEntry(
                f"GRR k={k}, eps={eps:g}",
                "core",
                "core",
                claim,
                exact_runner(grr_distributions(p, q, k), claim, "grr"),
                true_epsilon=eps,
            )
        )
    eps = 1.0
    claim = PrivacyClaim(f"GRR, k={k} (sampler)", "local", "any two inputs", eps)
    out.append(
        CatalogEntry(
            f"GRR k={k} sampler, eps=1",
            "core",
            "core",
            claim,
            empirical_runner(
                lambda n, g: grr_privatise(np.zeros(n, dtype=np.int64), k, eps, g),
                lambda n, g: grr_privatise(np.ones(n, dtype=np.int64), k, eps, g),
                claim,
                "grr sampler",
                events=value_events(range(k)),
            ),
            true_epsilon=eps,
            note="grr_privatise on inputs 0 and 1, events {output = v}",
        )
    )
    return out


# ---------------------------------------------------------------------------------------- planted bugs
def _planted_entries() -> list[CatalogEntry]:
    out: list[CatalogEntry] = []
    bugs = {
        "laplace-scale-epsilon": laplace_scale_epsilon,
        "laplace-half-sensitivity": laplace_half_sensitivity,
    }
    for bug, func in bugs.items():
        for eps in (0.5, 2.0) if bug == "laplace-scale-epsilon" else (0.5, 1.0):
            claim = planted_claim(bug, eps)
            true = planted_true_epsilon(bug, eps)
            out.append(
                CatalogEntry(
                    f"{bug}, eps={eps:g}",
                    "planted",
                    "planted bug",
                    claim,
                    empirical_runner(
                        lambda n, g, e=eps, f=func: f(0.0, 1.0, e, g, size=n),
                        lambda n, g, e=eps, f=func: f(1.0, 1.0, e, g, size=n),
                        claim,
                        bug,
                    ),
                    expected="violated" if true > eps else "holds",
                    true_epsilon=true,
                    note="f(D) = 0, f(D') = 1",
                )
            )
    k = 4
    for eps in (0.5, 1.0):
        claim = planted_claim("grr-wrong-keep", eps, k=k)
        p, q = grr_wrong_keep_probabilities(k, eps)
        out.append(
            CatalogEntry(
                f"grr-wrong-keep k={k}, eps={eps:g}",
                "planted",
                "planted bug",
                claim,
                exact_runner(grr_distributions(p, q, k), claim, "grr-wrong-keep"),
                expected="violated",
                true_epsilon=planted_true_epsilon("grr-wrong-keep", eps, k=k),
            )
        )
    eps = 1.0
    claim = planted_claim("grr-wrong-keep", eps, k=k)
    out.append(
        CatalogEntry(
            f"grr-wrong-keep k={k} sampler, eps=1",
            "planted",
            "planted bug",
            claim,
            empirical_runner(
                lambda n, g: grr_wrong_keep(np.zeros(n, dtype=np.int64), k, eps, g),
                lambda n, g: grr_wrong_keep(np.ones(n, dtype=np.int64), k, eps, g),
                claim,
                "grr-wrong-keep sampler",
                events=value_events(range(k)),
            ),
            expected="violated",
            true_epsilon=planted_true_epsilon("grr-wrong-keep", eps, k=k),
        )
    )
    return out


# ------------------------------------------------------------------------------------ floating point
def _floating_entries() -> list[CatalogEntry]:
    eps, bound = 1.0, 100.0
    event = low_bit_event()
    claim = PrivacyClaim("Laplace mechanism (numpy sampler)", "add-remove", "L1 sensitivity 1", eps)
    sclaim = snapping_claim(eps, 1.0, bound)
    return [
        CatalogEntry(
            "Laplace mechanism, numpy floats, low-bit event",
            "core",
            "as-written",
            claim,
            empirical_runner(
                lambda n, g: laplace_mechanism(0.0, 1.0, eps, g, size=n),
                lambda n, g: laplace_mechanism(1.0, 1.0, eps, g, size=n),
                claim,
                "laplace (floating point)",
                events=[event],
            ),
            expected="violated",
            true_epsilon=math.inf,
            note="Mironov (CCS 2012): outputs in (0, 0.5) off the 2^-53 grid are impossible from f(D') = 1",
        ),
        CatalogEntry(
            "Snapping Laplace, low-bit event",
            "core",
            "hardened",
            sclaim,
            empirical_runner(
                lambda n, g: snapping_laplace(0.0, 1.0, eps, bound, g, size=n),
                lambda n, g: snapping_laplace(1.0, 1.0, eps, bound, g, size=n),
                sclaim,
                "snapping (floating point)",
                events=[event],
            ),
            true_epsilon=snapping_epsilon(eps, 1.0, bound),
            note="dpcompendium.audit.snapping_laplace, B = 100",
        ),
        CatalogEntry(
            "Snapping Laplace, intervals",
            "core",
            "hardened",
            sclaim,
            empirical_runner(
                lambda n, g: snapping_laplace(0.0, 1.0, eps, bound, g, size=n),
                lambda n, g: snapping_laplace(1.0, 1.0, eps, bound, g, size=n),
                sclaim,
                "snapping",
            ),
            true_epsilon=snapping_epsilon(eps, 1.0, bound),
            note="dpcompendium.audit.snapping_laplace, B = 100",
        ),
    ]


# ------------------------------------------------------------------------------------------- registry
#: chapter id → (module it needs, builder of its entries).
_BUILDERS: dict[str, tuple[str | None, str]] = {
    "core": (None, "_core_entries"),
    "planted": (None, "_planted_entries"),
    "floating-point": (None, "_floating_entries"),
}


def _builders() -> dict[str, tuple[str | None, Callable[[], list[CatalogEntry]]]]:
    from . import adapters

    out = {k: (mod, globals()[fn]) for k, (mod, fn) in _BUILDERS.items()}
    for chapter, (module, fn) in adapters.BUILDERS.items():
        out[chapter] = (module, getattr(adapters, fn))
    return out


def _importable(module: str | None) -> bool:
    if module is None:
        return True
    try:
        importlib.import_module(module)
    except ImportError:
        return False
    return True


def missing_chapters() -> list[str]:
    """Chapters whose module cannot be imported (their mechanisms are left out of the catalogue)."""
    return [ch for ch, (mod, _) in _builders().items() if not _importable(mod)]


def catalog(chapters: Iterable[str] | None = None) -> list[CatalogEntry]:
    """Every catalogue entry of the given chapters (default: all whose module is importable), in book order."""
    builders = _builders()
    wanted = list(builders) if chapters is None else list(chapters)
    for ch in wanted:
        if ch not in builders:
            raise ValueError(f"chapters must be among {'|'.join(builders)}, got {ch!r}")
    entries: list[CatalogEntry] = []
    for ch in wanted:
        module, build = builders[ch]
        if _importable(module):
            entries.extend(build())
    return entries


def _row(entry: CatalogEntry, n_samples: int, confidence: float, rng: np.random.Generator) -> dict:
    n = min(n_samples, entry.max_samples) if entry.max_samples else n_samples
    res = entry.run(n, confidence, rng)
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
    entries: list[CatalogEntry] | None = None,
    *,
    n_samples: int = 1_000_000,
    confidence: float = 0.95,
    seed: int = 0,
    n_jobs: int = 1,
) -> pd.DataFrame:
    """Audit every entry; one row per entry with the columns of :data:`COLUMNS` (the chapter's ``audit.csv``)."""
    entries = catalog() if entries is None else list(entries)
    n_samples = check_int(n_samples, "n_samples", minimum=20)
    if not entries:
        raise ValueError("entries must hold at least one CatalogEntry, got none")

    def one(index: int, rng: np.random.Generator) -> dict:
        return _row(entries[index], n_samples, confidence, rng)

    runs = sweep(
        one, {"index": list(range(len(entries)))}, reps=1, seed=seed, n_jobs=n_jobs, progress=False
    )
    return runs[COLUMNS].reset_index(drop=True)
