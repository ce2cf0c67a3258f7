"""The "Rerun this chapter" box (issue 49): the parameters cell replaced at build time by a box with the parameters
(name, value, help, range) and the command line, in each edition; a rerun's box shows that run's values and command
(issue 45: the rerun page reads the run's plan)."""

from __future__ import annotations

import re
import shlex
from pathlib import Path
from types import SimpleNamespace

import nbformat
import pytest
from _chapter_ids import DP_MEAN, HISTOGRAMS
from docutils import nodes

from dpcompendium.book import cli
from dpcompendium.book.contract import CHAPTER_IDS, get_chapter
from dpcompendium.book.preflight import preflight
from dpcompendium.book.rerun_box import (
    COMMAND_KEY,
    RESERVED,
    constraint_text,
    example_values,
    parameters_source,
    replace_parameters_cell,
    requirement_text,
)
from dpcompendium.book.rerun_page import with_run_parameters


def _cell(source: str, metadata: dict | None = None) -> nodes.container:
    """A code cell of MyST-NB's doctree: the cell, its input with the source, as a chapter page has it."""
    meta = {"tags": ["parameters"], **(metadata or {})}
    cell = nodes.container(
        nb_element="cell_code", cell_metadata=meta, classes=["cell", "tag_parameters"]
    )
    cell_input = nodes.container(nb_element="cell_code_source", classes=["cell_input"])
    cell_input += nodes.literal_block(source, source)
    cell += cell_input
    return cell


def _app(docname: str, language: str | None = None) -> SimpleNamespace:
    return SimpleNamespace(
        config=SimpleNamespace(language=language), env=SimpleNamespace(docname=docname)
    )


def _box_of(chapter_id: str, language: str | None = None, source: str | None = None, metadata=None):
    chapter = get_chapter(chapter_id)
    nb = nbformat.read(chapter.notebook, as_version=4)
    if source is None:
        source = next(c.source for c in nb.cells if "parameters" in c.metadata.get("tags", []))
    doc = nodes.section()
    doc += nodes.paragraph(text="before")
    doc += _cell(source, metadata)
    doc += nodes.paragraph(text="after")
    replace_parameters_cell(_app(f"notebooks/{chapter_id}", language), doc)
    return chapter, doc


def _rows(box: nodes.admonition) -> list[list[str]]:
    return [[e.astext() for e in row.children] for row in box.findall(nodes.row)]


@pytest.mark.parametrize("chapter_id", CHAPTER_IDS)
def test_each_chapter_page_gets_the_box_instead_of_its_parameters_cell(chapter_id):
    chapter, doc = _box_of(chapter_id)
    assert not [c for c in doc.findall(nodes.container) if c.get("nb_element") == "cell_code"]
    (box,) = doc.findall(nodes.admonition)
    assert doc.children[1] is box, "the box stands where the cell stood"
    assert {"dpc-rerun", "dropdown"} <= set(box["classes"])
    assert box.next_node(nodes.title).astext() == "Rerun this chapter"
    header, *rows = _rows(box)
    assert header == ["parameter", "value", "what it sets", "allowed values"]
    shown = [p for p in chapter.parameters.values() if p.name not in RESERVED]
    assert [r[0] for r in rows] == [p.name for p in shown]
    for row, p in zip(rows, shown, strict=True):
        assert row[2] == p.help and row[3] == constraint_text(p.constraint)
    requires = [li.astext() for li in box.findall(nodes.list_item)]
    assert len(requires) == len(chapter.requires)
    for item, req in zip(box.findall(nodes.list_item), chapter.requires, strict=True):
        text = item.astext()
        assert text.startswith(requirement_text(req.expression).replace("\x00", ""))
        assert req.why in text
        # a sentence, not Python (reader review F5): no Python operator or call; the names are code
        assert not re.search(r"<=|>=|==|!=|\bnot in\b|\blen\(|\bmax\(|\bmin\(|\[\d", text)
        names = {lit.astext() for lit in item.findall(nodes.literal)}
        assert names == set(req.names), (names, req.names)


@pytest.mark.parametrize("chapter_id", CHAPTER_IDS)
def test_the_box_command_reruns_the_page_as_it_is(chapter_id):
    """The command of a book page is real: ``dpcompendium run`` plans it, with the page's values (nothing changed)."""
    chapter, doc = _box_of(chapter_id)
    (block,) = [b for b in doc.findall(nodes.literal_block)]
    words = shlex.split(block.astext())
    assert words[:3] == ["dpcompendium", "run", chapter_id]
    pairs = [words[i + 1 : i + 3] for i in range(3, len(words), 3)]
    assert all(words[i] == "-p" for i in range(3, len(words), 3)) and pairs
    assert pairs[0][0] == "seed"
    plan = preflight(chapter, cli._parse_values(pairs))
    assert plan.changed == {}


def test_the_box_speaks_the_edition_s_language():
    _, doc = _box_of(DP_MEAN, language="zh_CN")
    (box,) = doc.findall(nodes.admonition)
    assert box.next_node(nodes.title).astext() == "重新运行本章"
    assert _rows(box)[0] == ["参数", "值", "含义", "允许的值"]


def test_constraints_read_as_ranges():
    assert constraint_text("min 0.01, max 100") == "≥ 0.01, ≤ 100"
    assert constraint_text(">0, <1") == "> 0, < 1"
    assert constraint_text("heights|adult-age") == "heights | adult-age"
    assert constraint_text("") == ""
    params = get_chapter(DP_MEAN).parameters
    assert list(example_values(params, {n: p.default for n, p in params.items()})) == [
        "seed",
        "reps",
    ]


def test_a_rerun_s_box_shows_the_run_s_values_and_command():
    """The rerun page reads the run's plan: the parameters cell holds the run's values, its metadata the command,
    and papermill's injected-parameters cell is left out (the box shows them)."""
    chapter = get_chapter(HISTOGRAMS)
    plan = preflight(chapter, {"reps": 3, "datasets": ["ADULT"]})
    nb = nbformat.read(chapter.notebook, as_version=4)
    index = next(i for i, c in enumerate(nb.cells) if "parameters" in c.metadata.get("tags", []))
    injected = nbformat.v4.new_code_cell('reps = 3\ndatasets = ["ADULT"]\noutput_dir = "/tmp/x"\n')
    injected.metadata["tags"] = ["injected-parameters"]
    nb.cells.insert(index + 1, injected)
    page = with_run_parameters(nb, plan)
    assert not any("injected-parameters" in c.metadata.get("tags", []) for c in page.cells)
    cell = page.cells[index]
    assert cell.source == parameters_source(chapter, plan.run_values)
    command = cell.metadata["dpcompendium"][COMMAND_KEY]
    assert command == "dpcompendium run histograms -p reps 3 -p datasets '[ADULT]'"
    _, doc = _box_of(
        HISTOGRAMS, source=cell.source, metadata={"dpcompendium": {COMMAND_KEY: command}}
    )
    (box,) = doc.findall(nodes.admonition)
    values = {r[0]: r[1] for r in _rows(box)[1:]}
    assert values["reps"] == "3" and values["datasets"] == "['ADULT']"
    assert box.next_node(nodes.literal_block).astext() == command
    assert "rerun below" in box.astext()


@pytest.mark.parametrize("language", [None, "zh_CN"])
def test_on_paper_the_box_is_its_command_and_one_sentence(language):
    """Reader review F4: the parameters table (a printed page in some chapters) and the constraints are screen-only;
    a print-only sentence names the command that lists them; the command itself is on both."""
    _, doc = _box_of(HISTOGRAMS, language=language)
    (box,) = doc.findall(nodes.admonition)
    screen = [n for n in box.children if "dpc-screen-only" in n.get("classes", [])]
    printed = [n for n in box.children if "dpc-print-only" in n.get("classes", [])]
    assert any(isinstance(n, nodes.table) for n in screen)
    assert len(printed) == 1 and f"dpcompendium list {HISTOGRAMS}" in printed[0].astext()
    # reader review F11: on paper the online page is its address written out (and a link), in the page's language
    edition = "" if language is None else f"/{language}"
    url = f"https://dpcompendium.github.io/dpcompendium{edition}/notebooks/{HISTOGRAMS}.html"
    (link,) = printed[0].findall(nodes.reference)
    assert link["refuri"] == url and link.astext() == url, (link["refuri"], link.astext())
    assert "@@" not in printed[0].astext() and "$" not in printed[0].astext()
    assert not [
        b for b in box.findall(nodes.literal_block) if "dpc-screen-only" in b.get("classes", [])
    ]
    css = (Path(cli.__file__).parent / "_static" / "dpcompendium.css").read_text()
    assert "div.admonition.dpc-rerun .dpc-screen-only { display: none !important; }" in css


@pytest.mark.parametrize(
    ("expression", "en", "zh"),
    [
        ("reps >= 2", "reps ≥ 2", "reps ≥ 2"),
        (
            'k <= 13 or "wine" not in datasets',
            "k ≤ 13, or datasets does not include “wine”",
            "k ≤ 13，或 datasets 不包含“wine”",
        ),
        (
            "len(query_lengths) == 2 and query_lengths[0] < query_lengths[1]",
            "the length of query_lengths = 2, and element 1 of query_lengths < element 2 of query_lengths",
            "query_lengths 的长度 = 2，且 query_lengths 的第 1 个元素 < query_lengths 的第 2 个元素",
        ),
        (
            "min(a) + min(b) < 1",
            "the smallest of a + the smallest of b < 1",
            "a 的最小值 + b 的最小值 < 1",
        ),
        ('not "x" in v', "not (v includes “x”)", "并非（v 包含“x”）"),
    ],
)
def test_a_requirement_reads_as_a_sentence_in_each_language(expression, en, zh):
    """The box writes a ``# require:`` line in words and signs (reader review F5), from the catalogue's templates."""
    assert requirement_text(expression).replace("\x00", "") == en
    assert requirement_text(expression, "zh_CN").replace("\x00", "") == zh


def test_a_requirement_the_renderer_does_not_know_stays_as_written():
    assert requirement_text("x[i] < 1") == "x[i] < 1"  # an index that is no constant
    assert requirement_text("a <") == "a <"  # not an expression
