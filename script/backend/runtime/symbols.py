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


NUMPY_OBJECTS = ("PyArray_Type",)


def numpy_symbol_library() -> str:
    """The JIT library binding NumPy's objects that entry points taking arrays name
    (``PyArray_Type``, the address of `numpy.ndarray`); imports NumPy."""
    import numpy
    from script.backend.llvm.jit import get_jit
    _check_numpy_layout(numpy)
    table = {"PyArray_Type": id(numpy.ndarray)}
    table.update(_numpy_api(numpy))
    return get_jit().add_symbols("script.numpy", table)


@functools.cache
def _numpy_api(np) -> dict[str, int]:
    """The addresses of NumPy's C-API functions in capi.NUMPY_FUNCTIONS, read from the
    ``_ARRAY_API`` table that NumPy's own extension modules use."""
    try:
        from numpy._core import _multiarray_umath as multiarray
    except ImportError:                     # NumPy 1.x
        from numpy.core import _multiarray_umath as multiarray
    get = ctypes.PYFUNCTYPE(ctypes.c_void_p, ctypes.py_object, ctypes.c_char_p)(
        ("PyCapsule_GetPointer", ctypes.pythonapi))
    table = ctypes.cast(get(multiarray._ARRAY_API, None), ctypes.POINTER(ctypes.c_void_p))
    return {name: table[slot] for name, (slot, _, _) in capi.NUMPY_FUNCTIONS.items()}


@functools.cache
def _check_numpy_layout(np) -> None:
    """Fail loudly if NumPy's object layout differs from runtime.capi's offsets."""
    a = np.zeros((3, 5), np.int32)[::-1]
    word = lambda addr, kind=ctypes.c_int64: kind.from_address(addr).value   # noqa: E731
    base = id(a)
    descr = word(base + capi.NPY_DESCR)
    ok = (word(base + capi.NPY_DATA) == a.ctypes.data
          and word(base + capi.NPY_ND, ctypes.c_int32) == 2
          and word(word(base + capi.NPY_DIMENSIONS) + 8) == 5
          and word(word(base + capi.NPY_STRIDES)) == -20
          and descr == id(a.dtype)
          and word(descr + capi.DESCR_TYPE_NUM, ctypes.c_int32) == a.dtype.num
          and word(descr + capi.DESCR_BYTEORDER, ctypes.c_char) == b"="
          and word(base + capi.NPY_FLAGS, ctypes.c_int32) & 0xFFFF == a.flags.num & 0xFFFF)
    if not ok:
        raise RuntimeError(f"script's array entry points do not know NumPy {np.__version__}'s "
                           "object layout")
