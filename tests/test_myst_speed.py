"""dpcompendium.book._myst_speed: MyST's renderer without the default document it builds and discards (issue 50)."""

from __future__ import annotations

import inspect

import pytest
from myst_parser.config.main import MdParserConfig
from myst_parser.mdit_to_docutils import base
from myst_parser.parsers.docutils_ import Parser as DocutilsMystParser
from myst_parser.parsers.mdit import create_md_parser

from dpcompendium.book import _myst_speed as myst_speed

TEXT = """# A title

Some *text* with $x^2$ maths and a [link](https://example.org).

- a list
- of items

```python
print("code")
```
"""


def _upstream():
    setup_render = base.DocutilsRenderer.setup_render
    return getattr(setup_render, "__wrapped__", setup_render)


def _render(with_document: bool) -> str:
    parser = create_md_parser(MdParserConfig(), base.DocutilsRenderer)
    if with_document:
        parser.options["document"] = base.make_document("test", DocutilsMystParser)
    document = parser.render(TEXT)
    return document.pformat()


def test_the_locked_myst_parser_still_builds_the_default_document_eagerly():
    """The reason for the extension: upstream's setup_render evaluates ``make_document()`` as the default of
    ``options.get``. When an upgrade of myst-parser makes it lazy, this fails: remove the extension."""
    assert myst_speed.EAGER_DEFAULT in inspect.getsource(_upstream())


@pytest.fixture
def calls(monkeypatch):
    """Count make_document's calls (its name in MyST's module, as setup_render looks it up)."""
    counted = []
    real = base.make_document

    def counting(*args, **kwargs):
        counted.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr(base, "make_document", counting)
    monkeypatch.setattr(base.DocutilsRenderer, "setup_render", _upstream())
    return counted


def test_a_render_with_its_document_builds_no_other(calls):
    before = _render(with_document=True)
    assert len(calls) == 2  # the test's own document, and upstream's eager default
    calls.clear()
    assert myst_speed.install() is True
    assert myst_speed.install() is False  # once per process
    assert _render(with_document=True) == before  # the same doctree
    assert len(calls) == 1  # the test's own document only
    assert base.make_document.__name__ == "counting"  # the module's name put back


def test_a_render_without_a_document_still_gets_the_default_one(calls):
    before = _render(with_document=False)
    calls.clear()
    myst_speed.install()
    assert _render(with_document=False) == before
    assert len(calls) == 1


def test_the_book_and_the_rerun_page_load_it():
    loaded = []

    class App:
        def setup_extension(self, name):
            loaded.append(name)

        def __getattr__(self, name):
            return lambda *a, **k: None

    from dpcompendium.book import rerun_page, sphinxext

    sphinxext.setup(App())
    rerun_page.setup(App())
    # both load the MyST speed-up; the book also cuts long inline maths (issue 49) — the rerun page does not: its
    # check compares each glued value with the page's text, and a cut formula is no longer the value as glued
    # both number captioned tables as the figures are (issue 49, F12)
    assert loaded == [
        "dpcompendium.book._myst_speed",
        "dpcompendium.book.mathbreak",
        "dpcompendium.book.tablenum",
        "dpcompendium.book._myst_speed",
        "dpcompendium.book.tablenum",
    ]
