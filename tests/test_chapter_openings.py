"""Every chapter opens the same way (reader review F13): one "What you will learn, and what you need" box, a tip
admonition, before the first section, saying what the reader will learn and what they need."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from dpcompendium.chapters.registry import chapter_ids

ROOT = Path(__file__).resolve().parents[1]
OPENING = re.compile(
    r"^(:::|```)\{admonition\} What you will learn, and what you need\n:class: tip\n"
    r"(?:.*\n)*?\*\*You will learn\*\* (?:.*\n)*?\*\*You need\*\* (?:.*\n)*?\1",
    re.M,
)


@pytest.mark.parametrize("chapter", chapter_ids())
def test_chapter_opens_with_one_learn_and_need_box(chapter):
    nb = json.loads((ROOT / "notebooks" / f"{chapter}.ipynb").read_text())
    text = ""
    for cell in nb["cells"]:
        src = "".join(cell["source"])
        if cell["cell_type"] == "markdown" and re.search(r"^## ", src, re.M) and text:
            text += src.split("\n## ", 1)[0] if not src.startswith("## ") else ""
            break
        if cell["cell_type"] == "markdown":
            text += src + "\n"
    assert len(OPENING.findall(text + "\n")) == 1, chapter
    assert "**What you will learn.**" not in text and "## What you will learn" not in text
