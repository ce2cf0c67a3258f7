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
import types
from collections.abc import Callable
from typing import Any

__all__ = ["compiled"]


def compiled(
    loop: Callable[..., Any], *calls: Callable[[], Callable[..., Any]]
) -> Callable[[], Callable[..., Any]]:
    """A getter of ``loop`` compiled by ``numba.njit(cache=True, nogil=True, error_model="numpy")`` (compiled on the
    first call; a float division by zero gives inf or nan as in numpy, the reference, not a ZeroDivisionError).
    ``calls``: the getters (from :func:`compiled`) of the loops that ``loop`` calls by their plain names; in the
    compiled ``loop`` each name stands for that loop compiled (in Python it stays the plain loop), so that a step
    shared by several kernels is written once and the module imports no numba."""

    @functools.cache
    def get() -> Callable[..., Any]:
        import numba

        fn = loop
        if calls:
            scope = dict(loop.__globals__)
            scope.update({call.py_func.__name__: call() for call in calls})  # type: ignore[attr-defined]
            fn = types.FunctionType(
                loop.__code__, scope, loop.__name__, loop.__defaults__, loop.__closure__
            )
            fn.__qualname__ = loop.__qualname__
        return numba.njit(cache=True, nogil=True, error_model="numpy")(fn)

    get.__doc__ = f"{loop.__name__} compiled by numba (see dpcompendium.core._jit)."
    get.py_func = loop  # type: ignore[attr-defined]
    return get
