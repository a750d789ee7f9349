"""Arithmetic, comparison and conversion with the semantics of script.ir.ops (Python's).

Every function here takes the module builder, an IR builder positioned where the code goes,
the IR type of the operands, and LLVM values; it returns the LLVM result. None of them
produces poison or undefined behaviour for any operand the op table allows:

- int ``add``/``sub``/``mul``/``neg``/``abs`` wrap (no ``nsw``);
- ``floordiv``/``mod`` on signed ints never execute ``INT_MIN / -1`` (the divisor -1 is
  replaced by 1 and the quotient negated, wrapping);
- a shift count >= the width selects the saturated result instead of using the poison
  value of the plain shift;
- float ``floordiv``/``mod`` follow CPython's ``float_divmod`` step by step, so signed
  zeros, infinities and NaNs come out as in CPython.

Bools are ``i1`` and count as unsigned 1-bit ints (``False < True``).
"""

from __future__ import annotations

from script.ir import types as T
from script.backend.llvm.abi import llvm_type
from script.backend.llvm.builder import (
    FALSE, Builder, Callee, NativeModule, Value, float_const, int_const, undef)


def is_float(t: T.Type) -> bool:
    return isinstance(t, T.FloatType)


def is_signed(t: T.Type) -> bool:
    return isinstance(t, T.IntType) and t.signed


def _fconst(t: T.Type, value: float) -> Value:
    return float_const(llvm_type(t), value)


def _float_intrinsic(m: NativeModule, name: str, t: T.Type, nargs: int) -> Callee:
    lt = llvm_type(t)
    return m.intrinsic(f"llvm.{name}.f{t.bits}", lt, [lt] * nargs)


# --- comparisons ---------------------------------------------------------------------------

_FLOAT_PRED = {"eq": "oeq", "ne": "une", "lt": "olt", "le": "ole", "gt": "ogt", "ge": "oge"}
_SIGNED_PRED = {"eq": "eq", "ne": "ne", "lt": "slt", "le": "sle", "gt": "sgt", "ge": "sge"}
_UNSIGNED_PRED = {"eq": "eq", "ne": "ne", "lt": "ult", "le": "ule", "gt": "ugt", "ge": "uge"}


def lower_cmp(b: Builder, pred: str, t: T.Type, x: Value, y: Value) -> Value:
    """``cmp.pred``: floats ordered except ``ne`` (unordered); ints signed by their type."""
    if is_float(t):
        return b.fcmp(_FLOAT_PRED[pred], x, y)
    return b.icmp((_SIGNED_PRED if is_signed(t) else _UNSIGNED_PRED)[pred], x, y)


# --- binary ops ----------------------------------------------------------------------------

def lower_binary(m: NativeModule, b: Builder, op: str, t: T.Type, x: Value, y: Value) -> Value:
    handler = _BINARY.get(op)
    if handler is None:
        raise AssertionError(f"not a binary op: {op}")
    return handler(m, b, t, x, y)


def _add(m, b, t, x, y):
    return b.fadd(x, y) if is_float(t) else b.add(x, y)


def _acc(m, b, t, x, y):
    return b.fadd_reassoc(x, y)


def _sub(m, b, t, x, y):
    return b.fsub(x, y) if is_float(t) else b.sub(x, y)


def _mul(m, b, t, x, y):
    return b.fmul(x, y) if is_float(t) else b.mul(x, y)


def _div(m, b, t, x, y):
    assert is_float(t), "div takes floats"
    return b.fdiv(x, y)


def _floordiv(m, b, t, x, y):
    if is_float(t):
        return _float_divmod(m, b, t, x, y)[0]
    if not is_signed(t):
        return b.udiv(x, y)
    return _int_divmod(b, x, y, quotient=True)


def _mod(m, b, t, x, y):
    if is_float(t):
        return _float_divmod(m, b, t, x, y)[1]
    if not is_signed(t):
        return b.urem(x, y)
    return _int_divmod(b, x, y, quotient=False)


def _constant_int(v: Value) -> int | None:
    """The value of an integer constant operand, or None."""
    ref = v.ref
    return int(ref) if v.type[0] == "i" and (ref[0] == "-" or ref[0].isdigit()) else None


def _int_divmod(b: Builder, x: Value, y: Value, quotient: bool) -> Value:
    """Python's floor division (`quotient`) or modulo of signed ints; `y` is never 0. Emits
    only what that result needs: LLVM drops an unused division late, and parses and
    optimizes it until then.

    ``y == -1`` divides by 1 and negates instead (the quotient of INT_MIN wraps to INT_MIN);
    otherwise C's truncating quotient is moved down by one when the remainder is nonzero and
    has the opposite sign of the divisor, and the remainder moves by the divisor.
    """
    lt = x.type
    zero, one, minus_one = (int_const(lt, v) for v in (0, 1, -1))
    k = _constant_int(y)
    if k is not None and k > 0:
        # A positive constant divisor: floor semantics are a shift and a mask for powers of
        # two, and one sign fix-up (no -1 case) otherwise. LLVM turns sdiv by a constant into
        # a multiply, but cannot see through the general fix-up below.
        if k & (k - 1) == 0:
            if quotient:
                return b.ashr(x, int_const(lt, k.bit_length() - 1))
            return b.and_(x, int_const(lt, k - 1))
        r0 = b.srem(x, y)
        neg = b.icmp("slt", r0, zero)
        if quotient:
            return b.sub(b.sdiv(x, y), b.zext(neg, lt))
        return b.select(neg, b.add(r0, y), r0)
    by_minus_one = b.icmp("eq", y, minus_one)
    d = b.select(by_minus_one, one, y)
    r0 = b.srem(x, d)
    adjust = b.and_(b.icmp("ne", r0, zero), b.icmp("slt", b.xor(r0, y), zero))
    if not quotient:
        return b.select(adjust, b.add(r0, y), r0)
    q0 = b.sdiv(x, d)
    q1 = b.select(by_minus_one, b.sub(zero, q0), q0)
    return b.sub(q1, b.zext(adjust, lt))


def lower_mod_cmp(b: Builder, pred: str, x: Value, k: int, c: int) -> Value:
    """``cmp.eq``/``cmp.ne`` of Python's ``x % k`` with `c`, for signed `x`, a constant
    ``k > 0`` that is not a power of two and ``0 <= c < k``: Python's remainder is `c`
    exactly when C's is `c` or ``c - k`` (a negative `x`), so the sign fix-up of `_mod`
    leaves the path to the branch (branchy: `(i ^ total) % 5 == 1` was 4 instructions
    longer than C's, on the path that resolves a mispredicted branch). `x % k` itself is
    still lowered where it has other uses; LLVM drops it where not."""
    lt = x.type
    r0 = b.srem(x, int_const(lt, k))
    same = b.icmp("eq", r0, int_const(lt, c))
    if c > 0:
        same = b.or_(same, b.icmp("eq", r0, int_const(lt, c - k)))
    return same if pred == "eq" else b.not_(same)


def _float_divmod(m: NativeModule, b: Builder, t: T.Type, vx: Value, wx: Value):
    """CPython's ``_float_div_mod`` (Objects/floatobject.c), as selects::

        mod = fmod(vx, wx); div = (vx - mod) / wx
        if mod: if (wx < 0) != (mod < 0): mod += wx; div -= 1.0
        else:   mod = copysign(0.0, wx)
        if div: floordiv = floor(div); if div - floordiv > 0.5: floordiv += 1.0
        else:   floordiv = copysign(0.0, vx / wx)

    C's truth test of a double is ``!= 0`` unordered (NaN is true), comparisons ordered.
    """
    zero, one, half = _fconst(t, 0.0), _fconst(t, 1.0), _fconst(t, 0.5)
    copysign = _float_intrinsic(m, "copysign", t, 2)
    floor = _float_intrinsic(m, "floor", t, 1)
    mod = b.frem(vx, wx)
    div = b.fdiv(b.fsub(vx, mod), wx)
    mod_true = b.fcmp("une", mod, zero)
    signs_differ = b.xor(b.fcmp("olt", wx, zero), b.fcmp("olt", mod, zero))
    adjust = b.and_(mod_true, signs_differ)
    mod = b.select(adjust, b.fadd(mod, wx), mod)
    div = b.select(adjust, b.fsub(div, one), div)
    mod = b.select(mod_true, mod, b.call(copysign, [zero, wx]))
    floordiv = b.call(floor, [div])
    floordiv = b.select(b.fcmp("ogt", b.fsub(div, floordiv), half),
                        b.fadd(floordiv, one), floordiv)
    div_true = b.fcmp("une", div, zero)
    floordiv = b.select(div_true, floordiv, b.call(copysign, [zero, b.fdiv(vx, wx)]))
    return floordiv, mod


def _pow(m, b, t, x, y):
    if is_float(t):
        return b.call(_float_intrinsic(m, "pow", t, 2), [x, y])
    return b.call(_int_pow_helper(m, x.type), [x, y])


def _int_pow_helper(m: NativeModule, lt: str) -> Callee:
    """``script.ipow.iN(base, exp)``: exponentiation by squaring, wrapping; `exp` >= 0 (the
    frontend checks it), so it is shifted as unsigned. Internal, so LLVM inlines it and folds
    constant exponents."""
    name = f"script.ipow.{lt}"
    fn = m.helpers.get(name)
    if fn is not None:
        return fn
    fn = m.new_function(name, lt, [lt, lt])
    m.helpers[name] = fn
    base, exp = fn.args
    entry, loop, done = (fn.append_block(n) for n in ("entry", "loop", "done"))
    b = Builder(fn, entry)
    zero, one = int_const(lt, 0), int_const(lt, 1)
    b.cbranch(b.icmp("eq", exp, zero), done, loop)
    b.position_at_end(loop)
    acc = b.phi(lt)
    bb = b.phi(lt)
    e = b.phi(lt)
    odd = b.trunc(e, "i1") if lt != "i1" else e
    acc2 = b.select(odd, b.mul(acc, bb), acc)
    e2 = b.lshr(e, one) if lt != "i1" else zero
    bb2 = b.mul(bb, bb)
    acc.add_incoming(one, entry)
    acc.add_incoming(acc2, loop)
    bb.add_incoming(base, entry)
    bb.add_incoming(bb2, loop)
    e.add_incoming(exp, entry)
    e.add_incoming(e2, loop)
    b.cbranch(b.icmp("eq", e2, zero), done, loop)
    b.position_at_end(done)
    result = b.phi(lt)
    result.add_incoming(one, entry)
    result.add_incoming(acc2, loop)
    b.ret(result)
    return fn


def _bitand(m, b, t, x, y):
    return b.and_(x, y)


def _bitor(m, b, t, x, y):
    return b.or_(x, y)


def _bitxor(m, b, t, x, y):
    return b.xor(x, y)


def _shl(m, b, t, x, y):
    if _is_shift_count(y, t):
        return b.shl(x, y)
    width = int_const(x.type, t.bits)
    return b.select(b.icmp("uge", y, width), int_const(x.type, 0), b.shl(x, y))


def _shr(m, b, t, x, y):
    if _is_shift_count(y, t):
        return b.ashr(x, y) if is_signed(t) else b.lshr(x, y)
    width = int_const(x.type, t.bits)
    if is_signed(t):
        top = int_const(x.type, t.bits - 1)
        count = b.select(b.icmp("ugt", y, top), top, y)
        return b.ashr(x, count)
    return b.select(b.icmp("uge", y, width), int_const(x.type, 0), b.lshr(x, y))


def _is_shift_count(y: Value, t: T.Type) -> bool:
    """Whether `y` is a constant in ``[0, width)``: the plain shift is then defined, and the
    saturating selects would only be more IR for LLVM to fold (``i >> 1`` is common)."""
    k = _constant_int(y)
    return k is not None and 0 <= k < t.bits


def _min(m, b, t, x, y):
    return b.select(lower_cmp(b, "lt", t, y, x), y, x)


def _max(m, b, t, x, y):
    return b.select(lower_cmp(b, "gt", t, y, x), y, x)


_BINARY = {
    "add": _add, "acc": _acc, "sub": _sub, "mul": _mul, "div": _div, "floordiv": _floordiv, "mod": _mod,
    "pow": _pow, "and": _bitand, "or": _bitor, "xor": _bitxor, "shl": _shl, "shr": _shr,
    "min": _min, "max": _max,
}


# --- unary ops -----------------------------------------------------------------------------

def lower_unary(m: NativeModule, b: Builder, op: str, t: T.Type, x: Value) -> Value:
    if op == "neg":
        return b.fneg(x) if is_float(t) else b.sub(int_const(x.type, 0), x)
    if op in ("invert", "not"):
        return b.not_(x)
    if op == "abs":
        if is_float(t):
            return b.call(_float_intrinsic(m, "fabs", t, 1), [x])
        if not is_signed(t):
            return x
        fn = m.intrinsic(f"llvm.abs.{x.type}", x.type, [x.type, "i1"])
        return b.call(fn, [x, FALSE])    # INT_MIN stays INT_MIN, not poison
    raise AssertionError(f"not a unary op: {op}")


# --- conversions ---------------------------------------------------------------------------

def lower_exact_float_to_int(b: Builder, dst: T.IntType, x: Value) -> Value:
    """``convert`` of a float known to be neither NaN nor outside `dst`'s range (checks that
    raised otherwise dominate it): LLVM's ``fptosi``/``fptoui``, which truncate as the
    saturating intrinsics do on such values, in one instruction."""
    lt = llvm_type(dst)
    return b.fptosi(x, lt) if dst.signed else b.fptoui(x, lt)


def lower_convert(m: NativeModule, b: Builder, src: T.Type, dst: T.Type, x: Value) -> Value:
    """``convert`` from `src` to `dst` (tuples element-wise), as ops.py specifies."""
    if src == dst or isinstance(src, T.ArrayType):     # C layout -> any layout: same struct
        return x
    if isinstance(src, (T.EnumType, T.FuncType)) or isinstance(dst, (T.EnumType, T.FuncType)):
        return x        # an enum member or a function value <-> its index (i64 both)
    if T.is_text_view(src, dst):
        return x        # str <-> bytes, list[str] <-> list[bytes]: the same objects
    if isinstance(dst, T.ComplexType):
        from script.backend.llvm import complex_arith
        return complex_arith.lower_convert(
            b, src, dst, x, lambda s, d, v: lower_convert(m, b, s, d, v))
    if isinstance(src, T.TupleType):
        out = undef(llvm_type(dst))
        for k, (s, d) in enumerate(zip(src.elems, dst.elems)):
            item = b.extract_value(x, k, llvm_type(s))
            out = b.insert_value(out, lower_convert(m, b, s, d, item), k)
        return out
    lt = llvm_type(dst)
    if isinstance(dst, T.BoolType):
        if is_float(src):
            return b.fcmp("une", x, float_const(x.type, 0.0))
        return b.icmp("ne", x, int_const(x.type, 0))
    if is_float(dst):
        if is_float(src):
            return b.fpext(x, lt) if dst.bits > src.bits else b.fptrunc(x, lt)
        return b.sitofp(x, lt) if is_signed(src) else b.uitofp(x, lt)
    if is_float(src):
        kind = "fptosi" if dst.signed else "fptoui"
        fn = m.intrinsic(f"llvm.{kind}.sat.i{dst.bits}.f{src.bits}", lt, [x.type])
        return b.call(fn, [x])
    sbits = 1 if isinstance(src, T.BoolType) else src.bits
    if dst.bits < sbits:
        return b.trunc(x, lt)
    if dst.bits > sbits:
        return b.sext(x, lt) if is_signed(src) else b.zext(x, lt)
    return x
