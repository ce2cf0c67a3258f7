"""The core every chapter uses and none re-implements.

:mod:`~dpcompendium.core.privacy` (privacy claims, validated on construction), :mod:`~dpcompendium.core.validation`,
:mod:`~dpcompendium.core.rng` (random streams), :mod:`~dpcompendium.core.parallel` (joblib/Dask),
:mod:`~dpcompendium.core.data` (the data registry), :mod:`~dpcompendium.core.mechanisms` (textbook mechanisms),
:mod:`~dpcompendium.core.experiments` (sweeps, bootstrap intervals, run summaries) and
:mod:`~dpcompendium.core.audit` (the auditing engine every chapter's audit specs use). Nothing here imports a chapter
(:mod:`dpcompendium.chapters`) or the book layer (:mod:`dpcompendium.book`).
"""
