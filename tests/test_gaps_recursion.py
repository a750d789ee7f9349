"""Recursive functions without a return annotation, against CPython: the return type comes
from the returns that do not depend on the recursive call, then a fixed point
(specialize.py)."""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import gaps_recursion_kernels as K
import script
from difftest import check_all_levels


@settings(max_examples=30, deadline=None)
@given(st.integers(-3, 20))
def test_single_recursion(n):
    check_all_levels(K.fact, n)
    check_all_levels(K.count_down, n)
    check_all_levels(K.halving, n)
    check_all_levels(K.fib, n)
    check_all_levels(K.in_a_condition, n)
    check_all_levels(K.as_a_range, n)
    check_all_levels(K.pair, max(n, 0))
    check_all_levels(K.checked, n)
    check_all_levels(K.split_sum, n)
    check_all_levels(K.split_sum, n * 1.5)


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 9))
def test_loops_and_arrays(n):
    check_all_levels(K.in_a_loop, n)
    check_all_levels(K.shifted, n)
    check_all_levels(K.fill, np.zeros(n), 0)


@settings(max_examples=30, deadline=None)
@given(st.integers(-2, 40))
def test_mutual_recursion(n):
    # A negative n recurses without end in CPython; compiled, LLVM turns the tail calls into
    # a loop that wraps around int64 instead of reaching the stack check.
    check_all_levels(K.is_even, abs(n))
    check_all_levels(K.is_odd, abs(n))
    check_all_levels(K.ping, n)
    check_all_levels(K.pong, n)


def test_ackermann():
    for m, n in [(0, 0), (1, 3), (2, 3), (3, 2)]:
        check_all_levels(K.ackermann, m, n)


def test_signatures():
    assert script.script(K.halving).compile(int) is not None
    f = script.script(K.fact)
    f(5)
    f(5.0)
    assert f.signatures == ["(int) -> int", "(float) -> int | float"]     # fact(1.0) is the int 1


def test_no_base_case_is_an_error_at_the_call():
    def loops_forever(n):
        return loops_forever(n - 1) * 2
    with pytest.raises(script.CompileError) as info:
        script.script(loops_forever)(3)
    assert "cannot infer the return type of recursive function 'loops_forever'" in info.value.message
    assert "loops_forever(n - 1)" in str(info.value)


@settings(max_examples=15, deadline=None)
@given(st.integers(-1, 6), st.lists(st.floats(-5, 5), max_size=4))
def test_returned_empty_list_typed_by_the_recursion(n, xs):
    check_all_levels(K.hanoi, n)
    check_all_levels(K.hanoi, n, "x", "y", "z")
    check_all_levels(K.scaled_prefixes, 1.5, n)
    check_all_levels(K.scaled_prefixes, 2, n)
    check_all_levels(K.joined, xs)


@pytest.mark.parametrize("args", [(5, 6), (2, 0), (-3, 3), ("a", "b"), (2.5, 2)])
def test_a_recursive_call_in_dead_code_does_not_hide_cpythons_error(args):
    """`'b' - 1` always raises: the recursive call after it never runs, and its unknown type
    must not make `base * ...` a compile error (CPython's TypeError, where it raises it)."""
    check_all_levels(K.power_of, *args)
