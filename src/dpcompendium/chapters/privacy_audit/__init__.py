"""Privacy audits: does each mechanism of the book deliver the ε it claims? (this chapter's library code)

The auditing engine is :mod:`dpcompendium.core.audit` (exact and empirical audits, audit specs); its public names
are also reachable from this package, as are those of the modules below (``privacy_audit.run_catalog``,
``privacy_audit.exact_audit``), each imported on first use. Coursework mode, ``dpcompendium audit`` on a user's own
function, is :mod:`dpcompendium.book.usercode`.

- :mod:`.planted` — three deliberately broken mechanisms the audits must catch.
- :mod:`.floating` — Mironov's floating-point attack on textbook Laplace sampling [mironov2012significance] and the
  snapping mechanism as a hardened option.
- :mod:`.catalog` — discovers every chapter's audit specs (``dpcompendium/chapters/<folder>/audits.py``; this
  chapter's planted and floating-point rows in :mod:`.audits`); ``run_catalog`` produces the chapter's ``audit.csv``.
- :mod:`.profiles` — whole-profile audits of the (ε, δ) rows (``run_profiles``: the chapter's ``profiles.csv``).
"""

from __future__ import annotations

import importlib
from typing import Any

# the function, not the module of the same name (a lazily imported submodule would shadow it)
from .catalog import catalog as catalog

#: where this package's public names live: its own modules, then the auditing engine of the core
_SOURCES = (
    f"{__name__}.catalog",
    f"{__name__}.planted",
    f"{__name__}.floating",
    f"{__name__}.audits",
    f"{__name__}.profiles",
    "dpcompendium.core.audit",
)


def __getattr__(name: str) -> Any:
    for source in _SOURCES:
        module = importlib.import_module(source)
        if name in getattr(module, "__all__", ()):
            return getattr(module, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    names = {n for s in _SOURCES for n in getattr(importlib.import_module(s), "__all__", ())}
    return sorted(names | set(globals()))
