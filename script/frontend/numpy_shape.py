"""NumPy's functions that rearrange, split, repeat and index arrays, written in the compiled
subset: `flip`/`fliplr`/`flipud`/`rot90`, `repeat`, `tile`, `dstack`, `expand_dims`, `append`, `take`, `diagonal`, `fill_diagonal`,
`unravel_index`, `ravel_multi_index`, `reshape`, `ascontiguousarray`, `asfortranarray`,
`copyto`, and the methods ``a.item()``, ``a.repeat()``, ``a.trace()``, ``a.take()``,
``a.diagonal()``.

Compiled like numpy_lib's functions (numpy_lib_call maps ``np.<name>`` to the function of
the same name here). The forms supported are those of 1-d and 2-d arrays, which is what
nopython code uses them for; a rank whose result has a shape the compiled code cannot
build (a rank that depends on an argument's value) raises ValueError naming the limit.
`split` and its kin are missing: they return lists of arrays. Views that NumPy
returns (`flip`, `rot90`, `diagonal`) are copies here, except where the
caller may write through the result (`ascontiguousarray` of a C-contiguous array is the
array itself).
"""

import numpy as np

from script.lib.numpy.numpy_lib import _axis


# ---- reversing and rotating -----------------------------------------------------------------

def flip(m, axis=None):
    """The elements in reverse order along `axis` (every axis for None), copied."""
    if m.ndim == 1:
        if axis is not None:
            _axis(axis, 1)
        return m[::-1].copy()
    if m.ndim != 2:
        raise ValueError("np.flip takes a 1-d or 2-d array here")
    if axis is None:
        return m[::-1, ::-1].copy()
    if _axis(axis, 2) == 0:
        return m[::-1, :].copy()
    return m[:, ::-1].copy()


def fliplr(m):
    if m.ndim < 2:
        raise ValueError("Input must be >= 2-d.")
    return m[:, ::-1].copy()


def flipud(m):
    if m.ndim < 1:
        raise ValueError("Input must be >= 1-d.")
    return m[::-1].copy()


def rot90(m, k=1):
    """`m` (2-d) rotated by 90 degrees `k` times, counterclockwise, copied."""
    if m.ndim != 2:
        raise ValueError("np.rot90 takes a 2-d array here")
    r = k % 4
    if r == 0:
        return m.copy()
    if r == 2:
        return m[::-1, ::-1].copy()
    if r == 1:
        return m.T[::-1, :].copy()
    return m.T[:, ::-1].copy()


# ---- repeating --------------------------------------------------------------------------------

def repeat(a, repeats, axis=None):
    """Each element of the flattened `a` repeated `repeats` times (an int, or an array of one
    count per element); with `axis` (an int `repeats`, 1-d or 2-d `a`), each lane along it."""
    if axis is not None:
        return _repeat_axis(a, repeats, _axis(axis, a.ndim))
    f = a.ravel()
    if isinstance(repeats, np.ndarray):
        if repeats.ndim != 1 or (repeats.shape[0] != f.shape[0] and repeats.shape[0] != 1):
            raise ValueError("operands could not be broadcast together")
        if repeats.shape[0] == 1:
            return repeat(a, repeats[0])
        total = 0
        for i in range(repeats.shape[0]):
            if repeats[i] < 0:
                raise ValueError("repeats may not contain negative values.")
            total += repeats[i]
        out = np.empty(total, dtype=f.dtype)
        k = 0
        for i in range(f.shape[0]):
            for r in range(repeats[i]):
                out[k] = f[i]
                k += 1
        return out
    if repeats < 0:
        raise ValueError("negative dimensions are not allowed")
    out = np.empty(f.shape[0] * repeats, dtype=f.dtype)
    for i in range(f.shape[0]):
        for r in range(repeats):
            out[i * repeats + r] = f[i]
    return out


def _repeat_axis(a, repeats, ax):
    if a.ndim == 1:
        return repeat(a, repeats)
    if a.ndim != 2:
        raise ValueError("np.repeat along an axis takes a 1-d or 2-d array here")
    if ax == 0:
        out = np.empty((a.shape[0] * repeats, a.shape[1]), dtype=a.dtype)
        for i in range(a.shape[0]):
            for r in range(repeats):
                out[i * repeats + r, :] = a[i, :]
        return out
    out = np.empty((a.shape[0], a.shape[1] * repeats), dtype=a.dtype)
    for j in range(a.shape[1]):
        for r in range(repeats):
            out[:, j * repeats + r] = a[:, j]
    return out


def tile(A, reps):
    """`A` (1-d or 2-d) repeated `reps` times along its last axis (an int), or (r0, r1)
    times down and across (a pair; a 1-d `A` counts as one row)."""
    if isinstance(reps, tuple):
        if len(reps) == 1:
            return tile(A, reps[0])
        if len(reps) != 2:
            raise ValueError("np.tile takes an int or a pair of reps here")
        m = A.reshape(1, A.shape[0]) if A.ndim == 1 else A
        if m.ndim != 2:
            raise ValueError("np.tile takes a 1-d or 2-d array here")
        rows = m.shape[0]
        cols = m.shape[1]
        out = np.empty((rows * reps[0], cols * reps[1]), dtype=m.dtype)
        for i in range(reps[0]):
            for j in range(reps[1]):
                out[i * rows:(i + 1) * rows, j * cols:(j + 1) * cols] = m
        return out
    if A.ndim == 1:
        n = A.shape[0]
        out = np.empty(n * reps, dtype=A.dtype)
        for r in range(reps):
            out[r * n:(r + 1) * n] = A
        return out
    if A.ndim != 2:
        raise ValueError("np.tile takes a 1-d or 2-d array here")
    return tile(A, (1, reps))


# ---- splitting and joining -----------------------------------------------------------------

def dstack(tup):
    """The arrays of `tup` (1-d or 2-d, of one shape) stacked along a third axis: shape
    (1, n, k) for 1-d arrays, (m, n, k) for 2-d ones."""
    if tup[0].ndim == 1:
        joined = np.stack(tup, axis=1)
        return joined.reshape(1, joined.shape[0], joined.shape[1])
    return np.stack(tup, axis=2)


def expand_dims(a, axis):
    """`a` with a new axis of length one at `axis` (a view)."""
    if a.ndim == 1:
        if _axis(axis, 2) == 0:
            return a.reshape(1, a.shape[0])
        return a.reshape(a.shape[0], 1)
    if a.ndim == 2:
        ax = _axis(axis, 3)
        if ax == 0:
            return a.reshape(1, a.shape[0], a.shape[1])
        if ax == 1:
            return a.reshape(a.shape[0], 1, a.shape[1])
        return a.reshape(a.shape[0], a.shape[1], 1)
    raise ValueError("np.expand_dims takes a 1-d or 2-d array here")


def append(arr, values, axis=None):
    """`arr` and `values` flattened and joined (a new 1-d array); with `axis`, joined along
    it as np.concatenate joins them."""
    if axis is None:
        if isinstance(values, np.ndarray):
            return np.concatenate((arr.ravel(), values.ravel()))
        return np.concatenate((arr.ravel(), np.array([values])))
    return np.concatenate((arr, values), axis=axis)


# ---- indexing ---------------------------------------------------------------------------------

def take(a, indices, axis=None):
    """Elements of the flattened `a` at `indices` (an int, or an array of them: a new array
    of its shape), or with `axis` (a 2-d `a`, 1-d indices), its rows or columns."""
    if axis is not None:
        ax = _axis(axis, a.ndim)
        if a.ndim == 1:
            return take(a, indices)
        if ax == 0:
            return a[indices]
        return a[:, indices]
    f = a.ravel()
    n = f.shape[0]
    if isinstance(indices, np.ndarray):
        out = np.empty(indices.shape, dtype=a.dtype)
        flat = out.ravel()
        idx = indices.ravel()
        for i in range(idx.shape[0]):
            flat[i] = f[_flat_index(idx[i], n)]
        return out
    return f[_flat_index(indices, n)]


def _flat_index(i, n):
    if i < -n or i >= n:
        raise IndexError(f"index {i} is out of bounds for axis 0 with size {n}")
    return i + n if i < 0 else i


def item(a, i=None):
    """``a.item()`` (an array of one element) or ``a.item(i)`` (the i-th element of the
    flattened array), as a scalar."""
    if i is None:
        if a.size != 1:
            raise ValueError("can only convert an array of size 1 to a Python scalar")
        return a.ravel()[0]
    n = a.size
    if i < -n or i >= n:
        raise IndexError("index " + str(i) + " is out of bounds for axis 0 with size " + str(n))
    return a.ravel()[i + n if i < 0 else i]


def diag_indices(n, ndim=2):
    """The indices of the main diagonal of an n x n array (two axes only here)."""
    if ndim != 2:
        raise ValueError("compiled code takes np.diag_indices of two axes")
    idx = np.arange(n)
    return idx, idx


def diagonal(a, offset=0):
    """The `offset`-th diagonal of the 2-d `a`, copied (NumPy returns a read-only view)."""
    if a.ndim != 2:
        raise ValueError("diag requires an array of at least two dimensions")
    rows = a.shape[0]
    cols = a.shape[1]
    k = offset
    m = max(0, min(rows, cols - k)) if k >= 0 else max(0, min(rows + k, cols))
    d = np.empty(m, dtype=a.dtype)
    for i in range(m):
        d[i] = a[i, i + k] if k >= 0 else a[i - k, i]
    return d


def trace(a, offset=0):
    """The sum of the `offset`-th diagonal of the 2-d `a`, added as NumPy adds it (a pairwise
    sum), in NumPy's sum's dtype (int64 for small ints and bools)."""
    return diagonal(a, offset).sum()


def fill_diagonal(a, val, wrap=False):
    """Writes `val` on the main diagonal of the 2-d `a` (a tall `a` wraps every
    ``cols + 1`` rows when `wrap`)."""
    if a.ndim != 2:
        raise ValueError("array must be at least 2-d")
    rows = a.shape[0]
    cols = a.shape[1]
    i = 0
    while i < rows:
        if i % (cols + 1) < cols:
            a[i, i % (cols + 1)] = val
        elif not wrap:
            break
        if not wrap and i + 1 >= cols:
            break
        i += 1


def unravel_index(indices, shape):
    """The index along each axis of `shape` (1 to 3 axes) of the flat index `indices`."""
    n = 1
    for i in range(len(shape)):
        n *= shape[i]
    if indices < 0 or indices >= n:
        raise ValueError("index " + str(indices) + " is out of bounds for array with size " + str(n))
    if len(shape) == 1:
        return (indices,)
    if len(shape) == 2:
        return (indices // shape[1], indices % shape[1])
    if len(shape) == 3:
        return (indices // (shape[1] * shape[2]), (indices // shape[2]) % shape[1], indices % shape[2])
    raise ValueError("np.unravel_index takes a shape of 1 to 3 axes here")


def ravel_multi_index(multi_index, dims):
    """The flat (C order) index of the index `multi_index` (a tuple of ints) into `dims`."""
    if len(multi_index) != len(dims):
        raise ValueError("parameter multi_index must be a sequence of length " + str(len(dims)))
    flat = 0
    for i in range(len(dims)):
        j = multi_index[i]
        if j < 0 or j >= dims[i]:
            raise ValueError("invalid entry in coordinates array")
        flat = flat * dims[i] + j
    return flat


# ---- layout -----------------------------------------------------------------------------------

def reshape(a, shape):
    return a.reshape(shape)


def ravel(a):
    return a.ravel()


def shape(a):
    return a.shape


def size(a):
    return a.size


def ndim(a):
    return a.ndim


def atleast_1d(a):
    return a


def atleast_2d(a):
    """`a` (1-d or 2-d) with at least two axes: a 1-d `a` as one row (a view)."""
    if a.ndim == 1:
        return a.reshape(1, a.shape[0])
    return a


def resize(a, new_shape):
    """The flattened `a` repeated (or cut) to `new_shape` (an int or a tuple) elements."""
    f = a.ravel()
    out = np.empty(new_shape, dtype=a.dtype)
    flat = out.ravel()
    n = f.shape[0]
    if n == 0:
        flat[:] = 0
        return out
    for i in range(flat.shape[0]):
        flat[i] = f[i % n]
    return out


def delete(arr, obj):
    """The flattened `arr` (1-d here) without its element at index `obj` (an int)."""
    f = arr.ravel()
    n = f.shape[0]
    if obj < -n or obj >= n:
        raise IndexError(f"index {obj} is out of bounds for axis 0 with size {n}")
    i = obj + n if obj < 0 else obj
    return np.concatenate((f[:i], f[i + 1:]))


def insert(arr, obj, values):
    """The flattened `arr` (1-d here) with the scalar `values` inserted before index `obj`."""
    f = arr.ravel()
    n = f.shape[0]
    if obj < -n or obj > n:
        raise IndexError(f"index {obj} is out of bounds for axis 0 with size {n}")
    i = obj + n if obj < 0 else obj
    out = np.empty(n + 1, dtype=f.dtype)
    out[:i] = f[:i]
    out[i] = values
    out[i + 1:] = f[i:]
    return out


def diagflat(v, k=0):
    return np.diag(v.ravel(), k)


def vander(x, N=None, increasing=False):
    """The Vandermonde matrix of the 1-d `x`: powers N-1 down to 0 (up when `increasing`)."""
    n = x.shape[0] if N is None else N
    out = np.empty((x.shape[0], n), dtype=(x[:0] + np.zeros(0, dtype=np.int64)).dtype)
    xs = np.empty(x.shape[0], dtype=out.dtype)         # NumPy's promotion of x's type with int
    xs[:] = x
    for i in range(x.shape[0]):
        xi = xs[i]
        p = xi ** 0
        for j in range(n):
            out[i, j if increasing else n - 1 - j] = p
            p = p * xi
    return out


def ediff1d(ary):
    f = ary.ravel()
    return f[1:] - f[:-1]


def _is_c_contiguous(a):
    step = a.itemsize
    for i in range(a.ndim - 1, -1, -1):
        if a.shape[i] != 1 and a.strides[i] != step:
            return False
        step *= a.shape[i]
    return True


def ascontiguousarray(a):
    """`a` itself when C-contiguous (writes through the result reach `a`), else a C copy."""
    if _is_c_contiguous(a):
        return a
    return a.copy()


def asfortranarray(a):
    """A Fortran-ordered copy of `a` (1-d: `a` as `ascontiguousarray` gives it)."""
    if a.ndim <= 1:
        return ascontiguousarray(a)
    return a.T.copy().T


def copyto(dst, src):
    """Writes `src` (broadcast) into `dst`."""
    dst[...] = src


# ndarray method -> function here (the array is its first argument)
METHODS = ("item", "repeat", "trace", "take", "diagonal")
