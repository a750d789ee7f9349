"""NumPy functions written in the compiled subset itself: sorting and order statistics,
differences, products, norms, comparisons, small constructors.

`numpy_lib_call` maps ``np.<name>`` (and ``a.<name>()`` where NumPy has the
method) to the function of the same name here (``linalg_norm`` for ``np.linalg.norm``),
which is compiled like any callee (specialized per argument types, inlined when small) and
binds the user's arguments by NumPy's parameter names. Each follows NumPy's documented
result for the forms it supports; anything else raises from the compiled code or fails
to compile with the usual error at the user's call.
"""

import math

import numpy as np


# ---- order ---------------------------------------------------------------------------------

def _before(x, y):
    """x sorts before y in NumPy's order: NaN last; complex numbers by real part, then
    imaginary part, NaNs last in each (npysort's CLT)."""
    a = x.real                          # a real number's imag is a constant 0.0: folded
    ai = x.imag
    b = y.real
    bi = y.imag
    if a < b:
        return ai == ai or bi != bi
    if a > b:
        return bi != bi and ai == ai
    if a == b or (a != a and b != b):
        return ai < bi or (bi != bi and ai == ai)
    return b != b


def _same(x, y):
    """x and y are one element to np.unique: equal, or both NaN (any part NaN for complex
    numbers), as NumPy's equal_nan=True makes them."""
    return x == y or (x != x and y != y)


def _sort_range(a, lo, hi) -> None:
    """Sort a[lo:hi] (1-d, in place): quicksort with a median of three, insertion sort below
    16 elements."""
    while hi - lo > 16:
        mid = (lo + hi) // 2
        if _before(a[mid], a[lo]):
            a[mid], a[lo] = a[lo], a[mid]
        if _before(a[hi - 1], a[lo]):
            a[hi - 1], a[lo] = a[lo], a[hi - 1]
        if _before(a[hi - 1], a[mid]):
            a[hi - 1], a[mid] = a[mid], a[hi - 1]
        pivot = a[mid]
        i = lo
        j = hi - 1
        while i <= j:
            while _before(a[i], pivot):
                i += 1
            while _before(pivot, a[j]):
                j -= 1
            if i <= j:
                a[i], a[j] = a[j], a[i]
                i += 1
                j -= 1
        if j - lo < hi - i:
            _sort_range(a, lo, j + 1)
            lo = i
        else:
            _sort_range(a, i, hi)
            hi = j + 1
    for k in range(lo + 1, hi):
        x = a[k]
        m = k - 1
        while m >= lo and _before(x, a[m]):
            a[m + 1] = a[m]
            m -= 1
        a[m + 1] = x


def _axis(axis, ndim):
    """`axis` counted from the front; NumPy's error when it is out of range."""
    ax = axis + ndim if axis < 0 else axis
    if ax < 0 or ax >= ndim:
        raise ValueError(f"axis {axis} is out of bounds for array of dimension {ndim}")
    return ax


def _lanes(c, ax):
    """The C-contiguous array `c` viewed as (before, along, after) around axis `ax`: each
    ``v[i, :, j]`` of the view is one lane along the axis."""
    before = 1
    after = 1
    for i in range(ax):
        before *= c.shape[i]
    for i in range(ax + 1, c.ndim):
        after *= c.shape[i]
    return c.reshape(before, c.shape[ax], after)


def sort_in_place(a, axis=-1, kind=0):
    """``a.sort()``: sorts each lane along `axis` in place (any kind is the one sort here)."""
    if a.ndim == 1:
        _axis(axis, 1)
        _sort_range(a, 0, a.shape[0])
    elif a.ndim == 2:
        if _axis(axis, 2) == 1:
            for row in a:
                _sort_range(row, 0, row.shape[0])
        else:
            for j in range(a.shape[1]):
                _sort_range(a[:, j], 0, a.shape[0])
    else:
        a[...] = sort(a, axis)


def sort(a, axis=-1, kind=0):
    """A sorted copy: each lane along `axis` sorted (the flattened array for None)."""
    if axis is None:
        flat = a.ravel().copy()
        _sort_range(flat, 0, flat.shape[0])
        return flat
    out = a.copy()
    if out.ndim == 1:
        _axis(axis, 1)
        _sort_range(out, 0, out.shape[0])
        return out
    v = _lanes(out, _axis(axis, out.ndim))
    for i in range(v.shape[0]):
        for j in range(v.shape[2]):
            _sort_range(v[i, :, j], 0, v.shape[1])
    return out


def argsort(a, axis=-1, kind=0):
    """The indices that sort each lane along `axis` (the flattened array for None). Stable
    whatever `kind`: equal elements keep their order, as NumPy's "stable" sort leaves them."""
    if axis is None:
        return _argsort_1d(a.ravel())
    if a.ndim == 1:
        _axis(axis, 1)
        return _argsort_1d(a)
    ax = _axis(axis, a.ndim)
    out = np.empty(a.shape, dtype=np.int64)
    src = _lanes(a.copy(), ax)
    dst = _lanes(out, ax)
    for i in range(src.shape[0]):
        for j in range(src.shape[2]):
            dst[i, :, j] = _argsort_1d(src[i, :, j])
    return out


def _argsort_1d(a):
    """The indices that sort a 1-d array (stable: equal elements keep their order)."""
    n = a.shape[0]
    idx = np.arange(n)
    tmp = np.empty(n, dtype=np.int64)
    width = 1
    while width < n:                    # bottom-up merge sort
        lo = 0
        while lo < n:
            mid = min(lo + width, n)
            hi = min(lo + 2 * width, n)
            i = lo
            j = mid
            k = lo
            while i < mid and j < hi:
                if _before(a[idx[j]], a[idx[i]]):
                    tmp[k] = idx[j]
                    j += 1
                else:
                    tmp[k] = idx[i]
                    i += 1
                k += 1
            while i < mid:
                tmp[k] = idx[i]
                i += 1
                k += 1
            while j < hi:
                tmp[k] = idx[j]
                j += 1
                k += 1
            lo = hi
        idx[:] = tmp
        width *= 2
    return idx


def median(a, axis=None):
    """The median of all elements, or of each lane along `axis` of a 1-d or 2-d array (NaN
    where a lane holds a NaN, as NumPy)."""
    if axis is None:
        return _median_sorted(sort(a.ravel()))
    return _along(sort(a, axis), axis, 0.0, 0)


def _median_sorted(s):
    """NumPy's mean of the middle element(s): a sum that starts from +0.0, in float32 for
    float32 (where two large halves overflow to inf, as NumPy's), else in float64."""
    n = s.shape[0]
    if n == 0:
        return math.nan
    if s[n - 1] != s[n - 1]:
        return math.nan
    k = n // 2
    if n % 2 == 1:
        return ((0.0 + s[k:k + 1]) / 1.0)[0]
    return (((0.0 + s[k - 1:k]) + s[k:k + 1]) / 2.0)[0]


def _along(s, axis, q, kind):
    """The median (`kind` 0) or the `q`-quantile (`kind` 1) of each lane of the sorted 1-d or
    2-d `s` along `axis`."""
    if s.ndim == 1:
        _axis(axis, 1)
        return _median_sorted(s) if kind == 0 else _quantile_sorted(s, q)
    if s.ndim != 2:
        raise ValueError("axis= takes a 1-d or 2-d array in compiled code")
    ax = _axis(axis, 2)
    n = s.shape[1 - ax]
    out = np.empty(n, dtype=(s[:0, 0] * 1.0).dtype)         # float32 stays float32
    for i in range(n):
        lane = s[:, i] if ax == 0 else s[i, :]
        out[i] = _median_sorted(lane) if kind == 0 else _quantile_sorted(lane, q)
    return out


def _bool_subtract():
    """NumPy's interpolation subtracts neighbours: its error for bools."""
    raise TypeError("numpy boolean subtract, the `-` operator, is not supported, use the bitwise_xor, "
                        "the `^` operator, or the logical_xor function instead.")


def percentile(a, q, axis=None):
    """The q-th percentiles of all elements (or of each lane along `axis`), NumPy's default
    linear interpolation; an array `q` gives an array of its shape."""
    if a.dtype == np.complex128 or a.dtype == np.complex64:
        raise TypeError("a must be an array of real numbers")
    if isinstance(q, np.ndarray):
        flat = q.ravel()
        for i in range(flat.shape[0]):
            if not 0 <= flat[i] / 100.0 <= 1:
                raise ValueError("Percentiles must be in the range [0, 100]")
        if axis is None:
            return _quantiles(a, q / 100.0)
        return _quantiles_along(sort(a, axis), axis, q / 100.0)
    if not 0 <= q / 100.0 <= 1:
        raise ValueError("Percentiles must be in the range [0, 100]")
    if axis is None:
        return _quantile_sorted(sort(a.ravel()), q / 100.0)
    return _along(sort(a, axis), axis, q / 100.0, 1)


def quantile(a, q, axis=None):
    """The q-th quantiles (0 <= q <= 1), as `percentile` computes them."""
    if a.dtype == np.complex128 or a.dtype == np.complex64:
        raise TypeError("a must be an array of real numbers")
    if isinstance(q, np.ndarray):
        flat = q.ravel()
        for i in range(flat.shape[0]):
            if not 0 <= flat[i] <= 1:
                raise ValueError("Quantiles must be in the range [0, 1]")
        if axis is None:
            return _quantiles(a, q * 1.0)
        return _quantiles_along(sort(a, axis), axis, q * 1.0)
    if not 0 <= q <= 1:
        raise ValueError("Quantiles must be in the range [0, 1]")
    if axis is None:
        return _quantile_sorted(sort(a.ravel()), q * 1.0)
    return _along(sort(a, axis), axis, q * 1.0, 1)


def _quantiles(a, q):
    s = sort(a.ravel())
    out = np.empty(q.shape)
    flat = out.ravel()
    qs = q.ravel()
    for i in range(qs.shape[0]):
        flat[i] = _quantile_sorted(s, qs[i], False)
    return out


def _quantiles_along(s, axis, q):
    """The quantiles `q` (an array) of each lane of the sorted 1-d or 2-d `s` along `axis`:
    NumPy's shape, `q.shape` followed by the lanes."""
    if s.ndim == 1:
        _axis(axis, 1)
        return _quantiles(s, q)
    if s.ndim != 2:
        raise ValueError("axis= takes a 1-d or 2-d array in compiled code")
    ax = _axis(axis, 2)
    n = s.shape[1 - ax]
    qs = q.ravel()
    out = np.empty((qs.shape[0], n))
    for k in range(qs.shape[0]):
        for i in range(n):
            lane = s[:, i] if ax == 0 else s[i, :]
            out[k, i] = _quantile_sorted(lane, qs[k], False)
    return out.reshape(q.shape + (n,))


def _quantile_sorted(s, q, weak=True):
    """The q-quantile of the sorted 1-d `s` (NaN last), by NumPy's _lerp: the difference of
    the neighbours in `s`'s dtype (wrapping for ints, as NumPy's), then weighted by the
    Python float q (`weak`: float32 stays float32) or by a float64 (an array q)."""
    n = s.shape[0]
    if n == 0:
        raise IndexError("index -1 is out of bounds for axis 0 with size 0")
    if s[n - 1] != s[n - 1]:
        return math.nan
    pos = (n - 1) * q
    if pos >= n - 1:            # NumPy's _get_indexes: the last element, "previous" index -1
        lo = n - 1
        hi = n - 1
        frac = pos + 1.0
    else:
        lo = int(math.floor(pos))
        hi = lo + 1
        frac = pos - lo
    if s.dtype == np.bool_:
        _bool_subtract()
        return math.nan
    x = s[lo:lo + 1]
    y = s[hi:hi + 1]
    d = y - x
    # NumPy's _lerp: a + (b - a) * t, from the other end when t >= 0.5
    if not weak:
        return _lerp(x.astype(np.float64), y.astype(np.float64), d.astype(np.float64), frac)
    return _lerp(x, y, d, frac)


def _lerp(x, y, d, frac):
    if frac >= 0.5:
        return (y - d * (1.0 - frac))[0]
    return (x + d * frac)[0]


def searchsorted(a, v, side=0):
    """Where `v` (a scalar, or each element of an array) would be inserted into the sorted
    1-d `a`: before equal elements (side "left", 0) or after them ("right", 1)."""
    if isinstance(v, np.ndarray):
        out = np.empty(v.shape, dtype=np.int64)
        flat = out.ravel()
        vs = v.ravel()
        for i in range(vs.shape[0]):
            flat[i] = _search(a, vs[i], side)
        return out
    return _search(a, v, side)


def _search(a, v, side):
    lo = 0
    hi = a.shape[0]
    while lo < hi:
        mid = (lo + hi) // 2
        if _before(a[mid], v) if side == 0 else not _before(v, a[mid]):
            lo = mid + 1
        else:
            hi = mid
    return lo


def unique(a):
    """The sorted distinct elements (all NaNs one element, as NumPy's equal_nan=True)."""
    s = sort(a.ravel())
    n = s.shape[0]
    keep = 0
    for i in range(n):
        if i == 0 or not _same(s[i], s[keep - 1]):
            s[keep] = s[i]
            keep += 1
    return s[:keep].copy()


# ---- differences, products, constructors --------------------------------------------------

def diff(a, n=1, axis=-1, prepend=None, append=None):
    """The n-th differences along `axis` of a 1-d or 2-d array (``!=`` of neighbours for
    bools, as NumPy), of `a` with `prepend` and `append` (scalars or arrays) joined on."""
    if prepend is None and append is None:
        return _diff(a, n, axis)
    if n < 0:
        raise ValueError(f"order must be non-negative but got {n}")
    return _diff(_extended(a, _axis(axis, a.ndim), prepend, append), n, axis)


def _extended(a, ax, prepend, append):
    if a.ndim == 1:
        if prepend is None:
            return np.concatenate((a, _block(append, a, ax)))
        if append is None:
            return np.concatenate((_block(prepend, a, ax), a))
        return np.concatenate((_block(prepend, a, ax), a, _block(append, a, ax)))
    if ax == 0:
        if prepend is None:
            return np.concatenate((a, _block(append, a, ax)), axis=0)
        if append is None:
            return np.concatenate((_block(prepend, a, ax), a), axis=0)
        return np.concatenate((_block(prepend, a, ax), a, _block(append, a, ax)), axis=0)
    if prepend is None:
        return np.concatenate((a, _block(append, a, ax)), axis=1)
    if append is None:
        return np.concatenate((_block(prepend, a, ax), a), axis=1)
    return np.concatenate((_block(prepend, a, ax), a, _block(append, a, ax)), axis=1)


def _block(v, a, ax):
    """`v` as the block diff joins to `a` along `ax`: an array as it is, a scalar broadcast
    to length 1 along the axis (NumPy's broadcast_to)."""
    if isinstance(v, np.ndarray):
        return v
    if a.ndim == 1:
        return np.full(1, v)
    if ax == 0:
        return np.full((1, a.shape[1]), v)
    return np.full((a.shape[0], 1), v)


def _diff(a, n, axis):
    if n < 0:
        raise ValueError(f"order must be non-negative but got {n}")
    if n == 0:                  # NumPy returns `a` before it looks at the axis
        return a.copy()
    ax = _axis(axis, a.ndim)
    out = a
    for _ in range(n):
        if out.ndim == 1:
            out = _step(out[1:], out[:-1])
        elif ax == 0:
            out = _step(out[1:, :], out[:-1, :])
        elif out.ndim == 2:
            out = _step(out[:, 1:], out[:, :-1])
        else:
            raise ValueError("np.diff along an axis other than the first takes a 1-d or 2-d array "
                             "in compiled code")
    return out.copy() if n == 0 else out


def _step(x, y):
    if x.dtype == np.bool_:
        return x != y
    return x - y


def outer(a, b):
    a1 = a.ravel()
    b1 = b.ravel()
    out = np.empty((a1.shape[0], b1.shape[0]), dtype=(a1[:0] * b1[:0]).dtype)
    for i in range(a1.shape[0]):
        out[i, :] = a1[i:i + 1] * b1    # (an array: its dtype promotes, as a weak scalar's would not)
    return out


def eye(N, M=None, k=0, dtype=float):
    m = N if M is None else M
    out = np.zeros((N, m), dtype=dtype)
    for i in range(N):
        if 0 <= i + k < m:
            out[i, i + k] = 1
    return out


def identity(n, dtype=float):
    return eye(n, dtype=dtype)


def cross(a, b):
    """The cross product of 3-vectors: of two 1-d arrays, or along the last axis of 2-d
    arrays and a 1-d one broadcast against them. A 2-vector beside a 3-vector has a zero z,
    as in NumPy. Of two 2-vectors NumPy gives a scalar per pair, an array of lower rank,
    which the lengths decide at run time: not in compiled code (ValueError saying so)."""
    na = a.shape[a.ndim - 1]
    nb = b.shape[b.ndim - 1]
    if na != 2 and na != 3 or nb != 2 and nb != 3:
        raise ValueError("incompatible dimensions for cross product\n(dimension must be 2 or 3)")
    if na == 2 and nb == 2:
        raise ValueError("np.cross of two 2-vectors (a scalar per pair) is not supported in compiled code: "
                         "its rank depends on the lengths (compute a[..., 0] * b[..., 1] - a[..., 1] * b[..., 0])")
    if a.ndim == 1 and b.ndim == 1:
        az = a[2] if na == 3 else a[0] * 0
        bz = b[2] if nb == 3 else b[0] * 0
        out = np.empty(3, dtype=(a[:0] * b[:0]).dtype)
        out[0] = a[1] * bz - az * b[1]
        out[1] = az * b[0] - a[0] * bz
        out[2] = a[0] * b[1] - a[1] * b[0]
        return out
    az = a[..., 2] if na == 3 else a[..., 0] * 0
    bz = b[..., 2] if nb == 3 else b[..., 0] * 0
    x = a[..., 0] * b[..., 0]
    out = np.empty((x.shape[0], 3), dtype=x.dtype)
    out[:, 0] = a[..., 1] * bz - az * b[..., 1]
    out[:, 1] = az * b[..., 0] - a[..., 0] * bz
    out[:, 2] = a[..., 0] * b[..., 1] - a[..., 1] * b[..., 0]
    return out


def interp(x, xp, fp, left=None, right=None):
    """Linear interpolation in the increasing `xp` of `x` (a scalar, or each element of an
    array): NumPy's algorithm (compiled_base.c), fp[0] and fp[-1] (or `left`/`right`)
    outside."""
    n = xp.shape[0]
    if n == 0:
        raise ValueError("array of sample points is empty")
    if fp.shape[0] != n:
        raise ValueError("fp and xp are not of the same length.")
    if fp.dtype == np.complex128:       # (decided when compiling)
        raise ValueError("np.interp of complex fp is not supported in compiled code (NumPy's complex "
                         "interpolation treats NaN and infinite parts its own way)")
    lo = float(fp[0]) if left is None else float(left)
    hi = float(fp[n - 1]) if right is None else float(right)
    if isinstance(x, np.ndarray):
        out = np.empty(x.shape)         # float64, as NumPy's
        flat = out.ravel()
        xs = x.ravel()
        for i in range(xs.shape[0]):
            flat[i] = _interp1(float(xs[i]), xp, fp, lo, hi)
        return out
    return _interp1(float(x), xp, fp, lo, hi)


def _interp1(x, xp, fp, lo, hi):
    n = xp.shape[0]
    if n == 1:              # NumPy's case of one point: fp[0] unless x is before or after it (NaN too)
        return lo if x < xp[0] else hi if x > xp[0] else float(fp[0])
    if x > xp[n - 1]:
        return hi
    if x < xp[0]:
        return lo
    if x == xp[n - 1]:
        return float(fp[n - 1])
    if x != x:
        return x
    j = _search(xp, x, 1) - 1
    if j >= n - 1:
        return float(fp[n - 1])
    if xp[j] == x:
        return float(fp[j])
    # in float64, as NumPy converts xp and fp first (int differences do not wrap, float32 is exact)
    slope = (float(fp[j + 1]) - float(fp[j])) / (float(xp[j + 1]) - float(xp[j]))
    r = slope * (x - float(xp[j])) + float(fp[j])
    if r != r:
        r = slope * (x - float(xp[j + 1])) + float(fp[j + 1])
        if r != r and fp[j] == fp[j + 1]:
            r = float(fp[j])
    return r


# ---- where the nonzero elements are, triangles, grids -------------------------------------

def argwhere(a: np.ndarray):
    """The index of each nonzero element (C order), one row per element, one column per
    axis. (np.nonzero's arrays are its columns: numpy_lib_call.nonzero_tuple.)"""
    flat = a.ravel()
    out = np.empty((count_nonzero(flat), a.ndim), dtype=np.int64)
    row = 0
    for i in range(flat.shape[0]):
        if flat[i] != 0:
            rest = i
            for k in range(a.ndim - 1, -1, -1):
                out[row, k] = rest % a.shape[k]
                rest //= a.shape[k]
            row += 1
    return out


def flatnonzero(a: np.ndarray):
    """The indices of the nonzero elements of the flattened array."""
    flat = a.ravel()
    out = np.empty(count_nonzero(flat), dtype=np.int64)
    n = 0
    for i in range(flat.shape[0]):
        if flat[i] != 0:
            out[n] = i
            n += 1
    return out


def triu(m: np.ndarray, k=0):
    """A copy of the 2-d `m` with the elements below its k-th diagonal zeroed."""
    out = m.copy()
    for i in range(out.shape[0]):
        out[i, :max(0, min(i + k, out.shape[1]))] = 0
    return out


def tril(m: np.ndarray, k=0):
    """A copy of the 2-d `m` with the elements above its k-th diagonal zeroed."""
    out = m.copy()
    for i in range(out.shape[0]):
        out[i, max(0, i + k + 1):] = 0
    return out


def meshgrid(x: np.ndarray, y: np.ndarray, indexing=0):
    """(X, Y): x along each row and y down each column, of shape (len(y), len(x)) ('xy');
    transposed, (len(x), len(y)), for 'ij'."""
    if indexing == 1:
        xs = np.empty((x.shape[0], y.shape[0]), dtype=x.dtype)
        ys = np.empty((x.shape[0], y.shape[0]), dtype=y.dtype)
        for i in range(x.shape[0]):
            xs[i, :] = x[i]
            ys[i, :] = y
        return xs, ys
    xs = np.empty((y.shape[0], x.shape[0]), dtype=x.dtype)
    ys = np.empty((y.shape[0], x.shape[0]), dtype=y.dtype)
    for i in range(y.shape[0]):
        xs[i, :] = x
        ys[i, :] = y[i]
    return xs, ys


# ---- reductions and comparisons -----------------------------------------------------------

def count_nonzero(a, axis=None):
    """Of the whole array (a constant axis: axis_stats.py)."""
    n = 0
    for x in a.ravel():
        if x != 0:
            n += 1
    return n


def ptp(a, axis=None):
    """Of the whole array (a constant axis: axis_stats.py)."""
    hi = a.max()                # NumPy's error for an empty array comes first
    lo = a.min()
    if a.dtype == np.bool_:
        _bool_subtract()
    return hi - lo


def linalg_norm(x, ord=None, axis=None):
    """The norm of a vector (1-d, or each lane along `axis` of a 2-d array) or of a matrix
    (2-d, `axis` None), of order `ord` as NumPy defines them; 2-norms of matrices through the
    singular values. None is the 2-norm (Frobenius for a matrix): the sqrt of the sum of
    squares."""
    if axis is None:
        if ord is None:
            f = x.ravel()
            s = 0.0
            if f.dtype == np.complex128 or f.dtype == np.complex64:
                for i in range(f.shape[0]):
                    s += f[i].real * f[i].real + f[i].imag * f[i].imag
                return math.sqrt(s)
            for i in range(f.shape[0]):
                s += f[i] * f[i]
            # NumPy's sqrt(x.dot(x)) is float32 for float32 (the sum here in float64)
            return np.sqrt(np.zeros(1, dtype=(f[:0] * 1.0).dtype) + s)[0]
        if x.ndim == 1:
            return _vector_norm(x * 1.0, ord)
        if x.ndim == 2:
            return _matrix_norm(x * 1.0, ord)
        raise ValueError("Improper number of dimensions to norm.")
    if x.ndim == 1:
        _axis(axis, 1)
        return linalg_norm(x, ord)
    if x.ndim != 2:
        raise ValueError("np.linalg.norm(axis=...) takes a 1-d or 2-d array here")
    f = x * 1.0
    ax = _axis(axis, 2)
    n = f.shape[1 - ax]
    out = np.empty(n, dtype=f.dtype)
    for i in range(n):
        out[i] = _vector_norm(f[:, i] if ax == 0 else f[i, :], ord)
    return out


def linalg_norm_keepdims(x, ord=None, axis=None):
    """``np.linalg.norm(..., keepdims=True)``: the norm with the reduced axes kept, of
    length 1."""
    r = linalg_norm(x, ord, axis)
    if axis is not None and x.ndim == 2:
        if _axis(axis, 2) == 0:
            return r.reshape(1, r.shape[0])
        return r.reshape(r.shape[0], 1)
    out = np.empty(x.ndim * (1,), dtype=(x.ravel()[:0] * 1.0).dtype)
    out.ravel()[0] = r
    return out


def _vector_norm(v, ord):
    if ord is None or ord == 2:         # NumPy's sqrt of the sum of (conj(x) * x).real
        return np.sqrt(_abs2(v).sum())
    if ord == math.inf:
        return np.abs(v).max()
    if ord == -math.inf:
        return np.abs(v).min()
    if ord == 0:
        return (v != 0).sum() * (v[:0].sum() + 1.0)
    if ord == 1:
        return np.abs(v).sum()
    if ord == _ORD_FRO or ord == _ORD_NUC:
        raise ValueError("Invalid norm order for vectors.")
    return (np.abs(v) ** ord).sum() ** (1.0 / ord)


def _matrix_norm(m, ord):
    if ord == _ORD_FRO:
        return np.sqrt(_abs2(m).sum())
    if ord == 1:
        return np.abs(m).sum(axis=0).max()
    if ord == -1:
        return np.abs(m).sum(axis=0).min()
    if ord == math.inf:
        return np.abs(m).sum(axis=1).max()
    if ord == -math.inf:
        return np.abs(m).sum(axis=1).min()
    if ord == 2 or ord == -2 or ord == _ORD_NUC:
        u, sv, vt = np.linalg.svd(m)
        if ord == 2:
            return sv.max()
        if ord == -2:
            return sv.min()
        return sv.sum()
    raise ValueError("Invalid norm order for matrices.")


def _abs2(v):
    """|v|**2 as NumPy's norms compute it: (conj(v) * v).real."""
    return (v.conj() * v).real


_ORD_FRO = 1 << 62          # numpy_lib_call.ORD_FRO, ORD_NUC: ord="fro", ord="nuc"
_ORD_NUC = (1 << 62) + 1


def isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    """NumPy's: `b` as floats (its result_type with a Python float: ints and bools float64,
    so ints do not wrap), an infinite `b` close only to itself."""
    if isinstance(b, np.ndarray):
        if b.dtype == np.complex128 or b.dtype == np.complex64:      # b * 1.0 would turn inf*j into nan
            return _isclose(a, b, rtol, atol, equal_nan)
    return _isclose(a, b * 1.0, rtol, atol, equal_nan)


def _isclose(a, y, rtol, atol, equal_nan):
    r = (np.abs(a - y) <= atol + rtol * np.abs(y)) & np.isfinite(y) | (a == y)
    if equal_nan:
        return r | (np.isnan(a) & np.isnan(y))
    return r


def allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    return bool(np.all(isclose(a, b, rtol, atol, equal_nan)))


def nan_to_num(x, copy=True, nan=0.0, posinf=None, neginf=None):
    """`x` with NaN replaced by `nan` and infinities by `posinf`/`neginf` (the largest
    finite floats of `x`'s type by default), the real and imaginary parts of complex numbers
    each on its own; ints and bools as they are. `copy=False` writes into `x` and returns
    it, as NumPy's. (Each dtype test is its own condition: the compiler folds it and
    compiles only the branch taken.)"""
    if not isinstance(x, np.ndarray):
        big = 1.7976931348623157e308
        hi = big if posinf is None else posinf
        lo = -big if neginf is None else neginf
        return np.where(x != x, nan, np.where(x == math.inf, hi, np.where(x == -math.inf, lo, x)))
    out = x.copy() if copy else x
    if x.dtype == np.float64 or x.dtype == np.float32:
        _nan_to_num_part(out, nan, posinf, neginf)
    elif x.dtype == np.complex128 or x.dtype == np.complex64:
        _nan_to_num_part(out.real, nan, posinf, neginf)
        _nan_to_num_part(out.imag, nan, posinf, neginf)
    return out


def _nan_to_num_part(d, nan, posinf, neginf):
    big = np.finfo(d.dtype).max
    hi = big if posinf is None else posinf
    lo = -big if neginf is None else neginf
    d[...] = np.where(d != d, nan, np.where(d == math.inf, hi, np.where(d == -math.inf, lo, d)))


def _power_of_ten(n):
    """NumPy's power_of_ten: 10.0 multiplied in n times (exactly 10**n up to 1e22)."""
    f = 1.0
    for _ in range(n):
        f *= 10.0
    return f


def around(a, decimals=0):
    """NumPy's round (PyArray_Round): half to even, rint(a * 10**d) / 10**d for d >= 0 and
    rint(a / 10**-d) * 10**-d below; ints as they are for d >= 0, else rounded in float64
    and cast back to their dtype; complex numbers part by part."""
    if not isinstance(a, np.ndarray):
        return _round_float(a, decimals)
    if a.dtype == np.float64 or a.dtype == np.float32:
        return _round_float(a, decimals)
    if a.dtype == np.complex128 or a.dtype == np.complex64:
        out = a.copy()
        out.real[...] = _round_float(a.real, decimals)
        out.imag[...] = _round_float(a.imag, decimals)
        return out
    if a.dtype == np.bool_:
        raise TypeError("np.round of a bool array (float16 in NumPy) is not supported in compiled code")
    if decimals >= 0:
        return a.copy()
    f = _power_of_ten(-decimals)
    return (np.rint(a / f) * f).astype(a.dtype)


def _round_float(a, decimals):
    if decimals >= 0:
        f = _power_of_ten(decimals)
        return np.rint(a * f) / f
    f = _power_of_ten(-decimals)
    return np.rint(a / f) * f


def round(a, decimals=0):        # noqa: A001 - NumPy's name
    return around(a, decimals)


# ---- statistics ----------------------------------------------------------------------------

def var(a, ddof=0):
    m = a.mean()
    d = a - m
    if a.dtype == np.complex128 or a.dtype == np.complex64:      # |d|**2 as NumPy squares it
        return np.divide((d.real * d.real + d.imag * d.imag).sum(), max(a.size - ddof, 0))
    # NumPy's count is max(size - ddof, 0): nan or inf past it, no exception
    return np.divide((d * d).sum(), max(a.size - ddof, 0))


def std(a, ddof=0):
    return math.sqrt(var(a, ddof))


# ndarray method -> function here (the array is its first argument)
def tolist(a):
    """``a.tolist()`` of a 1-d array: a list of its elements as Python numbers."""
    return [x for x in a]


def tolist2(a):
    """``a.tolist()`` of a 2-d array: a list of rows, lists of Python numbers."""
    return [[x for x in row] for row in a]


def tolist3(a):
    return [[[x for x in row] for row in plane] for plane in a]


TOLIST = {1: tolist, 2: tolist2, 3: tolist3}        # by the array's number of axes


METHODS = {"var": var, "std": std, "round": around, "argsort": argsort, "sort": sort_in_place,
           "tolist": tolist}


def roll(a, shift, axis=None):
    """The elements shifted by `shift` places, those pushed off the end coming back at the
    start: of the flattened array (C order, the result with `a`'s shape), or along `axis`
    (an int; 1-d and 2-d arrays)."""
    if axis is None:
        flat = a.ravel()
        n = flat.shape[0]
        out = np.empty(n, dtype=a.dtype)
        s = shift % n if n > 0 else 0
        out[s:] = flat[:n - s]
        out[:s] = flat[n - s:]
        return out.reshape(a.shape)
    ax = axis + a.ndim if axis < 0 else axis
    if ax < 0 or ax >= a.ndim:
        raise ValueError(f"axis {axis} is out of bounds for array of dimension {a.ndim}")
    if a.ndim == 1:
        return roll(a, shift)
    if a.ndim == 2:
        out = np.empty((a.shape[0], a.shape[1]), dtype=a.dtype)
        n = a.shape[ax]
        s = shift % n if n > 0 else 0
        if ax == 0:
            out[s:, :] = a[:n - s, :]
            out[:s, :] = a[n - s:, :]
        else:
            out[:, s:] = a[:, :n - s]
            out[:, :s] = a[:, n - s:]
        return out
    raise ValueError("np.roll along an axis takes a 1-d or 2-d array in compiled code")


def diag(v, k=0):
    """A 2-d array with `v` (1-d) on its k-th diagonal, or the k-th diagonal of `v` (2-d),
    copied (NumPy returns a read-only view)."""
    if v.ndim == 1:
        m = v.shape[0]
        n = m + abs(k)
        out = np.zeros((n, n), dtype=v.dtype)
        for i in range(m):
            if k >= 0:
                out[i, i + k] = v[i]
            else:
                out[i - k, i] = v[i]
        return out
    if v.ndim == 2:
        rows = v.shape[0]
        cols = v.shape[1]
        m = max(0, min(rows, cols - k)) if k >= 0 else max(0, min(rows + k, cols))
        d = np.empty(m, dtype=v.dtype)
        for i in range(m):
            d[i] = v[i, i + k] if k >= 0 else v[i - k, i]
        return d
    raise ValueError("Input must be 1- or 2-d.")


def array_equal(a1, a2):
    """Whether both arrays have the same shape and elements (NaN is never equal)."""
    if a1.shape != a2.shape:
        return False
    return bool((a1 == a2).all())


def kron(a, b):
    """The Kronecker product of 1-d and 2-d arrays: block (i, j) of the result is
    ``a[i, j] * b``, in `a * b`'s dtype, as NumPy's outer-product-and-reshape computes it;
    a 1-d operand next to a 2-d one counts as a single row."""
    if a.ndim == 1 and b.ndim == 1:
        return (a[:, None] * b[None, :]).reshape(a.shape[0] * b.shape[0])
    if a.ndim == 1:
        return kron(a.reshape(1, a.shape[0]), b)
    if b.ndim == 1:
        return kron(a, b.reshape(1, b.shape[0]))
    if a.ndim == 2 and b.ndim == 2:
        prod = a[:, None, :, None] * b[None, :, None, :]
        return prod.reshape(a.shape[0] * b.shape[0], a.shape[1] * b.shape[1])
    raise ValueError("np.kron takes 1-d and 2-d arrays in compiled code")
