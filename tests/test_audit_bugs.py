"""The second benchmark, from the DP-bug literature (:mod:`dpcompendium.chapters.privacy_audit.bugs`, issue 51):
every mechanism judged right at the audit's default samples, and no false VIOLATED.

- the table and the functions (vectorized, the outputs of one call the same as of ``size`` calls), the true ε of the
  winsorized mean and of Poisson subsampling recomputed: unit tests, seconds;
- every mechanism at 200 000 samples per input (the CLI default), seed 0: ``integration`` (21 audits; wall time on
  the shared 2-core machine: about 6.5 min in all).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from dpcompendium.book.usercode import audit_callable, input_pairs
from dpcompendium.chapters.privacy_audit import bugs
from dpcompendium.core.audit.spec import are_neighbours

MECHS = {m.name: m for m in bugs.BUGS}


def _input(m):
    """One input of the mechanism's family (the first pair's D), as the function receives it."""
    kw = {"sensitivity": m.sensitivity, "norm": m.norm} if m.sensitivity is not None else None
    pr = input_pairs(m.inputs, m.neighbours, neighbour_kw=kw)[0]
    return pr.a


def test_the_table_has_fifteen_mechanisms_or_more_about_half_private():
    assert len(bugs.BUGS) >= 15 and len(MECHS) == len(bugs.BUGS)
    private = sum(m.private for m in bugs.BUGS)
    assert 0.4 <= private / len(bugs.BUGS) <= 0.6
    for m in bugs.BUGS:  # a private mechanism's true ε is within its claim, a wrong one's beyond it
        assert (m.true_epsilon <= m.epsilon * (1 + 1e-9)) == m.private, m.name
    relations = {m.neighbours or m.inputs.partition(":")[0] for m in bugs.BUGS}
    assert {
        "one-query",
        "monotone",
        "replace-one",
        "add-remove",
        "queries",
        "category",
    } <= relations


@pytest.mark.parametrize("name", list(MECHS))
def test_functions_are_vectorized(name):
    m = MECHS[name]
    rng = np.random.default_rng(0)
    x = _input(m)
    kw = {"epsilon": m.epsilon, **({"delta": m.delta} if m.delta else {}), **m.params}
    if "epsilon" not in m.function.__code__.co_varnames:
        kw.pop("epsilon")
    one, many = m.function(x, rng, **kw), m.function(x, rng, size=7, **kw)
    assert len(many) == 7
    if one is not None:
        assert np.shape(many[0]) == np.shape(one), name


def test_true_epsilons_from_the_definitions():
    """The winsorized mean's worst mixed pair moves it by 0.19 (noise scale 0.1 at ε = 1); Poisson subsampling at
    q = 0.1 of a 2-DP sum is ln(1 + 0.1(e² − 1)) = 0.494-DP, above the linear 0.2 and below the claimed 0.5."""
    zero = np.random.default_rng(0)

    def f(d):  # the winsorized mean without its noise
        x = np.asarray(d, dtype=float)
        p10, p90 = np.percentile(x, [10, 90])
        return np.clip(x, p10, p90).mean()

    gaps = [
        abs(f(pr.a) - f(pr.b)) for pr in input_pairs("dataset:10,0,1", "replace-one", probe=False)
    ]
    assert math.isclose(
        max(gaps) / 0.1, MECHS["winsorized mean, clip bounds from the data"].true_epsilon
    )
    assert bugs.winsorized_mean(np.zeros(10), zero, epsilon=1.0, size=3).shape == (3,)
    eps = bugs.subsampled_true_epsilon(2.0, 0.1)
    assert math.isclose(eps, math.log(1 + 0.1 * (math.e**2 - 1))) and 0.2 < eps < 0.5


def test_the_one_query_and_monotone_families_fit_their_mechanisms():
    for name in ("PATE aggregator, one vote added", "monotone sparse vector (Alg. 7)"):
        m = MECHS[name]
        kw = {"sensitivity": m.sensitivity, "norm": m.norm}
        for pr in input_pairs(m.inputs, m.neighbours, neighbour_kw=kw):
            assert are_neighbours(pr.a, pr.b, m.neighbours, **kw)


#: Wall time of the whole benchmark at 200 000 samples, seed 0, measured on the shared 2-core machine under load (one
#: process): 388 s in all; the slowest, monotone sparse vector 110 s and the None-returning mean 96 s. Too long for
#: make test's budget (issue 50): it runs in make fuzz's extended pass (`pytest -m extended`), as the other
#: whole-benchmark runs beyond make test's fixed set do.
@pytest.mark.integration
@pytest.mark.extended
@pytest.mark.parametrize("name", list(MECHS))
def test_bug_benchmark_at_the_default_samples(name):
    """Claim at the mechanism's table, 200 000 samples per input, seed 0: every wrong mechanism VIOLATED, every
    private one HOLDS (no false VIOLATED), each bound at most the true ε of the family's worst pair."""
    m = MECHS[name]
    row = bugs.run_bugs(audit_callable, names=[name]).iloc[0]
    assert row.verdict == ("holds" if m.private else "violated"), row.report
    if math.isfinite(m.true_epsilon):
        assert row.epsilon_lower <= m.true_epsilon * (1 + 1e-9), row.report
