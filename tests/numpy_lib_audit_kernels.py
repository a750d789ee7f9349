"""Kernels for tests/test_numpy_lib_audit.py: the NumPy functions of numpy_lib.py (and
their siblings in numpy_more.py) with the keyword arguments each takes, as plain Python."""

import numpy as np


def sort(a, axis):
    return np.sort(a, axis)


def sort_flat(a):
    return np.sort(a, axis=None)


def sort_method(a, axis):
    b = a.copy()
    b.sort(axis)
    return b


def argsort(a, axis):
    return np.argsort(a, axis, kind="stable")


def argsort_flat(a):
    return np.argsort(a, axis=None, kind="stable")


def median(a):
    return np.median(a)


def median_axis(a, axis):
    return np.median(a, axis=axis)


def percentile(a, q):
    return np.percentile(a, q)


def percentile_axis(a, q, axis):
    return np.percentile(a, q, axis=axis)


def quantile(a, q):
    return np.quantile(a, q)


def quantile_array(a, q):
    return np.quantile(a, q)


def quantile_axis(a, q, axis):
    return np.quantile(a, q, axis=axis)


def searchsorted_left(a, v):
    return np.searchsorted(a, v)


def searchsorted_right(a, v):
    return np.searchsorted(a, v, side="right")


def unique(a):
    return np.unique(a)


def unique_counts(a):
    return np.unique(a, return_counts=True)


def unique_inverse(a):
    return np.unique(a, return_inverse=True)


def unique_index(a):
    return np.unique(a, return_index=True)


def diff(a, n, axis):
    return np.diff(a, n, axis)


def outer(a, b):
    return np.outer(a, b)


def eye(n, m, k):
    return np.eye(n, m, k)


def eye_int(n, k):
    return np.eye(n, k=k, dtype=np.int32)


def identity(n):
    return np.identity(n)


def interp(x, xp, fp):
    return np.interp(x, xp, fp)


def interp_left_right(x, xp, fp, left, right):
    return np.interp(x, xp, fp, left, right)


def argwhere(a):
    return np.argwhere(a)


def flatnonzero(a):
    return np.flatnonzero(a)


def nonzero(a):
    return np.nonzero(a)


def triu(m, k):
    return np.triu(m, k)


def tril(m, k):
    return np.tril(m, k)


def meshgrid(x, y):
    return np.meshgrid(x, y)


def meshgrid_ij(x, y):
    return np.meshgrid(x, y, indexing="ij")


def count_nonzero(a):
    return np.count_nonzero(a)


def ptp(a):
    return np.ptp(a)


def norm(x):
    return np.linalg.norm(x)


def norm_ord(x, ord):
    return np.linalg.norm(x, ord)


def norm_fro(x):
    return np.linalg.norm(x, "fro")


def norm_axis(x, ord, axis):
    return np.linalg.norm(x, ord, axis)


def isclose(a, b):
    return np.isclose(a, b)


def isclose_tol(a, b, rtol, atol):
    return np.isclose(a, b, rtol, atol)


def isclose_nan(a, b):
    return np.isclose(a, b, equal_nan=True)


def allclose(a, b):
    return np.allclose(a, b)


def allclose_nan(a, b):
    return np.allclose(a, b, equal_nan=True)


def nan_to_num(a):
    return np.nan_to_num(a)


def nan_to_num_in_place(a):
    return np.nan_to_num(a, copy=False)


def nan_to_num_values(a):
    return np.nan_to_num(a, nan=-1.0, posinf=7.0, neginf=-7.0)


def round_(a, decimals):
    return np.round(a, decimals)


def around_method(a, decimals):
    return a.round(decimals)


def var(a, ddof):
    return np.var(a, ddof=ddof)


def std(a, ddof):
    return np.std(a, ddof=ddof)


def var_method(a):
    return a.var()


def tolist(a):
    return a.tolist()


def roll(a, shift):
    return np.roll(a, shift)


def roll_axis(a, shift, axis):
    return np.roll(a, shift, axis)


def diag(v, k):
    return np.diag(v, k)


def array_equal(a, b):
    return np.array_equal(a, b)


def kron(a, b):
    return np.kron(a, b)
