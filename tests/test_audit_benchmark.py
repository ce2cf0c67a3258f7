"""The DP-testing literature's benchmark (StatDP, DP-Sniper), re-implemented from the papers
(:mod:`dpcompendium.chapters.privacy_audit.benchmark`) and audited as ``dpcompendium audit`` audits a student's code:
every mechanism that is not ε-DP at its claim is VIOLATED and every correct one HOLDS (issue 34).

- claim 0.7 at the audit's default samples (200 000 per input): ``integration`` (13 audits, ~2 min of CPU);
- claim 0.1 at 10 000 000 samples per input, counted in chunks of 1 000 000: ``extended`` (make fuzz; about an hour
  of CPU for the 13; at 2 000 000 samples, chunks of 200 000, Alg. 3 and Alg. 4 are not caught — measured);
- each audit at the default samples takes at most 60 s of CPU time (process time: the wall time on an idle core;
  the shared machine's wall times are longer and are reported by the chapter).
"""

from __future__ import annotations

import math
import time

import numpy as np
import pytest

from dpcompendium.book.usercode import audit_callable
from dpcompendium.chapters.privacy_audit import benchmark

MECHS = {m.name: m for m in benchmark.BENCHMARK}


def test_benchmark_table_is_complete_and_its_functions_are_vectorized():
    assert len(benchmark.BENCHMARK) == 13 and set(benchmark.PUBLISHED) == {
        m.source for m in benchmark.BENCHMARK
    }
    assert sum(m.private for m in benchmark.BENCHMARK) == 6
    rng = np.random.default_rng(0)
    for m in benchmark.BENCHMARK:
        q = np.ones(m.k)
        one, many = m.function(q, rng, epsilon=0.7), m.function(q, rng, epsilon=0.7, size=7)
        assert np.shape(many)[0] == 7 and np.shape(many)[1:] == np.shape(one), m.name


def test_sparse_vector_outputs_follow_the_paper():
    """Alg. 1 stops after the c-th ⊤ (NaN after it); Alg. 5 has no query noise and no cutoff; the numerical sparse
    vector releases a value at each ⊤ only."""
    rng = np.random.default_rng(1)
    q = np.r_[np.full(5, 100.0), np.full(5, -100.0)]
    out = benchmark.svt1(
        q, rng, epsilon=1.0, size=1000
    )  # the first answer is far above T: ⊤, then stop
    assert np.all(out[:, 0] == 1) and np.all(np.isnan(out[:, 1:]))
    out5 = benchmark.svt5(q, rng, epsilon=1.0, size=1000)
    assert np.all(out5 == np.r_[np.ones(5), np.zeros(5)])
    num = benchmark.numerical_svt(q, rng, epsilon=1.0, size=1000)
    bits, vals = num[:, :10], num[:, 10:]
    assert np.array_equal(np.isnan(vals), bits != 1)


def _expected(m) -> str:
    return "holds" if m.private else "violated"


@pytest.mark.integration
@pytest.mark.parametrize("name", list(MECHS))
def test_benchmark_at_claim_07_default_samples(name):
    """Claimed ε = 0.7, 200 000 samples per input (the CLI default), seed 0: every wrong mechanism VIOLATED, every
    correct one HOLDS, each in at most 60 s of CPU."""
    m = MECHS[name]
    start = time.process_time()
    rep, wall = benchmark.audit_mechanism(audit_callable, m, 0.7)
    cpu = time.process_time() - start
    assert rep.verdict == _expected(m), (rep.summary(), wall)
    assert cpu <= 60.0, f"{name}: {cpu:.1f} s of CPU (wall {wall:.1f} s)"
    if m.private:  # a correct mechanism's bound is a lower bound on its ε
        assert rep.epsilon_lower <= 0.7
    elif math.isfinite(m.true_factor):
        assert 0.7 < rep.epsilon_lower <= 0.7 * m.true_factor * (1 + 1e-9)


#: The sample count at which the claim ε = 0.1 is decided for every mechanism (chunked, in bounded memory): at
#: 2 000 000 (chunks of 200 000) the sparse vectors Alg. 3 and Alg. 4 still HOLD (events chosen on too few samples).
SAMPLES_AT_01, CHUNK_AT_01 = 10_000_000, 1_000_000


@pytest.mark.extended
@pytest.mark.parametrize("name", list(MECHS))
def test_benchmark_at_claim_01(name):
    m = MECHS[name]
    rep, _ = benchmark.audit_mechanism(
        audit_callable, m, 0.1, samples=SAMPLES_AT_01, chunk_size=CHUNK_AT_01
    )
    assert rep.verdict == _expected(m), rep.summary()


@pytest.mark.integration
@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize("name", [m.name for m in benchmark.BENCHMARK if m.private])
def test_no_false_violation_on_correct_mechanisms_across_seeds(name, seed):
    """No false VIOLATED: the correct mechanisms at claim 0.7 again with two more seeds (the repetitions the
    chapter reports), at 50 000 samples."""
    rep, _ = benchmark.audit_mechanism(audit_callable, MECHS[name], 0.7, samples=50_000, seed=seed)
    assert rep.verdict == "holds", rep.summary()


def test_power_samples_follow_their_design_and_only_cap_mechanisms_that_are_not_private():
    """issue 50: each cap is POWER_SAFETY times the samples its verdict needed at the pilot size, rounded up to
    1, 2 or 5 × 10^k, at least POWER_FLOOR; only mechanisms that are not private at the claim are capped."""
    assert [benchmark.round_up(x) for x in (1, 1.01, 2, 2.5, 5.2, 134, 8370)] == [
        1, 2, 2, 5, 10, 200, 10_000,
    ]  # fmt: skip
    for eps, caps in benchmark.POWER_SAMPLES.items():
        assert set(caps) == set(benchmark.POWER_NEEDED[eps])
        for name, n in caps.items():
            assert not MECHS[name].private, name
            need = benchmark.POWER_SAFETY * benchmark.POWER_NEEDED[eps][name]
            assert n >= max(need, benchmark.POWER_FLOOR) and (
                n < 2.5 * need or n == benchmark.POWER_FLOOR
            )
            assert n < benchmark.POWER_PILOT or n == benchmark.POWER_PILOT


def test_run_benchmark_by_power_audits_a_violation_with_the_samples_it_needs():
    names = ["sparse vector, Alg. 5", "noisy max (Laplace)"]
    table = benchmark.run_benchmark(
        audit_callable, 0.7, samples=20_000, seed=3, names=names, by_power=True
    ).set_index("mechanism")
    alg5 = table.loc["sparse vector, Alg. 5"]
    assert alg5.samples == benchmark.POWER_SAMPLES[0.7]["sparse vector, Alg. 5"] < 20_000
    assert alg5.verdict == "violated" and alg5.samples_needed <= alg5.samples
    correct = table.loc["noisy max (Laplace)"]
    assert correct.samples == 20_000 and correct.verdict == "holds"
    assert (
        correct.samples_needed == math.inf
    )  # its event is within the claim: no samples show a violation
    # without by_power every mechanism has the run's samples
    plain = benchmark.run_benchmark(audit_callable, 0.7, samples=20_000, seed=3, names=names[:1])
    assert (plain.samples == 20_000).all()


def test_the_pilot_behind_the_samples_is_the_chapter_default_run_and_the_page_says_so():
    """referee 5, m10: POWER_NEEDED comes from a pilot run at POWER_PILOT samples per input and the chapter's default
    seed; the page glues that seed (not a typed one), says that the samples are conditional on the pilot's events and
    that a blind audit keeps the run's samples for every mechanism."""
    import json
    from pathlib import Path

    from _chapter_ids import PRIVACY_AUDIT

    from dpcompendium.book.contract import get_chapter
    from dpcompendium.core.messages import message

    assert get_chapter(PRIVACY_AUDIT).defaults["seed"] == benchmark.POWER_PILOT_SEED
    assert get_chapter(PRIVACY_AUDIT).defaults["benchmark_samples"] == benchmark.POWER_PILOT
    nb = json.loads(
        (Path(__file__).resolve().parents[1] / f"notebooks/{PRIVACY_AUDIT}.ipynb").read_text()
    )
    src = "".join(next(c for c in nb["cells"] if c.get("id") == "glue-bench")["source"])
    for needed in (
        "benchmark.POWER_PILOT_SEED",
        '"audit.bench.design.capped"',
        '"audit.bench.design.blind"',
    ):
        assert needed in src, needed
    text = str(message("audit.bench.design.capped", n="7", lo="1", hi="2", safety="1.5", power="0.9",
                       pilot="100,000", seed="20260207", floor="10,000", samples="100,000"))  # fmt: skip
    assert "in a pilot run at 100,000 samples per input (seed 20260207)" in text
    assert "conditional on the event each chose there" in text
    assert "a blind audit keeps 100,000 for every mechanism" in str(
        message("audit.bench.design.blind", samples="100,000")
    )
