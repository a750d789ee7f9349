"""NumPy's sequence functions written in the compiled subset: `convolve`, `correlate`,
`polyval`, `polyder`, `trapezoid`.

Compiled like numpy_lib's functions (numpy_lib_call routes the calls: ``mode`` strings
arrive as NumPy's own codes, 0 valid, 1 same, 2 full). Sums run in index order; NumPy's
float convolutions call BLAS's dot, whose order may differ, so float results agree up to
rounding and int results exactly.
"""

import numpy as np

_VALID = 0
_SAME = 1
_FULL = 2


def _correlate_full(a, v, k, dtype_probe):
    """Element k of the full cross-correlation Σ_j a[j + k - (len(v) - 1)] * v[j]."""
    n1 = a.shape[0]
    n2 = v.shape[0]
    shift = k - (n2 - 1)
    lo = max(0, -shift)
    hi = min(n2, n1 - shift)
    total = dtype_probe
    for j in range(lo, hi):
        total += a[j + shift] * v[j]
    return total


def _correlate_range(a, v, start, length):
    """Elements start .. start + length of the full cross-correlation of `a` and `v`."""
    zero = (a[:0] * v[:0]).sum() * 0
    out = np.empty(length, dtype=(a[:0] * v[:0]).dtype)
    for i in range(length):
        out[i] = _correlate_full(a, v, start + i, zero)
    return out


def _window(n1, n2, mode, inverted):
    """(start, length) of a mode's part of a full correlation of lengths n1 and n2 (NumPy's
    _pyarray_correlate; `inverted`: the shorter array came first and correlate2 reversed
    its swapped result, which moves the 'same' window)."""
    short = min(n1, n2)
    long = max(n1, n2)
    if mode == _FULL:
        return 0, n1 + n2 - 1
    if mode == _SAME:
        if inverted:
            return short // 2, long
        return (short - 1) // 2, long
    return short - 1, long - short + 1


def correlate(a: np.ndarray, v: np.ndarray, mode=_VALID):
    """The cross-correlation of two 1-d arrays, Σ_n a[n + k] * v[n]."""
    if a.shape[0] == 0:
        raise ValueError("first array argument cannot be empty")
    if v.shape[0] == 0:
        raise ValueError("second array argument cannot be empty")
    start, length = _window(a.shape[0], v.shape[0], mode, a.shape[0] < v.shape[0])
    return _correlate_range(a, v, start, length)


def convolve(a: np.ndarray, v: np.ndarray, mode=_FULL):
    """The discrete linear convolution of two 1-d arrays, Σ_m a[m] * v[k - m]."""
    if a.shape[0] == 0:
        raise ValueError("a cannot be empty")
    if v.shape[0] == 0:
        raise ValueError("v cannot be empty")
    if a.shape[0] < v.shape[0]:     # NumPy convolves the longer with the shorter
        return _convolve_sorted(v, a, mode)
    return _convolve_sorted(a, v, mode)


def _convolve_sorted(a, v, mode):
    start, length = _window(a.shape[0], v.shape[0], mode, False)
    return _correlate_range(a, v[::-1], start, length)


def polyval(p: np.ndarray, x: np.ndarray):
    """The polynomial with coefficients `p` (highest power first) at `x`, by Horner's rule:
    an array of NumPy's result type (x's and p's dtypes together)."""
    y = np.zeros(x.shape, dtype=(x.ravel()[:0] * p[:0]).dtype)
    for i in range(p.shape[0]):
        y = y * x + p[i]
    return y


def polyder(p: np.ndarray, m=1):
    """The coefficients of the `m`-th derivative of polynomial `p` (m = 0: `p`, in the
    derivative's dtype)."""
    if m < 0:
        raise ValueError("Order of derivative must be positive (see polyint)")
    y = p + np.zeros(p.shape[0], dtype=np.int64)
    for _ in range(m):
        y = y[:-1] * np.arange(y.shape[0] - 1, 0, -1)
    return y


def _polyval_scalar(p, x):
    y = x * 0 + p[:0].sum() * 0         # NumPy's result type, x seen as an int64/float64
    for i in range(p.shape[0]):
        y = y * x + p[i]
    return y


def trapezoid(y: np.ndarray, x=None, dx=1.0):
    """The integral of the 1-d `y` by the trapezoidal rule, samples `dx` apart (with `x`:
    `_trapezoid_x`)."""
    return (dx * (y[1:] + y[:-1]) / 2.0).sum()


def _trapezoid_x(y: np.ndarray, x: np.ndarray, dx=1.0):
    """The integral of the 1-d `y` sampled at the points `x`."""
    d = x[1:] - x[:-1]
    return (d * (y[1:] + y[:-1]) / 2.0).sum()


# the function to call when the named parameter holds a scalar, or an array (numpy_lib_call)
SCALAR_FORMS = {"polyval": ("x", _polyval_scalar)}
ARRAY_FORMS = {"trapezoid": ("x", _trapezoid_x)}
