"""The book layer: the machinery around the chapters.

The chapter contract (:mod:`~dpcompendium.book.contract`), the notebook helpers (:mod:`~dpcompendium.book.chapter`),
the execution store and Sphinx extension, the rerun page, the fuzz, the ``dpcompendium`` command and coursework mode
(:mod:`~dpcompendium.book.usercode`, :mod:`~dpcompendium.book.check`). It imports the chapters and the core; neither
imports it.
"""
