"""Solvers whose answers do not depend on the CPU (dpcompendium.core.numerics; book/reproducibility.md, "Solvers"):
the grid, and IDUE's budgets and HierA's graded schedule with the same bits natively and on another CPU's code paths."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from dpcompendium.chapters.hiera import hiera, idldp
from dpcompendium.core.numerics import (
    GRID_BITS,
    grid_index,
    grid_step_down,
    grid_value,
    snap_to_grid,
)

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
import portable  # noqa: E402

positive = st.floats(min_value=1e-6, max_value=1e6, allow_nan=False)


@given(positive)
def test_snap_is_within_half_a_step_and_on_the_grid(x):
    s = float(snap_to_grid(x))
    assert abs(s - x) <= x * 2.0**-GRID_BITS
    assert float(snap_to_grid(s)) == s
    assert float(grid_value(grid_index(s))) == s


@given(positive)
def test_step_down_is_the_next_grid_value_below(x):
    s = snap_to_grid(x)
    d = float(grid_step_down(s))
    assert d < float(s)
    assert float(grid_value(grid_index(s) - 1)) == d
    # nothing on the grid strictly between them
    assert float(snap_to_grid((d + float(s)) / 2)) in (d, float(s))


def test_bad_input():
    with pytest.raises(ValueError, match="bits"):
        snap_to_grid(1.0, bits=0)
    with pytest.raises(ValueError, match="x must be finite"):
        snap_to_grid([np.inf])
    with pytest.raises(ValueError, match="on the grid"):
        grid_step_down([0.1])


def test_the_issue_values_snap_to_one_value():
    """Native vs baseline SLSQP at base ε = 0.5 (issue 44): 0.5047629372542716 vs 0.5047629357808116."""
    assert snap_to_grid(0.5047629372542716) == snap_to_grid(0.5047629357808116)


BASES = (0.25, 0.5, 1.0, 1.5, 2.0, 2.5, 4.0)
_PROGRAM = """
import json, sys
import numpy as np
from dpcompendium.chapters.hiera import hiera, idldp
bases = json.loads(sys.argv[1])
out = {}
for b in bases:
    sched = np.asarray(hiera.HIERA_MULTIPLIERS) * b
    out[str(b)] = [[x.hex() for x in idldp.idue_budgets(sched)], [x.hex() for x in hiera.graded_schedule(b)]]
print(json.dumps(out))
"""


def _answers(env: dict[str, str]) -> dict:
    proc = subprocess.run(
        [sys.executable, "-c", _PROGRAM, json.dumps(BASES)],
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        check=True,
        timeout=600,
    )
    return json.loads(proc.stdout)


def test_solvers_give_the_same_bits_on_another_cpus_code_paths():
    """IDUE's budgets and the graded schedule: the same bits natively and with numpy's SIMD dispatch off, numba and
    OpenBLAS for a generic CPU (tools/portable.py --env) — where SLSQP's raw answers differed by 10⁻⁹–10⁻⁶."""
    native = {
        str(b): [
            [x.hex() for x in idldp.idue_budgets(np.asarray(hiera.HIERA_MULTIPLIERS) * b)],
            [x.hex() for x in hiera.graded_schedule(b)],
        ]
        for b in BASES
    }
    assert _answers(portable.reduced_env()) == native


@pytest.mark.parametrize("base", BASES)
def test_the_rounded_answers_still_meet_their_bounds(base):
    """The guarantee holds for the values the mechanisms use: IDUE's pair bound exactly, the graded bound with the
    margin."""
    sched = np.asarray(hiera.HIERA_MULTIPLIERS) * base
    rho = idldp.idue_budgets(sched)
    assert np.array_equal(snap_to_grid(rho), rho) or np.all(rho == sched.min())
    assert (idldp.idue_pair_epsilons(rho, sched.size) <= np.minimum.outer(sched, sched)).all()
    graded = hiera.graded_schedule(base)
    assert np.array_equal(snap_to_grid(graded), graded)
    bound = hiera.graded_targets(sched)
    assert hiera.graded_excess(graded, bound) <= -1e-9 * bound.max()
    assert np.all(np.diff(graded) <= 0)
