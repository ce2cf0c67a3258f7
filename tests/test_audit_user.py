"""Coursework mode: ``dpcompendium audit TARGET`` and ``audit_callable`` on user code (examples/coursework)."""

from __future__ import annotations

import io
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from dpcompendium.book.cli import main
from dpcompendium.book.usercode import (
    UserCodeError,
    audit_callable,
    input_pairs,
    load_module,
    load_target,
    sample_outputs,
)
from dpcompendium.book.usercode.audit import DEPENDENCE_DRAWS
from dpcompendium.chapters.privacy_audit.planted import planted_true_epsilon
from dpcompendium.core.audit.spec import are_neighbours
from dpcompendium.core.parallel import SCHEDULER_ENV

EX = Path(__file__).resolve().parents[1] / "examples" / "coursework"
N = 60_000  # samples per input: Laplace at ε = 1 vs 2ε is separated by ~1 in ε̂ at this size


def target(name: str) -> str:
    file, _, func = name.partition(":")
    return f"{EX / file}:{func}"


# ------------------------------------------------------------------------------------- the done-when cases
def test_half_noise_mean_violated_correct_mean_holds():
    kw = dict(epsilon=1.0, neighbours="replace-one", inputs="dataset:10,0,1", samples=N, seed=3)
    bad = audit_callable(
        load_target(target("laplace_mean.py:half_noise_mean")), params={"epsilon": 1.0}, **kw
    )
    good = audit_callable(load_target(target("laplace_mean.py:correct_mean")), **kw)
    assert good.params == {"epsilon": 1.0}  # the function's epsilon parameter receives the claim
    assert bad.verdict == "violated" and bad.confidence >= 0.95
    assert 1.0 < bad.epsilon_lower <= 2.0  # a lower bound on the true 2ε
    assert good.verdict == "holds" and good.epsilon_lower <= 1.0
    assert good.epsilon_lower > 0.5  # the audit has power: it nearly reaches the true ε = 1
    assert bad.neighbours == "replace-one" and bad.method == "empirical"
    assert isinstance(bad.table, pd.DataFrame) and bad.table["chosen"].sum() == 1
    md = bad.to_markdown()
    assert "violated" in md and "Clopper" in md


# ------------------------------------------------------- a student's commonest bugs, with the page's input
MEAN_BUGS = [
    # (function, the relation of its claim, the witness the probes add, a floor the bound must pass)
    # a record at B + 10(B − A) or A − 10(B − A): ε = 11
    ("laplace_mean.py:unclamped_mean", "replace-one", (", 11]", ", -10]"), 5.0),
    # one-record datasets: n doubles, ε unbounded
    ("laplace_mean.py:true_n_mean", "add-remove", ("[0] vs", "[1] vs"), 2.0),
    # no noise on equal records: ε = ∞ (the declared pairs see it)
    ("laplace_mean.py:data_sensitivity_mean", "replace-one", ("",), 5.0),
]


@pytest.mark.parametrize(("name", "relation", "witness", "floor"), MEAN_BUGS)
def test_common_mean_bugs_are_violated_with_the_page_input(name, relation, witness, floor):
    """With ``--input dataset:10,0,1`` — records inside [0, 1] — the probes beyond the declared bounds (a record
    far outside [A, B], one-record and empty datasets) catch a missing clamp, a mean dividing by the true n without
    noise, and a sensitivity computed from the data."""
    rep = audit_callable(load_target(target(name)), epsilon=1.0, neighbours=relation, inputs="dataset:10,0,1",
                         samples=N, seed=3)  # fmt: skip
    assert rep.verdict == "violated" and rep.epsilon_lower > floor, rep.summary()
    assert any(w in rep.pair for w in witness) and f"({relation} neighbours)" in rep.summary()


def test_probes_go_beyond_the_declared_bounds_and_skip_what_the_code_cannot_take():
    ro = input_pairs("dataset:10,0,1", "replace-one")
    probes = [pr for pr in ro if pr.probe]
    assert [pr.probe for pr in ro[:2]] == [False, False] and len(probes) == 3
    assert (
        max(np.max(pr.raw_b) for pr in probes) == 11.0
        and min(np.min(pr.raw_b) for pr in probes) == -10.0
    )
    assert any(np.size(pr.raw_a) == 1 for pr in probes)
    ar = [pr for pr in input_pairs("dataset:10,0,1", "add-remove") if pr.probe]
    assert any(np.size(pr.raw_a) == 0 for pr in ar) and any(np.size(pr.raw_a) == 1 for pr in ar)
    inside = input_pairs("dataset:10,0,1", "add-remove", probe=False)
    assert [pr.kind for pr in inside].count("declared") == 4 and not any(pr.probe for pr in inside)
    # the true-n mean divides by 0 on the empty dataset: that probe is skipped with a note, the audit goes on
    rep = audit_callable(load_target(target("laplace_mean.py:true_n_mean")), epsilon=1.0, neighbours="add-remove",
                         inputs="dataset:10,0,1", samples=4000, seed=0)  # fmt: skip
    assert any(n.startswith("probe [] vs [1] not audited") for n in rep.notes)
    assert "note: probe [] vs [1] not audited" in rep.to_markdown()


def test_half_noise_grr_violated_correct_grr_holds():
    mod = load_module(str(EX / "grr_student.py"))
    kw = dict(epsilon=1.0, inputs="category:4", params={"k": 4}, samples=20_000, seed=0)
    bad, good = audit_callable(mod.grr_half_noise, **kw), audit_callable(mod.grr, **kw)
    assert bad.verdict == "violated" and 1.0 < bad.epsilon_lower <= 2.0  # its true ε is 2
    assert good.verdict == "holds" and "(local neighbours)" in good.summary()


def test_rare_output_pmf_is_not_called_private():
    """The pmf declares the flag 1e-5 on both inputs (declared exact ε = ln 1.5); the sampler draws it with
    probability 1e-4 vs 1e-6 (true ε = ln 100). The χ² check on 20 000 draws sees outputs of probability ≥ 1.5e-4
    only, and the empirical audit of 2·10^5 samples cannot separate 1e-4 from 1e-6 either: not established, never
    holds. (With 4·10^6 samples it is VIOLATED: book/coursework.md runs that command.)"""
    mod = load_module(str(EX / "rare_output.py"))
    for samples in (20_000, 200_000):
        rep = audit_callable(mod.rare_output, pmf=mod.rare_output_pmf, epsilon=0.5, inputs="category:2",
                             samples=samples, seed=0)  # fmt: skip
        assert rep.verdict == "not established", rep.summary()
        assert math.isclose(rep.exact_epsilon, math.log(1.5), rel_tol=1e-6)
        assert (
            rep.summary().startswith("NOT ESTABLISHED")
            and "output 2 with probability 1e-05" in rep.reason
        )
        assert rep.epsilon_lower <= math.log(100)  # the empirical bound stays valid
        assert "sees an output of probability ≥ 0.00015 with probability 95 %" in rep.notes[0]


def test_detectable_probability_is_the_sampler_checks_power():
    from dpcompendium.book.usercode import detectable_probability

    for n in (4000, 20_000):
        p = detectable_probability(n)
        assert math.isclose(1 - (1 - p) ** n, 0.95, rel_tol=1e-9) and 2.9 / n < p < 3.1 / n
    # by simulation: 20 000 draws show an output of that probability at least once in ~95 % of runs
    rng = np.random.default_rng(0)
    seen = (rng.binomial(20_000, detectable_probability(20_000), size=4000) > 0).mean()
    assert abs(seen - 0.95) < 4 * math.sqrt(0.95 * 0.05 / 4000)


def test_exact_verdict_requires_the_empirical_audit_to_agree():
    from types import SimpleNamespace

    from dpcompendium.book.usercode.audit import _exact_verdict

    def emp(lower, claim=1.0):
        return SimpleNamespace(
            epsilon_lower=lower, verdict="violated" if lower > claim else "holds"
        )

    assert _exact_verdict(0.8, emp(0.7), 1.0, []) == ("holds", "")
    assert _exact_verdict(1.2, emp(0.7), 1.0, [])[0] == "violated"  # the declared pmf itself
    v, why = _exact_verdict(
        0.4, emp(0.9), 1.0, []
    )  # below the claim, above the pmf: the pmf is wrong
    assert v == "inconsistent" and why.startswith("inconsistent: the sampler's empirical ε ≥ 0.900")
    assert _exact_verdict(0.4, emp(2.9), 1.0, [(2, 1e-5)])[0] == "violated"
    v, why = _exact_verdict(0.4, emp(0.3), 1.0, [(2, 1e-5)])
    assert v == "not established" and "output 2 with probability 1e-05" in why


PLANTED = [
    ("planted_laplace_scale_epsilon.py:laplace_scale_epsilon", "laplace-scale-epsilon", 0.5, "scalar:0,1", {}),
    ("planted_laplace_half_sensitivity.py:laplace_half_sensitivity", "laplace-half-sensitivity", 0.5,
     "scalar:0,1", {}),
    ("planted_laplace_half_sensitivity.py:laplace_half_sensitivity", "laplace-half-sensitivity", 1.0,
     "scalar:0,1", {}),
    ("planted_grr_wrong_keep.py:grr_wrong_keep", "grr-wrong-keep", 1.0, "category:4", {"k": 4}),
    ("planted_grr_wrong_keep.py:grr_wrong_keep", "grr-wrong-keep", 0.5, "category:4", {"k": 4}),
]  # fmt: skip


@pytest.mark.parametrize(("name", "bug", "eps", "inputs", "params"), PLANTED)
def test_planted_bugs_as_user_code_are_flagged(name, bug, eps, inputs, params):
    """Every planted bug the audit chapter flags is flagged when given as user code."""
    func = load_target(target(name))
    rep = audit_callable(
        func, epsilon=eps, inputs=inputs, params={"epsilon": eps, **params}, samples=N, seed=1
    )
    true = planted_true_epsilon(bug, eps, k=params.get("k", 4))
    assert rep.verdict == "violated"
    assert eps < rep.epsilon_lower <= true + 1e-9


def test_planted_grr_exact_from_pmf():
    mod = load_module(str(EX / "planted_grr_wrong_keep.py"))
    rep = audit_callable(mod.grr_wrong_keep, pmf=mod.grr_wrong_keep_pmf, epsilon=1.0, neighbours="local",
                         inputs="category:4", params={"epsilon": 1.0, "k": 4}, samples=4000)  # fmt: skip
    true = planted_true_epsilon("grr-wrong-keep", 1.0, k=4)
    assert rep.method == "exact" and rep.verdict == "violated"
    assert math.isclose(
        rep.exact_epsilon, true, rel_tol=1e-9
    )  # the declared pmf's, which is the sampler's
    # the empirical audit of the sampler ran too, and agrees: a valid lower bound, above the claim
    assert rep.empirical is not None and rep.confidence == 0.95
    assert (
        1.0 < rep.epsilon_lower <= true + 1e-9 and rep.epsilon_lower == rep.empirical.epsilon_lower
    )
    assert (
        "exact ε of the declared pmf = 2.099" in rep.summary()
        and "(local neighbours)" in rep.summary()
    )
    assert rep.sampler_draws == 4000 and math.isclose(rep.detectable_p, 1 - 0.05 ** (1 / 4000))


CORRECT = [
    ("book_mechanisms.py:laplace", dict(epsilon=1.0, inputs="scalar:0,1")),
    ("book_mechanisms.py:laplace", dict(epsilon=0.5, inputs="ldp", params={"sensitivity": 2.0})),
    ("book_mechanisms.py:gaussian", dict(epsilon=0.5, delta=1e-5, inputs="scalar:0,1")),
    ("book_mechanisms.py:grr", dict(epsilon=1.0, inputs="category:4", params={"k": 4})),
    ("book_mechanisms.py:clamped_mean", dict(epsilon=1.0, neighbours="replace-one", inputs="dataset:10,140,200")),
    ("laplace_mean.py:correct_mean", dict(epsilon=0.5, neighbours="replace-one", inputs="dataset:5,0,1")),
    # the chapter's planted scale-ε bug at ε = 2 delivers 1/2 ≤ 2: it must hold, as the chapter expects
    ("planted_laplace_scale_epsilon.py:laplace_scale_epsilon", dict(epsilon=2.0, inputs="scalar:0,1")),
]  # fmt: skip


@pytest.mark.parametrize(("name", "kw"), CORRECT)
def test_book_mechanisms_as_user_code_pass(name, kw):
    kw = dict(kw)
    params = {
        "epsilon": kw["epsilon"],
        **({"delta": kw["delta"]} if "delta" in kw else {}),
        **kw.pop("params", {}),
    }
    rep = audit_callable(load_target(target(name)), params=params, samples=N, seed=2, **kw)
    assert rep.verdict == "holds", rep.summary()


def test_grr_exact_holds_at_its_epsilon():
    mod = load_module(str(EX / "book_mechanisms.py"))
    rep = audit_callable(mod.grr, pmf=mod.grr_pmf, epsilon=1.0, inputs="category:3", params={"epsilon": 1.0, "k": 3},
                         samples=4000)  # fmt: skip
    assert rep.method == "exact" and rep.verdict == "holds" and math.isclose(rep.exact_epsilon, 1.0)
    assert rep.epsilon_lower <= 1.0 and not rep.reason


# ----------------------------------------------------------------------------------------- misbehaving code
def _raises(data, rng, size=None):
    raise RuntimeError("boom")


def _inf(data, rng, size=None):
    return np.full(size, np.inf)


def _global_state(data, rng, size=None):
    return data + np.random.default_rng().laplace(size=size)  # ignores rng


def _wrong_size(data, rng, size=None):
    return data + rng.laplace(size=3)


def _different_pmf(value, rng, *, size=None):
    return rng.integers(0, 2, size=size)


@pytest.mark.parametrize(
    ("func", "match"),
    [(_raises, "raised RuntimeError: boom"), (_inf, "infinite"), (_global_state, "not reproducible"),
     (_wrong_size, "must return")],
)  # fmt: skip
def test_misbehaving_code_gets_one_line_error(func, match):
    with pytest.raises(UserCodeError, match=match) as info:
        audit_callable(func, epsilon=1.0, inputs="scalar:0,1", samples=1000)
    assert "\n" not in str(info.value)


def test_pmf_that_does_not_describe_the_sampler_is_rejected():
    with pytest.raises(UserCodeError, match="pmf does not describe"):
        audit_callable(_different_pmf, epsilon=1.0, inputs="category:2", samples=4000,
                       pmf=lambda v: {0: 0.9, 1: 0.1})  # fmt: skip


@pytest.mark.parametrize(
    ("kw", "match"),
    [
        (dict(epsilon=0.0, inputs="scalar:0,1"), "epsilon"),
        (dict(epsilon=1.0, delta=1.5, inputs="scalar:0,1"), "delta"),
        (dict(epsilon=1.0, inputs="vector:3"), "inputs"),
        (dict(epsilon=1.0, inputs="scalar:1,0"), "A < B"),
        (dict(epsilon=1.0, inputs="dataset:10,0,1", neighbours="local"), "neighbours"),
        (dict(epsilon=1.0, inputs="dataset:10,0,1"),
         r"^neighbours is required for inputs dataset:10,0,1: replace-one \(n public\) or add-remove$"),
        (dict(epsilon=1.0, inputs="histogram:4"), "^neighbours is required for inputs histogram:4"),
        (dict(epsilon=1.0, pair=([0.0, 1.0], [0.0, 2.0])), "^neighbours is required for a pair of datasets"),
        (dict(epsilon=1.0), "exactly one"),
        (dict(epsilon=1.0, pair=([0.0, 1.0], [0.0, 1.0, 2.0]), neighbours="replace-one"), "replace-one neighbours"),
        (dict(epsilon=1.0, inputs="scalar:0,1", samples=10), "samples"),
        (dict(epsilon=1.0, inputs="scalar:0,1", confidence=1.0), "confidence"),
        (dict(epsilon=1.0, inputs="scalar:0,1", chunk_size=0), "^chunk_size must be >= 10, got 0$"),
        (dict(epsilon=1.0, inputs="scalar:0,1", samples=1000, chunk_size=5000),
         r"^chunk_size must be <= samples \(1000\), got 5000$"),
        (dict(epsilon=1.0, inputs="scalar:0,1", chunk_size=500, n_jobs=0), "^n_jobs must be >= 1 or -1"),
        (dict(epsilon=1.0, inputs="scalar:0,1", chunk_size=500, scheduler="local:0"), "^scheduler must be local:N"),
        (dict(epsilon=1.0, inputs="scalar:0,1", scheduler="local:2"), "^scheduler needs chunk_size"),
    ],
)  # fmt: skip
def test_bad_arguments(kw, match):
    with pytest.raises(ValueError, match=match):
        audit_callable(lambda d, rng, size=None: d + rng.laplace(size=size), **kw)


# ------------------------------------------------------------------------------------------ input families
@pytest.mark.parametrize(
    ("family", "relation"),
    [("scalar:0,1", "add-remove"), ("ldp", "local"), ("category:4", "local"), ("dataset:5,0,1", "replace-one"),
     ("dataset:5,0,1", "add-remove"), ("dataset:0,0,1", "add-remove"), ("histogram:4", "add-remove"),
     ("histogram:4", "replace-one")],
)  # fmt: skip
def test_families_are_neighbouring_raw_datasets(family, relation):
    for pr in input_pairs(family, relation):
        assert are_neighbours(pr.raw_a, pr.raw_b, pr.relation)
        np.testing.assert_array_equal(pr.to_input(pr.raw_a), pr.a)
        np.testing.assert_array_equal(pr.to_input(pr.raw_b), pr.b)
        if family.startswith("histogram"):
            assert np.abs(pr.a - pr.b).sum() == (1 if relation == "add-remove" else 2)


def test_sampling_is_chunked_and_reproducible():
    f = load_target(target("book_mechanisms.py:laplace"))
    ss = np.random.SeedSequence(5)
    whole = sample_outputs(f, 0.0, {"epsilon": 1.0}, 1000, ss, chunk_size=300)
    again = sample_outputs(f, 0.0, {"epsilon": 1.0}, 1000, ss, chunk_size=300)
    np.testing.assert_array_equal(whole, again)
    # chunk i is f(data, Generator(PCG64(child i of the seed)), size=m): the chunks can run anywhere, in any order
    g2 = np.random.Generator(np.random.PCG64(np.random.SeedSequence(5).spawn(3)[2]))
    np.testing.assert_array_equal(whole[600:900], f(0.0, g2, epsilon=1.0, size=300))


def test_unbatched_function_falls_back_to_one_call_per_sample():
    def one(data, rng, *, epsilon):
        return data + rng.laplace(0.0, 1.0 / epsilon)

    rep = audit_callable(
        one, epsilon=1.0, inputs="scalar:0,1", params={"epsilon": 1.0}, samples=4000
    )
    assert not rep.batched and rep.verdict == "holds"


def test_vector_and_string_outputs():
    def hist_release(h, rng, *, epsilon, size=None):  # Laplace on every bin: ε-DP under add-remove
        shape = h.shape if size is None else (size, *h.shape)
        return h + rng.laplace(0.0, 1.0 / epsilon, size=shape)

    kw = dict(epsilon=1.0, inputs="histogram:3", neighbours="add-remove", samples=N)
    # the noise of ε = 2, claimed 1; unrounded statistics measured float rounding at an atom (seeds 0, 1: 2.11, 2.40)
    for seed in (0, 1):
        rep = audit_callable(hist_release, params={"epsilon": 2.0}, seed=seed, **kw)
        assert rep.verdict == "violated" and 1.0 < rep.epsilon_lower <= 2.0
    assert (
        rep.epsilon_lower > 1.3
    )  # the chosen statistic of the vector output keeps most of the loss
    assert audit_callable(hist_release, params={"epsilon": 1.0}, **kw).verdict == "holds"

    def coin(v, rng, size=None):
        keep = rng.random(() if size is None else size) < 0.9
        return np.where(keep == (v > 0), "yes", "no")

    rep = audit_callable(coin, epsilon=1.0, inputs="ldp", samples=20_000)  # ln 9 ≈ 2.2 > 1
    assert rep.verdict == "violated" and ("'yes'" in rep.event or "'no'" in rep.event)


# --------------------------------------------------------------------------------------------------- CLI
def test_cli_audit_writes_report(tmp_path, capsys):
    out = tmp_path / "rep"
    rc = main(["audit", target("laplace_mean.py:half_noise_mean"), "--epsilon", "1", "--neighbours", "replace-one",
               "--input", "dataset:10,0,1", "--samples", str(N), "--out", str(out)])  # fmt: skip
    assert rc == 0
    printed = capsys.readouterr().out
    assert "VIOLATED" in printed and "confidence 0.95" in printed
    assert {p.name for p in out.iterdir()} == {"report.csv", "report.md", "report.png", "pair.json"}
    table = pd.read_csv(out / "report.csv")
    assert table.loc[table.chosen, "epsilon_lower"].iloc[0] > 1.0


def test_cli_audit_pair_and_exact(tmp_path, capsys):
    rc = main(["audit", target("planted_grr_wrong_keep.py:grr_wrong_keep"), "--epsilon", "1", "--pair", "0", "1",
               "-p", "k", "4", "--samples", "4000", "--out", str(tmp_path / "g")])  # fmt: skip
    assert rc == 0 and "exact ε of the declared pmf = 2.099" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("args", "match"),
    [
        (["--epsilon", "-1", "--input", "scalar:0,1"], "--epsilon"),
        (
            ["--epsilon", "1", "--input", "scalar:0,1", "--chunk-size", "0"],
            "--chunk-size must be >= 10, got 0",
        ),
        (
            ["--epsilon", "1", "--input", "scalar:0,1", "--chunk-size", "-3"],
            "--chunk-size must be >= 10, got -3",
        ),
        (
            [
                "--epsilon",
                "1",
                "--input",
                "scalar:0,1",
                "--samples",
                "1000",
                "--chunk-size",
                "5000",
            ],
            "--chunk-size must be <= --samples (1000), got 5000",
        ),
        (
            ["--epsilon", "1", "--input", "scalar:0,1", "--chunk-size", "500", "--n-jobs", "0"],
            "--n-jobs",
        ),
        # a cluster without chunks would sit idle: refused before one is started
        (
            ["--epsilon", "1", "--input", "scalar:0,1", "--scheduler", "local:2"],
            "--scheduler needs --chunk-size",
        ),
        (["--epsilon", "1"], "exactly one"),
        # the relation of a claim about datasets is never guessed
        (
            ["--epsilon", "1", "--input", "dataset:10,0,1"],
            "--neighbours is required with --input dataset:10,0,1: replace-one (n public) or add-remove",
        ),
        (
            ["--epsilon", "1", "--input", "histogram:4"],
            "--neighbours is required with --input histogram:4",
        ),
        (
            ["--epsilon", "1", "--pair", "[0, 1]", "[0, 2]"],
            "--neighbours is required with a --pair of datasets",
        ),
        (["--epsilon", "1", "--neighbours", "add-remove", "--input", "histogram:x"], "histogram"),
        (["--epsilon", "1", "--input", "scalar:0,1", "-p", "epsilon", "[1"], "YAML"),
    ],
)
def test_cli_rejects_bad_options_before_writing(tmp_path, capsys, args, match):
    out = tmp_path / "never"
    rc = main(["audit", target("book_mechanisms.py:laplace"), *args, "--out", str(out)])
    assert rc == 2 and not out.exists()
    err = capsys.readouterr().err
    assert match in err and err.count("\n") == 1


def test_cli_refuses_to_replace_an_earlier_report_without_overwrite(tmp_path, capsys):
    """Issue 45: a second ``audit`` into a folder holding a report is refused (one line, exit 2, nothing written,
    the first report kept) unless ``--overwrite``, which replaces it; a folder without a report is used as it is."""
    out = tmp_path / "report"
    args = ["audit", target("book_mechanisms.py:laplace"), "--epsilon", "1", "--input", "scalar:0,1",
            "--samples", "1000", "--out", str(out)]  # fmt: skip
    assert main(args) == 0
    capsys.readouterr()
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    assert set(before) >= {"report.csv", "report.md", "report.png"}
    assert main([*args, "--seed", "1"]) == 2
    err = capsys.readouterr().err
    assert (
        err.count("\n") == 1 and "holds an earlier audit's report" in err and "--overwrite" in err
    )
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before  # nothing written
    assert main([*args, "--seed", "1", "--overwrite"]) == 0
    assert (out / "report.md").read_bytes() != before["report.md"]
    other = tmp_path / "empty"
    other.mkdir()
    (other / "notes.txt").write_text("mine", encoding="utf-8")
    assert main([*args[:-1], str(other)]) == 0 and (other / "notes.txt").exists()


def test_cli_rejects_a_bad_scheduler_before_writing(tmp_path, capsys, monkeypatch):
    out = tmp_path / "never"
    args = ["audit", target("book_mechanisms.py:laplace"), "--epsilon", "1", "--input", "scalar:0,1",
            "--chunk-size", "500", "--out", str(out)]  # fmt: skip
    with pytest.raises(SystemExit) as e:  # the flag: argparse's usage and error, exit 2
        main([*args, "--scheduler", "local:0"])
    assert e.value.code == 2 and "--scheduler must be local:N (N >= 1)" in capsys.readouterr().err
    monkeypatch.setenv(SCHEDULER_ENV, "no such scheduler")  # the environment: one line, exit 2
    assert main(args) == 2 and not out.exists()
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"{SCHEDULER_ENV} must be local:N" in err


def test_chunked_audit_equals_its_definition_and_keeps_its_power(tmp_path):
    """chunk_size=C: the event chosen on min(samples/2, C) selection outputs, the evaluation counted in chunks
    (each from its own stream); on the half-noise mean (true ε = 2) the bound still exceeds the claim, and the
    report depends on C only (here n_jobs=1; tests/test_parallel_dask.py checks n_jobs=2 and a cluster)."""
    f = load_target(target("laplace_mean.py:half_noise_mean"))
    kw = dict(epsilon=1.0, neighbours="replace-one", inputs="dataset:10,0,1", samples=N, seed=3)
    rep = audit_callable(f, chunk_size=7_000, **kw)
    again = audit_callable(f, chunk_size=7_000, **kw)
    other = audit_callable(f, chunk_size=9_000, **kw)
    assert rep.verdict == "violated" and 1.0 < rep.epsilon_lower <= 2.0
    assert rep.table.equals(again.table) and not rep.table.equals(other.table)
    chosen = rep.table[rep.table.chosen].iloc[0]
    assert chosen.n_eval == N - 7_000  # the direction was fixed on one chunk, the rest counted
    assert chosen.k_a == round(rep.p_a * chosen.n_eval) and chosen.k_b == round(
        rep.p_b * chosen.n_eval
    )
    assert 0 < min(chosen.k_a, chosen.k_b) < max(chosen.k_a, chosen.k_b)
    assert "counted in chunks of 7000" in rep.to_markdown()
    rep.save(tmp_path)  # the figure shows the selection samples
    assert (tmp_path / "report.png").stat().st_size > 0


def test_chunked_string_outputs():
    """String outputs counted in chunks: the codes are frozen after the selection, so a value it never saw is in no
    event (the event's name lists its members), whichever chunk, task or worker meets it."""
    from dpcompendium.book.usercode.events import _Encoder

    def rare(v, rng, size=None):  # 'c' with probability 1e-4: absent from 500 selection samples
        u = rng.random(() if size is None else size)
        return np.where(u < 1e-4, "c", np.where((u < 0.9) == (v > 0), "yes", "no"))

    kw = dict(epsilon=1.0, inputs="ldp", samples=20_000, chunk_size=500, seed=4)
    rep = audit_callable(rare, **kw)
    assert rep.verdict == "violated" and "'c'" not in rep.event  # ln 9 ≈ 2.2 > 1
    enc = _Encoder()
    enc(np.array(["no", "yes"]))
    frozen = enc.frozen_copy()
    np.testing.assert_array_equal(frozen(np.array(["c", "yes", "d"]))[:, 0], [np.nan, 1.0, np.nan])
    assert frozen.codes == {"no": 0, "yes": 1}


def test_cli_user_code_errors_exit_2(tmp_path, capsys):
    bad = tmp_path / "student.py"
    bad.write_text(
        "import numpy as np\n\ndef noisy(x, rng, size=None):\n    return x + np.random.laplace(size=size)\n"
    )
    rc = main(
        [
            "audit",
            f"{bad}:noisy",
            "--epsilon",
            "1",
            "--input",
            "scalar:0,1",
            "--out",
            str(tmp_path / "o"),
        ]
    )
    assert rc == 2 and not (tmp_path / "o").exists()
    assert "not reproducible" in capsys.readouterr().err
    rc = main(["audit", f"{bad}:missing", "--epsilon", "1", "--input", "scalar:0,1"])
    assert rc == 2 and "defines no function 'missing'" in capsys.readouterr().err


def _page_console_examples(command: str) -> list[tuple[list[str], list[str]]]:
    """(argv, printed lines) of every ``$ dpcompendium COMMAND ...`` example in book/coursework.md's console blocks,
    paths made absolute (the page's commands run from the repository root)."""
    import re
    import shlex

    root = Path(__file__).resolve().parents[1]
    page = (root / "book" / "coursework.md").read_text(encoding="utf8")
    out = []
    for block in re.findall(r"```console\n(.*?)```", page, flags=re.S):
        for cmd, printed in re.findall(
            rf"\$ (dpcompendium {command} .*?)\n((?:[^$].*\n)+)", block.replace("\\\n", "")
        ):
            args = [str(root / a) if a.startswith("examples/") else a for a in shlex.split(cmd)[1:]]
            out.append((args, [line.strip() for line in printed.strip().splitlines()]))
    return out


def test_book_page_quotes_the_commands_output(tmp_path, capsys):
    """Every ``dpcompendium audit`` console example of book/coursework.md, run verbatim, prints what the page says
    (a ``dpcompendium: error:`` line: on stderr, exit status 2, nothing written)."""
    examples = _page_console_examples("audit")
    assert len(examples) >= 10
    for i, (args, lines) in enumerate(examples):
        out = tmp_path / str(i)
        error = lines[0].startswith("dpcompendium: error:")
        assert main([*args, "--out", str(out)]) == (2 if error else 0), args
        printed = capsys.readouterr()
        shown = (printed.err if error else printed.out).splitlines()
        for line in lines:
            assert line in shown, (args, line, shown)
        assert out.exists() != error


@pytest.mark.extended
def test_book_page_quotes_the_check_commands_output(tmp_path, capsys):
    """The page's ``dpcompendium check mwem`` examples, verbatim (the default 100 runs: about 70 s of CPU in all,
    hence ``extended``; tests/test_check_mwem.py checks the same verdicts with 5 runs in make test)."""
    examples = _page_console_examples("check")
    assert len(examples) == 3
    for i, (args, lines) in enumerate(examples):
        assert main([*args, "--out", str(tmp_path / str(i))]) == 0
        shown = capsys.readouterr().out.splitlines()
        assert shown[0] == lines[0], (args, shown[:2])


def test_bound_is_valid_over_the_pair_search():
    """With the claim equal to the true ε, the bound exceeds it with probability ≤ 1 − confidence = 0.05, search
    over pairs and events included: over 20 seeds, more than 5 violations has probability < 3e-4."""
    f = load_target(target("laplace_mean.py:correct_mean"))
    lows = [
        audit_callable(
            f, epsilon=1.0, neighbours="replace-one", inputs="dataset:5,0,1", samples=2000, seed=s
        )
        for s in range(20)
    ]
    assert sum(r.epsilon_lower > 1.0 for r in lows) <= 5
    assert np.median([r.epsilon_lower for r in lows]) > 0.5  # and it is not trivially 0


DATA = Path(__file__).resolve().parent / "data"

#: Relative tolerance for a stored report's floats (book/reproducibility.md): the selection estimate and the lower
#: bound are logs of count ratios and a Clopper–Pearson quantile (scipy's beta inverse, iterated), each a handful
#: of libm operations of a few ulp on well-conditioned inputs, so another CPU or libm moves them by < 1e-14; 1e-12
#: leaves a margin of 100, and a changed selection or count moves them by > 1e-4.
STORED_RTOL = 1e-12


def assert_equals_stored_report(table: pd.DataFrame, name: str) -> None:
    """A report equals one stored from an earlier run (on another machine): its pairs, events, choices and counts
    exactly (the counts are floats only because of missing values), its floats to STORED_RTOL."""
    stored = pd.read_csv(DATA / name)
    got = pd.read_csv(io.StringIO(table.to_csv(index=False)))  # as read back from the CSV file
    pd.testing.assert_frame_equal(got, stored, check_exact=False, rtol=STORED_RTOL, atol=0)
    counts = ["k_a", "k_b", "n_eval"]
    pd.testing.assert_frame_equal(got[counts], stored[counts], check_exact=True)


def test_chunked_selection_runs_as_tasks_and_matches_the_serial_report(tmp_path):
    """chunk_size=C: each candidate pair's selection (its min(samples/2, C) outputs per input, the statistics, the
    best interval) is one task; with n_jobs=2 every draw but the function check's happens in worker processes (the
    direction's selection samples too, on snapshots of the generator), and the report's CSV is byte-identical with
    n_jobs=1 and to the one written by the serial selection (main at 9233048, before the tasks:
    tests/data/user_audit_chunked_main.csv)."""
    import os

    half = load_target(target("laplace_mean.py:half_noise_mean"))
    log = tmp_path / "calls"
    log.mkdir()

    def logged(data, rng, *, epsilon, size=None):  # half_noise_mean, noting which process drew what
        with open(log / f"{os.getpid()}.log", "a") as fh:
            fh.write(f"{np.sum(data):g} {size}\n")
        return half(data, rng, epsilon=epsilon, size=size)

    # the declared pairs only (probes=False, mixed=False): the golden file predates the probes beyond [A, B] and
    # the datasets mixing A and B
    kw = dict(epsilon=1.0, neighbours="replace-one", inputs="dataset:10,0,1", samples=40_000, seed=3,
              probes=False, mixed=False)  # fmt: skip
    first = None
    for n_jobs in (1, 2):
        for f in log.iterdir():
            f.unlink()
        rep = audit_callable(logged, chunk_size=7_000, n_jobs=n_jobs, **kw)
        written = rep.save(tmp_path / f"jobs{n_jobs}")[0]
        first = first or written.read_bytes()
        assert written.read_bytes() == first  # byte-identical whatever n_jobs (one machine)
        assert_equals_stored_report(pd.read_csv(written), "user_audit_chunked_main.csv")
        calls = {int(f.stem): f.read_text().split("\n")[:-1] for f in log.iterdir()}
        driver = calls.pop(os.getpid(), [])
        # the pair not chosen, (0, …, 0) vs (0, …, 0, 1): its 7000 selection outputs per input drawn once per input
        every = [c for lines in [driver, *calls.values()] for c in lines]
        unchosen = [c for c in every if c in ("0 7000", "1 7000")]
        assert sorted(unchosen) == ["0 7000", "1 7000"]
        if (
            n_jobs == 2
        ):  # ... in a worker; this process only checks the function (32 draws), every sample is drawn
            # in the workers: the selection, the direction fixed on the chosen pair, the evaluation chunks
            # (and the dependence check, DEPENDENCE_DRAWS per input: is the output constant, does it use the data?)
            checks = {c for c in driver if not c.endswith(f" {DEPENDENCE_DRAWS}")}
            assert checks == {"0 32"} and calls
    assert (
        rep.pair == "[1, 1, 1, 1, 1, 1, 1, 1, 1, 1] vs [1, 1, 1, 1, 1, 1, 1, 1, 1, 0]"
        and rep.verdict == "violated"
    )


def test_chunked_string_selection_in_tasks_keeps_the_serial_codes():
    """String outputs: the tasks first return each input's distinct strings, the codes are built in the serial
    order, then the pairs are selected with them: the report equals the serial selection's (main at 9233048)."""

    def rare(v, rng, size=None):
        u = rng.random(() if size is None else size)
        return np.where(u < 1e-4, "c", np.where((u < 0.9) == (v > 0), "yes", "no"))

    first = None
    for n_jobs in (1, 2):
        rep = audit_callable(
            rare, epsilon=1.0, inputs="ldp", samples=20_000, chunk_size=500, seed=4, n_jobs=n_jobs
        )
        csv = rep.table.to_csv(index=False)
        first = first or csv
        assert csv == first  # byte-identical whatever n_jobs (one machine)
        assert_equals_stored_report(rep.table, "user_audit_chunked_strings_main.csv")
        assert rep.event == "output in {'yes'}, M(D') over M(D)"


# ------------------------------------------------------------------------- the claim, validated once
@pytest.mark.parametrize(
    ("args", "match"),
    [
        (["--epsilon", "0"], "--epsilon must be finite and > 0, got 0.0"),
        (["--epsilon", "inf"], "--epsilon must be finite and > 0, got inf"),
        (["--epsilon", "nan"], "--epsilon must be a real number, got nan"),
        (["--epsilon", "1", "--delta", "1.5"], "--delta must be in [0, 1), got 1.5"),
    ],
)
def test_cli_bad_claim_one_line_nothing_written(tmp_path, capsys, args, match):
    """The CLI passes the claim on unchecked; audit_callable's claim rejects it, named by its option, before
    anything runs or is written."""
    out = tmp_path / "never"
    rc = main(
        [
            "audit",
            target("book_mechanisms.py:laplace"),
            *args,
            "--input",
            "scalar:0,1",
            "--out",
            str(out),
        ]
    )
    assert rc == 2 and not out.exists()
    err = capsys.readouterr().err
    assert match in err and err.count("\n") == 1


@pytest.mark.parametrize("epsilon", [-1.0, math.inf, math.nan, True, "1"])
def test_audit_callable_bad_epsilon_names_it(epsilon):
    with pytest.raises(ValueError, match=r"^epsilon must be") as info:
        audit_callable(lambda d, rng, size=None: d + rng.laplace(size=size), epsilon=epsilon,
                       inputs="scalar:0,1")  # fmt: skip
    assert "\n" not in str(info.value)


def test_the_claim_is_validated_once(tmp_path, monkeypatch):
    """One PrivacyClaim per audit (the CLI's and audit_callable's checks are that one), and the engine never
    re-checks ε or δ: its number path (claimed_privacy's check_epsilon/check_delta) is not taken."""
    import dpcompendium.core.audit.result as result
    from dpcompendium.core.privacy import PrivacyClaim

    made = []
    post_init = PrivacyClaim.__post_init__

    def counting(self):
        made.append(self.mechanism)
        post_init(self)

    def never(*args, **kwargs):
        raise AssertionError("the engine re-validated an already validated claim")

    monkeypatch.setattr(PrivacyClaim, "__post_init__", counting)
    monkeypatch.setattr(result, "check_epsilon", never)
    monkeypatch.setattr(result, "check_delta", never)
    mod = load_module(str(EX / "book_mechanisms.py"))
    audit_callable(mod.laplace, epsilon=1.0, inputs="scalar:0,1", samples=1000)
    assert made == ["laplace"]
    made.clear()  # with a pmf: every pair's exact audit and the empirical one share the claim
    audit_callable(
        mod.grr, pmf=mod.grr_pmf, epsilon=1.0, inputs="category:3", params={"k": 3}, samples=1000
    )
    assert made == ["grr"]
    made.clear()
    rc = main(["audit", target("book_mechanisms.py:gaussian"), "--epsilon", "0.5", "--delta", "1e-5",
               "--input", "scalar:0,1", "--samples", "1000", "--out", str(tmp_path / "g")])  # fmt: skip
    assert rc == 0 and made == ["gaussian"]


# ------------------------------------------------------------------------- issue 34: the literature's language
def test_literal_sparse_vector_with_varying_length_and_none_audits():
    """A sparse vector written literally — a list that ends at the c-th True, or None for the queries it does not
    answer — audits without error; the wrong one (no query noise) is VIOLATED, the correct one HOLDS."""
    mod = load_module(str(EX / "sparse_vector.py"))
    kw = dict(epsilon=0.7, inputs="queries:10", sensitivity=1, samples=6000, seed=0)
    bad, good = (
        audit_callable(mod.sparse_vector_no_query_noise, **kw),
        audit_callable(mod.sparse_vector, **kw),
    )
    assert bad.verdict == "violated" and bad.epsilon_lower > 0.7, bad.summary()
    assert good.verdict == "holds" and "(queries neighbours)" in good.summary(), good.summary()
    assert not good.warnings and not bad.warnings


def _mixed_outputs(data, rng):
    """Tuples, None, strings, booleans and NaN in one output."""
    x = float(np.sum(data)) + rng.laplace(scale=1.0)
    return (x > 0.5, None if x < 0 else "pos", float("nan") if x > 2 else x)


def test_outputs_of_any_type_are_encoded():
    rep = audit_callable(_mixed_outputs, epsilon=5.0, inputs="scalar:0,1", samples=2000, seed=0)
    assert rep.verdict in ("holds", "violated") and math.isfinite(rep.epsilon_lower)


def _constant(data, rng, size=None):
    return np.full(size, 3.0)


def _ignores_data(data, rng, size=None):
    return rng.laplace(size=size)


def test_constant_and_input_independent_outputs_get_a_warning():
    rep = audit_callable(_constant, epsilon=1.0, inputs="scalar:0,1", samples=1000)
    assert rep.warnings and "never varies" in rep.warnings[0] and "WARNING" in rep.summary()
    rep2 = audit_callable(_ignores_data, epsilon=1.0, inputs="scalar:0,1", samples=1000)
    assert rep2.warnings and "does not depend on its input" in rep2.warnings[0]
    good = audit_callable(load_target(target("laplace_mean.py:correct_mean")), epsilon=1.0,
                          neighbours="replace-one", inputs="dataset:5,0,1", samples=1000)  # fmt: skip
    assert not good.warnings


def test_positional_replace_one_refuses_with_the_rule_and_queries_accepts():
    """Issue 34's regression: [0,1,1,1,1] / [1,1,1,1,5] was accepted (as multisets, one value moved by 4) and
    [1,2,1,1,1] / [2,1,1,1,1] refused; records are now compared position by position, vectors of answers are
    `queries` inputs."""
    f = load_target(target("laplace_mean.py:correct_mean"))
    with pytest.raises(
        ValueError, match=r"exactly one record \(row\) replaced.*records 0, 4 differ"
    ) as info:
        audit_callable(
            f, epsilon=1.0, neighbours="replace-one", pair=([0, 1, 1, 1, 1], [1, 1, 1, 1, 5])
        )
    assert "\n" not in str(info.value)
    with pytest.raises(ValueError, match="answer 4 moves by 4"):
        audit_callable(f, epsilon=1.0, neighbours="queries", sensitivity=1,
                       pair=([0, 1, 1, 1, 1], [1, 1, 1, 1, 5]))  # fmt: skip
    rep = audit_callable(f, epsilon=1.0, neighbours="queries", sensitivity=1,
                         pair=([1, 2, 1, 1, 1], [2, 1, 1, 1, 1]), samples=1000)  # fmt: skip
    assert "[1, 2, 1, 1, 1] vs [2, 1, 1, 1, 1]" in rep.summary()


def test_queries_family_patterns_are_neighbours():
    pairs = input_pairs("queries:5", neighbour_kw={"sensitivity": 2.0})
    names = " ".join(pr.name for pr in pairs)
    for pattern in ("one up, rest down", "half up, half down", "all up", "alternating", "X shape"):
        assert pattern in names
    for pr in pairs:
        assert are_neighbours(pr.raw_a, pr.raw_b, "queries", sensitivity=2.0)
        assert np.max(np.abs(pr.a - pr.b)) == 2.0
    l1 = input_pairs("queries:4", neighbour_kw={"sensitivity": 1.0, "norm": "l1"})
    assert all(np.abs(pr.a - pr.b).sum() <= 1.0 + 1e-12 for pr in l1)
    with pytest.raises(ValueError, match="sensitivity"):
        input_pairs("queries:5")


def test_long_pairs_are_printed_in_full_and_written_to_pair_json(tmp_path):
    import json

    f = load_target(target("laplace_mean.py:correct_mean"))
    rep = audit_callable(f, epsilon=1.0, neighbours="replace-one", inputs="dataset:20,0,1", samples=1000,
                         probes=False)  # fmt: skip
    assert rep.pair.count(",") == 2 * 19  # two lists of 20 values, all shown
    rep.save(tmp_path)
    pair = json.loads((tmp_path / "pair.json").read_text())
    assert len(pair["D"]) == 20 and len(pair["D'"]) == 20


@pytest.mark.numerics
@pytest.mark.parametrize("d, missing", [(1, False), (6, True), (30, False)])
def test_compiled_tree_scores_are_scikit_learns_bit_for_bit(d, missing):
    """The learned event's compiled scorer (events._tree_scores) against its reference, scikit-learn's
    predict_proba: the same probabilities, bit for bit, on outputs with NaN, ±inf and the training rows."""
    from sklearn.ensemble import HistGradientBoostingClassifier
    from threadpoolctl import threadpool_limits

    from dpcompendium.book.usercode import events

    rng = np.random.default_rng(d)
    X = rng.normal(size=(4000, d))
    y = (X[:, 0] + rng.normal(size=4000) > 0).astype(float)
    if missing:
        X[rng.random(X.shape) < 0.1] = np.nan
    model = HistGradientBoostingClassifier(
        max_iter=20, max_leaf_nodes=15, early_stopping=False, random_state=0
    ).fit(X, y)
    Z = 2 * rng.normal(size=(3000, d))
    for value, share in ((np.nan, 0.05), (np.inf, 0.01), (-np.inf, 0.01)):
        Z[rng.random(Z.shape) < share] = value
    Z = np.vstack([Z, X])
    trees = events._flat_trees(model)
    assert trees is not None and trees.roots.size == 20
    with threadpool_limits(limits=1, user_api="openmp"):
        want = model.predict_proba(Z)[:, 1]
    got = events._tree_scores(Z, model, trees)
    assert got.dtype == want.dtype and np.array_equal(got, want)
    # the statistic the audit uses takes the compiled path and gives the same scores
    stat = events._learned_statistic(X[:2000], X[2000:])
    assert stat.fn.keywords["trees"] is not None
    ref = stat.fn.keywords["model"].predict_proba(Z)[:, 1]
    assert np.array_equal(stat.fn(Z), ref)


def test_learned_statistic_of_few_distinct_outputs_is_their_frequency_table():
    """issue 50: outputs with few distinct values (a sparse vector's patterns) get the plug-in Bayes classifier —
    each distinct output's P̂(D' | o) from its add-½ frequencies on the training rows, ½ for an output never seen —
    and it orders the outputs by their likelihood ratio; continuous outputs keep the boosted trees."""
    import pickle

    from dpcompendium.book.usercode import events

    rng = np.random.default_rng(11)
    patterns = np.array([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0], [0.0, 0.0, 0.0]])
    pa, pb = np.array([0.4, 0.3, 0.2, 0.1]), np.array([0.1, 0.2, 0.3, 0.4])
    xa = patterns[rng.choice(4, size=6000, p=pa)]
    xb = patterns[rng.choice(4, size=5000, p=pb)]
    stat = events._learned_statistic(xa, xb)
    assert stat.key == "learned" and "table" in stat.fn.keywords
    k_a = np.array([(xa == p).all(1).sum() for p in patterns])
    k_b = np.array([(xb == p).all(1).sum() for p in patterns])
    r_a, r_b = (k_a + 0.5) / len(xa), (k_b + 0.5) / len(xb)
    want = r_b / (r_a + r_b)
    unseen = np.array([[1.0, 1.0, 1.0]])
    got = stat.fn(np.vstack([patterns, unseen, patterns[::-1]]))
    assert np.array_equal(got, np.r_[want, 0.5, want[::-1]])
    assert np.all(np.diff(got[:4]) > 0)  # the likelihood ratio's order
    assert stat.fn(np.empty((0, 3))).shape == (0,)
    again = pickle.loads(pickle.dumps(stat.fn))  # a selection task returns it from a worker
    assert np.array_equal(again(patterns), want)
    # many distinct outputs: the boosted trees, as before
    cont = events._learned_statistic(rng.normal(size=(3000, 3)), 0.3 + rng.normal(size=(3000, 3)))
    assert "model" in cont.fn.keywords


def test_table_test_on_a_probe_and_column_medians_agree_with_their_references():
    """issue 50: the learned event's table-or-trees test is decided on a probe of the training rows only when the
    probe alone already has too many distinct rows (then all of them do), and the column medians come from a
    transposed copy: both give what the full count and ``np.median(x, 0)`` give, bit for bit."""
    from dpcompendium.book.usercode import events

    g = np.random.default_rng(5)
    cases = [
        g.normal(size=(20_000, 4)),  # continuous: many distinct rows
        g.choice([0.0, 1.0], size=(20_000, 6)),  # 64 patterns
        g.choice([0.0, 1.0], size=(20_000, 9)),  # 512 patterns: more than 20 000 // 64
        np.vstack([np.zeros((19_000, 3)), g.normal(size=(1_000, 3))]),  # distinct rows only late
        np.vstack([g.normal(size=(300, 2)), np.zeros((19_700, 2))]),  # distinct rows only early
        np.array([[-0.0, 1.0], [0.0, 1.0], [np.nan, 2.0]] * 100),  # bytes: −0.0 ≠ 0.0, one NaN row
    ]
    for x in cases:
        limit = x.shape[0] // events.TABLE_ROWS_PER_OUTPUT
        full = events._distinct_rows(x)[0].shape[0] <= limit
        assert (events._few_distinct_rows(x, limit) and full) == full
        if not events._few_distinct_rows(x, limit):
            assert not full
        for y in (x, x[:5001], x[:1]):
            assert np.median(y, 0).tobytes() == events._column_medians(y).tobytes()


@pytest.mark.parametrize(
    "make",
    [
        lambda g: g.choice([0.0, 1.0, np.nan], size=(500, 12)),  # a sparse vector's outputs
        lambda g: np.where(g.random(400) < 0.2, np.nan, g.normal(size=400)),
        lambda g: g.normal(size=300),
        lambda g: g.integers(0, 5, size=(50, 3)),
        lambda g: g.integers(0, 2, size=60).astype(bool),
        lambda g: g.normal(size=(20, 4)).astype(np.float32),
        lambda g: np.array([-0.0, 0.0, 1e308, -5e-324]),
    ],
)
def test_canonical_of_numeric_outputs_equals_the_structured_path(make):
    """describe.canonical's numeric fast path gives the values as_structured gives, type for type (issue 50)."""
    from dpcompendium.book.usercode import describe
    from dpcompendium.book.usercode.sampling import as_structured

    out = make(np.random.default_rng(4))
    fast, slow = describe.canonical(out), list(as_structured(list(out), "function"))
    assert [repr(v) for v in fast] == [repr(v) for v in slow]
    assert [type(v) for v in fast] == [type(v) for v in slow]


def test_canonical_of_an_infinite_output_still_refuses_it():
    from dpcompendium.book.usercode import describe

    with pytest.raises(UserCodeError, match="infinite"):
        describe.canonical(np.array([[0.0, np.inf]]))


def test_unique_rows_by_key_are_the_distinct_rows_by_bytes(monkeypatch):
    """issue 50: a classifier scores each distinct output row once; the rows are found by a 64-bit key per row
    (sorted as integers), checked byte for byte: the same rows as the byte sort, each row mapped back to its own, and
    the byte sort where two distinct rows share a key."""
    from dpcompendium.book.usercode import events as ev

    rng = np.random.default_rng(5)
    x = rng.integers(-1, 2, size=(20_000, 10)).astype(float)
    x[x < 0] = np.nan  # ⊤ / ⊥ / not answered, as the sparse vectors' outputs
    x[:, 6:] = 0.0  # few distinct rows (3^6)
    rows, inverse = ev._unique_rows(x)
    assert inverse is not None and np.array_equal(rows[inverse].view(np.uint64), x.view(np.uint64))
    by_bytes = np.unique(x.view(np.dtype((np.void, 8 * x.shape[1]))).ravel())
    assert {r.tobytes() for r in rows} == {b.tobytes() for b in by_bytes} and len(
        rows
    ) == by_bytes.size
    # every key equal: the check finds the shared key and the byte sort answers, with the same rows
    monkeypatch.setattr(ev, "_ROW_KEY_MULTIPLIERS", np.zeros(64, dtype=np.uint64))
    assert ev._unique_rows_hashed(x) is None
    rows2, inverse2 = ev._unique_rows(x)
    assert np.array_equal(rows2[inverse2].view(np.uint64), x.view(np.uint64)) and len(rows2) == len(
        rows
    )


# ------------------------------------------------------------------- issue 45: a bound the samples cannot give
def test_bound_text_says_too_few_samples_instead_of_a_number():
    """A bound no count on the other input could lift above 0 (or a NaN) is worded "too few samples to bound ε" in
    both editions, never printed as 0 or NaN; a real bound, and an infinite leak, keep their wording."""
    from dpcompendium.book.usercode import describe

    for eps, k_a, k_b in ((0.0, 1, 0), (0.0, 0, 0), (math.nan, 3, 0)):
        text = describe.bound_text(eps, 0.95, k_a, k_b, 500, True, delta=1e-5)
        assert str(text).startswith("too few samples to bound ε"), text
        assert f"happened in {k_a} of 500 samples on D," in str(text)
        zh = text.in_language("zh_CN")
        assert zh.startswith("样本太少") and "nan" not in zh.lower() and "500" in zh
    # the other direction names D′
    assert "on D′" in str(describe.bound_text(0.0, 0.95, 0, 1, 500, False))
    assert (
        str(describe.bound_text(1.951, 0.95, 400, 50, 500, True))
        == "audited ε ≥ 1.951 with confidence 0.95"
    )
    assert str(describe.bound_text(3.0, 0.95, 400, 0, 500, True)).startswith("an infinite leak")
    # a count that could give a bound (had the other input never shown the event) is a bound, even at 0
    assert str(describe.bound_text(0.0, 0.95, 400, 400, 500, True)).startswith("audited ε ≥ 0.000")


def test_audit_at_1000_samples_words_a_bound_it_cannot_give(tmp_path, capsys):
    """Issue 45: the (ε, δ) Gaussian audited at 1 000 samples chooses a far-tail event seen once: the line says "too
    few samples to bound ε", not "ε ≥ 0.000" (nor NaN)."""
    rc = main(["audit", target("book_mechanisms.py:gaussian"), "--epsilon", "0.5", "--delta", "1e-5",
               "--input", "scalar:0,1", "--samples", "1000", "--no-exact", "--out", str(tmp_path / "g")])  # fmt: skip
    out = capsys.readouterr().out
    assert rc == 0 and "too few samples to bound ε" in out, out
    assert "ε ≥ 0.000" not in out and "nan" not in out.lower()
    assert "too few samples to bound" in (tmp_path / "g" / "report.md").read_text(encoding="utf-8")
