"""Referee 20 (L-4, L-5) and native review 9 items in the chapters histograms and mwem: the names, templates and
glue builders, called with small inputs."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import dpcompendium.chapters  # noqa: F401  (registers the chapters' methods)
from dpcompendium.chapters import histograms, mwem
from dpcompendium.chapters.histograms.experiment import DAWA_VARIANT_LABELS
from dpcompendium.core import tables
from dpcompendium.core.comparison import (
    Arm,
    Comparison,
    families_table,
    holm,
    runs_short,
    shown_flag,
)
from dpcompendium.core.messages import CATALOGUE, language, message, translate
from dpcompendium.core.privacy import PrivacyClaim

ROOT = Path(__file__).resolve().parents[1]
VARIANTS = ("private", "repaired")


# ---------------------------------------------------------------- L-4: one catalogue name for each private DAWA
def _catalogue_names() -> set[str]:
    names = set()
    for v in VARIANTS:
        name = message(f"hist.name_dawa_{v}")
        names |= {str(name), name.in_language("zh_CN")}
    return names


def test_each_private_dawa_has_one_name_in_every_generator():
    """The table label ("DAWA | <variant>"), the verdicts' name, the figure legend and mwem's baseline are the
    catalogue's name of the variant, in English and Chinese (native review 9, T2)."""
    assert message("hist.name_dawa_private").in_language("zh_CN") == "DAWA（在加噪直方图上划分）"
    assert (
        message("hist.name_dawa_repaired").in_language("zh_CN")
        == "DAWA（在加噪代价上划分，经修补）"
    )
    for v in VARIANTS:
        name = message(f"hist.name_dawa_{v}")
        label = DAWA_VARIANT_LABELS[v]
        assert str(name) == f"DAWA ({label})"
        with language("zh_CN"):
            assert name.in_language("zh_CN") == f"DAWA（{tables._cell_translation(label)}）"
        # the figures' legends translate the English name to the same Chinese
        assert translate(str(name), "zh_CN") == name.in_language("zh_CN")
    assert str(message("hist.name_dawa_private")) == mwem.DAWA_NAME
    row = mwem.row_name(
        pd.Series({"method": mwem.DAWA_NAME, "output": "estimate", "T": float("nan")})
    )
    assert str(row) == mwem.DAWA_NAME
    assert row.by_lang["zh_CN"] == message("hist.name_dawa_private").in_language("zh_CN")
    assert set(row.by_lang) >= set(CATALOGUE)


def _code_strings(source: str) -> list[str]:
    """Every string constant of ``source`` but its docstrings."""
    tree = ast.parse(source)
    docs = {
        id(n.value)
        for n in ast.walk(tree)
        if isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant)
    }
    return [
        n.value
        for n in ast.walk(tree)
        if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docs
    ]


def _generators() -> list[tuple[str, str]]:
    """(where, text) of every string the two chapters' pages are generated from: their notebooks' code cells
    (string constants) and markdown cells, the chapters' modules, and the core's catalogues."""
    out = []
    for chapter in ("histograms", "mwem"):
        cells = json.loads((ROOT / "notebooks" / f"{chapter}.ipynb").read_text(encoding="utf-8"))[
            "cells"
        ]
        code = "\n".join(
            line
            for c in cells
            if c["cell_type"] == "code"
            for line in "".join(c["source"]).splitlines()
            if not line.lstrip().startswith("%")
        )
        out += [(f"{chapter}.ipynb", s) for s in _code_strings(code)]
        out += [
            (f"{chapter}.ipynb", "".join(c["source"]))
            for c in cells
            if c["cell_type"] == "markdown"
        ]
    src = ROOT / "src" / "dpcompendium"
    paths = [
        *sorted((src / "chapters" / "histograms").glob("*.py")),
        *sorted((src / "chapters" / "mwem").glob("*.py")),
        *(
            src / "core" / f
            for f in ("messages.py", "figure_messages.py", "tables.py", "comparison.py")
        ),
    ]
    for path in paths:
        out += [(path.name, s) for s in _code_strings(path.read_text(encoding="utf-8"))]
    return out


# a private DAWA named in words: "DAWA" then its partition, or an earlier label of a variant (a description in
# prose, "DAWA with its partition on a noisy histogram", is not a name)
_NAMED = re.compile(r"DAWA\W{0,3}(partition|noisy|在加噪|划分)")
_LABEL = re.compile(r"partitioned on (a |the )?nois|noisy-histogram partition")


def test_the_pages_generators_use_only_the_catalogue_names():
    """Referee 20, L-4: Tables 2.5/2.13 ("partitioned on the noisy histogram"), Table 2.15 and its lead ("DAWA,
    partition on a noisy histogram") and mwem ("DAWA (noisy-histogram partition)") named one method three ways."""
    names = _catalogue_names()
    labels = set(DAWA_VARIANT_LABELS.values())
    strings = _generators()
    assert len(strings) > 500  # the scan reads the notebooks and the modules
    found, bad = 0, []
    for where, text in strings:
        rest = re.sub(r"\s+", " ", text)  # a markdown cell's name may be broken over two lines
        for name in sorted(names, key=len, reverse=True):
            found += rest.count(name)
            rest = rest.replace(name, "")
        if text in labels:
            continue  # a table's variant column
        if _NAMED.search(rest) or _LABEL.search(rest):
            bad.append((where, (_NAMED.search(rest) or _LABEL.search(rest)).group(0)))
    assert not bad
    assert found >= 6  # the catalogue, the figure pairs and the prose's definitions use them


def test_the_scan_can_fail():
    for old in (
        "DAWA, partition on a noisy histogram",
        "DAWA partition on privately-noised costs, repaired",
        "DAWA (noisy-histogram partition)",
        "DAWA 划分（在加噪代价上，经修补）",
    ):
        assert _NAMED.search(old), old
    assert _LABEL.search("partitioned on the noisy histogram")
    assert _LABEL.search("partitioned on noisy costs, repaired")


# ---------------------------------------------------------------- L-5: the non-inferiority count carries its flag
CLAIM = PrivacyClaim("m", "replace-one", "1", 1.0)


def _ni_family(seed: int, ratios=(0.9, 0.9, 1.03), n: int = 40) -> list:
    rng = np.random.default_rng(seed)
    out = []
    for r in ratios:
        b = rng.normal(1.0, 0.1, n).clip(0.05)
        a = rng.normal(r, 0.1, n).clip(0.05)
        out.append(
            Comparison(
                "MSE",
                Arm.of("noisy centres", CLAIM, a),
                Arm.of("true centres", CLAIM, b),
                "non-inferiority",
                margin=1.1,
            ).result()
        )
    return holm(out)


def test_the_count_within_the_margin_carries_its_short_of_runs_flag():
    """Referee 20, L-5: "within 10 % at 3 of 3" (intro, body, takeaway, Table 2.10) had no flag; it reads
    "… at all 3 budgets (1 of them short of runs: 40 of 104)", the flag from the comparison objects' power."""
    fam = _ni_family(2)  # all three shown, the third near the margin
    assert [r.holds for r in fam] == [True, True, True]
    needs = runs_short(fam, 0.9)
    assert needs[:2] == [None, None] and needs[2] is not None and needs[2] > 40
    flag = shown_flag(fam, 0.9)
    assert str(flag) == f"1 of them short of runs: 40 of {int(needs[2])}"
    assert flag.in_language("zh_CN") == f"其中 1 个重复次数不足：40 次，需要 {int(needs[2])} 次"
    assert shown_flag(_ni_family(0), 0.9) is None  # none short: no flag
    budgets = histograms.budgets_md(3, 3)
    parts = dict(pct="10 %", uppers="1.05, 1.06, 1.09", eps="0.1, 0.5, 1", shown_at=budgets)
    text = message(
        "hist.sum_fix",
        cost="c",
        margin_note=message("hist.sum_margin_chosen"),
        flag=message("hist.flag_paren", flag=flag),
        **parts,
    )
    assert str(text).endswith(
        f"within 10 % at all 3 budgets (1 of them short of runs: 40 of {int(needs[2])})"
    )
    assert text.in_language("zh_CN").endswith(
        f"在全部 3 个隐私预算下不超过 10 % 的界值（其中 1 个重复次数不足：40 次，需要 {int(needs[2])} 次）"
    )
    lead = message(
        "hist.fix_verdict_exploratory", flag=message("hist.flag_paren", flag=flag), **parts
    )
    assert "within 10 % at all 3 budgets (1 of them short of runs: 40 of" in str(lead)
    take = message(
        "hist.take_fix",
        cost="c",
        pct="10 %",
        shown_at=histograms.budgets_md(2, 3),
        margin_note="m",
        flag=message("hist.flag_semi", flag=flag),
        upper="1.09",
    )
    assert "within a 10 % margin at 2 of 3 budgets (m; 1 of them short of runs: 40 of" in str(take)
    assert (
        "在 3 个隐私预算中的 2 个下落在 10 % 的界值之内（m；其中 1 个重复次数不足"
        in take.in_language("zh_CN")
    )


def test_the_fix_table_flags_each_family_at_its_own_holm_level():
    """Table 2.10: the non-inferiority row flags its verdict short of runs, its family's level α/3 (not α/6)."""
    short, other = _ni_family(2), _ni_family(0)
    fams = [("ni", short), ("other", other), ("third", _ni_family(1))]
    rows = str(families_table(fams, power=0.9, per_family=True)).splitlines()
    need = int(runs_short(short, 0.9)[2])
    assert any(f"(1 of them short of runs: 40 of {need})" in row for row in rows)
    pooled = str(families_table(fams, power=0.9, family_size=9))
    assert f"40 of {need})" not in pooled  # a larger family needs more runs: the flag differs
    with pytest.raises(ValueError, match="per_family"):
        families_table(fams, power=0.9, family_size=9, per_family=True)


def test_budgets_count_has_its_all_case():
    assert str(histograms.budgets_md(2, 3)) == "2 of 3 budgets"
    assert str(histograms.budgets_md(3, 3)) == "all 3 budgets"
    assert str(histograms.budgets_md(1, 1)) == "1 of 1 budgets"
    assert histograms.budgets_md(3, 3).in_language("zh_CN") == "在全部 3 个隐私预算下"
    assert histograms.budgets_md(0, 3).in_language("zh_CN") == "在 3 个隐私预算中的 0 个下"
    with pytest.raises(ValueError):
        histograms.budgets_md(4, 3)


def test_the_chapter_passes_the_flag_to_every_count():
    cells = json.loads((ROOT / "notebooks" / "histograms.ipynb").read_text(encoding="utf-8"))[
        "cells"
    ]
    code = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "code")
    assert "ni_flags = histograms.count_flags(fam_sum, POWER)" in code
    # the body's lead and the takeaway after the count, the non-post-hoc takeaway in its brackets, the summary short
    assert code.count('flag=ni_flags["paren"]') == 2 and code.count('flag=ni_flags["semi"]') == 1
    assert code.count('flag=ni_flags["summary"]') == 1
    assert "comparison.families_table(fix_rows, power=POWER, per_family=True)" in code


def test_count_flags_of_a_family():
    fam = _ni_family(2)
    need = int(runs_short(fam, 0.9)[2])
    flags = histograms.count_flags(fam, 0.9)
    assert str(flags["paren"]) == f" (1 of them short of runs: 40 of {need})"
    assert str(flags["semi"]) == f"; 1 of them short of runs: 40 of {need}"
    assert str(flags["summary"]) == " (1 of them short of runs)"
    assert flags["summary"].in_language("zh_CN") == "（其中 1 个重复次数不足）"
    assert histograms.count_flags(_ni_family(0), 0.9) == {"paren": "", "semi": "", "summary": ""}
    one = histograms.count_flags(fam[2:], 0.9)  # a family of one verdict, short
    assert str(one["paren"]).startswith(" (short of runs: 40 of ")
    assert str(one["summary"]) == " (short of runs)"


# ---------------------------------------------------------------- mwem's singular and C4: why a ranking lacks two
def _rankings(means_2d: list[float]) -> list:
    from dpcompendium.core.comparison import ranking

    rng = np.random.default_rng(5)

    def arm(method, mean):
        return Arm.of(method, CLAIM, rng.exponential(mean, 60))

    out = [ranking("1-D", "MSE", [arm("MWEM", 5.0), arm("DAWA", 1.0), arm("HDMM", 3.0)])]
    out += [
        ranking(f"2-D {i}", "MSE", [arm("MWEM", m), arm("DAWA", 1.0)])
        for i, m in enumerate(means_2d)
    ]
    return out


def test_one_first_place_lacking_a_baseline_reads_in_the_singular():
    """At small settings mwem printed "of the 1 settings where … alone has the lowest error, 1 (Adult 2-D) have
    no HDMM in the ranking"."""
    from dpcompendium.core.comparison import first_places_lacking, ranking

    rankings = _rankings([0.05])
    assert [r.winners for r in rankings] == [("DAWA",), ("MWEM",)]
    text = first_places_lacking("MSE", rankings, ["ADULT", "Adult 2-D"])
    assert str(text) == (
        "the one setting where MWEM alone has the lowest MSE is on Adult 2-D, whose ranking has no HDMM"
    )
    assert text.in_language("zh_CN") == (
        "MWEM 单独取得最低 MSE 的唯一一个参数组合在 Adult 2-D 上，那里的排名中没有 HDMM"
    )
    # one of several: "1 (…) has"
    rankings = _rankings([0.05])
    third = ranking(
        "1-D b",
        "MSE",
        [
            Arm.of("MWEM", CLAIM, np.random.default_rng(1).exponential(0.05, 60)),
            Arm.of("DAWA", CLAIM, np.random.default_rng(2).exponential(1.0, 60)),
            Arm.of("HDMM", CLAIM, np.random.default_rng(3).exponential(3.0, 60)),
        ],
    )
    rankings.append(third)
    assert third.winners == ("MWEM",)
    text = first_places_lacking("MSE", rankings, ["ADULT", "Adult 2-D", "ADULT"])
    assert str(text) == (
        "of the 2 settings where MWEM alone has the lowest MSE, 1 (Adult 2-D) has no HDMM in the ranking"
    )
    assert "有 1 个（Adult 2-D）的排名中没有 HDMM" in text.in_language("zh_CN")


def test_the_lacking_sentence_says_why_when_asked():
    from dpcompendium.core.comparison import first_places_lacking

    text = first_places_lacking(
        "MSE",
        _rankings([0.05, 0.05]),
        ["ADULT", "Adult 2-D", "Adult 2-D"],
        why=message("mwem.one_d_only"),
    )
    assert str(text).endswith(
        "whose ranking has no HDMM (they are implemented for 1-D histograms only)"
    )
    assert text.in_language("zh_CN").endswith(
        "那里的排名中没有 HDMM（这些方法只实现了一维直方图版本）"
    )
    cells = json.loads((ROOT / "notebooks" / "mwem.ipynb").read_text(encoding="utf-8"))["cells"]
    code = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "code")
    assert code.count("why=one_d_why") == 2
    assert "if db_absent <= set(mwem.ONE_D_ONLY) else None" in code


# ---------------------------------------------------------------- native review 9: zh template items
def test_s5_a_count_of_every_one_says_all():
    from dpcompendium.book import prose

    assert str(prose.count(8, 8, every=True)) == "all 8"
    assert prose.count(8, 8, every=True).in_language("zh_CN") == "全部 8 个"
    assert (
        prose.count(8, 8).in_language("zh_CN") == "8 个中 8 个"
    )  # opt-in: a count may open a sentence
    assert str(prose.count(7, 8, every=True)) == "7 of 8"
    assert str(prose.count(1, 1, every=True)) == "1 of 1"
    cells = json.loads((ROOT / "notebooks" / "mwem.ipynb").read_text(encoding="utf-8"))["cells"]
    code = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "code")
    assert "prose.count(sum(r.ratio < 1 for r in gid_res), len(gid_res), every=True)" in code


def test_zh_template_items():
    zh = {
        key: message(key, **params).in_language("zh_CN")
        for key, params in {
            "hist.first_at_tie": dict(eps="1", names="PrivTree、HDMM"),
            "hist.first_on_tie": dict(data="ADULT", eps="1", names="PrivTree、HDMM"),
            "mwem.holm_db_aim": dict(n="20", shown="8", steps="12"),
            "hist.rank_runs": dict(reps="20"),
        }.items()
    }
    # S8: "并列第一" already says not separated: no second clause
    assert zh["hist.first_at_tie"].endswith("并列第一（未能区分）")
    assert "，未能区分" not in zh["hist.first_on_tie"]
    # S10: no 的…的 twice
    assert (
        "MST 的各个部分的" not in zh["mwem.holm_db_aim"]
        and "MST 各部分的 12 项" in zh["mwem.holm_db_aim"]
    )
    # C1 (shared): the rank-test sentence names its subject
    assert zh["hist.rank_runs"].startswith("典型发布结果的秩检验")
    assert str(message("hist.rank_runs", reps="20")).startswith(
        "The rank tests of the typical release"
    )


def test_u2_a_group_header_of_a_chinese_table_uses_full_width_semicolons():
    """Native review 9, U2 (Table 2.12): the constant columns said once above the rows were joined by a half-width
    "; " on the Chinese page."""
    df = pd.DataFrame(
        {"HEPTH": ["HDMM"] * 3, "INCOME": ["Hb"] * 3, "x": [1.0, 2.0, 3.0], "y": [3.0, 4.0, 5.0]}
    )
    with language("zh_CN"):
        zh = tables.ReadableTable(df)._repr_html_()
    with language("en"):
        en = tables.ReadableTable(df)._repr_html_()
    assert 'class="dpc-group"' in zh and "；" in zh.split('class="dpc-group"')[1].split("</tr>")[0]
    assert "; " in en.split('class="dpc-group"')[1].split("</tr>")[0]
