"""Sphinx hook: pybtex looks an installed plugin up once per build, not once per citation.

sphinxcontrib-bibtex asks pybtex for its formatting and backend plugins at every citation it resolves
(``pybtex.plugin.find_plugin``), and pybtex 0.26 answers each time by scanning the entry points of every installed
distribution (``importlib.metadata.entry_points(group=..., name=...)``): 14 ms a call, about 190 calls, 2.6 s of
the strict build. This hook gives pybtex's plugin module an ``entry_points`` that keeps each (group, name) answer for
the life of the process. Plugins registered at run time (``pybtex.plugin.register_plugin``) are still looked up
first, as before; only the scan of installed distributions, which cannot change during a build, is kept.
"""

from __future__ import annotations

import functools


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
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
