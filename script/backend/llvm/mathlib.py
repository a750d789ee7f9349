"""``math.F``: LLVM intrinsics where LLVM has them, libm calls otherwise.

The libm functions are declared ``readnone`` (``memory(none)``): compiled code never reads
``errno``, so LLVM may merge, hoist and delete them like any pure operation. `libm_symbols`
lists every libm name lowered code can reference, including the ones LLVM itself turns
intrinsics into (``frem`` becomes ``fmod``, ``llvm.exp`` becomes ``exp``, ``sin`` and ``cos``
of one value become ``sincos``), so the JIT can bind them all by name.
"""

from __future__ import annotations

from script.ir import types as T
from script.ir.ops import COMPLEX_MATH, MATH_FUNCS
from script.backend.llvm.abi import llvm_type
from script.backend.llvm.builder import NULL, Builder, NativeModule, Value, float_const, int_const, undef

# IR name -> LLVM intrinsic base name (llvm.<name>.f32 / .f64).
INTRINSICS = {
    "sqrt": "sqrt", "exp": "exp", "exp2": "exp2", "log": "log", "log2": "log2",
    "log10": "log10", "sin": "sin", "cos": "cos", "floor": "floor", "ceil": "ceil",
    "trunc": "trunc", "fabs": "fabs", "copysign": "copysign", "pow": "pow", "rint": "rint",
    "fma": "fma", "fmaximum": "maximum", "fminimum": "minimum",
}

# IR name -> libm name of the double version (the float version appends "f").
_OWN = ("norm2", "round_digits")      # built here (below)
LIBM = {name: name for name in MATH_FUNCS if name not in INTRINSICS and name not in _OWN}
LIBM["gamma"] = "tgamma"

# Functions LLVM may call when it expands intrinsics or recognizes idioms.
_CODEGEN_LIBCALLS = ("fmod", "sincos", "ldexp", "frexp", "exp10", "fma", "fmin", "fmax",
                     "round", "nearbyint", "exp", "exp2", "log", "log2", "log10", "sin", "cos",
                     "pow", "sqrt", "floor", "ceil", "trunc", "rint", "fabs", "copysign")

assert set(INTRINSICS) | set(LIBM) | set(_OWN) == set(MATH_FUNCS), "every math function needs a lowering"


def lower_math(m: NativeModule, b: Builder, fn: str, t: T.Type, args) -> Value:
    """``math.fn`` of `args` (all of float type `t`)."""
    if isinstance(t, T.ComplexType):
        return _lower_complex_math(m, b, fn, t, args[0])
    lt = llvm_type(t)
    arity = MATH_FUNCS[fn][0]
    if fn == "norm2":
        return _lower_norm2(m, b, t, *args)
    if fn == "round_digits":        # (a float32 rounded as a double: exact, then rounded once)
        if t.bits == 32:
            return b.fptrunc(b.call(_round_digits(m), [b.fpext(a, "double") for a in args]), "float")
        return b.call(_round_digits(m), list(args))
    if fn == "fmod":
        # `frem` is C's fmod without errno. A call of `fmod` LLVM 22 may itself turn into
        # `frem nnan` when it wrongly proves no operand NaN (the first one `llvm.log` of a
        # NaN constant), which makes the result poison (found by tests/fuzz)
        return b.frem(*args)
    if fn in INTRINSICS:
        callee = m.intrinsic(f"llvm.{INTRINSICS[fn]}.f{t.bits}", lt, [lt] * arity)
    else:
        name = LIBM[fn] + ("f" if t.bits == 32 else "")
        callee = m.declare(name, lt, [lt] * arity, attrs=("nounwind", "memory(none)"))
    return b.call(callee, list(args))


def _lower_norm2(m: NativeModule, b: Builder, t: T.Type, x: Value, y: Value) -> Value:
    """Python's ``math.hypot(x, y)``: CPython's `vector_norm` of two values (scaled by a power
    of two, the squares summed exactly with compensation, the square root corrected once),
    so the result is CPython's to the last bit, where C's `hypot` is an ulp away in about
    0.5% of cases. Straight-line code: the special values are chosen at the end."""
    if t.bits == 32:
        return b.fptrunc(_lower_norm2(m, b, T.F64, b.fpext(x, "double"), b.fpext(y, "double")), "float")
    d = "double"
    fabs = m.intrinsic("llvm.fabs.f64", d, [d])
    fma = m.intrinsic("llvm.fma.f64", d, [d, d, d])
    sqrt = m.intrinsic("llvm.sqrt.f64", d, [d])
    c = lambda v: float_const(d, v)     # noqa: E731
    i64 = lambda v: int_const("i64", v)     # noqa: E731
    ax, ay = b.call(fabs, [x]), b.call(fabs, [y])

    def biggest(p, q):
        return b.select(b.fcmp("ogt", q, p), q, p)

    def exponent(v):
        """frexp's exponent of a positive finite `v` (a subnormal one too)."""
        def biased(w):
            return b.and_(b.lshr(b.bitcast(w, "i64"), i64(52)), i64(0x7FF))
        normal = biased(v)
        tiny = b.sub(biased(b.fmul(v, c(2.0 ** 54))), i64(54))
        return b.sub(b.select(b.icmp("eq", normal, i64(0)), tiny, normal), i64(1022))

    dbl_min = 2.2250738585072014e-308
    top = biggest(ax, ay)
    pre = b.icmp("slt", exponent(top), i64(-1023))       # subnormals: made normal first
    ax = b.select(pre, b.fdiv(ax, c(dbl_min)), ax)
    ay = b.select(pre, b.fdiv(ay, c(dbl_min)), ay)
    k = b.sub(i64(0), exponent(biggest(ax, ay)))         # scale = 2**k, k in [-1024, 1023]
    bits = b.select(b.icmp("sge", k, i64(-1022)), b.shl(b.add(k, i64(1023)), i64(52)),
                    b.shl(i64(1), b.add(k, i64(1074))))
    scale = b.bitcast(bits, d)
    csum, frac1, frac2 = c(1.0), c(0.0), c(0.0)

    def add_square(csum, frac1, frac2, p, q):
        hi = b.fmul(p, q)
        lo = b.call(fma, [p, q, b.fneg(hi)])
        s = b.fadd(csum, hi)
        return s, b.fadd(frac1, lo), b.fadd(frac2, b.fadd(b.fsub(csum, s), hi))

    for v in (ax, ay):
        v = b.fmul(v, scale)
        csum, frac1, frac2 = add_square(csum, frac1, frac2, v, v)
    h = b.call(sqrt, [b.fadd(b.fsub(csum, c(1.0)), b.fadd(frac1, frac2))])
    csum, frac1, frac2 = add_square(csum, frac1, frac2, b.fneg(h), h)
    r = b.fadd(b.fsub(csum, c(1.0)), b.fadd(frac1, frac2))
    h = b.fadd(h, b.fdiv(r, b.fmul(c(2.0), h)))
    out = b.fmul(b.select(pre, c(dbl_min), c(1.0)), b.fdiv(h, scale))
    inf = b.or_(b.fcmp("oeq", ax, c(float("inf"))), b.fcmp("oeq", ay, c(float("inf"))))
    nan = b.fcmp("uno", ax, ay)
    out = b.select(b.fcmp("oeq", top, c(0.0)), top, out)
    out = b.select(nan, c(float("nan")), out)
    return b.select(inf, c(float("inf")), out)


_POWERS_OF_TEN = [float(10 ** k) for k in range(23)]       # exact as doubles


def _round_digits(m: NativeModule):
    """``double script.round_digits(double x, double n)``: Python's ``round(x, n)`` of a float
    (n integral, within [-400, 400]), correctly rounded as CPython's (which rounds the exact
    decimal value of x to n places, half to even, and reads the digits back).

    With 10**|n| exact (|n| <= 22) and the scaled value y = x * 10**n (x / 10**-n) below
    2**53 (2**52), rounding y to an integer is exact: where y lands on a half, the part the
    scaling dropped (exact, by an fma) says on which side x * 10**n really lies; unscaling
    then rounds once, as reading the digits back does. Where y is 2**53 or more (n >= 0),
    x already has no digit beyond the n-th that could change it: an ulp of x is more than
    10**-n. The rest (|n| > 22 with a small x, n < 0 with a huge one) goes to `_round_slow`."""
    name = "script.round_digits"
    fn = m.helpers.get(name)
    if fn is not None:
        return fn
    fn = m.helpers[name] = m.new_function(name, "double", ["double", "double"], attrs=("nounwind",))
    fn.fp_flags = ""                        # (no fast-math: every rounding step counts)
    x, nd = fn.args
    d = "double"
    c = lambda v: float_const(d, v)     # noqa: E731
    i64 = lambda v: int_const("i64", v)     # noqa: E731
    fabs = m.intrinsic("llvm.fabs.f64", d, [d])
    b = Builder(fn, fn.append_block("entry"))
    n = b.fptosi(nd, "i64")
    finite, near, wide, tiny, scaled, whole, slow, keep = (fn.append_block(h) for h in (
        "finite", "near", "wide", "tiny", "scaled", "whole", "slow", "keep"))
    b.cbranch(b.fcmp("olt", b.call(fabs, [x]), c(float("inf"))), finite, keep)
    b.position_at_end(finite)               # CPython: n > 323 gives x, n < -308 a zero
    small = b.and_(b.icmp("sge", n, i64(-22)), b.icmp("sle", n, i64(22)))
    b.cbranch(small, near, wide)
    b.position_at_end(wide)
    b.switch(b.select(b.icmp("sgt", n, i64(323)), i64(1), b.select(
        b.icmp("slt", n, i64(-308)), i64(2), b.select(b.icmp("sgt", n, i64(0)), i64(3), i64(0)))),
        slow, [(1, keep), (2, tiny), (3, scaled)])
    b.position_at_end(tiny)
    b.ret(b.fmul(c(0.0), x))
    b.position_at_end(scaled)               # 22 < n <= 323: x itself unless x * 10**n is small
    pow_ = m.intrinsic("llvm.pow.f64", d, [d, d])
    y = b.fmul(b.fmul(x, c(1e22)), b.call(pow_, [c(10.0), b.sitofp(b.sub(n, i64(22)), d)]))
    b.cbranch(b.fcmp("oge", b.call(fabs, [y]), c(2.0 ** 54)), keep, slow)
    b.position_at_end(near)
    neg = b.icmp("slt", n, i64(0))
    table = m.helpers.get("script.powers_of_ten")
    if table is None:
        body = ", ".join(f"double {float_const(d, v).ref}" for v in _POWERS_OF_TEN)
        table = m.helpers["script.powers_of_ten"] = m.define_global(
            "script.powers_of_ten", f"[{len(_POWERS_OF_TEN)} x double]", f"[{body}]", constant=True)
    p = b.load(d, b.gep_inbounds(d, table, b.select(neg, b.sub(i64(0), n), n)))
    y = b.select(neg, b.fdiv(x, p), b.fmul(x, p))
    limit = b.select(neg, c(2.0 ** 52), c(2.0 ** 53))
    exact = fn.append_block("exact")
    b.cbranch(b.fcmp("olt", b.call(fabs, [y]), limit), exact, whole)
    b.position_at_end(whole)
    b.cbranch(neg, slow, keep)
    b.position_at_end(exact)
    fma = m.intrinsic("llvm.fma.f64", d, [d, d, d])
    lost = b.select(neg, b.call(fma, [b.fneg(y), p, x]), b.call(fma, [x, p, b.fneg(y)]))
    fl = b.call(m.intrinsic("llvm.floor.f64", d, [d]), [y])
    z = b.call(m.intrinsic("llvm.rint.f64", d, [d]), [y])
    tie = b.and_(b.fcmp("oeq", b.fsub(y, fl), c(0.5)), b.fcmp("one", lost, c(0.0)))
    side = b.select(b.fcmp("olt", lost, c(0.0)), fl, b.call(m.intrinsic("llvm.ceil.f64", d, [d]), [y]))
    z = b.select(tie, side, z)
    b.ret(b.select(neg, b.fmul(z, p), b.fdiv(z, p)))
    b.position_at_end(slow)
    b.ret(b.call(_round_slow(m), [x, n]) if m.has_libc else _round_scaled(m, b, x, n))
    b.position_at_end(keep)
    b.ret(x)
    return fn


def _round_scaled(m: NativeModule, b: Builder, x: Value, n: Value) -> Value:
    """`_round_slow` on a GPU, without C's conversions: x scaled by 10**n (in two steps past
    10**22, so that the factors stay finite), rounded half to even and unscaled; an ulp or so
    from CPython's answer."""
    d = "double"
    i64 = lambda v: int_const("i64", v)     # noqa: E731
    pow_ = m.intrinsic("llvm.pow.f64", d, [d, d])
    neg = b.icmp("slt", n, i64(0))
    first = b.select(neg, float_const(d, 1.0), float_const(d, 1e22))
    rest = b.call(pow_, [float_const(d, 10.0), b.sitofp(b.select(neg, b.sub(i64(0), n), b.sub(n, i64(22))), d)])
    y = b.select(neg, b.fdiv(x, rest), b.fmul(b.fmul(x, first), rest))
    z = b.call(m.intrinsic("llvm.rint.f64", d, [d]), [y])
    return b.select(neg, b.fmul(z, rest), b.fdiv(b.fdiv(z, rest), first))


def _round_slow(m: NativeModule):
    """``double script.round_slow(double x, i64 n)``: `_round_digits` where the scaling is
    not exact, by C's correctly rounded decimal conversions (``%.*f`` and ``%.*e`` print the
    exact value rounded half to even; ``strtod`` reads digits back correctly rounded). For
    n < 0 here x is an integer (at least 10**22, or small enough that the result is 0)."""
    name = "script.round_slow"
    fn = m.helpers.get(name)
    if fn is not None:
        return fn
    fn = m.helpers[name] = m.new_function(name, "double", ["double", "i64"], attrs=("nounwind", "noinline", "cold"))
    x, n = fn.args
    d = "double"
    size = 720                  # the longest text: 309 digits, a point and 323 decimals
    b = Builder(fn, fn.append_block("entry"))
    buf = b.alloca(f"[{size} x i8]")
    snprintf = m.declare("snprintf", "i32", ["ptr", "i64", "ptr"], var_arg=True, attrs=("nounwind",))
    strtod = m.declare("strtod", d, ["ptr", "ptr"], attrs=("nounwind",))
    copysign = m.intrinsic("llvm.copysign.f64", d, [d, d])
    i64 = lambda v: int_const("i64", v)     # noqa: E731

    def text(fmt: bytes, *args) -> Value:
        return b.sext(b.call(snprintf, [buf, i64(size), m.cstring(fmt), *args]), "i64")

    def read() -> Value:
        return b.call(copysign, [b.call(strtod, [buf, NULL]), x])

    places, digits, longer, shorter, same, up, zero = (fn.append_block(h) for h in (
        "places", "digits", "longer", "shorter", "same", "up", "zero"))
    b.cbranch(b.icmp("sge", n, i64(0)), places, digits)
    b.position_at_end(places)
    text(b"%.*f", b.trunc(n, "i32"), x)
    b.ret(read())
    b.position_at_end(digits)               # round |x|'s L digits to the 10**-n place
    ax = b.call(m.intrinsic("llvm.fabs.f64", d, [d]), [x])
    length = text(b"%.0f", ax)
    keep = b.add(length, n)                 # digits kept: L - (-n)
    b.cbranch(b.icmp("sgt", keep, i64(0)), longer, shorter)
    b.position_at_end(longer)
    text(b"%.*e", b.trunc(b.sub(keep, i64(1)), "i32"), ax)
    b.ret(read())
    b.position_at_end(shorter)              # L == -n: 0 or 10**-n, more than half of it is 1
    b.cbranch(b.icmp("eq", keep, i64(0)), same, zero)
    b.position_at_end(same)
    first = b.load("i8", buf)
    strspn = m.declare("strspn", "i64", ["ptr", "ptr"], attrs=("nounwind",))
    zeros = b.call(strspn, [b.gep_inbounds("i8", buf, i64(1)), m.cstring(b"0")])
    five = int_const("i8", ord("5"))
    above = b.or_(b.icmp("sgt", first, five), b.and_(b.icmp("eq", first, five),
                                                     b.icmp("slt", zeros, b.sub(length, i64(1)))))
    b.cbranch(above, up, zero)
    b.position_at_end(up)
    text(b"1e%lld", b.sub(i64(0), n))
    b.ret(read())
    b.position_at_end(zero)
    b.ret(b.call(copysign, [float_const(d, 0.0), x]))
    return fn


def _lower_complex_math(m: NativeModule, b: Builder, fn: str, t: T.ComplexType, z: Value) -> Value:
    """``math.fn`` of a complex number: C's ``cfn`` (``cexp``, ``csqrtf``, ...), which NumPy's
    complex loops call, in the x86-64 SysV convention clang uses: a ``double _Complex``
    travels as two doubles and returns as ``{double, double}``, a ``float _Complex`` as one
    ``<2 x float>`` each way."""
    name = "c" + LIBM.get(fn, fn) + ("f" if t.bits == 64 else "")
    if t.bits == 128:
        callee = m.declare(name, "{double, double}", ["double", "double"],
                           attrs=("nounwind", "memory(none)"))
        return b.call(callee, [b.extract_value(z, k, "double") for k in (0, 1)])
    vec = "<2 x float>"
    callee = m.declare(name, vec, [vec], attrs=("nounwind", "memory(none)"))
    packed = b._emit(vec, f"insertelement {vec} undef, float {b.extract_value(z, 0, 'float').ref}, i32 0")
    packed = b._emit(vec, f"insertelement {vec} {packed.ref}, float {b.extract_value(z, 1, 'float').ref}, i32 1")
    r = b.call(callee, [packed])
    out = undef(llvm_type(t))
    for k in (0, 1):
        part = b._emit("float", f"extractelement {vec} {r.ref}, i32 {k}")
        out = b.insert_value(out, part, k)
    return out


def libm_symbols() -> list[str]:
    """Every libm symbol lowered code may reference, both precisions."""
    names = set(LIBM.values()) | set(_CODEGEN_LIBCALLS) | {"c" + LIBM.get(f, f) for f in COMPLEX_MATH}
    return sorted(names | {n + "f" for n in names})
