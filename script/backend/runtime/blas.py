"""The table of BLAS functions compiled code's `gemm` calls (llvm.blas): NumPy's own
?gemm, and ?gemv for a matrix . vector product (as NumPy calls them).

NumPy's wheels bundle OpenBLAS with 64-bit integers in ``numpy.libs``; other builds may link
another BLAS, or one with 32-bit integers, whose functions `gemm` must not call with 64-bit
lengths. Only functions found under a name of the 64-bit interface are used; anything else
leaves NULL in the table, and compiled code uses its own loops.
"""

from __future__ import annotations

import ctypes
import functools
import glob
import os

_NAMES = {k: (f"scipy_cblas_{k}64_", f"cblas_{k}64_") for k in ("dgemm", "sgemm", "dgemv", "sgemv")}


@functools.cache
def table_address() -> int:
    """The address of ``script.blas``: [dgemm, sgemm, dgemv, sgemv] (each NULL when not
    found), in llvm.blas's order."""
    global _table
    _table = (ctypes.c_void_p * len(_NAMES))(*(_find(names) for names in _NAMES.values()))
    return ctypes.addressof(_table)


_table = None


def _find(names) -> int | None:
    for lib in _libraries():
        for name in names:
            fn = getattr(lib, name, None)
            if fn is not None:
                return ctypes.cast(fn, ctypes.c_void_p).value
    return None


@functools.cache
def _libraries() -> list:
    """NumPy's bundled BLAS libraries (already loaded by NumPy: opening them again gives
    the same copy)."""
    if os.environ.get("SCRIPT_NO_BLAS"):
        return []
    try:
        import numpy
    except ImportError:
        return []
    here = os.path.dirname(os.path.dirname(numpy.__file__))
    out = []
    for path in sorted(glob.glob(os.path.join(here, "numpy.libs", "*openblas*"))
                       + glob.glob(os.path.join(here, "numpy", ".dylibs", "*openblas*"))):
        try:
            out.append(ctypes.CDLL(path))
        except OSError:
            continue
    return out
