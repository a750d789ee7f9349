"""The `lapack` op: a call of a LAPACK routine of NumPy's own LAPACK, when there is one.

``lapack.R %x0, ...`` calls the Fortran routine R (`script.ir.ops.LAPACK_ROUTINES` gives its
argument list) through the pointer in the cell ``script.lapack.R`` that runtime.lapack fills
when compiled code first runs (NULL when this NumPy has no LAPACK with 64-bit integers). Each
routine gets one internal helper per module, ``script.lapack_call.R``, taking the scalars by
value and the arrays' data pointers: it stores the scalars in stack slots of its own entry
block (so a call in a loop does not grow the stack), passes their addresses and INFO's
(BLAS routines have none: LAPACK_NO_INFO, which give 0), appends gfortran's hidden length (1)
of each CHARACTER argument, and gives INFO, or LAPACK_MISSING without calling anything when
the cell is NULL.
"""

from __future__ import annotations

from script.backend.llvm.abi import ARRAY_DATA
from script.backend.llvm.builder import NULL, Builder, Callee, NativeModule, Value, int_const
from script.ir.ops import LAPACK_MISSING, LAPACK_NO_INFO, LAPACK_ROUTINES

CELL_PREFIX = "script.lapack."          # runtime.lapack's PREFIX
HELPER_PREFIX = "script.lapack_call."
_SCALAR = {"c": "i64", "i": "i64", "f": "double", "r": "float"}


def lower_lapack(m: NativeModule, b: Builder, routine: str, operands: list) -> Value:
    """``lapack.R`` on the lowered operands (scalars, and array structs whose data pointer is
    passed); gives the i64 INFO."""
    sig = LAPACK_ROUTINES[routine]
    args = [v if letter in _SCALAR else b.extract_value(v, ARRAY_DATA, "ptr")
            for letter, v in zip(sig, operands)]
    return b.call(_helper(m, routine, sig), args)


def _helper(m: NativeModule, routine: str, sig: str) -> Callee:
    name = HELPER_PREFIX + routine
    fn = m.helpers.get(name)
    if fn is not None:
        return fn
    fn = m.helpers[name] = m.new_function(name, "i64", [_SCALAR.get(c, "ptr") for c in sig])
    b = Builder(fn, fn.append_block("entry"))
    cell = m.declare_data(CELL_PREFIX + routine, "ptr")
    target = b.load("ptr", cell)
    info = b.alloca("i64")
    refs = []
    for letter, arg in zip(sig, fn.args):
        if letter == "c":
            slot = b.alloca("i8")
            b.store(b.trunc(arg, "i8"), slot)
        elif letter in _SCALAR:
            slot = b.alloca(arg.type)
            b.store(arg, slot)
        else:
            slot = arg
        refs.append(slot)
    call, missing = fn.append_block("call"), fn.append_block("missing")
    b.cbranch(b.icmp("eq", target, NULL), missing, call)
    b.position_at_end(missing)
    b.ret(int_const("i64", LAPACK_MISSING))
    b.position_at_end(call)
    b.store(int_const("i64", 0), info)
    nchars = sig.count("c")
    if routine not in LAPACK_NO_INFO:
        refs.append(info)
    callee = Callee(target.ref, "void", ["ptr"] * len(refs) + ["i64"] * nchars)
    b.call(callee, refs + [int_const("i64", 1)] * nchars)
    b.ret(b.load("i64", info))
    return fn
