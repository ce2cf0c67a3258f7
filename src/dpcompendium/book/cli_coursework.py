"""Coursework subcommands of ``dpcompendium``: audit your own mechanism, check your own MWEM::

    dpcompendium audit TARGET --epsilon E [--delta D] --neighbours replace-one|add-remove|local|queries|monotone|one-query
                       [--sensitivity S [--norm linf|l1]]
                       (--input FAMILY | --pair 'YAML_D' 'YAML_D2') [-p NAME VALUE]... [--samples N]
                       [--confidence 0.95] [--seed S] [--out DIR] [--overwrite]
                       [--chunk-size C [--n-jobs J | --scheduler ADDRESS|local:N]]
    dpcompendium check NAME TARGET [--reps N] [--seed S] [--out DIR] [--overwrite]

TARGET is ``path/to/file.py:function`` or ``module:function`` (for ``check``, ``path/to/file.py`` alone uses the
check's default function name). Everything is validated, and the audit or check run, before anything is written;
misbehaving user code (raises, NaN, ignores ``rng``) and bad options end with a one-line error and exit status 2.
A completed audit or check exits with 0 whatever its verdict (the verdict is printed and written to report.md).
``--neighbours`` is required for dataset and histogram inputs and a pair of datasets (no default: a replace-one
claim audited as add-remove, or the reverse, gives a wrong verdict); the verdict line names the relation.
``--chunk-size C`` counts the audit's evaluation samples in chunks of C (10^8+ samples in bounded memory), and runs
the selection as one task per candidate pair, over ``--n-jobs`` processes or on a Dask cluster (``--scheduler``, else
``$DPCOMPENDIUM_SCHEDULER``); the report depends on C, never on where the tasks ran. An ``--out`` folder that holds an
earlier audit's or check's report is refused before anything runs unless ``--overwrite`` (as ``dpcompendium run``
refuses an earlier run's results).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

import yaml

__all__ = ["add_coursework_commands", "cmd_audit", "cmd_check"]


def _yaml(raw: str, what: str) -> Any:
    from .cliutil import YamlLoader as _Loader

    try:
        return yaml.load(raw, Loader=_Loader)  # a SafeLoader
    except yaml.YAMLError as exc:
        raise ValueError(f"{what}: value {raw!r} is not valid YAML") from exc


def _out_dir(out: str | None, default: str) -> Path:
    """``--out`` checked up front (:func:`dpcompendium.book.preflight.check_out_dir`: a writable folder, or one
    that can be made in an existing writable folder); the default ``results/NAME`` may create ``results``."""
    from .preflight import check_out_dir

    if out is not None:
        return check_out_dir(out)
    base = check_out_dir(Path(default).parent)
    return check_out_dir(base / Path(default).name) if base.exists() else base / Path(default).name


#: The files an audit's report writes into its folder (``AuditReport.save``).
AUDIT_REPORT_FILES = ("report.csv", "report.md", "report.png", "pair.json")


#: The files a check's report writes into its folder (``CheckReport.save``), besides its tables (``*.csv``; their
#: names depend on the check and are known only once it has run).
CHECK_REPORT_FILES = ("report.md", "report.png")


def _refuse_earlier_report(
    out: Path, overwrite: bool, files: tuple[str, ...] = AUDIT_REPORT_FILES, what: str = "audit"
) -> None:
    """``out`` holding an earlier report (any of ``files``, or for a check any CSV table) is refused unless
    ``overwrite``: a second audit or check never replaces the first one's report silently (issue 45)."""
    found = [name for name in files if (out / name).exists()]
    if what == "check" and out.is_dir():
        found += sorted(p.name for p in out.glob("*.csv"))
    if found and not overwrite:
        shown = ", ".join(found[:4]) + (f" and {len(found) - 4} more" if len(found) > 4 else "")
        raise ValueError(
            f"--out {out} holds an earlier {what}'s report ({shown}): add --overwrite to replace it, "
            "or choose another --out"
        )


def _as_input(value: Any) -> Any:
    import numpy as np

    return np.asarray(value, dtype=float) if isinstance(value, list) else value


def _require_neighbours(family: str | None, pair: Any, neighbours: str | None) -> None:
    """``--neighbours`` is required where a relation is a choice: dataset and histogram inputs, a pair of
    datasets (one-value inputs — scalar, ldp, category, a pair of scalars — are ``local``)."""
    import numpy as np

    if neighbours is not None or (family or "").partition(":")[0].strip() == "queries":
        return
    if family is not None and family.partition(":")[0].strip() in ("dataset", "histogram"):
        raise ValueError(
            f"--neighbours is required with --input {family}: replace-one (n public) or add-remove"
        )
    if pair is not None and any(np.ndim(x) > 0 for x in pair):
        raise ValueError(
            "--neighbours is required with a --pair of datasets: replace-one (n public) or add-remove"
        )


#: The arguments of ``audit_callable`` that ``audit`` passes on as given, by option: the claim, validated once (by
#: the claim ``audit_callable`` makes, before anything runs); its messages name them as the user typed them.
_AUDIT_OPTIONS = {"epsilon": "--epsilon", "delta": "--delta"}


def _as_option(message: str) -> str:
    """A message of ``audit_callable`` about one of :data:`_AUDIT_OPTIONS` ("epsilon must be ..."), naming the
    option instead ("--epsilon must be ...")."""
    head, _, rest = message.partition(" ")
    return (
        f"{_AUDIT_OPTIONS[head]} {rest}"
        if head in _AUDIT_OPTIONS and rest.startswith("must ")
        else message
    )


def cmd_audit(args: argparse.Namespace) -> int:
    from ..core.audit.spec import QUERY_RELATIONS
    from ..core.parallel import SCHEDULER_ENV, resolve_scheduler, tasks_computed, using_scheduler
    from ..core.validation import check_int
    from .cliutil import fail as _fail
    from .processes import set_target
    from .progress import CallMeter, TooLong, too_long_message
    from .usercode import audit_callable, input_pairs, load_module, load_target
    from .usercode.families import family_coverage

    try:
        samples = check_int(args.samples, "--samples", minimum=200)
        chunk = None
        if args.chunk_size is not None:
            chunk = check_int(args.chunk_size, "--chunk-size", minimum=10)
            if chunk > samples:
                raise ValueError(f"--chunk-size must be <= --samples ({samples}), got {chunk}")
        n_jobs = check_int(args.n_jobs, "--n-jobs", minimum=-1)
        if n_jobs == 0:
            raise ValueError("--n-jobs must be >= 1 or -1 (all cores), got 0")
        spec = resolve_scheduler(args.scheduler)
        if chunk is None and args.scheduler is not None:
            raise ValueError(
                "--scheduler needs --chunk-size C: without it the audit runs in memory, in this process"
            )
        if chunk is None and spec is not None:
            print(
                f"note: ${SCHEDULER_ENV} is not used without --chunk-size (the audit runs in memory)"
            )
            spec = None
        check_int(args.seed, "--seed", minimum=0)
        if not (0.0 < args.confidence < 1.0):
            raise ValueError(f"--confidence must be in (0, 1), got {args.confidence!r}")
        if (args.input is None) == (args.pair is None):
            raise ValueError("give exactly one of --input FAMILY and --pair 'YAML_D' 'YAML_D2'")
        pair = None
        if args.pair is not None:
            pair = tuple(_as_input(_yaml(v, "--pair")) for v in args.pair)
        _require_neighbours(args.input, pair, args.neighbours)
        neighbours = args.neighbours
        if args.input is not None and args.input.partition(":")[0].strip() == "queries":
            neighbours = neighbours or "queries"
        queries = neighbours in QUERY_RELATIONS
        if queries and args.sensitivity is None:
            raise ValueError(
                f"--sensitivity is required with --neighbours {neighbours} (each answer moves by at most it)"
            )
        if not queries and args.sensitivity is not None:
            raise ValueError(
                f"--sensitivity applies to --neighbours {'|'.join(QUERY_RELATIONS)} only, got --neighbours "
                f"{neighbours}"
            )
        kw = {"sensitivity": args.sensitivity, "norm": args.norm} if queries else {}
        n_inputs = 2
        if args.input is not None:
            n_inputs = family_coverage(input_pairs(args.input, neighbours, neighbour_kw=kw))[
                "inputs"
            ]
        params = {name: _yaml(raw, f"parameter {name}") for name, raw in (args.parameter or [])}
        func = load_target(args.target)
        out = _out_dir(args.out, f"results/audit-{func.__name__}")
        _refuse_earlier_report(out, args.overwrite)
        pmf = None
        if not args.no_exact:
            module = load_module(args.target.rpartition(":")[0])
            pmf = getattr(module, f"{func.__name__}_pmf", None)
        set_target(out)
        # the samples the audit draws: half of them per distinct candidate input to choose the event, then all of
        # them per input of the chosen pair (dpcompendium.book.progress: progress and the time limit)
        sel = min(samples // 2, chunk or samples)
        meter = CallMeter(
            f"audit {func.__name__}", n_inputs * sel + 2 * samples, limit_s=args.time_limit
        )
        with (
            using_scheduler(spec) as cluster,
            meter,
        ):  # local:N: a LocalCluster for the audit's duration
            report = audit_callable(
                meter.wrap(func), epsilon=args.epsilon, delta=args.delta, neighbours=neighbours, inputs=args.input, pair=pair,
                params=params, samples=samples, confidence=args.confidence, seed=args.seed, pmf=pmf,
                chunk_size=chunk, n_jobs=n_jobs, sensitivity=args.sensitivity, norm=args.norm,
            )  # fmt: skip
            if cluster is not None:  # the cluster did the counting (0 tasks: nothing used it)
                n = tasks_computed(cluster.scheduler)
                print(f"dpcompendium: Dask cluster {spec} computed {n} tasks", file=sys.stderr)
    except ValueError as exc:  # includes UserCodeError
        return _fail(_as_option(str(exc)))
    except TooLong as exc:
        return _fail(
            too_long_message(
                exc,
                "the audit",
                f"shorten it with --samples (now {samples}), or spread it over processes with --chunk-size C "
                "--n-jobs J (or over a Dask cluster with --chunk-size C --scheduler ADDRESS|local:N)",
            )
        )
    if not report.batched:
        print(f"note: {func.__name__} has no size parameter; it was called once per sample (slow)")
    if report.coverage:
        print(f"note: {report.coverage}")
    for note in report.notes:
        print(f"note: {note}")
    for alert in report.warnings:
        print(f"warning: {alert}")
    print(report.summary())
    paths = report.save(out)
    print(f"wrote {', '.join(p.name for p in paths)} to {out}")
    return 0


def cmd_check(args: argparse.Namespace) -> int:
    from ..core.validation import check_int
    from .check import get_check
    from .cliutil import fail as _fail
    from .processes import set_target
    from .progress import CallMeter, TooLong, too_long_message
    from .usercode import load_module, load_target

    try:
        check = get_check(args.check)
        reps = check_int(
            args.reps if args.reps is not None else check.default_reps, "--reps", minimum=2
        )
        seed = check_int(args.seed, "--seed", minimum=0)
        target = (
            args.target
            if ":" in args.target.replace(":\\", "")
            else f"{args.target}:{check.function}"
        )
        func = load_target(target)
        module = load_module(target.rpartition(":")[0])
        out = _out_dir(args.out, f"results/check-{check.name}-{func.__name__}")
        _refuse_earlier_report(out, args.overwrite, CHECK_REPORT_FILES, "check")
        set_target(out)
        # the function's calls: reps per setting of the check (progress and the time limit)
        meter = CallMeter(
            f"check {func.__name__}",
            reps * check.calls_per_rep,
            limit_s=args.time_limit,
            unit="call",
        )
        with meter:
            report = check.run(meter.wrap(func), module, reps=reps, seed=seed)
    except ValueError as exc:
        return _fail(str(exc))
    except TooLong as exc:
        return _fail(too_long_message(exc, "the check", f"shorten it with --reps (now {reps})"))
    print(f"{check.name}: {func.__name__} — {report.verdict}")
    for line in report.lines:
        print(f"  {line}")
    paths = report.save(out)
    print(f"wrote {len(paths)} files to {out}")
    return 0


def _add_report_options(parser: argparse.ArgumentParser, kind: str, default_out: str) -> None:
    """``--seed``, ``--out`` and ``--overwrite``, the options of ``audit`` and ``check`` (``kind``) that place the
    report: its default folder is ``results/<default_out>``."""
    parser.add_argument("--seed", type=int, default=0, help="root seed (default 0)")
    parser.add_argument("--out", help=f"report folder (default results/{default_out})")
    parser.add_argument(
        "--overwrite",
        action="store_true",
        help=f"replace an earlier {kind}'s report in the --out folder (refused without it)",
    )


def _add_time_limit(parser: argparse.ArgumentParser, shorten: str) -> None:
    from .progress import DEFAULT_LIMIT_S

    parser.add_argument(
        "--time-limit",
        type=float,
        default=DEFAULT_LIMIT_S,
        metavar="SECONDS",
        help=f"stop when the first calls predict more than this (default {DEFAULT_LIMIT_S:.0f}); shorten with "
        f"{shorten}",
    )


def add_coursework_commands(sub: argparse._SubParsersAction) -> None:
    """Register ``audit`` and ``check`` on the ``dpcompendium`` subcommand parser."""
    from ..core.parallel import add_scheduler_argument
    from ..core.privacy import NEIGHBOUR_RELATIONS as NEIGHBOURS
    from .check import available_checks

    audit = sub.add_parser(
        "audit",
        help="audit your own mechanism against its claimed epsilon",
        description="Audit f(data, rng, **params) against a claimed (epsilon, delta): events chosen on half the "
        "samples, epsilon bounded on the other half (Clopper-Pearson).",
    )
    audit.add_argument("target", help="path/to/file.py:function or module:function")
    audit.add_argument("--epsilon", type=float, required=True, help="the claimed epsilon")
    audit.add_argument("--delta", type=float, default=0.0, help="the claimed delta (default 0)")
    audit.add_argument(
        "--neighbours",
        choices=NEIGHBOURS,
        default=None,
        help="the neighbour relation of your claim: required for --input dataset|histogram and a --pair of "
        "datasets (replace-one: n public, one record changed; add-remove: one record added or removed); "
        "one-value inputs (scalar, ldp, category) are local; queries: vectors of query answers, each moving by at "
        "most --sensitivity (implied by --input queries:K); monotone: the same, all answers moving the same way "
        "(counts under add-remove; monotone sparse vector); one-query: exactly one answer moves (one vote, one "
        "bin). Printed in the verdict line",
    )
    audit.add_argument(
        "--sensitivity",
        type=float,
        default=None,
        metavar="S",
        help="with --neighbours queries|monotone|one-query: how far one answer moves (linf) or all answers "
        "together (l1)",
    )
    audit.add_argument(
        "--norm",
        choices=("linf", "l1"),
        default="linf",
        help="with a query relation: the norm of --sensitivity (default linf: each answer by at most S)",
    )
    audit.add_argument(
        "--input",
        metavar="FAMILY",
        help="scalar:A,B | dataset:N,A,B | histogram:K | ldp | category:K | queries:K (the worst pair is "
        "searched; queries:K tries the DP-testing literature's patterns: one up/rest down, half and half, ...)",
    )
    audit.add_argument(
        "--pair", nargs=2, metavar=("YAML_D", "YAML_D2"), help="two neighbouring inputs"
    )
    audit.add_argument(
        "-p", "--parameter", nargs=2, action="append", metavar=("NAME", "VALUE"),
        help="a keyword parameter of the function (YAML value); the function runs at its own default epsilon "
        "(delta) unless this sets it: --epsilon is the claim audited (a parameter without a default takes the "
        "claim, and the report says so)",
    )  # fmt: skip
    audit.add_argument(
        "--samples", type=int, default=200_000, help="samples per input (default 200000)"
    )
    audit.add_argument(
        "--confidence", type=float, default=0.95, help="confidence of the bound (default 0.95)"
    )
    _add_report_options(audit, "audit", "audit-FUNCTION")
    audit.add_argument(
        "--no-exact", action="store_true", help="ignore a FUNCTION_pmf and audit empirically"
    )
    audit.add_argument(
        "--chunk-size",
        type=int,
        default=None,
        metavar="C",
        help="count the evaluation samples in chunks of C (bounded memory for 10^8+ samples; the event is "
        "chosen on min(samples/2, C) samples per input); the report depends on C, not on where chunks run",
    )
    audit.add_argument(
        "--n-jobs", type=int, default=1, help="local processes counting the chunks (default 1)"
    )
    add_scheduler_argument(audit, "the chunks (with --chunk-size)")
    _add_time_limit(audit, "--samples")
    audit.set_defaults(func=cmd_audit)

    from .check import HELP

    check = sub.add_parser(
        "check",
        help="check your implementation against the course's data and the book",
        description="Run your implementation on the course's data and settings and compare it with the course's "
        "reference table and the book's variants (book/coursework.md).",
        epilog="\n\n".join(
            f"check {name}: your function (TARGET; default name {name}) must be\n  {text}"
            for name, text in HELP.items()
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    check.add_argument("check", choices=available_checks(), help="what to check")
    check.add_argument(
        "target", help="path/to/file.py:function, module:function or path/to/file.py"
    )
    check.add_argument(
        "--reps",
        type=int,
        default=None,
        help="runs per setting (default: the course's, 100); too few to tell an equivalence, the verdict says "
        "so and names the runs that would",
    )
    _add_report_options(check, "check", "check-NAME-FUNCTION")
    _add_time_limit(check, "--reps")
    check.set_defaults(func=cmd_check)
