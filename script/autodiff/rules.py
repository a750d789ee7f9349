"""The adjoint of each op: one rule per op name, found in `RULES` (as the backend's
_HANDLERS), and one derivative per `math` function in `MATH_DERIVATIVES`.

A rule runs in the reverse sweep, inside the block that undoes the instruction's block, as
``rule(rx, instr, g)``: `g` is the adjoint of the instruction's float result (never the
constant zero: the builder skips those). It adds each operand's share to that operand's
adjoint with ``rx.acc(operand, value)`` (which ignores inactive operands), and reads the
primal values it needs with ``rx.primal(v)``, which gives the value the forward sweep had at
this point (used directly, recomputed, or read from the tape: script.autodiff.adjoint). Rules
emit straight-line code only (`select` rather than branches), so the reverse of a block is
one block. Memory ops (`load`, `store`) and `call` are the builder's own, since they need
shadow arrays and callee adjoints.
"""

from __future__ import annotations

import math

from script.ir import types as T


def _add(rx, i, g):
    rx.acc(i.operands[0], g)
    rx.acc(i.operands[1], g)


def _sub(rx, i, g):
    rx.acc(i.operands[0], g)
    if rx.active(i.operands[1]):
        rx.acc(i.operands[1], rx.emit("neg", [g]))


def _mul(rx, i, g):
    a, b = i.operands
    if rx.active(a):
        rx.acc(a, rx.emit("mul", [g, rx.primal(b)]))
    if rx.active(b):
        rx.acc(b, rx.emit("mul", [g, rx.primal(a)]))


def _div(rx, i, g):
    # y = a / b: da = g / b, db = -g * y / b
    a, b = i.operands
    pb = rx.primal(b)
    if rx.active(a):
        rx.acc(a, rx.emit("div", [g, pb]))
    if rx.active(b):
        rx.acc(b, rx.emit("neg", [rx.emit("div", [rx.emit("mul", [g, rx.primal(i)]), pb])]))


def _neg(rx, i, g):
    rx.acc(i.operands[0], rx.emit("neg", [g]))


def _abs(rx, i, g):
    # d|a| = sign(a), taken as +1 at 0 (and for NaN): select(a < 0, -g, g)
    a = i.operands[0]
    neg = rx.emit("cmp", [rx.primal(a), rx.const(0.0, a.type)], T.BOOL, "lt")
    rx.acc(a, rx.emit("select", [neg, rx.emit("neg", [g]), g]))


def _minmax(rx, i, g):
    # min(a, b) is `b if b < a else a` (ops.py), max `b if b > a else a`: b gets g exactly
    # when it was chosen.
    a, b = i.operands
    pred = "lt" if i.opname == "min" else "gt"
    took_b = rx.emit("cmp", [rx.primal(b), rx.primal(a)], T.BOOL, pred)
    zero = rx.const(0.0, g.type)
    if rx.active(a):
        rx.acc(a, rx.emit("select", [took_b, zero, g]))
    if rx.active(b):
        rx.acc(b, rx.emit("select", [took_b, g, zero]))


def _select(rx, i, g):
    c, a, b = i.operands
    zero = rx.const(0.0, g.type)
    pc = rx.primal(c)
    if rx.active(a):
        rx.acc(a, rx.emit("select", [pc, g, zero]))
    if rx.active(b):
        rx.acc(b, rx.emit("select", [pc, zero, g]))


def _convert(rx, i, g):
    a = i.operands[0]
    if isinstance(a.type, T.FloatType):
        rx.acc(a, g if a.type == g.type else rx.emit("convert", [g], a.type))


def _pow(rx, i, g):
    # y = a ** b: da = g * b * a ** (b - 1); db = g * y * log(a) where a > 0, else 0
    a, b = i.operands
    pa, pb = rx.primal(a), rx.primal(b)
    t = g.type
    if rx.active(a):
        one = rx.const(1.0, t)
        d = rx.emit("mul", [pb, rx.emit("pow", [pa, rx.emit("sub", [pb, one])])])
        rx.acc(a, rx.emit("mul", [g, d]))
    if rx.active(b):
        pos = rx.emit("cmp", [pa, rx.const(0.0, t)], T.BOOL, "gt")
        safe = rx.emit("select", [pos, pa, rx.const(1.0, t)])
        d = rx.emit("mul", [rx.primal(i), rx.emit("math", [safe], t, "log")])
        rx.acc(b, rx.emit("select", [pos, rx.emit("mul", [g, d]), rx.const(0.0, t)]))


def _floordiv(rx, i, g):
    # piecewise constant: no derivative
    return


def _mod(rx, i, g):
    # y = a - b * floor(a / b): da = g, db = -g * floor(a / b)
    a, b = i.operands
    rx.acc(a, g)
    if rx.active(b):
        q = rx.emit("floordiv", [rx.primal(a), rx.primal(b)])
        rx.acc(b, rx.emit("neg", [rx.emit("mul", [g, q])]))


def _math(rx, i, g):
    fn = i.attr
    rule = MATH_DERIVATIVES.get(fn)
    if rule is None:
        rx.refuse(i, f"cannot differentiate math.{fn}")
    rule(rx, i, g)


def _unary(derivative):
    """A rule for y = f(x) from dy/dx written with the primal x and y."""
    def rule(rx, i, g):
        x = i.operands[0]
        if rx.active(x):
            rx.acc(x, rx.emit("mul", [g, derivative(rx, x, i)]))
    return rule


def _c(rx, x, value):
    return rx.const(value, x.type)


def _fm(rx, fn, *args):
    return rx.emit("math", list(args), args[0].type, fn)


def _sq(rx, v):
    return rx.emit("mul", [v, v])


def _sqrt_d(rx, x, y):          # 1 / (2 sqrt x)
    return rx.emit("div", [_c(rx, x, 0.5), rx.primal(y)])


def _log_d(base):
    def d(rx, x, y):
        den = rx.primal(x) if base is None else rx.emit("mul", [rx.primal(x), _c(rx, x, math.log(base))])
        return rx.emit("div", [_c(rx, x, 1.0), den])
    return d


def _tanh_d(rx, x, y):
    return rx.emit("sub", [_c(rx, x, 1.0), _sq(rx, rx.primal(y))])


def _tan_d(rx, x, y):
    return rx.emit("add", [_c(rx, x, 1.0), _sq(rx, rx.primal(y))])


def _inv_sqrt(rx, x, inner):
    return rx.emit("div", [_c(rx, x, 1.0), _fm(rx, "sqrt", inner)])


def _erf_d(rx, x, y):           # 2/sqrt(pi) exp(-x^2)
    e = _fm(rx, "exp", rx.emit("neg", [_sq(rx, rx.primal(x))]))
    return rx.emit("mul", [_c(rx, x, 2.0 / math.sqrt(math.pi)), e])


def _zero_d(rx, x, y):
    return _c(rx, x, 0.0)


def _sign_d(rx, x, y):
    neg = rx.emit("cmp", [rx.primal(x), _c(rx, x, 0.0)], T.BOOL, "lt")
    return rx.emit("select", [neg, _c(rx, x, -1.0), _c(rx, x, 1.0)])


def _atan2(rx, i, g):
    # y = atan2(a, b): da = g b / (a^2 + b^2), db = -g a / (a^2 + b^2)
    a, b = i.operands
    pa, pb = rx.primal(a), rx.primal(b)
    r2 = rx.emit("add", [_sq(rx, pa), _sq(rx, pb)])
    if rx.active(a):
        rx.acc(a, rx.emit("div", [rx.emit("mul", [g, pb]), r2]))
    if rx.active(b):
        rx.acc(b, rx.emit("neg", [rx.emit("div", [rx.emit("mul", [g, pa]), r2])]))


def _hypot(rx, i, g):
    a, b = i.operands
    y = rx.primal(i)
    for v in (a, b):
        if rx.active(v):
            rx.acc(v, rx.emit("div", [rx.emit("mul", [g, rx.primal(v)]), y]))


def _copysign(rx, i, g):
    # |a| with b's sign: da = g * sign(a) * sign(b) (signs of the bits, as copysign reads them)
    a = i.operands[0]
    if rx.active(a):
        one = _c(rx, a, 1.0)
        s = rx.emit("mul", [_fm(rx, "copysign", one, rx.primal(a)), _fm(rx, "copysign", one, rx.primal(i.operands[1]))])
        rx.acc(a, rx.emit("mul", [g, s]))


def _fmod(rx, i, g):
    # y = a - b * trunc(a / b)
    a, b = i.operands
    rx.acc(a, g)
    if rx.active(b):
        q = _fm(rx, "trunc", rx.emit("div", [rx.primal(a), rx.primal(b)]))
        rx.acc(b, rx.emit("neg", [rx.emit("mul", [g, q])]))


def _fma(rx, i, g):
    a, b, c = i.operands
    if rx.active(a):
        rx.acc(a, rx.emit("mul", [g, rx.primal(b)]))
    if rx.active(b):
        rx.acc(b, rx.emit("mul", [g, rx.primal(a)]))
    rx.acc(c, g)


MATH_DERIVATIVES = {
    "sqrt": _unary(_sqrt_d),
    "exp": _unary(lambda rx, x, y: rx.primal(y)),
    "expm1": _unary(lambda rx, x, y: rx.emit("add", [rx.primal(y), _c(rx, x, 1.0)])),
    "exp2": _unary(lambda rx, x, y: rx.emit("mul", [rx.primal(y), _c(rx, x, math.log(2.0))])),
    "log": _unary(_log_d(None)),
    "log2": _unary(_log_d(2.0)),
    "log10": _unary(_log_d(10.0)),
    "log1p": _unary(lambda rx, x, y: rx.emit("div", [_c(rx, x, 1.0),
                                                      rx.emit("add", [rx.primal(x), _c(rx, x, 1.0)])])),
    "sin": _unary(lambda rx, x, y: _fm(rx, "cos", rx.primal(x))),
    "cos": _unary(lambda rx, x, y: rx.emit("neg", [_fm(rx, "sin", rx.primal(x))])),
    "tan": _unary(_tan_d),
    "asin": _unary(lambda rx, x, y: _inv_sqrt(rx, x, rx.emit("sub", [_c(rx, x, 1.0), _sq(rx, rx.primal(x))]))),
    "acos": _unary(lambda rx, x, y: rx.emit("neg", [
        _inv_sqrt(rx, x, rx.emit("sub", [_c(rx, x, 1.0), _sq(rx, rx.primal(x))]))])),
    "atan": _unary(lambda rx, x, y: rx.emit("div", [_c(rx, x, 1.0),
                                                     rx.emit("add", [_c(rx, x, 1.0), _sq(rx, rx.primal(x))])])),
    "sinh": _unary(lambda rx, x, y: _fm(rx, "cosh", rx.primal(x))),
    "cosh": _unary(lambda rx, x, y: _fm(rx, "sinh", rx.primal(x))),
    "tanh": _unary(_tanh_d),
    "asinh": _unary(lambda rx, x, y: _inv_sqrt(rx, x, rx.emit("add", [_sq(rx, rx.primal(x)), _c(rx, x, 1.0)]))),
    "acosh": _unary(lambda rx, x, y: _inv_sqrt(rx, x, rx.emit("sub", [_sq(rx, rx.primal(x)), _c(rx, x, 1.0)]))),
    "atanh": _unary(lambda rx, x, y: rx.emit("div", [_c(rx, x, 1.0),
                                                      rx.emit("sub", [_c(rx, x, 1.0), _sq(rx, rx.primal(x))])])),
    "erf": _unary(_erf_d),
    "erfc": _unary(lambda rx, x, y: rx.emit("neg", [_erf_d(rx, x, y)])),
    "cbrt": _unary(lambda rx, x, y: rx.emit("div", [_c(rx, x, 1.0), rx.emit("mul", [
        _c(rx, x, 3.0), _sq(rx, rx.primal(y))])])),
    "fabs": _unary(_sign_d),
    "floor": _unary(_zero_d), "ceil": _unary(_zero_d), "trunc": _unary(_zero_d),
    "rint": _unary(_zero_d), "round_digits": _unary(_zero_d),
    "atan2": _atan2,
    "hypot": _hypot,
    "norm2": _hypot,
    "copysign": _copysign,
    "fmod": _fmod,
    "pow": _pow,
    "fma": _fma,
}
# Not here, refused at the line: gamma and lgamma (their derivatives need digamma),
# nextafter and remainder.

RULES = {
    "add": _add, "sub": _sub, "mul": _mul, "div": _div, "neg": _neg, "abs": _abs,
    "min": _minmax, "max": _minmax, "select": _select, "convert": _convert, "pow": _pow,
    "floordiv": _floordiv, "mod": _mod, "math": _math,
}
