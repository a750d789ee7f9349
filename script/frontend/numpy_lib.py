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
    """x sorts before y in NumPy's order: NaN last."""
    return x < y or (y != y and x == x)


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


def sort_in_place(a):
    """``a.sort()``: sorts along the last axis in place (1-d and 2-d arrays)."""
    if a.ndim == 1:
        _sort_range(a, 0, a.shape[0])
    else:
        for row in a:
            _sort_range(row, 0, row.shape[0])


def sort(a, axis=-1):
    """A sorted copy, along the last axis (1-d and 2-d arrays)."""
    out = a.copy()
    if out.ndim == 1:
        _sort_range(out, 0, out.shape[0])
    else:
        for row in out:
            _sort_range(row, 0, row.shape[0])
    return out


def argsort(a, axis=-1):
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


def median(a):
    """The median of all elements (NaN if any is NaN, as NumPy)."""
    s = sort(a.ravel())
    n = s.shape[0]
    if n == 0:
        return math.nan
    if s[n - 1] != s[n - 1]:
        return math.nan
    # NumPy takes the mean of the middle element(s): a sum that starts from +0.0
    if n % 2 == 1:
        return (0.0 + s[n // 2]) / 1.0
    return ((0.0 + s[n // 2 - 1]) + s[n // 2]) / 2.0


def percentile(a, q):
    """The q-th percentile of all elements, NumPy's default linear interpolation."""
    if q < 0 or q > 100:
        raise ValueError("Percentiles must be in the range [0, 100]")
    s = sort(a.ravel())
    n = s.shape[0]
    if s[n - 1] != s[n - 1]:
        return math.nan
    pos = (n - 1) * (q / 100.0)
    if pos >= n - 1:            # NumPy's _get_indexes: the last element, "previous" index -1
        lo = n - 1
        hi = n - 1
        frac = pos + 1.0
    else:
        lo = int(math.floor(pos))
        hi = lo + 1
        frac = pos - lo
    # NumPy's _lerp: a + (b - a) * t, from the other end when t >= 0.5
    x = s[lo] * 1.0
    y = s[hi] * 1.0
    d = y - x
    if frac >= 0.5:
        return y - d * (1.0 - frac)
    return x + d * frac


def searchsorted(a, v):
    """Where v would be inserted into the sorted 1-d `a` (NumPy's side="left")."""
    lo = 0
    hi = a.shape[0]
    while lo < hi:
        mid = (lo + hi) // 2
        if _before(a[mid], v):
            lo = mid + 1
        else:
            hi = mid
    return lo


def unique(a):
    """The sorted distinct elements."""
    s = sort(a.ravel())
    n = s.shape[0]
    keep = 0
    for i in range(n):
        if i == 0 or s[i] != s[keep - 1]:
            s[keep] = s[i]
            keep += 1
    return s[:keep].copy()


# ---- differences, products, constructors --------------------------------------------------

def diff(a):
    """a[1:] - a[:-1] along the last axis of a 1-d array."""
    return a[1:] - a[:-1]


def outer(a, b):
    a1 = a.ravel()
    b1 = b.ravel()
    out = np.empty((a1.shape[0], b1.shape[0]), dtype=(a1[:0] * b1[:0]).dtype)
    for i in range(a1.shape[0]):
        out[i, :] = a1[i] * b1
    return out


def trace(a):
    """The sum of the diagonal, added as NumPy adds it (a pairwise sum)."""
    n = min(a.shape[0], a.shape[1])
    d = np.empty(n, dtype=a.dtype)
    for i in range(n):
        d[i] = a[i, i]
    return d.sum()


def eye(N, M=None, k=0):
    m = N if M is None else M
    out = np.zeros((N, m))
    for i in range(N):
        if 0 <= i + k < m:
            out[i, i + k] = 1.0
    return out


def identity(n):
    return eye(n)


def flip(a):
    """The elements in reverse order (1-d)."""
    return a[::-1].copy()


def cross(a, b):
    """The cross product of two 3-vectors."""
    out = np.empty(3, dtype=(a[:0] * b[:0]).dtype)
    out[0] = a[1] * b[2] - a[2] * b[1]
    out[1] = a[2] * b[0] - a[0] * b[2]
    out[2] = a[0] * b[1] - a[1] * b[0]
    return out


def repeat(a, repeats):
    """Each element of the flattened array `repeats` times."""
    f = a.ravel()
    out = np.empty(f.shape[0] * repeats, dtype=f.dtype)
    for i in range(f.shape[0]):
        for r in range(repeats):
            out[i * repeats + r] = f[i]
    return out


def tile(a, reps):
    """A 1-d array repeated `reps` times end to end."""
    n = a.shape[0]
    out = np.empty(n * reps, dtype=a.dtype)
    for r in range(reps):
        out[r * n:(r + 1) * n] = a
    return out


def interp(x, xp, fp):
    """Linear interpolation of the scalar `x` in the increasing `xp` (NumPy's np.interp,
    clamped to fp[0] and fp[-1] outside)."""
    n = xp.shape[0]
    if n == 0:
        raise ValueError("array of sample points is empty")
    if x <= xp[0]:
        return fp[0] * 1.0
    if x >= xp[n - 1]:
        return fp[n - 1] * 1.0
    j = max(searchsorted(xp, x) - 1, 0)
    while j + 1 < n and xp[j + 1] <= x:
        j += 1
    slope = (fp[j + 1] - fp[j]) / (xp[j + 1] - xp[j])
    return slope * (x - xp[j]) + fp[j]


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
    """(X, Y) of shape (len(y), len(x)): x along each row, y down each column ('xy')."""
    xs = np.empty((y.shape[0], x.shape[0]), dtype=x.dtype)
    ys = np.empty((y.shape[0], x.shape[0]), dtype=y.dtype)
    for i in range(y.shape[0]):
        xs[i, :] = x
        ys[i, :] = y[i]
    return xs, ys


# ---- reductions and comparisons -----------------------------------------------------------

def count_nonzero(a):
    n = 0
    for x in a.ravel():
        if x != 0:
            n += 1
    return n


def ptp(a):
    return a.max() - a.min()


def linalg_norm(x):
    """The 2-norm of a vector, the Frobenius norm of a matrix: sqrt of the sum of squares."""
    f = x.ravel()
    s = 0.0
    for i in range(f.shape[0]):
        s += f[i] * f[i]
    return math.sqrt(s)


def isclose(a, b, rtol=1e-05, atol=1e-08):
    return (np.abs(a - b) <= atol + rtol * np.abs(b)) | (a == b)


def allclose(a, b, rtol=1e-05, atol=1e-08):
    return bool(np.all(isclose(a, b, rtol, atol)))


def nan_to_num(x, nan=0.0):
    big = 1.7976931348623157e308
    return np.where(x != x, nan, np.where(x == math.inf, big, np.where(x == -math.inf, -big, x)))


def around(a, decimals=0):
    """NumPy's round: half to even, at `decimals` >= 0 digits (a scaled rint)."""
    if decimals == 0:
        return np.rint(a)
    scale = 10.0 ** decimals
    return np.rint(a * scale) / scale


def round(a, decimals=0):        # noqa: A001 - NumPy's name
    return around(a, decimals)


# ---- statistics ----------------------------------------------------------------------------

def var(a, ddof=0):
    m = a.mean()
    d = a - m
    return np.divide((d * d).sum(), a.size - ddof)      # NumPy's: nan or inf, no exception


def std(a, ddof=0):
    return math.sqrt(var(a, ddof))


# ndarray method -> function here (the array is its first argument)
def tolist(a):
    """``a.tolist()`` of a 1-d array: a list of its elements as Python numbers."""
    return [x for x in a]


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
