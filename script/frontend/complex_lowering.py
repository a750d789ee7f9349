"""Complex numbers in expressions: operators, `abs`, `complex(...)`, `.real`/`.imag`,
`.conjugate()` and the `cmath` module, with CPython's results and errors (docs/complex.md).

Requires the host class to be a `FunctionLowering`. Values of type ``c128`` (Python's
complex, NumPy's complex128) or ``c64`` (complex64) reach here after the operands met at a
complex type (`common_type`); the IR's complex ops (ops.py) are `add` `sub` `mul` `div`
`neg`, `cmp.eq`/`cmp.ne`, `complex` and `extract`; everything else is built from those and
float ops here, or calls routines written in the subset (cmathlib.py).
"""

from __future__ import annotations

import ast
import cmath
import math

from script.frontend import cmathlib
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


class ComplexLowering:
    """Mixin: complex operators and builtins."""

    # ---- parts -------------------------------------------------------------------------

    def complex_part(self, z: Value, k: int, node) -> Value:
        """The real (`k` 0) or imaginary (1) part of complex `z`."""
        if isinstance(z, Const):
            return Const(z.value.imag if k else z.value.real, z.type.part)
        return self.emit("extract", [z], z.type.part, k, self.loc(node))

    def make_complex(self, re: Value, im: Value, node) -> Value:
        if isinstance(re, Const) and isinstance(im, Const):
            return Const(complex(re.value, im.value), T.complex_of(re.type))
        return self.emit("complex", [re, im], T.complex_of(re.type), None, self.loc(node))

    def complex_attribute(self, z: Value, node: ast.Attribute) -> Value:
        if node.attr == "real":
            return self.complex_part(z, 0, node)
        if node.attr == "imag":
            return self.complex_part(z, 1, node)
        self.error(f"'{type_name(z.type)}' object has no attribute '{node.attr}' in compiled code", node)

    def complex_method(self, z: Value, name: str, node: ast.Call) -> Value:
        if name != "conjugate":
            self.error(f"'{type_name(z.type)}' object has no method '{name}' in compiled code", node)
        self.positional(node, "conjugate", 0)
        re, im = self.complex_part(z, 0, node), self.complex_part(z, 1, node)
        neg = Const(-im.value, im.type) if isinstance(im, Const) else \
            self.emit("neg", [im], im.type, None, self.loc(node))
        return self.make_complex(re, neg, node)

    # ---- operators ---------------------------------------------------------------------

    def complex_binop(self, name: str, a: Value, b: Value, t: T.ComplexType, node) -> Value:
        """`a op b` where the operands meet at complex type `t`."""
        if name in _NOT_COMPLEX:
            aug = "=" if isinstance(node, ast.AugAssign) else ""
            self.error(f"unsupported operand type(s) for {_NOT_COMPLEX[name]}{aug}: "
                       f"'{type_name(a.type)}' and '{type_name(b.type)}'", node)
        if name == "pow":
            return self.complex_pow(a, b, t, node)
        a, b = self.coerce(a, t, node), self.coerce(b, t, node)
        if name == "div":
            zero = self.cmp("eq", b, Const(0j, t), node)
            self.raise_if(zero, "ZeroDivisionError", "complex division by zero", node)
        return self.emit(name, [a, b], t, None, self.loc(node))

    def complex_pow(self, a: Value, b: Value, t: T.ComplexType, node) -> Value:
        """CPython's complex_pow: a constant integer exponent up to 100 is c_powu's
        multiplications inline (z ** 2 is ``1 * (z * z)``, as in CPython), any other
        exponent a call of cmathlib.c_pow; computed in c128, as CPython does."""
        loc = self.loc(node)
        a = self.coerce(a, T.C128, node)
        k = _small_int(b)
        if k is not None:
            r = self.inline_powu(a, k, node)
            inf = self.is_infinite_complex(r, node)
            self.raise_if(inf, "OverflowError", "complex exponentiation", node)
        else:
            b = self.coerce(b, T.C128, node)
            callee = self.ctx.callee(self, self.ctx.info_for(cmathlib.c_pow), (T.C128, T.C128), node)
            r = self.emit("call", [a, b], T.C128, callee, loc)
        return self.coerce_complex(r, t, node)

    def inline_powu(self, x: Value, n: int, node) -> Value:
        loc = self.loc(node)
        r: Value = Const(1 + 0j, T.C128)
        p, mask = x, 1
        while n >= mask:
            if n & mask:
                r = self.emit("mul", [r, p], T.C128, None, loc)
            mask <<= 1
            if n >= mask:            # the last squaring's result is never used
                p = self.emit("mul", [p, p], T.C128, None, loc)
        return r

    def coerce_complex(self, v: Value, t: T.ComplexType, node) -> Value:
        return v if v.type == t else self.emit("convert", [v], t, None, self.loc(node))

    def is_infinite_complex(self, z: Value, node) -> Value:
        """Whether either part of `z` is infinite."""
        loc = self.loc(node)
        inf = None
        for k in (0, 1):
            part = self.complex_part(z, k, node)
            ap = self.emit("abs", [part], part.type, None, loc)
            c = self.emit("cmp", [ap, Const(math.inf, part.type)], T.BOOL, "eq", loc)
            inf = c if inf is None else self.emit("or", [inf, c], T.BOOL, None, loc)
        return inf

    def complex_abs(self, z: Value, node) -> Value:
        """_Py_c_abs: hypot of the parts (C99: infinite when either part is, even with a NaN
        other part); OverflowError when finite parts give an infinite result."""
        loc = self.loc(node)
        re, im = self.complex_part(z, 0, node), self.complex_part(z, 1, node)
        r = self.emit("math", [re, im], re.type, "hypot", loc)
        if z.type == T.C64:
            return r            # NumPy's float32 result: inf, no exception
        fin = self.emit("and", [self.is_finite(re, loc), self.is_finite(im, loc)], T.BOOL, None, loc)
        over = self.emit("cmp", [r, Const(math.inf, r.type)], T.BOOL, "eq", loc)
        self.raise_if(self.emit("and", [fin, over], T.BOOL, None, loc), "OverflowError",
                      "absolute value too large", node)
        return r

    def complex_compare_error(self, op: ast.cmpop, a: Value, b: Value, node):
        symbol = {ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">="}[type(op)]
        self.error(f"'{symbol}' not supported between instances of '{type_name(a.type)}' and "
                   f"'{type_name(b.type)}'", node)

    # ---- builtins ----------------------------------------------------------------------

    def builtin_complex(self, node: ast.Call, name: str) -> Value:
        """complex(), complex(x), complex(real, imag) (also as keywords), CPython's rules:
        a complex `imag` gives ``real - imag.imag`` for the real part, a complex `real`
        adds its imaginary part to ``imag.real``."""
        args = list(node.args)
        kw = {k.arg: k.value for k in node.keywords}
        if set(kw) - {"real", "imag"} or len(args) + len(kw) > 2:
            self.error("complex() takes at most 2 arguments (real, imag)", node)
        if "real" in kw:
            if args:
                self.error("argument for complex() given by name ('real') and position (1)", node)
            args.append(kw["real"])
        if "imag" in kw:
            if not args:
                args.append(ast.Constant(0.0))
            args.append(kw["imag"])
        values = [self.expr(a) for a in args]
        for v in values:
            if not v.type.is_numeric():
                self.error(f"complex() argument must be a number, not '{type_name(v.type)}'", node)
        if not values:
            return Const(0j, T.C128)
        a = values[0]
        if len(values) == 1:
            return self.coerce(a, T.C128, node)
        b = values[1]
        ar, ai = self.real_and_imag(a, node)
        br, bi = self.real_and_imag(b, node)
        re = ar if bi is None else self.binop(ast.Sub, ar, bi, node)
        im = br if ai is None else self.binop(ast.Add, br, ai, node)
        return self.make_complex(self.coerce(re, T.F64, node), self.coerce(im, T.F64, node), node)

    def cmath_call(self, name: str, node: ast.Call) -> Value:
        """`cmath.name(...)`: the predicates inline, the rest calls of cmathlib's versions of
        CPython's functions (a complex, int or float argument becomes a complex)."""
        loc = self.loc(node)
        if name in ("isnan", "isinf", "isfinite"):
            (z,) = (self.complex_arg(v, node) for v in self.positional(node, f"cmath.{name}", 1))
            re, im = self.complex_part(z, 0, node), self.complex_part(z, 1, node)
            if name == "isnan":
                tests = [self.emit("cmp", [p, p], T.BOOL, "ne", loc) for p in (re, im)]
                return self.emit("or", tests, T.BOOL, None, loc)
            if name == "isinf":
                tests = [self.emit("cmp", [self.emit("abs", [p], T.F64, None, loc), Const(math.inf, T.F64)],
                                   T.BOOL, "eq", loc) for p in (re, im)]
                return self.emit("or", tests, T.BOOL, None, loc)
            return self.emit("and", [self.is_finite(re, loc), self.is_finite(im, loc)], T.BOOL, None, loc)
        if name == "phase":
            (z,) = (self.complex_arg(v, node) for v in self.positional(node, "cmath.phase", 1))
            re, im = self.complex_part(z, 0, node), self.complex_part(z, 1, node)
            return self.emit("math", [im, re], T.F64, "atan2", loc)
        if name == "rect":
            args = [self.float_arg(v, node) for v in self.positional(node, "cmath.rect", 2)]
            return self.call_cmathlib(cmathlib.rect, [self.coerce(a, T.F64, node) for a in args], node)
        if name == "isclose":
            return self.cmath_isclose(node)
        if name == "log":
            args = [self.complex_arg(v, node) for v in self.positional(node, "cmath.log", 1, 2)]
            return self.call_cmathlib(cmathlib.log_base if len(args) == 2 else cmathlib.log, args, node)
        fn = _CMATH_UNARY.get(name)
        if fn is None:
            self.error(f"cmath.{name} is not supported in compiled code", node)
        args = [self.complex_arg(v, node) for v in self.positional(node, f"cmath.{name}", 1)]
        return self.call_cmathlib(fn, args, node)

    def cmath_isclose(self, node: ast.Call) -> Value:
        kw = {k.arg: k.value for k in node.keywords}
        if len(node.args) != 2 or set(kw) - {"rel_tol", "abs_tol"}:
            self.error("isclose() takes 2 positional arguments and rel_tol, abs_tol", node)
        a, b = (self.complex_arg(self.expr(x), node) for x in node.args)
        tols = [self.coerce(self.float_arg(self.expr(kw[k]), node), T.F64, node) if k in kw else Const(d, T.F64)
                for k, d in (("rel_tol", 1e-9), ("abs_tol", 0.0))]
        return self.call_cmathlib(cmathlib.isclose, [a, b, *tols], node)

    def complex_arg(self, v: Value, node) -> Value:
        """A cmath argument: any number, as c128 (CPython's "D" conversion)."""
        if not v.type.is_numeric():
            self.error(f"must be real number, not {type_name(v.type)}", node)
        return self.coerce(v, T.C128, node)

    def call_cmathlib(self, fn, args: list, node) -> Value:
        callee = self.ctx.callee(self, self.ctx.info_for(fn), tuple(a.type for a in args), node)
        return self.emit("call", args, callee.ret_type, callee, self.loc(node))

    def real_and_imag(self, v: Value, node) -> tuple[Value, Value | None]:
        """A number's real part as f64 and, for a complex one, its imaginary part."""
        if isinstance(v.type, T.ComplexType):
            v = self.coerce(v, T.C128, node)
            return self.complex_part(v, 0, node), self.complex_part(v, 1, node)
        return self.coerce(v, T.F64, node), None


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
