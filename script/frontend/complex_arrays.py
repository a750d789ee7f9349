"""Complex arrays (NumPy complex128 and complex64): the element of each ufunc on complex
numbers as NumPy computes it, `a.real`/`a.imag` (views), `np.real`, `np.imag`, `np.angle`.

Functions over the lowering `cx`. NumPy's complex arithmetic is not
CPython's everywhere: its division multiplies by the reciprocal of the scaled divisor
(loops_arithm_fp: `np_complex_div`), and its exp, log, sqrt and the trigonometric functions
are the C library's cexp, clog, csqrt, ... (the `math` op on a complex operand).
"""

from __future__ import annotations

import ast
import math

from script.frontend import complex_lowering
from script.frontend.registry import CALLS, numpy_function
from script.ir import types as T
from script.ir.core import Const, Value
from script.ir.ops import COMPLEX_MATH

_SIMPLE = {"add": "add", "subtract": "sub"}


def numpy_uses_fma() -> bool:
    """Whether NumPy's complex multiply loops run with fused multiply-adds on this CPU (its
    FMA3 or AVX512F dispatch: the C compiler contracts the products there)."""
    try:
        from numpy._core._multiarray_umath import __cpu_features__ as features
    except ImportError:
        return False
    return bool(features.get("FMA3") or features.get("AVX512F"))


def array_part(cx, arr: Value, k: int, node) -> Value:
    """`a.real` (k 0) or `a.imag` (1): a view of a complex array's parts; a real array's
    `.real` is the array itself."""
    t: T.ArrayType = arr.type
    if isinstance(t.dtype, T.ComplexType):
        return cx.emit("part", [arr], T.ArrayType(t.dtype.part, t.ndim, "A"), k, cx.loc(node))
    if k == 0:
        return arr
    cx.error("a.imag of a real array (read-only zeros in NumPy) is not supported in compiled code", node)


def np_real_imag(cx, node: ast.Call, name: str) -> Value:
    (v,) = cx.positional(node, f"numpy.{name}", 1)
    k = 0 if name == "real" else 1
    if isinstance(v.type, T.ArrayType):
        return array_part(cx, v, k, node)
    if isinstance(v.type, T.ComplexType):
        return complex_lowering.complex_part(cx, v, k, node)
    if not v.type.is_numeric():
        cx.error(f"numpy.{name} of a {v.type} is not supported", node)
    return v if k == 0 else Const(0, v.type)


def complex_ufunc(cx, name: str, vals: list[Value], out: T.Type, node) -> Value:
    """One element of ufunc `name` whose loop takes complex numbers (`vals` of the loop's
    input types), as NumPy's complex loops compute it."""
    loc = cx.loc(node)
    x = vals[0]
    t = x.type
    if name in _SIMPLE:
        return cx.emit(_SIMPLE[name], vals, t, None, loc)
    if name == "true_divide":
        return np_complex_div(cx, vals[0], vals[1], node)
    if name == "negative":
        return cx.emit("neg", [x], t, None, loc)
    if name == "positive":
        return x
    if name == "conjugate":
        re, im = complex_lowering.complex_part(cx, x, 0, node), complex_lowering.complex_part(cx, x, 1, node)
        return complex_lowering.make_complex(cx, re, cx.emit("neg", [im], im.type, None, loc), node)
    if name == "absolute":
        return np_complex_abs(cx, x, node)
    if name == "multiply":
        return np_complex_mul(cx, vals[0], vals[1], node)
    if name == "square":
        return np_complex_mul(cx, x, x, node)
    if name in ("equal", "not_equal"):
        return cx.emit("cmp", vals, T.BOOL, "eq" if name == "equal" else "ne", loc)
    if name in ("isnan", "isinf", "isfinite"):
        return complex_lowering.parts_test(cx, name, x, node)
    if name in COMPLEX_MATH:
        return cx.emit("math", [x], t, name, loc)
    if name == "reciprocal":
        return np_complex_reciprocal(cx, x, node)
    if name == "power":
        return np_complex_power(cx, x, vals[1], node)
    cx.error(f"numpy.{name} of complex numbers is not supported in compiled code", node)


def np_complex_mul(cx, a: Value, b: Value, node) -> Value:
    """NumPy's complex multiply: ``(ar*br - ai*bi, ar*bi + ai*br)``, and where its loops
    run with FMA (`numpy_uses_fma`), as the C compiler contracts that:
    ``(fma(ar, br, -(ai*bi)), fma(ar, bi, ai*br))`` (checked against NumPy)."""
    if not numpy_uses_fma():
        return cx.emit("mul", [a, b], a.type, None, cx.loc(node))
    loc = cx.loc(node)
    pt = a.type.part
    ar, ai = complex_lowering.complex_part(cx, a, 0, node), complex_lowering.complex_part(cx, a, 1, node)
    br, bi = complex_lowering.complex_part(cx, b, 0, node), complex_lowering.complex_part(cx, b, 1, node)
    ii = cx.emit("mul", [ai, bi], pt, None, loc)
    re = cx.emit("math", [ar, br, cx.emit("neg", [ii], pt, None, loc)], pt, "fma", loc)
    im = cx.emit("math", [ar, bi, cx.emit("mul", [ai, br], pt, None, loc)], pt, "fma", loc)
    return complex_lowering.make_complex(cx, re, im, node)


def np_complex_abs(cx, z: Value, node) -> Value:
    """NumPy's complex absolute (loops_unary_complex.dispatch.c.src, its SIMD loop, which
    every aligned array takes), not hypot::

        re, im = |zr|, |zi|; an infinite part makes both inf, else a NaN part both NaN
        larger, smaller = max(re, im), min(re, im)
        ratio = smaller / larger, or 0 where larger is 0 or smaller inf
        sqrt(ratio * ratio + 1) * larger      (a fused multiply-add where NumPy has FMA)
    """
    loc = cx.loc(node)
    pt = z.type.part

    def e(op, xs, t=pt, attr=None):
        return cx.emit(op, xs, t, attr, loc)

    inf, nan, zero, one = (Const(v, pt) for v in (math.inf, math.nan, 0.0, 1.0))
    re = e("abs", [complex_lowering.complex_part(cx, z, 0, node)])
    im = e("abs", [complex_lowering.complex_part(cx, z, 1, node)])
    re_inf, im_inf = e("cmp", [re, inf], T.BOOL, "eq"), e("cmp", [im, inf], T.BOOL, "eq")
    im = e("select", [re_inf, inf, im])
    re = e("select", [im_inf, inf, re])
    re_num, im_num = e("cmp", [re, re], T.BOOL, "eq"), e("cmp", [im, im], T.BOOL, "eq")
    im = e("select", [re_num, im, nan])
    re = e("select", [im_num, re, nan])
    larger = e("select", [e("cmp", [re, im], T.BOOL, "gt"), re, im])      # both NaN or neither
    smaller = e("select", [e("cmp", [im, re], T.BOOL, "lt"), im, re])
    skip = e("or", [e("cmp", [larger, zero], T.BOOL, "eq"), e("cmp", [smaller, inf], T.BOOL, "eq")], T.BOOL)
    ratio = e("select", [skip, zero, e("div", [smaller, larger])])
    if numpy_uses_fma():
        sq = e("math", [ratio, ratio, one], pt, "fma")
    else:
        sq = e("add", [e("mul", [ratio, ratio]), one])
    return e("mul", [e("math", [sq], pt, "sqrt"), larger])


def np_complex_div(cx, a: Value, b: Value, node) -> Value:
    """NumPy's complex division (loops_arithm_fp.dispatch.c.src), which scales by the
    reciprocal of the divisor; a zero divisor gives infinities and NaNs, no error::

        if |br| >= |bi|:
            if |br| == 0 and |bi| == 0: (ar / |br|, ai / |br|)
            else: rat = bi / br; scl = 1 / (br + bi * rat)
                  ((ar + ai * rat) * scl, (ai - ar * rat) * scl)
        else: rat = br / bi; scl = 1 / (bi + br * rat)
              ((ar * rat + ai) * scl, (ai * rat - ar) * scl)
    """
    loc = cx.loc(node)
    pt = a.type.part
    ar, ai = complex_lowering.complex_part(cx, a, 0, node), complex_lowering.complex_part(cx, a, 1, node)
    br, bi = complex_lowering.complex_part(cx, b, 0, node), complex_lowering.complex_part(cx, b, 1, node)

    def f(op, *xs):
        return cx.emit(op, list(xs), pt, None, loc)

    one = Const(1.0, pt)
    abr = cx.emit("abs", [br], pt, None, loc)
    abi = cx.emit("abs", [bi], pt, None, loc)
    by_real = cx.emit("cmp", [abr, abi], T.BOOL, "ge", loc)
    zero = cx.emit("and", [cx.emit("cmp", [abr, Const(0.0, pt)], T.BOOL, "eq", loc),
                           cx.emit("cmp", [abi, Const(0.0, pt)], T.BOOL, "eq", loc)], T.BOOL, None, loc)
    rat1 = f("div", bi, br)
    scl1 = f("div", one, f("add", br, f("mul", bi, rat1)))
    re1 = f("mul", f("add", ar, f("mul", ai, rat1)), scl1)
    im1 = f("mul", f("sub", ai, f("mul", ar, rat1)), scl1)
    re0, im0 = f("div", ar, abr), f("div", ai, abr)
    rat2 = f("div", br, bi)
    scl2 = f("div", one, f("add", bi, f("mul", br, rat2)))
    re2 = f("mul", f("add", f("mul", ar, rat2), ai), scl2)
    im2 = f("mul", f("sub", f("mul", ai, rat2), ar), scl2)

    def pick(v0, v1, v2):
        first = cx.emit("select", [zero, v0, v1], pt, None, loc)
        return cx.emit("select", [by_real, first, v2], pt, None, loc)
    return complex_lowering.make_complex(cx, pick(re0, re1, re2), pick(im0, im1, im2), node)


def np_complex_power(cx, x: Value, y: Value, node) -> Value:
    """NumPy's complex power by a constant integer exponent n, |n| < 100 (its nc_pow):
    0 gives 1+0j; 2 is `square`'s loop and -1 `reciprocal`'s (NumPy's fast paths); 1 the
    base itself, 3 ``a * (a * a)``; any other n multiplies out from 1+0j by squaring (the
    plain product) and divides 1 by that for n < 0, a zero base giving 0j (n > 0) or NaNs
    (n < 0). Any other exponent (NumPy calls C's cpow) is a CompileError."""
    if getattr(y, "opname", None) == "convert" and isinstance(y.operands[0], Const):
        y = y.operands[0]               # the scalar exponent, cast to the loop's type
    v = complex(y.value) if isinstance(y, Const) else None
    if v is None or v.imag != 0.0 or not math.isfinite(v.real) or v.real != math.floor(v.real) \
            or abs(v.real) >= 100:
        cx.error("numpy.power of complex numbers is supported in compiled code with a constant "
                 "integer exponent of magnitude below 100 only", node)
    n = int(v.real)
    t = x.type
    loc = cx.loc(node)
    if n == 0:
        return Const(1 + 0j, t)
    if n == 2:
        return np_complex_mul(cx, x, x, node)
    if n == -1:
        return np_complex_reciprocal(cx, x, node)
    zero = cx.cmp("eq", x, Const(0j, t), node)
    if n == 1:
        return cx.emit("select", [zero, Const(0j, t), x], t, None, loc)
    if n == 3:          # nc_pow's own case: a * (a * a), not from 1+0j
        cube = cx.emit("mul", [x, cx.emit("mul", [x, x], t, None, loc)], t, None, loc)
        return cx.emit("select", [zero, Const(0j, t), cube], t, None, loc)
    acc: Value = Const(1 + 0j, t)
    p, k, mask = x, abs(n), 1
    while True:
        if k & mask:
            acc = cx.emit("mul", [acc, p], t, None, loc)
        mask <<= 1
        if k < mask:
            break
        p = cx.emit("mul", [p, p], t, None, loc)
    if n > 0:
        return cx.emit("select", [zero, Const(0j, t), acc], t, None, loc)
    q = np_complex_div(cx, Const(1 + 0j, t), acc, node)
    return cx.emit("select", [zero, Const(complex(math.nan, math.nan), t), q], t, None, loc)


def np_complex_reciprocal(cx, x: Value, node) -> Value:
    """NumPy's complex reciprocal (loops.c.src)::

        if |xi| <= |xr|: r = xi / xr; d = xr + xi * r; (1 / d, -r / d)
        else:            r = xr / xi; d = xr * r + xi; (r / d, -1 / d)
    """
    loc = cx.loc(node)
    pt = x.type.part
    xr, xi = complex_lowering.complex_part(cx, x, 0, node), complex_lowering.complex_part(cx, x, 1, node)

    def f(op, *xs):
        return cx.emit(op, list(xs), pt, None, loc)

    one = Const(1.0, pt)
    small = cx.emit("cmp", [cx.emit("abs", [xi], pt, None, loc), cx.emit("abs", [xr], pt, None, loc)],
                    T.BOOL, "le", loc)
    r1 = f("div", xi, xr)
    d1 = f("add", xr, f("mul", xi, r1))
    r2 = f("div", xr, xi)
    d2 = f("add", f("mul", xr, r2), xi)
    re = cx.emit("select", [small, f("div", one, d1), f("div", r2, d2)], pt, None, loc)
    im = cx.emit("select", [small, f("div", f("neg", r1), d1), f("div", Const(-1.0, pt), d2)], pt, None, loc)
    return complex_lowering.make_complex(cx, re, im, node)


for _name in ("real", "imag"):
    CALLS.register(numpy_function(_name), np_real_imag)
