"""Every IR op, lowered to native code, against Python's own semantics (script.ir.ops).

Functions are built by hand with the script.ir.core API, verified, compiled, and called
through the compiled-function object; each compiled function bundles several ops (returning
a tuple) to keep the number of compilations, and the test time, small.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from script.loadpath import compile_callable
from script.ir import types as T
from script.ir.core import Const, Function, Instr, Module, set_terminator
from script.ir.ops import MATH_FUNCS
from script.ir.verifier import verify_function

INT_TYPES = [T.I8, T.I16, T.I32, T.I64, T.U8, T.U16, T.U32, T.U64]
FLOAT_TYPES = [T.F32, T.F64]
CMP = ["eq", "ne", "lt", "le", "gt", "ge"]


def build(name, param_types, body, ret_type=None):
    """A verified function whose single block returns ``body(block, *params)``: a value, or a
    list of values (returned as a tuple)."""
    f = Function(name, param_types, T.NONE)
    result = body(f.entry, *f.params)
    if isinstance(result, list):
        result = f.entry.append(Instr("tuple", result, T.TupleType([v.type for v in result])))
    f.ret_type = ret_type or result.type
    set_terminator(f.entry, "ret", [result])
    verify_function(f)
    return f


def compiled(*funcs):
    """The first function compiled (with the others as callees), as a Python callable."""
    return compile_callable(Module(funcs), funcs[0].name)


def emit(block, op, operands, type=None, attr=None):
    return block.append(Instr(op, list(operands), type or operands[0].type, attr))


def int_edges(t):
    values = {0, 1, 2, 3, 7, t.max, t.max - 1, t.min, t.min + 1, t.max // 2, 100 % (t.max + 1)}
    if t.signed:
        values |= {-1, -2, -3, -7, t.min // 2, -100 % t.min if t.bits > 8 else -100}
    return sorted(v for v in values if t.min <= v <= t.max)


def same_float(got, want) -> bool:
    """Equal as floats: NaN equals NaN, and 0.0 differs from -0.0."""
    if math.isnan(want):
        return math.isnan(got)
    return got == want and math.copysign(1, got) == math.copysign(1, want)


def near_float(got, want, t) -> bool:
    """`same_float`, or for float32 within 2 units in the last place of `want`: NumPy's
    float32 power (and other transcendentals) on CPUs with AVX-512 is a SIMD approximation
    that can be 1 ULP off the correctly rounded value the compiled code gives."""
    if same_float(got, want) or t.bits == 64 or not (math.isfinite(got) and math.isfinite(want)):
        return same_float(got, want)
    return abs(got - want) <= 2 * float(np.spacing(np.float32(abs(want))))


# --- integers ------------------------------------------------------------------------------

@pytest.mark.parametrize("t", INT_TYPES, ids=str)
def test_int_arithmetic_and_compare(t):
    ops = ["add", "sub", "mul", "and", "or", "xor", "min", "max"]
    f = compiled(build(f"arith_{t}", [t, t], lambda blk, a, b: (
        [emit(blk, op, [a, b]) for op in ops] +
        [emit(blk, "cmp", [a, b], T.BOOL, p) for p in CMP])))
    for a, b in itertools.product(int_edges(t), repeat=2):
        want = [t.wrap(a + b), t.wrap(a - b), t.wrap(a * b), a & b, a | b, a ^ b,
                b if b < a else a, b if b > a else a,
                a == b, a != b, a < b, a <= b, a > b, a >= b]
        assert f(a, b) == tuple(want), (a, b)


@pytest.mark.parametrize("t", INT_TYPES, ids=str)
def test_int_floordiv_mod_pow(t):
    f = compiled(build(f"divmod_{t}", [t, t], lambda blk, a, b: [
        emit(blk, "floordiv", [a, b]), emit(blk, "mod", [a, b])]))
    for a, b in itertools.product(int_edges(t), repeat=2):
        if b != 0:
            assert f(a, b) == (t.wrap(a // b), t.wrap(a % b)), (a, b)
    p = compiled(build(f"pow_{t}", [t, t], lambda blk, a, b: emit(blk, "pow", [a, b])))
    m = 1 << t.bits
    for a in int_edges(t):
        for e in [0, 1, 2, 3, 7, 8, 31, 63, 64, 65, 127]:
            if e <= t.max:
                assert p(a, e) == t.wrap(pow(a, e, m)), (a, e)


def test_int_min_floordiv_minus_one_wraps():
    f = compiled(build("divmin", [T.I64, T.I64], lambda blk, a, b: [
        emit(blk, "floordiv", [a, b]), emit(blk, "mod", [a, b])]))
    assert f(T.I64.min, -1) == (T.I64.min, 0)
    assert f(-7, 2) == (-4, 1)
    assert f(7, -2) == (-4, -1)
    assert f(-7, -2) == (3, -1)


@pytest.mark.parametrize("t", INT_TYPES, ids=str)
def test_int_shifts(t):
    f = compiled(build(f"shift_{t}", [t, t], lambda blk, a, b: [
        emit(blk, "shl", [a, b]), emit(blk, "shr", [a, b])]))
    counts = [c for c in (0, 1, 3, t.bits - 1, t.bits, t.bits + 1, 2 * t.bits, t.max) if c <= t.max]
    for a in int_edges(t):
        for c in counts:
            want_shl = t.wrap(a << c) if c < t.bits else 0
            assert f(a, c) == (want_shl, a >> c), (a, c)


@pytest.mark.parametrize("t", INT_TYPES, ids=str)
def test_int_unary(t):
    f = compiled(build(f"unary_{t}", [t], lambda blk, a: [
        emit(blk, "neg", [a]), emit(blk, "invert", [a]), emit(blk, "abs", [a])]))
    for a in int_edges(t):
        assert f(a) == (t.wrap(-a), t.wrap(~a), t.wrap(abs(a)) if t.signed else a), a


def test_bool_ops():
    f = compiled(build("bools", [T.BOOL, T.BOOL], lambda blk, a, b: (
        [emit(blk, op, [a, b]) for op in ("and", "or", "xor", "min", "max")] +
        [emit(blk, "not", [a])] + [emit(blk, "cmp", [a, b], T.BOOL, p) for p in CMP])))
    for a, b in itertools.product([False, True], repeat=2):
        want = (a and b, a or b, a != b, b if b < a else a, b if b > a else a, not a,
                a == b, a != b, a < b, a <= b, a > b, a >= b)
        got = f(a, b)
        assert got == want and all(type(x) is bool for x in got), (a, b)


# --- floats --------------------------------------------------------------------------------

FLOAT_EDGES = [0.0, -0.0, 1.0, -1.0, 1.5, -2.5, 3.0, 7.25, -7.25, 1e300, -1e-300, 5e-324,
               math.inf, -math.inf, math.nan]


def as_type(t, x):
    """`x` rounded to `t` (f32 overflows to inf)."""
    if t.bits == 64:
        return x
    with np.errstate(over="ignore"):
        return float(np.float32(x))


def ref(t, fn, *args):
    """`fn` over `args` in `t`'s precision (numpy float32 for f32), NaN where Python raises."""
    if t.bits == 32:
        args = [np.float32(a) for a in args]
    with np.errstate(all="ignore"):
        try:
            return float(fn(*args))
        except ZeroDivisionError:
            return None


@pytest.mark.parametrize("t", FLOAT_TYPES, ids=str)
def test_float_arithmetic_and_compare(t):
    ops = ["add", "sub", "mul", "div", "min", "max"]
    f = compiled(build(f"farith_{t}", [t, t], lambda blk, a, b: (
        [emit(blk, op, [a, b]) for op in ops] +
        [emit(blk, "cmp", [a, b], T.BOOL, p) for p in CMP])))
    for a, b in itertools.product(FLOAT_EDGES, repeat=2):
        a, b = as_type(t, a), as_type(t, b)
        got = f(a, b)
        want = [ref(t, lambda x, y: x + y, a, b), ref(t, lambda x, y: x - y, a, b),
                ref(t, lambda x, y: x * y, a, b), ref(t, np.true_divide, a, b),
                b if b < a else a, b if b > a else a]
        for g, w in zip(got, want):
            assert same_float(g, w), (a, b, got, want)
        assert got[6:] == (a == b, a != b, a < b, a <= b, a > b, a >= b), (a, b)


@pytest.mark.parametrize("t", FLOAT_TYPES, ids=str)
def test_float_floordiv_mod_pow(t):
    """Python's float // and % (CPython's float_divmod, signed zeros and infinities
    included); numpy's float32 floor_divide/remainder use the same algorithm."""
    f = compiled(build(f"fdivmod_{t}", [t, t], lambda blk, a, b: [
        emit(blk, op, [a, b]) for op in ("floordiv", "mod", "pow")]))
    for a, b in itertools.product(FLOAT_EDGES, repeat=2):
        a, b = as_type(t, a), as_type(t, b)
        got = f(a, b)
        if b != 0:
            if t.bits == 64:
                want = (a // b, a % b)
            else:
                want = (ref(t, np.floor_divide, a, b), ref(t, np.remainder, a, b))
            assert same_float(got[0], want[0]) and same_float(got[1], want[1]), (a, b, got, want)
        assert near_float(got[2], ref(t, np.power, a, b), t), (a, b, got)


def test_float_divmod_signed_zeros_exactly_as_cpython():
    f = compiled(build("fdm", [T.F64, T.F64], lambda blk, a, b: [
        emit(blk, "floordiv", [a, b]), emit(blk, "mod", [a, b])]))
    cases = [(-0.0, 1.0), (0.0, -1.0), (-0.0, -1.0), (1.0, math.inf), (-1.0, math.inf),
             (1.0, -math.inf), (-1.0, -math.inf), (math.inf, 2.0), (5.0, -3.0), (-5.0, 3.0),
             (1e-300, -1e300), (0.5, 0.1)]
    for a, b in cases:
        got = f(a, b)
        assert same_float(got[0], a // b) and same_float(got[1], a % b), (a, b, got)


@pytest.mark.parametrize("t", FLOAT_TYPES, ids=str)
def test_float_unary(t):
    f = compiled(build(f"funary_{t}", [t], lambda blk, a: [
        emit(blk, "neg", [a]), emit(blk, "abs", [a])]))
    for a in FLOAT_EDGES:
        a = as_type(t, a)
        neg, ab = f(a)
        assert same_float(neg, -a) and same_float(ab, abs(a)), a


def test_min_max_with_nan_follow_python():
    f = compiled(build("mm", [T.F64, T.F64], lambda blk, a, b: [
        emit(blk, "min", [a, b]), emit(blk, "max", [a, b])]))
    nan = math.nan
    for a, b in [(nan, 1.0), (1.0, nan), (nan, nan), (0.0, -0.0), (-0.0, 0.0)]:
        got = f(a, b)
        assert same_float(got[0], min(a, b)) and same_float(got[1], max(a, b)), (a, b)


# --- math ----------------------------------------------------------------------------------

def _ieee(pick, x, y):
    """IEEE 754-2019 maximum/minimum: a NaN if either is one, -0.0 below 0.0."""
    if math.isnan(x) or math.isnan(y):
        return math.nan
    if x == y == 0:
        return pick(x, y, key=lambda z: math.copysign(1.0, z))
    return pick(x, y)


PY_MATH = {name: getattr(math, name, None) for name in MATH_FUNCS}
PY_MATH.update(norm2=math.hypot, floor=np.floor, ceil=np.ceil, trunc=np.trunc, rint=np.rint,
               exp2=getattr(math, "exp2", lambda x: 2.0 ** x),
               cbrt=getattr(math, "cbrt", lambda x: math.copysign(abs(x) ** (1 / 3), x)),
               round_digits=lambda x, n: round(float(x), int(n)),
               fmaximum=lambda x, y: _ieee(max, x, y), fminimum=lambda x, y: _ieee(min, x, y))
UNARY = sorted(n for n, (arity, _) in MATH_FUNCS.items() if arity == 1)
BINARY = sorted(n for n, (arity, _) in MATH_FUNCS.items() if arity == 2)
# Python implements these itself (not with the C library), or only approximately here.
LOOSE = {"gamma", "lgamma", "cbrt", "exp2", "pow", "erf", "erfc"}


def py_math(name, *args):
    try:
        return PY_MATH[name](*args)
    except (ValueError, OverflowError, ZeroDivisionError):
        return None


@pytest.mark.parametrize("t", FLOAT_TYPES, ids=str)
def test_math_functions(t):
    f = compiled(build(f"math_{t}", [t, t], lambda blk, x, y: (
        [emit(blk, "math", [x], t, name) for name in UNARY] +
        [emit(blk, "math", [x, y], t, name) for name in BINARY])))
    names = UNARY + BINARY
    xs = [0.25, 0.5, -0.75, 1.5, 2.0, 10.0, -0.0, math.inf, -math.inf, math.nan]
    for x, y in itertools.product(xs, [0.5, -2.0, 3.0]):
        x, y = as_type(t, x), as_type(t, y)
        for name, got in zip(names, f(x, y)):
            want = py_math(name, *((x,) if name in UNARY else (x, y)))
            if name == "nextafter" and t.bits == 32:       # a step in float32's own spacing
                want = np.nextafter(np.float32(x), np.float32(y))
            if want is None:
                continue
            want = as_type(t, float(want))
            if not (math.isfinite(want) and want != 0):
                assert same_float(got, want) or (t.bits == 32 and math.isinf(want)), \
                    (name, x, y, got)
                continue
            rel = 1e-6 if t.bits == 32 else 1e-12 if name in LOOSE else 1e-15
            tiny = 1e-37 if t.bits == 32 else 1e-300     # subnormals carry few digits
            assert got == pytest.approx(want, rel=rel, abs=tiny), (name, x, y, got, want)


# --- conversions ---------------------------------------------------------------------------

SCALARS = [T.BOOL] + INT_TYPES + FLOAT_TYPES


def convert_bundle(src):
    return compiled(build(f"convert_{src}", [src], lambda blk, x: [
        emit(blk, "convert", [x], dst) for dst in SCALARS]))


def expected_convert(x, dst):
    if dst == T.BOOL:
        return bool(x)
    if isinstance(dst, T.FloatType):
        return as_type(dst, float(x))
    return dst.wrap(math.trunc(x)) if isinstance(x, float) else dst.wrap(int(x))


@pytest.mark.parametrize("src", SCALARS, ids=str)
def test_convert(src):
    f = convert_bundle(src)
    if src == T.BOOL:
        values = [False, True]
    elif isinstance(src, T.IntType):
        values = int_edges(src)
    else:
        values = [0.0, -0.0, 0.4, 1.5, 99.99, 127.0]   # in range of every int type
    values = [as_type(src, x) if isinstance(src, T.FloatType) else x for x in values]
    for x in values:
        got = f(x)
        want = [expected_convert(x, dst) for dst in SCALARS]
        for dst, g, w in zip(SCALARS, got, want):
            assert type(g) is type(w) and (g == w or same_float(g, w)), (src, dst, x, g, w)


def test_convert_float_to_wide_ints_and_nan_to_bool():
    f = compiled(build("f2i", [T.F64], lambda blk, x: [
        emit(blk, "convert", [x], dst) for dst in (T.I64, T.U64, T.BOOL, T.F32)]))
    assert f(-2.0 ** 62 - 1024)[0] == -2 ** 62 - 1024
    assert f(-3.99)[0] == -3
    assert f(2.0 ** 63 + 2.0 ** 12)[1] == 2 ** 63 + 2 ** 12
    assert f(math.nan)[2] is True and f(0.0)[2] is False and f(-0.0)[2] is False
    assert f(1e300)[3] == math.inf and f(0.1)[3] == float(np.float32(0.1))


# --- select, tuples, constants -------------------------------------------------------------

def test_select_tuple_extract():
    pair = T.TupleType([T.I64, T.F64])

    def body(blk, c, a, x):
        t1 = emit(blk, "tuple", [a, x], pair)
        t2 = emit(blk, "tuple", [Const(-1, T.I64), Const(-0.0, T.F64)], pair)
        s = emit(blk, "select", [c, t1, t2], pair)
        return [emit(blk, "extract", [s], T.F64, 1), emit(blk, "extract", [s], T.I64, 0),
                emit(blk, "select", [c, a, Const(7, T.I64)], T.I64)]
    f = compiled(build("sel", [T.BOOL, T.I64, T.F64], body))
    assert f(True, 5, 2.5) == (2.5, 5, 5)
    got = f(False, 5, 2.5)
    assert got[1:] == (-1, 7) and same_float(got[0], -0.0)


def test_constants_of_every_type():
    values = [Const(True, T.BOOL), Const(-128, T.I8), Const(255, T.U8), Const(2 ** 64 - 1, T.U64),
              Const(T.I64.min, T.I64), Const(math.nan, T.F64), Const(-0.0, T.F64),
              Const(math.inf, T.F32), Const(0.1, T.F32), Const(None, T.NONE)]
    f = compiled(build("consts", [], lambda blk: list(values)))
    got = f()
    assert got[:5] == (True, -128, 255, 2 ** 64 - 1, T.I64.min)
    assert math.isnan(got[5]) and same_float(got[6], -0.0) and got[7] == math.inf
    assert got[8] == float(np.float32(0.1)) and got[9] is None
