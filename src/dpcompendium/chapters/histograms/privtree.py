"""PrivTree (``zhang2016privtree``) for a 1-D histogram: a binary decomposition of the domain whose split decisions
read a *biased* count, so that the tree's depth needs no budget of its own, then Laplace noise on the leaf counts.

Neighbours: add-remove (one record more or less changes one bin by 1), the paper's relation. With ``β = 2`` (a binary
split of an interval), the tree half of the budget ``ε_tree = ε/2`` and

    λ = (2β − 1)/(β − 1) / ε_tree = 3/ε_tree,    δ = λ·ln β,

the tree is ``ε_tree``-DP (the paper's Theorem 3.2, for any threshold θ); the leaves partition the domain, so their
counts have L1 sensitivity 1 and ``Lap(1/ε_count)`` with ``ε_count = ε − ε_tree`` makes the release ε-DP by
sequential composition. A node of one bin is never split (the paper's tree on a continuous domain, pruned at a fixed
depth: post-processing).

The tree is built level by level, vectorized over the nodes of a level and over repetitions (numpy masks of shape
``(size, 2^d)``); :func:`privtree_reference` is the paper's Algorithm 1 as a loop over nodes, kept as the reference a
test compares the distribution of leaves with.
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import ArrayLike

from ._common import finish, prepare, share

__all__ = ["PRIVTREE_FANOUT", "privtree", "privtree_parameters", "privtree_reference"]

#: the fanout β of the 1-D tree (a binary split of an interval)
PRIVTREE_FANOUT = 2


def privtree_parameters(
    epsilon: float, *, tree_share: float = 0.5, theta: float = 0.0
) -> dict[str, float]:
    """The constants of PrivTree at total budget ``epsilon``: ``eps_tree`` (``tree_share``·ε), ``eps_count``, the
    split noise scale ``lam`` = (2β − 1)/((β − 1)·eps_tree), the decay ``delta`` = lam·ln β and the threshold
    ``theta`` (β = :data:`PRIVTREE_FANOUT`)."""
    eps = float(epsilon)
    r = share(tree_share, "tree_share")
    if isinstance(theta, bool) or not isinstance(theta, int | float) or not math.isfinite(theta):
        raise ValueError(f"theta must be a finite number, got {theta!r}")
    beta = PRIVTREE_FANOUT
    eps_tree = r * eps
    lam = (2 * beta - 1) / (beta - 1) / eps_tree
    return {
        "eps_tree": eps_tree,
        "eps_count": eps - eps_tree,
        "lam": lam,
        "delta": lam * math.log(beta),
        "theta": float(theta),
    }


def _padded(arr: np.ndarray) -> tuple[np.ndarray, int]:
    """``arr`` padded with empty bins to 2^h bins (data-independent), and h."""
    h = max(0, math.ceil(math.log2(arr.size)))
    out = np.zeros(2**h)
    out[: arr.size] = arr
    return out, h


def privtree(
    x: ArrayLike,
    epsilon: float,
    rng: np.random.Generator,
    *,
    tree_share: float = 0.5,
    theta: float = 0.0,
    size: int | None = None,
    return_leaves: bool = False,
) -> np.ndarray | tuple[np.ndarray, np.ndarray]:
    """PrivTree's histogram (``zhang2016privtree``): ε-DP under add-remove neighbours.

    A node at depth d (the root has d = 0) covering c records is split in two when its biased count
    max(c − d·δ, θ − δ) plus Lap(λ) exceeds θ (:func:`privtree_parameters`); a node of one bin is a leaf. Each leaf's
    count gets Lap(1/ε_count) and is spread evenly over its bins. ``x`` is padded with empty bins to a power of two
    (data-independent). Vectorized per level over nodes and over ``size`` repetitions; the draws, in order, are per
    level the split noise of the level's undecided nodes, then the leaf noise of the level's leaves (row-major over
    (repetition, node)). ``return_leaves=True`` also returns the depth of the leaf each bin falls in, shape like the
    release."""
    arr, eps, rng, reps = prepare(x, epsilon, rng, size)
    p = privtree_parameters(eps, tree_share=tree_share, theta=theta)
    lam, delta, th, eps_count = p["lam"], p["delta"], p["theta"], p["eps_count"]
    full, h = _padded(arr)
    n_pad = full.size
    est = np.zeros((reps, n_pad))
    depth_of = np.zeros((reps, n_pad), dtype=np.int64)
    active = np.ones((reps, 1), dtype=bool)  # the nodes of this level that are reached
    for d in range(h + 1):
        width = n_pad >> d
        counts = full.reshape(2**d, width).sum(axis=1)
        if d < h:
            biased = np.maximum(counts - d * delta, th - delta)
            noisy = np.full(active.shape, -np.inf)
            noisy[active] = np.broadcast_to(biased, active.shape)[active] + rng.laplace(
                0.0, lam, size=int(active.sum())
            )
            split = active & (noisy > th)
        else:
            split = np.zeros_like(active)
        leaf = active & ~split
        if leaf.any():
            value = np.zeros(active.shape)
            value[leaf] = (
                np.broadcast_to(counts, active.shape)[leaf]
                + rng.laplace(0.0, 1.0 / eps_count, size=int(leaf.sum()))
            ) / width
            est += np.repeat(value, width, axis=1)
            depth_of += np.repeat(np.where(leaf, d, 0), width, axis=1)
        if not split.any():
            break
        active = np.repeat(split, 2, axis=1)
    out = finish(est[:, : arr.size], size)
    if return_leaves:
        return out, finish(depth_of[:, : arr.size], size)
    return out


def privtree_reference(
    x: ArrayLike,
    epsilon: float,
    rng: np.random.Generator,
    *,
    tree_share: float = 0.5,
    theta: float = 0.0,
) -> tuple[np.ndarray, list[tuple[int, int]]]:
    """The paper's Algorithm 1 as written, one node at a time (breadth first), then the leaf counts: one release and
    its leaves as (start, stop) bin ranges of the padded domain, in breadth-first order. The reference the vectorized
    :func:`privtree` is tested against (same law of the leaves; same draws in the same order, hence the same release,
    for one repetition)."""
    arr, eps, rng, _ = prepare(x, epsilon, rng, None)
    p = privtree_parameters(eps, tree_share=tree_share, theta=theta)
    full, _ = _padded(arr)
    est = np.zeros(full.size)
    leaves: list[tuple[int, int]] = []
    level, d = [(0, full.size)], 0
    while level:
        nxt, here = [], []
        for lo, hi in level:  # the split decisions of the level, left to right
            if hi - lo > 1:
                b = max(full[lo:hi].sum() - d * p["delta"], p["theta"] - p["delta"])
                if b + rng.laplace(0.0, p["lam"]) > p["theta"]:
                    mid = (lo + hi) // 2
                    nxt += [(lo, mid), (mid, hi)]
                    continue
            here.append((lo, hi))
        for lo, hi in here:  # then the level's leaf counts
            est[lo:hi] = (full[lo:hi].sum() + rng.laplace(0.0, 1.0 / p["eps_count"])) / (hi - lo)
        leaves += here
        level, d = nxt, d + 1
    return est[: arr.size], leaves
