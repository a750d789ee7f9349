"""Functions reading module-level NumPy arrays (test_frozen.py)."""

import numpy as np

TABLE = np.arange(12.0).reshape(3, 4) / 7.0
INTS = np.array([3, -1, 4, 1, -5, 9], dtype=np.int32)
MASK = np.array([True, False, True, True])
FORTRAN = np.asfortranarray(np.arange(6.0).reshape(2, 3))
STRIDED = np.arange(20, dtype=np.uint8)[::3]
EMPTY = np.zeros((0, 2))


def lookup(i, j):
    return TABLE[i, j] + INTS[i] * 2


def weighted(a):
    return (a * TABLE[0]).sum() + INTS.sum() + MASK.sum()


def table_rows(k):
    s = 0.0
    for row in TABLE:
        s += row[k]
    return s, FORTRAN[1, 2] + FORTRAN[0, 1], STRIDED[-1] + STRIDED.size, EMPTY.shape[0]


def return_global():
    return TABLE


def return_view(k):
    return TABLE[:, k], INTS[::-2]


def _read_row(m, i):
    return m[i].max()


def through_callee(i):
    return _read_row(TABLE, i) + _read_row(FORTRAN, 0)


def writes_global(i):
    TABLE[0, 0] = i
    return i


def _fill(m, v):
    m[0] = v


def writes_through_callee(v):
    _fill(INTS, v)
    return v
