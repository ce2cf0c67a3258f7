"""The Chinese edition's plumbing (issue 38), without a build: generated text rendered in every language from one
call, glued once per language, outputs tagged and filtered per edition, tables in the reader's language, the language
switch's URLs, the catalogues compiled."""

from __future__ import annotations

import re

import nbformat
import pandas as pd
import pytest

import dpcompendium.chapters  # noqa: F401  (registers every chapter's method names, which the tables translate)
from dpcompendium.book import i18n, prose
from dpcompendium.book.execution import for_language, output_language
from dpcompendium.core import messages
from dpcompendium.core.messages import Md, join, message
from dpcompendium.core.privacy import ClaimsTable
from dpcompendium.core.tables import readable


def test_a_message_is_rendered_in_every_language_from_one_call():
    m = message("prose.count", k="3", n="5")
    assert str(m) == "3 of 5" and m.myst == "3 of 5"
    assert m.in_language("zh_CN") == "5 个中 3 个"
    # through join, + and a guarded note, each language keeps its own rendering
    s = prose.guarded(False, "x", join([m, prose.plural(2, "repetition")]) + ".")
    assert str(s) == "At these parameters: 3 of 5, 2 repetitions (unlike the book's default run)"
    assert s.in_language("zh_CN") == "在这组参数下：5 个中 3 个，2 次重复（与本书的默认运行不同）"
    # text not from a template is the same in every language
    assert Md("plain words").in_language("zh_CN") == "plain words"
    pair = prose.pairs({1: 285.0})
    assert pair.in_language("zh_CN") == "$\\varepsilon = 1$ 时为 285"
    assert pair.in_language("en") == "285 at $\\varepsilon = 1$"


def test_language_context_restores_the_language():
    with messages.language("zh_CN"):
        assert messages.get_language() == "zh_CN"
        assert message("prose.na").myst == "无数据"
    assert messages.get_language() == "en"
    with pytest.raises(ValueError, match="lang must be one of"):
        messages.set_language("fr")


def test_glue_stores_the_translation_beside_the_english(monkeypatch):
    glued: dict[str, object] = {}
    import myst_nb

    monkeypatch.setattr(
        myst_nb, "glue", lambda name, value, display=True: glued.update({name: value})
    )
    prose.glue("k", prose.count(3, 5), display=False)
    prose.glue("same", prose.num(1.5), display=False)  # a number: the same in every language
    prose.glue("text", "an f-string", display=False)
    assert set(glued) == {"k", prose.translated_key("k", "zh_CN"), "same", "text"}
    zh = glued["k__zh_CN"]
    assert isinstance(zh, Md) and zh.myst == "5 个中 3 个" and str(zh) == "5 个中 3 个"
    assert str(glued["k"]) == "3 of 5"


def _output(lang: str | None, text: str) -> dict:
    meta = {} if lang is None else {"dpcompendium": {"lang": lang}}
    return nbformat.v4.new_output("display_data", data={"text/plain": text}, metadata=meta)


def test_each_edition_keeps_its_outputs_and_the_untagged_ones():
    nb = nbformat.v4.new_notebook()
    cell = nbformat.v4.new_code_cell("show(...)")
    cell.outputs = [_output("en", "table"), _output("zh_CN", "表"), _output(None, "both")]
    nb.cells = [cell, nbformat.v4.new_markdown_cell("text")]
    assert [output_language(o) for o in cell.outputs] == ["en", "zh_CN", None]
    en, zh = for_language(nb, "en"), for_language(nb, "zh_CN")
    assert [o.data["text/plain"] for o in en.cells[0].outputs] == ["table", "both"]
    assert [o.data["text/plain"] for o in zh.cells[0].outputs] == ["表", "both"]
    assert len(nb.cells[0].outputs) == 3  # the stored notebook is not changed


def test_show_tags_one_output_per_edition(monkeypatch):
    shown = []
    import IPython.display

    monkeypatch.setattr(
        IPython.display, "display", lambda value, metadata=None: shown.append((value, metadata))
    )
    messages.show({"en": "a", "zh_CN": "甲"})
    assert shown == [
        ("a", {"dpcompendium": {"lang": "en"}}),
        ("甲", {"dpcompendium": {"lang": "zh_CN"}}),
    ]
    shown.clear()
    messages.show({"en": "only"})  # a language without its value shows the English one
    assert [v for v, _ in shown] == ["only", "only"]
    with pytest.raises(ValueError, match="by_lang must have an 'en' value"):
        messages.show({"zh_CN": "甲"})


def test_tables_in_the_readers_language():
    df = pd.DataFrame(
        {"method": ["composition", "php"], "rmse": [1.25, 2.5], "private": [True, False]}
    )
    en, zh = readable(df)._repr_html_(), readable(df, lang="zh_CN")._repr_html_()
    assert "<th>RMSE</th>" in en and "Composition" in en and "yes" in en
    assert "均方根误差" in zh and "顺序组合" in zh and "是" in zh and "P-HP" in zh
    assert "1.25" in zh and "2.5" in zh  # the same numbers
    assert messages.get_language() == "en"
    claims = ClaimsTable(pd.DataFrame([{"method": "php", "mechanism": "P-HP", "neighbours": "add-remove",
                                        "sensitivity": "1", "epsilon": 1.0, "delta": 0.0, "private": True,
                                        "why": "", "conditions": ""}]), "zh_CN")  # fmt: skip
    assert "<th>隐私保证</th>" in claims._repr_html_()


@pytest.mark.parametrize(
    ("page", "lang", "other", "url"),
    [
        ("notebooks/dp-mean", "en", "zh_CN", "../zh_CN/notebooks/dp-mean.html"),
        ("notebooks/dp-mean", "zh_CN", "en", "../../notebooks/dp-mean.html"),
        ("index", "en", "zh_CN", "zh_CN/index.html"),
        ("book/api/core", "zh_CN", "en", "../../../book/api/core.html"),
    ],
)
def test_the_switch_links_the_same_page_relatively(page, lang, other, url):
    assert i18n._switch_url(page, lang, other) == url


def test_catalogues_compile_without_fuzzy_entries(tmp_path):
    from babel.messages.catalog import Catalog
    from babel.messages.mofile import read_mo
    from babel.messages.pofile import write_po

    po = tmp_path / "locales" / "zh_CN" / "LC_MESSAGES" / "book" / "page.po"
    po.parent.mkdir(parents=True)
    cat = Catalog(locale="zh_CN")
    cat.add("Done.", "完成。")
    cat.add("Unsure.", "不确定。", flags=["fuzzy"])
    with po.open("wb") as f:
        write_po(f, cat)
    assert i18n.compile_catalogues(tmp_path, "zh_CN", tmp_path / "out", tmp_path / "locales") == 1
    mo = tmp_path / "out" / "zh_CN" / "LC_MESSAGES" / "book" / "page.mo"
    with mo.open("rb") as f:
        compiled = read_mo(f)
    assert compiled.get("Done.").string == "完成。" and compiled.get("Unsure.") is None
    # unchanged: not compiled again
    assert i18n.compile_catalogues(tmp_path, "zh_CN", tmp_path / "out", tmp_path / "locales") == 0


def test_a_displayed_table_is_shown_once_per_edition(monkeypatch):
    """Every DataFrame and claims table a chapter displays is shown once per edition, each tagged (and a claims
    table does not come back to its own formatter: that looped without end)."""
    import IPython.core.display_functions as functions
    from IPython.testing.globalipapp import start_ipython

    from dpcompendium.core.privacy import PrivacyClaim, show_claims
    from dpcompendium.core.tables import use_book_tables

    ip = start_ipython()
    monkeypatch.setattr(ip.display_formatter, "active_types", ["text/plain", "text/html"])
    printers = ip.display_formatter.ipython_display_formatter.type_printers
    monkeypatch.setattr(
        ip.display_formatter.ipython_display_formatter, "type_printers", dict(printers)
    )
    out = []
    monkeypatch.setattr(
        functions,
        "publish_display_data",
        lambda data, metadata=None, **k: out.append((data, metadata)),
    )
    assert use_book_tables()
    functions.display(pd.DataFrame({"method": ["composition"], "rmse": [1.0]}))
    functions.display(show_claims([PrivacyClaim("P-HP", "add-remove", "1", 1.0)]))
    langs = [m["dpcompendium"]["lang"] for _, m in out]
    assert langs == ["en", "zh_CN", "en", "zh_CN"]
    assert "顺序组合" in out[1][0]["text/html"] and "Composition" in out[0][0]["text/html"]
    assert "<th>隐私保证</th>" in out[3][0]["text/html"]


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_a_claims_card_without_noise_is_not_called_not_infinity_dp(lang):
    """Review 5, m11: every mechanism is ∞-DP, so a card row with no noise says "not ε-DP for any finite ε", not
    "not ∞-DP"; a row whose ε is finite keeps "not 2-DP"."""
    import pandas as pd

    from dpcompendium.core.privacy import ClaimsTable

    row = {"method": "pca", "mechanism": "PCA", "neighbours": "replace-one", "sensitivity": "none",
           "delta": 0.0, "private": False, "why": "no noise", "conditions": ""}  # fmt: skip
    html = ClaimsTable(pd.DataFrame([{**row, "epsilon": float("inf")}]), lang)._repr_html_()
    assert "∞" not in html and "infty" not in html
    assert ("for any finite" in html) if lang == "en" else ("任何有限的" in html)
    finite = ClaimsTable(pd.DataFrame([{**row, "epsilon": 2.0}]), lang)._repr_html_()
    assert "for any finite" not in finite and "任何有限的" not in finite


def test_a_chinese_table_writes_the_audit_catalogues_headers_verdicts_and_mechanisms_in_chinese():
    """Review 6, D6 and D9: the audit catalogue's table (headers, verdict words, audit kinds, mechanism names, pairs)
    and the chapters' result-table headers are Chinese on the Chinese page; the English table is unchanged."""
    import pandas as pd

    from dpcompendium.core.tables import ReadableTable

    df = pd.DataFrame(
        {
            "mechanism": ["Laplace mechanism, eps=0.5", "MWEM selection, coursework, 2-D", "ahp"],
            "chapter": ["core", "mwem", "histograms"],
            "pair / note": [
                "D = {} vs D' = {1}",
                "inputs -1 vs +1",
                "every pair of the k one-record inputs",
            ],
            "audit": ["empirical", "exact", "exact"],
            "verdict": ["holds", "violated", "holds"],
            "exact ε": [0.5, 1.0, 2.0],
            "needed (power 0.9)": [10, 20, 30],
            "below_Identity": [1, 2, 3],
        }
    )
    zh = ReadableTable(df, lang="zh_CN")._repr_html_()
    for text in (
        "拉普拉斯机制",
        "MWEM 选择，课程作业变体，二维",
        # a chapter column's catalogue group as its id, set as code (native review 9, A1)
        '<td><code class="docutils literal notranslate">core</code></td>',
        "经验",
        "精确",
        "成立",
        "违反",
        "审计方式",
        "精确 ",
        "所需样本数（检验功效 0.9）",
        "低于 Identity",
        "输入 −1 对 +1",  # a number's sign is a true minus on the page (reader review 5, m7)
        "AHP",
    ):
        assert text in zh, (text, zh)
    for english in ("empirical", "holds", "violated", "Laplace mechanism", "needed", "every pair"):
        assert english not in zh, (english, zh)
    en = ReadableTable(df, lang="en")._repr_html_()
    for text in (
        "Laplace mechanism",
        "core",
        "empirical",
        "holds",
        "violated",
        "needed (power 0.9)",
    ):
        assert text in en, (text, en)


@pytest.mark.parametrize(
    ("english", "chinese"),
    [
        (
            "SVM accuracy at ε = 0.1 and 1 (10 sites, k = 5)",
            "时的 SVM 准确率（10 个站点，",
        ),
        ("Mean over the datasets of the accuracy difference, by ε", "各数据集上准确率差值的均值"),
        (
            "Aggregate noise (A′ − A)/τ on digits, 10 sites, 41600 entries",
            "手写数字数据上的聚合噪声",
        ),
        ("DP-Sniper's published lower bounds (published, ε = 0.1)", "DP-Sniper 已发表的下界"),
    ],
)
def test_a_chinese_table_writes_its_english_caption_in_chinese(english, chinese):
    """Native review 2, X1: a caption a notebook writes in English (``show_readable(..., caption=...)``) is shown
    in Chinese on the Chinese page through a template of the catalogue, with the same numbers; the English table
    keeps it as it is, and a caption no template renders stays as it is."""
    from dpcompendium.core.tables import ReadableTable

    df = pd.DataFrame({"method": ["composition"], "rmse": [1.25]})
    zh = ReadableTable(df, caption=english, lang="zh_CN")._repr_html_()
    caption = zh.split("<caption>")[1].split("</caption>")[0]
    assert chinese in caption, caption
    assert re.findall(r"\d+(?:\.\d+)?", caption) == re.findall(r"\d+(?:\.\d+)?", english)
    en = ReadableTable(df, caption=english, lang="en")._repr_html_()
    assert chinese not in en
    unknown = ReadableTable(df, caption="A caption of no template", lang="zh_CN")._repr_html_()
    assert "A caption of no template" in unknown


def test_a_chinese_table_writes_the_remaining_headers_and_cells_in_chinese():
    """Native review 2 (X1, R1): the headers and cells still English on the Chinese pages: a Greek letter's name in a
    column name (``base_epsilon``, the English header "base ε"), a ``level`` by what it holds (HierA's privacy levels
    1…k, a confidence level), chapters' own headers, verdict words, budget splits and a data set's dimension."""
    from dpcompendium.core.tables import ReadableTable

    hiera = pd.DataFrame(
        {"base_epsilon": [1.0, 1.0], "level": [1, 2], "claimed_epsilon": [5.0, 4.0]}
    )
    zh = ReadableTable(hiera, lang="zh_CN")._repr_html_()
    assert "<th>隐私等级</th>" in zh and "基础" in zh and "声称的" in zh, zh
    tested = pd.DataFrame(
        {
            "level": [0.95, 0.999],
            "CAPE as published": [1.0, 2.0],
            "shared-seed: no seed (takes A_i' as is)": [1.0, 2.0],
            "split": ["sum 0.5, count 0.5 / sum 0.94, count 0.06", "sum 0.5, count 0.5"],
            "verdict": ["consistent", "better"],
            "dataset": ["ADULT (1-D, 4096 bins)", "ADULT (2-D, 4096 bins)"],
        }
    )
    zh = ReadableTable(tested, lang="zh_CN")._repr_html_()
    for text in (
        "置信水平",
        "无随机种子（直接取",
        "CAPE（论文原方案）",
        "和 0.5，计数 0.5 / 和 0.94，计数 0.06",
        "一致",
        "更好",
    ):
        assert text in zh, (text, zh)
    assert "ADULT（一维，4096 个桶）" in zh and "ADULT（二维，4096 个桶）" in zh
    en = ReadableTable(tested, lang="en")._repr_html_()
    for text in (
        "<th>level</th>",
        "CAPE as published",
        "sum 0.94, count 0.06",
        "consistent",
        "1-D, 4096 bins",
    ):
        assert text in en, (text, en)


def test_a_chinese_table_writes_review_3s_english_cells_in_chinese():
    """Native review 3 (X1): P-HP's budget rows (identifiers such as ``decision_levels``), ``describe()``'s rows,
    mwem's metrics (``mean_error``, ``mse``), DAWA's DPBench variant, dp-mean's budget splits, hiera's SGD rows and
    group rules, privacy-audit's planted bugs; the English table keeps its words."""
    from dpcompendium.core.tables import ReadableTable

    cells = {
        "decision_levels": "决策层数",
        "allocated_partitioning": "划分（分配的预算）",
        "partitioning": "划分",
        "allocated": "总计（分配的预算）",
        "min": "最小值",
        "mean_error": "平均误差",
        "max_error": "最大误差",
        "mse": "均方误差",
        "dpbench": "DPBench 版 DAWA",  # zh review 8, T1
        "code": "原文代码",  # native review 8, C5: the source's code against its text
        "text": "原文文字",
        "0.1 + 0.1 quantiles, 0.8 mean / all on one release": "0.1 + 0.1 用于分位数，0.8 用于均值 / 全部用于一次发布",
        "0.125 + 0.125 range steps, 0.75 mean (of rho) / sum 1, count 0 (n public)": (
            "0.125 + 0.125 用于范围步骤，0.75 用于均值（"
        ),
        "SGD {2ε, …, ε}, level from x": "等级取自 x",
        "GRR, wrong p": "GRR，p 有误",
        "exact-projections": "精确投影",
    }
    table = pd.DataFrame({"row": list(cells), "value": range(len(cells))})
    zh = ReadableTable(table, lang="zh_CN")._repr_html_()
    missing = [(en, text) for en, text in cells.items() if text not in zh]
    assert not missing, (missing, zh)
    en = ReadableTable(table, lang="en")._repr_html_()
    assert "decision levels" in en and "all on one release" in en and "GRR, wrong p" in en


def test_a_claims_tables_own_row_labels_are_chinese():
    """Native review 3 (X1): a claims table's key of the chapter's own ("central, as-written preprocessing") is
    shown through its figure template on the Chinese page, as it is on the English one."""
    from dpcompendium.core.privacy import ClaimsTable

    row = {"mechanism": "Analyze Gauss (trusted curator)", "neighbours": "replace-one", "sensitivity": "1",
           "delta": 1e-6, "epsilon": 1.0, "private": True, "why": "", "conditions": ""}  # fmt: skip
    table = pd.DataFrame([{"method": "central, as-written preprocessing", **row}])
    assert "中心化，原文写法的预处理" in ClaimsTable(table, "zh_CN")._repr_html_()
    assert "central, as-written preprocessing" in ClaimsTable(table, "en")._repr_html_()


def _repeated_run(label: str) -> str | None:
    """A word (three Latin letters or more) or a run of three Chinese characters that a label says twice, if any."""
    words = [w.casefold() for w in re.findall(r"[A-Za-z]{3,}", label)]
    for w in words:
        if words.count(w) > 1:
            return w
    for run in re.findall(r"[\u4e00-\u9fff]+", label):
        for i in range(len(run) - 2):
            if label.count(run[i : i + 3]) > 1:
                return run[i : i + 3]
    return None


def test_a_claims_card_label_says_each_word_once():
    """Native review 6, D1: the label cell of federated-pca's claims card read "DPdisPCA（DPdisPCA）",
    "加噪幂迭代法（差分隐私加噪幂迭代法（10 次迭代））", "CAPE（CAPE 相关噪声（校准后））" — the row's name and its
    mechanism's name side by side, compared in English only. Each card's label says a word once, in both
    languages, and keeps what only one of the two names says."""
    from dpcompendium.chapters import dp_mean, federated_pca
    from dpcompendium.core.privacy import claims_table, show_claims

    fed = claims_table(
        {m: federated_pca.privacy_claim(m, 1.0, 1e-5, 1002, s=10) for m in federated_pca.METHODS}
        | {
            "cape, as published (per-message calibration)": federated_pca.cape_privacy_claim(
                1.0, 1e-5, 1002, 10
            ),
            "central, add-remove with exact n": federated_pca.privacy_claim(
                "central", 1.0, 1e-5, 1002, neighbours="add-remove"
            ),
        }
    )
    mean = pd.DataFrame(
        [
            {
                "method": m,
                "variant": "as-written",
                **dp_mean.privacy_claim(m, 1.0, (0, 1)).as_dict(),
            }
            for m in dp_mean.METHODS
        ]
    ).drop(columns=["mechanism"])
    for table in (fed, mean):
        for lang in messages.CATALOGUE:
            with messages.language(lang):
                labels = [r["claim"].myst for r in show_claims(table)._rows()]
            for label in labels:
                assert _repeated_run(label) is None, (lang, label, _repeated_run(label))
    with messages.language("zh_CN"):
        labels = [r["claim"].myst for r in show_claims(fed)._rows()]
    # what only one name says stays: the row's qualifier and the mechanism's
    assert "Analyze Gauss（中心化差分隐私，可信的数据管理者）" in labels
    assert "CAPE 相关噪声（论文原方案，按消息校准）" in labels


def test_the_repeated_word_check_can_fail():
    assert _repeated_run("DPdisPCA（DPdisPCA）") == "dpdispca"
    assert _repeated_run("加噪幂迭代法（差分隐私加噪幂迭代法（10 次迭代））") is not None
    assert _repeated_run("CAPE 相关噪声（论文原方案，按消息校准）") is None


def test_the_execution_report_names_each_executor_in_every_edition():
    """The Chinese execution page showed "book build (nbclient)" (issue 48, b): every program that writes an
    execution record (``executor=`` of ``make_record`` in the library and tools/) has its name in each edition's
    report text, and both editions have the same entries."""
    from pathlib import Path

    from dpcompendium.book.sphinxext import REPORT_TEXT, executor_name

    root = Path(__file__).resolve().parents[1]
    sources = [*root.joinpath("src").rglob("*.py"), *root.joinpath("tools").glob("*.py")]
    executors = {
        m.group(1)
        for path in sources
        for m in re.finditer(r"executor=\"([^\"]+)\"", path.read_text(encoding="utf-8"))
    }
    assert {"book build (nbclient)", "nbval (make test)"} <= executors
    assert set(REPORT_TEXT["zh_CN"]) == set(REPORT_TEXT["en"])
    for name in executors:
        zh = executor_name(name, REPORT_TEXT["zh_CN"])
        assert zh != name, (
            name
        )  # Chinese brackets at least: 图书构建（nbclient）, nbval（make test）
        assert executor_name(name, REPORT_TEXT["en"]) == name


def test_the_edition_names_its_authors_in_its_language(tmp_path):
    """zh review 8, residual English 2: the footer read "作者： The dpcompendium authors"."""
    over = i18n.edition_overrides(tmp_path, "zh_CN")
    assert over["author"] and not re.search(r"\b(The|authors)\b", over["author"])


def test_a_baselines_audit_label_names_the_method_in_every_edition():
    """zh review 8, mistranslation 3: the English catalogue showed the raw id "hdmm (baseline)" where the Chinese
    named the method."""
    import dpcompendium.chapters.histograms  # noqa: F401  (registers the chapter's methods)
    from dpcompendium.core.tables import ReadableTable

    df = pd.DataFrame(
        {"mechanism": ["hdmm (baseline)", "privtree (baseline)", "not_a_method (baseline)"]}
    )
    en = ReadableTable(df, lang="en")._repr_html_()
    zh = ReadableTable(df, lang="zh_CN")._repr_html_()
    assert "hdmm (baseline)" not in en and "HDMM (" in en and "PrivTree (baseline)" in en
    assert "not_a_method (baseline)" in en  # an id no method has is shown as it is
    assert "HDMM（" in zh and "PrivTree（基线）" in zh


def test_grouped_numbers_keep_their_separator_in_the_generated_catalogue():
    """A number the zh edition groups with narrow spaces (「4 000 000」; native review 8, U2) reaches the generated
    sentences' catalogue as adjacent placeholders joined by that space: a translation that joins them with a plain
    space shows three numbers where the English page has one (the pages' number check found it)."""
    from pathlib import Path

    from babel.messages.pofile import read_po

    po = Path(__file__).parents[1] / "locales" / "zh_CN" / "LC_MESSAGES" / "generated.po"
    with po.open("rb") as f:
        catalogue = read_po(f)
    joined = re.compile(r"\{\d+\}[\u202f\u2009]\{\d+\}")
    bad = [
        m.id[:60]
        for m in catalogue
        if m.id
        and m.string
        and joined.findall(m.id)
        and sorted(joined.findall(m.id)) != sorted(joined.findall(m.string))
    ]
    assert not bad, f"grouped numbers split in {len(bad)} translations: {bad}"


def test_a_chapter_column_keeps_the_chapter_ids_in_every_language():
    """Native review 9, A1: the audit catalogue's chapter column showed "hiera" as HierA's arm
    (「HierA（原文的隐私预算）」) and "mwem" as the method in the zh edition, and "core" as 「核心库」 beside the
    other rows' ids; every row shows its catalogue group's id, one form in every edition, and no chapter cell is a
    method's label."""
    from dpcompendium.chapters.registry import manifests
    from dpcompendium.core.messages import METHOD_NAMES

    ids = [m.id for m in manifests()] + ["core", "planted"]
    assert "hiera" in ids and "mwem" in ids
    df = pd.DataFrame({"chapter": ids, "mechanism": ["x"] * len(ids)})
    labels = {str(v) for names in METHOD_NAMES.values() for v in names.values()}
    for lang in ("en", "zh_CN"):
        html_ = readable(df, lang=lang)._repr_html_()
        # each id set as code: an identifier, not a word of either edition
        shown = re.findall(
            r'<td><code class="docutils literal notranslate">([^<]*)</code></td>', html_
        )
        assert shown == ids, (lang, shown)
        assert not set(shown) & labels, lang
    assert "原文的隐私预算" not in readable(df, lang="zh_CN")._repr_html_()
