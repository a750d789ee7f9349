"""NumPy functions that select or order elements, written in the compiled subset (the
library of numpy_lib_call): ``partition`` and ``argpartition`` (as full sorts: a sorted
lane is one valid partition, so the k-th element and the two sides agree with NumPy's while
the order inside each side may differ — NumPy's introselect leaves it unspecified), and the
index pairs of a triangle, ``triu_indices`` and ``tril_indices``.
"""

from __future__ import annotations

import numpy as np

from script.lib.numpy.numpy_lib import _argsort_1d, _axis, argsort, sort


def _check_kth(kth, n: int) -> None:
    k = kth + n if kth < 0 else kth
    if k < 0 or k >= n:
        raise ValueError(f"kth(={kth}) out of bounds ({n})")


def partition(a, kth, axis=-1):
    """Each lane along `axis` with its `kth` element where a sort would put it, smaller ones
    before, larger ones after (here: the lane sorted)."""
    if axis is None:
        flat = a.ravel()
        _check_kth(kth, flat.shape[0])
        return sort(flat)
    _check_kth(kth, a.shape[_axis(axis, a.ndim)])
    return sort(a, axis)


def argpartition(a, kth, axis=-1):
    """The indices that partition each lane (here: that sort it, stably)."""
    if axis is None:
        flat = a.ravel()
        _check_kth(kth, flat.shape[0])
        return _argsort_1d(flat)
    _check_kth(kth, a.shape[_axis(axis, a.ndim)])
    return argsort(a, axis)


def _triangle(n: int, k: int, m: int, upper: bool):
    count = 0
    for i in range(n):
        for j in range(m):
            if (j - i >= k) if upper else (j - i <= k):
                count += 1
    rows = np.empty(count, dtype=np.int64)
    cols = np.empty(count, dtype=np.int64)
    p = 0
    for i in range(n):
        for j in range(m):
            if (j - i >= k) if upper else (j - i <= k):
                rows[p] = i
                cols[p] = j
                p += 1
    return rows, cols


def triu_indices(n, k=0, m=None):
    """Row and column indices of the upper triangle of an n x m array, from diagonal k on,
    in C order."""
    if m is None:
        return _triangle(n, k, n, True)
    return _triangle(n, k, m, True)


def tril_indices(n, k=0, m=None):
    if m is None:
        return _triangle(n, k, n, False)
    return _triangle(n, k, m, False)
