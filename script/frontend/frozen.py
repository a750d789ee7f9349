"""Module-level NumPy arrays read by compiled code: frozen when the function is compiled.

As in Numba, a global array is a constant of the compiled code: its elements are copied into
the code (`const_array`) when the function is compiled, later changes to the Python array
are not seen (the compile cache keys on its contents), and compiled code may not write it
(`reject_const_array_writes`, a CompileError at the write). Returning it, or a view of it,
gives Python a copy.
"""

from __future__ import annotations

import numpy as np

from script.errors import CompileError
from script.frontend.typeinfer import type_from_annotation
from script.ir import types as T
from script.ir.analysis import const_array_writes
from script.ir.ops import ArrayData

MAX_FROZEN_BYTES = 64 << 20     # the bytes become part of the code: keep it to tables


def frozen_array(lowering, arr: np.ndarray, name: str, node):
    """The `const_array` value of global array `arr`."""
    dtype = type_from_annotation(arr.dtype.type)
    if dtype is None or arr.ndim == 0 or arr.dtype.byteorder == ">":
        lowering.error(f"global '{name}' is a {arr.ndim}-d array of {arr.dtype}, which compiled code "
                       "cannot freeze (arrays of bool, ints and floats, 1-d or more)", node)
    if arr.nbytes > MAX_FROZEN_BYTES:
        lowering.error(f"global array '{name}' has {arr.nbytes} bytes; compiled code freezes arrays "
                       f"of at most {MAX_FROZEN_BYTES >> 20} MiB (pass it as an argument)", node)
    data = ArrayData(tuple(arr.shape), np.ascontiguousarray(arr, dtype=arr.dtype.newbyteorder("<")).tobytes())
    return lowering.emit("const_array", [], T.ArrayType(dtype, arr.ndim, "C"), data, lowering.loc(node))


def reject_rebound_array(lowering, arr: np.ndarray, name: str, node) -> None:
    """CompileError for global array `name` when its module's own statements bind the name
    again (`A = np.zeros(n)`, later `A = np.ones(n)`): a frozen copy would answer from the
    value at the compile, where CPython reads the name at each call."""
    py_func = getattr(lowering.info, "py_func", None)
    if py_func is None or py_func.__globals__.get(name) is not arr:
        return
    from script.frontend.global_writes import module_rebinds
    if name in module_rebinds(py_func):
        lowering.error(f"global array '{name}' is bound again by its module's statements; compiled code "
                       "freezes a global array when the function is compiled, so a later binding would not "
                       "be seen (pass it as an argument)", node)


def reject_const_array_writes(module) -> None:
    for func in module.functions.values():
        for i in const_array_writes(func):
            raise CompileError("a global array is a constant of compiled code (frozen when the "
                               "function was compiled) and cannot be written; copy it first "
                               "(a = GLOBAL.copy())", i.loc or func.loc)
