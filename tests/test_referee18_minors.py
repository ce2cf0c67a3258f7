"""Referee 18's minor and low items (notes/s19/referee18.md), each with a test that fails without its fix."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest

from dpcompendium.core import comparison
from dpcompendium.core.comparison import Arm, Comparison
from dpcompendium.core.messages import CATALOGUE, PLAIN, language, message
from dpcompendium.core.privacy import PrivacyClaim

ROOT = Path(__file__).resolve().parents[1]

CLAIM = PrivacyClaim("m", "replace-one", "1", 1.0)


def _arm(method: str, values) -> Arm:
    return Arm.of(method, CLAIM, values)


def _boot(a, b, seed: int, resamples: int = 999, a_name: str = "a", b_name: str = "b"):
    return comparison.bootstrap_t_result(
        Comparison("error", _arm(a_name, a), _arm(b_name, b), test="bootstrap-t"),
        np.random.default_rng(seed),
        resamples=resamples,
    )


# ---------------------------------------------------------------------------------------------------------------
# holm: l-6, ties at the bootstrap floor ordered by the evidence
# ---------------------------------------------------------------------------------------------------------------


def _floor_pair():
    rng = np.random.default_rng(0)
    base = rng.gamma(50.0, 1.0, 40)
    strong = _boot(10 * base * rng.uniform(0.95, 1.05, 40), base, 1)  # ratio about 10
    weak = _boot(3 * base * rng.uniform(0.9, 1.1, 40), base, 2)  # ratio about 3
    assert strong.p_value == weak.p_value == strong.resolution  # tied at the floor
    assert strong.evidence > weak.evidence > 0
    return strong, weak


def test_holm_ties_take_the_order_of_the_evidence_not_of_the_input():
    strong, weak = _floor_pair()
    for family in ([strong, weak], [weak, strong]):
        decided = {r.ratio: r for r in comparison.holm(family)}
        # the stronger evidence is tested first, at alpha/2; the weaker at alpha (two-sided: level 1 - alpha')
        assert decided[strong.ratio].level == pytest.approx(1 - 0.05 / 2)
        assert decided[weak.ratio].level == pytest.approx(1 - 0.05)
        assert all(r.outcome == "worse" for r in decided.values())


def test_holm_tie_order_changes_no_decision_nor_adjusted_p():
    strong, weak = _floor_pair()
    one, two = comparison.holm([strong, weak]), comparison.holm([weak, strong])
    assert [r.p_adjusted for r in one] == [r.p_adjusted for r in reversed(two)]
    assert [r.outcome for r in one] == [r.outcome for r in reversed(two)]


def test_holm_evidence_is_the_distance_to_the_null_region_in_standard_errors():
    a, b = np.array([2.0, 2.2, 1.8, 2.1]), np.array([1.0, 1.1, 0.9, 1.05])
    c = Comparison("error", _arm("a", a), _arm("b", b))
    est, se, _ = c._log_ratio()
    assert c.result().evidence == pytest.approx(abs(est) / se)
    sup = Comparison("error", _arm("b", b), _arm("a", a), relation="superiority", margin=1.1)
    est, se, _ = sup._log_ratio()
    assert sup.result().evidence == pytest.approx((-np.log(1.1) - est) / se)
    # a t test's p-values are not tied: the order stays that of the p-values
    fam = comparison.holm([c.result(), sup.result()])
    assert len(fam) == 2


# ---------------------------------------------------------------------------------------------------------------
# mwem: m-8, not-separated families give the span of their intervals, not of their point ratios
# ---------------------------------------------------------------------------------------------------------------


def _noisy(seed: int, ratio: float, n: int = 8):
    rng = np.random.default_rng(seed)
    return ratio * rng.gamma(2.0, 1.0, n), rng.gamma(2.0, 1.0, n)


def test_mwem_family_not_separated_gives_interval_span():
    results = comparison.holm(
        [
            Comparison("error", _arm("a", a), _arm("b", b)).result()
            for a, b in (_noisy(s, 1.0) for s in range(4))
        ]
    )
    assert not any(r.holds for r in results)
    text = str(comparison.family_sentence(results))
    lo, hi = min(r.lo for r in results), max(r.hi for r in results)
    assert f"intervals within {comparison._num(lo)}–{comparison._num(hi)}" in text
    assert "ratios" not in text


def test_mwem_agreement_gives_interval_span():
    comps = [
        Comparison("error", _arm("a", a), _arm("b", b), relation="equivalence", margin=1.25)
        for a, b in (_noisy(s, 1.0) for s in range(4))
    ]
    agr = comparison.agreement(comps)
    text = str(agr.sentence())
    lo, hi = min(r.lo for r in agr.difference), max(r.hi for r in agr.difference)
    assert f"two-sided intervals within {comparison._num(lo)}–{comparison._num(hi)}" in text
    assert "ratios" not in text


# ---------------------------------------------------------------------------------------------------------------
# mwem: m-3, one lead per group (histogram) with its comparators and spans; m-2, one lead per row of a grid
# ---------------------------------------------------------------------------------------------------------------


def _strong(seed: int, ratio: float, b_name: str):
    rng = np.random.default_rng(seed)
    base = rng.gamma(50.0, 1.0, 30)
    return Comparison(
        "error",
        _arm("mwem", ratio * base * rng.uniform(0.95, 1.05, 30)),
        _arm(b_name, base),
    ).result()


def test_mwem_lead_by_group_keeps_each_group_apart():
    adult = [_strong(1, 4.0, "privtree"), _strong(2, 9.0, "privtree"), _strong(3, 20.0, "hdmm")]
    two_d = [_strong(4, 0.2, "dawa"), _strong(5, 6.0, "dawa")]
    fam = comparison.holm(adult + two_d)
    text = str(comparison.lead_by_group([("ADULT", fam[:3]), ("Adult 2-D", fam[3:])]))
    assert "in the 5 settings below" in text
    first, second = text.split("; ")
    assert first.endswith(
        "higher in all 3 ("
        + comparison._num(min(r.ratio for r in fam[:3]))
        + "–"
        + comparison._num(max(r.ratio for r in fam[:3]))
        + " times)"
    )
    assert "ADULT, against" in first and "privtree" in first.lower() and "hdmm" in first.lower()
    assert second.startswith("Adult 2-D, against") and "dawa" in second.lower()
    assert "lower in 1" in second and "higher in 1" in second
    with pytest.raises(ValueError):
        comparison.lead_by_group([])


def test_mwem_grid_text_lead_by_row_gives_one_lead_per_pair():
    rows = []
    for i, (a, b) in enumerate((("fit", "gid"), ("nc", "fit"), ("mst", "nc"))):
        rs = [
            Comparison(
                "error",
                _arm(a, r.comparison.a.values),
                _arm(b, r.comparison.b.values),
            ).result()
            for r in (_strong(10 * i + j, 0.5, b) for j in range(4))
        ]
        rows.append(([f"{a} vs {b}"], rs))
    decided = comparison.holm([r for _, rs in rows for r in rs])
    rows = [(cells, decided[4 * i : 4 * i + 4]) for i, (cells, _) in enumerate(rows)]
    text, table = comparison.grid_text(
        rows, ["pair"], ["e1", "e2", "e3", "e4"], "caption", lead_by_row=True
    )
    parts = str(text).split("; ")
    assert len(parts) == 3
    assert all("in the 4 settings below: lower in all 4" in p for p in parts)
    assert "pairs of methods" not in str(text)  # no count pooled over the pairs
    assert str(table)


# ---------------------------------------------------------------------------------------------------------------
# mwem: the new templates have Chinese twins with the same placeholders
# ---------------------------------------------------------------------------------------------------------------

NEW_KEYS = (
    "comparison.lead_by_group",
    "comparison.group_part",
    "mwem.holm_db_steps",
    "mwem.cap_db_steps",
    "mwem.db_best_selected",
    "mwem.db_ind_not_equal",
    "mwem.db_aim_parts_take_ns",
)


@pytest.mark.parametrize("key", NEW_KEYS)
def test_mwem_new_templates_have_zh_twins(key):
    import re

    ph = re.compile(r"%\((\w+)\)s")
    en, zh = CATALOGUE["en"][key], CATALOGUE["zh_CN"][key]
    assert sorted(ph.findall(en)) == sorted(ph.findall(zh))
    if "$" in en:
        assert key in PLAIN


def test_mwem_names_follow_the_registry():
    # "the zcdp variant" and "MWEM standard" are not display names (referee 18, l1)
    for key in ("mwem.cap_db_aim_grid", "mwem.T_zcdp", "mwem.db_aim_there", "mwem.db_aim_beside"):
        text = CATALOGUE["en"][key]
        assert "zcdp variant" not in text.lower()
        assert "zCDP MWEM (Gaussian)" in text
    with language("en"):
        assert "not shown equal" in str(message("mwem.db_ind_not_equal"))


# ---------------------------------------------------------------------------------------------------------------
# mwem: m-9, AIM's three comparators on the course's data as one Holm family
# ---------------------------------------------------------------------------------------------------------------


def test_mwem_aim_family_undecided_rows_join_one_family_with_its_scope_in_the_caption():
    import pandas as pd

    from dpcompendium.chapters.mwem import pgm

    rng = np.random.default_rng(3)
    runs = pd.DataFrame(
        {
            "dim": ["1-D"] * 6,
            "epsilon": [0.1] * 3 + [1.0] * 3,
            "mean_error": rng.gamma(5.0, 1.0, 6),
        }
    )
    kw = {"quantity": "error", "column": "setting"}
    per = {}
    for other, seed in (("gaussian-identity", 4), ("gaussian-ls", 5)):
        per[other] = pgm.aim_family(
            runs,
            other,
            lambda d, e: pgm.aim_claim(e, 1e-6, 1),
            lambda d, e: rng.gamma(5.0, 1.0, 4),
            1e-6,
            np.random.default_rng(seed),
            decide=False,
            **kw,
        )
    assert all(len(rows) == 2 for rows in per.values())
    assert all(r.p_adjusted == r.p_value for rows in per.values() for _, r in rows)  # undecided
    joint = comparison.holm([r for rows in per.values() for _, r in rows])
    scope = message("mwem.holm_aim_joint", n=str(len(joint)), k="2")
    rows = per["gaussian-identity"]
    _, tab = comparison.results_text(
        [(c, r) for (c, _), r in zip(rows, joint[:2], strict=True)] * 2, ["setting"], scope=scope
    )
    assert "Holm-corrected over the 4 tests of one family: these 2" in tab.myst
    assert "over its 4 rows" not in tab.myst


def test_r19_l6_the_payoff_arm_is_named_as_the_rows_are():
    """L-6: the pay-off family named its arm "Standard MWEM, last" (Table 3.24, its lead) where every other table
    has "Standard MWEM, last iterate"; the zh edition names it as its rows do."""
    from test_mwem import _payoff_frame

    from dpcompendium.chapters.mwem.analysis import payoff_shown_better

    for output, en, zh in (
        ("last", "Standard MWEM, last iterate", "最后一次迭代结果"),
        ("average", "Standard MWEM, average of the iterates", "各次迭代结果的平均值"),
    ):
        _, family = payoff_shown_better(
            _payoff_frame([50.0, 102.0, 300.0], [100.0] * 3), output=output
        )
        label = family[0].comparison.a.label
        assert str(label) == en
        assert zh in label.in_language("zh_CN")


def test_r19_l6_the_zcdp_row_has_one_name_in_prose_and_captions():
    """L-6: prose and captions said "the zCDP variant" / "the `zcdp` variant" where the rows say "zCDP MWEM
    (Gaussian)"."""
    cells = json.loads((ROOT / "notebooks" / "mwem.ipynb").read_text())["cells"]
    seen = []
    for c in cells:
        text = "".join(c["source"])
        if "parameters" in c.get("metadata", {}).get("tags", []):
            continue  # the parameter box names the parameter's value, `zcdp`
        if c["cell_type"] == "code":  # the reader sees its strings, not its comments
            text = "\n".join(line for line in text.split("\n") if not line.lstrip().startswith("#"))
        text += json.dumps(c.get("metadata", {}), ensure_ascii=False)
        seen += re.findall(r"(?i)`?zcdp`? variants?\b", text)
    assert not seen, seen
    assert "zCDP MWEM (Gaussian)" in _prose_mwem()


def _prose_mwem() -> str:
    cells = json.loads((ROOT / "notebooks" / "mwem.ipynb").read_text())["cells"]
    return "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
