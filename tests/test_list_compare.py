"""==, !=, <, <=, >, >= between lists (CPython's lexicographic order, nested lists and lists
of strs included), `in` on lists of lists, and reversed() used as a value, against CPython."""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import script
from difftest import check_all_levels

SET = settings(max_examples=40, deadline=None)
small = st.lists(st.integers(-3, 3), min_size=1, max_size=4)


def compare_ints(a, b):
    return a == b, a != b, a < b, a <= b, a > b, a >= b, [a, b] == [b, a], [a] < [b], \
        a in [b, a], (a, 1) == (b, 1), a == (1, 2), a != 3


def compare_floats(a, b):
    fa = [x * 0.5 for x in a]
    return fa == b, fa < b, sorted(fa) == sorted(b)


def compare_words(s, t):
    return sorted(s) == sorted(t), s.split() < t.split(), s.split() == t.split(), \
        [s.split()] >= [t.split()]


def reversed_values(s, xs, t):
    r = reversed(xs)
    return " ".join(reversed(s.split())), "".join(reversed(s)), sum(reversed(xs)), list(r), \
        max(reversed(t))


@SET
@given(small, small)
def test_list_comparisons(a, b):
    check_all_levels(compare_ints, a, b)
    check_all_levels(compare_floats, a, [float(x) for x in b])


@SET
@given(st.text("ab c", min_size=1, max_size=8), st.text("ab c", min_size=1, max_size=8))
def test_lists_of_strs(s, t):
    check_all_levels(compare_words, s, t)


@SET
@given(st.text("ab c", min_size=1, max_size=8), small)
def test_reversed_as_a_value(s, xs):
    check_all_levels(reversed_values, s, xs, tuple(xs))


def arrays_in_lists(a):
    return [a] == [a]


def list_vs_int(a):
    return a < 3


def test_errors():
    with pytest.raises(script.CompileError, match="not support between arrays"):
        script.script(arrays_in_lists)(np.zeros(2))
    with pytest.raises(TypeError, match="'<' not supported between instances of 'list' and 'int'"):
        script.script(list_vs_int)([1])     # CPython's error, where CPython raises it
