"""Differential tests of the scalar subset: each construct compiled and in CPython, same
results and same exceptions, over many inputs, at opt=0 and at the default level."""

import math
import re

import pytest
from hypothesis import given, settings, strategies as st

import kernels as K
from difftest import check, check_all_levels, compiled

small = st.integers(-1000, 1000)
ints = st.integers(-(2**31), 2**31)
floats = st.floats(allow_nan=True, allow_infinity=True, width=64)
finite = st.floats(-1e6, 1e6, allow_nan=False)
SET = settings(max_examples=60, deadline=None)


@SET
@given(ints, ints)
def test_int_arith(a, b):
    check_all_levels(K.arith, a, b)


@SET
@given(finite, floats)
def test_float_arith(a, b):
    check_all_levels(K.arith, a, b)


@SET
@given(small, small)
def test_division_family_ints(a, b):
    for fn in (K.true_div, K.floor_div, K.modulo, K.div_mod):
        check_all_levels(fn, a, b)


@SET
@given(floats, floats)
def test_division_family_floats(a, b):
    for fn in (K.true_div, K.floor_div, K.modulo, K.div_mod):
        check_all_levels(fn, a, b)


@pytest.mark.parametrize("a,b", [(7, -2), (-7, 2), (-7, -2), (0, 5), (5, 0), (-(2**63), -1), (2**63 - 1, -1),
                                 (7.5, -2.0), (-0.0, 1.0), (1.0, -0.0), (float("inf"), 2.0), (3.0, float("inf")),
                                 (-3.0, float("inf")), (float("nan"), 1.0), (1.0, 0.0)])
def test_division_corners(a, b):
    for fn in (K.floor_div, K.modulo, K.div_mod, K.true_div):
        if isinstance(a, int) and abs(a) >= 2**62 and fn is not K.true_div:
            continue   # Python's big-int result differs from int64 wrapping (documented)
        check_all_levels(fn, a, b)


@SET
@given(st.integers(-20, 20), st.integers(0, 12))
def test_int_power(a, b):
    check_all_levels(K.power, a, b)


@SET
@given(st.floats(-50, 50), st.floats(-10, 10))
def test_float_power(a, b):
    check_all_levels(K.power, a, b)


@pytest.mark.parametrize("a,b", [(0.0, -1.0), (-8.0, 1 / 3), (10.0, 400.0), (2.0, 0.5), (-2.0, 3.0),
                                 (0.0, 0.0), (float("inf"), -1.0), (-1.0, float("inf"))])
def test_power_corners(a, b):
    check_all_levels(K.power, a, b)


@SET
@given(st.integers(-100, 100))
def test_power_constants(a):
    check_all_levels(K.power_const, a)
    check_all_levels(K.power_const, float(a))


@SET
@given(ints, ints)
def test_bitwise(a, b):
    check_all_levels(K.bitwise, a, b)


@SET
@given(st.integers(-1000, 1000), st.integers(-3, 40))
def test_shifts(a, b):
    check_all_levels(K.shifts, a, b)


I64_EDGES = [0, 1, -1, 4, -4, 5, -5, 6, -6, 2**63 - 1, -(2**63), -(2**63) + 1, 1000002, -1000002]


@SET
@given(st.one_of(st.integers(-(2**63), 2**63 - 1), st.sampled_from(I64_EDGES)), st.integers(-8, 7))
def test_shifts_by_constants(a, small):
    check_all_levels(K.shifts_by_constants, a, small)


@SET
@given(st.one_of(st.integers(-(2**63), 2**63 - 1), st.integers(-50, 50),
                 st.sampled_from(I64_EDGES)))
def test_mod_compared_with_a_constant(x):
    check_all_levels(K.mod_compares, x)


@SET
@given(st.integers(-128, 127))
def test_mod_compared_with_a_constant_i8(x):
    import strength_kernels as SK
    check_all_levels(SK.mod_compares_i8, x)


@SET
@given(st.integers(0, 300), st.integers(-(2**62), 2**62))
def test_mod_compares_in_a_loop_over_negatives(n, s):
    check_all_levels(K.mod_compare_loop, n, s)


def test_a_mod_compared_with_a_constant_skips_the_sign_fix_up():
    # Guards the premise of the tests above: `x % 5 == 1` is C's remainder tested against 1
    # and 1 - 5, with no select of the fixed-up remainder (`x % 5` alone keeps one).
    f, g = compiled(K.mod5_is_1), compiled(K.modulo)
    f(3), g(3, 5)
    kernel = f.ir("llvm").split("; ModuleID")[1]
    assert re.search(r"srem i64 %\w+, 5", kernel) and re.search(r"icmp eq i64 %\w+, -4", kernel)
    assert "select" not in kernel and "select" in g.ir("llvm").split("; ModuleID")[1]


@SET
@given(st.one_of(small, floats), st.one_of(small, floats))
def test_comparisons(a, b):
    check_all_levels(K.compare, a, b)


@SET
@given(small, small, small)
def test_chained(a, b, c):
    check_all_levels(K.chained, a, b, c)


@SET
@given(small, small)
def test_logic(a, b):
    check_all_levels(K.logic, a, b)
    check_all_levels(K.ifexp, a, b)


@SET
@given(st.integers(-50, 50))
def test_control_flow(x):
    check_all_levels(K.branches, x)
    check_all_levels(K.maybe_unbound, x)
    check_all_levels(K.last_index, x)
    check_all_levels(K.while_else, x)
    check_all_levels(K.continue_loop, x)
    check_all_levels(K.nested, x)
    check_all_levels(K.early_return, x)
    check_all_levels(K.widening, x)
    check_all_levels(K.returns_none, x)
    check_all_levels(K.walrus, x)


@SET
@given(st.integers(-20, 30), st.integers(-20, 30), st.integers(-5, 5))
def test_ranges(a, b, c):
    check_all_levels(K.range_forms, a, b, c)
    check_all_levels(K.loop_else, a, b)


@SET
@given(st.integers(1, 10**6))
def test_collatz(n):
    check_all_levels(K.collatz, n)


@SET
@given(finite, st.integers(-3, 30))
def test_poly(x, k):
    check_all_levels(K.poly, x, k)
    check_all_levels(K.poly, int(x) % 100, k)


@SET
@given(st.one_of(small, finite), st.one_of(small, finite))
def test_tuples(x, y):
    check_all_levels(K.tuples, x, y)
    check_all_levels(K.swap, x, y)
    check_all_levels(K.tuple_arg, (x, y))
    check_all_levels(K.tuple_eq, x, y)
    check_all_levels(K.tuple_sum, x, y)
    check_all_levels(K.enumerate_tuples, x, y)


@SET
@given(st.integers(-200, 200))
def test_exceptions(x):
    check_all_levels(K.asserts, x)
    check_all_levels(K.raises, x)


@SET
@given(ints, ints)
def test_builtins_int(a, b):
    check_all_levels(K.builtins_int, a, b)
    check_all_levels(K.conversions, a)


in_int64 = st.one_of(st.floats(-9e18, 9e18), st.sampled_from([math.nan, math.inf, -math.inf, -0.0]))


@SET
@given(in_int64, floats)
def test_builtins_float(x, y):
    check_all_levels(K.builtins_float, x, y)
    check_all_levels(K.conversions, x)


@SET
@given(st.floats(-1e6, 1e6), st.integers(-3, 6))
def test_round_digits(x, n):
    check_all_levels(K.round_digits, x, n)
    check_all_levels(K.round_digits, int(x), n)


@SET
@given(st.one_of(floats, st.floats(0.001, 100)))
def test_math(x):
    check_all_levels(K.math_funcs, x)
    check_all_levels(K.math_domain, x)
    check_all_levels(K.math_misc, x)
    # CPython computes gamma/lgamma with its own Lanczos code, libm differs by an ulp or two.
    check_all_levels(K.gamma, x, approx=True)


@SET
@given(st.one_of(floats, st.floats(-10, 10)), st.one_of(floats, st.floats(-10, 10)))
def test_math_two(x, y):
    check_all_levels(K.math_two, x, y)
    # CPython's hypot is its own extended-precision algorithm; libm's agrees within an ulp.
    check_all_levels(K.hypot, x, y, approx=True)


@SET
@given(st.integers(-10**6, 10**6), st.integers(-10**6, 10**6))
def test_math_int(a, b):
    check_all_levels(K.math_int, a, b)


def test_globals():
    check_all_levels(K.globals_use, 3)
    check_all_levels(K.globals_use, 2.5)


def test_recursion():
    for n in range(15):
        check_all_levels(K.fib, n)
    for n in range(0, 30, 7):
        check_all_levels(K.is_even, n)


def test_keyword_and_default_arguments():
    check_all_levels(K.call_kw, 4)
    check_all_levels(K.call_kw, 2.5)
    f = compiled(K.kw)
    assert f(1, c=2.0) == K.kw(1, c=2.0)
    assert f(a=1, b=5) == K.kw(a=1, b=5)
    assert f(1) == K.kw(1)


@SET
@given(st.integers(1, 2000), st.integers(0, 2**31 - 1))
def test_benchmark_kernels(n, seed):
    check_all_levels(K.lcg_pi, n, seed)
    check_all_levels(K.branchy_sum, n)


@SET
@given(st.one_of(ints, st.sampled_from([-(2**63), 2**63 - 1, -1, 0, 1, -7, 7])))
def test_division_by_constants(a):
    check_all_levels(K.const_divisors, a)


BIG = 2**63 - 1


@pytest.mark.parametrize("start,stop,step", [
    (BIG - 2, BIG, 5), (BIG - 10, BIG, 3), (-BIG - 1, -BIG + 5, 4), (BIG, -BIG - 1, -(2**62)),
    (-BIG - 1, BIG, 2**62), (0, 10, 3), (10, 0, -3), (5, 5, 2), (0, 1, BIG), (3, -BIG - 1, -BIG)])
def test_range_near_int64_edges(start, stop, step):
    check_all_levels(K.range_edges, start, stop, step)


@SET
@given(st.integers(-100, 100), st.integers(-100, 100), st.integers(-7, 7).filter(bool))
def test_range_steps(start, stop, step):
    check_all_levels(K.range_edges, start, stop, step)


@SET
@given(st.one_of(floats, st.sampled_from([5e-324, 2.2250738585072014e-308, 1.7976931348623157e308, -0.0])),
       st.integers(-1100, 1100))
def test_frexp_ldexp(x, i):
    check_all_levels(K.frexp_ldexp, x, i)


@SET
@given(st.one_of(floats, small), st.one_of(floats, small))
def test_numpy_ufuncs_on_scalars(x, y):
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        check_all_levels(K.numpy_math, x, y, approx=True)
