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

from pybtex.style.formatting.plain import Style as PlainStyle
from pybtex.style.labels import BaseLabelStyle

#: The names the styles are registered under (pybtex's and sphinxcontrib-bibtex's ``register_plugin``).
FORMATTING_STYLE = "dpcompendium"
LABEL_STYLE = "dpcompendium_author_year"
REFERENCE_STYLE = "dpcompendium_author_year"


def author_year_label(entry) -> str:
    """The author–year text of ``entry`` as sphinxcontrib-bibtex's author–year citation writes it, in plain text
    ("Geng and Viswanath, 2014", "Dwork et al., 2006"; a work without authors or editors by its title)."""
    from types import SimpleNamespace

    from sphinxcontrib.bibtex.style.referencing import PersonStyle
    from sphinxcontrib.bibtex.style.template import join, year

    person = PersonStyle()
    template = join(sep=", ")[person.author_or_editor_or_title(full=False), year]
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
    """pybtex's ``plain`` entries, labelled and sorted author–year."""

    default_label_style = LABEL_STYLE
    default_sorting_style = "author_year_title"


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
                        self.person.author_or_editor_or_title(full="s" in role_name), list_year
                    ]
                ],
                post_text,
            ]

    class Textual(BasicAuthorYearTextualReferenceStyle):
        def inner(self, role_name):
            return join(sep=self.text_reference_sep)[
                self.person.author_or_editor_or_title(full="s" in role_name),
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


def setup(app):
    install()
    register()
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
