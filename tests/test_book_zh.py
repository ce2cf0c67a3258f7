"""The Chinese edition (issue 38): its catalogues are complete and current, and each chapter page of the built
edition (``_build/html/zh_CN``) shows what the English page shows, in Chinese.

- catalogues: every ``locales/zh_CN/**/*.po`` has 0 untranslated, 0 fuzzy and 0 obsolete entries, and an extraction
  from the English sources (``sphinx-build -b gettext``) adds no message to them (``dpcompendium i18n update`` would
  change nothing);
- every chapter page: the values pasted by ``{glue:md}`` (``span.dpc-glue-KEY``, ``dpcompendium.book.glue_i18n``)
  are the same keys on both pages and hold the same numbers (the Chinese sentence may order them differently); as
  many figures and tables; at least 95 % of the visible paragraphs contain Chinese; every glossary term
  (``book/glossary.md``) the English page uses appears in one of its Chinese forms;
- every page of both editions has the language switch, a relative link to the same page in the other edition.

Marker ``zh``: the ``zh`` stage of ``make test`` (``tools/run_tests.py``) runs them after building the edition, and the
browser checks of ``tests/test_book_browser.py`` on its pages (``DPCOMPENDIUM_BROWSER_LANG=zh_CN``). The page checks
read the static HTML (no browser); they skip when the edition is not built.
"""

from __future__ import annotations

import functools
import html as html_lib
import os
import re
from collections import Counter
from html.parser import HTMLParser
from pathlib import Path

import pytest
from test_messages_zh import english_forms, glossary, words
from test_terms_zh import kept_names

from dpcompendium.book import i18n
from dpcompendium.book.pdf import toc_pages

pytestmark = [pytest.mark.zh, pytest.mark.book]  # book: not in the unit stage

ROOT = Path(os.environ.get("DPCOMPENDIUM_REPO") or Path(__file__).resolve().parents[1])
LANG = "zh_CN"
EN = ROOT / "_build" / "html"
ZH = i18n.output_dir(ROOT, LANG)
PAGES = toc_pages()
CHAPTER_PAGES = [p for p in PAGES if p.startswith("notebooks/")]
CJK = re.compile(r"[\u4e00-\u9fff]")
NUMBER = re.compile(r"(?<![A-Za-z0-9_.])[-−]?\d+(?:[.,]\d+)*(?:e[+-]?\d+)?")
#: The share of a Chinese chapter page's visible paragraphs that must contain Chinese.
MIN_CHINESE = 0.95


# ------------------------------------------------------------------------------------------------ catalogues
def test_catalogues_are_complete():
    """No catalogue has an entry left to translate, marked fuzzy, or obsolete (run ``dpcompendium i18n status``)."""
    pos = i18n.catalogues(ROOT, LANG)
    assert pos, f"no catalogue under {ROOT / i18n.LOCALES / LANG}"
    bad = [
        f"{st.path.relative_to(ROOT)}: {st.untranslated} untranslated, {st.fuzzy} fuzzy, "
        f"{st.obsolete} obsolete of {st.messages}"
        for st in map(i18n.catalogue_status, pos)
        if not st.complete
    ]
    assert not bad, (
        "catalogues to finish (translate, then dpcompendium i18n status):\n" + "\n".join(bad)
    )


def test_catalogues_are_current(tmp_path):
    """An extraction from the English pages adds no message and removes none: every English edit has been merged
    into the catalogues (``dpcompendium i18n update``) and translated."""
    from babel.messages.pofile import read_po

    pots = i18n.extract(ROOT, tmp_path / "pot")
    base = ROOT / i18n.LOCALES / LANG / "LC_MESSAGES"
    problems = []
    expected = set()
    for pot in i18n._translated_pot(pots):
        rel = pot.relative_to(pots).with_suffix(".po")
        expected.add(rel)
        with pot.open("rb") as f:
            ids = {(m.id, m.context) for m in read_po(f) if m.id}
        # the figure captions of the page's cell metadata (i18n.update adds them: gettext reads no outputs)
        ids |= {(c, None) for c in i18n.figure_captions(ROOT, rel.with_suffix("").as_posix())}
        po = base / rel
        if not po.is_file():
            problems.append(f"{rel}: no catalogue for this page")
            continue
        with po.open("rb") as f:
            have = {(m.id, m.context) for m in read_po(f) if m.id}
        if ids - have:
            problems.append(
                f"{rel}: {len(ids - have)} new message(s), e.g. {sorted(ids - have)[0][0][:80]!r}"
            )
        if have - ids:
            problems.append(f"{rel}: {len(have - ids)} message(s) no longer in the page")
    # generated.po is not a page's: the chapters' generated sentences (tests/test_generated_i18n.py)
    # and parameters.po the "Rerun this chapter" boxes' help texts (tests/test_links_zh.py)
    extra = (
        {p.relative_to(base) for p in base.rglob("*.po")}
        - expected
        - {Path("generated.po"), Path("parameters.po")}
    )
    problems += [f"{rel}: no such page" for rel in sorted(extra)]
    assert not problems, "run dpcompendium i18n update, then translate:\n" + "\n".join(problems)


def test_update_marks_a_changed_message_fuzzy_and_a_removed_one_obsolete(tmp_path):
    """``i18n.update`` merges like ``msgmerge``: a new page gets a catalogue, a changed message becomes fuzzy with the
    old translation kept, a removed one obsolete."""
    from babel.messages.catalog import Catalog
    from babel.messages.pofile import read_po, write_po

    root = tmp_path / "repo"
    po = root / i18n.LOCALES / LANG / "LC_MESSAGES" / "book" / "page.po"
    po.parent.mkdir(parents=True)
    old = Catalog(locale=LANG)
    old.add("The mean of the data.", "数据的均值。")
    old.add("A sentence that goes away.", "一个将被删除的句子。")
    with po.open("wb") as f:
        write_po(f, old)
    pots = tmp_path / "pot" / "book"
    pots.mkdir(parents=True)
    for name, ids in {"page": ["The mean of the data!"], "new": ["Brand new."]}.items():
        cat = Catalog()
        for i in ids:
            cat.add(i)
        with (pots / f"{name}.pot").open("wb") as f:
            write_po(f, cat)
    changed = i18n.update(root, LANG, pot_dir=tmp_path / "pot")
    assert {p.name for p, _ in changed} == {"page.po", "new.po"}
    with po.open("rb") as f:
        cat = read_po(f)
    msg = cat.get("The mean of the data!")
    assert msg is not None and msg.fuzzy and msg.string == "数据的均值。"
    assert "A sentence that goes away." in cat.obsolete
    st = i18n.catalogue_status(po)
    assert (st.fuzzy, st.obsolete, st.untranslated) == (1, 1, 0)
    assert i18n.catalogue_status(po.with_name("new.po")).untranslated == 1


# ------------------------------------------------------------------------------------------------ the pages
#: The Rerun box's table of parameters (dpcompendium.book.rerun_box): names, values and the help comments of the
#: notebook's parameters cell, as ``dpcompendium list`` prints them (the contract's text, English in every edition,
#: like code); the box's own words are in the edition's language.
RERUN_TABLE = "dpc-rerun-parameters"


class _Page(HTMLParser):
    """The article of a built page: its glued values, figures, tables, visible paragraphs and text."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.depth = 0  # inside <article>
        self.stack: list[tuple[str, set[str]]] = []
        self.glued: dict[str, list[str]] = {}
        self.figures = self.tables = 0
        self.paragraphs: list[str] = []
        #: the same paragraphs with each code span's text as "x" (its characters are not running text)
        self.running: list[str] = []
        self.text: list[str] = []
        #: the page's own text, as translated from its catalogue: not code, not outputs, not glued values
        self.prose: list[str] = []
        self.switch: list[str] = []
        #: the table captions and headers (``caption``, ``th``) of the page's tables, in page order: (tag, text)
        self.headers: list[tuple[str, str]] = []
        self._header: list[str] | None = None
        #: the text of the cells (``td``) of the page's tables, in page order, code spans left out
        self.cells: list[str] = []
        self._cell: list[str] | None = None
        self._glue: list[tuple[str, int, list[str]]] = []
        self._para: list[list[str]] = []
        self._running: list[list[str]] = []
        self._para_depth: list[int] = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        cls = set((a.get("class") or "").split())
        if tag == "a" and "dpc-language" in cls:
            self.switch.append(a.get("href") or "")
        if tag == "article":
            self.depth += 1
        if not self.depth or tag in ("br", "img", "hr", "meta", "link", "input", "col"):
            return
        self.stack.append((tag, cls))
        hidden = any(
            "cell_output" in c or "cell_input" in c or RERUN_TABLE in c for _, c in self.stack
        )
        if tag == "figure":
            self.figures += 1
        if tag == "table" and "dpc-execution-report" not in cls:
            self.tables += 1
        if tag == "span" and "dpc-glue" in cls:
            key = next(c[len("dpc-glue-") :] for c in cls if c.startswith("dpc-glue-"))
            self._glue.append((key, len(self.stack), []))
        if tag in ("caption", "th") and not any(RERUN_TABLE in c for _, c in self.stack):
            self._header = []
        if tag == "td" and not any(
            RERUN_TABLE in c or "dpc-execution-report" in c for _, c in self.stack
        ):
            self._cell = []
        if (
            tag in ("p", "li") and not hidden
        ):  # a paragraph or a list item (its own text, not a nested one's)
            self._para.append([])
            self._running.append([])
            self._para_depth.append(len(self.stack))

    def handle_endtag(self, tag):
        if tag == "article":
            self.depth -= 1
        if not self.depth or not self.stack:
            return
        while self.stack:
            open_tag, _ = self.stack.pop()
            if self._glue and len(self.stack) + 1 == self._glue[-1][1]:
                key, _, parts = self._glue.pop()
                self.glued.setdefault(key, []).append("".join(parts))
            if open_tag == "td" and self._cell is not None:
                self.cells.append(" ".join("".join(self._cell).split()))
                self._cell = None
            if open_tag in ("caption", "th") and self._header is not None:
                self.headers.append((open_tag, " ".join("".join(self._header).split())))
                self._header = None
            if self._para_depth and self._para_depth[-1] == len(self.stack) + 1:
                self._para_depth.pop()
                self.paragraphs.append(" ".join("".join(self._para.pop()).split()))
                self.running.append(" ".join("".join(self._running.pop()).split()))
            if open_tag == tag:
                break

    def handle_data(self, data):
        if not self.depth:
            return
        if not any(
            t in ("pre", "script", "style") or "cell_input" in c or RERUN_TABLE in c
            for t, c in self.stack
        ):  # the text a reader reads: not code, not the parameters' own comments
            self.text.append(data)
            if not self._glue and not any("cell_output" in c for _, c in self.stack):
                self.prose.append(data)
        for _, _, parts in self._glue:
            parts.append(data)
        if self._header is not None:
            self._header.append(data)
        if self._cell is not None and not any(
            t in ("code", "pre") or "bibtex-citation" in c for t, c in self.stack
        ):  # a citation's label is the work's own title
            self._cell.append(data)
        if self._para:
            self._para[-1].append(data)
            in_code = any(t == "code" for t, _ in self.stack)
            self._running[-1].append("x" if in_code and data.strip() else data)


#: English words the book uses in their general sense as well as in the glossary row's narrower one, so that their
#: use does not call for that row's Chinese: "claim" (the row is a patent's 权利要求, the legally protected statements;
#: the book's claims are privacy claims, 隐私声明, and the sources' empirical claims, 主张), "utility" (the row is a
#: release's usefulness, 可用性; the primer's and dp-mean's "utility u(x, r)" is the exponential mechanism's score,
#: 打分函数, another row).
GENERAL_SENSE = {"claim", "utility"}


def glossary_chapters() -> dict[str, set[str]]:
    """English column of each glossary row → the chapters (page names) of its last column."""
    from test_messages_zh import GLOSSARY

    rows: dict[str, set[str]] = {}
    for line in GLOSSARY.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 4 and cells[0] not in ("Chinese", "---"):
            rows[cells[1]] = {c.strip() for c in cells[3].split(",")}
    return rows


def read_page(base: Path, page: str) -> _Page:
    """The parsed page (parsed once per file version and process: several tests read each page; do not modify)."""
    path = base / f"{page}.html"
    if not path.is_file():
        pytest.skip(f"not built: {path} (dpcompendium book builds both editions)")
    return _parse(str(path), path.stat().st_mtime_ns)


@functools.cache
def _parse(path: str, mtime_ns: int) -> _Page:
    parser = _Page()
    parser.feed(Path(path).read_text(encoding="utf-8"))
    return parser


def numbers(text: str) -> Counter:
    text = html_lib.unescape(text).replace("−", "-")
    # thousands grouped with a narrow or thin space (the zh edition's 「78 000」; native review 8, U2) are one
    # number, as "78,000" is
    text = re.sub(r"(?<=\d)[\u202f\u2009](?=\d{3}(?!\d))", ",", text)
    # "N times lower" is 「仅为…的 1/N」 in Chinese: the 1 of a reciprocal is notation, not a number of the run
    text = re.sub(r"(?<![\d.])1/(?=[\d\\${])", "/", text)
    # "2-D" is 「二维」 in Chinese (the term base, native review B3): a dimension is notation, not a number of the run
    text = re.sub(r"(?<![\w.])\d-D\b", "D", text)
    text = re.sub(r"\d\s*维", "维", text)
    # "experiment 2" is 「实验二」 (the chapters' section names): an experiment's number is a name, not a number of the run
    text = re.sub(r"\b[Ee]xperiment \d\b", "experiment", text)
    return Counter(m.group().replace(",", "") for m in NUMBER.finditer(text))


def test_an_experiment_s_number_is_not_a_number_of_the_run():
    assert numbers("experiment 2's schedule at ε = 1") == numbers("实验二的预算方案，ε = 1")
    assert numbers("experiment 2's schedule at ε = 1") != numbers("实验二的预算方案，ε = 2")


def test_a_dimension_is_not_a_number_of_the_run():
    """ "1-D" is 一维 on a Chinese page (reader review 4, m4): neither counts as the number 1, and the run's own numbers
    beside them still count."""
    assert numbers("1-D, ε = 0.1") == numbers("一维，ε = 0.1") == Counter({"0.1": 1})
    assert numbers("$T$ = 30 in 1-D, 200 in 2-D") == numbers("$T$ 在一维中为 30，在二维中为 200")
    assert numbers("Adult 2-D (256 x 256)") == numbers("Adult 二维（256 x 256）")
    assert numbers("Adult 2-D (256 × 256)") == numbers("Adult 二维（256 × 256）")
    assert numbers("在 2 维中为 30") == numbers("30 in 2-D")
    assert (
        numbers("over 78,000 draws") == numbers("在 78\u202f000 次抽样中") == Counter({"78000": 1})
    )
    assert numbers("2,464 and 110,600") == numbers("2\u2009464 和 110\u202f600")
    assert numbers("1-D, ε = 0.1") != numbers("一维，ε = 1")


@pytest.mark.parametrize("page", CHAPTER_PAGES)
def test_chinese_page_writes_a_dimension_in_chinese(page):
    """Reader review 4, m4: "1-D"/"2-D" stayed English in mwem's tables (56 cells) and the audit's sentence (4); the
    term base writes 一维 / 二维 in the text a reader reads (code aside)."""
    zh = read_page(ZH, page)
    # each text node apart: a table's cells follow one another without a space ("1-D" then "AIM")
    left = re.findall(r"(?<![\w.-])\d-D(?![\w-])", " ".join(zh.text))
    assert not left, f"{page}: {len(left)} dimensions written in English"


@pytest.mark.parametrize("page", CHAPTER_PAGES)
def test_chapter_page_shows_the_same_run(page):
    """The same glued values (keys, and the numbers each holds), figures and tables on both pages."""
    en, zh = read_page(EN, page), read_page(ZH, page)
    assert en.glued, f"{page}: no glued value found on the English page"
    assert set(zh.glued) == set(en.glued), (
        f"{page}: glued keys only in English {sorted(set(en.glued) - set(zh.glued))[:5]}, "
        f"only in Chinese {sorted(set(zh.glued) - set(en.glued))[:5]}"
    )
    differ = [
        f"{key}: {en.glued[key][0]!r} / {zh.glued[key][0]!r}"
        for key in sorted(en.glued)
        if sum(map(numbers, en.glued[key]), Counter())
        != sum(map(numbers, zh.glued[key]), Counter())
    ]
    assert not differ, f"{page}: glued values with other numbers in Chinese: " + "; ".join(
        differ[:5]
    )
    assert (zh.figures, zh.tables) == (en.figures, en.tables), (
        f"{page}: {zh.figures} figures and {zh.tables} tables in Chinese, {en.figures} and {en.tables} in English"
    )


@pytest.mark.parametrize("page", CHAPTER_PAGES)
def test_chinese_page_says_this_run_as_often_as_the_english(page):
    """Reader review 4, m4: 本次运行 ("this run") where the English page has no "this run" is a hedge the English
    lacks (dp-mean said it 17 times, its English page 11). The counts over the text a reader reads (code aside)
    agree within one."""
    en, zh = read_page(EN, page), read_page(ZH, page)
    n_en = len(re.findall(r"\bthis run\b", " ".join("".join(en.text).split()), re.I))
    n_zh = "".join(zh.text).count("本次运行")
    assert abs(n_zh - n_en) <= 1, (
        f"{page}: 本次运行 {n_zh} times in Chinese, 'this run' {n_en} in English"
    )


@pytest.mark.parametrize("page", CHAPTER_PAGES)
def test_chapter_page_is_in_chinese(page):
    """At least 95 % of the visible paragraphs and list items (outside code and its outputs) that hold words contain
    Chinese; a paragraph of maths only does not count."""
    zh = read_page(ZH, page)
    maths = re.compile(r"\\\(.*?\\\)|\\\[.*?\\\]|\$.*?\$")
    paras = [
        p for p in zh.paragraphs if re.search(r"[A-Za-z]{2}|[\u4e00-\u9fff]", maths.sub("", p))
    ]
    # a cell or item of names only (a dataset, a method: names the term base keeps in every language) is not English
    english = [p for p in paras if not CJK.search(p) and english_words(p)]
    share = 1 - len(english) / max(1, len(paras))
    assert share >= MIN_CHINESE, (
        f"{page}: {len(english)} of {len(paras)} paragraphs without Chinese ({share:.1%} Chinese), e.g. "
        + " | ".join(p[:80] for p in english[:3])
    )


_WORD = re.compile(r"[A-Za-z][A-Za-z_'’-]*[A-Za-z]")
_TEX = re.compile(r"\\\(.*?\\\)|\\\[.*?\\\]")


def english_words(text: str) -> list[str]:
    """The English words of a table's caption or header: words outside maths that are not a name or acronym the
    term base keeps (its ``kept`` column: methods, datasets, tools, DP, MSE)."""
    kept = kept_names()
    return [w for w in _WORD.findall(_TEX.sub(" ", text)) if w not in kept]


#: a space a Chinese text must not have (native review 3, W1, W3): between two Chinese characters, beside full-width
#: punctuation, or a half-width bracket, comma or semicolon beside Chinese
_LOOSE = re.compile(
    r"[\u4e00-\u9fff] +[\u4e00-\u9fff]|[，。、；：！？（）] +\S|\S +[，。、；：！？（）]"
    r"|\([^()]*[\u4e00-\u9fff][^()]*\)|[\u4e00-\u9fff，。；：）][,;:] |[,;:] [\u4e00-\u9fff]"
)


def test_the_spacing_check_can_fail():
    assert _LOOSE.search("**你将学到** 如何".replace("**", ""))
    assert _LOOSE.search("定理 7 （高级组合")
    assert _LOOSE.search("练习 5.2 (审计一份学生实现的单比特机制)")
    assert _LOOSE.search("Holm 校正）; 校准到")
    assert not _LOOSE.search("在 n 个站点上，见定理 6 与 \\(x\\)（一维）")


@pytest.mark.parametrize("page", CHAPTER_PAGES + [p for p in PAGES if p == "book/primer"])
def test_chinese_running_text_has_no_space_between_chinese_characters(page):
    """Native review 3 (W1, W3): no space between Chinese characters or beside full-width punctuation in a Chinese
    page's paragraphs, list items and exercise titles, and no half-width bracket around Chinese text
    (``dpcompendium.book.cjk_spacing``)."""
    zh = read_page(ZH, page)
    maths = re.compile(r"\\\(.*?\\\)|\\\[.*?\\\]")
    loose = sorted({m.group() for p in zh.running for m in _LOOSE.finditer(maths.sub("x", p))})
    assert not loose, f"{page}: {len(loose)} loose spaces or half-width brackets: {loose[:20]}"


#: a quotation (“if …”, a source's or a file's own words) and an English gloss after a Chinese term (钳制（clamp）)
_QUOTED = re.compile(r"“[^”]*”|(?<=[\u4e00-\u9fff])（[A-Za-z][^（）]*）")


#: an identifier written in a sentence (``ldp.datasets.scale_to_unit``): a name, not a word to translate
_IDENT = re.compile(r"[A-Za-z]\w*(?:[._]\w+)+")


def cell_prose(text: str) -> str:
    """A table cell's words that must be Chinese: without quotations, glosses (:data:`_QUOTED`) and identifiers."""
    return _IDENT.sub(" ", _QUOTED.sub(" ", text))


def test_the_cell_check_can_fail():
    assert english_words(cell_prose("decision levels")) == ["decision", "levels"]
    assert english_words(cell_prose("SGD 源代码，level from x")) == ["level", "from"]
    assert not english_words(cell_prose("钳制（clamping down）的方法；见表中“level from x”的各行"))


def test_the_header_check_can_fail():
    assert english_words("Mean over the datasets of the accuracy difference, by \\(\\varepsilon\\)")
    assert english_words("CAPE as published") == ["as", "published"]
    assert not english_words("\\(\\varepsilon\\) MSE (DAWA, Adult)")
    assert not english_words("各数据集上准确率差值的平均（按 \\(\\varepsilon\\)）")


@pytest.mark.parametrize("page", CHAPTER_PAGES + [p for p in PAGES if p == "book/primer"])
def test_chinese_table_captions_and_headers_are_not_the_english_ones(page):
    """Native review 2 (X1, R2): no caption or header of a Chinese page's tables is the English page's own (the
    same caption or header in page order) while it holds an English word, names and acronyms the term base keeps
    aside."""
    en, zh = read_page(EN, page), read_page(ZH, page)
    assert len(en.headers) == len(zh.headers), (
        f"{page}: {len(en.headers)} captions and headers in English, {len(zh.headers)} in Chinese"
    )
    same = [
        f"{tag}: {text!r} {english_words(text)}"
        for (tag, text), (_, other) in zip(en.headers, zh.headers, strict=True)
        if unnumbered(text) == unnumbered(other) and english_words(unnumbered(text))
    ]
    assert not same, f"{page}: {len(same)} captions/headers as in English:\n" + "\n".join(same)


#: a caption's number as each edition writes it ("Table 1.9 ", "表 1.9 ")
_CAPTION_NUMBER = re.compile(r"^(?:Table|表)\s*[\d.]+\s*")


def unnumbered(text: str) -> str:
    """A caption without its number: the editions number a table each in their words, so an English caption left
    untranslated differs from the English page's by "Table"/"表" alone (reader review 4, m4: Tables 1.9, 3.11)."""
    return _CAPTION_NUMBER.sub("", text)


def test_the_caption_check_sees_past_the_number():
    assert unnumbered("表 1.9 The staircase mean") == unnumbered("Table 1.9 The staircase mean")
    assert english_words(unnumbered("表 1.9 The staircase mean")) == ["The", "staircase", "mean"]
    assert unnumbered("表 1.9 阶梯机制均值") != unnumbered("Table 1.9 The staircase mean")


@pytest.mark.parametrize("page", CHAPTER_PAGES + [p for p in PAGES if p == "book/primer"])
def test_chinese_table_cells_hold_no_english_words(page):
    """Native review 3 (X1): no cell of a Chinese page's tables holds an English word but the names, acronyms and
    maths functions the term base keeps (code spans, the Rerun box's parameters and the execution report aside)."""
    zh = read_page(ZH, page)
    english = sorted(
        {f"{text!r} {english_words(text)}" for text in zh.cells if english_words(cell_prose(text))}
    )
    assert not english, f"{page}: {len(english)} table cells with English words:\n" + "\n".join(
        english[:40]
    )


@pytest.mark.parametrize("page", CHAPTER_PAGES + [p for p in PAGES if p == "book/primer"])
def test_glossary_terms_in_their_chinese_form(page):
    """Every glossary term the English page's own text uses appears on the Chinese page's own text in one of the
    glossary's Chinese forms (the glossary, ``book/glossary.md``, is the term base of the translation). A row applies
    to the pages of the chapters its last column names (``all``: every page), as the glossary states where each term
    is the sources' (its "claim" is the patent's 权利要求, its "pure" the primer's 纯差分隐私). Generated text (glued
    values, outputs) is left out: its terms are those of the message templates (tests/test_messages_zh.py)."""
    en, zh = read_page(EN, page), read_page(ZH, page)
    en_words, zh_text = words("".join(en.prose)), "".join(zh.prose)
    where = page.rsplit("/", 1)[-1]
    missing = []
    for english, chinese in glossary().items():
        scope = glossary_chapters().get(english, {"all"})
        if "all" not in scope and where not in scope:
            continue
        used = [
            f for f in english_forms(english) if f" {f} " in en_words and f not in GENERAL_SENSE
        ]
        if used and not any(c in zh_text for c in chinese):
            missing.append(f"{used[0]!r} → {' / '.join(chinese)}")
    assert not missing, f"{page}: glossary terms without their Chinese form: " + "; ".join(
        missing[:10]
    )


@pytest.mark.parametrize("page", PAGES)
def test_language_switch_links_the_same_page(page):
    """Each page of each edition links the same page of the other edition, by a relative URL that exists."""
    for base, other in ((EN, ZH), (ZH, EN)):
        parsed = read_page(base, page)
        src = base / f"{page}.html"
        assert parsed.switch, f"{src}: no language switch"
        href = parsed.switch[0]
        assert not re.match(r"^[a-z]+:|^/", href), (
            f"{src}: the switch's link is not relative: {href}"
        )
        target = (src.parent / href).resolve()
        assert target == (other / f"{page}.html").resolve(), f"{src}: the switch links {target}"
        assert target.is_file(), f"{src}: the switch links a page not built: {target}"


@pytest.mark.parametrize("page", [p for p in PAGES if p.startswith(i18n.UNTRANSLATED[0])])
def test_library_reference_page_points_to_the_english_page(page):
    """The Library reference stays English (its text is the docstrings): each of its pages in the Chinese edition is
    its title, a note in Chinese saying so, and a relative link to the same page of the English book, which exists."""
    src = ZH / f"{page}.html"
    if not src.is_file():
        pytest.skip(f"the Chinese edition is not built: no {src}")
    text = src.read_text(encoding="utf-8")
    article = text[text.find("<article") : text.find("</article>")]
    assert i18n.REFERENCE_NOTE[LANG] in html_lib.unescape(re.sub(r"<[^>]+>", "", article)), (
        f"{src}: no note that the reference stays English"
    )
    links = re.findall(
        r'<a [^>]*href="([^"]+)"[^>]*>\s*' + re.escape(i18n.REFERENCE_LINK[LANG]), article
    )
    assert len(links) == 1, f"{src}: {len(links)} links to the English page"
    assert not re.match(r"^[a-z]+:|^/", links[0]), f"{src}: the link is not relative: {links[0]}"
    target = (src.parent / links[0]).resolve()
    assert target == (EN / f"{page}.html").resolve() and target.is_file(), f"{src}: links {target}"


def test_the_execution_report_is_in_chinese():
    """Issue 48 (b): the Chinese execution page's report named its executor "book build (nbclient)" in English; its
    generated text (executor, this build's column, the details' keys, the summary) is the edition's own."""
    path = ZH / "book" / "execution.html"
    if not path.is_file():
        pytest.skip(f"not built: {path} (dpcompendium book builds both editions)")
    text = html_lib.unescape(path.read_text(encoding="utf-8"))
    start = text.index("dpc-execution-report")
    report = text[
        start : text.index("</dl>", start)
    ]  # the table and the parameters of each execution
    assert CJK.search(report)
    for english in ("book build", "from the store", "executed now", "(key ", "n/a"):
        assert english not in report, english


_IMG_ALT = re.compile(r"<img\b[^>]*\balt=\"([^\"]*)\"", re.S)


@pytest.mark.parametrize("page", PAGES)
def test_figure_alt_texts_are_in_chinese(page):
    """Native review 9, R3: every figure's alt text (a cell's ``mystnb.image.alt``, which gettext does not extract)
    was English on the Chinese pages. Each image of a Chinese page's article has an alt text with Chinese, or one of
    names the term base keeps only (``dpcompendium.book.sphinxext.alt_in_language``)."""
    path = ZH / f"{page}.html"
    if not path.is_file():
        pytest.skip(f"not built: {path} (dpcompendium book builds both editions)")
    text = path.read_text(encoding="utf-8")
    start = text.find("<article")
    article = text[start : text.rfind("</article>")] if start >= 0 else ""
    english = [
        alt
        for alt in map(html_lib.unescape, _IMG_ALT.findall(article))
        if not CJK.search(alt) and english_words(alt)
    ]
    assert not english, (
        f"{page}: {len(english)} figure alt texts in English, e.g. {english[0][:80]!r}"
    )


# ------------------------------------------------------------------------- native review 7, U1 and U3
def _soup(path: Path):
    from bs4 import BeautifulSoup

    if not path.is_file():
        pytest.skip(f"the Chinese edition is not built: no {path}")
    return BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")


@pytest.mark.parametrize("page", ["notebooks/hiera", "book/primer", "book/api/core"])
def test_the_sidebar_of_a_chinese_page_is_chinese(page):
    """Native review 7, U1: the Chinese sidebar named the book's parts ("Foundations", "Library reference") and the
    reference's pages ("dpcompendium.core : privacy claims, …") in English. Every part caption is Chinese, and each
    reference page is listed under its Chinese title (``i18n.REFERENCE_TITLES``)."""
    soup = _soup(ZH / f"{page}.html")
    nav = soup.select_one("nav.bd-docs-nav") or soup.select_one(".bd-sidebar-primary")
    assert nav is not None, f"{page}: no sidebar"
    captions = [c.get_text(strip=True) for c in nav.select(".caption-text")]
    assert len(captions) == 4, captions
    english = [c for c in captions if not CJK.search(c)]
    assert not english, f"{page}: part captions in English: {english}"
    titles = i18n.REFERENCE_TITLES[LANG]
    listed = {}
    for a in nav.select("a.reference.internal"):
        href = a.get("href", "").split("#")[0]
        target = (ZH / page).parent / href if href else ZH / f"{page}.html"  # "#": the page itself
        rel = os.path.relpath(os.path.normpath(target), ZH).removesuffix(".html")
        if rel in titles:
            listed[rel] = re.sub(r"\s+", " ", a.get_text()).strip()
    assert sorted(listed) == sorted(titles), (
        f"{page}: reference pages in the sidebar {sorted(listed)}"
    )
    wrong = {p: t for p, t in listed.items() if t != titles[p].replace("`", "")}
    assert not wrong, f"{page}: reference pages listed with another title: {wrong}"


@pytest.mark.parametrize("page", [p for p in PAGES if p.startswith(i18n.UNTRANSLATED[0])])
def test_a_library_reference_page_has_its_chinese_heading(page):
    """Native review 7, U1: the heading of a reference page in the Chinese edition is its Chinese title (its text, the
    docstrings, stays English: the English page is linked)."""
    soup = _soup(ZH / f"{page}.html")
    h1 = soup.select_one("article h1")
    assert h1 is not None, f"{page}: no heading"
    heading = re.sub(r"\s+", " ", h1.get_text()).replace("#", "").strip()
    assert heading == i18n.REFERENCE_TITLES[LANG][page].replace("`", ""), heading


#: A space beside full-width punctuation (before a closing or middle mark, after an opening or middle one) or
#: between two Chinese characters; after a closing bracket ``/`` and ``=`` keep theirs. A line break is where
#: ``get_text`` joins two blocks (paragraphs of a list item), not a space of the text. ("和 1，计数 0 / 全部", "桶数（x） = 64").
LOOSE_FULL_WIDTH = re.compile(
    r"\S[ \t\u00a0]+[，。、；：！？）》」』】”]|[（《「『【“，。、；：！？][ \t\u00a0]+\S"
    r"|[\u4e00-\u9fff] +[\u4e00-\u9fff]"
)


def loose_full_width(soup) -> list[str]:
    """The loose spaces (:data:`LOOSE_FULL_WIDTH`) in what a reader reads of a page: its running text and its
    outputs' tables, captions, dropdown titles and headings, with code and maths as a Latin word."""
    main = soup.find("main") or soup.body
    # the theme's footer ("作者： dpcompendium 作者组", Sphinx's own catalogue) is not the book's text
    for node in main.select("pre, script, style, .highlight, div.math, footer, .component-author"):
        node.decompose()
    for node in main.select("code, span.math, mjx-container"):
        node.replace_with("x")
    maths = re.compile(r"\\\(.*?\\\)|\\\[.*?\\\]", re.S)
    found = set()
    blocks = "p, li, td, th, caption, figcaption, summary, h1, h2, h3, h4, dt, .admonition-title"
    for el in main.select(blocks):
        text = maths.sub("x", el.get_text())
        found |= {
            text[max(0, m.start() - 12) : m.end() + 12] for m in LOOSE_FULL_WIDTH.finditer(text)
        }
    return sorted(found)


def test_the_loose_space_check_can_fail():
    from bs4 import BeautifulSoup

    html = (
        "<main><p>HierA 与 PM 比较 ，在（ 30 次重复 的均值）之内） 。</p><table><tr><td>（ 1.3% ）</td>"
        "<td>和 1，计数 0（n 公开） / 全部</td><th>桶数（x） = 64</th></tr></table>"
        "<p>见 <code>a ，b</code> 与 <span class='math'>\\(x ,\\)</span>。</p><p>甲， 乙</p></main>"
    )
    found = loose_full_width(BeautifulSoup(html, "html.parser"))
    assert any("比较 ，" in f for f in found) and any("（ 30" in f for f in found)
    assert any("之内） 。" in f for f in found) and any("1.3% ）" in f for f in found)
    assert any("甲， 乙" in f for f in found)
    assert not any("公开" in f or "= 64" in f or "a ，b" in f for f in found), found


@pytest.mark.parametrize("page", [p for p in PAGES if not p.startswith(i18n.UNTRANSLATED[0])])
def test_no_space_beside_full_width_punctuation_anywhere_on_a_chinese_page(page):
    """Native review 7, U3: no space before ，。、；：！？）, after （, or between two Chinese characters, anywhere a reader
    reads on a Chinese page — the running text (``dpcompendium.book.cjk_spacing`` tidies it) and also the outputs'
    tables, their captions and the dropdowns' titles, which the code writes. (The review's "（ 30 次重复 的均值）"
    came from a text extractor that puts a space at every element's edge: the HTML has none.)"""
    found = loose_full_width(_soup(ZH / f"{page}.html"))
    assert not found, f"{page}: {len(found)} loose spaces: {found[:20]}"


def test_the_primers_tables_join_maths_with_chinese_punctuation():
    """Native review 7, U4: the primer's notation and sensitivity tables joined two formulas with a half-width comma
    and bracketed one with half-width parentheses in Chinese cells ("ε > 0 , δ ∈ [0, 1)", "2 ( ℓ1 ), √2 ( ℓ2 )"): the
    Chinese cells write "ε > 0、δ ∈ [0, 1)" and "2（ℓ1）、√2（ℓ2）"."""
    soup = _soup(ZH / "book" / "primer.html")
    maths = re.compile(r"\\\(.*?\\\)", re.S)
    cells = [maths.sub("x", td.get_text()) for td in soup.select("article table td")]
    assert sum("、" in c for c in cells) >= 3, "the notation table is not the one checked"
    half = [c for c in cells if re.search(r"x\s*,\s*x|x\s*\(\s*x\s*\)", c)]
    assert not half, f"half-width punctuation between formulas: {half}"
