"""An interpreter of the IR, for tests: runs a `Function` on Python values with the
semantics documented in `script/ir/ops.py`.

It is written independently of the compiler's constant folder (`script/ir/semantics.py`) so
that comparing the two, and comparing a function's results before and after a pass, checks
something. Values: `int` (always within the type's range), `float` (f32 results rounded to
single precision), `bool`, None, tuples.

A `check` or `raise` raises `IRRaised`; an int op the frontend guards with a `check` (a
zero divisor, a negative shift count or exponent) and a float converted to an int it does
not fit raise `UndefinedBehavior`, so tests can tell "the program raised" from "the
program had no meaning", and a pass that runs such an op before its guard is caught. Float
ops never trap: `//` and `%` by zero give nan, as the backend's code does. `run_function` stops with
`StepLimitExceeded` after `step_limit` instructions.

    outcome(func, args) -> ("ret", value) | ("raise", name, message) | ("undefined",)
                           | ("step limit",)
"""

from __future__ import annotations

import math
import struct

from script.ir import types as T


class IRRaised(Exception):
    def __init__(self, name: str, message: str | None):
        super().__init__(name, message)
        self.name = name
        self.message = message


class UndefinedBehavior(Exception):
    pass


class StepLimitExceeded(Exception):
    pass


def to_f32(x: float) -> float:
    try:
        return struct.unpack("f", struct.pack("f", x))[0]
    except OverflowError:
        return math.copysign(math.inf, x)


def _int_to_f32(v: int) -> float:
    """Round an int to single precision in one step (ties to even)."""
    n = abs(v)
    shift = n.bit_length() - 24
    if shift > 0:
        q, r = divmod(n, 1 << shift)
        half = 1 << (shift - 1)
        if r > half or (r == half and q & 1):
            q += 1
        n = q << shift
    return to_f32(math.copysign(float(n), v) if v else 0.0)


def coerce(value, t: T.Type):
    """A Python value as a value of IR type `t` (wrapping ints, rounding f32)."""
    if isinstance(t, T.IntType):
        return t.wrap(int(value))
    if isinstance(t, T.FloatType):
        return to_f32(float(value)) if t.bits == 32 else float(value)
    if isinstance(t, T.BoolType):
        return bool(value)
    if isinstance(t, T.TupleType):
        return tuple(coerce(v, e) for v, e in zip(value, t.elems))
    return None


def run_function(func, args, step_limit: int = 100_000):
    state = {"steps": 0, "limit": step_limit}
    return _run(func, [coerce(a, p.type) for a, p in zip(args, func.params)], state)


def outcome(func, args, step_limit: int = 100_000):
    try:
        return ("ret", run_function(func, args, step_limit))
    except IRRaised as e:
        return ("raise", e.name, e.message)
    except UndefinedBehavior:
        return ("undefined",)
    except StepLimitExceeded:
        return ("step limit",)


def same_value(a, b) -> bool:
    """Equal as IR values: floats bit for bit except that any NaN equals any NaN."""
    if isinstance(a, tuple) and isinstance(b, tuple):
        return len(a) == len(b) and all(same_value(x, y) for x, y in zip(a, b))
    if isinstance(a, float) and isinstance(b, float):
        if math.isnan(a) or math.isnan(b):
            return math.isnan(a) and math.isnan(b)
        return struct.pack("d", a) == struct.pack("d", b)
    return type(a) is type(b) and a == b


def same_outcome(a, b) -> bool:
    if a[0] != b[0]:
        return False
    return same_value(a[1], b[1]) if a[0] == "ret" else a == b


def _format_message(exc, args):
    if exc.message is None:
        return None
    return exc.message.replace("%lld", "%d") % tuple(args)


def _run(func, args, state):
    env = {}
    block = func.entry
    while True:
        for p, a in zip(block.params, args):
            env[p] = a
        for i in block.instrs:
            state["steps"] += 1
            if state["steps"] > state["limit"]:
                raise StepLimitExceeded()
            vals = [_value(env, v) for v in i.operands]
            op = i.opname
            if op == "br":
                block, args = i.succs[0], vals
                break
            if op == "cbr":
                k = 0 if vals[0] else 1
                block, args = i.succs[k], [_value(env, v) for v in i.succ_args(k)]
                break
            if op == "ret":
                return vals[0] if vals else None
            if op == "raise":
                raise IRRaised(i.attr.name, _format_message(i.attr, vals))
            if op == "check":
                if vals[0]:
                    raise IRRaised(i.attr.name, _format_message(i.attr, vals[1:]))
                continue
            if op == "call":
                env[i] = _run(i.attr, vals, state)
                continue
            if op == "poll":           # no signal arrives while the interpreter runs
                continue
            env[i] = evaluate(op, i.attr, i.type, [v.type for v in i.operands], vals)
        else:
            raise AssertionError("block without terminator")


def _value(env, v):
    from script.ir.core import Const
    if isinstance(v, Const):
        return coerce(v.value, v.type)
    return env[v]


def evaluate(op, attr, rtype, types, vals):
    if op == "select":
        return vals[1] if vals[0] else vals[2]
    if op == "tuple":
        return tuple(vals)
    if op == "extract":
        return vals[0][attr]
    if op == "cmp":
        a, b = vals
        return {"eq": a == b, "ne": a != b, "lt": a < b, "le": a <= b, "gt": a > b,
                "ge": a >= b}[attr]
    if op == "convert":
        return _convert(vals[0], types[0], rtype)
    t = types[0]
    if op == "math":
        return coerce(_math(attr, *vals), t)
    if len(vals) == 1:
        return _unary(op, vals[0], t)
    a, b = vals
    if op in ("min", "max"):
        return (b if b < a else a) if op == "min" else (b if b > a else a)
    if isinstance(t, T.IntType):
        return _int_op(op, a, b, t)
    if isinstance(t, T.FloatType):
        return coerce(_float_op(op, a, b), t)
    if isinstance(t, T.BoolType) and op in ("and", "or", "xor"):
        return {"and": a and b, "or": a or b, "xor": a != b}[op]
    raise NotImplementedError(f"{op} on {t}")


def _unary(op, a, t):
    if op == "not":
        return not a
    if isinstance(t, T.IntType):
        return t.wrap({"neg": -a, "invert": ~a, "abs": abs(a)}[op])
    if op == "neg":
        return -a
    if op == "abs":
        return math.fabs(a)
    raise NotImplementedError(f"{op} on {t}")


def _int_op(op, a, b, t):
    if op in ("floordiv", "mod"):
        if b == 0:
            raise UndefinedBehavior(f"{op} {a}, {b}")
        return t.wrap(a // b) if op == "floordiv" else a % b      # MIN // -1 wraps to MIN
    if op in ("pow", "shl", "shr") and b < 0:
        raise UndefinedBehavior(f"{op} {a}, {b}")
    if op == "pow":
        result = 1
        base, e = a, b
        while e:                                   # repeated squaring, wrapping each step
            if e & 1:
                result = t.wrap(result * base)
            base, e = t.wrap(base * base), e >> 1
        return result
    if op == "shl":
        return t.wrap(a << b) if b < t.bits else 0
    if op == "shr":
        if b >= t.bits:
            return -1 if a < 0 else 0
        return a >> b
    return t.wrap({"add": a + b, "sub": a - b, "mul": a * b, "and": a & b, "or": a | b,
                   "xor": a ^ b}[op])


def _float_op(op, a, b):
    if op in ("add", "acc"):
        return a + b
    if op == "sub":
        return a - b
    if op == "mul":
        return a * b
    if op == "div":
        if b == 0:
            if a == 0 or math.isnan(a):
                return math.nan
            return math.copysign(math.inf, a) * math.copysign(1.0, b)
        return a / b
    if op in ("floordiv", "mod"):
        if b == 0:
            return math.nan      # the backend's CPython algorithm: fmod(a, 0.0) is nan
        return a // b if op == "floordiv" else a % b
    if op == "pow":
        return _c_pow(a, b)
    raise NotImplementedError(op)


def _c_pow(x, y):
    if y == 0 or x == 1:
        return 1.0
    try:
        return math.pow(x, y)
    except OverflowError:
        negative = x < 0 and float(y).is_integer() and int(y) % 2 == 1
        return -math.inf if negative else math.inf
    except ValueError:
        if x == 0:
            odd = float(y).is_integer() and int(y) % 2 == 1
            return math.copysign(math.inf, x) if odd else math.inf
        return math.nan


def _math(fn, *xs):
    f = {"fabs": math.fabs, "copysign": math.copysign, "pow": _c_pow, "gamma": math.gamma,
         "rint": lambda x: x if not math.isfinite(x) else math.copysign(float(round(x)), x),
         "round_digits": lambda x, n: round(x, int(n))}.get(fn)
    if f is None:
        f = getattr(math, fn)
    if fn in ("floor", "ceil", "trunc"):
        base = f
        f = lambda x: x if not math.isfinite(x) else math.copysign(float(base(x)), x)
    try:
        return f(*xs)
    except OverflowError:
        return math.inf
    except ValueError:
        return math.nan


def _convert(v, src, dst):
    if isinstance(dst, T.BoolType):
        return v != 0
    if isinstance(src, T.BoolType):
        return coerce(int(v), dst)
    if isinstance(src, T.IntType):
        if isinstance(dst, T.IntType):
            return dst.wrap(v)
        return float(v) if dst.bits == 64 else _int_to_f32(v)
    if isinstance(dst, T.FloatType):
        return coerce(v, dst)
    if not math.isfinite(v) or not dst.min <= math.trunc(v) <= dst.max:
        raise UndefinedBehavior(f"convert {v} to {dst}")
    return math.trunc(v)
