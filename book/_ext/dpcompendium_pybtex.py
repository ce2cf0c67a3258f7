"""Sphinx hook: the works lists labelled as the text cites (author–year), and pybtex's plugins looked up once.

**One citation style.** The text cites author–year ("[Geng and Viswanath, 2014]"); pybtex's ``plain`` style would
label the works lists by number ("[1]"). :class:`AuthorYearStyle`, registered as the formatting style
``dpcompendium`` (``bibtex_default_style`` in ``_config.yml``), is ``plain`` with the labels of
:class:`AuthorYearLabelStyle` — the text of sphinxcontrib-bibtex's own author–year citation (authors, or editors, or
the title where a work has neither, then the year or "n.d."), a letter after the year where two works of a list share
it — sorted by author, year and title. The text cites with ``dpcompendium_author_year``
(``bibtex_reference_style``): sphinxcontrib-bibtex's author–year style taking the year from the list's label, so that
"[Dwork et al., 2006a]" is the same in both. ``tests/test_book_citations.py`` builds a page citing every work and
checks that each citation says what its entry's label says.

**Each edition cites in its language** (issue 48, native review 4, E1). The Chinese edition (Sphinx's ``language``,
read when a build's configuration is: :func:`edition_entry`) cites a work by its Chinese fields: a field
``<name>_zh`` of an entry (``howpublished_zh``, ``note_zh``) replaces ``<name>``, a Chinese title loses the English
back-translation the English edition gives after it in brackets, a title where the text names a work without
authors is in 《》, and a work without a year is 无日期 (the English edition's "n.d."). The English edition is as
before.

**Plugins looked up once.**

sphinxcontrib-bibtex asks pybtex for its formatting and backend plugins at every citation it resolves
(``pybtex.plugin.find_plugin``), and pybtex 0.26 answers each time by scanning the entry points of every installed
distribution (``importlib.metadata.entry_points(group=..., name=...)``): 14 ms a call, about 190 calls, 2.6 s of
the strict build. This hook gives pybtex's plugin module an ``entry_points`` that keeps each (group, name) answer for
the life of the process. Plugins registered at run time (``pybtex.plugin.register_plugin``) are still looked up
first, as before; only the scan of installed distributions, which cannot change during a build, is kept.
"""

from __future__ import annotations

import functools
import re

from pybtex.style.formatting.plain import Style as PlainStyle
from pybtex.style.labels import BaseLabelStyle

#: The names the styles are registered under (pybtex's and sphinxcontrib-bibtex's ``register_plugin``).
FORMATTING_STYLE = "dpcompendium"
LABEL_STYLE = "dpcompendium_author_year"
REFERENCE_STYLE = "dpcompendium_author_year"


#: The language of the edition being built (Sphinx's ``language``; set by :func:`setup` when a build's
#: configuration is read, ``"en"`` otherwise).
LANGUAGE = {"value": "en"}

#: A work without a year, per language.
NO_DATE = {"en": "n.d.", "zh_CN": "无日期"}

_CJK = re.compile(r"[\u4e00-\u9fff]")
#: A title's last bracket: the English back-translation of a Chinese title ("基于… (Differentially …)")
_LAST_BRACKET = re.compile(r"\s*\(([^()]*)\)\s*$")


def _chinese(lang: str | None = None) -> bool:
    return (lang or LANGUAGE["value"] or "en").startswith("zh")


def chinese_title(title: str) -> str:
    """A Chinese title without the English back-translation after it ("基于抽样分组的… (Differentially private …)"
    → "基于抽样分组的…"); any other title as it is."""
    m = _LAST_BRACKET.search(title)
    if m and _CJK.search(title[: m.start()]) and not _CJK.search(m.group(1)):
        return title[: m.start()]
    return title


def edition_entry(entry, lang: str | None = None):
    """``entry`` as the edition in ``lang`` (default: the one being built) cites it: in Chinese, a field
    ``<name>_zh`` replaces ``<name>`` and a Chinese title loses its back-translation (:func:`chinese_title`); in
    English the entry itself."""
    if not _chinese(lang):
        return entry
    from pybtex.database import Entry

    fields = {k: v for k, v in entry.fields.items() if not k.lower().endswith("_zh")}
    for k, v in entry.fields.items():
        if k.lower().endswith("_zh"):
            fields[next((f for f in fields if f.lower() == k[:-3].lower()), k[:-3])] = v
    if "title" in fields:
        fields["title"] = chinese_title(fields["title"])
    if fields == dict(entry.fields):
        return entry
    out = Entry(entry.type, fields=fields, persons=entry.persons)
    out.key = entry.key
    return out


def _who_and_year(**kwargs):
    """The template of a citation's author part (``kwargs``: sphinxcontrib-bibtex's person options) and of its
    year, in the edition's language: a work without authors or editors by its title (in 《》 in Chinese), a work
    without a year :data:`NO_DATE`."""
    from sphinxcontrib.bibtex.style.template import (
        author_or_editor_or_title,
        field,
        first_of,
        join,
        names,
        node,
        optional,
    )

    @node
    def who(children, data):
        assert not children
        data = {**data, "entry": edition_entry(data["entry"])}
        if not _chinese():
            return author_or_editor_or_title(**kwargs).format_data(data)
        return first_of[
            optional[names("author", **kwargs)],
            optional[names("editor", **kwargs)],
            join["《", field("title"), "》"],
        ].format_data(data)

    @node
    def year(children, data):
        assert not children
        no_date = NO_DATE.get(LANGUAGE["value"], NO_DATE["zh_CN"] if _chinese() else NO_DATE["en"])
        return first_of[optional[field("year")], no_date].format_data(data)

    return who, year


def _person_options(person, full: bool) -> dict:
    return {
        "sep": person.sep,
        "sep2": person.sep2,
        "last_sep": person.last_sep,
        "other": None if full else person.other,
    }


def author_year_label(entry) -> str:
    """The author–year text of ``entry`` as sphinxcontrib-bibtex's author–year citation writes it, in plain text
    ("Geng and Viswanath, 2014", "Dwork et al., 2006"; a work without authors or editors by its title), in the
    edition's language (:func:`edition_entry`: "《基于抽样分组的…》, 2023"; "n.d." is 无日期 in Chinese)."""
    from types import SimpleNamespace

    from sphinxcontrib.bibtex.style.referencing import PersonStyle
    from sphinxcontrib.bibtex.style.template import join

    person = PersonStyle()
    who, year = _who_and_year(**_person_options(person, full=False))
    template = join(sep=", ")[who, year]
    text = template.format_data({"entry": entry, "style": SimpleNamespace(person=person)})
    return text.render_as("text")


class AuthorYearLabelStyle(BaseLabelStyle):
    """Works-list labels in the text's author–year form (:func:`author_year_label`); works of one list that share
    it get a letter after the year, in the list's order ("Dwork et al., 2006a", "Dwork et al., 2006b")."""

    def format_labels(self, sorted_entries):
        entries = list(sorted_entries)
        labels = [author_year_label(e) for e in entries]
        count: dict[str, int] = {}
        for label in labels:
            count[label] = count.get(label, 0) + 1
        seen: dict[str, int] = {}
        for label in labels:
            if count[label] == 1:
                yield label
                continue
            seen[label] = seen.get(label, 0) + 1
            yield label + "abcdefghijklmnopqrstuvwxyz"[seen[label] - 1]


class AuthorYearStyle(PlainStyle):
    """pybtex's ``plain`` entries, labelled and sorted author–year, each as the edition cites it
    (:func:`edition_entry`)."""

    default_label_style = LABEL_STYLE
    default_sorting_style = "author_year_title"

    def format_entry(self, label, entry, bib_data=None):
        return super().format_entry(label, edition_entry(entry), bib_data=bib_data)


def _reference_style():
    """sphinxcontrib-bibtex's author–year reference style whose year is the works list's (the label's last part:
    "2006a" where two works share an author–year), so that text and list say the same."""
    from dataclasses import dataclass

    from pybtex.richtext import Text
    from sphinxcontrib.bibtex.style.referencing.author_year import AuthorYearReferenceStyle
    from sphinxcontrib.bibtex.style.referencing.basic_author_year import (
        BasicAuthorYearParentheticalReferenceStyle,
        BasicAuthorYearTextualReferenceStyle,
    )
    from sphinxcontrib.bibtex.style.template import (
        join,
        join2,
        node,
        post_text,
        pre_text,
        reference,
    )

    @node
    def list_year(children, data):
        """The year as the works list labels the entry (the text after the label's last comma)."""
        assert not children
        return Text(data["formatted_entry"].label.rsplit(", ", 1)[-1])

    class Parenthetical(BasicAuthorYearParentheticalReferenceStyle):
        def inner(self, role_name):
            return join2(sep1=self.pre_text_sep, sep2=self.post_text_sep)[
                pre_text,
                reference[
                    join(sep=self.author_year_sep)[
                        _who_and_year(**_person_options(self.person, "s" in role_name))[0],
                        list_year,
                    ]
                ],
                post_text,
            ]

    class Textual(BasicAuthorYearTextualReferenceStyle):
        def inner(self, role_name):
            return join(sep=self.text_reference_sep)[
                _who_and_year(**_person_options(self.person, "s" in role_name))[0],
                join[
                    self.bracket.left,
                    join2(sep1=self.pre_text_sep, sep2=self.post_text_sep)[
                        pre_text, reference[list_year], post_text
                    ],
                    self.bracket.right,
                ],
            ]

    @dataclass
    class ListYearAuthorYearReferenceStyle(AuthorYearReferenceStyle):
        def __post_init__(self):
            super().__post_init__()
            swap = {
                BasicAuthorYearParentheticalReferenceStyle: Parenthetical,
                BasicAuthorYearTextualReferenceStyle: Textual,
            }
            for i, style in enumerate(self.styles):
                if type(style) in swap:
                    fields = {
                        k: getattr(style, k)
                        for k in style.__dataclass_fields__
                        if k != "role_style"
                    }
                    self.styles[i] = swap[type(style)](**fields)
            self.role_style.clear()
            self.role_style.update(
                (name, style) for style in self.styles for name in style.role_names()
            )

    return ListYearAuthorYearReferenceStyle


def register() -> None:
    """Register the styles with pybtex and sphinxcontrib-bibtex (a second call changes nothing)."""
    import pybtex.plugin
    from sphinxcontrib.bibtex import plugin as bibtex_plugin

    for group, name, cls in (
        ("pybtex.style.labels", LABEL_STYLE, AuthorYearLabelStyle),
        ("pybtex.style.formatting", FORMATTING_STYLE, AuthorYearStyle),
    ):
        pybtex.plugin.register_plugin(group, name, cls, force=True)
    group = "sphinxcontrib.bibtex.style.referencing"
    if REFERENCE_STYLE not in bibtex_plugin._runtime_plugins[group]:
        bibtex_plugin.register_plugin(group, REFERENCE_STYLE, _reference_style(), force=True)


def _cached(entry_points):
    @functools.cache
    def lookup(group: str, name: str) -> tuple:
        return tuple(entry_points(group=group, name=name))

    @functools.wraps(entry_points)
    def cached_entry_points(**selection):
        if set(selection) == {"group", "name"}:
            return lookup(selection["group"], selection["name"])
        return entry_points(**selection)

    cached_entry_points.dpcompendium_cached = True
    return cached_entry_points


def install() -> bool:
    """Give ``pybtex.plugin`` the cached lookup (once); False when pybtex has no module-level ``entry_points``."""
    import pybtex.plugin

    current = getattr(pybtex.plugin, "entry_points", None)
    if current is None:
        return False
    if not getattr(current, "dpcompendium_cached", False):
        pybtex.plugin.entry_points = _cached(current)
    return True


def _on_config_inited(app, config) -> None:
    LANGUAGE["value"] = config.language or "en"


def setup(app):
    install()
    register()
    app.connect("config-inited", _on_config_inited)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
