"""Functions held in a local and only called (frontend/held_functions.py), and the functions
of the `operator` module (frontend/operator_calls.py), against CPython."""

import functools
import math
import operator

from hypothesis import given, settings, strategies as st

from difftest import check_all_levels


def _double(v):
    return v * 2


def _inc(v):
    return v + 1


def strand(arr, reverse):
    _operator = operator.lt if reverse else operator.gt
    out = [arr[0]]
    for item in arr[1:]:
        if _operator(item, out[-1]):
            out.append(item)
    return out


def chosen(xs, k):
    sqrt = math.sqrt
    pick = max if k > 0 else min
    fn = _inc
    if k > 1:
        fn = _double
    elif k < -1:
        fn = lambda v: v - 100          # noqa: E731
    return pick(xs), [fn(x) for x in xs], sqrt(abs(k))


def folds(xs, k):
    return (functools.reduce(operator.mul, xs, 1), functools.reduce(operator.add, xs, 0),
            operator.neg(k), operator.getitem(xs, k % len(xs)), operator.contains(xs, k), operator.not_(k),
            operator.abs(k), operator.truth(k), operator.floordiv(k, 3), operator.mod(k, 3), operator.pow(k, 2),
            operator.truediv(k, 4), operator.xor(k, 5), operator.le(k, 0), operator.is_(k, None))


INTS = st.lists(st.integers(-6, 6), min_size=1, max_size=7)


@settings(max_examples=30, deadline=None)
@given(INTS, st.booleans())
def test_a_chosen_operator_against_cpython(xs, reverse):
    check_all_levels(strand, xs, reverse)


@settings(max_examples=30, deadline=None)
@given(INTS, st.integers(-3, 3))
def test_held_functions_against_cpython(xs, k):
    check_all_levels(chosen, xs, k)


@settings(max_examples=30, deadline=None)
@given(INTS, st.integers(-9, 9))
def test_operator_functions_against_cpython(xs, k):
    check_all_levels(folds, xs, k)


def _passed_on(xs):
    f = abs
    return list(map(f, xs))


def test_a_held_function_used_as_a_value_is_a_function_value():
    """`f = abs` passed on as a value: a function value (function_values.py)."""
    check_all_levels(_passed_on, [1, -2])
    check_all_levels(_passed_on, [])
