"""The chapters: one folder per chapter, each with its library code, its audit specs and its manifest.

:mod:`~dpcompendium.chapters.registry` discovers the chapters from their manifests, in the order of ``_toc.yml``.
A chapter imports the core (:mod:`dpcompendium.core`), never another chapter's folder nor the book layer. Each
chapter registers its methods in ``<folder>/methods_registry.py``; importing this package lets the method registry
(:mod:`dpcompendium.core.methods`) load them when it is first read (:func:`~dpcompendium.chapters.registry.load_methods`).
"""

from ..core import methods as _methods
from . import registry as _registry

_methods.set_loader(_registry.load_methods)
