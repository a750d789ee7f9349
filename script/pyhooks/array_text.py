"""`str(a)`, `repr(a)`, `print(a)` and `f"{a}"` of an array in compiled code: NumPy's own text.

The `str_py.array_str` / `array_repr` ops hand the runtime the address of a view of the array
(backend/llvm/strings.py `ARRAY_VIEW`: data pointer, rank, NumPy type number, shape,
strides), alive while the call runs; the runtime calls these functions with it, with the GIL.
They make a read-only ndarray over the same elements (nothing copied) and return its
`str`/`repr`, so the text follows NumPy's print options as CPython's would.
"""

from __future__ import annotations

import ctypes

import numpy as np

from script.backend.llvm.strings import MAX_VIEW_DIMS, VIEW_SHAPE, VIEW_STRIDES

_DTYPES = {np.dtype(c).num: np.dtype(c) for c in "?bBhHiIlLqQefdFD"}


def _array(address: int) -> np.ndarray:
    data = ctypes.c_void_p.from_address(address).value or 0
    ndim = ctypes.c_int64.from_address(address + 8).value
    dtype = _DTYPES[ctypes.c_int64.from_address(address + 16).value]
    if not 0 <= ndim <= MAX_VIEW_DIMS:
        raise ValueError(f"an array view of rank {ndim}")
    shape = tuple((ctypes.c_int64 * ndim).from_address(address + VIEW_SHAPE)) if ndim else ()
    strides = tuple((ctypes.c_int64 * ndim).from_address(address + VIEW_STRIDES)) if ndim else ()
    if 0 in shape:
        return np.empty(shape, dtype)
    low = sum(min(0, (n - 1) * s) for n, s in zip(shape, strides))
    high = sum(max(0, (n - 1) * s) for n, s in zip(shape, strides)) + dtype.itemsize
    buffer = (ctypes.c_char * (high - low)).from_address(data + low)
    a = np.ndarray(shape, dtype, buffer=buffer, offset=-low, strides=strides)
    a.flags.writeable = False
    return a


def array_str(address: int) -> str:
    return str(_array(address))


def array_repr(address: int) -> str:
    return repr(_array(address))
