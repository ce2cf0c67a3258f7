"""A takeaway is short (issue 49, F3): every item of a page's "Key takeaways" list says at most two sentences, and on
the built page it has at most 300 visible characters (Chinese: 200; reader review 2, M3).

*Programming Differential Privacy* ends each chapter with a few one-line takeaways; the detail (test results, the
configurations a verdict is about) belongs to the chapter's body. An item may open with a bold label
("**Name the relation.**"): that is its first sentence. The rule holds for what the reader sees:

- in the unit stage, for the notebook's markdown, each glued sentence (``{glue:md}`key:myst` ``) counted as one word;
- in the book stage (``book`` marker: after ``make book``), with the glued text of the book's run pasted in, in
  English, and in Chinese (the item's translation from the page's catalogue with the ``KEY__zh_CN`` values).

Sentences are split by :func:`sentences` — English: a ``.``, ``!`` or ``?`` followed by a space and a capital letter,
a digit, a bold or a maths opening (not after an abbreviation such as "e.g." or "Alg."); Chinese: ``。``, ``！``,
``？`` (and the English rule for a Latin passage) — with maths, roles and inline code masked first.
"""

from __future__ import annotations

import itertools
import json
import re
from pathlib import Path

import nbformat
import pytest
import test_reading_rules as reading
from babel.messages.pofile import read_po

from dpcompendium.chapters.registry import chapter_ids

ROOT = Path(__file__).resolve().parents[1]
MAX_SENTENCES = 2
#: the executable book pages that end with takeaways too (book/<page>.ipynb)
PAGES = ("primer",)
HEADING = re.compile(r"^## (?:Key )?takeaways\s*$", re.M | re.I)

_MASKS = (
    re.compile(r"\$\$.*?\$\$|\$[^$\n]+\$", re.S),  # maths
    re.compile(r"\{[\w:-]+\}`[^`]*`"),  # roles: citations, references, pastes
    re.compile(r"`[^`\n]*`"),  # inline code
)
#: words after which an English full stop does not end a sentence
ABBREVIATIONS = (
    "e.g.",
    "i.e.",
    "vs.",
    "et al.",
    "cf.",
    "Alg.",
    "Fig.",
    "Eq.",
    "Sec.",
    "Thm.",
    "Prop.",
    "resp.",
)
_EN_END = re.compile(r"(?<=[.!?])[)\"”’*]*\s+(?=[A-Z0-9*$(\"“‘«])")
_ZH_END = re.compile(r"(?<=[。！？])[）”’」*]*\s*(?=\S)")


def _mask(text: str) -> str:
    for pattern in _MASKS:
        text = pattern.sub(lambda m: "X" * max(1, len(m.group(0)) // 8), text)
    return text


def sentences(text: str, lang: str = "en") -> list[str]:
    """The sentences of a paragraph of MyST (maths, roles and inline code never split one; a bold label that ends
    with a full stop is one); ``lang`` ``"zh_CN"`` also ends a sentence at ``。！？``."""
    text = " ".join(text.split())
    if not text:
        return []
    masked = _mask(text)
    for abbr in ABBREVIATIONS:
        masked = masked.replace(abbr, abbr.replace(".", "·"))
    cuts = [m.end() for m in _EN_END.finditer(masked)]
    if lang != "en":
        cuts += [m.end() for m in _ZH_END.finditer(masked)]
    cuts = sorted(set(c for c in cuts if 0 < c < len(masked)))
    bounds = [0, *cuts, len(masked)]
    # the masks keep lengths only approximately: cut the masked text, which is what is counted
    return [masked[a:b].strip() for a, b in itertools.pairwise(bounds) if masked[a:b].strip()]


def _page_notebook(page: str) -> Path:
    return ROOT / ("book" if page in PAGES else "notebooks") / f"{page}.ipynb"


def takeaway_items(page: str) -> list[str]:
    """The items of the page's takeaways list, each as one line of MyST (a list item's continuation lines joined)."""
    nb = nbformat.read(_page_notebook(page), as_version=4)
    for cell in nb.cells:
        if cell.cell_type != "markdown" or not HEADING.search(cell.source):
            continue
        section = cell.source[HEADING.search(cell.source).end() :]
        section = re.split(r"^#{1,2} ", section, maxsplit=1, flags=re.M)[0]
        items: list[str] = []
        for line in section.splitlines():
            if re.match(r"^[-*] ", line):
                items.append(line[2:].strip())
            elif items and line.startswith("  ") and line.strip():
                items[-1] += " " + line.strip()
        return items
    return []


GLUE_MD = re.compile(r"\{glue:md\}`([\w-]+):myst`")


def paste(item: str, glued: dict[str, str]) -> str:
    """``item`` with each ``{glue:md}`` role replaced by its glued MyST (left as it is when there is none)."""
    return GLUE_MD.sub(lambda m: glued.get(m.group(1), m.group(0)), item)


PAGES_WITH_TAKEAWAYS = [*chapter_ids(), *PAGES]


def _too_long(items: list[str], lang: str) -> list[tuple[int, str]]:
    return [
        (len(sentences(it, lang)), it[:120])
        for it in items
        if len(sentences(it, lang)) > MAX_SENTENCES
    ]


def test_the_splitter_counts_sentences_in_both_languages():
    assert len(sentences("**Privacy.** One sentence, e.g. this one, with $x. Y$ inside.")) == 2
    assert len(sentences("**Accounting changes it:** one sentence.")) == 1
    assert (
        len(sentences("First at $\\varepsilon = 1$. Second {cite:p}`a.b`. Third (Alg. 3) ends."))
        == 3
    )
    assert len(sentences("A ratio of 2.5 and 1,000 runs. 3 of 4 hold.")) == 2
    assert len(sentences("**指明关系。** 第一句，$x. Y$。第二句！第三句？", "zh_CN")) == 4
    assert len(sentences("第一句；仍是第一句。", "zh_CN")) == 1
    assert len(sentences("**Only a label.**")) == 1
    assert sentences("  ") == []


@pytest.mark.parametrize("page", PAGES_WITH_TAKEAWAYS)
def test_every_takeaway_item_is_at_most_two_sentences(page):
    items = takeaway_items(page)
    assert len(items) >= 3, f"{page}: no takeaways list of at least three items"
    assert not _too_long(items, "en"), (
        f"{page}: items of more than {MAX_SENTENCES} sentences: {_too_long(items, 'en')}"
    )


def _glue_file(page: str) -> Path | None:
    found = sorted((ROOT / "_build" / "jupyter_execute").rglob(f"{page}.glue.json"))
    return found[0] if found else None


def _glued(path: Path, lang: str) -> dict[str, str]:
    data = json.loads(path.read_text(encoding="utf-8"))
    out = {}
    for key, value in data.items():
        if "__" in key:
            continue
        chosen = data.get(f"{key}__{lang}", value) if lang != "en" else value
        text = chosen.get("data", {}).get("text/markdown")
        if isinstance(text, str):
            out[key] = text
    return out


def _translations(page: str) -> dict[str, str]:
    folder = "book" if page in PAGES else "notebooks"
    path = ROOT / "locales" / "zh_CN" / "LC_MESSAGES" / folder / f"{page}.po"
    with path.open("rb") as f:
        catalogue = read_po(f)
    return {m.id: m.string for m in catalogue if m.id and m.string and not m.fuzzy}


@pytest.mark.book
@pytest.mark.parametrize("page", PAGES_WITH_TAKEAWAYS)
def test_every_takeaway_item_of_the_built_book_is_at_most_two_sentences(page):
    """With the book's glued text pasted in: English, and Chinese where the item has its translation."""
    path = _glue_file(page)
    if path is None:
        pytest.fail(
            f"no glue data for {page} under _build/jupyter_execute: build the book first (make book)"
        )
    items = takeaway_items(page)
    english = [paste(it, _glued(path, "en")) for it in items]
    assert not _too_long(english, "en"), f"{page}: {_too_long(english, 'en')}"
    translated = _translations(page)
    chinese = [paste(translated[it], _glued(path, "zh_CN")) for it in items if it in translated]
    assert not _too_long(chinese, "zh_CN"), f"{page} (zh_CN): {_too_long(chinese, 'zh_CN')}"


@pytest.mark.book
@pytest.mark.parametrize("lang", reading._editions())
@pytest.mark.parametrize("folder,name", reading.PAGES)
def test_every_takeaway_item_of_the_built_page_is_short(folder, name, lang):
    """Each item of a built page's "Key takeaways" list has at most MAX_TAKEAWAY visible characters (300; Chinese
    200: reader review 2, M3), but the named exceptions (``tests/test_reading_rules.py``)."""
    lengths = reading.takeaway_lengths(reading._read(lang, folder, name))
    assert len(lengths) >= 3, f"{name} ({lang}): no Key takeaways list of at least three items"
    found = {i: n for i, n in enumerate(lengths, 1) if n > reading.MAX_TAKEAWAY[lang]}
    new, stale = reading.problems(
        found, reading.LONG_TAKEAWAYS[lang], f"> {reading.MAX_TAKEAWAY[lang]} chars", name
    )
    assert not new, f"{name} ({lang}): takeaway items too long: {new}"
    assert not stale, f"{name} ({lang}): no longer too long, remove from LONG_TAKEAWAYS: {stale}"
