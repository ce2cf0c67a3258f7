"""Referee 17's minor items (m2–m5, l1), each pinned where it was fixed.

m2: a lead that says how many verdicts are short of runs says it beside the count it qualifies ("lower in 3
(0.5–0.971 times; 2 of them short of runs: …)"), not after the last count as if it qualified that one.
"""

from __future__ import annotations

import numpy as np
import pytest

import dpcompendium.chapters  # noqa: F401  (registers the chapters' methods)
from dpcompendium import PrivacyClaim
from dpcompendium.core import comparison
from dpcompendium.core.comparison import Arm, Comparison, holm, runs_short

CLAIM = PrivacyClaim("m", "add-remove", "1", 1.0)
_Z = np.array([-1.5, -1, -0.5, -0.2, 0.2, 0.5, 1, 1.5])
_W = _Z[::-1] * 0.3 + np.roll(_Z, 3) * 0.9


def _family(spec, a="first", b="second"):
    """Two-sided tests of fixed values (8 runs per arm), one per (mean of b, spread) of ``spec``, Holm-corrected."""
    return holm(
        [
            Comparison(
                "error",
                Arm.of("a", CLAIM, 1.0 + sd * _Z, label=a),
                Arm.of("b", CLAIM, mb + sd * _W, label=b),
                "tie",
                setting=f"s{i}",
            ).result()
            for i, (mb, sd) in enumerate(spec)
        ]
    )


@pytest.fixture(scope="module")
def two_short():
    """Lower in 3 (one far, two close and short of runs for power 0.9), not separated in 1."""
    res = _family([(2.0, 0.01), (1.04, 0.02), (1.04, 0.021), (1.0, 0.05)])
    assert [r.outcome for r in res] == ["better", "better", "better", "tie"]
    assert [n is not None for n in runs_short(res, 0.9)] == [False, True, True, False]
    return res


def test_m2_the_short_count_sits_beside_the_count_it_qualifies(two_short):
    need = int(max(n for n in runs_short(two_short, 0.9) if n is not None))
    for text in (
        comparison.verdict_sentence(two_short, power=0.9),
        comparison.table_lead(two_short, power=0.9),
        comparison.verdict_tally(two_short, power=0.9),
    ):
        said = str(text)
        lower, _, rest = said.partition(" and not separated in 1")
        # inside the bracket of "lower in 3", before the next count; nothing after the last one
        assert f"; 2 of them short of runs: 8 made, up to {need} needed)" in lower, said
        assert "short of runs" not in rest, said
        assert rest.startswith(" (intervals within ") and rest.endswith(")"), said
        zh = text.in_language("zh_CN")
        assert f"其中 2 个重复次数不足：8 次，最多需要 {need} 次" in zh
        assert zh.index("重复次数不足") < zh.index("未能区分")
    # without power, the lead is as before: no flag
    assert "short of runs" not in str(comparison.verdict_sentence(two_short))


def test_m2_one_short_verdict_is_named_with_its_runs():
    res = _family([(2.0, 0.01), (1.04, 0.02), (1.0, 0.05)])
    needs = runs_short(res, 0.9)
    if sum(n is not None for n in needs) != 1:
        res = _family([(1.04, 0.02), (1.0, 0.05)])
        needs = runs_short(res, 0.9)
    assert sum(n is not None for n in needs) == 1
    need = int(next(n for n in needs if n is not None))
    said = str(comparison.verdict_tally(res, power=0.9))
    lower = [r for r in res if r.outcome == "better"]
    flag = (
        f"short of runs: 8 of {need})"
        if len(lower) == 1
        else f"1 of them short of runs: 8 of {need})"
    )
    assert flag in said.partition(" and not separated")[0], said


def test_m3_the_aim_family_names_each_arm_once_and_its_caption_says_what_the_table_holds():
    """mwem Table 3.19: the dropdown named a comparison "AIM vs MST, MST, ε = 1" (its setting repeated the arm); the
    caption said Holm over 36 tests beside 24 cells, without saying where the other 12 (the steps) are."""
    from dpcompendium.chapters.mwem import mst as M
    from dpcompendium.chapters.mwem.pgm import AIM_NAME
    from dpcompendium.core.messages import CATALOGUE

    eps, delta = [0.5, 2.0], 1e-7
    scale = {AIM_NAME: 1.0, **{n: 1.5 + k for k, n in enumerate(M.PART_ARMS.values())}}
    draws = np.random.default_rng(0)
    data = {(n, e): s * draws.lognormal(0, 0.2, 6) for n, s in scale.items() for e in eps}
    res, _idx = M.parts_family(
        lambda n, e: data[n, e], eps, delta, np.random.default_rng(2), quantity="error"
    )
    for r in res:
        label = str(comparison._which(r, True))
        a, b = r.comparison.a.name, r.comparison.b.name
        assert label == f"{a} vs {b}, {r.comparison.setting}", label
        assert str(r.comparison.setting).startswith("ε = "), label
    said = str(comparison.design_sentence(res))
    for arm in M.PART_ARMS.values():
        assert f"{arm}, {arm}" not in said
    assert "mwem.db_part_setting" not in CATALOGUE["en"]
    # the notebook's caption: the family's size, the cells of the table and the steps, not "over 36" alone
    en, zh = CATALOGUE["en"]["mwem.holm_db_aim"], CATALOGUE["zh_CN"]["mwem.holm_db_aim"]
    for key in ("%(n)s", "%(shown)s", "%(steps)s"):
        assert key in en and key in zh
    code = _cells("mwem")
    assert 'message(\n            "mwem.holm_db_aim",' in code
    assert "shown=str(len(aim_vs_) * len(grid_eps))" in code


def _cells(chapter):
    import json
    from pathlib import Path

    nb = json.loads(
        (Path(__file__).parents[1] / "notebooks" / f"{chapter}.ipynb").read_text(encoding="utf-8")
    )
    return "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code")


def test_m4_the_flat_check_has_a_verdict_table_whose_caption_names_its_family():
    import pandas as pd

    from dpcompendium.chapters import federated_pca as P

    rows = []
    for d in ("adult", "wine"):
        for sp in ("equal", "unequal"):
            for e in (0.1, 1.0):
                rows.append({"dataset": d, "split": sp, "epsilon": e})
    res = _family([(1.0 + 0.001 * i, 0.05) for i in range(len(rows))])
    flat = pd.DataFrame(rows).assign(result=res)
    lead, tab = P.flat_table(flat)
    caption = tab.myst.splitlines()[0]
    assert caption.count("Holm-corrected over the 8 tests of their family") == 1
    assert "two-sided tests" in caption and "Holm" not in str(lead)
    assert (
        ": the error of first against that of second in the 8 settings below: not separated"
        in str(lead)
    )
    # a row per dataset and split, a column per ε; the data set's registry name (l1)
    assert tab.myst.count("not separated") == len(rows)
    assert "Adult, equal sites" in tab.myst and "adult, equal sites" not in tab.myst
    assert "federated_pca.flat_table(flat_cmp)" in _cells("federated-pca")


def test_m5_a_summary_gives_not_separated_rows_by_their_intervals():
    """mwem's "the independence model has 0.94–1.1 times AIM's error (not separated in 4 of 4)" and hiera's "not
    separated on Adult against both (1.01–1.29)" gave point ratios for rows not separated; now the comparison
    objects' words: their intervals."""
    import pandas as pd

    from dpcompendium.chapters.hiera import verdicts
    from dpcompendium.chapters.mwem import mst as M
    from dpcompendium.chapters.mwem.pgm import AIM_NAME
    from dpcompendium.core.messages import CATALOGUE, message

    for key in ("mwem.db_aim_parts_take", "mwem.db_aim_parts_ind"):
        for lang in ("en", "zh_CN"):
            assert "%(ind)s" not in CATALOGUE[lang][key] and "%(ind_tally)s" in CATALOGUE[lang][key]
    # the opening summary: the counts alone, no span (at most 300 characters)
    for lang in ("en", "zh_CN"):
        find = CATALOGUE[lang]["mwem.db_aim_parts_find"]
        assert "%(ind)s" not in find and "%(ind_count)s" in find and "%(mst_count)s" in find
    eps, delta = [0.5, 2.0], 1e-7
    scale = {AIM_NAME: 1.0, **{n: 1.5 + k for k, n in enumerate(M.PART_ARMS.values())}}
    scale[M.IND_NAME] = 1.0
    draws = np.random.default_rng(0)
    data = {(n, e): s * draws.lognormal(0, 0.2, 6) for n, s in scale.items() for e in eps}
    res, idx = M.parts_family(
        lambda n, e: data[n, e], eps, delta, np.random.default_rng(2), quantity="error"
    )
    read = M.parts_reading(res, idx)
    ind = [res[idx["aim", "independence", e]] for e in eps]
    assert all(r.outcome == "tie" for r in ind)
    text = str(message("mwem.db_aim_parts_take", **read, runs="6"))
    lo, hi = min(r.lo for r in ind), max(r.hi for r in ind)
    assert f"not separated in all 2 (intervals within {lo:.3g}–{hi:.3g})" in text, text
    assert "times AIM's error" not in text
    find = str(message("mwem.db_aim_parts_find", **read))  # the summary's counts: no span at all
    assert "independence model's: not separated in all 2;" in find and "within" not in find, find
    # hiera: a dataset whose comparisons are all not separated reads its intervals
    rows = pd.DataFrame({"ratio": [1.01, 1.29], "outcome": ["tie", "tie"], "result": ind})
    span = str(verdicts._tie_span(rows))
    assert span == f"intervals within {lo:.3g}–{hi:.3g}" and "1.29" not in span
