"""What pure ops compute on constants, and where computing them is not allowed.

This is the one place that knows (1) the exact value the backend's code gives for a pure op
on constant operands, following the semantics table in `script/ir/ops.py`, and (2) which
ops may be executed speculatively, i.e. where the original program would not have run them.

`fold` returns None whenever the backend's result is not certain to be the value computed
here: the op's evaluation would be undefined or would raise (a zero or, for signed ints, -1
divisor with the most negative dividend, a negative shift count or int exponent, a float
that does not fit the int it is converted to), or its result depends on a C library whose
rounding we cannot reproduce exactly (`math` functions other than the correctly rounded
ones, `pow` on floats outside its exact special cases, float `//` and `%` on `f32`). Floats
of type `f32` are rounded to single precision after every op (for +, -, *, / and sqrt,
rounding the double result once more is exact).

`is_speculatable` is the one definition of "safe to execute early": pure, and defined for
every value its non-constant operands may take. Passes that move code to where it may run
when the program would not have run it (licm) must ask it.
"""

from __future__ import annotations

import math
import struct

from script.ir import types as T
from script.ir.core import Const, Instr

__all__ = ["fold", "is_speculatable", "round_f32"]


def round_f32(x: float) -> float:
    """`x` rounded to the nearest single-precision float (ties to even), as a Python float."""
    try:
        return struct.unpack("f", struct.pack("f", x))[0]
    except OverflowError:
        return math.copysign(math.inf, x)


def fold(op: str, attr, rtype: T.Type, args: list[Const]) -> Const | None:
    """The constant `op` gives on the constants `args`, or None when not certain (see above)."""
    if not args or rtype == T.EXC:         # an `exception`: a value, not a number
        return None
    t = args[0].type
    vals = [round_f32(a.value) if t == T.F32 else a.value for a in args]
    if op == "complex":
        return Const(complex(*vals), rtype)
    if isinstance(t, T.ComplexType) or isinstance(rtype, T.ComplexType):
        return _fold_complex(op, attr, rtype, args)
    if op == "ovf":
        return _overflows(attr, vals[:-1])
    if op == "cmp":
        value = _compare(attr, *vals) if t.is_numeric() else None
    elif op == "select":
        return args[1] if vals[0] else args[2]
    elif op == "convert":
        value = _convert(vals[0], t, rtype)
    elif op == "math":
        value = _math(attr, vals, t) if isinstance(t, T.FloatType) else None
    elif op in ("neg", "invert", "not", "abs"):
        value = _unary(op, vals[0], t)
    elif len(args) == 2 and isinstance(t, T.IntType):
        value = _int_binary(op, vals[0], vals[1], t)
    elif len(args) == 2 and isinstance(t, T.FloatType):
        value = _float_binary(op, vals[0], vals[1], t)
    elif len(args) == 2 and isinstance(t, T.BoolType):
        value = _bool_binary(op, vals[0], vals[1])
    else:
        return None
    if value is None:
        return None
    if rtype == T.F32:
        value = round_f32(value)
    return Const(value, rtype)


def _overflows(kind: str, vals: list[int]) -> Const | None:
    """`ovf.kind` of constants: whether Python's exact result leaves int64 (None for a
    negative count or exponent, which the frontend's earlier check rejects)."""
    a = vals[0]
    if kind in ("neg", "abs"):
        exact = -a
    elif kind in ("shl", "pow") and vals[1] < 0:
        return None
    elif kind == "shl":
        exact = a << min(vals[1], 64)
    elif kind == "pow":
        exact = a ** vals[1] if abs(a) <= 1 or vals[1] <= 64 else 1 << 64
    elif kind == "floordiv":
        exact = a // vals[1] if vals[1] else 0
    else:
        exact = {"add": a + vals[1], "sub": a - vals[1], "mul": a * vals[1]}[kind]
    return Const(not T.I64.min <= exact <= T.I64.max, T.BOOL)


def _fold_complex(op: str, attr, rtype: T.Type, args: list[Const]) -> Const | None:
    """c128 ops as CPython computes them (its `complex` is the backend's: `_Py_c_prod`,
    `_Py_c_quot`); c64 results only where no rounding to single precision is involved."""
    t = args[0].type
    vals = [a.value for a in args]
    if op == "convert":
        if not t.is_numeric() or isinstance(t, T.ComplexType) and t.bits > rtype.bits:
            return None
        if rtype == T.C64 and not isinstance(t, T.ComplexType):
            return None
        return Const(complex(vals[0]), rtype)
    if t != T.C128:
        return None
    if op == "cmp" and attr in ("eq", "ne"):
        return Const((vals[0] == vals[1]) == (attr == "eq"), T.BOOL)
    if op == "neg":
        return Const(-vals[0], rtype)
    if op in ("add", "sub", "mul"):
        a, b = vals
        return Const(a + b if op == "add" else a - b if op == "sub" else a * b, rtype)
    if op == "div" and vals[1] != 0:
        return Const(vals[0] / vals[1], rtype)
    return None


def _compare(pred: str, a, b) -> bool:
    # Python's comparisons are the IR's: ints by value, floats IEEE (``ne`` true on NaN).
    return {"eq": a == b, "ne": a != b, "lt": a < b, "le": a <= b,
            "gt": a > b, "ge": a >= b}[pred]


def _min_max(op: str, a, b):
    if op == "min":
        return b if b < a else a
    return b if b > a else a


def _int_binary(op: str, a: int, b: int, t: T.IntType) -> int | None:
    if op in ("add", "sub", "mul", "and", "or", "xor", "min", "max"):
        if op in ("min", "max"):
            return _min_max(op, a, b)
        return t.wrap({"add": a + b, "sub": a - b, "mul": a * b,
                       "and": a & b, "or": a | b, "xor": a ^ b}[op])
    if op in ("floordiv", "mod"):
        if b == 0 or (t.signed and b == -1 and a == t.min):
            return None
        return a // b if op == "floordiv" else a % b
    if op in ("pow", "shl", "shr") and b < 0:
        return None
    if op == "pow":
        return t.wrap(pow(a, b, 1 << t.bits))
    if op == "shl":
        return t.wrap(a << b) if b < t.bits else 0
    if op == "shr":
        return a >> min(b, t.bits - 1) if t.signed else (a >> b if b < t.bits else 0)
    return None


def _float_binary(op: str, a: float, b: float, t: T.FloatType) -> float | None:
    if op in ("add", "acc"):
        return a + b
    if op == "sub":
        return a - b
    if op == "mul":
        return a * b
    if op == "div":
        return a / b if b != 0 else None
    if op in ("min", "max"):
        return _min_max(op, a, b)
    if op in ("floordiv", "mod"):
        if t.bits != 64 or b == 0:
            return None
        return a // b if op == "floordiv" else a % b    # CPython's float_divmod itself
    if op == "pow":
        return _exact_pow(a, b)
    return None


def _exact_pow(x: float, y: float) -> float | None:
    """C `pow` where C99 Annex F fixes the result exactly, None elsewhere."""
    if y == 0 or x == 1.0:
        return 1.0
    if y == 1.0:
        return x
    return None


def _bool_binary(op: str, a: bool, b: bool) -> bool | None:
    if op in ("and", "or", "xor"):
        return {"and": a and b, "or": a or b, "xor": a != b}[op]
    if op in ("min", "max"):
        return _min_max(op, a, b)
    return None


def _unary(op: str, a, t: T.Type):
    if isinstance(t, T.IntType):
        if op == "neg":
            return t.wrap(-a)
        if op == "invert":
            return t.wrap(~a)
        if op == "abs":
            return t.wrap(abs(a))
    elif isinstance(t, T.FloatType):
        if op == "neg":
            return -a
        if op == "abs":
            return math.fabs(a)
    elif isinstance(t, T.BoolType) and op == "not":
        return not a
    return None


def _convert(v, src: T.Type, dst: T.Type):
    if isinstance(dst, T.BoolType):
        return v != 0 if src.is_numeric() else None
    if isinstance(src, T.BoolType):
        return int(v) if isinstance(dst, T.IntType) else float(v) if isinstance(dst, T.FloatType) else None
    if isinstance(src, T.IntType):
        if isinstance(dst, T.IntType):
            return dst.wrap(v)
        if isinstance(dst, T.FloatType):
            # float(int) rounds once, correctly; to reach f32 in one rounding it must be exact.
            return float(v) if dst.bits == 64 or abs(v) <= 1 << 53 else None
        return None
    if isinstance(src, T.FloatType):
        if isinstance(dst, T.FloatType):
            return v
        if isinstance(dst, T.IntType) and math.isfinite(v):
            r = math.trunc(v)
            return r if dst.min <= r <= dst.max else None
    return None


def _round_integral(fn, x: float) -> float:
    if not math.isfinite(x):
        return x
    return math.copysign(float(fn(x)), x)     # keeps the sign of a zero result


def _math(fn: str, vals: list[float], t: T.FloatType) -> float | None:
    """The correctly rounded (or exact) C math functions; None for the others."""
    x = vals[0]
    if fn == "sqrt":
        return math.sqrt(x) if x >= 0 or math.isnan(x) else None
    if fn == "fabs":
        return math.fabs(x)
    if fn in ("floor", "ceil", "trunc", "rint"):
        return _round_integral({"floor": math.floor, "ceil": math.ceil, "trunc": math.trunc,
                                "rint": round}[fn], x)
    if fn == "copysign":
        return None if math.isnan(vals[1]) else math.copysign(x, vals[1])
    if fn in ("fmod", "remainder"):
        try:
            return (math.fmod if fn == "fmod" else math.remainder)(x, vals[1])
        except ValueError:
            return None
    if fn == "nextafter" and t.bits == 64:
        return math.nextafter(x, vals[1])
    if fn == "pow":
        return _exact_pow(x, vals[1])
    if fn == "round_digits" and t.bits == 64:
        try:
            return round(x, int(vals[1]))
        except OverflowError:       # (the frontend raises it where the result is infinite)
            return None
    return None


def is_speculatable(instr: Instr) -> bool:
    """Whether `instr` may run where the program would not have run it (hoisted out of a loop
    that might not iterate, or above the `check` that guards it): it is pure and its result
    is defined for every value of its non-constant operands.

    Int `floordiv`/`mod` need a constant divisor other than 0 (and -1 for signed ints), int
    `pow`/`shl`/`shr` a constant non-negative exponent or count, and float-to-int `convert`
    a constant operand in range. Float ops never trap.
    """
    if not instr.op.pure or instr.is_terminator:
        return False
    name = instr.opname
    ops = instr.operands
    t = ops[0].type if ops else None
    if isinstance(t, T.IntType) and name in ("floordiv", "mod", "pow", "shl", "shr"):
        b = ops[1]
        if not isinstance(b, Const):
            return False
        if name in ("floordiv", "mod"):
            return b.value != 0 and not (t.signed and b.value == -1)
        return b.value >= 0
    if name == "convert" and isinstance(t, T.FloatType) and isinstance(instr.type, T.IntType):
        return isinstance(ops[0], Const) and fold("convert", None, instr.type, ops) is not None
    return True
