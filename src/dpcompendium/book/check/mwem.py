"""``dpcompendium check mwem TARGET``: a student's MWEM on the course's data, beside the course and the book.

The student's function has the signature ::

    mwem(histogram, workload, epsilon, rounds, rng) -> synthetic histogram

- ``histogram``: float array of shape (K,) — the course's 1-D histogram (14 age bins, n = 1 013 184 records,
  :func:`dpcompendium.chapters.mwem.report_histogram`);
- ``workload``: int array of shape (m, 2); row j = (lo_j, hi_j) is the *inclusive* bin range of range query j,
  whose answer is ``histogram[lo_j : hi_j + 1].sum()`` — the course's 60 queries
  (:func:`dpcompendium.chapters.mwem.report_queries_1d`);
- ``epsilon``: the total budget; ``rounds``: T (the course uses T = 30); ``rng``: a ``numpy.random.Generator``,
  the only source of randomness;
- returns the synthetic histogram, an array of shape (K,).

Optional: if the module also defines ``<function>_measure(histogram, query, epsilon, rounds, rng[, size])``
returning q(histogram) + noise for one query ``(lo, hi)``, that measurement step is audited
(:func:`dpcompendium.book.usercode.audit_callable`) at ε = 1, T = 5 against its per-round claim ε/(2T) = 0.1, on a
histogram over the course's bins (10 records each) and a replace-one neighbour (one record moved from the first
bin of the narrowest query to a bin outside it).

The check runs the function ``reps`` times per ε of the course's table (ε ∈ {0.1, 1, 5, 10}), and the book's
``coursework`` and ``standard`` variants (:func:`dpcompendium.chapters.mwem.mwem_sweep`, 20 MW passes) as many times,
and reports per (ε, metric): the averages; the chapter's comparison with the course's reference (bootstrap
interval, relative difference, two-sample z: :func:`dpcompendium.chapters.mwem.compare_with_reference`) and
"within 10 %", both for orientation; and, against each of the book's variants, the equivalence test of
:mod:`dpcompendium.book.check.equivalence` — per cell, log(1 + error) compared: *within the margin* (a ratio of
geometric means within 1.1, or 0.75 of the variant's own run-to-run standard deviation on that scale, whichever is
larger) when the 95 % Welch interval lies inside it (two one-sided tests), *differs* when the Welch test of no
difference rejects after Holm's correction over the 16 cells. The verdict is one of "matches the paper's MWEM" (every
cell within the margin of the ``standard`` variant), "matches the course's variant" (of the ``coursework`` variant),
"differs from both …" (each shows a difference) or "too few runs to tell (about N runs per epsilon would: --reps
N)", N from the spreads of these runs (:func:`~dpcompendium.book.check.equivalence.runs_needed`): a verdict never
says "matches" unless the runs could have shown a difference of the margin's size. When the measurement step is
audited as violated, the verdict is that privacy failure ("measurement step VIOLATED: ε ≥ … for a claimed 0.1"), and
it is the first line.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from types import ModuleType

import numpy as np
import pandas as pd

from ...chapters.mwem import (
    METRICS,
    compare_with_reference,
    mwem_sweep,
    reference_errors,
    report_histogram,
    report_queries_1d,
    summarize_runs,
    workload_errors,
)
from ...core.validation import check_int
from ..usercode import InputPair, UserCodeError, audit_callable
from . import Check, CheckReport, register
from .equivalence import (
    LEVEL,
    RELATIVE_MARGIN,
    SPREAD_MARGIN,
    classify,
    compare_cell,
    family_verdict,
    runs_needed,
)

__all__ = ["COURSE_EPSILONS", "COURSE_ROUNDS", "check_mwem", "course_workload"]

COURSE_EPSILONS = (0.1, 1.0, 5.0, 10.0)
COURSE_ROUNDS = 30
BOOK_PASSES = 20
#: the measurement step is audited at this (ε, T): per-round claim ε/(2T) = 0.1.
MEASURE_EPSILON, MEASURE_ROUNDS = 1.0, 5


def course_workload() -> np.ndarray:
    """The course's 60 range queries as an (m, 2) int array of inclusive bin ranges (lo, hi)."""
    q = report_queries_1d()
    return np.column_stack([q.lo[:, 0], q.hi[:, 0]]).astype(np.int64)


def _student_output(func, hist, workload, eps, rounds, rng, name) -> np.ndarray:
    try:
        out = func(hist.copy(), workload.copy(), eps, rounds, rng)
    except Exception as exc:
        raise UserCodeError(f"{name} raised {type(exc).__name__}: {exc}".splitlines()[0]) from exc
    arr = np.asarray(out, dtype=float) if np.ndim(out) else np.asarray([out], dtype=float)
    if arr.shape != hist.shape:
        raise UserCodeError(
            f"{name} must return a histogram of shape {hist.shape}, got shape {arr.shape}"
        )
    if not np.all(np.isfinite(arr)):
        raise UserCodeError(f"{name} returned a non-finite count ({arr[~np.isfinite(arr)][0]!r})")
    return arr


def _measure_audit(measure: Callable, workload: np.ndarray, k: int, samples: int, seed: int):
    """Audit ``measure`` at (ε, T) = (1, 5) on a replace-one pair of small histograms over the course's K bins:
    10 records per bin vs one record moved from the first bin of the narrowest query to a bin outside it (the
    measurement's privacy does not depend on the histogram, and a small one keeps the neighbour check cheap)."""
    hist = np.full(k, 10.0)
    widths = workload[:, 1] - workload[:, 0]
    j = int(np.argmin(np.where(widths < k - 1, widths, np.iinfo(np.int64).max)))
    lo, hi = (int(v) for v in workload[j])
    outside = hi + 1 if hi + 1 < k else lo - 1
    neighbour = hist.copy()
    neighbour[lo] -= 1
    neighbour[outside] += 1
    query = (lo, hi)
    if "size" in inspect.signature(measure).parameters:

        def step(data, rng, size=None):
            return measure(data, query, MEASURE_EPSILON, MEASURE_ROUNDS, rng, size=size)
    else:

        def step(data, rng):
            return measure(data, query, MEASURE_EPSILON, MEASURE_ROUNDS, rng)

    step.__name__ = getattr(measure, "__name__", "measure")

    def records(h):  # the raw dataset behind a histogram: one bin index per record
        return np.repeat(np.arange(k), np.asarray(h, dtype=np.int64)).astype(float)

    def counts(d):
        return np.bincount(np.asarray(d, dtype=np.int64), minlength=k).astype(float)

    name = f"10 per bin vs one record moved from bin {lo} to bin {outside}"
    pair = InputPair(
        name, hist, neighbour, records(hist), records(neighbour), "replace-one", counts
    )
    return audit_callable(
        step,
        epsilon=MEASURE_EPSILON / (2 * MEASURE_ROUNDS),
        neighbours="replace-one",
        pair=pair,
        samples=samples,
        seed=seed,
    )


#: The check's verdicts on the implementation (the privacy verdict, when the measurement step fails, comes first),
#: by the families' verdicts (:func:`dpcompendium.book.check.equivalence.family_verdict`) against the book's
#: ``standard`` (the paper's MWEM) and ``coursework`` (the course's variant) runs.
PAPER, COURSE = "the paper's MWEM", "the course's variant"
TOO_FEW = "too few runs to tell"
#: The book's variants the student's runs are compared with: column suffix → (variant, what it is).
VARIANTS = {"standard": ("standard", PAPER), "coursework": ("coursework", COURSE)}


def verdict_of(standard: str, coursework: str) -> str:
    """One verdict from the two families' (``same``/``differs``/``undetermined``): *matches* one (or both) when its
    every cell is within the margin, *differs from both* when each shows a difference, else *too few runs to tell*
    (the caller adds the runs that would)."""
    if standard == "same" and coursework == "same":
        return f"matches both {PAPER} and {COURSE}"
    if standard == "same":
        return f"matches {PAPER}"
    if coursework == "same":
        return f"matches {COURSE}"
    if standard == "differs" and coursework == "differs":
        return f"differs from both {PAPER} and {COURSE}"
    return TOO_FEW


def _comparison_table(runs: pd.DataFrame, cmp_student: pd.DataFrame, cmp_book: pd.DataFrame):
    """One row per (ε, metric): the averages; per book variant (``standard``, ``coursework``) the equivalence test
    of :mod:`dpcompendium.book.check.equivalence` (the log-scale difference ``d_<v>``, its 95 % interval, the margin,
    the p-value of no difference, and the cell's state ``same``/``differs``/``undetermined``); the chapter's
    two-sample z against the course's table and "within 10 %" (both reported, neither part of the verdict)."""
    rows, sds = [], []
    for _, r in cmp_student.iterrows():
        e, metric = r["epsilon"], r["metric"]

        def values(variant, e=e, metric=metric):
            return runs[(runs.variant == variant) & (runs.epsilon == e)][metric].to_numpy()

        xs = values("student")
        zb_ref = cmp_book[(cmp_book.epsilon == e) & (cmp_book.metric == metric)][
            "z_two_sample"
        ].iloc[0]
        row = {
            "epsilon": e, "metric": metric, "student": xs.mean(), "book_coursework": values("coursework").mean(),
            "book_standard": values("standard").mean(), "reference": r["reference"],
            "rel_diff_reference": r["rel_diff"], "within_10pct_not_a_test": bool(r["within_tolerance"]),
            "z_student_vs_reference": r["z_two_sample"], "z_book_vs_reference": zb_ref,
        }  # fmt: skip
        sd = {"student": float(np.std(np.log1p(xs), ddof=1))}
        for v, (variant, _) in VARIANTS.items():
            xv = values(variant)
            c = compare_cell(xs, xv)
            row |= {f"d_{v}": c["d"], f"ci_low_{v}": c["lo"], f"ci_high_{v}": c["hi"],
                    f"margin_{v}": c["m"], f"p_{v}": c["p"], f"within_{v}": c["within"]}  # fmt: skip
            sd[v] = float(np.std(np.log1p(xv), ddof=1))
        rows.append(row)
        sds.append(sd)
    table = pd.DataFrame(rows)
    for v in VARIANTS:
        cells = table[[f"p_{v}", f"within_{v}"]].rename(
            columns={f"p_{v}": "p", f"within_{v}": "within"}
        )
        table[f"cell_{v}"] = classify(cells)
    return table, pd.DataFrame(sds)


def _match_verdict(
    comparison: pd.DataFrame, sds: pd.DataFrame, reps: int
) -> tuple[str, list[str], int | None]:
    """The verdict (:func:`verdict_of`), one line per book variant with its counts and statistics, and the runs
    that would tell when the verdict is :data:`TOO_FEW` (else None)."""
    m = len(comparison)
    families = {v: family_verdict(comparison[f"cell_{v}"]) for v in VARIANTS}
    verdict = verdict_of(families["standard"], families["coursework"])
    needed = None
    if verdict == TOO_FEW:
        needed = max(
            runs_needed(sds["student"], sds[v], comparison[f"margin_{v}"])
            for v, fam in families.items()
            if fam == "undetermined"
        )
        needed = max(needed, reps + 1)
        verdict = f"{TOO_FEW} (about {needed} runs per epsilon would: --reps {needed})"
    lines = []
    for v, (_, label) in VARIANTS.items():
        state = comparison[f"cell_{v}"]
        n_same, n_diff = int((state == "same").sum()), int((state == "differs").sum())
        word = {"same": "matches", "differs": "differs from", "undetermined": f"{TOO_FEW} about"}[
            families[v]
        ]
        lines.append(
            f"{word} {label} (the book's {VARIANTS[v][0]} variant): {n_same} of {m} cells within the margin, "
            f"{n_diff} differ, {m - n_same - n_diff} undetermined (largest |log ratio| "
            f"{comparison[f'd_{v}'].abs().max():.3g}, smallest margin {comparison[f'margin_{v}'].min():.3g}, "
            f"smallest p {comparison[f'p_{v}'].min():.2g})"
        )
    lines.append(
        f"the course's table (100 runs of the course's code; reported, not part of the verdict): largest |z| "
        f"{comparison.z_student_vs_reference.abs().max():.2f} (the book's coursework variant run as often: "
        f"{comparison.z_book_vs_reference.abs().max():.2f})"
    )
    return verdict, lines, needed


def _privacy_line(step: str, rep) -> tuple[str, str]:
    """(``measurement step VIOLATED: ε ≥ 8.460 for a claimed 0.1``, the same with the step's name, settings,
    confidence and pair)."""
    short = f"measurement step {rep.verdict.upper()}: ε ≥ {rep.epsilon_lower:.3f} for a claimed {rep.claimed_epsilon:g}"
    return short, (
        f"{short} ({step} at ε = {MEASURE_EPSILON:g}, T = {MEASURE_ROUNDS}; confidence {rep.confidence:.3g}; "
        f"pair {rep.pair})"
    )


def check_mwem(
    func: Callable,
    module: ModuleType | None = None,
    *,
    reps: int = 100,
    seed: int = 0,
    epsilons: Sequence[float] | None = None,
    measure: Callable | None = None,
    audit_samples: int = 100_000,
    n_jobs: int = 1,
) -> CheckReport:
    """Run ``func`` (the signature in the module doc) on the course's 1-D data and compare (module doc).

    ``module``: where to look for ``<func.__name__>_measure`` when ``measure`` is not given. Streams: the student's
    run (ε index k, repetition r) uses ``SeedSequence(seed)`` child 0 → child k → child r; the book's variants child
    1; the bootstrap child 2; the measurement audit seed ``seed``.
    """
    reps = check_int(reps, "reps", minimum=2)
    seed = check_int(seed, "seed", minimum=0)
    eps_list = [float(e) for e in (COURSE_EPSILONS if epsilons is None else epsilons)]
    if not eps_list or any(not (e > 0) for e in eps_list):
        raise ValueError(f"epsilons must be a non-empty list of values > 0, got {list(epsilons)!r}")
    if not callable(func):
        raise ValueError(f"func must be callable, got {func!r}")
    name = getattr(func, "__name__", "mwem")
    hist, queries = report_histogram(1), report_queries_1d()
    workload = course_workload()
    ss_student, ss_book, ss_boot = np.random.SeedSequence(seed).spawn(3)
    # run (ε index k, repetition r) draws from child r of child k of ss_student
    run_seeds = [ss.spawn(reps) for ss in ss_student.spawn(len(eps_list))]

    def run(k: int, r: int) -> np.ndarray:
        # default_rng(SeedSequence) only calls generate_state: the same run can be drawn twice
        g = np.random.default_rng(run_seeds[k][r])
        return _student_output(func, hist, workload, eps_list[k], COURSE_ROUNDS, g, name)

    first = run(0, 0)
    if not np.array_equal(first, run(0, 0)):  # reproducibility: the first run twice from one seed
        raise UserCodeError(
            f"{name} is not reproducible: two calls with the same seed gave different histograms — draw all "
            "randomness from the rng argument"
        )
    rows = []
    for k, eps in enumerate(eps_list):
        outs = np.stack([first if (k == 0 and r == 0) else run(k, r) for r in range(reps)])
        errs = workload_errors(outs, hist, queries)
        rows.append(
            pd.DataFrame({"variant": "student", "epsilon": eps, "rep": np.arange(reps), **errs})
        )
    student = pd.concat(rows, ignore_index=True)
    book = mwem_sweep(hist, queries, eps_list, COURSE_ROUNDS, variants=("coursework", "standard"),
                      passes=BOOK_PASSES, reps=reps, seed=ss_book, n_jobs=n_jobs).runs  # fmt: skip
    runs = pd.concat([student, book[["variant", "epsilon", "rep", *METRICS]]], ignore_index=True)
    ref = reference_errors(1)
    ref = ref[np.isin(np.round(ref.epsilon, 9), np.round(eps_list, 9))]
    errors = pd.concat(
        [
            summarize_runs(runs),
            ref.assign(variant="course reference", reps=100)[
                ["variant", "epsilon", "reps", *METRICS]
            ],
        ],
        ignore_index=True,
    )
    boot = np.random.default_rng(ss_boot)
    cmp_student = compare_with_reference(runs, ref, boot, variant="student")
    cmp_book = compare_with_reference(runs, ref, boot, variant="coursework")
    comparison, sds = _comparison_table(runs, cmp_student, cmp_book)
    m_cells = len(comparison)
    verdict, match_lines, needed = _match_verdict(comparison, sds, reps)
    lines = [
        f"{reps} runs per epsilon of the course's 1-D data (T = {COURSE_ROUNDS}, {len(workload)} queries), as many "
        f"of each of the book's variants; per cell (epsilon, metric) the log(1 + error) means compared: within the "
        f"margin (a ratio within {1 + RELATIVE_MARGIN:g} or {SPREAD_MARGIN:g} of the variant's run-to-run standard "
        f"deviation, whichever is larger) when the 95 % interval is (TOST), differs when the Welch test says so "
        f"(Holm over the {m_cells} cells, level {LEVEL:g})",
        *match_lines,
        f"within 10 % of the reference (orientation only, not a test): "
        f"{int(comparison.within_10pct_not_a_test.sum())} of {m_cells}",
    ]
    audits = {}
    if measure is None and module is not None:
        measure = getattr(module, f"{name}_measure", None)
    if measure is not None:
        rep = _measure_audit(measure, workload, hist.size, audit_samples, seed)
        step = getattr(measure, "__name__", "measure")
        audits[step] = rep
        short, privacy = _privacy_line(step, rep)
        if rep.verdict == "violated":  # a privacy failure is the verdict, and its first line
            lines.insert(0, f"{privacy}; the errors: {verdict}")
            verdict = short
        else:
            lines.append(privacy)
    else:
        lines.append(f"no {name}_measure in the module: measurement step not audited")

    def figure():
        from matplotlib.figure import Figure

        fig = Figure(figsize=(7, 3.8))
        ax = fig.subplots()
        for v, style in (("student", "o-"), ("coursework", "s--"), ("standard", "^:")):
            sub = errors[errors.variant == v]
            ax.plot(
                sub.epsilon, sub.mean_error, style, label=f"{v}" if v == "student" else f"book {v}"
            )
        ax.plot(ref.epsilon, ref.mean_error, "k*", ms=10, label="course reference")
        ax.set(xscale="log", yscale="log", xlabel="epsilon", ylabel="mean absolute error",
               title=f"{name}: 1-D, T = {COURSE_ROUNDS}, {reps} runs")  # fmt: skip
        ax.legend(fontsize=9)
        fig.tight_layout()
        return fig

    return CheckReport(
        check="mwem", function=name, verdict=verdict, lines=lines,
        tables={"errors": errors, "comparison": comparison, "runs": runs}, audits=audits, figure=figure,
        settings={"reps": reps, "seed": seed, "epsilons": eps_list, "rounds": COURSE_ROUNDS, "book_passes": BOOK_PASSES,
                  "runs_needed": needed},
    )  # fmt: skip


register(
    Check(
        name="mwem",
        summary="a student's MWEM on the course's 1-D data, beside the course reference and the book's variants",
        signature="mwem(histogram, workload, epsilon, rounds, rng) -> synthetic histogram",
        run=lambda func, module=None, *, reps=100, seed=0, **kw: check_mwem(
            func, module, reps=reps, seed=seed, **kw
        ),
        function="mwem",
        calls_per_rep=len(COURSE_EPSILONS),
    )
)
