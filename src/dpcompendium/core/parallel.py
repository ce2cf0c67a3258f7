"""Where parallel work runs: in this process's joblib pool (``n_jobs``) or on a Dask cluster.

One switch moves every sweep of the library (and so every chapter and the audits) to a Dask cluster
[book_rocklin2015dask]: the environment variable ``DPCOMPENDIUM_SCHEDULER``, set by ``dpcompendium run CHAPTER
--scheduler ADDRESS`` (papermill's kernel inherits it) or by hand before starting Python or Jupyter. Its value is

- a scheduler address, e.g. ``tcp://10.0.0.5:8786`` (``dask scheduler`` / ``dask worker ADDRESS`` started elsewhere,
  every worker with the same lock installed), or
- ``local:N``: a :class:`distributed.LocalCluster` of N worker processes (one thread each) on this machine, started
  when first needed and shut down when the process exits (the CLI starts it once for the whole chapter).

When it is set, :func:`joblib_backend` runs ``joblib.Parallel`` through joblib's Dask backend on that cluster, and
``n_jobs`` is ignored (a cluster with a single worker thread counts as one job, which joblib runs in the calling
process); unset or empty, nothing changes. Inside a Dask worker the switch is off (nested sweeps run
in the worker's process), so a task never submits to its own cluster. Results do not depend on it: every task's
random stream is a function of the seed and of the task's position only (:mod:`dpcompendium.core.rng`), so a table is
byte-identical on a cluster, with ``n_jobs=2`` or with ``n_jobs=1`` — and after Dask reruns the task of a lost worker.
"""

from __future__ import annotations

import argparse
import atexit
import functools
import os
import re
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import joblib

__all__ = [
    "ONE_BLAS_THREAD",
    "SCHEDULER_ENV",
    "add_scheduler_argument",
    "capped_jobs",
    "check_scheduler",
    "cluster_client",
    "cpu_cores",
    "joblib_backend",
    "resolve_scheduler",
    "run_tasks",
    "scheduler",
    "shutdown",
    "start_local_cluster",
    "tasks_computed",
    "using_scheduler",
    "with_scheduler",
]

#: The environment variable that sends the library's parallel work to a Dask cluster.
SCHEDULER_ENV = "DPCOMPENDIUM_SCHEDULER"

#: One BLAS/OpenMP thread: the environment of a chapter's kernel under ``dpcompendium run`` (and of make's processes).
#: The thread count is a code path too: OpenBLAS splits and sums a product differently with two threads than with
#: one, and Dask's workers and joblib's workers run one thread each, so a kernel left at the machine's default would
#: give tables that differ in their last bits between ``-p n_jobs 1`` and ``--scheduler local:2``.
ONE_BLAS_THREAD = {"OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}

_LOCAL = re.compile(r"^local:(\d+)$")
_ADDRESS = re.compile(r"^(?:[a-z][a-z0-9+.-]*://)?[^\s:/]+:\d+$|^[a-z][a-z0-9+.-]*://\S+$", re.I)
_clients: dict[str, Any] = {}  # scheduler spec -> distributed.Client (one per process)
_clusters: dict[str, Any] = {}  # "local:N" -> LocalCluster started by this process


def check_scheduler(value: str, name: str = "scheduler") -> str:
    """``value`` stripped if it is ``local:N`` (N ≥ 1) or a scheduler address (``tcp://host:port``, ``host:port``)."""
    spec = str(value).strip()
    m = _LOCAL.match(spec)
    if (m and int(m.group(1)) >= 1) or (not m and _ADDRESS.match(spec)):
        return spec
    raise ValueError(
        f"{name} must be local:N (N >= 1) or a scheduler address like tcp://host:8786, got {value!r}"
    )


def scheduler() -> str | None:
    """The scheduler ``DPCOMPENDIUM_SCHEDULER`` names, or None when unset, empty, or inside a Dask worker."""
    raw = os.environ.get(SCHEDULER_ENV, "").strip()
    if not raw or _in_dask_worker():
        return None
    return check_scheduler(raw, SCHEDULER_ENV)


def _in_dask_worker() -> bool:
    # A Dask worker has imported distributed; do not import it (slow) only to find we are not in one.
    if "distributed" not in sys.modules:
        return False
    from distributed import get_worker

    try:
        get_worker()
    except ValueError:
        return False
    return True


def _import_distributed():
    try:
        import distributed
    except ImportError as exc:  # pragma: no cover - the dask extra is not installed
        raise ImportError(
            f"{SCHEDULER_ENV} is set but dask.distributed is not installed: "
            "pip install 'dpcompendium[dask]' (the lock has it)"
        ) from exc
    return distributed


def cpu_cores() -> int:
    """CPU cores this process may run on (its affinity mask, else ``os.cpu_count()``)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


def capped_jobs(n_jobs: int) -> int:
    """``n_jobs`` for a local pool, at most :func:`cpu_cores` (joblib's ``-1`` and other negatives unchanged):
    more worker processes than cores only add processes and memory (a run's numbers never depend on ``n_jobs``),
    and ``n_jobs=100000`` would start as many processes."""
    return min(n_jobs, cpu_cores()) if n_jobs > 0 else n_jobs


def start_local_cluster(n_workers: int):
    """A LocalCluster of ``n_workers`` processes with one thread each, no dashboard, scheduler on a free port.

    Its worker processes ignore SIGINT: a Ctrl-C at the terminal reaches every process of the foreground group,
    and workers still importing would print its traceback; the process that started the cluster ends them
    (``cluster.close()``, or :func:`dpcompendium.book.processes.end_descendants` after an interrupt). An ignored
    signal is inherited by the processes started meanwhile (a handler is not), so SIGINT is ignored here while the
    cluster starts, a few seconds."""
    import signal
    import threading

    distributed = _import_distributed()
    n_workers = capped_jobs(n_workers)
    main = threading.current_thread() is threading.main_thread()
    old = signal.signal(signal.SIGINT, signal.SIG_IGN) if main else None
    try:
        return distributed.LocalCluster(
            n_workers=n_workers,
            threads_per_worker=1,
            processes=True,
            dashboard_address=None,
            scheduler_port=0,
        )
    finally:
        if old is not None:
            signal.signal(signal.SIGINT, old)


def cluster_client(spec: str | None = None):
    """The process's :class:`distributed.Client` for ``spec`` (default: :func:`scheduler`), or None.

    ``local:N`` starts a LocalCluster the first time; clients and clusters are closed when the process exits.
    """
    spec = scheduler() if spec is None else check_scheduler(spec)
    if spec is None:
        return None
    client = _clients.get(spec)
    if client is not None and client.status in ("running", "connecting"):
        return client
    distributed = _import_distributed()
    m = _LOCAL.match(spec)
    if m:
        cluster = _clusters.get(spec)
        if cluster is None or cluster.status.name != "running":
            cluster = _clusters[spec] = start_local_cluster(int(m.group(1)))
        client = distributed.Client(cluster, set_as_default=False)
    else:
        client = distributed.Client(spec, set_as_default=False)
    _clients[spec] = client
    return client


@atexit.register
def shutdown() -> None:
    """Close the clients (and the ``local:N`` clusters) this process opened; called at exit."""
    for client in _clients.values():
        client.close()
    for cluster in _clusters.values():
        cluster.close()
    _clients.clear()
    _clusters.clear()


@contextmanager
def joblib_backend(n_jobs: int) -> Iterator[int]:
    """Run the ``joblib.Parallel`` calls inside on the Dask cluster when one is configured; yields the ``n_jobs``
    to pass them (``-1`` on a cluster, where Dask decides, else ``n_jobs`` capped to the cores: :func:`capped_jobs`)::

        with joblib_backend(n_jobs) as n:
            results = joblib.Parallel(n_jobs=n)(tasks)
    """
    if (
        _in_dask_worker()
    ):  # a task of a cluster: its own nested sweeps run in its process, one at a time
        with joblib.parallel_config(backend="sequential"):
            yield 1
        return
    client = cluster_client()
    if client is None:
        yield capped_jobs(n_jobs)
        return
    with joblib.parallel_config(backend="dask", client=client):
        yield -1


def run_tasks(func: Callable, arguments: Sequence[tuple], n_jobs: int = 1) -> Iterable[Any]:
    """``func(*args)`` for every ``args`` of ``arguments``, results in that order: as futures of the Dask cluster
    when one is configured (submitted all at once, straight to the scheduler: joblib's Dask backend adds a round trip
    of its own per batch, which costs a tenth of the speed-up at 2 workers), else through ``joblib.Parallel`` with
    ``n_jobs`` (generator, every task dispatched at once). For tasks whose arguments are small (seeds, not data)."""
    client = None if _in_dask_worker() else cluster_client()
    if client is not None:
        futures = [client.submit(func, *args, pure=False) for args in arguments]
        return client.gather(futures)
    with joblib_backend(n_jobs) as n:
        parallel = joblib.Parallel(n_jobs=n, return_as="list", pre_dispatch="all")
        return parallel(joblib.delayed(func)(*args) for args in arguments)


def resolve_scheduler(flag: str | None) -> str | None:
    """The scheduler a command runs on: its ``--scheduler`` flag, else ``$DPCOMPENDIUM_SCHEDULER``, else None."""
    if flag is not None:
        return check_scheduler(flag, "--scheduler")
    raw = os.environ.get(SCHEDULER_ENV, "").strip()
    return check_scheduler(raw, SCHEDULER_ENV) if raw else None


def tasks_computed(dask_scheduler) -> int:
    """Tasks a Dask scheduler has seen finish (for ``client.run_on_scheduler`` or a LocalCluster's scheduler)."""
    return sum(tp.state_counts["memory"] for tp in dask_scheduler.task_prefixes.values())


@contextmanager
def using_scheduler(spec: str | None) -> Iterator[Any]:
    """For the command line: set ``DPCOMPENDIUM_SCHEDULER`` for the duration, so that child processes (papermill's
    kernel) send their sweeps to the cluster. ``local:N`` starts a LocalCluster here, for the whole block, exports its
    address and yields it (else yields None); it is shut down on exit. ``spec=None`` changes nothing."""
    if spec is None:
        yield None
        return
    spec = check_scheduler(spec)
    old = os.environ.get(SCHEDULER_ENV)
    m = _LOCAL.match(spec)
    cluster = start_local_cluster(int(m.group(1))) if m else None
    try:
        os.environ[SCHEDULER_ENV] = cluster.scheduler_address if cluster is not None else spec
        yield cluster
    finally:
        if old is None:
            os.environ.pop(SCHEDULER_ENV, None)
        else:
            os.environ[SCHEDULER_ENV] = old
        if cluster is not None:
            client = _clients.pop(
                cluster.scheduler_address, None
            )  # this process's client to it, if any
            if client is not None:
                client.close()
            cluster.close()


def _argparse_scheduler(value: str) -> str:
    try:
        return check_scheduler(value, "--scheduler")
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def add_scheduler_argument(parser: argparse.ArgumentParser, what: str = "the sweeps") -> None:
    """Add ``--scheduler ADDRESS|local:N`` to a subcommand (``run``, ``audit``); use with :func:`using_scheduler`.
    ``what`` names the work sent to the cluster in the help text."""
    parser.add_argument(
        "--scheduler",
        type=_argparse_scheduler,
        default=None,
        metavar="ADDRESS",
        help=(
            f"run {what} on a Dask cluster: a scheduler address (tcp://host:8786) or local:N for N worker "
            f"processes on this machine (default: ${SCHEDULER_ENV}, else no cluster)"
        ),
    )


def with_scheduler(
    command: Callable[[argparse.Namespace], int],
) -> Callable[[argparse.Namespace], int]:
    """Wrap a subcommand (``run``, ``audit``): its ``--scheduler`` (else ``$DPCOMPENDIUM_SCHEDULER``) is in force,
    through :func:`using_scheduler`, while it runs; a bad value is a one-line error (exit code 2)."""

    @functools.wraps(command)
    def run(args: argparse.Namespace) -> int:
        try:
            spec = resolve_scheduler(getattr(args, "scheduler", None))
        except ValueError as exc:
            print(f"dpcompendium: error: {exc}", file=sys.stderr)
            return 2
        with using_scheduler(spec) as cluster:
            code = command(args)
            if (
                cluster is not None
            ):  # tell the user the cluster did the work (0 tasks: nothing used it)
                n = tasks_computed(cluster.scheduler)
                print(f"dpcompendium: Dask cluster {spec} computed {n} tasks", file=sys.stderr)
            return code

    return run
