"""`fractions.Fraction` in compiled code (lib/python/fractionlib.py, fraction_calls.py), against
CPython's fractions: values and their types, exceptions and their messages, Fractions passed
from Python and returned to it; results beyond int64 are OverflowErrors, never other values."""

from __future__ import annotations

import fractions
import math
from fractions import Fraction

import pytest
from hypothesis import given, settings, strategies as st

import script
from script.errors import CompileError

I64 = 2**63


def outcome(fn, *args):
    try:
        r = fn(*args)
    except Exception as e:      # noqa: BLE001 (the exception is the answer compared)
        return ("raise", type(e).__name__, str(e))
    return ("value", r, _types(r))


def _types(r):
    if isinstance(r, (tuple, list)):
        return type(r), tuple(_types(x) for x in r)
    return type(r)


def _fits(r) -> bool:
    if isinstance(r, (tuple, list)):
        return all(_fits(x) for x in r)
    if isinstance(r, Fraction):
        return -I64 <= r.numerator < I64 and r.denominator < I64
    return not isinstance(r, int) or -I64 <= r < I64


def check(fn, *args):
    """`fn` compiled gives CPython's outcome, or (where CPython's ints leave int64) an
    OverflowError of the compiled int family."""
    want = outcome(fn, *args)
    got = outcome(compiled(fn), *args)
    if want[0] == "value" and not _fits(want[1]) or want[0] == "raise" and want[1] == "OverflowError" and \
            got[0] == "raise" and "integer overflow in" in got[2]:
        assert got[0] == "raise" and got[1] == "OverflowError", (args, want, got)
        return
    if got[0] == "raise" and "integer overflow in" in got[2]:
        assert not _fits_inputs(args), (args, want, got)    # (an intermediate beyond int64: 10**e of a str)
        return
    assert got == want, (args, want, got)


_COMPILED: dict = {}


def compiled(fn):
    """`fn` compiled once for the module (each argument types compile once)."""
    if fn not in _COMPILED:
        _COMPILED[fn] = script.script(fn, int_overflow="raise")
    return _COMPILED[fn]


def _fits_inputs(args) -> bool:
    return all(abs(a) < 2**31 for a in args if isinstance(a, int)) and not any(isinstance(a, str) for a in args)


# ---- kernels ------------------------------------------------------------------------------

def arith(a, b, c, d):
    x = Fraction(a, b)
    y = Fraction(c, d)
    return x + y, x - y, x * y, x / y, -x, +y, abs(x), x + c, c - y, x * 3, 2 / y


def int_results(a, b, c, d):
    x = Fraction(a, b)
    y = Fraction(c, d)
    return x // y, x % y, int(x), round(x), math.floor(x), math.ceil(x), math.trunc(y), x.numerator, x.denominator


def divmods(a, b, c, d):
    x = Fraction(a, b)
    return divmod(x, Fraction(c, d)), divmod(x, c), divmod(c, x), divmod(x, 0.5)


def compare(a, b, c, d):
    x = Fraction(a, b)
    y = Fraction(c, d)
    return x < y, x <= y, x == y, x != y, x > y, x >= y, x == c, c < x, x >= d, bool(x)


def compare_float(a, b, f):
    x = Fraction(a, b)
    return x < f, x <= f, x == f, x != f, x > f, x >= f, f < x, f == x, x == complex(f, 0), x != complex(f, 1)


def mixed_float(a, b, f):
    x = Fraction(a, b)
    return x + f, f - x, x * f, float(x), x ** 0.5 if x > 0 else f ** 2


def text(a, b):
    x = Fraction(a, b)
    return str(x), repr(x), f"{x}!", f"{x!r}", str(x * b)


def printf(a, b):
    x = Fraction(a, b)
    return "%s and %r|%8s|%-20r|" % (x, x, x, x), f"{x!s:>8}|{x!r:<20}|"


def powers(a, b, p):
    return Fraction(a, b) ** p


def made(a, b):
    return Fraction(a, b)


def from_float(f):
    return Fraction(f)


def from_float_method(f):
    return Fraction.from_float(f), fractions.Fraction.from_float(3)


def parsed(text):
    return Fraction(text)


def from_fractions(a, b, c, d):
    return Fraction(Fraction(a, b), Fraction(c, d)), Fraction(Fraction(a, b)), Fraction(Fraction(a, b), c)


def hashed(a, b):
    return hash(Fraction(a, b))


def limited(a, b, m):
    return Fraction(a, b).limit_denominator(m)


def rounded(a, b, n):
    return round(Fraction(a, b), n)


def harmonic(n):
    return sum(Fraction(1, k) for k in range(1, n + 1))


def listed(xs):
    return (sum(xs), sum(xs, Fraction(1, 2)), sum(xs, 0), sum(xs, 1.5), sum(x for x in xs), sum((x for x in xs), 2),
            sorted(xs), min(xs), max(xs), [x * 2 for x in xs])


def expectations(size):
    """Project Euler 323's recurrence: a sum of a generator of Fractions, appended to a list."""
    expect = [fractions.Fraction(0)]
    for n in range(1, size + 1):
        temp = sum(math.comb(n, k) * expect[k] for k in range(n))
        expect.append((2**n + temp) / (2**n - 1))
    return expect[-1]


def none_summed(n):
    xs = [Fraction(1, k) for k in range(1, n)]
    return sum(xs, 0)


def doubled(x):
    return x * 2, x.numerator, isinstance(x, Fraction), isinstance(x, fractions.Fraction)


TENTH = Fraction(1, 10)
HUGE = Fraction(2**70, 3)


def against_global(a, b):
    return Fraction(a, b) < TENTH, TENTH * a, fractions.Fraction(a) + TENTH


def kinds(a):
    x = Fraction(a, 3)
    return isinstance(x, Fraction), isinstance(x, int), isinstance(a, Fraction)


# ---- tests --------------------------------------------------------------------------------

small = st.integers(-10**6, 10**6)
nonzero = small.filter(lambda v: v != 0)
wide = st.one_of(small, st.integers(-I64, I64 - 1), st.sampled_from([I64 - 1, -I64, 2**62, -(2**62), 2**32 + 1]))


@settings(max_examples=40, deadline=None)
@given(small, nonzero, small, nonzero)
def test_arithmetic(a, b, c, d):
    check(arith, a, b, c, d)
    check(int_results, a, b, c, d)
    check(compare, a, b, c, d)
    check(divmods, a, b, c, d)


@settings(max_examples=40, deadline=None)
@given(wide, wide.filter(lambda v: v != 0), wide, wide.filter(lambda v: v != 0))
def test_near_int64_limits(a, b, c, d):
    """Products beyond int64: OverflowError, never another value; comparisons never overflow."""
    check(arith, a, b, c, d)
    check(compare, a, b, c, d)


@settings(max_examples=40, deadline=None)
@given(small, nonzero, st.one_of(st.floats(allow_nan=True, allow_infinity=True),
                                 st.sampled_from([0.5, 1 / 3, 2.0**63, -2.0**63, 5e-324, 1e300])))
def test_float_comparisons_are_exact(a, b, f):
    check(compare_float, a, b, f)


@settings(max_examples=40, deadline=None)
@given(small, nonzero, st.floats(-1e6, 1e6))
def test_float_mixing(a, b, f):
    check(mixed_float, a, b, f)


@settings(max_examples=40, deadline=None)
@given(small, nonzero, st.integers(-6, 6))
def test_powers(a, b, p):
    check(powers, a, b, p)


@settings(max_examples=40, deadline=None)
@given(wide, wide)
def test_construction_and_text(a, b):
    check(made, a, b)
    if b != 0:
        check(text, a, b)
        check(printf, a, b)
        check(hashed, a, b)


@settings(max_examples=40, deadline=None)
@given(st.one_of(st.floats(), st.sampled_from([0.1, -2.5, 1e18, 1e300, 5e-324, float("nan"), float("inf")])))
def test_from_float(f):
    check(from_float, f)
    check(from_float_method, f)


@settings(max_examples=60, deadline=None)
@given(st.one_of(st.from_regex(r"\s?[-+]?(\d{0,4}|\d{1,3}(_\d{1,2}){0,2})(\s?/\s?\d{1,4}|\.\d{0,4})?"
                               r"([eE][-+]?\d{1,2})?\s?", fullmatch=True),
                 st.text(max_size=8), st.sampled_from(["1.d", "٣/٤", "1/0", "-0.000", "2/-3", "1__0", ""])))
def test_from_str(text):
    """CPython's own pattern (fractions._RATIONAL_FORMAT), read by compiled code's re."""
    check(parsed, text)


@settings(max_examples=30, deadline=None)
@given(small, nonzero, small, nonzero)
def test_from_fractions(a, b, c, d):
    check(from_fractions, a, b, c, d)


@settings(max_examples=30, deadline=None)
@given(small, nonzero, st.integers(-3, 10**7), st.integers(-4, 4))
def test_limit_denominator_and_round(a, b, m, n):
    check(limited, a, b, m)
    check(rounded, a, b, n)


def test_a_float_with_another_argument_is_cpythons_type_error():
    check(made, 1, 2.5)
    check(made, 1.5, 2)


def test_division_by_zero_messages():
    check(made, 1, 0)
    check(made, -7, 0)
    check(arith, 3, 4, 0, 5)            # x / Fraction(0): 'Fraction(1, 0)'
    check(int_results, 3, 4, 0, 5)      # x // 0, x % 0: int division's message
    check(powers, 0, 1, -2)
    check(divmods, 3, 4, 0, 5)


def test_hash_is_cpythons():
    for a, b in [(1, 2), (-1, 2), (1, 3), (-1, 1), (5, 2305843009213693951), (7, 2 * 2305843009213693951),
                 (I64 - 1, 3), (-I64, 1)]:
        assert compiled(hashed)(a, b) == hash(Fraction(a, b)), (a, b)
    assert compiled(hashed)(1, 2) == hash(0.5)


def test_sums_and_lists():
    check(harmonic, 20)
    check(expectations, 10)
    check(listed, [Fraction(1, 3), Fraction(-2, 5), Fraction(7, 2)])


def test_sum_of_none_is_refused():
    """CPython's sum of no Fractions is the int 0, which the compiled Fraction result cannot be."""
    with pytest.raises(TypeError, match="sum\\(\\) of no instances"):
        compiled(harmonic)(0)
    with pytest.raises(TypeError, match="sum\\(\\) of no instances"):
        compiled(none_summed)(1)
    check(none_summed, 4)


def test_arguments_and_results_are_cpythons_fractions():
    r = compiled(made)(2, -4)
    assert type(r) is Fraction and r == Fraction(-1, 2) and r._denominator == 2
    assert compiled(doubled)(Fraction(3, 7)) == (Fraction(6, 7), 3, True, True)
    check(kinds, 5)
    with pytest.raises(OverflowError, match="integer overflow in"):
        compiled(doubled)(Fraction(2**62, 3))


def test_module_level_fractions_are_constants():
    check(against_global, 1, 11)
    check(against_global, -3, 7)


def test_refusals():
    def fraction_power(a):
        return Fraction(a, 3) ** Fraction(2)

    def key(a):
        return {Fraction(a, 2): 1}

    def huge():
        return HUGE * 2
    with pytest.raises(CompileError, match="global 'HUGE' = Fraction.* does not fit"):
        script.script(huge)()
    with pytest.raises(CompileError, match="Fraction\\(\\) of a list"):
        script.script(parsed)([1])
    with pytest.raises(CompileError, match="for \\*\\* or pow\\(\\): 'Fraction' and 'Fraction'"):
        script.script(fraction_power)(2)
    with pytest.raises(CompileError, match="dict keys and set elements of class 'Fraction'"):
        script.script(key)(3)
