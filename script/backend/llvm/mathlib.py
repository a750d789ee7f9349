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
from script.backend.llvm.builder import Builder, NativeModule, Value, float_const, int_const, undef

# IR name -> LLVM intrinsic base name (llvm.<name>.f32 / .f64).
INTRINSICS = {
    "sqrt": "sqrt", "exp": "exp", "exp2": "exp2", "log": "log", "log2": "log2",
    "log10": "log10", "sin": "sin", "cos": "cos", "floor": "floor", "ceil": "ceil",
    "trunc": "trunc", "fabs": "fabs", "copysign": "copysign", "pow": "pow", "rint": "rint",
    "fma": "fma",
}

# IR name -> libm name of the double version (the float version appends "f").
LIBM = {name: name for name in MATH_FUNCS if name not in INTRINSICS and name != "norm2"}
LIBM["gamma"] = "tgamma"

# Functions LLVM may call when it expands intrinsics or recognizes idioms.
_CODEGEN_LIBCALLS = ("fmod", "sincos", "ldexp", "frexp", "exp10", "fma", "fmin", "fmax",
                     "round", "nearbyint", "exp", "exp2", "log", "log2", "log10", "sin", "cos",
                     "pow", "sqrt", "floor", "ceil", "trunc", "rint", "fabs", "copysign")

assert set(INTRINSICS) | set(LIBM) | {"norm2"} == set(MATH_FUNCS), "every math function needs a lowering"


def lower_math(m: NativeModule, b: Builder, fn: str, t: T.Type, args) -> Value:
    """``math.fn`` of `args` (all of float type `t`)."""
    if isinstance(t, T.ComplexType):
        return _lower_complex_math(m, b, fn, t, args[0])
    lt = llvm_type(t)
    arity = MATH_FUNCS[fn][0]
    if fn == "norm2":
        return _lower_norm2(m, b, t, *args)
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
