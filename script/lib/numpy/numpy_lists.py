"""Arrays joined from a list of arrays built at run time (``rows.append(r)`` in a loop, then
``np.array(rows)``, ``np.stack(rows)``, ``np.vstack(rows)``, ``np.concatenate(rows)``), in
the compiled subset. numpy_join.py joins tuples and list literals, whose lengths are known
when compiling; a list value's length is not, so these loop over it. Called from
numpy_join.list_join with the list as the one argument.

Difference: an empty list has no element to take a shape and dtype from, so
``np.array(rows)`` of an empty list raises ``ValueError`` (NumPy gives ``array([])``), as
NumPy's stack/concatenate do.
"""

from __future__ import annotations

import numpy as np

from script.frontend.library_intrinsics import raise_if


def array_of_rows(rows):
    """``np.array(rows)``: one new axis in front; NumPy's error for rows of other shapes."""
    if len(rows) == 0:
        raise ValueError("numpy.array() of an empty list of arrays is not supported in compiled code")
    first = rows[0]
    for i in range(1, len(rows)):
        raise_if(rows[i].shape != first.shape, ValueError,
                 "setting an array element with a sequence. The requested array has an inhomogeneous "
                 "shape after 1 dimensions. The detected shape was (%d,) + inhomogeneous part.", len(rows))
    return _stacked(rows)


def stack_rows(rows):
    """``np.stack(rows)``, ``np.vstack`` of 1-d rows."""
    if len(rows) == 0:
        raise ValueError("need at least one array to stack")
    first = rows[0]
    for i in range(1, len(rows)):
        if rows[i].shape != first.shape:
            raise ValueError("all input arrays must have the same shape")
    return _stacked(rows)


def _stacked(rows):
    first = rows[0]
    out = np.empty((len(rows),) + first.shape, dtype=first.dtype)
    for i in range(len(rows)):
        out[i] = rows[i]
    return out


def concatenate_rows(rows):
    """``np.concatenate(rows)`` along axis 0 (``np.vstack`` of 2-d, ``np.hstack`` of 1-d
    arrays): the other lengths must agree, NumPy's message naming the first that does not."""
    if len(rows) == 0:
        raise ValueError("need at least one array to concatenate")
    first = rows[0]
    total = 0
    for i in range(len(rows)):
        r = rows[i]
        for k in range(1, r.ndim):
            raise_if(r.shape[k] != first.shape[k], ValueError,
                     "all the input array dimensions except for the concatenation axis must match exactly, "
                     "but along dimension %d, the array at index 0 has size %d and the array at index %d "
                     "has size %d", k, first.shape[k], i, r.shape[k])
        total += r.shape[0]
    out = np.empty((total,) + first.shape[1:], dtype=first.dtype)
    p = 0
    for i in range(len(rows)):
        r = rows[i]
        out[p:p + r.shape[0]] = r
        p += r.shape[0]
    return out
