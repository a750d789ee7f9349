"""The address of every external symbol generated code may name: for the JIT's linker
(`symbol_library`, `numpy_symbol_library`) and for native.elfload (`resolve`).

This module is on the load path: it imports the backend's tables (runtime.capi, llvm.mathlib)
only where a lookup needs them."""

from __future__ import annotations

import ctypes
import functools
import sys

from script.store import NUMPY_OBJECTS, NUMPY_PREFIX


@functools.cache
def symbol_addresses() -> dict[str, int]:
    """The C-API (runtime.capi), libm (llvm.mathlib) and random-state (runtime.random_state)
    symbols of this process, by name. A libm name this platform lacks is left to the JIT's
    process-wide lookup."""
    from script.backend.llvm import mathlib
    from script.backend.runtime import blas, capi, lapack, parallel, random_state
    table = dict(capi.symbol_addresses())
    table.update(random_state.addresses())
    table.update(lapack.addresses())
    table["script.blas"] = blas.table_address()
    table["script.parallel"] = parallel.table_address()
    for name in mathlib.libm_symbols():
        fn = getattr(_libm(), name, None)
        if fn is not None:
            table[name] = ctypes.cast(fn, ctypes.c_void_p).value
    return table


@functools.cache
def _libm():
    return ctypes.CDLL("libm.so.6" if sys.platform.startswith("linux") else None)


def resolve(name: str) -> int | None:
    """The address the JIT's libraries would bind the external symbol `name` to, or None:
    NumPy's objects and API (importing NumPy), else the running process (the C-API, libc,
    and libm, which CPython links), else libm; the random generators' states
    (runtime.random_state)."""
    if name in NUMPY_OBJECTS or name.startswith(NUMPY_PREFIX):
        return numpy_addresses().get(name)
    if name == "script.blas":                      # llvm.blas's TABLE_SYMBOL
        from script.backend.runtime import blas
        return blas.table_address()
    if name == "script.parallel":                  # llvm.parallel's TABLE_SYMBOL
        from script.backend.runtime import parallel
        return parallel.table_address()
    if name.startswith("script.lapack."):          # runtime.lapack's PREFIX
        from script.backend.runtime import lapack
        return lapack.addresses().get(name)
    if name.startswith("script.rng."):             # llvm.rng's PREFIX
        from script.backend.runtime import random_state
        return random_state.addresses().get(name)
    for lib in (ctypes.pythonapi, _libm()):
        try:
            return ctypes.addressof(ctypes.c_char.in_dll(lib, name))
        except ValueError:
            continue
    return None


def symbol_library() -> str:
    """The JIT library (llvm.jit `add_symbols`) of `symbol_addresses`, for `Jit.link`."""
    from script.backend.llvm.jit import get_jit
    return get_jit().add_symbols("script.symbols", symbol_addresses())


def numpy_symbol_library() -> str:
    """The JIT library binding NumPy's objects that entry points taking arrays name
    (``PyArray_Type``, the address of `numpy.ndarray`); imports NumPy."""
    from script.backend.llvm.jit import get_jit
    return get_jit().add_symbols("script.numpy", numpy_addresses())


@functools.cache
def numpy_addresses() -> dict[str, int]:
    """NumPy's objects and API functions by the names generated code gives them; imports
    NumPy and checks its object layout first."""
    import numpy
    _check_numpy_layout(numpy)
    table = {"PyArray_Type": id(numpy.ndarray)}
    table.update(_numpy_api(numpy))
    table.update(_numpy_scalar_types(numpy))
    return table


def _numpy_scalar_types(np) -> dict[str, int]:
    """The addresses of NumPy's scalar type objects (capi.NUMPY_SCALAR_TYPES), by type number."""
    from script.backend.runtime import capi
    classes = {np.dtype(code).num: np.dtype(code).type for code in "?bBhHiIlLqQfd"}
    return {name: id(classes[num]) for num, name in capi.NUMPY_SCALAR_TYPES.items()}


@functools.cache
def _numpy_api(np) -> dict[str, int]:
    """The addresses of NumPy's C-API functions in capi.NUMPY_FUNCTIONS, read from the
    ``_ARRAY_API`` table that NumPy's own extension modules use."""
    from script.backend.runtime import capi
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
    from script.backend.runtime import capi
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
          and word(base + capi.NPY_FLAGS, ctypes.c_int32) & 0xFFFF == a.flags.num & 0xFFFF
          and all(word(id(x) + capi.NPY_SCALAR_VALUE, kind) == v for x, kind, v in (
              (np.int8(-7), ctypes.c_int8, -7), (np.uint16(65000), ctypes.c_uint16, 65000),
              (np.int32(-123456), ctypes.c_int32, -123456),
              (np.uint64(2**64 - 2), ctypes.c_uint64, 2**64 - 2),
              (np.float32(1.5), ctypes.c_float, 1.5))))
    if not ok:
        raise RuntimeError(f"script's array entry points do not know NumPy {np.__version__}'s "
                           "object layout")
