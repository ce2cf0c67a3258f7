"""A 10^8-sample audit on one process and on a Dask LocalCluster: throughput and peak memory per worker.

The audit: the book's Laplace mechanism at ε = 1 on f(D) = 0 vs f(D') = 1 (``audit.laplace_samplers``),
``empirical_audit_chunked(..., chunk_size=C)`` with ``n_samples`` outputs per input — the event chosen on 10^6 samples
per input in the driver, the other n − 10^6 counted in chunks of C samples (:mod:`dpcompendium.audit.chunked`).
Throughput = 2·n_samples / wall time (both inputs' samples); CPU = the CPU seconds the workers (or this process)
spent in the audit, so CPU / (wall · workers) shows how busy the workers were. Peak memory = the largest VmHWM
(peak resident set) of a worker process, and of this process, after the run. Every configuration must give the same
AuditResult.

    python benchmarks/bench_dask.py                      # 10^8 samples: one process, then 2 workers
    python benchmarks/bench_dask.py --n-samples 1e7 --workers 2 4
    python benchmarks/bench_dask.py --chunk-size 4e6      # fewer, longer tasks

The one-process baseline is the audit in this process (no scheduler). A cluster with a single worker thread is no
baseline: joblib's Dask backend then reports one job and joblib runs the tasks sequentially in the calling process.
``make bench`` runs :func:`test_bench_dask_scaling` (pytest-benchmark): the issue's target is ≥ 1.6× throughput
from one process to 2 workers on a quiet 2-core machine, and a worker's peak memory independent of n_samples.
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import time

import numpy as np

from dpcompendium import audit as A
from dpcompendium.parallel import SCHEDULER_ENV, shutdown, start_local_cluster

N_SAMPLES = 10**8
CHUNK = 10**6
SELECT = (
    10**6
)  # samples per input that choose the event, in the driver (the serial part), whatever the chunk size
SPEEDUP_TARGET = 1.6
WORKER_PEAK_MB = 512.0  # a chunk is 8 MB of float64; a worker is ~150 MB of imports


def _peak_mb() -> float:
    """Peak resident set of this process in MB: VmHWM of /proc/self/status (Linux). Not ``ru_maxrss``: Linux keeps
    it across exec, so a worker spawned by a big parent would report the parent's peak."""
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _cpu_s() -> float:
    """CPU seconds (user + system) this process has used so far."""
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def _warm_up() -> None:
    import dpcompendium.audit  # noqa: F401


def _audit(n_samples: int, chunk: int, seed: int = 2026):
    sampler_a, sampler_b = A.laplace_samplers(1.0)
    return A.empirical_audit_chunked(
        sampler_a,
        sampler_b,
        claimed_epsilon=1.0,
        n_samples=n_samples,
        chunk_size=chunk,
        n_select=min(SELECT, n_samples // 2),
        rng=np.random.default_rng(seed),
        mechanism="laplace (bench)",
    )


def measure(n_workers: int | None, n_samples: int = N_SAMPLES, chunk: int = CHUNK) -> dict:
    """Run the audit in this process (``n_workers=None``) or on a fresh LocalCluster of ``n_workers`` processes."""
    old = os.environ.pop(SCHEDULER_ENV, None)
    cluster = client = None
    try:
        if n_workers is not None:
            import distributed

            cluster = start_local_cluster(n_workers)
            client = distributed.Client(cluster, set_as_default=False)
            client.wait_for_workers(n_workers, timeout=300)
            client.run(_warm_up)  # imports are not part of the audit
            os.environ[SCHEDULER_ENV] = cluster.scheduler_address
        cpu0 = sum(client.run(_cpu_s).values()) if client is not None else _cpu_s()
        t0 = time.perf_counter()
        res = _audit(n_samples, chunk)
        wall = time.perf_counter() - t0
        peaks = list(client.run(_peak_mb).values()) if client is not None else []
        cpu = (sum(client.run(_cpu_s).values()) if client is not None else _cpu_s()) - cpu0
    finally:
        os.environ.pop(SCHEDULER_ENV, None)
        if old is not None:
            os.environ[SCHEDULER_ENV] = old
        shutdown()
        if client is not None:
            client.close()
        if cluster is not None:
            cluster.close()
    return {
        "where": "in-process" if n_workers is None else f"{n_workers} worker(s)",
        "n_samples": n_samples,
        "chunk_size": chunk,
        "wall_s": wall,
        "samples_per_s": 2 * n_samples / wall,
        "worker_peak_mb": max(peaks) if peaks else float("nan"),
        "cpu_s": cpu,
        "driver_peak_mb": _peak_mb(),
        "result": res,
    }


def _print(row: dict) -> None:
    print(
        f"{row['where']:>12}: {row['wall_s']:7.2f} s  {row['samples_per_s'] / 1e6:7.2f} M samples/s  "
        f"CPU {row['cpu_s']:6.1f} s  peak per worker {row['worker_peak_mb']:4.0f} MB  "
        f"driver {row['driver_peak_mb']:4.0f} MB  "
        f"eps_hat = {row['result'].audited_epsilon:.6f}",
        flush=True,
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n-samples", type=float, default=N_SAMPLES, help="samples per input")
    parser.add_argument("--chunk-size", type=float, default=CHUNK, help="samples per chunk")
    parser.add_argument("--workers", type=int, nargs="+", default=[2], help="cluster sizes (>= 2)")
    args = parser.parse_args(argv)
    n, chunk = int(args.n_samples), int(args.chunk_size)
    print(f"audit of Laplace(eps=1): {n:.3g} samples per input, chunks of {chunk:.3g}", flush=True)
    rows = [measure(None, n, chunk)]
    _print(rows[-1])
    for w in args.workers:
        rows.append(measure(w, n, chunk))
        _print(rows[-1])
    same = len({r["result"] for r in rows}) == 1
    print(f"identical AuditResult in every configuration: {same}")
    for r in rows[1:]:
        s = r["samples_per_s"] / rows[0]["samples_per_s"]
        print(
            f"speed-up one process -> {r['where']}: {s:.2f}x (target for 2: >= {SPEEDUP_TARGET}x)"
        )
    return 0 if same else 1


def test_bench_dask_scaling(benchmark):
    """10^8 samples per input in one process and on 2 workers: ≥ 1.6× throughput, bounded worker memory, the same
    result."""
    import cloudpickle

    cloudpickle.register_pickle_by_value(sys.modules[__name__])
    one = measure(None)
    two = benchmark.pedantic(measure, args=(2,), rounds=1, iterations=1)
    for row in (one, two):
        _print(row)
    benchmark.extra_info.update(
        {
            "samples_per_s_1_process": one["samples_per_s"],
            "samples_per_s_2_workers": two["samples_per_s"],
            "worker_peak_mb": two["worker_peak_mb"],
        }
    )
    assert one["result"] == two["result"]
    assert two["samples_per_s"] >= SPEEDUP_TARGET * one["samples_per_s"]
    assert two["worker_peak_mb"] < WORKER_PEAK_MB


if __name__ == "__main__":
    raise SystemExit(main())
