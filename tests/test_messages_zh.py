"""The Chinese message catalogue (issue 38): complete, same placeholders, renders, uses the sources' terms, and exports
as a ``.po`` catalogue with nothing untranslated or fuzzy."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from babel import Locale
from babel.messages.pofile import read_po

from dpcompendium.core import messages
from dpcompendium.core.messages import CATALOGUE, METHOD_NAMES, message, method_name, to_po

GLOSSARY = Path(__file__).resolve().parents[1] / "book" / "glossary.md"
PLACEHOLDER = re.compile(r"%\((\w+)\)s")
CJK = re.compile(r"[\u4e00-\u9fff]")

#: English words of the templates and names that are a glossary term in another form (a plural, a participle): the
#: word → the English column of its glossary row. The Chinese it must come with is read from the glossary itself.
INFLECTED = {
    "neighbours": "neighbouring datasets",
    "sensitivity": "(global) sensitivity",
    "composition": "sequential composition",
    "normalized": "normalization",
    "mean": "mean, average",
    "resampling": "resampling",
    "noise": "noise / noise addition",
    "laplace": "Laplace mechanism / Laplace noise",
    "budgets": "privacy budget, $\\varepsilon$",
    "pca": "principal component analysis",
}


def glossary() -> dict[str, list[str]]:
    """English column → the Chinese forms of its row (only rows whose Chinese column is Chinese)."""
    rows: dict[str, list[str]] = {}
    for line in GLOSSARY.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 4 or cells[0] in ("Chinese", "---") or not CJK.search(cells[0]):
            continue
        forms = [re.sub(r"\s*\(.*?\)|\$.*?\$", "", f).strip() for f in cells[0].split("/")]
        rows[cells[1]] = [f for f in forms if f]
    return rows


def english_forms(term: str) -> list[str]:
    """The plain English phrases of a glossary English column: ``"(global) sensitivity"`` → ``["sensitivity"]``."""
    term = re.sub(r"\$.*?\$|\(.*?\)", "", term)
    return [p.strip().lower() for p in re.split(r"/|,", term) if len(p.strip()) > 2]


def words(text: str) -> str:
    """``text`` in lower case without maths and markup, for whole-word matching."""
    return " " + re.sub(r"[^a-z0-9-]+", " ", re.sub(r"\$.*?\$", " ", text.lower())) + " "


def pairs() -> list[tuple[str, str, str]]:
    """(where, English text, Chinese text) of every template and of every method name with a Chinese name."""
    out = [(f"message {k}", v, CATALOGUE["zh_CN"][k]) for k, v in CATALOGUE["en"].items()]
    out += [(f"method {k}", METHOD_NAMES["en"][k], v) for k, v in METHOD_NAMES["zh_CN"].items()]
    return out


def test_zh_cn_is_a_language_of_the_catalogue():
    messages.set_language("zh_CN")
    try:
        assert messages.get_language() == "zh_CN"
    finally:
        messages.set_language("en")


def test_every_english_id_has_a_chinese_template_with_the_same_placeholders():
    en, zh = CATALOGUE["en"], CATALOGUE["zh_CN"]
    assert set(zh) == set(en), (
        f"missing: {sorted(set(en) - set(zh))}, extra: {sorted(set(zh) - set(en))}"
    )
    for msgid, template in en.items():
        assert set(PLACEHOLDER.findall(zh[msgid])) == set(PLACEHOLDER.findall(template)), msgid
        # the maths of a template is kept exactly
        assert re.findall(r"\$.*?\$", zh[msgid]) == re.findall(r"\$.*?\$", template), msgid
        # no stray %: every % is a placeholder or a literal %%
        assert "%" not in PLACEHOLDER.sub("", zh[msgid]).replace("%%", ""), msgid


def test_every_chinese_template_renders_and_is_chinese_where_the_english_has_words():
    messages.set_language("zh_CN")
    try:
        for msgid, template in CATALOGUE["en"].items():
            params = {name: f"P{i}" for i, name in enumerate(PLACEHOLDER.findall(template))}
            md = message(msgid, **params)
            for value in params.values():
                assert value in md.myst, (msgid, md.myst)
            assert str(md) == messages.PLAIN[msgid] % params  # CSVs stay English
            english_words = re.sub(r"\$.*?\$|%\(\w+\)s|[^A-Za-z]", "", template)
            if len(english_words) > 3 and msgid not in (
                "claim.guarantee",
                "claim.guarantee_delta",
                "dpmean.variant_zcdp",  # a name the term base keeps: zCDP
            ):
                assert CJK.search(md.myst), (msgid, md.myst)
    finally:
        messages.set_language("en")


def test_a_claim_renders_in_chinese():
    from dpcompendium.core.privacy import PrivacyClaim

    claim = PrivacyClaim(
        mechanism="Laplace sum",
        epsilon=0.5,
        neighbours="replace-one",
        sensitivity="b - a",
        conditions=("x in [a, b]",),
    )
    messages.set_language("zh_CN")
    try:
        text = claim.statement("myst")
    finally:
        messages.set_language("en")
    assert "敏感度" in text and "邻居数据集" in text and "前提" in text, text
    assert "$0.5$-DP" in text, text


def test_method_names_fall_back_to_english_where_the_sources_have_no_chinese_name():
    assert method_name("resampling", "zh_CN") == "重采样"
    assert method_name("ahp", "zh_CN") == METHOD_NAMES["en"]["ahp"]
    assert method_name("as-written:sum", "zh_CN") == f"求和, {METHOD_NAMES['zh_CN']['as-written']}"
    assert set(METHOD_NAMES["zh_CN"]) <= set(METHOD_NAMES["en"])
    for key, name in METHOD_NAMES["zh_CN"].items():
        assert CJK.search(name), key
        assert re.findall(r"\$.*?\$", name) == re.findall(r"\$.*?\$", METHOD_NAMES["en"][key]), key


def test_glossary_terms_keep_their_sources_chinese_form():
    """Term base: where an English template or name uses a glossary term, the Chinese uses that row's Chinese."""
    rows = glossary()
    assert len(rows) > 100, "the glossary table could not be read"
    for word, row in INFLECTED.items():
        assert row in rows, f"{word}: no glossary row {row!r}"
    checked = 0
    for where, en, zh in pairs():
        en_words = words(en)
        found = [
            (row, form) for row in rows for form in english_forms(row) if f" {form} " in en_words
        ]
        found += [(row, word) for word, row in INFLECTED.items() if f" {word} " in en_words]
        # the longest term wins: "graded Laplace" (分级的laplace) is not checked as "Laplace" (拉普拉斯机制)
        terms = {
            row
            for row, form in found
            if not any(form != longer and form in longer and r != row for r, longer in found)
        }
        for row in terms:
            checked += 1
            assert any(form in zh for form in rows[row]), (
                f"{where}: {zh!r} lacks {rows[row]} ({row})"
            )
    assert checked >= 10, checked


def test_po_export_of_zh_cn_has_nothing_untranslated_or_fuzzy():
    catalog = read_po(io.StringIO(to_po("zh_CN")))
    entries = [m for m in catalog if m.id]
    assert len(entries) == len(CATALOGUE["en"])
    untranslated = [m.context for m in entries if not m.string]
    fuzzy = [m.context for m in entries if m.fuzzy]
    assert untranslated == [] and fuzzy == []
    for m in entries:
        assert ("python-format" in m.flags) == bool(PLACEHOLDER.search(m.id))
        assert m.id == CATALOGUE["en"][m.context] and m.string == CATALOGUE["zh_CN"][m.context]


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_po_export_reads_back_with_its_language(lang):
    catalog = read_po(io.StringIO(to_po(lang)))
    assert catalog.locale == Locale.parse(lang)
