"""Results that do not depend on the CPU: an optimiser's answer rounded to a declared grid.

An optimiser's iterates follow the machine's floating-point code paths (NumPy's SIMD kernels, OpenBLAS's kernels and
thread count), so SLSQP on the same inputs returns answers that differ by 10⁻⁹–10⁻⁶ from one CPU to another
(``book/reproducibility.md``, "Solvers"). Where the answer is a mechanism's parameter (a privacy budget, a noise
scale), the library rounds it to a **grid of** :data:`GRID_BITS` **significant bits** and re-verifies the privacy
constraint on the rounded values, conservatively: the values the mechanism uses are then the same bits on every CPU
unless the optimiser's answer falls within its own error of the midpoint between two grid values (a probability of
the order of the error over the spacing, 2·10⁻⁶ / 4·10⁻³ for SLSQP's default tolerance), and the guarantee holds for
those values, not for the optimiser's. ``frexp``, ``ldexp`` and ``rint`` are exact IEEE operations, so the rounding
itself has the same bits everywhere.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from numpy.typing import ArrayLike

__all__ = [
    "GRID_BITS",
    "grid_compass_search",
    "grid_index",
    "grid_step_down",
    "grid_value",
    "snap_to_grid",
]

#: Significant bits kept by :func:`snap_to_grid`: neighbouring grid values are 2⁻⁸ ≈ 0.4 % apart (relative).
GRID_BITS = 8


def _check_bits(bits: int) -> int:
    if not (isinstance(bits, int | np.integer) and 1 <= bits <= 52):
        raise ValueError(f"bits must be an integer in [1, 52], got {bits!r}")
    return int(bits)


def snap_to_grid(x: ArrayLike, bits: int = GRID_BITS) -> np.ndarray:
    """Each value rounded to the nearest float with ``bits`` significant bits (ties to even); 0 stays 0.

    >>> snap_to_grid([0.5047629372542716, 0.5047629357808116]).tolist()
    [0.50390625, 0.50390625]
    """
    b = _check_bits(bits)
    v = np.asarray(x, dtype=float)
    if not np.all(np.isfinite(v)):
        raise ValueError(f"x must be finite, got {v!r}")
    m, e = np.frexp(v)  # v = m · 2^e, 0.5 <= |m| < 1
    return np.ldexp(np.rint(np.ldexp(m, b)), e - b)


def grid_step_down(x: ArrayLike, bits: int = GRID_BITS) -> np.ndarray:
    """The next value of the grid of ``bits`` significant bits below each (positive) value of ``x``, which must be on
    the grid: one step of the conservative re-verification after :func:`snap_to_grid`.

    >>> grid_step_down([0.5, 0.50390625]).tolist()
    [0.498046875, 0.5]
    """
    b = _check_bits(bits)
    v = np.asarray(x, dtype=float)
    if np.any(v <= 0) or not np.array_equal(snap_to_grid(v, b), v):
        raise ValueError(f"x must be positive values on the grid of {b} bits, got {v!r}")
    m, e = np.frexp(v)
    k = np.ldexp(m, b) - 1.0  # the integer mantissa one step down
    below = k < 2.0 ** (b - 1)  # from a power of two down into the finer grid of the binade below
    return np.where(below, np.ldexp(2.0**b - 1.0, e - 1 - b), np.ldexp(k, e - b))


def grid_index(x: ArrayLike, bits: int = GRID_BITS) -> np.ndarray:
    """The integer position of each positive grid value (:func:`snap_to_grid`) on the grid: consecutive grid values
    have consecutive indices, so a search can move on the grid by integer steps (:func:`grid_value` inverts it).

    >>> grid_index([0.5, 0.50390625, 1.0]).tolist()
    [0, 1, 128]
    """
    b = _check_bits(bits)
    v = np.asarray(x, dtype=float)
    if np.any(v <= 0) or not np.array_equal(snap_to_grid(v, b), v):
        raise ValueError(f"x must be positive values on the grid of {b} bits, got {v!r}")
    m, e = np.frexp(v)
    half = 2 ** (b - 1)
    return e.astype(np.int64) * half + (np.ldexp(m, b).astype(np.int64) - half)


def grid_value(n: ArrayLike, bits: int = GRID_BITS) -> np.ndarray:
    """The grid value at each integer index ``n`` (the inverse of :func:`grid_index`)."""
    b = _check_bits(bits)
    k = np.asarray(n, dtype=np.int64)
    half = 2 ** (b - 1)
    e, r = np.divmod(k, half)
    return np.ldexp((r + half).astype(float), (e - b).astype(np.int64))


def grid_compass_search(
    starts: list[np.ndarray],
    cost: Callable[[np.ndarray], float],
    feasible: Callable[[np.ndarray], bool],
    *,
    lower: float,
    upper: float,
    non_increasing: bool = False,
    first_step: int = 64,
    min_gain: float = 1e-10,
    bits: int = GRID_BITS,
) -> np.ndarray:
    """Minimise ``cost`` over vectors on the grid of ``bits`` significant bits that are ``feasible``, by a compass
    search from each of ``starts`` (feasible grid vectors); the best end point (the first of equal ones).

    A move changes one value, the first j values together, the first j up and the others down, or one value up and
    another down, by ``step`` grid
    positions (:func:`grid_index`), from ``first_step`` halved down to 1; it is taken when it is feasible and lowers
    the cost by more than ``min_gain`` (relative). On the grid, with ``min_gain`` far above the rounding of ``cost``
    on any CPU, every CPU takes the same moves: the answer has the same bits everywhere, unlike an optimiser's.
    ``non_increasing``: the vector is kept sorted, largest first.
    """
    lo = int(grid_index(snap_to_grid([lower], bits), bits)[0])
    hi = int(grid_index(snap_to_grid([upper], bits), bits)[0])
    k = int(np.asarray(starts[0]).size)
    eye = np.eye(k, dtype=np.int64)
    prefix = np.tril(np.ones((k, k), dtype=np.int64))
    pairs = [eye[i] - eye[j] for i in range(k) for j in range(k) if i != j]
    split = 2 * prefix[:-1] - 1  # the j largest up, the rest down
    moves = [*eye, *(-eye), *prefix, *(-prefix), *split, *(-split), *pairs]

    def search(n: np.ndarray) -> tuple[float, np.ndarray]:
        best = cost(grid_value(n, bits))
        step = first_step
        while step >= 1:
            for move in moves:
                cand = np.clip(n + step * move, lo, hi)
                if non_increasing:
                    cand = np.sort(cand)[::-1]
                if np.array_equal(cand, n):
                    continue
                values = grid_value(cand, bits)
                c = cost(values)
                if c < best * (1.0 - min_gain) and feasible(values):
                    n, best = cand, c
                    break
            else:
                step //= 2
        return best, n

    ends = [search(grid_index(s, bits)) for s in starts]
    _, n = min(ends, key=lambda r: r[0])
    return grid_value(n, bits)
