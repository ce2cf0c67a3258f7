"""Random streams.

Every random function in the library takes ``rng: numpy.random.Generator``. Monte-Carlo repetitions get independent
streams from :meth:`numpy.random.SeedSequence.spawn`, so a result depends only on the seed and on the position of the
repetition in the sweep — never on scheduling, worker count or the order in which tasks finish.
"""

from __future__ import annotations

import numpy as np

from dpcompendium.core.validation import check_int

__all__ = ["child_seeds", "generators", "make_rng"]


def make_rng(seed: int | np.random.SeedSequence) -> np.random.Generator:
    """A PCG64 generator from an integer seed or a SeedSequence."""
    if isinstance(seed, np.random.SeedSequence):
        return np.random.Generator(np.random.PCG64(seed))
    return np.random.default_rng(check_int(seed, "seed", minimum=0))


def child_seeds(seed: int | np.random.SeedSequence, n: int) -> list[np.random.SeedSequence]:
    """``n`` independent child SeedSequences of ``seed`` (``SeedSequence(seed).spawn(n)``)."""
    n = check_int(n, "n", minimum=0)
    ss = (
        seed
        if isinstance(seed, np.random.SeedSequence)
        else np.random.SeedSequence(check_int(seed, "seed", minimum=0))
    )
    return ss.spawn(n)


def generators(seed: int | np.random.SeedSequence, n: int) -> list[np.random.Generator]:
    """``n`` independent generators, one per repetition."""
    return [make_rng(s) for s in child_seeds(seed, n)]
