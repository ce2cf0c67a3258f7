"""The chapters: one folder per chapter, each with its library code, its audit specs and its manifest.

:mod:`~dpcompendium.chapters.registry` discovers the chapters from their manifests, in the order of ``_toc.yml``.
A chapter imports the core (:mod:`dpcompendium.core`), never another chapter's folder nor the book layer.
"""
