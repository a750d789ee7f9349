"""NumPy library functions called from compiled code (script/lib/numpy/numpy_lib.py,
numpy_join.py); each runs under CPython with NumPy and compiled."""

import numpy as np


def sort_(a):
    return np.sort(a)


def sort_method(a):
    b = a.copy()
    b.sort()
    return b


def argsort_(a):
    return np.argsort(a)


def order_stats(a):
    return np.median(a), np.percentile(a, 30.0), np.ptp(a)


def search(a, v):
    return np.searchsorted(np.sort(a), v)


def unique_(a):
    return np.unique(a)


def diffs(a):
    return np.diff(a), np.flip(a), np.count_nonzero(a)


def products(a, b):
    return np.outer(a, b), np.trace(np.outer(a, a))


def consts(n):
    return np.eye(n), np.identity(n), np.eye(n, n + 1, 1)


def cross_(a, b):
    return np.cross(a, b)


def rep(a, k):
    return np.repeat(a, k), np.tile(a, k)


def interp_(x, xp, fp):
    return np.interp(x, xp, fp)


def norms(a):
    return np.linalg.norm(a), np.std(a), np.var(a), a.std(), a.var(ddof=1)


def closeness(a, b):
    return np.isclose(a, b), np.allclose(a, b)


def cleanup(a):
    return np.nan_to_num(a), np.round(a, 2), a.round(1), a.clip(-1.0, 1.0)


def literal(x):
    return np.array([1.0, x, 3.0]), np.array([[1, 2], [3, 4]]), np.array([x, x], dtype=np.float32)


def joins(a, b):
    return np.concatenate((a, b)), np.stack((a, a)), np.vstack((a, a)), np.hstack((a, b))


def joins_2d(m):
    return np.concatenate((m, m), axis=1), np.vstack((m, m)), np.hstack((m, m)), np.transpose(m), m.nbytes


def concat_mismatch(m, n):
    return np.concatenate((m, n), axis=0)


def std_axes(m):
    return m.std(axis=0), np.var(m, axis=1), np.std(m, 0, ddof=1), (m - m.mean(axis=0)) / m.std(axis=0)


# ---- numpy_stats: counting and statistics ---------------------------------------------------

def bincount_(x):
    return np.bincount(x)


def bincount_weighted(x, w, n):
    return np.bincount(x, weights=w, minlength=n)


def histogram_(a, bins):
    return np.histogram(a, bins)


def histogram_zero_unsigned(a, bins):
    # The range comes from max/min, whose pick between -0.0 and 0.0 follows NumPy's SIMD
    # order (unspecified): + 0.0 makes a zero edge 0.0 on both sides.
    counts, edges = np.histogram(a, bins)
    return counts, edges + 0.0


def histogram_range(a, lo, hi):
    return np.histogram(a, bins=7, range=(lo, hi))


def digitize_(x, bins):
    return np.digitize(x, bins), np.digitize(x, bins, right=True)


def digitize_scalar(v, bins):
    return np.digitize(v, bins), np.digitize(v, bins, True)


def average_(a, w):
    return np.average(a), np.average(a, weights=w)


def nan_reductions(a):
    return (np.nansum(a), np.nanprod(a), np.nanmean(a), np.nanmax(a), np.nanmin(a), np.nanvar(a),
            np.nanstd(a, ddof=1))


def nan_args(a):
    return np.nanargmax(a), np.nanargmin(a)


def nan_axes(a):
    return (np.nansum(a, axis=0), np.nanprod(a, 1), np.nanmean(a, axis=0), np.nanmax(a, axis=1),
            np.nanmin(a, 0), np.nanvar(a, axis=0), np.nanstd(a, axis=-1, ddof=1))


def nan_arg_axes(a):
    return np.nanargmax(a, axis=0), np.nanargmin(a, axis=1)


# ---- numpy_lib: nonzero elements, triangles, grids; numpy_signal; numpy_linalg_lib ---------

def nonzeros(a):
    return np.nonzero(a), np.flatnonzero(a), np.argwhere(a), np.where(a > 0), a.nonzero(), np.count_nonzero(a)


def triangles(m):
    return np.triu(m), np.triu(m, 1), np.tril(m, -2), np.tril(m), np.triu(m, k=-1)


def grid(x, y):
    return np.meshgrid(x, y)


def convolutions(a, v):
    return (np.convolve(a, v), np.convolve(a, v, 'same'), np.convolve(a, v, mode='valid'), np.correlate(a, v),
            np.correlate(a, v, 'same'), np.correlate(a, v, "full"))


def polyvals(p, x):
    return np.polyval(p, x), np.polyval(p, 2.5), np.polyval(p, 3)


def trapezoids(y, x):
    return np.trapezoid(y), np.trapezoid(y, dx=0.5), np.trapezoid(y, x), np.trapezoid(y, x=x)


def solve_(a, b):
    return np.linalg.solve(a, b)


def inv_det(a):
    return np.linalg.inv(a), np.linalg.det(a)
