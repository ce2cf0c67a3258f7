"""Chunked event counts (``dpcompendium.core.experiments.count_events``) without a cluster: streams, layout, validation.

The Dask cluster cases are in ``test_parallel_dask.py``.
"""

from __future__ import annotations

import functools
import math

import numpy as np
import pytest
from _chapter_ids import DP_MEAN
from conftest import Z

from dpcompendium.book.cli import main
from dpcompendium.chapters import privacy_audit as A
from dpcompendium.core.experiments import count_events, count_events_many
from dpcompendium.core.parallel import SCHEDULER_ENV, check_scheduler, resolve_scheduler
from dpcompendium.core.rng import child_seed as chunk_seed


def laplace(n, rng):
    return rng.laplace(0.0, 1.0, n)


def two_events(x):
    return np.stack([x > 1.0, (x > -0.5) & (x <= 0.5)])


def _reference(sampler, event, n, chunk_size, seed):
    """The definition, written out: chunk i drawn from SeedSequence(seed).spawn(n_chunks)[i], counts summed."""
    n_chunks = math.ceil(n / chunk_size)
    total = 0
    for i, ss in enumerate(np.random.SeedSequence(seed).spawn(n_chunks)):
        m = min(chunk_size, n - i * chunk_size)
        total = total + np.asarray(event(sampler(m, np.random.default_rng(ss)))).sum(axis=-1)
    return total


def test_chunk_seed_is_the_spawned_child():
    kids = np.random.SeedSequence(11).spawn(5)
    for i, kid in enumerate(kids):
        got = chunk_seed(11, i)
        assert got.spawn_key == kid.spawn_key
        assert np.array_equal(got.generate_state(4), kid.generate_state(4))
    root = np.random.SeedSequence(11)
    chunk_seed(root, 3)
    assert root.n_children_spawned == 0  # a SeedSequence argument is not advanced


@pytest.mark.parametrize("n", [1, 999, 1000, 1001, 25_000])
def test_counts_equal_the_definition(n):
    got = count_events(laplace, two_events, n, seed=5, chunk_size=1000)
    assert got.dtype == np.int64 and got.shape == (2,)
    assert np.array_equal(got, _reference(laplace, two_events, n, 1000, 5))


def test_counts_do_not_depend_on_task_grouping_or_n_jobs():
    n, c = 40_000, 3_000  # 14 chunks, the last one short
    base = count_events(laplace, two_events, n, seed=9, chunk_size=c)
    for per_task in (2, 5, 14, 100):
        for n_jobs in (1, 2):
            got = count_events(
                laplace,
                two_events,
                n,
                seed=9,
                chunk_size=c,
                chunks_per_task=per_task,
                n_jobs=n_jobs,
            )
            assert np.array_equal(got, base), (per_task, n_jobs)


def shifted(n, rng):
    return rng.laplace(1.0, 1.0, n)


def test_many_jobs_in_one_batch_equal_the_jobs_counted_one_by_one():
    """count_events_many: several (sampler, event, n_samples, seed) jobs, their chunks in one batch of tasks; each
    count is byte-identical to count_events on that job alone, whatever n_jobs and chunks_per_task, and equals the
    definition (chunk i of a job from child i of the job's own seed)."""
    tail = functools.partial(np.less, 1.0)  # x > 1, one event: 0-d counts
    jobs = [(laplace, two_events, 7_001, 5), (shifted, two_events, 3_000, np.random.SeedSequence(8).spawn(2)[1]),
            (laplace, two_events, 999, 6)]  # fmt: skip
    alone = [count_events(f, e, n, seed=s, chunk_size=1000) for f, e, n, s in jobs]
    for n_jobs, per_task in ((1, 1), (2, 1), (2, 3)):
        got = count_events_many(jobs, chunk_size=1000, n_jobs=n_jobs, chunks_per_task=per_task)
        assert len(got) == 3
        for g, a in zip(got, alone, strict=True):
            assert g.dtype == np.int64 and np.array_equal(g, a), (n_jobs, per_task)
    assert np.array_equal(alone[0], _reference(laplace, two_events, 7_001, 1000, 5))
    one = count_events_many([(laplace, tail, 2_500, 1), (shifted, tail, 2_500, 1)], chunk_size=1000)
    assert one[0].shape == () and int(one[0]) < int(
        one[1]
    )  # same streams, the shifted sampler is right of 1 more
    with pytest.raises(ValueError, match=r"^jobs must list at least one"):
        count_events_many([], chunk_size=10)
    with pytest.raises(ValueError, match=r"^n_samples must be >= 1, got 0$"):
        count_events_many([(laplace, tail, 10, 1), (laplace, tail, 0, 1)], chunk_size=10)


def test_chunk_size_sets_the_streams():
    """Different chunk sizes draw from different streams (the chunk is the unit of randomness), so the counts differ,
    and each agrees with its own definition; one event gives a 0-d count."""
    a = count_events(laplace, lambda x: x > 0, 10_000, seed=1, chunk_size=1000)
    b = count_events(laplace, lambda x: x > 0, 10_000, seed=1, chunk_size=2500)
    assert a.shape == () and b.shape == ()
    assert int(a) == _reference(laplace, lambda x: x > 0, 10_000, 1000, 1)
    assert int(b) == _reference(laplace, lambda x: x > 0, 10_000, 2500, 1)
    assert int(a) != int(b)


def test_counts_are_binomial():
    """P[Laplace(0, 1) > 1] = e^{-1}/2: the count over 2·10^6 samples lies within z standard deviations of n·p."""
    n, p = 2_000_000, math.exp(-1.0) / 2
    k = int(count_events(laplace, lambda x: x > 1.0, n, seed=2026, chunk_size=300_000, n_jobs=2))
    assert abs(k - n * p) < Z * math.sqrt(n * p * (1 - p))


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"n_samples": 0}, "n_samples must be >= 1, got 0"),
        ({"chunk_size": 0}, "chunk_size must be >= 1, got 0"),
        ({"chunks_per_task": 0}, "chunks_per_task must be >= 1, got 0"),
        ({"n_jobs": 0}, "n_jobs must be >= 1 or -1 (all cores), got 0"),
        ({"seed": -1}, "seed must be >= 0, got -1"),
        ({"sampler": lambda n, g: g.random(n - 1)}, "sampler must return 10 outputs"),
        ({"event": lambda x: (x > 0).astype(int)}, "event must return booleans"),
    ],
)
def test_bad_input_is_one_line(kwargs, message):
    args = {
        "sampler": laplace,
        "event": lambda x: x > 0,
        "n_samples": 20,
        "seed": 0,
        "chunk_size": 10,
    }
    args.update(kwargs)
    with pytest.raises(
        ValueError, match="^" + message.replace("(", r"\(").replace(")", r"\)")
    ) as e:
        count_events(args.pop("sampler"), args.pop("event"), args.pop("n_samples"), **args)
    assert "\n" not in str(e.value)


@pytest.mark.parametrize("good", ["local:1", "local:16", "tcp://10.0.0.5:8786", "scheduler:8786"])
def test_scheduler_values_accepted(good):
    assert check_scheduler(f" {good} ") == good


@pytest.mark.parametrize("bad", ["local:0", "local:", "local:two", "", "no port", "tcp://"])
def test_scheduler_values_rejected(bad):
    with pytest.raises(ValueError, match=r"^scheduler must be local:N"):
        check_scheduler(bad)


def test_flag_wins_over_environment(monkeypatch):
    monkeypatch.setenv(SCHEDULER_ENV, "local:3")
    assert resolve_scheduler(None) == "local:3"
    assert resolve_scheduler("tcp://h:1") == "tcp://h:1"
    monkeypatch.setenv(SCHEDULER_ENV, "  ")
    assert resolve_scheduler(None) is None
    monkeypatch.setenv(SCHEDULER_ENV, "local:0")
    with pytest.raises(ValueError, match=f"^{SCHEDULER_ENV} must be local:N"):
        resolve_scheduler(None)


# ---- the chunked empirical audit (audit.empirical_audit(..., chunk_size=...))


def laplace_shifted(n, rng):
    return 1.0 + rng.laplace(0.0, 1.0, n)


def test_chunked_audit_is_tight_and_valid_on_laplace():
    """Laplace(1) on neighbours 0 and 1 is exactly 1-DP. With 1.9·10^6 evaluation samples the Clopper–Pearson
    half-widths of the best event (p ≈ 0.18 vs 0.5) cost ≈ 2.24·(√(0.82/(n·0.18)) + √(0.5/(n·0.5))) ≈ 0.006 in ε,
    so the lower bound lies in (0.97, 1]."""
    res = A.empirical_audit(
        laplace,
        laplace_shifted,
        claimed_epsilon=1.0,
        n_samples=2_000_000,
        chunk_size=100_000,
        rng=np.random.default_rng(1),
    )
    assert 0.97 < res.audited_epsilon <= 1.0
    assert res.verdict == "holds" and res.n_samples == 2_000_000


def test_seeded_samplers_draw_the_direction_in_tasks_with_the_same_result():
    """seeded_samplers=True (samplers built on sample_outputs: one rng.integers(0, 2**63) per call): with one event,
    the selection counts are drawn on snapshots of the generator, in the batch of the evaluation chunks — the same
    samples, so the same result and the generator left in the same state; other samplers keep the serial path."""
    from dpcompendium.book.usercode import sample_outputs

    def noisy(x, rng, size=None):
        return x + rng.laplace(0.0, 1.0, size)

    def sampler(x):
        return lambda m, g: sample_outputs(noisy, x, None, m, g, chunk_size=700)

    event = [("above 0.5", lambda out: out.reshape(out.shape[0]) > 0.5)]
    kw = dict(claimed_epsilon=0.5, n_samples=20_001, chunk_size=3_000, events=event)
    for x, y in ((0.0, 1.0), (1.0, 0.0)):  # both directions
        runs = []
        for seeded, n_jobs in ((False, 1), (True, 1), (True, 2)):
            rng = np.random.default_rng(3)
            res = A.empirical_audit_chunked(
                sampler(x), sampler(y), **kw, rng=rng, n_jobs=n_jobs, seeded_samplers=seeded
            )
            runs.append((res, rng.integers(0, 2**63)))
        assert runs[0] == runs[1] == runs[2]
        res = runs[0][0]
        assert res.verdict == "violated"  # Laplace(1) is 1-DP, claimed 0.5
        forward = x > y  # P[x + Lap > 0.5] is the larger on the larger x
        assert (res.p_a > res.p_b) == forward
        assert ("M(D) over M(D')" if forward else "M(D') over M(D)") in res.event


def test_cuts_from_merged_samples_are_the_cuts_from_their_concatenation():
    """pooled_sorted merges two sorted samples so that interval_cuts runs in linear time; the cuts are byte-identical
    to those of the concatenation (continuous, discrete, rounded, disjoint samples, and ±0, where it concatenates)."""
    from dpcompendium.core.audit.empirical import interval_cuts, pooled_sorted

    rng = np.random.default_rng(0)
    samples = [
        (rng.laplace(size=2000), rng.laplace(1.0, size=1500)),
        (rng.integers(-3, 4, 900).astype(float), rng.integers(-2, 6, 1100).astype(float)),
        (np.round(rng.normal(size=3000), 2), np.round(rng.normal(0.3, size=2500), 2)),
        (
            rng.exponential(size=500) + 1,
            rng.exponential(size=700) + 5,
        ),  # disjoint: the concatenation is sorted
        (np.round(rng.normal(size=800) * 1e-9, 9), rng.normal(size=600)),  # −0.0 and 0.0
    ]
    for a, b in samples:
        sa, sb = np.sort(a), np.sort(b)
        for max_cuts in (4, 20, 160):
            want = interval_cuts(np.concatenate([sa, sb]), max_cuts)
            assert interval_cuts(pooled_sorted(sa, sb), max_cuts).tobytes() == want.tobytes()
            assert np.array_equal(
                want, interval_cuts(np.concatenate([b, a]), max_cuts)
            )  # order-free


def test_chunked_audit_catches_half_the_noise():
    """Laplace(1/2) on neighbours 0 and 1 is 2-DP, not 1-DP: the audit must say violated."""
    res = A.empirical_audit_chunked(
        lambda n, g: g.laplace(0.0, 0.5, n),
        lambda n, g: 1.0 + g.laplace(0.0, 0.5, n),
        claimed_epsilon=1.0,
        n_samples=400_000,
        chunk_size=50_000,
        rng=np.random.default_rng(3),
    )
    assert res.verdict == "violated" and 1.8 < res.audited_epsilon <= 2.0


def test_chunked_audit_does_not_depend_on_n_jobs_and_takes_events():
    kw = {"claimed_epsilon": 1.0, "n_samples": 300_000, "chunk_size": 40_000}
    events = [("x > 1", lambda x: x > 1.0), ("x <= 0", lambda x: x <= 0.0)]
    one = A.empirical_audit(laplace, laplace_shifted, **kw, rng=np.random.default_rng(4))
    two = A.empirical_audit_chunked(
        laplace, laplace_shifted, **kw, n_jobs=2, rng=np.random.default_rng(4)
    )
    assert one == two
    ev = A.empirical_audit_chunked(
        laplace, laplace_shifted, **kw, events=events, rng=np.random.default_rng(4)
    )
    assert ev.event.startswith(("x > 1", "x <= 0")) and 0.9 < ev.audited_epsilon <= 1.0


def test_chunked_audit_bad_input():
    with pytest.raises(ValueError, match=r"^chunk_size needs selection='split'"):
        A.empirical_audit(
            laplace,
            laplace_shifted,
            claimed_epsilon=1.0,
            n_samples=1000,
            selection="bonferroni",
            chunk_size=100,
            rng=np.random.default_rng(0),
        )
    with pytest.raises(ValueError, match=r"^n_select must be <= 90, got 95"):
        A.empirical_audit_chunked(
            laplace,
            laplace_shifted,
            claimed_epsilon=1.0,
            n_samples=100,
            n_select=95,
            rng=np.random.default_rng(0),
        )


def test_cli_rejects_a_bad_scheduler_before_running(tmp_path, monkeypatch, capsys):
    with pytest.raises(SystemExit) as e:
        main(["run", DP_MEAN, "--scheduler", "local:0", "--out", str(tmp_path / "r")])
    assert e.value.code == 2
    assert "--scheduler must be local:N (N >= 1)" in capsys.readouterr().err
    monkeypatch.setenv(SCHEDULER_ENV, "nonsense")
    assert main(["run", DP_MEAN, "--out", str(tmp_path / "r")]) == 2
    err = capsys.readouterr().err
    assert err.strip().count("\n") == 0
    assert f"{SCHEDULER_ENV} must be local:N (N >= 1)" in err and "'nonsense'" in err
    assert not (tmp_path / "r").exists()
