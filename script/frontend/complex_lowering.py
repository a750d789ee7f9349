"""Complex numbers in expressions: operators, `abs`, `complex(...)`, `.real`/`.imag`,
`.conjugate()` and the `cmath` module, with CPython's results and errors (docs/complex.md).

Functions over the lowering `cx`. Values of type ``c128`` (Python's
complex, NumPy's complex128) or ``c64`` (complex64) reach here after the operands met at a
complex type (`common_type`); the IR's complex ops (ops.py) are `add` `sub` `mul` `div`
`neg`, `cmp.eq`/`cmp.ne`, `complex` and `extract`; everything else is built from those and
float ops here, or calls routines written in the subset (cmathlib.py).
"""

from __future__ import annotations

import ast
import cmath
import math

from script.lib.python import cmathlib
from script.frontend.typeinfer import python_type_name
from script.ir import types as T
from script.ir.core import Const, Value

# Operators CPython's complex does not define, by symbol.
_NOT_COMPLEX = {"floordiv": "//", "mod": "%", "and": "&", "or": "|", "xor": "^",
                "shl": "<<", "shr": ">>"}
# A constant integer exponent up to this is multiplied out inline (c_powu's steps).
_INLINE_POW = 100


def type_name(t: T.Type) -> str:
    """How CPython names the type of a value of `t` in its messages."""
    return {T.C64: "numpy.complex64", T.F32: "numpy.float32"}.get(t) or python_type_name(t)


def complex_part(cx, z: Value, k: int, node) -> Value:
    """The real (`k` 0) or imaginary (1) part of complex `z`."""
    if isinstance(z, Const):
        return Const(z.value.imag if k else z.value.real, z.type.part)
    return cx.emit("extract", [z], z.type.part, k, cx.loc(node))


def make_complex(cx, re: Value, im: Value, node) -> Value:
    if isinstance(re, Const) and isinstance(im, Const):
        return Const(complex(re.value, im.value), T.complex_of(re.type))
    return cx.emit("complex", [re, im], T.complex_of(re.type), None, cx.loc(node))


def complex_attribute(cx, z: Value, node: ast.Attribute) -> Value:
    if node.attr == "real":
        return complex_part(cx, z, 0, node)
    if node.attr == "imag":
        return complex_part(cx, z, 1, node)
    cx.error(f"'{type_name(z.type)}' object has no attribute '{node.attr}' in compiled code", node)


def complex_method(cx, z: Value, name: str, node: ast.Call) -> Value:
    if name != "conjugate":
        cx.error(f"'{type_name(z.type)}' object has no method '{name}' in compiled code", node)
    cx.positional(node, "conjugate", 0)
    re, im = complex_part(cx, z, 0, node), complex_part(cx, z, 1, node)
    neg = Const(-im.value, im.type) if isinstance(im, Const) else \
        cx.emit("neg", [im], im.type, None, cx.loc(node))
    return make_complex(cx, re, neg, node)

# ---- operators ---------------------------------------------------------------------


def complex_binop(cx, name: str, a: Value, b: Value, t: T.ComplexType, node) -> Value:
    """`a op b` where the operands meet at complex type `t`."""
    if name in _NOT_COMPLEX:
        aug = "=" if isinstance(node, ast.AugAssign) else ""
        cx.error(f"unsupported operand type(s) for {_NOT_COMPLEX[name]}{aug}: "
                 f"'{type_name(a.type)}' and '{type_name(b.type)}'", node)
    if name == "pow":
        return complex_pow(cx, a, b, t, node)
    a, b = cx.coerce(a, t, node), cx.coerce(b, t, node)
    if name == "div":
        zero = cx.cmp("eq", b, Const(0j, t), node)
        cx.raise_if(zero, "ZeroDivisionError", "complex division by zero", node)
    return cx.emit(name, [a, b], t, None, cx.loc(node))


def complex_pow(cx, a: Value, b: Value, t: T.ComplexType, node) -> Value:
    """CPython's complex_pow: a constant integer exponent up to 100 is c_powu's
    multiplications inline (z ** 2 is ``1 * (z * z)``, as in CPython), any other
    exponent a call of cmathlib.c_pow; computed in c128, as CPython does."""
    loc = cx.loc(node)
    a = cx.coerce(a, T.C128, node)
    k = _small_int(b)
    if k is not None:
        r = inline_powu(cx, a, k, node)
        inf = parts_test(cx, "isinf", r, node)
        cx.raise_if(inf, "OverflowError", "complex exponentiation", node)
    else:
        b = cx.coerce(b, T.C128, node)
        callee = cx.ctx.callee(cx, cx.ctx.info_for(cmathlib.c_pow), (T.C128, T.C128), node)
        r = cx.emit("call", [a, b], T.C128, callee, loc)
    return coerce_complex(cx, r, t, node)


def inline_powu(cx, x: Value, n: int, node) -> Value:
    loc = cx.loc(node)
    r: Value = Const(1 + 0j, T.C128)
    p, mask = x, 1
    while n >= mask:
        if n & mask:
            r = cx.emit("mul", [r, p], T.C128, None, loc)
        mask <<= 1
        if n >= mask:            # the last squaring's result is never used
            p = cx.emit("mul", [p, p], T.C128, None, loc)
    return r


def coerce_complex(cx, v: Value, t: T.ComplexType, node) -> Value:
    return v if v.type == t else cx.emit("convert", [v], t, None, cx.loc(node))


def float_test(cx, name: str, x: Value, loc) -> Value:
    """`isnan`, `isinf` or `isfinite` of a float `x` (NumPy's, math's and cmath's tests of
    each part); of an int or a bool, the constant."""
    if not isinstance(x.type, T.FloatType):
        return Const(name == "isfinite", T.BOOL)
    if name == "isnan":
        return cx.emit("cmp", [x, x], T.BOOL, "ne", loc)
    ax = cx.emit("abs", [x], x.type, None, loc)
    return cx.emit("cmp", [ax, Const(math.inf, x.type)], T.BOOL, "eq" if name == "isinf" else "lt", loc)


def parts_test(cx, name: str, z: Value, node) -> Value:
    """`isnan`, `isinf` or `isfinite` of complex `z`: of either part (both, for isfinite)."""
    loc = cx.loc(node)
    tests = [float_test(cx, name, complex_part(cx, z, k, node), loc) for k in (0, 1)]
    return cx.emit("and" if name == "isfinite" else "or", tests, T.BOOL, None, loc)


def complex_abs(cx, z: Value, node) -> Value:
    """_Py_c_abs: hypot of the parts (C99: infinite when either part is, even with a NaN
    other part); OverflowError when finite parts give an infinite result."""
    loc = cx.loc(node)
    re, im = complex_part(cx, z, 0, node), complex_part(cx, z, 1, node)
    r = cx.emit("math", [re, im], re.type, "hypot", loc)
    if z.type == T.C64:
        return r            # NumPy's float32 result: inf, no exception
    fin = cx.emit("and", [cx.is_finite(re, loc), cx.is_finite(im, loc)], T.BOOL, None, loc)
    over = cx.emit("cmp", [r, Const(math.inf, r.type)], T.BOOL, "eq", loc)
    cx.raise_if(cx.emit("and", [fin, over], T.BOOL, None, loc), "OverflowError",
                "absolute value too large", node)
    return r


def complex_compare_error(cx, op: ast.cmpop, a: Value, b: Value, node):
    symbol = {ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">="}[type(op)]
    cx.error(f"'{symbol}' not supported between instances of '{type_name(a.type)}' and "
             f"'{type_name(b.type)}'", node)

# ---- builtins ----------------------------------------------------------------------


def builtin_complex(cx, node: ast.Call, name: str) -> Value:
    """complex(), complex(x), complex(real, imag) (also as keywords), CPython's rules:
    a complex `imag` gives ``real - imag.imag`` for the real part, a complex `real`
    adds its imaginary part to ``imag.real``."""
    args = list(node.args)
    kw = {k.arg: k.value for k in node.keywords}
    if set(kw) - {"real", "imag"} or len(args) + len(kw) > 2:
        cx.error("complex() takes at most 2 arguments (real, imag)", node)
    if "real" in kw:
        if args:
            cx.error("argument for complex() given by name ('real') and position (1)", node)
        args.append(kw["real"])
    if "imag" in kw:
        if not args:
            args.append(ast.Constant(0.0))
        args.append(kw["imag"])
    values = [cx.expr(a) for a in args]
    for v in values:
        if not v.type.is_numeric():
            cx.error(f"complex() argument must be a number, not '{type_name(v.type)}'", node)
    if not values:
        return Const(0j, T.C128)
    a = values[0]
    if len(values) == 1:
        return cx.coerce(a, T.C128, node)
    b = values[1]
    ar, ai = real_and_imag(cx, a, node)
    br, bi = real_and_imag(cx, b, node)
    re = ar if bi is None else cx.binop(ast.Sub, ar, bi, node)
    im = br if ai is None else cx.binop(ast.Add, br, ai, node)
    return make_complex(cx, cx.coerce(re, T.F64, node), cx.coerce(im, T.F64, node), node)


def cmath_call(cx, name: str, node: ast.Call) -> Value:
    """`cmath.name(...)`: the predicates inline, the rest calls of cmathlib's versions of
    CPython's functions (a complex, int or float argument becomes a complex)."""
    loc = cx.loc(node)
    if name in ("isnan", "isinf", "isfinite"):
        (z,) = (complex_arg(cx, v, node) for v in cx.positional(node, f"cmath.{name}", 1))
        return parts_test(cx, name, z, node)
    if name == "phase":
        (z,) = (complex_arg(cx, v, node) for v in cx.positional(node, "cmath.phase", 1))
        re, im = complex_part(cx, z, 0, node), complex_part(cx, z, 1, node)
        return cx.emit("math", [im, re], T.F64, "atan2", loc)
    if name == "rect":
        args = [cx.float_arg(v, node) for v in cx.positional(node, "cmath.rect", 2)]
        return call_cmathlib(cx, cmathlib.rect, [cx.coerce(a, T.F64, node) for a in args], node)
    if name == "isclose":
        return cmath_isclose(cx, node)
    if name == "log":
        args = [complex_arg(cx, v, node) for v in cx.positional(node, "cmath.log", 1, 2)]
        return call_cmathlib(cx, cmathlib.log_base if len(args) == 2 else cmathlib.log, args, node)
    fn = _CMATH_UNARY.get(name)
    if fn is None:
        cx.error(f"cmath.{name} is not supported in compiled code", node)
    args = [complex_arg(cx, v, node) for v in cx.positional(node, f"cmath.{name}", 1)]
    return call_cmathlib(cx, fn, args, node)


def cmath_isclose(cx, node: ast.Call) -> Value:
    kw = {k.arg: k.value for k in node.keywords}
    if len(node.args) != 2 or set(kw) - {"rel_tol", "abs_tol"}:
        cx.error("isclose() takes 2 positional arguments and rel_tol, abs_tol", node)
    a, b = (complex_arg(cx, cx.expr(x), node) for x in node.args)
    tols = [cx.coerce(cx.float_arg(cx.expr(kw[k]), node), T.F64, node) if k in kw else Const(d, T.F64)
            for k, d in (("rel_tol", 1e-9), ("abs_tol", 0.0))]
    return call_cmathlib(cx, cmathlib.isclose, [a, b, *tols], node)


def complex_arg(cx, v: Value, node) -> Value:
    """A cmath argument: any number, as c128 (CPython's "D" conversion)."""
    if not v.type.is_numeric():
        cx.error(f"must be real number, not {type_name(v.type)}", node)
    return cx.coerce(v, T.C128, node)


def call_cmathlib(cx, fn, args: list, node) -> Value:
    callee = cx.ctx.callee(cx, cx.ctx.info_for(fn), tuple(a.type for a in args), node)
    return cx.emit("call", args, callee.ret_type, callee, cx.loc(node))


def real_and_imag(cx, v: Value, node) -> tuple[Value, Value | None]:
    """A number's real part as f64 and, for a complex one, its imaginary part."""
    if isinstance(v.type, T.ComplexType):
        v = cx.coerce(v, T.C128, node)
        return complex_part(cx, v, 0, node), complex_part(cx, v, 1, node)
    return cx.coerce(v, T.F64, node), None


def _small_int(b: Value) -> int | None:
    """The exponent of `z ** b` when it is a constant integer in [0, 100] (imaginary part
    zero): CPython's c_powu then multiplies, which is inlined."""
    if not isinstance(b, Const):
        return None
    v = complex(b.value)
    if v.imag != 0.0 or not math.isfinite(v.real) or v.real != math.floor(v.real):
        return None
    k = int(v.real)
    return k if 0 < k <= _INLINE_POW else None


_CMATH_UNARY = {"exp": cmathlib.exp, "sqrt": cmathlib.sqrt, "log10": cmathlib.log10,
                "sin": cmathlib.sin, "cos": cmathlib.cos, "tan": cmathlib.tan,
                "sinh": cmathlib.sinh, "cosh": cmathlib.cosh, "tanh": cmathlib.tanh,
                "polar": cmathlib.polar, "acos": cmathlib.acos, "asin": cmathlib.asin,
                "atan": cmathlib.atan, "acosh": cmathlib.acosh, "asinh": cmathlib.asinh,
                "atanh": cmathlib.atanh}

# `cmath` is handled by name (cmath_call); its constants are complex or float constants.
CMATH_CONSTANTS = {"pi": cmath.pi, "e": cmath.e, "tau": cmath.tau, "inf": cmath.inf,
                   "nan": cmath.nan, "infj": cmath.infj, "nanj": cmath.nanj}
