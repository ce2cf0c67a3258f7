"""Every chapter opens the same way and names its sections alike (reader reviews F13 and issue 49, F7).

Before its first section (``## ``) a chapter shows, in this order: its ``# Title``; at least one paragraph saying what
the source is and what the chapter does; one "What you will learn, and what you need" box (a tip admonition fenced
with ``:::``, saying what the reader will learn and what they need); and the findings, introduced by the line
:data:`FINDINGS` ("What we find, in short:") and a bulleted list. No other summary label
("**Overview.**", "**Overview of the findings**", "The short version") opens it. Its errata section is
:data:`ERRATA`, once, and no other second-level heading speaks of errata or of where a source is wrong.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from dpcompendium.chapters.registry import chapter_ids

ROOT = Path(__file__).resolve().parents[1]
BOX_TITLE = "What you will learn, and what you need"
OPENING = re.compile(
    r"^(:::|```)\{admonition\} What you will learn, and what you need\n:class: tip\n"
    r"(?:.*\n)*?\*\*You will learn\*\* (?:.*\n)*?\*\*You need\*\* (?:.*\n)*?\1",
    re.M,
)
#: the line that introduces the findings list, after the box
FINDINGS = "What we find, in short:"
#: the errata section's heading, the same in every chapter
ERRATA = "## Where the source is wrong"
OTHER_SUMMARIES = re.compile(r"\*\*Overview|The short version|What we find(?!, in short:)", re.I)


def _opening(chapter: str) -> str:
    """The chapter's markdown before its first second-level heading."""
    nb = json.loads((ROOT / "notebooks" / f"{chapter}.ipynb").read_text())
    text = ""
    for cell in nb["cells"]:
        src = "".join(cell["source"])
        if cell["cell_type"] == "markdown" and re.search(r"^## ", src, re.M) and text:
            text += src.split("\n## ", 1)[0] if not src.startswith("## ") else ""
            break
        if cell["cell_type"] == "markdown":
            text += src + "\n"
    return text


def _headings(chapter: str) -> list[str]:
    nb = json.loads((ROOT / "notebooks" / f"{chapter}.ipynb").read_text())
    return [
        line.rstrip()
        for cell in nb["cells"]
        if cell["cell_type"] == "markdown"
        for line in "".join(cell["source"]).splitlines()
        if line.startswith("## ")
    ]


@pytest.mark.parametrize("chapter", chapter_ids())
def test_chapter_opens_with_one_learn_and_need_box(chapter):
    text = _opening(chapter)
    assert len(OPENING.findall(text + "\n")) == 1, chapter
    assert "**What you will learn.**" not in text and "## What you will learn" not in text


@pytest.mark.parametrize("chapter", chapter_ids())
def test_chapter_opens_title_introduction_box_findings_in_this_order(chapter):
    text = _opening(chapter)
    assert text.startswith("# "), f"{chapter}: the first cell is not the title"
    box = text.index(f"{{admonition}} {BOX_TITLE}")
    assert text[box - 3 : box] == ":::", (
        f"{chapter}: the box is fenced with ``` (the others use :::)"
    )
    intro = [p for p in text[:box].split("\n\n")[1:] if p.strip()]
    assert intro, f"{chapter}: no paragraph between the title and the box"
    assert text.count(FINDINGS) == 1, (
        f"{chapter}: the findings are not introduced by {FINDINGS!r} once"
    )
    found = text.index(FINDINGS)
    assert found > box, f"{chapter}: the findings come before the box"
    after = text[found + len(FINDINGS) :].lstrip("\n")
    assert after.startswith("- "), f"{chapter}: {FINDINGS!r} is not followed by a list"
    assert not OTHER_SUMMARIES.search(text), (
        f"{chapter}: another summary label: {OTHER_SUMMARIES.search(text).group(0)!r}"
    )


@pytest.mark.parametrize("chapter", chapter_ids())
def test_every_chapter_names_its_errata_section_alike(chapter):
    headings = _headings(chapter)
    assert headings.count(ERRATA) == 1, f"{chapter}: {ERRATA!r} {headings.count(ERRATA)} times"
    others = [h for h in headings if h != ERRATA and re.search(r"errat|wrong", h, re.I)]
    assert not others, f"{chapter}: other errata headings {others}"


def _primer_opening() -> str:
    """The primer's markdown before its first second-level heading (``book/primer.ipynb``)."""
    nb = json.loads((ROOT / "book" / "primer.ipynb").read_text())
    text = "".join(nb["cells"][0]["source"]) + "\n"
    return text.split("\n## ", 1)[0]


def test_the_primer_opens_with_one_learn_and_need_box():
    """The primer opens as a chapter does (reader review 2, minor 3): its title, a paragraph, then one "What you
    will learn, and what you need" box, before its first section."""
    text = _primer_opening()
    assert text.startswith("# ")
    assert len(OPENING.findall(text + "\n")) == 1, (
        "the primer has no learn/need box before its first section"
    )
    box = text.index(f"{{admonition}} {BOX_TITLE}")
    assert text[box - 3 : box] == ":::" and [p for p in text[:box].split("\n\n")[1:] if p.strip()]
