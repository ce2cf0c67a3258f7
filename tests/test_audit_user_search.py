"""Issue 51: the auditor finds what students write — datasets that mix the bounds, the ``monotone`` and
``one-query`` relations, reports that read (the event in words and values, an infinite leak said as such, in English
and Chinese), and the claim kept apart from the mechanism's parameters."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from dpcompendium.book.cli import main
from dpcompendium.book.usercode import audit_callable, input_pairs, load_module
from dpcompendium.book.usercode.families import mixed_counts, mixed_pairs
from dpcompendium.book.usercode.sampling import _as_output_array, _from_calls, _stack
from dpcompendium.core.audit.spec import are_neighbours, neighbour_violation

EX = Path(__file__).resolve().parents[1] / "examples" / "coursework"


# ---------------------------------------------------------------------------------------- datasets mixing the bounds
def test_mixed_datasets_are_neighbours_and_cover_every_mix_of_a_small_dataset():
    assert mixed_counts(10) == list(range(11))
    big = mixed_counts(1000)
    assert {0, 1, 999, 1000, 99, 100, 101, 899, 900, 901} <= set(big) and len(big) < 80
    for relation in ("replace-one", "add-remove"):
        for pr in mixed_pairs(10, 0.0, 1.0, relation):
            assert are_neighbours(pr.raw_a, pr.raw_b, relation), pr.name
            assert pr.kind == "mixed" and not pr.probe
    names = [pr.name for pr in input_pairs("dataset:10,0,1", "replace-one")]
    assert "[0, 0, 1, 1, 1, 1, 1, 1, 1, 1] vs [0, 1, 1, 1, 1, 1, 1, 1, 1, 1]" in names


def test_winsorized_mean_is_violated_from_the_family_alone():
    """A mean clipped to its own 10th and 90th percentiles (true ε of the pair (0, 0, 1×8) vs (0, 1×9): 1.9 at the
    claim 1) is VIOLATED from ``dataset:10,0,1`` with no witness pair given, and the report says what it searched."""
    mod = load_module(str(EX / "winsorized_mean.py"))
    rep = audit_callable(mod.winsorized_mean, epsilon=1.0, neighbours="replace-one",
                         inputs="dataset:10,0,1", samples=60_000)  # fmt: skip
    assert rep.verdict == "violated" and 1.0 < rep.epsilon_lower <= 1.9, rep.summary()
    assert rep.pair.count("0, 1") == 2  # a pair of mixed datasets, not one at a bound
    assert "9 mixing the bounds (k of 10 records at 1, the rest at 0, for k = 0…10)" in str(
        rep.coverage
    )
    # without the mixed datasets (the earlier family) the same audit misses it
    before = audit_callable(mod.winsorized_mean, epsilon=1.0, neighbours="replace-one",
                            inputs="dataset:10,0,1", samples=60_000, mixed=False)  # fmt: skip
    assert before.verdict == "holds", before.summary()


# ----------------------------------------------------------------------------------- the monotone and one-query relations
def test_monotone_and_one_query_relations_state_their_rule():
    up, mixed, one = [1, 1, 1], [2, 0, 1], [1, 2, 1]
    base = [1, 1, 1]
    assert are_neighbours(base, [2, 2, 1], "monotone", sensitivity=1)
    why = neighbour_violation(base, mixed, "monotone", sensitivity=1)
    assert "same direction" in why and "answer 0 goes up" in why and "\n" not in why
    assert are_neighbours(base, one, "one-query", sensitivity=1)
    assert "exactly one answer" in neighbour_violation(base, [2, 2, 1], "one-query", sensitivity=1)
    assert are_neighbours(up, mixed, "queries", sensitivity=1)
    kw = {"sensitivity": 1.0}
    mono = input_pairs("queries:6", "monotone", neighbour_kw=kw)
    assert len(mono) >= 8 and all(pr.relation == "monotone" for pr in mono)
    for pr in mono:
        step = pr.b - pr.a
        assert (step >= 0).all() or (step <= 0).all(), pr.name
    single = input_pairs("queries:6", "one-query", neighbour_kw=kw)
    assert len(single) == 6 and all(np.count_nonzero(pr.b - pr.a) == 1 for pr in single)
    with pytest.raises(ValueError, match="needs inputs queries:K"):
        input_pairs("dataset:5,0,1", "monotone")


def monotone_svt(queries, rng, *, epsilon, threshold=1.0, size=None):
    """Lyu–Su–Li Alg. 7 for monotonic queries, c = 1 (vectorized): ρ ~ Lap(2/ε), ν ~ Lap(2/ε), stop at the first
    ⊤ (NaN after it). ε-DP under monotone neighbours; about 1.5ε under queries."""
    q = np.asarray(queries, dtype=float)
    n = 1 if size is None else size
    rho = rng.laplace(scale=2 / epsilon, size=n)
    out = np.full((n, q.size), np.nan)
    live = np.ones(n, dtype=bool)
    for i in range(q.size):
        above = q[i] + rng.laplace(scale=2 / epsilon, size=n) >= threshold + rho
        out[live, i] = above[live]
        live &= ~above
    return out[0] if size is None else out


def test_monotone_sparse_vector_holds_under_monotone():
    rep = audit_callable(monotone_svt, epsilon=1.0, inputs="queries:10", sensitivity=1, samples=6_000,
                         neighbours="monotone")  # fmt: skip
    assert rep.verdict == "holds" and "(monotone neighbours)" in rep.summary(), rep.summary()
    assert "vs [2, 2, 2, 2, 2, 0" not in rep.summary()  # no pair moves answers both ways


@pytest.mark.integration
def test_monotone_sparse_vector_holds_under_monotone_and_the_report_names_the_relation():
    """At the default 200 000 samples (about 50 s): monotone SVT HOLDS under ``monotone``; under ``queries``
    (answers moving in opposite directions, where it is not ε-DP) it is VIOLATED — and each verdict line names the
    relation it tested."""
    kw = dict(epsilon=1.0, inputs="queries:10", sensitivity=1, samples=200_000, seed=0)
    mono = audit_callable(monotone_svt, neighbours="monotone", **kw)
    assert mono.verdict == "holds" and "(monotone neighbours)" in mono.summary(), mono.summary()
    general = audit_callable(monotone_svt, **kw)
    assert general.verdict == "violated" and "(queries neighbours)" in general.summary()
    assert general.epsilon_lower <= 1.5


# --------------------------------------------------------------------------------------------- reports that read
def test_the_none_leak_reads_as_a_sentence_in_english_and_chinese():
    mod = load_module(str(EX / "winsorized_mean.py"))
    rep = audit_callable(mod.large_values_mean, epsilon=1.0, neighbours="replace-one",
                         inputs="dataset:10,0,1", samples=2_000)  # fmt: skip
    line = rep.summary()
    assert rep.verdict == "violated"
    assert "output is None: 100 % on D, never (0 of 1000) on D′" in line, line
    assert (
        "an infinite leak as far as the samples show" in line and "ε ≥ 10" not in line.split("—")[1]
    )
    zh = rep.sentence().in_language("zh_CN")
    assert "违反" in zh and "从未出现" in zh and "无限的隐私泄露" in zh, zh
    assert rep.sentence().in_language("en").startswith("VIOLATED: claimed $\\varepsilon = 1$")


def test_a_finite_leak_names_its_interval_and_frequencies():
    mod = load_module(str(EX / "laplace_mean.py"))
    rep = audit_callable(mod.half_noise_mean, epsilon=1.0, neighbours="replace-one",
                         inputs="dataset:10,0,1", samples=20_000)  # fmt: skip
    event = str(rep.event_text)
    assert event.startswith("output") and " % on D, " in event and " % on D′" in event, event
    assert "audited ε ≥" in rep.summary() and "infinite" not in rep.summary()


# -------------------------------------------------------------------------- the claim and the mechanism's parameters
def two_releases(data, rng, *, epsilon=0.5, size=None):
    """Two Laplace releases of a value in [0, 1], each at ``epsilon`` (default 0.5): ε-DP for 2 × epsilon."""
    n = 1 if size is None else size
    out = float(np.asarray(data)) + rng.laplace(scale=1 / epsilon, size=(n, 2))
    return out[0] if size is None else out


def test_the_function_runs_at_its_own_default_and_the_report_says_so():
    kw = dict(epsilon=1.0, inputs="scalar:0,1", samples=40_000, seed=1)
    own = audit_callable(two_releases, **kw)  # claim 1, run at its default 0.5 per release: holds
    assert own.params == {} and own.sources == {"epsilon": (0.5, "default")}
    assert (
        own.verdict == "holds" and "function run with epsilon = 0.5 (its default)" in own.summary()
    )
    set_ = audit_callable(
        two_releases, params={"epsilon": 1.0}, **kw
    )  # two releases at ε = 1: 2-DP
    assert set_.verdict == "violated" and "epsilon = 1 (set with -p)" in set_.summary()
    mod = load_module(str(EX / "laplace_mean.py"))
    claimed = audit_callable(mod.correct_mean, epsilon=1.0, neighbours="replace-one",
                             inputs="dataset:5,0,1", samples=1_000)  # fmt: skip
    assert "epsilon = 1 (the claimed value: no default)" in claimed.summary()
    assert claimed.params["epsilon"] == 1.0


# ------------------------------------------------------------------------------------- calls without a size parameter
@pytest.mark.parametrize(
    "outs",
    [
        [0.5, 1.5, -2.0],
        [np.float64(1.0), 2, 3.5],
        [[True, False], [False, True]],
        [[True], [False, True], []],
        [None, 1.0, None],
        [(1.0, None), (2.0, "a")],
        ["yes", "no", "yes"],
        [["a", "b"], ["c", "d"]],
        [np.array([1.0, float("nan")]), np.array([2.0, 3.0])],
    ],
)
def test_outputs_of_one_call_each_convert_at_once_as_call_by_call(outs):
    at_once = _from_calls(list(outs), "f")
    one_by_one = _stack([_as_output_array(o, 1, "f", False) for o in outs])
    assert at_once.dtype == one_by_one.dtype and at_once.shape == one_by_one.shape
    if at_once.dtype.kind == "f":
        assert np.array_equal(at_once, one_by_one, equal_nan=True)
    else:
        assert list(at_once.tolist()) == list(one_by_one.tolist())


def test_cli_prints_what_the_search_covered(tmp_path, capsys):
    rc = main(["audit", f"{EX / 'winsorized_mean.py'}:winsorized_mean", "--epsilon", "1", "--neighbours",
               "replace-one", "--input", "dataset:10,0,1", "--samples", "2000", "--out", str(tmp_path / "o")])  # fmt: skip
    out = capsys.readouterr().out
    assert rc == 0 and "note: searched 14 candidate pairs (16 distinct inputs)" in out, out


def test_one_atom_outputs_encode_column_by_column_as_the_general_layout():
    """Outputs that are one atom each (a number, None, NaN, a string) take the encoder's fast path; its features
    are those of the general per-output layout."""
    from dpcompendium.book.usercode.events import _Encoder, _flatten
    from dpcompendium.book.usercode.sampling import as_structured

    outs = as_structured([None, 1.5, float("nan"), "a", 2.0, None, "b"], "f")
    enc = _Encoder()
    enc.fit(outs)
    enc.frozen = True
    ref = np.zeros((len(outs), 1 + 3 * enc.width))
    for i, o in enumerate(outs):
        atoms = _flatten(o)
        ref[i, 0] = len(atoms)
        for j, a in enumerate(atoms[: enc.width]):
            ref[i, 2 + 3 * j] = 1.0
            if a is None or a == "NaN":
                ref[i, 3 + 3 * j] = 1.0
            else:
                ref[i, 1 + 3 * j] = enc.codes.get(a, -1.0) if isinstance(a, str) else a
    assert np.array_equal(enc(outs), ref)
