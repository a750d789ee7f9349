"""NumPy's splitting functions written in the compiled subset: `split`, `array_split`,
`hsplit`, `vsplit` (a list of views, as NumPy's), and
``np.lib.stride_tricks.sliding_window_view`` (a new array of the windows).

Compiled like numpy_lib's functions (numpy_lib_call maps ``np.<name>`` to the function of
the same name here). The pieces are views of 1-d and 2-d arrays along axis 0 or 1; the list
holds them in order, so ``a, b = np.split(x, 2)`` unpacks as in NumPy. NumPy's sliding
windows are a read-only view; here they are a copy, equal to it element for element (so
nothing can be written through either).
"""

import numpy as np

from script.lib.numpy.numpy_lib import _axis


def _piece(ary, lo, hi, ax):
    if ary.ndim == 1 or ax == 0:
        return ary[lo:hi]
    return ary[:, lo:hi]


def _split_at(ary, bounds, ax):
    """The pieces of `ary` between consecutive `bounds` (ints, clipped to the axis as NumPy's
    slices clip them)."""
    out = [_piece(ary, 0, 0, ax)]
    out.pop()
    for i in range(bounds.shape[0] - 1):
        out.append(_piece(ary, bounds[i], bounds[i + 1], ax))
    return out


def _bounds(n, indices_or_sections, equal):
    """NumPy's division points: `sections` pieces (the first ``n % sections`` one longer; an
    uneven split raising when `equal`), or the given indices between 0 and `n`."""
    if isinstance(indices_or_sections, np.ndarray):
        k = indices_or_sections.shape[0]
        b = np.empty(k + 2, dtype=np.int64)
        b[0] = 0
        b[1:k + 1] = indices_or_sections
        b[k + 1] = n
        return b
    sections = indices_or_sections
    if equal and n % sections != 0:        # NumPy's order: by zero, ZeroDivisionError first
        raise ValueError("array split does not result in an equal division")
    if sections <= 0:
        raise ValueError("number sections must be larger than 0.")
    each = n // sections
    extra = n % sections
    b = np.empty(sections + 1, dtype=np.int64)
    b[0] = 0
    for i in range(sections):
        b[i + 1] = b[i] + each + (1 if i < extra else 0)
    return b


def _ranked(ary):
    if ary.ndim != 1 and ary.ndim != 2:
        raise ValueError("np.split takes a 1-d or 2-d array here")


def split(ary, indices_or_sections, axis=0):
    _ranked(ary)
    ax = _axis(axis, ary.ndim)
    return _split_at(ary, _bounds(ary.shape[ax], indices_or_sections, True), ax)


def array_split(ary, indices_or_sections, axis=0):
    _ranked(ary)
    ax = _axis(axis, ary.ndim)
    return _split_at(ary, _bounds(ary.shape[ax], indices_or_sections, False), ax)


def hsplit(ary, indices_or_sections):
    _ranked(ary)
    return split(ary, indices_or_sections, 1 if ary.ndim == 2 else 0)


def vsplit(ary, indices_or_sections):
    if ary.ndim != 2:
        raise ValueError("vsplit only works on arrays of 2 or more dimensions")
    return split(ary, indices_or_sections, 0)


def sliding_window_view(x, window_shape, axis=None):
    """The windows of `window_shape` elements along the last axis (1-d `x`, or `axis` of a
    2-d one), as a new array with the window axis last."""
    w = window_shape
    if w < 0:
        raise ValueError("`window_shape` cannot contain negative values")
    if x.ndim == 1:
        if axis is not None:
            _axis(axis, 1)
        if x.shape[0] < w:
            raise ValueError("window shape cannot be larger than input array shape")
        n = x.shape[0] - w + 1
        out = np.empty((n, w), dtype=x.dtype)
        for i in range(n):
            out[i] = x[i:i + w]
        return out
    if x.ndim != 2 or axis is None:
        raise ValueError("np.lib.stride_tricks.sliding_window_view takes a 1-d array, or a 2-d one with "
                         "an axis, here")
    ax = _axis(axis, 2)
    if x.shape[ax] < w:
        raise ValueError("window shape cannot be larger than input array shape")
    if ax == 1:
        n = x.shape[1] - w + 1
        out = np.empty((x.shape[0], n, w), dtype=x.dtype)
        for i in range(n):
            out[:, i, :] = x[:, i:i + w]
        return out
    n = x.shape[0] - w + 1
    out = np.empty((n, x.shape[1], w), dtype=x.dtype)
    for i in range(n):
        out[i] = x[i:i + w].T
    return out
