"""NumPy library functions called from compiled code (script/frontend/numpy_lib.py,
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
