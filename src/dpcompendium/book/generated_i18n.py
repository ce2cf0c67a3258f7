"""Generated sentences in the reader's language, from the same execution (issue 38, the Chinese edition).

A chapter glues sentences that its code writes from the run's numbers (``{glue:md}`key:myst```: a verdict, a claim
statement, a range of ratios). The English page pastes them as the execution stored them. A translated page must show
the *same* numbers in its own language without executing the chapter again. This module translates a glued sentence
at build time, by its *skeleton*:

- :func:`skeleton` cuts a MyST sentence into the words that carry its meaning and the *values* that carry the run:
  inline and display maths, code spans, roles and numbers become numbered placeholders ``{0}``, ``{1}``, … The English
  sentence "the claim fails: MSE is $2.1$ times AHP's in 18 of 20 runs" has the skeleton
  "the claim fails: MSE is {0} times AHP's in {1} of {2} runs" and the values ``["$2.1$", "18", "20"]``.
- The catalogue ``locales/<lang>/LC_MESSAGES/generated.po`` translates skeletons (``msgid`` the English skeleton,
  ``msgstr`` the translation with the same placeholders, in any order); :func:`extract` adds the skeletons of a
  build's sentences that it lacks (``_build/jupyter_execute/**/*.glue.json``; ``dpcompendium i18n update`` runs it).
  Sentences glued in every language already (from the message templates: ``KEY`` beside ``KEY__zh_CN``) need none.
- :func:`translate` fills the translated skeleton with the values of *this* run. A skeleton the catalogue does not
  hold (a rerun whose parameters take a sentence down a branch the default run never takes) stays in English and is
  counted (:func:`missing`); the default run of every chapter has none (``tests/test_generated_i18n.py``).

The Sphinx extension :mod:`dpcompendium.book.glue_i18n` calls :func:`translate` for every ``{glue:md}`` value pasted
into a translated paragraph.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path

__all__ = [
    "CATALOGUE_NAME",
    "catalogue",
    "extract",
    "fill",
    "missing",
    "skeleton",
    "skeletons",
    "translate",
]

#: The catalogue's file name under ``locales/<lang>/LC_MESSAGES/``.
CATALOGUE_NAME = "generated.po"

_ROLE = r"\{[a-z:-]+\}`[^`]*`"
#: What is a value, not a word: roles, display and inline maths, code spans, numbers (thousands separators, decimals,
#: exponents, a percent sign), and any literal brace (so that a skeleton's only braces are its placeholders).
_VALUE = re.compile(
    _ROLE
    + r"|\$\$.+?\$\$|(?<!\\)\$.+?(?<!\\)\$|`[^`]+`"
    + r"|(?<![\w.\\])[-−+]?\d+(?:,\d{3})*(?:\.\d+)?(?:e[-+]?\d+)?(?:\s?%)?(?!\w)"
    + r"|[{}]"
)
_HOLE = re.compile(r"\{(\d+)\}")
#: A skeleton worth translating has a word of two letters or more once its placeholders are gone.
_WORD = re.compile(r"[A-Za-z]{2,}")


def skeleton(text: str) -> tuple[str, list[str]]:
    """``text`` (MyST) as (skeleton, values): every value replaced by ``{i}``, ``i`` its position in ``values``."""
    values: list[str] = []

    def hole(m: re.Match) -> str:
        values.append(m.group(0))
        return f"{{{len(values) - 1}}}"

    return _VALUE.sub(hole, text), values


def fill(template: str, values: list[str]) -> str:
    """``template`` with each ``{i}`` replaced by ``values[i]`` (a translation may reorder or repeat them)."""
    return _HOLE.sub(lambda m: values[int(m.group(1))], template)


#: A guarantee's suffix after its parameters ("{0}-DP", "{0}-LDP"): written as it is in every edition, as the
#: generated sentences write it (native review 8, T7: a bare glued guarantee read "1.000005-差分隐私" three lines
#: from a sentence's "1.500005-DP").
_GUARANTEE_SUFFIX = re.compile(r"(?<=\})-L?DP(?![A-Za-z])")


def translatable(template: str) -> bool:
    """Whether a skeleton has words to translate (a bare number, formula or guarantee such as ``{0}-DP`` has
    none)."""
    return bool(_WORD.search(_GUARANTEE_SUFFIX.sub("", _HOLE.sub("{}", template))))


def placeholders(template: str) -> Counter:
    """The multiset of placeholders of a skeleton (a translation must keep it)."""
    return Counter(_HOLE.findall(template))


def _locale_dir() -> Path:
    from ..core.paths import repo_root

    return repo_root() / "locales"


@lru_cache(maxsize=8)
def catalogue(lang: str, locale_dir: str | None = None) -> dict[str, str]:
    """The translated skeletons of ``lang``: msgid → msgstr, without fuzzy or empty entries, and without any entry
    whose placeholders differ from its msgid's (such an entry is a translator's slip; the test of the catalogue names
    it)."""
    from babel.messages.pofile import read_po

    path = Path(locale_dir or _locale_dir()) / lang / "LC_MESSAGES" / CATALOGUE_NAME
    if not path.is_file():
        return {}
    with path.open("rb") as f:
        cat = read_po(f, locale=lang)
    return {
        m.id: m.string
        for m in cat
        if m.id and m.string and not m.fuzzy and placeholders(m.id) == placeholders(m.string)
    }


_missing: Counter = Counter()


def translate(text: str, lang: str, locale_dir: str | None = None) -> str:
    """``text`` (a glued sentence, MyST) in ``lang``: its skeleton translated and filled with its own values; as it is
    when ``lang`` is English, when it has nothing to translate, or when the catalogue lacks its skeleton (counted in
    :func:`missing`)."""
    if not lang or lang.startswith("en"):
        return text
    template, written = skeleton(text)
    values = written
    if lang.startswith("zh"):
        # a count a chapter wrote as f"{x:,}" ("4,000,000") is grouped as the Chinese edition groups thousands, with
        # a narrow space, as messages.grouped and the tables do (native review 9, U1: three forms on one page)
        values = [_zh_grouped(v) for v in written]
    if not translatable(template):
        if values != written and fill(template, written) == text:
            return fill(template, values)
        return text
    found = catalogue(lang, locale_dir).get(template)
    if found is None:
        _missing[template] += 1
        return text
    filled = fill(found, values)
    if lang.startswith("zh"):  # "{1} 维" filled with 1 reads 一维 (issue 48)
        from ..core.messages import zh_dimensions

        filled = zh_dimensions(filled)
    return filled


def _zh_grouped(value: str) -> str:
    """A value of a skeleton that is an integer grouped by commas ("4,000"), with narrow spaces ("4 000"); any
    other value as it is."""
    from ..core.messages import _COMMA_GROUPED

    return value.replace(",", "\u202f") if _COMMA_GROUPED.fullmatch(value) else value


def missing() -> Counter:
    """The skeletons :func:`translate` did not find since the process started (skeleton → count)."""
    return Counter(_missing)


#: An English phrase (two words of small letters) left in a sentence glued in another language: the free text of a
#: claim (its ``why``, ``sensitivity``, ``conditions``) inside a template of that language.
_ENGLISH_PHRASE = re.compile(r"(?<![A-Za-z_\\])[A-Za-z][a-z]+[ -]+[a-z]{2,}(?![A-Za-z_])")


def skeletons(glue_files: Iterable[Path], lang: str = "zh_CN") -> dict[str, list[str]]:
    """Every translatable skeleton of the ``text/markdown`` values in MyST-NB's glue files (``<page>.glue.json``),
    in order of first appearance, with the ``page:key`` names that produce it (the translator's context). A value
    glued in each language already (``KEY`` beside ``KEY__zh_CN``) needs none, unless its ``KEY__<lang>`` still holds
    an English phrase (a claim's free text inside the template of ``lang``, issue 48): then the skeleton of that
    value is the one to translate."""
    found: dict[str, list[str]] = {}
    for path in glue_files:
        path = Path(path)
        glued = json.loads(path.read_text(encoding="utf-8"))
        for key, value in glued.items():
            # a value glued for another language, and a sentence that has one (its Md was rendered from the message
            # templates in every language: dpcompendium.book.prose.glue), need no skeleton
            if "__" in key and not key.endswith(f"__{lang}"):
                continue
            if "__" not in key and any(k.startswith(f"{key}__") for k in glued):
                continue
            text = value.get("data", {}).get("text/markdown")
            if not isinstance(text, str):
                continue
            template, _ = skeleton(text)
            if "__" in key and not _ENGLISH_PHRASE.search(_HOLE.sub(" ", template)):
                continue
            if translatable(template):
                found.setdefault(template, []).append(
                    f"{path.name.removesuffix('.glue.json')}:{key.removesuffix(f'__{lang}')}"
                )
    return found


def extract(glue_root: Path, po_path: Path, lang: str = "zh_CN") -> tuple[int, int, int]:
    """Add to the catalogue ``po_path`` every skeleton of the sentences glued under ``glue_root`` (a build's
    ``jupyter_execute`` folder) that it lacks, untranslated, with the ``page:key`` names that produce it. Entries are
    never dropped or made obsolete: a skeleton the default run no longer produces may still be produced by a rerun at
    other parameters (its translation keeps that page in the reader's language). Returns (entries, untranslated,
    fuzzy) of the catalogue."""
    from babel.messages.catalog import Catalog
    from babel.messages.pofile import read_po, write_po

    found = skeletons(sorted(Path(glue_root).rglob("*.glue.json")), lang)
    if po_path.is_file():
        with po_path.open("rb") as f:
            cat = read_po(f, locale=lang)
    else:
        cat = Catalog(locale=lang, project="dpcompendium", charset="utf-8", fuzzy=False)
    for sk, keys in found.items():
        if sk not in cat:
            cat.add(sk, "", auto_comments=[", ".join(keys)])
    for m in cat:  # the placeholders are ours, not Python's brace format
        m.flags.discard("python-brace-format")
        m.flags.discard("python-format")
    po_path.parent.mkdir(parents=True, exist_ok=True)
    with po_path.open("wb") as f:
        write_po(f, cat, width=0, no_location=True, include_previous=True)
    catalogue.cache_clear()
    entries = [m for m in cat if m.id]
    return len(entries), sum(not m.string for m in entries), sum(m.fuzzy for m in entries)
