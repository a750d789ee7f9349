"""``math.F``: LLVM intrinsics where LLVM has them, libm calls otherwise.

The libm functions are declared ``readnone`` (``memory(none)``): compiled code never reads
``errno``, so LLVM may merge, hoist and delete them like any pure operation. `libm_symbols`
lists every libm name lowered code can reference, including the ones LLVM itself turns
intrinsics into (``frem`` becomes ``fmod``, ``llvm.exp`` becomes ``exp``, ``sin`` and ``cos``
of one value become ``sincos``), so the JIT can bind them all by name.
"""

from __future__ import annotations

from script.ir import types as T
from script.ir.ops import MATH_FUNCS
from script.backend.llvm.abi import llvm_type
from script.backend.llvm.builder import Builder, NativeModule, Value

# IR name -> LLVM intrinsic base name (llvm.<name>.f32 / .f64).
INTRINSICS = {
    "sqrt": "sqrt", "exp": "exp", "exp2": "exp2", "log": "log", "log2": "log2",
    "log10": "log10", "sin": "sin", "cos": "cos", "floor": "floor", "ceil": "ceil",
    "trunc": "trunc", "fabs": "fabs", "copysign": "copysign", "pow": "pow", "rint": "rint",
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


def libm_symbols() -> list[str]:
    """Every libm symbol lowered code may reference, both precisions."""
    names = set(LIBM.values()) | set(_CODEGEN_LIBCALLS)
    return sorted(names | {n + "f" for n in names})
