"""A list given to a NumPy ufunc or met in an array expression is NumPy's array of it
(`np.exp([1, 2])`, `a + [1, 2]`: frontend/elementwise.py `as_expr`), against NumPy."""

import numpy as np
from hypothesis import given, settings, strategies as st

from difftest import check_all_levels


def softmax(vector):
    e = np.exp(vector)
    return e / np.sum(e)


def mixed(xs, ys):
    a = np.array(ys)
    return np.sqrt(np.abs(xs)), np.maximum(xs, ys), np.add(xs, 1), a + xs, xs - a


FLOATS = st.lists(st.floats(-5, 5), min_size=1, max_size=6)


@settings(max_examples=30, deadline=None)
@given(FLOATS)
def test_softmax_of_a_list_against_numpy(xs):
    # Up to an ulp: NumPy's float64 exp is its own AVX-512 code where the CPU has it
    # (docs/differences.md), compiled code's the C library's.
    check_all_levels(softmax, xs, approx=True)
    check_all_levels(softmax, [int(x) for x in xs], approx=True)


@settings(max_examples=30, deadline=None)
@given(FLOATS)
def test_lists_in_array_expressions_against_numpy(xs):
    check_all_levels(mixed, xs, [x * 0.5 - 1 for x in xs])
