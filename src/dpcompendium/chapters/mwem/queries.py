"""Random range-query workloads drawn as the coursework draws them (the type,
:class:`~dpcompendium.core.experiments.ranges.RangeQueries`, is the core's)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ...core.experiments.ranges import RangeQueries, check_shape
from ...core.validation import check_int, check_rng

__all__ = ["random_range_queries"]


def random_range_queries(
    shape: Sequence[int] | int,
    m: int,
    rng: np.random.Generator,
    *,
    distinct: bool = True,
) -> RangeQueries:
    """m random range queries drawn as the coursework's ``randomQueries`` does.

    Per dimension: lo ~ U{0, …, n−1}, then hi ~ U{lo, …, n−1}; with ``distinct`` a box already in the workload is
    redrawn (rejection), so the workload is a set. Data-independent (uses only the public shape), so it costs no ε.
    """
    shape = check_shape(shape)
    m = check_int(m, "m", minimum=1)
    rng = check_rng(rng)
    n_boxes = int(np.prod([n * (n + 1) // 2 for n in shape]))
    if distinct and m > n_boxes:
        raise ValueError(
            f"m must be <= {n_boxes} (the number of distinct boxes in shape {shape}), got {m}"
        )
    dims = np.asarray(shape)
    lo_list: list[np.ndarray] = []
    hi_list: list[np.ndarray] = []
    seen: set[bytes] = set()
    while sum(len(b) for b in lo_list) < m:
        need = m - sum(len(b) for b in lo_list)
        k = max(need, 16)
        lo = (rng.random((k, len(shape))) * dims).astype(np.int64)
        hi = lo + (rng.random((k, len(shape))) * (dims - lo)).astype(np.int64)
        if not distinct:
            lo_list.append(lo[:need])
            hi_list.append(hi[:need])
            continue
        keys = np.concatenate([lo, hi], axis=1)
        keep = []
        for i, row in enumerate(keys):  # dedup of ≤ m small keys, not a hot path
            key = row.tobytes()
            if key not in seen:
                seen.add(key)
                keep.append(i)
                if len(keep) == need:
                    break
        lo_list.append(lo[keep])
        hi_list.append(hi[keep])
    return RangeQueries(shape, np.concatenate(lo_list), np.concatenate(hi_list))
