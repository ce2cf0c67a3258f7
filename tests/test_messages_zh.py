"""The Chinese message catalogue (issue 38): complete, same placeholders, renders, uses the sources' terms, and exports
as a ``.po`` catalogue with nothing untranslated or fuzzy."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from babel import Locale
from babel.messages.pofile import read_po

import dpcompendium.chapters  # noqa: F401  (registers the chapters' methods: dpcompendium.core.methods)
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
#: English phrases that hold a word of :data:`INFLECTED` but name another concept, with the Chinese they must come
#: with: "parallel composition" (disjoint data) is not the glossary's sequential composition (顺序组合).
#: Phrases whose Chinese is fixed here, checked before the glossary's rows (a mechanism's claim is 声明: the
#: glossary's "claim" row is the patent's 权利要求).
OTHER_CONCEPTS = {
    "parallel composition": "并行组合",
    "exact claim": "精确声明",
    "claim eps": "声明 ε",
    "as-written claim": "原文写法的声明",
    "private claim": "的声明",
    "claim eps1": "声明 ε₁",
    "claim lhp exact epsilon": "声明 = `lhp_exact_epsilon`",
    "domain knowledge": "领域知识",
    # the verb "mean" (federated-pca's attack figure's alt text), not the glossary's mean (均值)
    "mean the local data": "表示本地数据",
    # the audit's and the primer's figure alt texts: a mechanism's claim (声明)
    "claimed epsilon": "声明的 ε",
    "when the claim holds": "声明成立",
    "the claim s curve": "声明的曲线",
    "the claim s profile": "声明的隐私曲线",
    # hiera's experiment 3: the text's budgets {2ε, …, ε} and the code's {5ε, …, ε}, each its own label
    # (native review 8, A4: 文中预算 and 原文代码的预算, not 原文的隐私预算 for both)
    "text s budgets": "文中预算",
    "code s budgets": "原文代码的预算",
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
                "figure.identity",  # a name the term base keeps: Identity (native review 8, A2)
                "claims.hist.title_identity",  # the same name, in the histograms claims table
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
    # S5's readings are named as the term base's 对和加噪 / 对均值加噪 (native review 3, T4); another composite id
    # is named from both parts with a full-width comma
    assert method_name("as-written:sum", "zh_CN") == "对和加噪，原文写法"
    assert method_name("private:mean", "zh_CN") == "对均值加噪，满足差分隐私"
    assert method_name("corrected:sum", "zh_CN") == f"求和，{METHOD_NAMES['zh_CN']['corrected']}"
    assert set(METHOD_NAMES["zh_CN"]) <= set(METHOD_NAMES["en"])
    for key, name in METHOD_NAMES["zh_CN"].items():
        # a name without a Chinese form is the English one, in Chinese brackets (Harmony（Duchi）; native review 4, F8)
        english = METHOD_NAMES["en"][key]
        assert CJK.search(name) or name == english.replace(" (", "（").replace(")", "）"), key
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
        for phrase, chinese in OTHER_CONCEPTS.items():
            if f" {phrase} " in en_words:
                assert chinese in zh, f"{where}: {zh!r} lacks {chinese} ({phrase})"
                en_words = en_words.replace(f" {phrase} ", " ")
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


# ------------------------------------------------------------------------------------------ claims cards (issue 48)
_CARD_MATH = re.compile(r'<span class="math[^"]*">.*?</span>', re.S)
_TAG = re.compile(r"<[^>]+>")
_LATIN_WORD = re.compile(r"[A-Za-z][A-Za-z'_-]*")
#: ASCII maths a card must not show outside its maths (issue 48: "eps", "<=", "sqrt(" are typeset as maths)
_ASCII_MATHS = re.compile(r"\beps\b|<=|>=|\bsqrt\(|\bsigma\b|\bdelta\b|\btau\b|\brho\b|\^")


def _kept_words() -> set[str]:
    """Names a Chinese card may show in Latin script: the figure texts' kept names (methods, datasets, acronyms)
    and the words the Chinese method names themselves keep (Analyze Gauss, CoinPress, ...)."""
    from dpcompendium.core.figure_messages import PROPER_WORDS

    return set(PROPER_WORDS) | set(_LATIN_WORD.findall(" ".join(METHOD_NAMES["zh_CN"].values())))


def card_cells(table, lang: str) -> list[str]:
    """The text of each cell of a claims card rendered in ``lang``, its maths removed; each condition of a cell's
    list is a cell of its own (a Chinese condition beside an English one does not hide it)."""
    from html import unescape

    from dpcompendium.core.privacy import ClaimsTable

    body = ClaimsTable(table, lang)._repr_html_().split("<tbody>", 1)[1]
    cells = [
        part
        for c in re.findall(r"<td>(.*?)</td>", body, re.S)
        for part in (re.findall(r"<li>(.*?)</li>", c, re.S) or [c])
    ]
    return [unescape(_TAG.sub(" ", _CARD_MATH.sub(" ", c))).strip() for c in cells]


def english_cell(text: str, kept: set[str]) -> bool:
    """A cell of a Chinese card left English: more Latin letters (in words that are not kept names or acronyms)
    than Chinese characters."""
    latin = sum(len(w) for w in _LATIN_WORD.findall(text) if not (w in kept or w.isupper()))
    return latin > len(CJK.findall(text))


def chapter_cards():
    """(chapter, claims table) of the claims cards of dp-mean, federated-pca, hiera and histograms, built as their
    notebooks build them at the default parameters (labels by method id)."""
    import pandas as pd

    from dpcompendium.chapters import dp_mean, federated_pca, hiera, histograms
    from dpcompendium.core.privacy import claims_table

    a, b = dp_mean.HEIGHT_BOUNDS
    wide = dp_mean.WIDE_BOUNDS["heights"]
    share = dp_mean.optimal_count_share((a, b), dp_mean.MEAN_OFFSET_GUESS["heights"])
    yield (
        "dp-mean",
        pd.DataFrame(
            [
                {
                    "method": m,
                    "variant": v,
                    **dp_mean.privacy_claim(m, 1.0, (a, b), v, nb).as_dict(),
                }
                for m in dp_mean.METHODS
                for v in (dp_mean.VARIANTS if m != "clamped" else ("as-written",))
                for nb in ("replace-one", "add-remove")
            ]
        ).drop(columns=["mechanism", "delta"]),
    )
    yield (
        "dp-mean",
        claims_table(
            [
                dp_mean.dp_quantile.privacy_claim(1.0, wide),
                dp_mean.noisy_average_private_bounds.privacy_claim(1.0, wide),
                dp_mean.noisy_average_gaussian.privacy_claim(
                    1.0, dp_mean.GAUSSIAN_DELTA, (a, b), 10_000
                ),
                dp_mean.noisy_average_coinpress.privacy_claim(1.0, dp_mean.GAUSSIAN_DELTA, wide),
                dp_mean.noisy_average_centred.privacy_claim(1.0, (a, b), share),
                dp_mean.noisy_average_centred.privacy_claim(1.0, (a, b), share, "replace-one"),
                dp_mean.privacy_claim("clamped", 2.0, (a, b), neighbours="add-remove"),
            ]
        ),
    )
    delta, n = 1e-6, 10_000
    yield (
        "federated-pca",
        claims_table(
            {
                m: federated_pca.privacy_claim(m, 1.0, delta, n, s=10, calibration="auto")
                for m in federated_pca.METHODS
            }
            | {
                "cape": federated_pca.cape_privacy_claim(1.0, delta, n, 10, calibration="auto"),
                "central": federated_pca.privacy_claim(
                    "central", 1.0, delta, n, preprocessing="as-written"
                ),
                "identity": federated_pca.privacy_claim(
                    "central", 1.0, delta, n, neighbours="add-remove"
                ),
                "pca": federated_pca.privacy_claim(
                    "central", 10.0, 1e-5, n, calibration="classical"
                ),
                "noisy-power": federated_pca.privacy_claim(
                    "central", 2.0, delta, n, calibration="classical"
                ),
            }
        ),
    )
    yield (
        "hiera",
        pd.DataFrame(
            [
                hiera.privacy_claim(m, 1.0).as_dict()
                for m in (
                    "harmony",
                    "pm",
                    "hybrid",
                    "graded-laplace",
                    "hiera",
                    "hiera-calibrated",
                    "hiera-graded",
                )
            ]
            + [hiera.idue_claim(hiera.schedule(1.0)).as_dict()]
            + [
                hiera.privacy_claim(
                    "hiera", 1.0, multipliers=hiera.SGD_TEXT_MULTIPLIERS, coupled=False
                ).as_dict()
            ]
            + [hiera.hiera_claim(hiera.schedule(1.0), level=t).as_dict() for t in range(2)]
        ),
    )
    pairs = [
        ("identity", "private"), ("uniform", "private"), ("hierarchical", "private"), ("privelet", "private"),
        ("least_squares", "private"), ("dawa", "private"), ("dawa", "repaired"), ("dawa", "dpbench"),
        ("ahp", "private"), ("php", "private"), ("php", "level-wise"), ("sampling_grouping", "as-written"),
        ("sampling_grouping", "as-written:sum"), ("sampling_grouping", "private"),
        ("sampling_grouping", "private:mean"), ("privtree", "private"),
    ]  # fmt: skip
    yield "histograms", claims_table([histograms.privacy_claim(m, 1.0, v) for m, v in pairs])


def test_the_card_check_can_fail():
    """A claim whose texts are English strings (not messages) gives English cells on a Chinese card."""
    from dpcompendium.core.privacy import PrivacyClaim, claims_table

    claim = PrivacyClaim(
        "Laplace sum", "add-remove", "sum: b - a", 1.0, conditions=("records in [a, b]",)
    )
    cells = card_cells(claims_table([claim]), "zh_CN")
    assert [c for c in cells if english_cell(c, _kept_words())] == [
        "Laplace sum",
        "sum: b - a",
        "records in [a, b]",
    ], cells
    from dpcompendium.core.messages import Md

    typed = claim.failing(Md("eps <= 1", "eps <= 1"))  # a reason whose MyST is ASCII maths
    assert any(_ASCII_MATHS.search(c) for c in card_cells(claims_table([typed]), "en"))


#: Half-width punctuation beside Chinese outside maths: ", " / ": " after a Chinese character or a full-width bracket,
#: " (" after one (native review 4, F6 and X5: "不满足 …-DP: 每条消息", "顺序组合, 原文写法", "加噪幂迭代法 (…)")
_HALF_WIDTH_BY_CHINESE = re.compile(
    r"[\u4e00-\u9fff）][,:;] |[,:;] (?=[\u4e00-\u9fff])| \((?=[\u4e00-\u9fff])|[\u4e00-\u9fff）] \((?![-\d., ]+\))"
)


def test_every_claims_card_cell_is_chinese_on_the_chinese_pages():
    """Issue 48: every cell of the chapters' claims cards (claim, guarantee, neighbours, sensitivity, conditions,
    reasons) is Chinese in the Chinese edition — the claim texts are message ids of the catalogue — while the English
    card keeps its English; and no card shows ASCII maths (eps, <=, sqrt() outside its maths in either language."""
    kept = _kept_words()
    english, ascii_maths, half_width, n = [], [], [], 0
    for chapter, table in chapter_cards():
        zh, en = card_cells(table, "zh_CN"), card_cells(table, "en")
        assert len(zh) == len(en)
        n += len(zh)
        english += [(chapter, c) for c in zh if english_cell(c, kept)]
        ascii_maths += [(chapter, c) for c in zh + en if _ASCII_MATHS.search(c)]
        # Chinese punctuation in Chinese (native review 4, F6 and X5; test_the_punctuation_check_can_fail)
        half_width += [(chapter, c) for c in zh if _HALF_WIDTH_BY_CHINESE.search(c)]
        assert not any(CJK.search(c) for c in en), chapter
    assert n > 250, n
    assert not english, english
    assert not ascii_maths, ascii_maths
    assert not half_width, half_width


def test_a_cell_of_tied_methods_names_each_method_in_chinese():
    """Native review 4, X1: histograms' winners cell "PrivTree = Hb = DAWA (partition on a noisy histogram)" stayed
    English on the Chinese page; each name of a tie is translated."""
    from dpcompendium.core.tables import _cell

    text = "PrivTree = Hb = DAWA (partition on a noisy histogram)"
    with messages.language("zh_CN"):
        assert _cell(text, "winners", 3)[0] == "PrivTree = Hb = DAWA（在加噪直方图上划分）"
    with messages.language("en"):
        assert _cell(text, "winners", 3)[0] == text


def test_the_punctuation_check_can_fail():
    """Native review 4, F6 and X5: the raw HTML claims cards (which the page's spacing rule does not reach) wrote
    half-width colons after "not …-DP", half-width commas between a method's names and half-width brackets around
    its mechanism in the Chinese edition (14 + 14 cells); the card test above checks every card with this."""
    assert _HALF_WIDTH_BY_CHINESE.search("不满足 x-DP: 每条消息")
    assert _HALF_WIDTH_BY_CHINESE.search("顺序组合, 原文写法")
    assert not _HALF_WIDTH_BY_CHINESE.search("不满足 x-DP：每条消息（a, b）")
    assert _HALF_WIDTH_BY_CHINESE.search("由指数机制 (EM) 作出")
    assert not _HALF_WIDTH_BY_CHINESE.search(
        "隐私预算 (5, 4, 3, 2, 1)"
    )  # a tuple is maths, written as it is
    from dpcompendium.chapters import dp_mean, federated_pca
    from dpcompendium.core.privacy import claims_table

    claims = {
        "shared-seed": federated_pca.privacy_claim("shared-seed", 1.0, 1e-6, 10_000, s=10),
        "clamped": dp_mean.privacy_claim(
            "clamped", 2.0, dp_mean.HEIGHT_BOUNDS, neighbours="add-remove"
        ),
    }
    zh = card_cells(claims_table(claims), "zh_CN")
    assert any("：" in c for c in zh), zh  # the "not …-DP：why" of the clamped mean
    assert not [c for c in zh if _HALF_WIDTH_BY_CHINESE.search(c)], zh


def test_joined_sentences_take_chinese_punctuation():
    """Native review 4, X4: mwem's glued list of sentences read "（点估计）. Adult 二维，…168; Adult 二维：…" on the
    Chinese page: a join of sentences (". ") or clauses ("; ") writes 。 and ； in Chinese; a list of names takes 、
    (native review 7, A7: "对比 Harmony（Duchi），PM, Hybrid") and so does a list of plain numbers (review 8, A9); maths keeps its comma."""
    from dpcompendium.core.messages import join

    a, b = message("mwem.metric_mse"), message("mwem.metric_max_error")
    assert join([a, b], ". ").in_language("zh_CN") == "均方误差。最大误差"
    assert join([a, b], "; ").in_language("zh_CN") == "均方误差；最大误差"
    assert join([a, b], ", ").in_language("zh_CN") == "均方误差、最大误差"
    from dpcompendium.core.messages import Md, method_name

    names = [
        Md(m, method_name(m, "en"), {"en": method_name(m, "en"), "zh_CN": method_name(m, "zh_CN")})
        for m in ("harmony", "pm", "hybrid")
    ]
    assert join(names).in_language("zh_CN") == "Harmony（Duchi）、PM、Hybrid"
    assert join(names).in_language("en") == "Harmony (Duchi), PM, Hybrid"
    numbers = [
        Md("0.5", "0.5", {"en": "0.5", "zh_CN": "0.5"}),
        Md("2", "$2$", {"en": "$2$", "zh_CN": "$2$"}),
    ]
    assert join(numbers).in_language("zh_CN") == "0.5, $2$"  # maths keeps its comma
    # plain numbers, and names beside them, take 、 (native review 8, A9: "ε = ln 2, 1.5", "比值 1.06, 1.07")
    assert join(["1.06", "1.07"]).in_language("zh_CN") == "1.06、1.07"
    assert join(["ln 2", "1.5"]).in_language("zh_CN") == "ln 2、1.5"
    assert join(["1.06", "1.07"]).in_language("en") == "1.06, 1.07"
    assert join([a, b], "; ").in_language("en") == f"{a.in_language('en')}; {b.in_language('en')}"


def test_a_latin_value_beside_chinese_text_takes_a_space():
    """Native review 7, A11: "在%(data)s上" filled with "Adult 年龄数据" read "在Adult 年龄数据上" (hiera, 15 times) and
    the rerun box's "或datasets 不包含…"; a Latin value beside a Chinese character takes a space, a Chinese one none."""
    from dpcompendium.core.messages import dataset_md

    adult = message("hiera.short_cells", data=dataset_md("adult-age"), eps="1")
    assert adult.in_language("zh_CN").startswith("在 Adult 年龄数据上 ")
    assert (
        message("hiera.on_data", data=dataset_md("uniform"), sentence="x")
        .in_language("zh_CN")
        .startswith("在均匀分布上，")
    )
    from dpcompendium.book.rerun_box import requirement_text

    zh = requirement_text('k <= 13 or "wine" not in datasets', "zh_CN")
    assert "，或 " in zh, zh


def test_a_chinese_value_takes_no_template_space():
    """A template's space before 的 is there for a Latin name ("%(a)s 的"); a Chinese name ending in ） takes none
    (native review 7: "分组（加噪中心，S5 对和加噪） 的")."""
    from dpcompendium.chapters.histograms import budgets_md
    from dpcompendium.core.messages import named

    params = dict(
        quantity="MSE",
        shown_at=budgets_md(3, 3),
        lo="0.1",
        hi="0.2",
        tail="",
        typical="",
        shares="",
    )
    zh = message(
        "hist.php_lead",
        a=named("grouping: noisy centres, S5 sum"),
        b=named("P-HP (authors)"),
        **params,
    ).in_language("zh_CN")
    assert "对和加噪）的" in zh, zh
    latin = message("hist.php_lead", a="Hb", b="Identity", **params).in_language("zh_CN")
    assert "Hb 的" in latin, latin
