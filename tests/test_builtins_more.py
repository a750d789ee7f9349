"""Builtins and scalar methods beyond arithmetic: reversed(), float("inf") and friends,
int.bit_length(), float.is_integer(), against CPython."""

import math

import numpy as np
from hypothesis import given, settings, strategies as st

from difftest import check_all_levels

SET = settings(max_examples=40, deadline=None)


def reversed_loops(n, a):
    s = 0
    for i in reversed(range(n)):
        s = s * 3 + i
    for i in reversed(range(2, n, 3)):
        s = s * 3 - i
    for i in reversed(range(n, -n, -2)):
        s = s * 2 + i
    t = 0.0
    for x in reversed(a):
        t = t * 0.5 + x
    for k, x in enumerate(reversed(a[::2])):
        t += k * x
    for x, y in zip(reversed(a), a):
        t += x - 2 * y
    for x in reversed((1, 2.5, 3)):
        t = t * 2 + x
    return s, t


def reversed_rows(m):
    total = 0.0
    for row in reversed(m):
        total = total * 2 + row[0] - row[-1]
    return total


def string_constants(x):
    lo = float("-inf")
    hi = float("inf")
    best = float("Infinity")
    if x > hi or x < lo:
        return float("nan"), 0, 0.0
    for k in range(int("3")):
        best = min(best, abs(x - k * float("0.5")))
    return best, int(" 42 "), float("1e3")


def bad_string(x):
    if x > 0:
        return float("abc")
    return float("1.5")


def bits(n):
    return n.bit_length(), (n // 3).bit_length(), (-n).bit_length()


def integral(x):
    return x.is_integer(), (x * 0.5).is_integer(), (x + 0.25).is_integer()


@SET
@given(st.integers(-3, 12), st.integers(0, 9))
def test_reversed(n, m):
    check_all_levels(reversed_loops, n, np.arange(float(m)) * 1.5)
    check_all_levels(reversed_rows, np.arange(float(m * 3)).reshape(m, 3))


def test_reversed_of_enumerate_is_an_error():
    import pytest
    import script
    from script.errors import CompileError

    def f(a):
        s = 0.0
        for i, x in reversed(enumerate(a)):
            s += x
        return s
    with pytest.raises(CompileError, match="'enumerate' object is not reversible"):
        script.script(f)(np.zeros(3))


@SET
@given(st.floats(allow_nan=True, allow_infinity=True))
def test_strings_to_numbers(x):
    check_all_levels(string_constants, x)
    check_all_levels(bad_string, x)


@SET
@given(st.integers(-2**63 + 1, 2**63 - 1))
def test_bit_length(n):
    check_all_levels(bits, n)


def test_bit_length_extremes():
    for n in (0, 1, -1, 2**62, 2**63 - 1, -2**63 + 1):
        check_all_levels(bits, n)


@SET
@given(st.floats(allow_nan=True, allow_infinity=True))
def test_is_integer(x):
    check_all_levels(integral, x)
