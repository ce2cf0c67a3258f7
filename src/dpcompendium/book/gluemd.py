"""Sphinx extension: text pasted with ``{glue:md}`` is shaded like ``{glue:text}`` (``span.pasted-text``).

The book's generated sentences are MyST (:mod:`dpcompendium.core.messages`) pasted with ``{glue:md}`key:myst` ``,
which MyST-NB renders inline (maths, emphasis) but, unlike ``{glue:text}``, without a wrapper. This extension
wraps them in the same ``<span class="pasted-text">`` so that a rerun page shades every pasted value and its tests
find them. Listed in ``_config.yml``; the rerun page (:mod:`dpcompendium.book.rerun_page`) loads it too.
"""

from __future__ import annotations

from typing import Any

from docutils import nodes

__all__ = ["ShadedPasteMarkdownRole", "setup"]


def _role_class():
    from myst_nb.ext.glue.roles import PasteMarkdownRole

    class ShadedPasteMarkdownRole(PasteMarkdownRole):
        """MyST-NB's ``glue:md`` role, its output wrapped in ``span.pasted-text``."""

        def run(self):
            found, messages = super().run()
            if not found:
                return found, messages
            wrap = nodes.inline("", "", *found, classes=["pasted-text"])
            self.set_source_info(wrap)
            return [wrap], messages

    return ShadedPasteMarkdownRole


ShadedPasteMarkdownRole = _role_class()


def setup(app) -> dict[str, Any]:
    from myst_nb.ext.glue.domain import NbGlueDomain

    app.setup_extension("myst_nb")
    NbGlueDomain.roles = {**NbGlueDomain.roles, "md": ShadedPasteMarkdownRole()}
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
