"""Glued values inside translated paragraphs (issue 38, the Chinese edition).

Sphinx's i18n transform replaces a translatable paragraph by its ``msgstr`` parsed in a *fresh* document (its source
ends with ``<translated>``). That document holds no notebook outputs (MyST-NB's ``nb_renderer`` is not on it), so the
glue roles ``{glue:text}``, ``{glue}`` and ``{glue:md}`` with a page-local key find no key there: the value is
dropped with the warning "No key 'KEY' found in glue data for this document" (MyST-NB 1.4, Sphinx 7.4).

By the time the transform runs, MyST-NB has already written the page's glue data to
``<nb output folder>/<docname>.glue.json``. This extension makes the three roles read the key from there when they run
in a translated document (and only then): ``{glue:text}`` and ``{glue}`` paste its ``text/plain``, ``{glue:md}``
parses its ``text/markdown`` inline with the translated document's own MyST renderer (maths and emphasis typeset as
on the English page). Translators therefore keep the English roles unchanged in the ``msgstr``. A sentence pasted by
``{glue:md}`` is itself translated into the build's language from the catalogue of generated sentences, filled with
this run's values (:func:`dpcompendium.book.generated_i18n.translate`).

Without it, only the cross-document forms resolve in a translated paragraph: ``{glue:text}`` with the content
``page.ipynb::KEY:s`` (the format spec is required: without it ``KEY`` is taken for the spec) and ``{glue}`` with
``page.ipynb::KEY`` (an inline literal); both paste ``text/plain`` only, and ``{glue:md}`` has no cross-document form.

In an edition in another language (Sphinx's ``language``, e.g. ``zh_CN``), every glue role pastes the value glued for
that language, ``KEY__<lang>`` (so does the ``{glue:md}`` directive, which pastes a generated table; :func:`dpcompendium.book.prose.glue` stores it when the text differs from the
English), and ``KEY`` where there is none: the numbers are those of the same execution, the words the edition's.

Listed in ``_config.yml`` (in the English book it changes nothing: no document there is translated).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from docutils import nodes
from myst_nb.ext.glue import directives, roles, utils

from .generated_i18n import CATALOGUE_NAME, _locale_dir, translate

_retrieve = utils.retrieve_glue_data
_md_run = roles.PasteMarkdownRole.run
_any_run = roles.PasteRoleAny.run


def _translated(document: nodes.document) -> bool:
    """The document is a msgstr parsed by Sphinx's i18n transform, without the page's notebook outputs."""
    return "nb_renderer" not in document and str(document.get("source", "")).endswith(
        "<translated>"
    )


def page_glue(document: nodes.document) -> dict[str, Any]:
    """The glue data MyST-NB wrote for the page being read (``{}`` if it glued nothing)."""
    env = document.settings.env
    name = env.docname.split("/")
    path = Path(env.mystnb_config.output_folder, *name[:-1], name[-1] + ".glue.json")
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}


def _edition(document: nodes.document) -> str:
    """The language of the edition being built (``"en"``: the English book)."""
    env = getattr(document.settings, "env", None)
    return (getattr(env.config, "language", None) or "en") if env is not None else "en"


def _keys(document: nodes.document, key: str) -> list[str]:
    """The keys to look for, in order: in an edition in another language, the value glued for that language
    (``key__<lang>``, :func:`dpcompendium.book.prose.glue`) before ``key``."""
    lang = _edition(document)
    return [key] if lang == "en" or "::" in key else [f"{key}__{lang}", key]


def _retrieve_translated(document: nodes.document, key: str) -> utils.VariableOutput:
    *first, last = _keys(document, key)
    for k in first:
        try:
            return _in_edition(document, _retrieve_one(document, k))
        except utils.RetrievalError:
            pass
    return _in_edition(document, _retrieve_one(document, last))


def _depends_on_catalogue(document: nodes.document, lang: str) -> None:
    """The page of an edition in another language depends on the catalogue of generated sentences: a new translation
    there makes Sphinx read the page again (without it, an incremental build kept the page's old, English sentences
    until the chapter was executed again)."""
    env = getattr(document.settings, "env", None)
    if env is not None and lang != "en":
        env.note_dependency(str(_locale_dir() / lang / "LC_MESSAGES" / CATALOGUE_NAME))


def _in_edition(document: nodes.document, found: utils.VariableOutput) -> utils.VariableOutput:
    """In an edition in another language, a glued sentence's ``text/markdown`` translated by skeleton (also where the
    paragraph around it is not translated: a table cell that is only the role)."""
    lang = _edition(document)
    text = found.data.get("text/markdown") if isinstance(found.data, dict) else None
    if lang == "en" or not isinstance(text, str):
        return found
    _depends_on_catalogue(document, lang)
    return utils.VariableOutput(
        data={**found.data, "text/markdown": translate(text, lang)},
        metadata=found.metadata,
        nb_renderer=found.nb_renderer,
        vtype=found.vtype,
        index=found.index,
    )


def _retrieve_one(document: nodes.document, key: str) -> utils.VariableOutput:
    try:
        return _retrieve(document, key)
    except utils.RetrievalError:
        data = page_glue(document) if _translated(document) else {}
        if key not in data:
            raise
        return utils.VariableOutput(
            data=data[key]["data"],
            metadata=data[key].get("metadata", {}),
            nb_renderer=None,  # type: ignore[arg-type]  # only {glue:text} gets here; it needs no renderer
            vtype="glue",
        )


#: The class of every value pasted by ``{glue:md}`` (and ``dpc-glue-KEY``): the tests compare the values of each
#: edition's page key by key.
GLUED_CLASS = "dpc-glue"


def _marked(result, key: str):
    """The role's nodes wrapped in an inline with the classes ``dpc-glue`` and ``dpc-glue-KEY``."""
    pasted, messages = result
    if not pasted:
        return pasted, messages
    return [nodes.inline("", "", *pasted, classes=[GLUED_CLASS, f"{GLUED_CLASS}-{key}"])], messages


def _md_run_translated(self: roles.PasteMarkdownRole):
    return _marked(_md_run_either(self), self.text.rsplit(":", 1)[0])


def _md_run_either(self: roles.PasteMarkdownRole):
    if not _translated(self.document):
        return _md_run(self)
    key = self.text.rsplit(":", 1)[0]
    glued = page_glue(self.document)
    key = next((k for k in _keys(self.document, key) if k in glued), key)
    data = glued.get(key, {}).get("data", {})
    if "text/markdown" not in data:
        msg = f"No text/markdown found in {key!r} data"
        return [], [utils.glue_warning(msg, self.document, self.line)]
    renderer = self.inliner._renderer
    lang = self.document.settings.env.config.language or "en"
    _depends_on_catalogue(self.document, lang)
    text = translate(data["text/markdown"], lang)
    return self.inliner.parse(text, self.line, None, renderer.current_node)


def _any_run_translated(self: roles.PasteRoleAny):
    if not _translated(self.document) or "::" in self.text:
        return _any_run(self)
    glued = page_glue(self.document)
    key = next((k for k in _keys(self.document, self.text) if k in glued), self.text)
    text = glued.get(key, {}).get("data", {}).get("text/plain")
    if text is None:
        msg = f"No key {self.text!r} found in glue data for this document."
        return [], [utils.glue_warning(msg, self.document, self.line)]
    return [nodes.inline(text, text, classes=["output", "text_plain"])], []


def setup(app) -> dict[str, Any]:
    roles.retrieve_glue_data = _retrieve_translated
    # the {glue:md} directive (a generated table, issue 49 F2) pastes the edition's value too
    directives.retrieve_glue_data = _retrieve_translated
    roles.PasteMarkdownRole.run = _md_run_translated
    roles.PasteRoleAny.run = _any_run_translated
    return {"parallel_read_safe": True, "parallel_write_safe": True}
