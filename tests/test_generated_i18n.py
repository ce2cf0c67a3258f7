"""Generated sentences translated by skeleton (dpcompendium.book.generated_i18n): values kept, words translated."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from hypothesis import given
from hypothesis import strategies as st

from dpcompendium.book import generated_i18n as g

ROOT = Path(__file__).resolve().parents[1]
CATALOGUE = ROOT / "locales" / "zh_CN" / "LC_MESSAGES" / g.CATALOGUE_NAME
HAN = re.compile(r"[\u4e00-\u9fff]")

words = st.sampled_from(["the", "claim", "fails", "MSE", "is", "times", "AHP's", "in", "of", "runs", "—", "(", ")",
                         ":", "*not*", "2-D", "ε", "\\|z\\|"])  # fmt: skip
values = st.one_of(
    st.floats(-1e6, 1e6, allow_nan=False).map(lambda x: f"{x:.3g}"),
    st.integers(0, 10**7).map(lambda n: f"{n:,}"),
    st.sampled_from(
        ["$\\varepsilon = 1$", "$$x^2$$", "`code`", "{cite:p}`hay2016principled`", "97 %", "{", "}"]
    ),
)


@given(st.lists(st.one_of(words, values), min_size=1, max_size=25))
def test_a_skeleton_filled_with_its_values_is_the_sentence(parts):
    text = " ".join(parts)
    template, vals = g.skeleton(text)
    assert g.fill(template, vals) == text
    # a skeleton's only braces are its placeholders, numbered in order
    assert re.sub(r"\{\d+\}", "", template).count("{") == 0
    assert [int(i) for i in re.findall(r"\{(\d+)\}", template)] == list(range(len(vals)))


def _po(tmp_path: Path, entries: dict[str, str], fuzzy: set[str] = frozenset()) -> str:
    from babel.messages.catalog import Catalog
    from babel.messages.pofile import write_po

    cat = Catalog(locale="zh_CN")
    for k, v in entries.items():
        cat.add(k, v, flags=["fuzzy"] if k in fuzzy else [])
    path = tmp_path / "zh_CN" / "LC_MESSAGES" / g.CATALOGUE_NAME
    path.parent.mkdir(parents=True)
    with path.open("wb") as f:
        write_po(f, cat)
    g.catalogue.cache_clear()
    return str(tmp_path)


def test_translation_reorders_the_values_of_this_run(tmp_path):
    loc = _po(
        tmp_path,
        {
            "MSE is {0} times AHP's in {1} of {2} runs": "在 {2} 次运行中有 {1} 次，MSE 是 AHP 的 {0} 倍"
        },
    )
    out = g.translate("MSE is $2.1$ times AHP's in 18 of 20 runs", "zh_CN", loc)
    assert out == "在 20 次运行中有 18 次，MSE 是 AHP 的 $2.1$ 倍"
    # other numbers, same sentence: the same translation with these numbers
    assert (
        g.translate("MSE is $0.5$ times AHP's in 3 of 7 runs", "zh_CN", loc)
        == "在 7 次运行中有 3 次，MSE 是 AHP 的 $0.5$ 倍"
    )


def test_unknown_fuzzy_or_broken_entries_leave_the_english_and_are_counted(tmp_path):
    loc = _po(
        tmp_path,
        {"a fuzzy {0} entry": "模糊 {0}", "a broken {0} entry": "缺少占位符", "bare": "裸"},
        fuzzy={"a fuzzy {0} entry"},
    )
    before = g.missing()
    for text in ["a fuzzy 3 entry", "a broken 3 entry", "never seen 4 times"]:
        assert g.translate(text, "zh_CN", loc) == text
    assert sum((g.missing() - before).values()) == 3
    assert g.translate("bare", "zh_CN", loc) == "裸"
    assert g.translate("bare", "en", loc) == "bare"
    assert g.translate("$1.5$, 20", "zh_CN", loc) == "$1.5$, 20"  # nothing to translate


def test_the_catalogue_is_complete_and_keeps_every_placeholder():
    """Every entry translated (not fuzzy, not obsolete), into Chinese, with the placeholders of its msgid."""
    with CATALOGUE.open("rb") as f:
        cat = read_po(f, locale="zh_CN")
    entries = [m for m in cat if m.id]
    assert entries
    bad = [m.id for m in entries if not m.string or m.fuzzy]
    assert not bad, f"{len(bad)} untranslated or fuzzy entries, e.g. {bad[:3]}"
    assert not cat.obsolete, f"obsolete entries: {list(cat.obsolete)[:3]}"
    broken = [m.id for m in entries if g.placeholders(m.id) != g.placeholders(m.string)]
    assert not broken, f"placeholders differ: {broken[:3]}"
    english = [m.id for m in entries if not HAN.search(m.string)]
    assert not english, f"no Chinese in the translation of {english[:3]}"


@pytest.mark.book
def test_every_sentence_of_the_built_book_has_its_translation():
    """The default run of every chapter glues no sentence whose skeleton the catalogue lacks (so the Chinese pages
    show no English generated sentence)."""
    glue_root = ROOT / "_build" / "jupyter_execute"
    files = sorted(glue_root.rglob("*.glue.json"))
    if not files:
        pytest.fail("no glue data under _build/jupyter_execute: build the book first (make book)")
    known = g.catalogue("zh_CN")
    lacking = {sk: keys for sk, keys in g.skeletons(files).items() if sk not in known}
    assert not lacking, (
        f"{len(lacking)} generated sentences without a translation, e.g. {list(lacking.items())[:2]}"
    )


def test_a_sentence_glued_in_chinese_with_english_left_in_it_is_a_skeleton_to_translate(tmp_path):
    """Issue 48: a claim glued in Chinese (``KEY__zh_CN``) whose free text (conditions, ``why``) is still English
    is translated by its skeleton; one that is Chinese throughout needs none."""
    import json

    glue = {
        "a": {"data": {"text/markdown": "claim a: $1$-DP, given: x in [a, b]"}},
        "a__zh_CN": {
            "data": {"text/markdown": "声明 a：$1$-DP，前提：the data are clipped to the range"}
        },
        "b": {"data": {"text/markdown": "claim b: $2$-DP"}},
        "b__zh_CN": {"data": {"text/markdown": "声明 b：满足 $2$-DP"}},
    }
    path = tmp_path / "page.glue.json"
    path.write_text(json.dumps(glue), encoding="utf-8")
    found = g.skeletons([path])
    assert found == {"声明 a：{0}-DP，前提：the data are clipped to the range": ["page:a"]}


def test_a_bare_glued_guarantee_is_written_as_the_sentences_beside_it_write_it(tmp_path):
    """zh review 8, T7: mwem's paragraph read "1.000005-差分隐私" (a bare glued guarantee, translated) three lines
    from "1.500005-DP" (inside a generated sentence). A guarantee alone has nothing to translate; a sentence still
    has."""
    loc = _po(tmp_path, {"{0}-DP": "{0}-差分隐私", "the {0}-DP claim": "{0}-DP 的声明"})
    assert not g.translatable("{0}-DP") and not g.translatable("{0}-LDP")
    assert g.translate("$1.000005$-DP", "zh_CN", loc) == "$1.000005$-DP"
    assert g.translate("the $2$-DP claim", "zh_CN", loc) == "$2$-DP 的声明"


def test_a_dimension_label_is_chinese_in_a_table_and_a_sentence():
    """Reader review 4, m4: "1-D"/"2-D" stayed English in mwem's table 3.11 (its dim column) and in the audit's
    rounds per dimension; the term base writes 一维 / 二维."""
    from dpcompendium.core import tables
    from dpcompendium.core.messages import language

    with language("zh_CN"):
        assert (
            tables._cell("1-D", "dim", 3)[0] == "一维"
            and tables._cell("2-D", "dim", 3)[0] == "二维"
        )
        assert "1-D" not in tables._cell("ADULT (1-D, 4096 bins)", "dataset", 3)[0]
    with language("en"):
        assert tables._cell("1-D", "dim", 3)[0] == "1-D"


def test_a_count_written_with_commas_is_grouped_with_narrow_spaces_in_chinese(tmp_path):
    """Native review 9, U1: privacy-audit glued f"{n:,}" counts ("4,000,000"), so the Chinese page wrote thousands
    with commas beside the narrow spaces of the templates and tables. A comma-grouped integer is grouped as the
    Chinese edition groups it, in a translated sentence and alone; the English, a decimal and a code span are not."""
    loc = _po(tmp_path, {"with {0} samples per input": "每个输入 {0} 个样本"})
    assert g.translate("with 4,000 samples per input", "zh_CN", loc) == "每个输入 4\u202f000 个样本"
    assert g.translate("1,000,000", "zh_CN", loc) == "1\u202f000\u202f000"
    assert g.translate("1,000,000", "en", loc) == "1,000,000"
    assert g.translate("with 4,000 samples per input", "en", loc) == "with 4,000 samples per input"
    assert g.translate("0.25", "zh_CN", loc) == "0.25"
    assert g.translate("`1,000`", "zh_CN", loc) == "`1,000`"
