"""The Chinese edition's spaces (native review 3, W1): none between Chinese characters or beside full-width
punctuation, across inline nodes; kept beside Latin letters, digits, maths and code."""

from __future__ import annotations

import pytest
from docutils import nodes

from dpcompendium.book.cjk_spacing import is_tight, tidy, tidy_text


@pytest.mark.parametrize(
    ("text", "tidied"),
    [
        ("最终选择。 每次", "最终选择。每次"),
        ("课程作业变体 的误差", "课程作业变体的误差"),
        ("定理 7 （高级组合", "定理 7（高级组合"),
        (
            "Analyze Gauss（中心化差分隐私） 与 DPdisPCA",
            "Analyze Gauss（中心化差分隐私）与 DPdisPCA",
        ),
        ("在 n 个站点上", "在 n 个站点上"),
        ("误差为 0.5 倍", "误差为 0.5 倍"),
        ("the English text stays", "the English text stays"),
        ("因此\n在本次运行", "因此在本次运行"),
        # native review 4, F9: no space before a percent sign
        ("真实 ε 的 95.5 %", "真实 ε 的 95.5%"),
        ("95 % 百分位自助法区间", "95% 百分位自助法区间"),
        ("a 50 % b", "a 50% b"),
    ],
)
def test_tidy_text(text, tidied):
    assert tidy_text(text) == tidied


def test_spaces_are_kept_at_a_paragraphs_edge_and_beside_maths():
    assert not is_tight("", "中") and not is_tight("中", "") and is_tight("", "（")
    assert tidy_text(" 的", before="a") == " 的"  # maths or code before it
    assert tidy_text(" 的", before="变") == "的"


def _paragraph(*parts) -> nodes.paragraph:
    return nodes.paragraph("", "", *parts)


def test_tidy_works_across_inline_nodes_and_leaves_maths_and_code():
    para = _paragraph(
        nodes.strong("", "你将学到"),
        nodes.Text(" 如何审计；见 "),
        nodes.reference("", "定理 6", refuri="#t6"),
        nodes.Text(" 与 "),
        nodes.math("", "n"),
        nodes.Text(" 个站点，"),
        nodes.literal("", "privacy.csv"),
        nodes.Text(" 中"),
        nodes.inline("", "", nodes.Text("课程作业变体")),
        nodes.Text(" 的误差。"),
    )
    section = nodes.section("", para, nodes.literal_block("", "a 的 b"))
    assert tidy(section) > 0
    assert (
        para.astext()
        == "你将学到如何审计；见定理 6 与 n 个站点，privacy.csv 中课程作业变体的误差。"
    )
    assert section[1].astext() == "a 的 b"


def test_the_english_edition_is_left_as_it_is():
    para = _paragraph(nodes.strong("", "You will learn"), nodes.Text(" how to audit."))
    assert tidy(para) == 0 and para.astext() == "You will learn how to audit."


@pytest.mark.parametrize(
    ("text", "tidied"),
    [
        ("Holm 校正）; 校准到", "Holm 校正）；校准到"),
        ("不满足 1-LDP: 噪声尺度", "不满足 1-LDP：噪声尺度"),
        ("求和, 原文写法", "求和，原文写法"),
        ("n = 10, T = 5; ε: 1", "n = 10, T = 5; ε: 1"),
        ("12:30", "12:30"),
    ],
)
def test_half_width_punctuation_beside_chinese(text, tidied):
    from dpcompendium.book.cjk_spacing import full_width_punctuation

    assert full_width_punctuation(text) == tidied


def test_an_exercise_title_gets_full_width_parentheses():
    """sphinx-exercise builds "练习 5.2 (审计…)" from its parts: the number, " (", the title, ")"."""
    from dpcompendium.book.cjk_spacing import full_width_brackets

    title = nodes.paragraph(
        "",
        "",
        nodes.inline("", "练习 5.2 "),
        nodes.Text(" ("),
        nodes.Text("审计单比特机制"),
        nodes.Text(")"),
    )
    tidy(title)
    assert title.astext() == "练习 5.2（审计单比特机制）"
    assert full_width_brackets("f(x) (见上文 (a))") == "f(x) （见上文 (a)）"
    assert full_width_brackets("Lap(1/ε) and (n public)") == "Lap(1/ε) and (n public)"


def test_a_caption_numbers_space_goes_before_a_full_width_bracket():
    from dpcompendium.book.sphinxext import _NUMBER_BEFORE_FULL_WIDTH

    body = '<span class="caption-number">练习 5.1 </span>（常数预算方案）<span class="caption-number">图 4.3 </span>捕获'
    assert _NUMBER_BEFORE_FULL_WIDTH.sub(r"\1</span>", body) == (
        '<span class="caption-number">练习 5.1</span>（常数预算方案）<span class="caption-number">图 4.3 </span>捕获'
    )


def test_maths_written_in_a_text_node_and_shared_punctuation_are_left_as_written():
    """Native review 4: a set in maths kept its half-width commas ("\\(\\{5\\varepsilon，4\\varepsilon…\\}\\)" was
    printed), and "(a,…,a)" beside Chinese text kept its comma after the ellipsis."""
    maths = r"\(\{5\varepsilon, 4\varepsilon, \varepsilon\}\)"
    para = _paragraph(nodes.Text(f"方案 {maths} 的，以及 $a, b$ 和"))
    tidy(para)
    assert maths in para.astext() and "$a, b$" in para.astext()
    assert "方案 " in para.astext()  # a space beside maths stays
    para = _paragraph(nodes.Text("最坏一对 (a,…,a) 与 (a,…,a,b) 的上确界"))
    tidy(para)
    assert "(a,…,a)" in para.astext() and "(a,…,a,b)" in para.astext()


def test_a_table_cell_without_words_is_not_translated():
    """Native review 4: a cell holding only maths, numbers or names ("{5ε, 4ε, 3ε, 2ε, ε}") is shown as written in
    the Chinese edition, not run through a list template that makes its commas full-width."""
    from dpcompendium.core.messages import Md, language, to_myst
    from dpcompendium.core.tables import _cell

    text = "{5ε, 4ε, 3ε, 2ε, ε}"
    with language("zh_CN"):
        html_, _ = _cell(Md(text, to_myst(text)), "schedule", 3)
    assert "，" not in html_


def test_a_chinese_solution_title_reads_as_the_solution_of_its_exercise():
    """Native review 4, F5: "解答练习 3.2（…）" reads as "solve exercise 3.2"; it is "练习 3.2（…）的解答"."""
    from dpcompendium.book.sphinxext import solution_titles_zh

    body = (
        '<p class="admonition-title">解答<a class="reference internal" href="#ex-mwem-check">练习 3.2（检查一份学生实现的'
        " MWEM）</a></p><p>解答<a href='#x'>不变</a></p>"
    )
    assert solution_titles_zh(body) == (
        '<p class="admonition-title"><a class="reference internal" href="#ex-mwem-check">练习 3.2（检查一份学生实现的'
        " MWEM）</a>的解答</p><p>解答<a href='#x'>不变</a></p>"
    )


def test_a_chinese_rerun_page_gets_the_books_spacing_rule():
    """Issue 48: the Chinese page of a rerun (``dpcompendium run CHAPTER --lang zh_CN``) had no spacing rule (35 loose
    spaces on dp-mean's); its one-page build connects the book's handlers, and the page check
    (``_page_checks.chinese_spacing_problems``, run on every fuzzed Chinese rerun) finds what the rule removes."""
    import sys
    from pathlib import Path

    from bs4 import BeautifulSoup

    from dpcompendium.book import rerun_page, sphinxext

    class App:
        def __init__(self):
            self.connected = []

        def connect(self, event, handler, *a, **k):
            self.connected.append((event, handler))

        def __getattr__(self, name):
            return lambda *a, **k: None

    app = App()
    rerun_page.setup(app)
    assert ("doctree-resolved", sphinxext._on_doctree_resolved_cjk_spacing) in app.connected
    assert ("html-page-context", sphinxext._on_html_page_context_cjk_spacing) in app.connected

    sys.path.insert(0, str(Path(__file__).parent))
    try:
        from _page_checks import chinese_spacing_problems
    finally:
        sys.path.pop(0)
    loose = "<main><p>最终选择。 每次 <code>n</code> 个，95 %</p><p class='admonition-title'>解答练习 1</p></main>"
    assert chinese_spacing_problems(BeautifulSoup(loose, "html.parser")) == [
        "5 %",
        "。 每",
        "解答练习",
    ]
    tight = "<main><p>最终选择。每次 <code>n</code> 个，95%</p><footer>作者： The authors</footer></main>"
    assert chinese_spacing_problems(BeautifulSoup(tight, "html.parser")) == []
