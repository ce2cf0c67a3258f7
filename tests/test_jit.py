"""``dpcompendium.core._jit.compiled`` with the loops a kernel calls (a step shared by several kernels, written once)."""

from __future__ import annotations

import numpy as np

from dpcompendium.core._jit import compiled


def _halve(x):
    return x / 2.0


def _sum_halves(a):
    s = 0.0
    for v in a:
        s += _halve(v)
    return s


_halve_kernel = compiled(_halve)
_sum_halves_kernel = compiled(_sum_halves, _halve_kernel)


def test_a_kernel_calls_the_compiled_loops_it_names_and_python_keeps_the_plain_ones():
    a = np.random.default_rng(0).random(50)
    kernel = _sum_halves_kernel()
    assert kernel(a) == _sum_halves(a)  # the same arithmetic in the same order: the same bits
    assert type(kernel).__name__ == "CPUDispatcher"
    # the module's names are untouched: the plain loop calls the plain helper
    assert _halve is _halve_kernel.py_func and globals()["_halve"] is _halve
    assert _sum_halves_kernel.py_func is _sum_halves
