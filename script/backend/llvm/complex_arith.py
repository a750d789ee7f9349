"""Complex numbers (``c128``, ``c64``) as the LLVM struct ``{double, double}`` (``{float,
float}``) of their real and imaginary parts, with CPython's arithmetic (Objects/complexobject.c):

- ``mul`` is ``_Py_c_prod``: ``(ar*br - ai*bi, ar*bi + ai*br)``, no fused multiply-add;
- ``div`` is ``_Py_c_quot`` (Smith's method): divided through by the larger part of the
  divisor, NaN parts when the divisor has a NaN part (the frontend has raised
  ZeroDivisionError for a zero divisor, so that branch is never taken);
- ``cmp.eq`` holds when both parts are equal (ordered: NaN is unequal), ``cmp.ne`` is its
  negation.

A struct of two scalars rather than ``<2 x double>``: SROA splits it into two registers at
once, the parts' arithmetic is the scalar code LLVM vectorizes across loop iterations, and it
is the layout (alignment 8, not 16) of NumPy's elements and of C's ``double _Complex``.
"""

from __future__ import annotations

from script.ir import types as T
from script.backend.llvm.abi import llvm_type
from script.backend.llvm.builder import Builder, Value, float_const, undef


def const(t: T.ComplexType, value: complex) -> Value:
    """The constant struct of `value`, each part exact (the hexadecimal doubles)."""
    pt = llvm_type(t.part)
    re, im = float_const(pt, value.real), float_const(pt, value.imag)
    return Value(llvm_type(t), f"{{ {pt} {re.ref}, {pt} {im.ref} }}")


def parts(b: Builder, t: T.ComplexType, z: Value) -> tuple[Value, Value]:
    pt = llvm_type(t.part)
    return b.extract_value(z, 0, pt), b.extract_value(z, 1, pt)


def make(b: Builder, t: T.ComplexType, re: Value, im: Value) -> Value:
    return b.insert_value(b.insert_value(undef(llvm_type(t)), re, 0), im, 1)


def lower_binary(b: Builder, op: str, t: T.ComplexType, x: Value, y: Value) -> Value:
    (ar, ai), (br, bi) = parts(b, t, x), parts(b, t, y)
    if op == "add":
        return make(b, t, b.fadd(ar, br), b.fadd(ai, bi))
    if op == "sub":
        return make(b, t, b.fsub(ar, br), b.fsub(ai, bi))
    if op == "mul":
        return make(b, t, b.fsub(b.fmul(ar, br), b.fmul(ai, bi)),
                    b.fadd(b.fmul(ar, bi), b.fmul(ai, br)))
    if op == "div":
        return _quot(b, t, ar, ai, br, bi)
    raise AssertionError(f"{op} of complex numbers")


def _quot(b: Builder, t: T.ComplexType, ar, ai, br, bi) -> Value:
    """``_Py_c_quot`` as selects: both of Smith's branches are computed (neither traps)."""
    pt = llvm_type(t.part)
    zero = float_const(pt, 0.0)
    abs_br = b.select(b.fcmp("olt", br, zero), b.fneg(br), br)
    abs_bi = b.select(b.fcmp("olt", bi, zero), b.fneg(bi), bi)
    by_real = b.fcmp("oge", abs_br, abs_bi)
    by_imag = b.fcmp("oge", abs_bi, abs_br)
    # |b.real| >= |b.imag|: divide through by b.real
    ratio = b.fdiv(bi, br)
    denom = b.fadd(br, b.fmul(bi, ratio))
    re1 = b.fdiv(b.fadd(ar, b.fmul(ai, ratio)), denom)
    im1 = b.fdiv(b.fsub(ai, b.fmul(ar, ratio)), denom)
    # |b.imag| > |b.real|: divide through by b.imag
    ratio2 = b.fdiv(br, bi)
    denom2 = b.fadd(b.fmul(br, ratio2), bi)
    re2 = b.fdiv(b.fadd(b.fmul(ar, ratio2), ai), denom2)
    im2 = b.fdiv(b.fsub(b.fmul(ai, ratio2), ar), denom2)
    nan = float_const(pt, float("nan"))
    re = b.select(by_real, re1, b.select(by_imag, re2, nan))
    im = b.select(by_real, im1, b.select(by_imag, im2, nan))
    return make(b, t, re, im)


def lower_neg(b: Builder, t: T.ComplexType, x: Value) -> Value:
    re, im = parts(b, t, x)
    return make(b, t, b.fneg(re), b.fneg(im))


def lower_cmp(b: Builder, pred: str, t: T.ComplexType, x: Value, y: Value) -> Value:
    (ar, ai), (br, bi) = parts(b, t, x), parts(b, t, y)
    if pred == "eq":
        return b.and_(b.fcmp("oeq", ar, br), b.fcmp("oeq", ai, bi))
    if pred == "ne":
        return b.or_(b.fcmp("une", ar, br), b.fcmp("une", ai, bi))
    raise AssertionError(f"cmp.{pred} of complex numbers")


def lower_convert(b: Builder, src: T.Type, dst: T.ComplexType, x: Value, convert_part) -> Value:
    """``convert`` to a complex type: of a complex number part by part, of a real number
    (bool, int, float) to the real part with a zero imaginary part. `convert_part(src, dst,
    value)` converts scalars."""
    if isinstance(src, T.ComplexType):
        re, im = parts(b, src, x)
        return make(b, dst, convert_part(src.part, dst.part, re), convert_part(src.part, dst.part, im))
    re = convert_part(src, dst.part, x)
    return make(b, dst, re, float_const(llvm_type(dst.part), 0.0))
