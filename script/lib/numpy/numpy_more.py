"""More of NumPy written in the compiled subset: element-wise functions that NumPy defines by
a formula (`deg2rad`, `logaddexp`, `sinc`, `heaviside`, `signbit`, `isposinf`, `isneginf`,
`fix`, ...), `vdot`, `inner`, `logspace`, `geomspace`, `cov`, `corrcoef`,
`linalg.matrix_power`, the NaN-skipping `nancumsum`, `nancumprod`, `nanmedian`,
`nanpercentile`, `nanquantile`, and the set functions `isin`, `intersect1d`, `union1d`,
`setdiff1d`, ``unique(..., return_counts=True)``.

Compiled like numpy_lib's functions (see numpy_lib_call). The element-wise ones are whole
array expressions, so they take scalars, arrays and broadcasting as the ufuncs they are made
of do, and each follows NumPy's own formula (npy_math.c, function_base.py) so results agree
to the bit where NumPy's libm does.
"""

import math

import numpy as np

from script.lib.numpy.numpy_lib import _before, _quantile_sorted, _same, sort


# ---- element-wise, by NumPy's formulas -------------------------------------------------------

def _pi_like(x):
    """pi in the float type NumPy computes `x`'s angle conversions in (npy_rad2degf divides
    180.0f by a float32 pi)."""
    if isinstance(x, np.ndarray):
        if x.dtype == np.float32:
            return np.float32(math.pi)
        return math.pi
    if isinstance(x, np.float32):
        return np.float32(math.pi)
    return math.pi


def deg2rad(x):
    return x * (_pi_like(x) / 180.0)


def radians(x):
    return deg2rad(x)


def rad2deg(x):
    return x * (180.0 / _pi_like(x))


def degrees(x):
    return rad2deg(x)


def signbit(x):
    return np.copysign(1.0, x) < 0


def isposinf(x):
    return np.isinf(x) & (x > 0)


def isneginf(x):
    return np.isinf(x) & (x < 0)


def fix(x):
    """Rounded towards zero, as floats."""
    return np.where(x < 0, np.ceil(x), np.floor(x))


def logaddexp(x1, x2):
    """log(exp(x1) + exp(x2)) without overflow: npy_logaddexp."""
    x = x1 * 1.0
    y = x2 * 1.0
    d = x - y
    return np.where(x == y, x + 0.6931471805599453,
                    np.where(d > 0, x + np.log1p(np.exp(-d)),
                             np.where(d <= 0, y + np.log1p(np.exp(d)), d)))


def logaddexp2(x1, x2):
    """log2(2**x1 + 2**x2) without overflow: npy_logaddexp2."""
    x = x1 * 1.0
    y = x2 * 1.0
    d = x - y
    return np.where(x == y, x + 1.0,
                    np.where(d > 0, x + 1.4426950408889634 * np.log1p(np.exp2(-d)),
                             np.where(d <= 0, y + 1.4426950408889634 * np.log1p(np.exp2(d)), d)))


def heaviside(x1, x2):
    """0 below zero, `x2` at zero, 1 above (NaN for NaN)."""
    return np.where(x1 < 0, 0.0, np.where(x1 > 0, 1.0, np.where(x1 == 0, x2 * 1.0, x1 * 1.0)))


def sinc(x):
    """sin(pi x) / (pi x), 1 at 0: NumPy's formula (x == 0 replaced by 1e-20)."""
    y = math.pi * np.where(x == 0, 1.0e-20, x * 1.0)
    return np.sin(y) / y


def _gcd1(x, y):
    a = abs(x)
    b = abs(y)
    while b != 0:
        a, b = b, a % b
    return a


def _lcm1(x, y):
    g = _gcd1(x, y)
    return 0 if g == 0 else abs(x // g * y)


def gcd(x1, x2):
    """The greatest common divisor of ints, element-wise (an array and a scalar, or arrays
    of one shape)."""
    return _pairwise(x1, x2, 0)


def lcm(x1, x2):
    return _pairwise(x1, x2, 1)


def _pairwise(x1, x2, kind):
    if not isinstance(x1, np.ndarray) and not isinstance(x2, np.ndarray):
        return _gcd1(x1, x2) if kind == 0 else _lcm1(x1, x2)
    if not isinstance(x1, np.ndarray):
        return _pairwise(x2, x1, kind)
    other = x1 * 0 + x2             # x2 broadcast to x1's shape, in the result's dtype
    out = np.empty(other.shape, dtype=other.dtype)
    flat = out.ravel()
    a = (x1 + other * 0).ravel()
    b = other.ravel()
    for i in range(flat.shape[0]):
        flat[i] = _gcd1(a[i], b[i]) if kind == 0 else _lcm1(a[i], b[i])
    return out


def modf(x):
    """(fractional part, integral part), both with `x`'s sign: C's modf."""
    i = np.trunc(x)
    return np.where(np.isinf(x), np.copysign(0.0, x), np.copysign(x - i, x)), i


# ---- products and spaces --------------------------------------------------------------------

def vdot(a, b):
    """The dot product of the flattened arrays."""
    if a.size != b.size:
        raise ValueError("cannot reshape array of size " + str(b.size) + " into shape (" + str(a.size) + ",)")
    if a.dtype == np.complex128 or a.dtype == np.complex64:     # the first one conjugated
        return np.dot(np.conj(a.ravel()), b.ravel())
    return np.dot(a.ravel(), b.ravel())


def inner(a, b):
    """Sums of products over the last axes of 1-d and 2-d arrays."""
    if a.ndim == 1 and b.ndim == 1:
        return np.dot(a, b)
    if a.ndim == 2 and b.ndim == 2:
        return np.dot(a, b.T)
    if a.ndim == 2 and b.ndim == 1:
        return np.dot(a, b)
    if a.ndim == 1 and b.ndim == 2:
        return np.dot(b, a)
    raise ValueError("np.inner takes 1-d and 2-d arrays here")


def logspace(start, stop, num=50, endpoint=True, base=10.0):
    if endpoint:
        return np.power(base * 1.0, np.linspace(start, stop, num))
    return np.power(base * 1.0, np.linspace(start, stop, num, endpoint=False))


def geomspace(start, stop, num=50, endpoint=True):
    """`num` numbers from `start` to `stop` evenly spaced on a log scale: NumPy's algorithm
    (logspace of the base-10 logs, the ends set exactly)."""
    if start == 0 or stop == 0:
        raise ValueError("Geometric sequence cannot include zero")
    sign = 1.0 if start > 0 else -1.0
    lo = start / sign
    hi = stop / sign
    out = logspace(math.log10(lo), math.log10(hi), num, endpoint=endpoint)
    if num > 0:
        out[0] = lo
        if num > 1 and endpoint:
            out[num - 1] = hi
    return out * sign


def linalg_matrix_power(a, n):
    """`a` (square, 2-d) to the integer power `n`, by repeated squaring as NumPy multiplies
    (the inverse first for a negative `n`)."""
    if a.ndim != 2 or a.shape[0] != a.shape[1]:
        raise ValueError("Last 2 dimensions of the array must be square")
    if n == 0:
        out = np.zeros_like(a)
        for i in range(a.shape[0]):
            out[i, i] = 1
        return out
    if isinstance(a[:0].sum(), (float, np.float32)):
        if n < 0:
            return _power(np.linalg.inv(a), -n)
    elif n < 0:
        raise TypeError("a negative power of an int matrix (a float matrix) is not supported in compiled code")
    return _power(a, n)


def _power(a, n):
    if n == 1:
        return a.copy()
    if n == 2:
        return a @ a
    if n == 3:
        return (a @ a) @ a
    z = a.copy()
    result = a.copy()
    first = True
    started = False
    k = n
    while k > 0:
        if not first:
            z = z @ z
        first = False
        bit = k % 2
        k //= 2
        if bit:
            result = z.copy() if not started else result @ z
            started = True
    return result


# ---- statistics ------------------------------------------------------------------------------

def cov(m, y=None, rowvar=True, bias=False, ddof=None):
    """The covariance matrix of the variables in the rows of `m` (1-d or 2-d; columns when
    not `rowvar`), and of `y`'s: NumPy's computation (centre, X @ X.T, times 1 / (N - ddof)).
    One variable (a 1-d `m`, no `y`) gives a float here where NumPy gives a 0-d array."""
    if m.ndim == 1 and y is None:
        return _cov(_variables(m, rowvar), ddof, bias)[0, 0]
    x = _variables(m, rowvar)
    if y is not None:
        x = np.concatenate((x, _variables(y, rowvar)), axis=0)
    return _cov(x, ddof, bias)


def _cov(x, ddof, bias):
    d = ddof if ddof is not None else (0 if bias else 1)
    fact = x.shape[1] - d
    centred = x - x.mean(axis=1).reshape(x.shape[0], 1)
    c = np.dot(centred, centred.T)
    return c * np.true_divide(1, max(fact, 0) * 1.0)


def _variables(m, rowvar):
    x = m.reshape(1, m.shape[0]) * 1.0 if m.ndim == 1 else m * 1.0
    if not rowvar and m.ndim == 2:
        return x.T.copy()
    return x


def corrcoef(x, y=None, rowvar=True):
    """The correlation coefficients: the covariance over the outer product of the standard
    deviations, clipped to [-1, 1] (NumPy's steps)."""
    if x.ndim == 1 and y is None:
        c1 = cov(x, y, rowvar)
        return c1 / c1
    c = cov(x, y, rowvar)
    n = c.shape[0]
    d = np.empty(n)
    for i in range(n):
        d[i] = math.sqrt(c[i, i]) if c[i, i] >= 0 else math.nan
    c = c / d.reshape(n, 1)
    c = c / d.reshape(1, n)
    return np.clip(c, -1, 1)


# ---- NaN-skipping ----------------------------------------------------------------------------

def nancumsum(a):
    return np.cumsum(np.where(a != a, 0, a))


def nancumprod(a):
    return np.cumprod(np.where(a != a, 1, a))


def _without_nan(a):
    """The sorted elements of `a` that are not NaN (NaN sorts last)."""
    s = sort(a.ravel())
    n = s.shape[0]
    while n > 0 and s[n - 1] != s[n - 1]:
        n -= 1
    return s[:n]


def nanmedian(a):
    s = _without_nan(a)
    n = s.shape[0]
    if n == 0:
        return math.nan
    if n % 2 == 1:
        return (0.0 + s[n // 2]) / 1.0
    return ((0.0 + s[n // 2 - 1]) + s[n // 2]) / 2.0


def nanpercentile(a, q):
    if q < 0 or q > 100:
        raise ValueError("Percentiles must be in the range [0, 100]")
    s = _without_nan(a)
    if s.shape[0] == 0:
        return math.nan
    return _quantile_sorted(s, q / 100.0)


def nanquantile(a, q):
    if q < 0 or q > 1:
        raise ValueError("Quantiles must be in the range [0, 1]")
    s = _without_nan(a)
    if s.shape[0] == 0:
        return math.nan
    return _quantile_sorted(s, q * 1.0)


# ---- sets ------------------------------------------------------------------------------------

def _contains(s, v):
    """Whether the sorted 1-d `s` holds an element equal to `v`."""
    lo = 0
    hi = s.shape[0]
    while lo < hi:
        mid = (lo + hi) // 2
        if s[mid] < v:
            lo = mid + 1
        else:
            hi = mid
    return lo < s.shape[0] and s[lo] == v


def isin(element, test_elements, invert=False):
    """Whether each element of `element` equals one of `test_elements` (an array of
    `element`'s shape)."""
    s = sort(test_elements.ravel())
    out = np.empty(element.shape, dtype=np.bool_)
    flat = out.ravel()
    e = element.ravel()
    for i in range(e.shape[0]):
        flat[i] = _contains(s, e[i]) != invert
    return out


def intersect1d(ar1, ar2):
    u = np.unique(ar1)
    s = np.unique(ar2)
    keep = np.empty(u.shape[0], dtype=np.bool_)
    for i in range(u.shape[0]):
        keep[i] = _contains(s, u[i])
    return u[keep]


def union1d(ar1, ar2):
    return np.unique(np.concatenate((ar1.ravel(), ar2.ravel())))


def setdiff1d(ar1, ar2):
    u = np.unique(ar1)
    s = np.unique(ar2)
    keep = np.empty(u.shape[0], dtype=np.bool_)
    for i in range(u.shape[0]):
        keep[i] = not _contains(s, u[i])
    return u[keep]


def unique_counts(ar):
    """``np.unique(ar, return_counts=True)``: the sorted distinct elements and how often
    each occurs."""
    s = sort(ar.ravel())
    n = s.shape[0]
    counts = np.zeros(n, dtype=np.int64)
    keep = 0
    for i in range(n):
        if i == 0 or not _same(s[i], s[keep - 1]):
            s[keep] = s[i]
            keep += 1
        counts[keep - 1] += 1
    return s[:keep].copy(), counts[:keep].copy()


def unique_inverse(ar):
    """``np.unique(ar, return_inverse=True)``: the sorted distinct elements and the index
    of each element of `ar` among them (of `ar`'s shape, as NumPy 2 gives it)."""
    u = np.unique(ar)
    inv = np.empty(ar.shape, dtype=np.int64)
    flat = inv.ravel()
    f = ar.ravel()
    for i in range(f.shape[0]):
        lo = 0
        hi = u.shape[0]
        while lo < hi:
            mid = (lo + hi) // 2
            if _before(u[mid], f[i]):
                lo = mid + 1
            else:
                hi = mid
        flat[i] = lo
    return u, inv


def _unique_all(ar):
    """The sorted distinct elements of `ar`, the index of each one's first occurrence in the
    flattened `ar`, the index of each element of `ar` among them (`ar`'s shape, as NumPy 2
    gives it) and how often each occurs: by a stable argsort, as NumPy's."""
    f = ar.ravel()
    n = f.shape[0]
    order = np.argsort(f, kind="stable")
    u = np.empty(n, dtype=f.dtype)
    index = np.empty(n, dtype=np.int64)
    counts = np.zeros(n, dtype=np.int64)
    inverse = np.empty(ar.shape, dtype=np.int64)
    flat = inverse.ravel()
    k = -1
    for i in range(n):
        j = order[i]
        if k < 0 or not _same(f[j], u[k]):
            k += 1
            u[k] = f[j]
            index[k] = j
        counts[k] += 1
        flat[j] = k
    return u[:k + 1].copy(), index[:k + 1].copy(), inverse, counts[:k + 1].copy()


def unique_index(ar):
    u, index, inverse, counts = _unique_all(ar)
    return u, index


def unique_index_inverse(ar):
    u, index, inverse, counts = _unique_all(ar)
    return u, index, inverse


def unique_index_counts(ar):
    u, index, inverse, counts = _unique_all(ar)
    return u, index, counts


def unique_inverse_counts(ar):
    u, index, inverse, counts = _unique_all(ar)
    return u, inverse, counts


def unique_index_inverse_counts(ar):
    return _unique_all(ar)


# ---- polynomials -----------------------------------------------------------------------------

def polyfit(x, y, deg):
    """Least-squares polynomial coefficients, highest power first, by NumPy's steps: the
    Vandermonde matrix's columns scaled to unit norm, `lstsq` with rcond = len(x) * eps, the
    scale divided out (NumPy's RankWarning is not given). `y` 1-d."""
    if deg < 0:
        raise ValueError("expected deg >= 0")
    if x.ndim != 1:
        raise TypeError("expected 1D vector for x")
    if x.shape[0] == 0:
        raise TypeError("expected non-empty vector for x")
    if y.ndim != 1:
        raise TypeError("expected 1D or 2D array for y")
    if x.shape[0] != y.shape[0]:
        raise TypeError("expected x and y to have same length")
    order = deg + 1
    n = x.shape[0]
    lhs = np.empty((n, order))
    for i in range(n):
        p = 1.0
        for j in range(order - 1, -1, -1):
            lhs[i, j] = p
            p = p * x[i]
    scale = np.sqrt((lhs * lhs).sum(axis=0))
    lhs = lhs / scale
    c = np.linalg.lstsq(lhs, y * 1.0, n * 2.220446049250313e-16)[0]
    return c / scale
