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
from script.backend.llvm.builder import Builder, NativeModule, Value, undef

# IR name -> LLVM intrinsic base name (llvm.<name>.f32 / .f64).
INTRINSICS = {
    "sqrt": "sqrt", "exp": "exp", "exp2": "exp2", "log": "log", "log2": "log2",
    "log10": "log10", "sin": "sin", "cos": "cos", "floor": "floor", "ceil": "ceil",
    "trunc": "trunc", "fabs": "fabs", "copysign": "copysign", "pow": "pow", "rint": "rint",
    "fma": "fma",
}

# IR name -> libm name of the double version (the float version appends "f").
LIBM = {name: name for name in MATH_FUNCS if name not in INTRINSICS}
LIBM["gamma"] = "tgamma"

# Functions LLVM may call when it expands intrinsics or recognizes idioms.
_CODEGEN_LIBCALLS = ("fmod", "sincos", "ldexp", "frexp", "exp10", "fma", "fmin", "fmax",
                     "round", "nearbyint", "exp", "exp2", "log", "log2", "log10", "sin", "cos",
                     "pow", "sqrt", "floor", "ceil", "trunc", "rint", "fabs", "copysign")

assert set(INTRINSICS) | set(LIBM) == set(MATH_FUNCS), "every math function needs a lowering"


def lower_math(m: NativeModule, b: Builder, fn: str, t: T.Type, args) -> Value:
    """``math.fn`` of `args` (all of float type `t`)."""
    if isinstance(t, T.ComplexType):
        return _lower_complex_math(m, b, fn, t, args[0])
    lt = llvm_type(t)
    arity = MATH_FUNCS[fn][0]
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
