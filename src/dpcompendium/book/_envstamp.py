"""An edition's Sphinx environment is dropped when the book's own extensions change.

Sphinx keeps the pages it read (``<doctrees>/environment.pickle`` and one doctree per page) and reads a page again only
when the page's file changed (``dpcompendium.book.sphinxext`` adds the chapters whose execution changed). The book's
own extensions (``dpcompendium.book.*``, ``book/_ext/*``) transform a page while it is read: the Chinese edition's
translations of glued values and exercise titles, the table numbers, the tidied numbers. When one of them changes,
the pages read before keep the old transformation — until now the remedy was ``rm -rf _build/.zh_CN/doctrees``.

:func:`drop_stale_environment` records a hash of the extensions' sources next to an edition's doctrees
(``<doctrees>.extensions.sha256``) and removes the doctrees when the hash differs (or was never recorded), so Sphinx
starts from a fresh environment and reads every page with the current extensions. ``dpcompendium book`` calls it for
the English doctrees (``_build/.doctrees``) and ``dpcompendium i18n build`` for each edition's
(``_build/.<lang>/doctrees``); ``--all`` asks Sphinx for a fresh environment outright.
"""

from __future__ import annotations

import hashlib
import shutil
from collections.abc import Iterable
from pathlib import Path

#: The package ``dpcompendium`` (the installed one, which Sphinx imports the extensions from).
PACKAGE = Path(__file__).resolve().parents[1]

#: The sources of the book's own Sphinx extensions, as (folder, glob) pairs; ``None`` stands for the book's root: the
#: modules of ``dpcompendium.book`` (the extensions and the modules they import), the message catalogues they render
#: into pages that are not executed (rerun boxes, execution reports), and the book's local extensions (``book/_ext``).
EXTENSION_SOURCES: tuple[tuple[Path | None, str], ...] = (
    (PACKAGE, "book/*.py"),
    (PACKAGE, "core/messages.py"),
    (None, "book/_ext/*.py"),
)


def extension_files(
    root: Path, sources: Iterable[tuple[Path | None, str]] = EXTENSION_SOURCES
) -> list[tuple[str, Path]]:
    """(name, file) of every file of ``sources`` (``None`` as a folder: ``root``), sorted; a name is the file's path
    relative to its folder."""
    found = {}
    for base, pattern in sources:
        folder = Path(root if base is None else base)
        for path in folder.glob(pattern):
            if path.is_file():
                found[path.relative_to(folder).as_posix()] = path
    return sorted(found.items())


def extension_hash(
    root: Path, sources: Iterable[tuple[Path | None, str]] = EXTENSION_SOURCES
) -> str:
    """SHA-256 over the name and the bytes of every file of ``sources`` (:func:`extension_files`)."""
    h = hashlib.sha256()
    for name, path in extension_files(root, sources):
        h.update(name.encode())
        h.update(b"\0")
        h.update(hashlib.sha256(path.read_bytes()).digest())
    return h.hexdigest()


def stamp_path(doctrees: Path) -> Path:
    """Where the hash of the extensions that read ``doctrees`` is kept: beside it, ``<doctrees>.extensions.sha256``."""
    doctrees = Path(doctrees)
    return doctrees.with_name(doctrees.name + ".extensions.sha256")


def drop_stale_environment(doctrees: Path, digest: str) -> bool:
    """Remove ``doctrees`` if it was read by other extensions than those hashed to ``digest`` (or by unknown ones: no
    stamp), then record ``digest``. Returns whether doctrees were removed. Recording before the build is safe: once
    removed, whatever Sphinx writes there was read by the current extensions."""
    doctrees = Path(doctrees)
    stamp = stamp_path(doctrees)
    recorded = stamp.read_text(encoding="utf8").strip() if stamp.is_file() else None
    dropped = False
    if recorded != digest and doctrees.exists():
        shutil.rmtree(doctrees)
        dropped = True
    if recorded != digest:
        stamp.parent.mkdir(parents=True, exist_ok=True)
        stamp.write_text(digest + "\n", encoding="utf8")
    return dropped
