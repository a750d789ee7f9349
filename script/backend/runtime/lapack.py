"""The LAPACK routines compiled code's `lapack` op calls (llvm.lapack): NumPy's own.

NumPy's wheels bundle OpenBLAS built with 64-bit integers, LAPACK included, in
``numpy.libs`` (runtime.blas finds the library; ``SCRIPT_NO_BLAS=1`` hides it). Each routine
of `script.ir.ops.LAPACK_ROUTINES` gets one pointer-sized cell, the symbol
``script.lapack.<routine>``, holding the address of the Fortran routine found under a name
of the 64-bit interface (``scipy_dsyevd_64_``, ``dsyevd_64_``), or NULL: a routine with
32-bit integers must not be called with 64-bit ones, so nothing else is used, and compiled
code raises RuntimeError naming the NumPy function instead.
"""

from __future__ import annotations

import ctypes
import functools

PREFIX = "script.lapack."               # llvm.lapack's symbol of routine R: PREFIX + R


@functools.cache
def addresses() -> dict[str, int]:
    """``script.lapack.<routine>`` -> the address of its cell, for every known routine."""
    from script.backend.runtime import blas
    from script.ir.ops import LAPACK_ROUTINES
    out = {}
    for name in LAPACK_ROUTINES:
        cell = ctypes.c_void_p(blas._find((f"scipy_{name}_64_", f"{name}_64_")))
        _cells.append(cell)
        out[PREFIX + name] = ctypes.addressof(cell)
    return out


_cells: list = []                       # keeps the cells alive for the process


def available(name: str) -> bool:
    """Whether routine `name` was found (what compiled code will call)."""
    from script.backend.runtime import blas
    return blas._find((f"scipy_{name}_64_", f"{name}_64_")) is not None
