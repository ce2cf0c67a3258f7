"""Referee 20's findings on hiera's counts (M-1, M-2, L-1, L-2, L-6): every count carries the flag of its verdicts
short of runs beside it (the SGD's leads, the claims table's cells and the summaries' tested counts), the claims
table answers graded Laplace, no count is pooled over comparators, the ε > 1 verdicts of the source's design have a
table, and HierA's MAE at the largest ε is read against the MAE of the rounding noise alone with its standard
error."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import pytest
from test_hiera_tuned_box import ALL, _runs
from test_hiera_verdicts import _small_runs

from dpcompendium.chapters import hiera
from dpcompendium.chapters.hiera import verdicts
from dpcompendium.core.messages import myst

NOTEBOOK = Path(__file__).resolve().parents[1] / "notebooks" / "hiera.ipynb"
UNIFORM = ["harmony", "pm"]
GRADED_B = ["harmony", "pm", "hybrid"]


@pytest.fixture(scope="module")
def sgd_table():
    # HierA calibrated a little above Harmony and PM, PrivUnitG tuned a little below the box's tuned arms: shown
    # verdicts on 8 runs, some of them short of runs
    levels = dict(ALL, **{"hiera-calibrated": 1.25, "privunitg-tuned": 0.33})
    return verdicts.sgd_comparisons(_runs(levels, spread=0.1))


@pytest.fixture(scope="module")
def methods_table():
    """Experiment 2 on small data, 12 runs, with some arms' errors scaled so that each guarantee has shown
    verdicts, some short of runs; graded Laplace well below HierA."""
    runs, _ = _small_runs()
    runs = runs.copy()
    for m, f in {"hiera-graded": 1.35, "idldp": 1.25, "graded-laplace": 0.25}.items():
        runs.loc[runs["method"] == m, "error"] *= f
    methods = hiera.simulate.summarize_mae(runs, "method")
    return methods, verdicts.methods_comparisons(methods, runs=runs)


def _short(table, a, bs, outcome=None):
    """The shown verdicts of A against ``bs`` that :func:`verdicts.short_runs` names, and the most runs they need."""
    rows = {(x, y, d, e): need for x, y, d, e, need in verdicts.short_runs(table)}
    keys = [
        ((a, b, d, float(e)), o)
        for a_, b, d, e, o in table[["a", "b", "dataset", "epsilon", "outcome"]].itertuples(
            index=False
        )
        if a_ == a and b in bs
    ]
    needs = [rows[k] for k, o in keys if k in rows and (outcome is None or o == outcome)]
    return len(needs), (int(max(needs)) if needs else 0)


def test_the_sgd_leads_flag_their_counts_short_of_runs(sgd_table):
    """M-1: the lead above HierA's SGD table and the tuned box's sentence said "higher in all 4 (1.46–2.67 times)"
    with no flag, though the rows below flag them."""
    k, need = _short(sgd_table, "hiera-calibrated", UNIFORM)
    assert k > 1
    lead = str(verdicts.sgd_hiera_lead(sgd_table, UNIFORM, 0.25, "8"))
    assert f"{k} of them short of runs: 8 made, up to {need} needed" in lead, lead
    a, bs = verdicts.TUNED_BOX
    k, need = _short(sgd_table, a, list(bs))
    assert k > 1
    box = str(verdicts.tuned_box(sgd_table))
    assert f"{k} of them short of runs: 8 made, up to {need} needed" in box, box
    zh = myst(verdicts.tuned_box(sgd_table), "zh_CN")
    assert f"其中 {k} 个重复次数不足" in zh, zh


def test_the_claims_cells_give_one_clause_per_comparator_each_flagged(sgd_table, methods_table):
    """M-1, L-1: the claims table's cells counted over Harmony and PM at once ("higher in 52 … of 72") and carried no
    flag; now one clause per comparator, each count with its own flag."""
    cell = str(verdicts.tally_each(sgd_table, "sgd", "hiera-calibrated", UNIFORM))
    clauses = cell.split(": ", 1)[1].split("; ")
    assert [c.split(",")[0] for c in clauses] == ["against Harmony (Duchi)", "against PM"], cell
    for b, clause in zip(UNIFORM, clauses, strict=True):
        c = verdicts.counts(sgd_table, "sgd", "hiera-calibrated", b)
        assert f"higher in all {c['n']}" in clause and c["worse"] == c["n"], clause
        k, need = _short(sgd_table, "hiera-calibrated", [b])
        flag = (
            f"{k} of them short of runs: 8 made, up to {need} needed"
            if k > 1
            else f"1 of them short of runs: 8 of {need}"
        )
        assert flag in clause, clause
    _, table = methods_table
    for a in ("hiera-graded", "idldp"):
        cell = str(verdicts.tally_each(table, "graded", a, GRADED_B))
        assert cell.count("; against ") == 2 and "Hybrid" in cell, cell
        for b in GRADED_B:
            c = verdicts.counts(table, "graded", a, b)
            part = cell.split(f"against {verdicts._method_md(b)}, ")[1].split(";")[0]
            if c["worse"]:
                assert f"higher in {c['worse']}" in part or f"higher in all {c['n']}" in part, part
            if _short(table, a, [b])[0]:
                assert "short of runs" in part, part
    zh = myst(verdicts.tally_each(table, "graded", "idldp", GRADED_B), "zh_CN")
    assert "双侧检验" in zh and zh.count("；对") == 2, zh


def test_the_claims_row_answers_graded_laplace_from_hieras_side(methods_table):
    """M-2: the row "HierA is more accurate than Harmony, PM, graded Laplace" answered only Harmony and PM. The pair
    is stored as (graded Laplace, HierA); the cell reads it for HierA: graded Laplace's "lower" is HierA's
    "higher"."""
    _, table = methods_table
    c = verdicts.counts(table, "source", "graded-laplace", "hiera")
    assert c["better"] > 0  # graded Laplace lower somewhere: HierA higher there
    cell = str(verdicts.tally_each(table, "source", "hiera", ["graded-laplace"]))
    assert cell.startswith("HierA (source's budgets)") and "against Graded Laplace" in cell, cell
    higher = f"higher in all {c['n']}" if c["better"] == c["n"] else f"higher in {c['better']}"
    assert higher in cell, cell
    if c["worse"]:
        assert f"lower in {c['worse']}" in cell, cell
    # the chapter's claims cell calls it
    code = _cell_source("glue-hiera-methods")
    assert '"hiera.lap_budgets"' in code and '["graded-laplace"]' in code


def test_the_summary_counts_per_comparator_with_flags(methods_table):
    """M-1, L-1: the summaries' "IDUE higher in 52 of 72" pooled the three comparators and carried no flag."""
    _, table = methods_table
    text = str(verdicts.graded_points(table, "1.5–2.1", ["hiera-graded", "idldp"], GRADED_B))
    assert "tested against Harmony, PM, Hybrid:" in text, text
    for a, name in (("hiera-graded", "HierA, graded guarantee"), ("idldp", "IDUE")):
        ks = [str(verdicts.counts(table, "graded", a, b)["worse"]) for b in GRADED_B]
        n = verdicts.counts(table, "graded", a, "harmony")["n"]
        assert f"{name} higher in {', '.join(ks)} of {n}" in text, text
        k, _ = _short(table, a, GRADED_B, outcome="worse")
        if k:
            assert f"{name} higher in {', '.join(ks)} of {n} ({k} of them short of runs)" in text
    zh = myst(
        verdicts.graded_points(table, "1.5–2.1", ["hiera-graded", "idldp"], GRADED_B), "zh_CN"
    )
    # HierA's graded arm keeps its full name in Chinese, where the short one would be every HierA's
    assert "HierA（分级保证）" in zh and "IDUE 在" in zh, zh


def test_the_source_design_above_eps_1_has_its_table(methods_table):
    """L-2: the ε > 1 verdicts of the source's design were in a sentence only; their table holds exactly them."""
    _, table = methods_table
    pairs = [("hiera", "harmony"), ("hiera", "pm")]
    _, tab = verdicts.families_text(
        table,
        "source",
        pairs,
        by_dataset=True,
        caption=verdicts.message("hiera.cap_q_source_large", eps="1"),
        min_epsilon=1.0,
    )
    assert "at ε > 1, by dataset" in tab.myst.splitlines()[0], tab.myst
    assert "ε > 1" in tab.in_language("zh_CN").splitlines()[0]
    large = table[
        (table["guarantee"] == "source") & (table["a"] == "hiera") & (table["epsilon"] > 1)
    ]
    assert len(large) and "ε = 0.5" not in tab.myst
    nb = _notebook()
    md = "".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown")
    assert "```{glue:md} hiera_source_table_large" in md
    assert 'glue("hiera_source_table_large"' in _cell_source("glue-hiera-methods")


def test_the_rounding_noise_ratio_has_its_standard_error(methods_table):
    """L-6: "its MAE sits at the rounding floor (… 0.908–1.26)": a ratio below a floor. The text names the MAE of
    the rounding noise alone (normal approximation) and gives each ratio's standard error, computed."""
    methods, _ = methods_table
    floor = {"uniform": 0.01, "normal": 0.02, "absent": 1.0}
    ratios, ses = verdicts.floor_ratios(methods, floor, 2.0)
    got = methods[(methods["method"] == "hiera") & (methods["epsilon"] == 2.0)].set_index("dataset")
    for (d, f), r, se in zip(list(floor.items())[:2], ratios, ses, strict=True):
        assert math.isclose(r, got.loc[d, "mae"] / f) and math.isclose(se, got.loc[d, "mae_se"] / f)
        assert 0 < se < r
    assert len(ratios) == len(ses) == 2  # a dataset the table lacks is left out
    en = str(verdicts.message("hiera.floor_ratios", span="0.908–1.26", se="0.07–0.09"))
    assert "standard errors 0.07–0.09" in en
    md = "".join("".join(c["source"]) for c in _notebook()["cells"] if c["cell_type"] == "markdown")
    assert "rounding floor" not in md
    assert "MAE of the rounding noise alone (normal approximation)" in md
    assert re.search(r"se=prose\.span\(floor_ses", _cell_source("glue-hiera-methods"))


def _notebook() -> dict:
    return json.loads(NOTEBOOK.read_text(encoding="utf-8"))


def _cell_source(cell_id: str) -> str:
    return next("".join(c["source"]) for c in _notebook()["cells"] if c.get("id") == cell_id)
