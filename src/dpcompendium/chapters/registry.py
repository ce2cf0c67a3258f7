"""The chapters of the book, discovered from their manifests: the one registry every other registry derives from.

A chapter is a folder of this package (``dpcompendium/chapters/<folder>/``) holding its library code, its audit
specs (``audits.py``: ``audit_specs() -> list[AuditSpec]``) and a manifest, ``manifest.toml``: the chapter's id, title,
notebook, the datasets it needs, its fuzz size, its wall-time hint and its headline cells. The manifests are read as
data (nothing is imported), and ordered by the book's table of contents, ``_toc.yml``: a chapter whose notebook the
table of contents does not list is not in the book, and is not listed.

The CLI's chapter list (:func:`dpcompendium.book.contract.chapters`), the audit catalogue
(:func:`dpcompendium.chapters.privacy_audit.catalog.catalog`), the fuzz sizes (:mod:`dpcompendium.book.fuzz`), the
test schedule's hint (``tools/run_tests.py``) and the book tests read :func:`manifests`.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import sys
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from ..core.paths import repo_root

__all__ = [
    "Manifest",
    "chapter_id",
    "chapter_ids",
    "get_manifest",
    "load_methods",
    "manifests",
    "toc_files",
    "toc_notebooks",
]

#: where the chapter folders are
PACKAGE_DIR = Path(__file__).resolve().parent
#: more folders of chapter folders (``os.pathsep``-separated): chapters kept outside the package, e.g. a course's own
PATH_ENV = "DPCOMPENDIUM_CHAPTER_PATH"
MANIFEST = "manifest.toml"
#: the file of a chapter folder that registers its methods (:func:`load_methods`)
METHODS_FILE = "methods_registry.py"
_FIELDS = ("id", "title", "notebook")


@dataclass(frozen=True)
class Manifest:
    """One chapter's manifest (``<folder>/manifest.toml``)."""

    id: str
    title: str
    notebook: str  # relative to the repository root
    folder: Path
    package: str  # the chapter's Python package, e.g. ``dpcompendium.chapters.<folder>``
    datasets: tuple[
        tuple[str, str], ...
    ] = ()  # (registry name, condition over the parameters; "" = always)
    time_hint_s: float = 60.0
    headline_cells: tuple[str, ...] = ()
    fuzz: dict[str, Any] = field(default_factory=dict)
    claims: dict[str, Any] = field(default_factory=dict)
    # what a run needs: memory_bytes, an expression over the parameters (dpcompendium.book.preflight)
    resources: dict[str, Any] = field(default_factory=dict)

    @property
    def audits_module(self) -> str | None:
        """The module declaring the chapter's audit specs (``<folder>/audits.py``), if it has one."""
        return f"{self.package}.audits" if (self.folder / "audits.py").is_file() else None

    def audit_specs(self) -> list:
        """The chapter's ``audits.audit_specs()`` (a list of :class:`~dpcompendium.core.audit.spec.AuditSpec`);
        empty if the chapter has no ``audits.py``. A chapter outside the package is imported from its file."""
        name = self.audits_module
        if name is None:
            return []
        if self.folder.parent != PACKAGE_DIR and name not in sys.modules:
            spec = importlib.util.spec_from_file_location(name, self.folder / "audits.py")
            module = importlib.util.module_from_spec(spec)
            sys.modules[name] = module
            spec.loader.exec_module(module)
        return list(importlib.import_module(name).audit_specs())

    @property
    def methods_file(self) -> Path | None:
        """The file registering the chapter's methods (``<folder>/methods_registry.py``), if it has one."""
        path = self.folder / METHODS_FILE
        return path if path.is_file() else None


def load_methods() -> None:
    """Register every chapter's methods (:mod:`dpcompendium.core.methods`): execute each chapter's
    ``methods_registry.py``, in book order, without importing the chapter's package (the file imports only the
    registries); a file already imported is not executed again."""
    for m in manifests():
        path = m.methods_file
        name = f"{m.package}.{METHODS_FILE[:-3]}"
        if path is None or name in sys.modules:
            continue
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        try:
            spec.loader.exec_module(module)
        except BaseException:
            del sys.modules[name]
            raise


def _read(folder: Path, package: str) -> Manifest:
    path = folder / MANIFEST
    try:
        data = tomllib.loads(path.read_text(encoding="utf8"))
    except tomllib.TOMLDecodeError as exc:
        raise ValueError(f"{path}: not valid TOML: {exc}") from exc
    missing = [k for k in _FIELDS if not isinstance(data.get(k), str) or not data[k]]
    if missing:
        raise ValueError(f"{path}: manifest must give {', '.join(missing)} (strings), got {data!r}")
    known = {
        *_FIELDS,
        "datasets",
        "time_hint_s",
        "headline_cells",
        "fuzz",
        "claims",
        "resources",
    }
    unknown = sorted(set(data) - known)
    if unknown:
        raise ValueError(
            f"{path}: unknown manifest key {unknown[0]!r} (known: {', '.join(sorted(known))})"
        )
    return Manifest(
        id=data["id"],
        title=data["title"],
        notebook=data["notebook"],
        folder=folder,
        package=package,
        datasets=tuple(_dataset(path, d) for d in data.get("datasets", ())),
        time_hint_s=float(data.get("time_hint_s", 60.0)),
        headline_cells=tuple(data.get("headline_cells", ())),
        fuzz=dict(data.get("fuzz", {})),
        claims=dict(data.get("claims", {})),
        resources=dict(data.get("resources", {})),
    )


def chapter_id(module: str) -> str:
    """The id of the chapter a module belongs to (``chapter_id(__name__)`` in a chapter's code), read from the
    manifest of its folder: a chapter's code never types its own id."""
    prefix = f"{__package__}."
    if module.startswith(prefix):
        folder = PACKAGE_DIR / module[len(prefix) :].split(".")[0]
    elif module in sys.modules and getattr(sys.modules[module], "__file__", None):
        folder = (
            Path(sys.modules[module].__file__).resolve().parent
        )  # a chapter outside the package
    else:
        raise ValueError(
            f"module must be inside {__package__} or an imported chapter module, got {module!r}"
        )
    if not (folder / MANIFEST).is_file():
        raise ValueError(
            f"module must be inside a chapter folder (with a {MANIFEST}), got {module!r}"
        )
    return _read(folder, module.rsplit(".", 1)[0]).id


def _dataset(path: Path, entry: Any) -> tuple[str, str]:
    if isinstance(entry, str):
        return entry, ""
    if (
        not isinstance(entry, dict)
        or not isinstance(entry.get("name"), str)
        or set(entry) - {"name", "when"}
    ):
        raise ValueError(f"{path}: a dataset must be {{ name = ..., when = ... }}, got {entry!r}")
    return entry["name"], str(entry.get("when", ""))


def toc_files(toc: Path | None = None) -> list[str]:
    """Every file of the table of contents ``toc`` (default: the book's ``_toc.yml``), root first, as written there,
    in book order: the one reader of ``_toc.yml`` (the chapter order, the PDF's pages and the book tests use it)."""
    data = yaml.safe_load(Path(toc or repo_root() / "_toc.yml").read_text(encoding="utf8"))
    files = [data["root"]]

    def walk(entries: Any) -> None:
        for entry in entries or []:
            if "file" in entry:
                files.append(entry["file"])
            for key in ("chapters", "sections", "parts"):
                walk(entry.get(key))

    walk(data.get("parts"))
    walk(data.get("chapters"))
    return files


def toc_notebooks(root: Path | None = None) -> list[str]:
    """The notebooks of ``_toc.yml`` (``notebooks/<id>``, no suffix), in book order."""
    files = toc_files((root or repo_root()) / "_toc.yml")
    return [f.removesuffix(".ipynb") for f in files if f.startswith("notebooks/")]


def manifests(root: Path | None = None) -> list[Manifest]:
    """Every chapter folder's manifest whose notebook ``_toc.yml`` lists, in book order (ValueError on two chapters
    with one id)."""
    found: dict[str, Manifest] = {}
    extra = [Path(p) for p in os.environ.get(PATH_ENV, "").split(os.pathsep) if p]
    for base in [PACKAGE_DIR, *extra]:
        for folder in sorted(p for p in base.iterdir() if (p / MANIFEST).is_file()):
            package = (
                f"{__package__}.{folder.name}"
                if base == PACKAGE_DIR
                else f"dpcompendium_chapter_{folder.name}"
            )
            _add(found, _read(folder, package))
    order = toc_notebooks(root)
    by_notebook = {m.notebook.removesuffix(".ipynb"): m for m in found.values()}
    return [by_notebook[n] for n in order if n in by_notebook]


def _add(found: dict[str, Manifest], m: Manifest) -> None:
    if m.id in found:
        raise ValueError(f"two chapters have the id {m.id!r}: {found[m.id].folder} and {m.folder}")
    found[m.id] = m


def chapter_ids(root: Path | None = None) -> tuple[str, ...]:
    """The chapter ids in book order."""
    return tuple(m.id for m in manifests(root))


def get_manifest(chapter_id: str, root: Path | None = None) -> Manifest:
    """One chapter's manifest; ValueError naming the id if there is none."""
    for m in manifests(root):
        if m.id == chapter_id:
            return m
    raise ValueError(f"chapter must be one of {', '.join(chapter_ids(root))}, got {chapter_id!r}")
