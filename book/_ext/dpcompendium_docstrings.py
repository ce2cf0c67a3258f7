"""Sphinx hook for the Library reference (book/api): read the library's docstrings as they are written.

The docstrings write absolute values, norms and conditional probabilities in plain text — ``|x|``, ``P[G | x]``,
``‖E‖`` — which reStructuredText would read as substitution references (``|x|``) and reject. This hook escapes every
``|`` outside inline literals and interpreted text (roles such as ``:math:`|x|``` keep theirs), so that the text
renders as written and the strict build stays warning-free without rewriting formulas in the docstrings.

Citations: the docstrings cite the works of ``book/references.bib`` by key in brackets, ``[src_hiera]`` or
``[src_hiera, becker1996adult]`` (readable in ``help()``); the hook turns every bracket that holds bibliography keys
into a ``:cite:p:`` role, so that the Library reference links them to the book's bibliography like the chapters do
(other text in the bracket, such as ````user.per_value````, follows in parentheses).

It also resolves the short names the docstrings use. Each object is documented once, under the module that defines
it (``dpcompendium.chapters.mwem.core.mwem``), while a package docstring names it as the package exports it
(``:func:`mwem``` in ``dpcompendium.chapters.mwem``, or ``dpcompendium.chapters.hiera.plc_counts``). A Python reference that Sphinx
cannot resolve is looked up by its last component among the objects documented *inside the same package*; if
exactly one matches, the reference points to it. Ambiguous or unknown names still fail the strict build.
"""

from __future__ import annotations

import re

#: Inline literals (````…````) and interpreted text / roles (```…```), left untouched.
_PROTECTED = re.compile(r"(``.+?``|`[^`]+`)")


def escape_bars(line: str) -> str:
    """``line`` with every ``|`` outside inline literals and interpreted text escaped as ``\\|``."""
    if "|" not in line:
        return line
    parts = _PROTECTED.split(line)
    return "".join(p if _PROTECTED.fullmatch(p) else p.replace("|", r"\|") for p in parts)


#: A bracket that may hold bibliography keys: ``[key]``, ``[key1, key2]``, ``[key, ``more``]``.
_BRACKET = re.compile(r"\[([^\[\]]+)\]")
_KEY = re.compile(r"@\w+\s*\{\s*([^,\s]+)\s*,")


def bib_keys(app) -> frozenset[str]:
    """The keys of the book's bibliography files (``bibtex_bibfiles``), read once per build."""
    keys = getattr(app, "_dpc_bib_keys", None)
    if keys is None:
        from pathlib import Path

        found: set[str] = set()
        for name in getattr(app.config, "bibtex_bibfiles", None) or []:
            path = Path(app.srcdir) / name
            if path.is_file():
                found.update(_KEY.findall(path.read_text(encoding="utf8")))
        keys = app._dpc_bib_keys = frozenset(found)
    return keys


def cite_keys(line: str, keys: frozenset[str]) -> str:
    """``line`` with every bracket that holds bibliography ``keys`` written as a ``:cite:p:`` role."""
    if "[" not in line:
        return line

    def repl(m: re.Match) -> str:
        parts = [p.strip() for p in m.group(1).split(",")]
        cited = [p for p in parts if p in keys]
        if not cited:
            return m.group(0)
        rest = [p for p in parts if p not in keys]
        return f":cite:p:`{','.join(cited)}`" + (f" ({', '.join(rest)})" if rest else "")

    return _BRACKET.sub(repl, line)


def _process(app, what, name, obj, options, lines: list[str]) -> None:
    keys = bib_keys(app)
    lines[:] = [escape_bars(cite_keys(line, keys)) for line in lines]


def _by_last_name(domain) -> dict[str, list[tuple[str, str]]]:
    """The Python domain's objects that are not aliases, as last name component → [(full name, objtype)]; kept on
    the domain and rebuilt when its number of objects changes (a build resolves thousands of references: scanning
    every object for each took over a second of the strict build)."""
    objects = domain.objects
    cached = getattr(domain, "_dpc_by_last_name", None)
    if cached is None or cached[0] != len(objects):
        index: dict[str, list[tuple[str, str]]] = {}
        for full, obj in objects.items():
            if not obj.aliased:
                index.setdefault(full.rsplit(".", 1)[-1], []).append((full, obj.objtype))
        cached = (len(objects), index)
        domain._dpc_by_last_name = cached
    return cached[1]


def _resolve(app, env, node, contnode):
    """missing-reference handler: a unique match by last name component, within the referring package."""
    if node.get("refdomain") != "py":
        return None
    target = node.get("reftarget", "").lstrip("~")
    name = target.rsplit(".", 1)[-1]
    here = node.get("py:module") or ""
    if not here.startswith("dpcompendium"):
        return None
    # the referring package: dpcompendium.<layer>.<sub> (a chapter folder, a core or book subpackage or module; or
    # dpcompendium itself), and for a dotted target its own package
    parts = here.split(".")
    depth = 3 if len(parts) > 2 and parts[1] in ("core", "book", "chapters") else 2
    scopes = {".".join(parts[:depth])}
    if target.startswith("dpcompendium."):
        scopes.add(target.rsplit(".", 1)[0])
    domain = env.get_domain("py")
    roles = domain.objtypes_for_role(node.get("reftype", "obj")) or []
    matches = sorted(
        full
        for full, objtype in _by_last_name(domain).get(name, ())
        if objtype in roles and any(full == s or full.startswith(s + ".") for s in scopes)
    )
    if len(matches) != 1:
        return None
    return domain.resolve_xref(
        env, node.get("refdoc"), app.builder, node.get("reftype"), matches[0], node, contnode
    )


def setup(app):
    app.connect("autodoc-process-docstring", _process)
    app.connect("missing-reference", _resolve)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
