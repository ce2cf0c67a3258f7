"""The method registry: one registration per method of the book (issue 47).

A :class:`Method` holds every fact the book states about a method in one place: its id (the one the library and the
CSVs use), its name in every language of the book, its colour (the same in every chapter), its legend label and
marker where it has its own, the chapter it belongs to, and references to its estimator, its privacy-claim factory
and its audit specs. Tables (method-name column, :mod:`dpcompendium.core.tables`), figures (colour, legend name and
its translation, :mod:`dpcompendium.core.plotting`), sentences (:func:`dpcompendium.core.messages.method_name`),
claims cards and the audit catalogue (:func:`dpcompendium.chapters.privacy_audit.catalog.catalog`) read it; the
old dictionaries (:data:`~dpcompendium.core.messages.METHOD_NAMES`, :data:`~dpcompendium.core.plotting.METHOD_COLORS`,
``METHOD_LABELS``, ``METHOD_MARKERS``) are live views of it.

Layers: the core registers its own methods and roles here (:data:`CORE`); a chapter registers its methods in one
file, ``chapters/<folder>/methods_registry.py``, which imports nothing but this module (its references to the
chapter's functions are ``"module:attr"`` strings, resolved when used: :meth:`Method.resolve`). The chapter registry
(:func:`dpcompendium.chapters.registry.load_methods`) executes those files, lazily, the first time a view is read
after :mod:`dpcompendium.chapters` has been imported (:func:`set_loader`); the core never imports a chapter.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

__all__ = [
    "CORE",
    "LANGUAGES",
    "Method",
    "colours",
    "get",
    "labels",
    "markers",
    "methods",
    "names",
    "register",
    "registrar",
    "set_loader",
    "unregister",
    "version",
]

#: the languages of the book: a registration names its method in each
LANGUAGES = ("en", "zh_CN")
#: the chapter of the core's own methods and roles
CORE = "core"

_COLOUR = re.compile(r"#[0-9A-Fa-f]{6}")
_ID = re.compile(r"[a-z0-9][a-z0-9_:-]*")


@dataclass(frozen=True)
class Method:
    """One method of the book.

    ``names``: language → name (MyST), for every language of :data:`LANGUAGES` (a name kept in every language is
    given in each); ``colour``: ``"#RRGGBB"``; ``aliases``: other ids of the same method in the library's tables
    (named and coloured as the method); ``legend``: the English legend label where it is not the name (figures
    translate it through their templates); ``marker``: its matplotlib marker where it has its own; ``estimator``,
    ``claim`` (a factory returning a :class:`~dpcompendium.core.privacy.PrivacyClaim`) and ``audit`` (a function
    returning its :class:`~dpcompendium.core.audit.spec.AuditSpec` list): callables or ``"module:attr"`` references;
    ``labels``: the texts a chapter's tables of runs write for it ("MWEM zcdp"), which a readable table shows as its
    name (reader review 4, m8: one display name per method). A registration missing a language or a colour is refused (one-line :class:`ValueError`).
    """

    id: str
    names: Mapping[str, str]
    colour: str
    chapter: str
    estimator: Callable[..., Any] | str | None = None
    claim: Callable[..., Any] | str | None = None
    audit: Callable[..., Any] | str | None = None
    aliases: tuple[str, ...] = ()
    legend: str | None = None
    marker: str | None = None
    labels: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if not isinstance(self.id, str) or not _ID.fullmatch(self.id):
            raise ValueError(
                f"id must be a lower-case id (letters, digits, - _ :), got {self.id!r}"
            )
        if not isinstance(self.names, Mapping):
            raise ValueError(
                f"names must map each of {'|'.join(LANGUAGES)} to a name, got {self.names!r}"
            )
        missing = [lang for lang in LANGUAGES if not str(self.names.get(lang) or "").strip()]
        if missing:
            raise ValueError(
                f"names must name method {self.id!r} in {missing[0]}, got {dict(self.names)!r}"
            )
        if not isinstance(self.colour, str) or not _COLOUR.fullmatch(self.colour):
            raise ValueError(
                f"colour must be '#RRGGBB' for method {self.id!r}, got {self.colour!r}"
            )
        if not isinstance(self.chapter, str) or not self.chapter:
            raise ValueError(f"chapter must be a chapter id or {CORE!r}, got {self.chapter!r}")
        for alias in self.aliases:
            if not isinstance(alias, str) or not _ID.fullmatch(alias) or alias == self.id:
                raise ValueError(f"aliases must be other ids of method {self.id!r}, got {alias!r}")
        for label in self.labels:
            if not isinstance(label, str) or not label.strip():
                raise ValueError(f"labels must be texts naming method {self.id!r}, got {label!r}")
        for what in ("estimator", "claim", "audit"):
            ref = getattr(self, what)
            if not (ref is None or callable(ref) or (isinstance(ref, str) and ":" in ref)):
                raise ValueError(f"{what} must be a callable or 'module:attr', got {ref!r}")

    @property
    def ids(self) -> tuple[str, ...]:
        """The method's id and its aliases."""
        return (self.id, *self.aliases)

    def name(self, lang: str = "en") -> str:
        """The method's name in ``lang`` (English for a language the book does not have)."""
        return str(self.names.get(lang) or self.names["en"])

    def resolve(self, what: str) -> Callable[..., Any] | None:
        """The callable of ``estimator``, ``claim`` or ``audit`` (a ``"module:attr"`` reference imported now)."""
        if what not in ("estimator", "claim", "audit"):
            raise ValueError(f"what must be estimator|claim|audit, got {what!r}")
        ref = getattr(self, what)
        if ref is None or callable(ref):
            return ref
        module, _, attr = ref.partition(":")
        obj: Any = importlib.import_module(module)
        for part in attr.split("."):
            obj = getattr(obj, part)
        return obj

    def audit_specs(self) -> list:
        """The method's audit specs (``audit()``); empty if it declares none."""
        func = self.resolve("audit")
        return [] if func is None else list(func())


_REGISTRY: dict[str, Method] = {}
_BY_ID: dict[str, Method] = {}
_VERSION = [0]
_LOADER: list[Callable[[], None] | None] = [None]


def register(method: Method) -> Method:
    """Add ``method`` to the registry (again from the same chapter: replaces it); an id or alias another method
    already has is refused."""
    if not isinstance(method, Method):
        raise ValueError(f"method must be a Method, got {type(method).__name__}")
    for key in method.ids:
        owner = _BY_ID.get(key)
        if owner is not None and (owner.id != method.id or owner.chapter != method.chapter):
            raise ValueError(
                f"method id {key!r} is already registered by {owner.chapter}:{owner.id}"
            )
    old = _REGISTRY.get(method.id)
    if old is not None:
        for key in old.ids:
            _BY_ID.pop(key, None)
    _REGISTRY[method.id] = method
    _BY_ID.update(dict.fromkeys(method.ids, method))
    _VERSION[0] += 1
    return method


def unregister(method_id: str) -> None:
    """Remove a method (a test's toy method); an unknown id is refused."""
    method = _REGISTRY.pop(method_id, None)
    if method is None:
        raise ValueError(f"method_id must be a registered method, got {method_id!r}")
    for key in method.ids:
        _BY_ID.pop(key, None)
    _VERSION[0] += 1


def set_loader(loader: Callable[[], None]) -> None:
    """The function that registers the chapters' methods (:func:`dpcompendium.chapters.registry.load_methods`),
    called once, the first time the registry is read."""
    _LOADER[0] = loader


def _load() -> None:
    loader, _LOADER[0] = _LOADER[0], None
    if loader is not None:
        try:
            loader()
        except BaseException:
            _LOADER[0] = (
                loader  # a registration that failed is an error each time, never a silent gap
            )
            raise


def version() -> int:
    """A counter that changes with every registration (caches built from the registry key on it)."""
    _load()
    return _VERSION[0]


def get(method_id: str) -> Method:
    """The method registered under ``method_id`` (an id or an alias)."""
    _load()
    try:
        return _BY_ID[str(method_id)]
    except KeyError:
        raise ValueError(f"method_id must be a registered method, got {method_id!r}") from None


def methods(chapter: str | None = None) -> list[Method]:
    """Every registered method (of ``chapter`` only, if given), in registration order."""
    _load()
    return [m for m in _REGISTRY.values() if chapter is None or m.chapter == chapter]


def _by_id(value: Callable[[Method], Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for m in methods():
        v = value(m)
        if v is not None:
            out.update(dict.fromkeys(m.ids, v))
    return out


def names(lang: str = "en") -> dict[str, str]:
    """id (and alias) → name in ``lang``; for a language other than English only the names that differ from the
    English one (the others keep their English name)."""
    if lang == "en":
        return _by_id(lambda m: m.name("en"))
    return _by_id(lambda m: m.name(lang) if m.name(lang) != m.name("en") else None)


def colours() -> dict[str, str]:
    """id (and alias) → colour."""
    return _by_id(lambda m: m.colour)


def labels() -> dict[str, str]:
    """id → legend label, for the methods whose legend is not their name."""
    return _by_id(lambda m: m.legend)


def table_labels() -> dict[str, str]:
    """A label of a table of runs (:attr:`Method.labels`) → the id of the method it names."""
    out: dict[str, str] = {}
    for m in methods():
        out.update(dict.fromkeys(m.labels, m.id))
    return out


def markers() -> dict[str, str]:
    """id → marker, for the methods that have their own."""
    return _by_id(lambda m: m.marker)


class View(Mapping):
    """A read-only mapping computed from the registry each time it is read (the old dictionaries, kept as views)."""

    def __init__(self, build: Callable[[], Mapping]):
        self._build = build

    def __getitem__(self, key):
        return self._build()[key]

    def __iter__(self) -> Iterator:
        return iter(self._build())

    def __len__(self) -> int:
        return len(self._build())

    def __repr__(self) -> str:
        return repr(dict(self._build()))


# the core's colours (Okabe-Ito, as dpcompendium.core.plotting.OKABE_ITO)
_BLUE, _VERMILLION, _GREEN, _ORANGE = "#0072B2", "#D55E00", "#009E73", "#E69F00"
_BLACK, _GREY = "#000000", "#999999"


def registrar(chapter: str, package: str | None = None, **shared: Any) -> Callable[..., Method]:
    """The one call a chapter registers each of its methods with.

    ``method = registrar(CHAPTER, __package__)`` in ``chapters/<folder>/methods_registry.py``, then one call per
    method: ``method(id, en, zh, colour, estimator=".module:attr", claim=..., audit=..., legend=..., ...)`` —
    ``en`` and ``zh`` its English and Chinese names (``zh`` None: the English name is kept in every language), a
    reference starting with ``.`` is relative to ``package`` (the chapter's package), and ``shared`` holds the
    keywords every method of the chapter has unless its call gives its own (e.g. one ``claim`` for all, or a
    ``colour``). Returns the registered :class:`Method`; :class:`Method` refuses a missing name or colour.
    """

    def relative(ref: Any) -> Any:
        if not (isinstance(ref, str) and ref.startswith(".")):
            return ref
        if not package:
            raise ValueError(f"package must be given for a relative reference, got {ref!r}")
        return package + ref

    def method(
        id: str, en: str, zh: str | None = None, colour: str | None = None, **kw: Any
    ) -> Method:
        kw = {**shared, **kw}
        colour = colour if colour is not None else kw.pop("colour", None)
        kw.pop("colour", None)
        for what in ("estimator", "claim", "audit"):
            if what in kw:
                kw[what] = relative(kw[what])
        return register(Method(id, {"en": en, "zh_CN": zh or en}, colour, chapter, **kw))

    return method


_RANGES = ".ranges"
_core = registrar(CORE, "dpcompendium.core.mechanisms", colour=_GREY)


# roles: the source's method as written (vermillion), its corrected or private variant (blue), references
_core("as-written", "as written", "原文写法", _VERMILLION)
_core("as-written:sum", "sum, as written", "对和加噪，原文写法")
_core("as-written:mean", "mean, as written", "对均值加噪，原文写法")
_core("private:sum", "sum, private", "对和加噪，满足差分隐私")
_core("private:mean", "mean, private", "对均值加噪，满足差分隐私")
_core("corrected", "corrected", "修正后", _BLUE)
_core("private", "private", "满足差分隐私", _BLUE)
_core("non-private", "non-private", "无隐私保护", _BLACK)
_core("mean", "mean", "均值")
_core("sum", "sum", "求和")
_core("count", "count", "计数")
# the core's range-query mechanisms (histograms, MWEM)
_core(
    "identity",
    "Identity",
    None,
    estimator=f"{_RANGES}:identity",
    claim=f"{_RANGES}:range_claim",
)
_core(
    "laplace-public-n",
    "Laplace, public $n$",
    "拉普拉斯机制，公开的 $n$",
    estimator=".laplace:laplace_mechanism",
)
_core(
    "hb",
    "Hierarchical ($H_b$)",
    "层次方法（$H_b$）",
    _GREEN,
    aliases=("hierarchical",),
    estimator=f"{_RANGES}:hb",
    claim=f"{_RANGES}:range_claim",
)
_core("dawa", "DAWA", None, _BLUE, estimator=".dawa:dawa")
_core(
    "privelet",
    "Privelet",
    None,
    _ORANGE,
    estimator=f"{_RANGES}:privelet",
    claim=f"{_RANGES}:range_claim",
)
_core(
    "least_squares",
    "Least squares",
    "最小二乘",
    _BLACK,
    estimator=f"{_RANGES}:least_squares",
    claim=f"{_RANGES}:range_claim",
)
