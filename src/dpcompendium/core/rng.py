"""Random streams.

Every random function in the library takes ``rng: numpy.random.Generator``. Monte-Carlo repetitions get independent
streams from :meth:`numpy.random.SeedSequence.spawn`, so a result depends only on the seed and on the position of the
repetition in the sweep — never on scheduling, worker count or the order in which tasks finish.
"""

from __future__ import annotations

import numpy as np

from .validation import check_int

__all__ = ["child_seeds", "generators", "make_rng"]


def make_rng(seed: int | np.random.SeedSequence) -> np.random.Generator:
    """A PCG64 generator from an integer seed or a SeedSequence."""
    if isinstance(seed, np.random.SeedSequence):
        return np.random.Generator(np.random.PCG64(seed))
    return np.random.default_rng(check_int(seed, "seed", minimum=0))


def seed_sequence(seed: int | np.random.SeedSequence) -> np.random.SeedSequence:
    """``seed`` as a SeedSequence (an integer seed must be >= 0; a SeedSequence is returned as it is)."""
    if isinstance(seed, np.random.SeedSequence):
        return seed
    return np.random.SeedSequence(check_int(seed, "seed", minimum=0))


def child_seed(seed: int | np.random.SeedSequence, index: int) -> np.random.SeedSequence:
    """Child ``index`` of ``seed``: equal to ``SeedSequence(seed).spawn(index + 1)[index]``, built from the position
    alone (a SeedSequence argument is not advanced). The one child-seed helper of the library: chunks, rows and
    repetitions that must get the stream a spawn would give them, wherever they run."""
    root = seed_sequence(seed)
    index = check_int(index, "index", minimum=0)
    return np.random.SeedSequence(
        root.entropy, spawn_key=(*root.spawn_key, index), pool_size=root.pool_size
    )


def child_seeds(seed: int | np.random.SeedSequence, n: int) -> list[np.random.SeedSequence]:
    """``n`` independent child SeedSequences of ``seed`` (``SeedSequence(seed).spawn(n)``; a SeedSequence argument
    is advanced, as ``spawn`` does)."""
    n = check_int(n, "n", minimum=0)
    return seed_sequence(seed).spawn(n)


def generators(seed: int | np.random.SeedSequence, n: int) -> list[np.random.Generator]:
    """``n`` independent generators, one per repetition."""
    return [make_rng(s) for s in child_seeds(seed, n)]
