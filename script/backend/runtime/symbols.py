"""The address of every external symbol generated code may name, for the JIT's linker."""

from __future__ import annotations

import ctypes
import functools
import sys

from script.backend.llvm import mathlib
from script.backend.runtime import capi


@functools.cache
def symbol_addresses() -> dict[str, int]:
    """The C-API (runtime.capi) and libm (llvm.mathlib) symbols of this process, by name.
    A libm name this platform lacks is left to the JIT's process-wide lookup."""
    table = dict(capi.symbol_addresses())
    libm = ctypes.CDLL("libm.so.6" if sys.platform.startswith("linux") else None)
    for name in mathlib.libm_symbols():
        fn = getattr(libm, name, None)
        if fn is not None:
            table[name] = ctypes.cast(fn, ctypes.c_void_p).value
    return table


def symbol_library() -> str:
    """The JIT library (llvm.jit `add_symbols`) of `symbol_addresses`, for `Jit.link`."""
    from script.backend.llvm.jit import get_jit
    return get_jit().add_symbols("script.symbols", symbol_addresses())
