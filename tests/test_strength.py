"""The strength pass (script/ir/passes/strength.py) end to end: every rewrite compared with
CPython at opt=0 (no IR passes) and at the default level, on edge values; and the backend's
own shift-and-mask lowering of `//` and `%` by powers of two, which the pass leaves to it."""

from __future__ import annotations

import math

import pytest
from hypothesis import example, given, settings, strategies as st

import strength_kernels as K
from difftest import check, check_all_levels, compiled

SET = settings(max_examples=60, deadline=None)
I64_MIN, I64_MAX = -(2**63), 2**63 - 1
I64_EDGES = [0, 1, -1, 2, -2, 3, -3, 7, 2**31 - 1, 2**31, -(2**31), 2**32, 2**62, -(2**62),
             I64_MAX, I64_MIN, I64_MIN + 1, 3037000499, 3037000500]


def wrap(v: int, bits: int = 64, signed: bool = True) -> int:
    v &= (1 << bits) - 1
    return v - (1 << bits) if signed and v >> (bits - 1) else v


def _fits(values) -> bool:
    return all(I64_MIN <= v <= I64_MAX for v in values)


def _same_or_overflow(f, x, want: tuple) -> None:
    """CPython's values, or OverflowError where one of them leaves int64 (docs/integers.md:
    ints no longer wrap)."""
    if _fits(want):
        assert f(x) == want
    else:
        with pytest.raises(OverflowError, match="integer overflow"):
            f(x)


def _levels(fn):
    # (int_overflow="raise": the tests below see the overflow checks, not CPython's rerun)
    return [compiled(fn, opt=0, int_overflow="raise"), compiled(fn, int_overflow="raise")]


def test_the_pass_rewrites_what_the_kernels_use():
    # Guards the premise of the differential tests below: at the default level the powers
    # are multiplications and shifts, at opt=0 they are still `pow`.
    f, f0 = compiled(K.int_powers), compiled(K.int_powers, opt=0)
    f(3), f0(3)
    assert " pow " not in f.ir("opt") and " pow " in f0.ir("opt")
    g = compiled(K.two_to)
    g(3)
    assert "shl 1:i64" in g.ir("opt")
    h = compiled(K.float_exact_powers)
    h(1.5)
    assert " pow " not in h.ir("opt") and "math.pow" not in h.ir("opt")
    s = compiled(K.float_square)
    s(1.5)
    assert "mul %0, %0 : f64" in s.ir("opt")


@SET
@given(st.integers(-15, 15))
def test_int_powers_up_to_16(x):
    check_all_levels(K.int_powers, x)       # 15 ** 16 < 2 ** 63: no wrapping


@pytest.mark.parametrize("x", I64_EDGES)
def test_int_powers_give_pythons_value_or_overflow(x):
    want = tuple(x ** e for e in (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16))
    high = tuple(x ** e for e in (31, 32, 63, 64, 65))
    for f in _levels(K.int_powers):
        _same_or_overflow(f, x, want)
    for f in _levels(K.int_high_powers):
        _same_or_overflow(f, x, high)


@SET
@given(st.integers(I64_MIN, I64_MAX))
@example(I64_MIN)
@example(I64_MAX)
def test_int_high_powers_any_int64(x):
    want = tuple(x ** e for e in (31, 32, 63, 64, 65))
    for f in _levels(K.int_high_powers):
        _same_or_overflow(f, x, want)


@pytest.mark.parametrize("x", [0, 1, -1, 2, 3, 100, -100, 2**15 - 1, -(2**15), 2**31 - 1, -(2**31)])
def test_sized_int_powers(x):
    want = tuple(wrap(x ** e, 32) for e in (2, 3, 5))
    for f in _levels(K.i32_powers):
        assert f(x) == want


def test_u8_powers_exhaustively():
    for f in _levels(K.u8_powers):
        for x in range(256):
            assert f(x) == tuple(wrap(x ** e, 8, signed=False) for e in (2, 3, 7)), x


@SET
@given(st.integers(0, 62))
def test_two_to_the_n(n):
    check_all_levels(K.two_to, n)


@pytest.mark.parametrize("n", [63, 64, 65, 127, 128, 1000, I64_MAX])
def test_two_to_the_n_beyond_int64_overflows(n):
    for f in _levels(K.two_to):
        with pytest.raises(OverflowError, match=r"'2 \*\* n'"):
            f(n)


@pytest.mark.parametrize("n", [-1, -2, -62, -1000, I64_MIN])
def test_two_to_a_negative_n_is_cpythons_float(n):
    """The strength pass's shift form is the int side only: a negative exponent gives
    float(2) ** n, as CPython's int ** negative int does."""
    check_all_levels(K.two_to, n)


def test_two_to_the_n_u8_exhaustively():
    for f in _levels(K.two_to_u8):
        for n in range(256):
            assert f(n) == wrap(2 ** min(n, 9), 8, signed=False), n


def test_constant_exponent_after_inlining():
    for n in (0, 1, 5, 100):
        check_all_levels(K.power_in_loop, 3, n)
        check_all_levels(K.power_in_loop, -7, n)


@SET
@given(st.floats(allow_nan=True, allow_infinity=True, width=64))
@example(0.0)
@example(-0.0)
@example(math.inf)
@example(-math.inf)
@example(math.nan)
@example(5e-324)
def test_float_exponents_one_and_zero(x):
    check_all_levels(K.float_exact_powers, x)


@SET
@given(st.floats(allow_nan=True, allow_infinity=True, width=64))
@example(0.0)
@example(-0.0)
@example(math.inf)
@example(-math.inf)
@example(math.nan)
@example(1.3407807929942596e154)      # the square overflows: OverflowError at both levels
@example(79.44024735247876)           # glibc's pow(x, 2) is an ulp off here: x * x is not
def test_float_square(x):
    # At opt=0 the backend calls C pow (LLVM -O0 keeps it): CPython's own result. At the
    # default level x ** 2 is x * x, its documented meaning (docs/language.md: differences
    # from CPython), which both this pass and LLVM's -O2 give.
    check(K.float_square, compiled(K.float_square, opt=0), x)
    check(K.float_square_reference, compiled(K.float_square), x)


@pytest.mark.parametrize("x", I64_EDGES + [-5, -8, -9, -1023, -1024, -1025, 1023, 1025,
                                            -(2**62) - 1, 2**62 + 1])
def test_floordiv_and_mod_by_powers_of_two(x):
    check_all_levels(K.div_mod_pow2, x)


@SET
@given(st.integers(I64_MIN, I64_MAX))
def test_floordiv_and_mod_by_powers_of_two_any_int64(x):
    check_all_levels(K.div_mod_pow2, x)


def test_floordiv_and_mod_by_powers_of_two_exhaustive_i8_u8():
    for x in range(-128, 128):
        check_all_levels(K.div_mod_pow2_i8, x)
    for x in range(256):
        check_all_levels(K.div_mod_pow2_u8, x)
