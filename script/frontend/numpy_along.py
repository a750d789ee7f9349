"""NumPy functions of the fourth corpus (tests/realistic_np4.py), written in the compiled
subset: indexing along an axis (`take_along_axis`, `put_along_axis`, `ix_`, `squeeze` with
`axis`, `indices`), the ufunc method `at` (``np.add.at(a, idx, b)``), `lexsort` and `gradient`.

Compiled like numpy_lib's functions (numpy_lib_call maps ``np.<name>`` to the function of
the same name here). `take_along_axis` and `put_along_axis` build NumPy's own fancy index
(`arr[arange(n)[:, None], indices]`), so bounds and broadcasting errors are NumPy's.
"""

import numpy as np

from script.lib.numpy.numpy_lib import _argsort_1d, _axis


# ---- indexing along an axis -------------------------------------------------------------------

def apply_along_axis(func1d, axis, arr):
    """``func1d`` of each 1-d slice of a 1-d or 2-d `arr` along `axis`: the results (scalars,
    or 1-d arrays of one length) in the slices' order, the axis replaced by the result's,
    as NumPy's. `func1d` is bound when compiled (a function, lambda or NumPy function)."""
    if arr.ndim == 1:
        _axis(axis, 1)
        if arr.shape[0] == 0:
            raise ValueError("Cannot apply_along_axis when any iteration dimensions are 0")
        return _as_array(func1d(arr))
    ax = _axis(axis, arr.ndim)
    n = arr.shape[1 - ax]
    if n == 0 or arr.shape[ax] == 0:
        raise ValueError("Cannot apply_along_axis when any iteration dimensions are 0")
    first = func1d(arr[:, 0] if ax == 0 else arr[0])
    if not isinstance(first, np.ndarray):
        out = np.full(n, first)
        for i in range(1, n):
            out[i] = func1d(arr[:, i] if ax == 0 else arr[i])
        return out
    k = first.shape[0]
    out2 = np.empty((k, n) if ax == 0 else (n, k), dtype=first.dtype)
    for i in range(n):
        r = func1d(arr[:, i] if ax == 0 else arr[i]) if i else first
        if r.shape[0] != k:
            raise ValueError(f"could not broadcast input array from shape ({r.shape[0]},) into shape ({k},)")
        if ax == 0:
            out2[:, i] = r
        else:
            out2[i] = r
    return out2


def _as_array(r):
    if isinstance(r, np.ndarray):
        return r.copy()
    return np.full(1, r).reshape(())


def take_along_axis(arr, indices, axis=-1):
    """The elements of `arr` at `indices` along `axis` (1-d and 2-d arrays; None: the
    flattened array)."""
    if axis is None:
        return arr.ravel()[indices]
    if arr.ndim != indices.ndim:
        raise ValueError("`indices` and `arr` must have the same number of dimensions")
    if arr.ndim == 1:
        _axis(axis, 1)
        return arr[indices]
    if arr.ndim != 2:
        raise ValueError("np.take_along_axis takes a 1-d or 2-d array here")
    if _axis(axis, 2) == 0:
        return arr[indices, np.arange(arr.shape[1]).reshape(1, arr.shape[1])]
    return arr[np.arange(arr.shape[0]).reshape(arr.shape[0], 1), indices]


def put_along_axis(arr, indices, values, axis):
    """`arr[...] = values` at `indices` along `axis` (1-d and 2-d arrays), in place."""
    if arr.ndim != indices.ndim:
        raise ValueError("`indices` and `arr` must have the same number of dimensions")
    if arr.ndim == 1:
        _axis(axis, 1)
        arr[indices] = values
        return None
    if arr.ndim != 2:
        raise ValueError("np.put_along_axis takes a 1-d or 2-d array here")
    if _axis(axis, 2) == 0:
        arr[indices, np.arange(arr.shape[1]).reshape(1, arr.shape[1])] = values
    else:
        arr[np.arange(arr.shape[0]).reshape(arr.shape[0], 1), indices] = values
    return None


def _ix_1d(a):
    """A 1-d index array of ``np.ix_``: the positions of the true elements of a bool array."""
    if a.ndim != 1:
        raise ValueError("Cross index must be 1 dimensional")
    return a.nonzero()[0] if a.dtype == np.bool_ else a


def ix_(a, b=None, c=None):
    """An open mesh of two or three 1-d index arrays: ``m[np.ix_(rows, cols)]``."""
    if b is None:
        raise ValueError("np.ix_ takes two or three arrays here")
    x = _ix_1d(a)
    y = _ix_1d(b)
    if c is None:
        return x.reshape(x.shape[0], 1), y.reshape(1, y.shape[0])
    z = _ix_1d(c)
    return x.reshape(x.shape[0], 1, 1), y.reshape(1, y.shape[0], 1), z.reshape(1, 1, z.shape[0])


def squeeze(a, axis=None):
    """`a` without its length-1 axis `axis` (a view), for 2-d and 3-d arrays."""
    if a.ndim == 2:
        ax = _axis(axis, 2)
        if a.shape[ax] != 1:
            raise ValueError("cannot select an axis to squeeze out which has size not equal to one")
        return a[0] if ax == 0 else a[:, 0]
    if a.ndim == 3:
        ax = _axis(axis, 3)
        if a.shape[ax] != 1:
            raise ValueError("cannot select an axis to squeeze out which has size not equal to one")
        if ax == 0:
            return a[0]
        return a[:, 0] if ax == 1 else a[:, :, 0]
    raise ValueError("np.squeeze takes a 2-d or 3-d array here")


def indices(dimensions):
    """The row and column index grids of a 2-d shape, stacked: int64, shape (2, h, w)."""
    h, w = dimensions
    out = np.empty((2, h, w), dtype=np.int64)
    out[0] = np.arange(h).reshape(h, 1)
    out[1] = np.arange(w).reshape(1, w)
    return out


# ---- unbuffered in-place ufuncs: np.add.at -----------------------------------------------------

_ADD = 0
_SUBTRACT = 1
_MULTIPLY = 2
_MAXIMUM = 3
_MINIMUM = 4


def _apply(x, v, op):
    if op == _ADD:
        return x + v
    if op == _SUBTRACT:
        return x - v
    if op == _MULTIPLY:
        return x * v
    if op == _MAXIMUM:
        return np.maximum(x, v)
    return np.minimum(x, v)


def _ufunc_at(a, indices, b, op):
    """``np.<ufunc>.at(a, indices, b)``: ``a[i] = ufunc(a[i], b[k])`` for each position k of
    the 1-d `indices` in order, so a repeated index is applied each time (or once for an int
    index). `b` is a scalar or broadcasts to ``a[indices]``'s shape."""
    if not isinstance(indices, np.ndarray):
        a[indices] = _apply(a[indices], b, op)
        return None
    n = indices.shape[0]
    for k in range(n):              # NumPy checks every index before it applies any
        a[indices[k]]
    if not isinstance(b, np.ndarray):
        for k in range(n):
            a[indices[k]] = _apply(a[indices[k]], b, op)
        return None
    if b.ndim == a.ndim:
        if b.shape[0] != n and b.shape[0] != 1:
            raise ValueError("array is not broadcastable to correct shape")
        for k in range(n):
            a[indices[k]] = _apply(a[indices[k]], b[k if b.shape[0] == n else 0], op)
        return None
    if b.ndim > a.ndim:
        raise ValueError("array is not broadcastable to correct shape")
    for k in range(n):
        a[indices[k]] = _apply(a[indices[k]], b, op)
    return None


def add_at(a, indices, b):
    _ufunc_at(a, indices, b, _ADD)


def subtract_at(a, indices, b):
    _ufunc_at(a, indices, b, _SUBTRACT)


def multiply_at(a, indices, b):
    _ufunc_at(a, indices, b, _MULTIPLY)


def maximum_at(a, indices, b):
    _ufunc_at(a, indices, b, _MAXIMUM)


def minimum_at(a, indices, b):
    _ufunc_at(a, indices, b, _MINIMUM)


# ---- sorting by several keys -----------------------------------------------------------------------

def _lexsort_by(idx, key):
    """`idx` reordered, stably, by `key` (1-d) taken in the order of `idx`."""
    if key.ndim != 1:
        raise ValueError("np.lexsort takes 1-d keys here")
    if key.shape[0] != idx.shape[0]:
        raise ValueError("all keys need to be the same shape")
    return idx[_argsort_1d(key[idx])]


def lexsort(keys):
    """Indices that sort by the last key, then the one before it, ...: a tuple of
    up to four 1-d keys, or the rows of a 2-d array."""
    if isinstance(keys, np.ndarray):
        if keys.ndim == 1:
            return _argsort_1d(keys)
        if keys.ndim != 2:
            raise ValueError("np.lexsort takes the rows of a 2-d array here")
        if keys.shape[0] == 0:
            raise TypeError("need sequence of keys with len > 0 in lexsort")
        idx = np.arange(keys.shape[1])
        for i in range(keys.shape[0]):
            idx = _lexsort_by(idx, keys[i])
        return idx
    return _lexsort_keys(*keys)


def _lexsort_keys(k0, k1=None, k2=None, k3=None):
    idx = _lexsort_by(np.arange(k0.shape[0]), k0)
    if k1 is not None:
        idx = _lexsort_by(idx, k1)
    if k2 is not None:
        idx = _lexsort_by(idx, k2)
    if k3 is not None:
        idx = _lexsort_by(idx, k3)
    return idx


# ---- finite differences ----------------------------------------------------------------------------

_GRADIENT_SHORT = ("Shape of array too small to calculate a numerical gradient, at least (edge_order + 1) "
                   "elements are required.")


def _gradient_uniform(f, out, dx):
    """NumPy's gradient along axis 0 of `f` (1-d or 2-d) with spacing `dx`, into `out`:
    central differences inside, one-sided ones at the ends."""
    n = f.shape[0]
    if n < 2:
        raise ValueError(_GRADIENT_SHORT)
    out[1:-1] = (f[2:] - f[:-2]) / (2.0 * dx)
    out[0] = (f[1] - f[0]) / dx
    out[n - 1] = (f[n - 1] - f[n - 2]) / dx


def _gradient_coords(f, out, x):
    """NumPy's gradient of the 1-d `f` sampled at the coordinates `x`."""
    n = f.shape[0]
    if n < 2:
        raise ValueError(_GRADIENT_SHORT)
    if x.ndim != 1 or x.shape[0] != n:
        raise ValueError("when 1d, distances must match the length of the corresponding dimension")
    d = np.diff(x * 1.0)
    if np.all(d == d[0]):               # NumPy's shortcut: an even grid is one scalar spacing
        _gradient_uniform(f, out, d[0])
        return
    dx1 = d[0:-1]
    dx2 = d[1:]
    a = -(dx2) / (dx1 * (dx1 + dx2))
    b = (dx2 - dx1) / (dx1 * dx2)
    c = dx1 / (dx2 * (dx1 + dx2))
    out[1:-1] = a * f[:-2] + b * f[1:-1] + c * f[2:]
    out[0] = (f[1] - f[0]) / d[0]
    out[n - 1] = (f[n - 1] - f[n - 2]) / d[n - 2]


def gradient(f, d0=None, d1=None, axis=None):
    """``np.gradient(f, *varargs, axis=None)`` (edge_order 1) of a 1-d array (a scalar
    spacing or an array of coordinates) or a 2-d one (one scalar spacing, or one per axis;
    the tuple of both derivatives, or the one along `axis`). Ints are differenced as float64."""
    g = f * 1.0
    if f.ndim == 1:
        if axis is not None:
            _axis(axis, 1)
        out = np.empty(g.shape, dtype=g.dtype)
        if d0 is None:
            _gradient_uniform(g, out, 1.0)
        elif isinstance(d0, np.ndarray):
            _gradient_coords(g, out, d0)
        else:
            _gradient_uniform(g, out, d0)
        return out
    if f.ndim != 2:
        raise ValueError("np.gradient takes a 1-d or 2-d array here")
    if isinstance(d0, np.ndarray) or isinstance(d1, np.ndarray):
        raise ValueError("np.gradient takes scalar spacings for a 2-d array here")
    s0 = 1.0 if d0 is None else d0 * 1.0
    s1 = s0 if d1 is None else d1 * 1.0
    g0 = np.empty(g.shape, dtype=g.dtype)
    g1 = np.empty(g.shape, dtype=g.dtype)
    if axis is None:
        _gradient_uniform(g, g0, s0)
        _gradient_uniform(g.T, g1.T, s1)
        return g0, g1
    if _axis(axis, 2) == 0:
        _gradient_uniform(g, g0, s0)
        return g0
    _gradient_uniform(g.T, g1.T, s0)
    return g1


# ndarray method -> function here (the array is its first argument)
METHODS = ("squeeze",)
