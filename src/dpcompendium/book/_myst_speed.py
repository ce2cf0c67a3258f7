"""Sphinx extension: MyST's renderer without the docutils document it builds and throws away on every render.

``myst_parser.mdit_to_docutils.base.DocutilsRenderer.setup_render`` (myst-parser 3.0.1, the lock's) starts with
``self.document = options.get("document", make_document())``: the default is evaluated even when the caller passes
its document, which every Sphinx parse does. ``make_document`` builds docutils' default settings (an
``OptionParser`` over every component: about 7 ms of CPU) for a document nobody reads. Sphinx's i18n transform
parses every translated paragraph on its own (``sphinx.transforms.i18n.publish_msgstr``), so the Chinese edition pays
it once per catalogue entry (about 2,200 in the book, about 350 on a Chinese chapter's rerun page): measured on a
Chinese rerun page, 5.2 of its 42 profiled seconds.

:func:`install` wraps ``setup_render`` so that, when ``options`` has a document, ``make_document`` is not called;
everything else is upstream's code, unchanged. A render without a document still gets upstream's default one. The
rendered doctrees are the same (``tests/test_myst_speed.py``); the test also fails if the lock's myst-parser no longer
has the eager default (then this extension has nothing to do and should go).

Loaded by the book's Sphinx extension (:mod:`dpcompendium.book.sphinxext`, both editions) and by a rerun's page
(:mod:`dpcompendium.book.rerun_page`).
"""

from __future__ import annotations

import functools
from typing import Any

__all__ = ["install", "setup"]

#: The line of upstream's ``setup_render`` that this extension makes lazy (tests/test_myst_speed.py checks it is there).
EAGER_DEFAULT = 'options.get("document", make_document())'


def _no_document(*args: Any, **kwargs: Any) -> None:
    """Stands in for ``make_document`` while a render that has its document is set up: its result is discarded."""
    return None


def install() -> bool:
    """Wrap MyST's ``DocutilsRenderer.setup_render`` (once per process); return True if it was wrapped now."""
    from myst_parser.mdit_to_docutils import base

    upstream = base.DocutilsRenderer.setup_render
    if getattr(upstream, "_dpc_lazy_document", False):
        return False

    @functools.wraps(upstream)
    def setup_render(self, options: dict[str, Any], env: Any) -> None:
        if "document" not in options:
            return upstream(self, options, env)
        # Sphinx reads documents one at a time in a process (its parallel reads are forked processes), so the module's
        # name can be swapped for the call and put back
        make_document = base.make_document
        base.make_document = _no_document
        try:
            return upstream(self, options, env)
        finally:
            base.make_document = make_document

    setup_render._dpc_lazy_document = True  # type: ignore[attr-defined]
    base.DocutilsRenderer.setup_render = setup_render
    return True


def setup(app: Any) -> dict[str, Any]:
    install()
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
