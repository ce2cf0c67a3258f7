"""Loop kernels compiled by numba on first use.

A kernel is a plain Python function of numbers and numpy arrays, written as loops (the form in which numba compiles
it). :func:`compiled` returns a getter: ``kernel = compiled(loop)()`` imports numba (about a second, paid only by the
code that needs a kernel) and compiles ``loop`` once per process, with the machine code cached on disk beside the
module (``__pycache__``). No ``fastmath``: the compiled kernel performs the loop's IEEE arithmetic (+ − × ÷, sqrt:
correctly rounded, the same bits on every CPU) in the loop's order. Elementary functions (exp, expm1, log, pow) are
libm's in the kernel and numpy's CPU-dispatched SIMD kernels in a numpy reference, a few ulp apart: tests compare a
kernel with its reference exactly where the result is discrete (indices, draws) and to a derived tolerance where it
is a float (``book/reproducibility.md``). ``NUMBA_CPU_NAME=generic`` compiles for a generic CPU of the architecture
(make test's ``portable`` stage).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

__all__ = ["compiled"]


def compiled(loop: Callable[..., Any]) -> Callable[[], Callable[..., Any]]:
    """A getter of ``loop`` compiled by ``numba.njit(cache=True, nogil=True)`` (compiled on the first call)."""

    @functools.cache
    def get() -> Callable[..., Any]:
        import numba

        return numba.njit(cache=True, nogil=True)(loop)

    get.__doc__ = f"{loop.__name__} compiled by numba (see dpcompendium.core._jit)."
    get.py_func = loop  # type: ignore[attr-defined]
    return get
