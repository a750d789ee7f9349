"""Code written for Numba (script/frontend/numba_compat.py): `prange` loops and calls of
`@njit` functions, against CPython. Numba is not a dependency: stand-ins with Numba's module
names play its `prange` and its dispatcher here."""

import numpy as np
from hypothesis import given, settings, strategies as st

import script
from difftest import check_all_levels


class prange:                       # numba.misc.special.prange: range in CPython
    __module__ = "numba.misc.special"

    def __new__(cls, *args):
        return range(*args)


class CPUDispatcher:                # what numba.njit returns: the function is its py_func
    __module__ = "numba.core.registry"

    def __init__(self, fn):
        self.py_func = fn

    def __call__(self, *args):
        return self.py_func(*args)


class numba_module:                 # `import numba as nb; nb.prange(n)`
    prange = prange


def njit(fn):
    return CPUDispatcher(fn)


nb = numba_module


@njit
def row_norm(a, i):
    s = 0.0
    for j in range(a.shape[1]):
        s += a[i, j] * a[i, j]
    return s ** 0.5


def norms(a):
    out = np.empty(a.shape[0])
    for i in prange(a.shape[0]):
        out[i] = row_norm(a, i)
    total = 0.0
    for i in nb.prange(0, a.shape[0], 2):
        total += out[i]
    for i in script.prange(a.shape[0]):
        total -= 0.5 * out[i]
    return out, total


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 5), st.integers(1, 4))
def test_prange_and_njit_callees(n, m):
    a = np.arange(n * m, dtype=np.float64).reshape(n, m) - 3.0
    check_all_levels(norms, a)
    assert script.script(row_norm)(a, 0) == row_norm(a, 0) if n else True
