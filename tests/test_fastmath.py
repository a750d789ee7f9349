"""`@script(fastmath=True)`: float arithmetic reassociated and contracted (LLVM's
`reassoc contract` flags) only when asked; CPython's answers, bit for bit, by default.

The sums below are of values whose reassociated total differs from the in-order one in the
last bits, so a default compile that reassociated would fail `test_default_is_in_order`.
NaN and infinity keep their meaning under fastmath (no `nnan`/`ninf`): their tests and
`int()`'s errors are the same as CPython's.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import fastmath_kernels as K
import script


def _arrays(n, seed):
    rng = np.random.default_rng(seed)
    return rng.random(n) * 10.0 ** rng.integers(-8, 8, n), rng.random(n)


def test_default_is_in_order():
    a, b = _arrays(10_000, 1)
    f = script.script(K.dot)
    assert f(a, b) == K.dot(a, b)
    assert "reassoc" not in f.ir("llvm")
    g = script.script(K.axpy_sum)
    assert g(1.5, a, b) == K.axpy_sum(1.5, a, b)


def test_fastmath_reassociates_within_rounding():
    a, b = _arrays(10_000, 2)
    f = script.script(K.dot, fastmath=True)
    got, want = f(a, b), K.dot(a, b)
    assert math.isclose(got, want, rel_tol=1e-12)
    assert "fmul reassoc contract" in f.ir("llvm")
    g = script.script(K.axpy_sum, fastmath=True)
    assert math.isclose(g(1.5, a, b), K.axpy_sum(1.5, a, b), rel_tol=1e-12)


def test_fastmath_keeps_nan_and_inf():
    x = np.array([1.0, math.nan, math.inf, -math.inf, 0.0, math.nan])
    f = script.script(K.nan_tests, fastmath=True)
    assert f(x) == K.nan_tests(x) == 22
    g = script.script(K.to_int, fastmath=True)
    assert g(2.5) == 2
    for bad, exc in ((math.nan, ValueError), (math.inf, OverflowError)):
        with pytest.raises(exc) as got:
            g(bad)
        with pytest.raises(exc) as want:
            K.to_int(bad)
        assert str(got.value) == str(want.value)


def test_fastmath_is_a_keyword_only_bool_option():
    f = script.script(fastmath=True)(K.dot)
    a, b = _arrays(100, 3)
    assert math.isclose(f(a, b), K.dot(a, b), rel_tol=1e-12)


def test_cache_entries_of_fastmath_are_their_own():
    from script.cache import Request
    plain = Request(K.dot, (), 2, None, True, True, True)
    fast = Request(K.dot, (), 2, None, True, True, True, fastmath=True)
    assert plain.name() != fast.name()
    assert plain.flags == ""
