"""The hiera chapter's labels and small-run sentences (scope s22 hiera-a): the graded takeaway of a run that tests
nothing (reps 1) read "tested: not tested: …"; experiment 3's outputs name HierA and graded Laplace by the budgets
they run (referee 20, MJ-1, L-3)."""

from __future__ import annotations

import pandas as pd

from dpcompendium.chapters.hiera import verdicts
from dpcompendium.core.messages import method_name


def test_the_graded_takeaway_of_an_untested_run_has_its_own_sentence():
    text = verdicts.graded_points(
        pd.DataFrame(), "1.5–2.1", ["hiera-graded", "idldp"], ["harmony", "pm"], reps=1
    )
    en, zh = str(text), text.in_language("zh_CN")
    assert en == (
        "1.5–2.1 times the smallest uniform MAE (point estimates, not tested: a comparison needs at least two "
        "repetitions per cell; this run: 1)"
    )
    for t in (en, zh):
        assert "tested: not tested" not in t and "检验结果：未检验" not in t
    assert "未检验" in zh and "1 次" in zh and "1.5–2.1" in zh


def test_a_candidate_without_cells_is_named_as_not_tested():
    from test_referee18_others import _graded_table

    table = _graded_table()
    text = str(
        verdicts.graded_points(table, "1.5", ["hiera-graded", "pm"], ["harmony", "pm", "hybrid"])
    )
    assert f"{method_name('pm', 'en')} not tested (no cell of this run)" in text
    assert "not tested: no cell" not in text
