"""Reductions, cumulative sums and products compared with NumPy by
tests/test_array_reductions.py. One function per form (the axis must be a constant)."""

import numpy as np


def sum_all(a):
    return np.sum(a)


def sum_method(a):
    return a.sum()


def sum_ax0(a):
    return np.sum(a, axis=0)


def sum_ax1(a):
    return a.sum(axis=1)


def sum_axm1(a):
    return np.sum(a, -1)


def sum_ax2(a):
    return a.sum(2)

def prod_all(a):
    return np.prod(a)


def prod_method(a):
    return a.prod()


def prod_ax0(a):
    return np.prod(a, axis=0)


def prod_ax1(a):
    return a.prod(axis=1)


def prod_axm1(a):
    return np.prod(a, -1)


def prod_ax2(a):
    return a.prod(2)

def min_all(a):
    return np.min(a)


def min_method(a):
    return a.min()


def min_ax0(a):
    return np.min(a, axis=0)


def min_ax1(a):
    return a.min(axis=1)


def min_axm1(a):
    return np.min(a, -1)


def min_ax2(a):
    return a.min(2)

def max_all(a):
    return np.max(a)


def max_method(a):
    return a.max()


def max_ax0(a):
    return np.max(a, axis=0)


def max_ax1(a):
    return a.max(axis=1)


def max_axm1(a):
    return np.max(a, -1)


def max_ax2(a):
    return a.max(2)

def mean_all(a):
    return np.mean(a)


def mean_method(a):
    return a.mean()


def mean_ax0(a):
    return np.mean(a, axis=0)


def mean_ax1(a):
    return a.mean(axis=1)


def mean_axm1(a):
    return np.mean(a, -1)


def mean_ax2(a):
    return a.mean(2)

def argmin_all(a):
    return np.argmin(a)


def argmin_method(a):
    return a.argmin()


def argmin_ax0(a):
    return np.argmin(a, axis=0)


def argmin_ax1(a):
    return a.argmin(axis=1)


def argmin_axm1(a):
    return np.argmin(a, -1)


def argmin_ax2(a):
    return a.argmin(2)

def argmax_all(a):
    return np.argmax(a)


def argmax_method(a):
    return a.argmax()


def argmax_ax0(a):
    return np.argmax(a, axis=0)


def argmax_ax1(a):
    return a.argmax(axis=1)


def argmax_axm1(a):
    return np.argmax(a, -1)


def argmax_ax2(a):
    return a.argmax(2)

def any_all(a):
    return np.any(a)


def any_method(a):
    return a.any()


def any_ax0(a):
    return np.any(a, axis=0)


def any_ax1(a):
    return a.any(axis=1)


def any_axm1(a):
    return np.any(a, -1)


def any_ax2(a):
    return a.any(2)

def all_all(a):
    return np.all(a)


def all_method(a):
    return a.all()


def all_ax0(a):
    return np.all(a, axis=0)


def all_ax1(a):
    return a.all(axis=1)


def all_axm1(a):
    return np.all(a, -1)


def all_ax2(a):
    return a.all(2)


REDUCTIONS = {k: {"all": globals()[k + "_all"], "method": globals()[k + "_method"],
                  0: globals()[k + "_ax0"], 1: globals()[k + "_ax1"], -1: globals()[k + "_axm1"],
                  2: globals()[k + "_ax2"]}
              for k in ("sum", "prod", "min", "max", "mean", "argmin", "argmax", "any", "all")}


def amin_all(a):
    return np.amin(a)


def amax_ax0(a):
    return np.amax(a, axis=0)


def sum_axis_none(a):
    return np.sum(a, axis=None)


def sum_ax5(a):
    return np.sum(a, axis=5)


def sum_axm4(a):
    return a.sum(axis=-4)


def sum_axis_var(a, k):
    return np.sum(a, axis=k)


def sum_tuple_axes(a):
    return np.sum(a, axis=(0, 1))


def sum_dtype(a):
    return np.sum(a, dtype=np.float32)


def sum_of_scalar(x):
    return np.sum(x)


def cumsum_flat(a):
    return np.cumsum(a)


def cumsum_method(a):
    return a.cumsum()


def cumsum_ax0(a):
    return np.cumsum(a, axis=0)


def cumsum_axm1(a):
    return a.cumsum(axis=-1)


def cumprod_flat(a):
    return np.cumprod(a)


def cumprod_ax1(a):
    return a.cumprod(1)


def cumprod_axm1(a):
    return np.cumprod(a, axis=-1)


CUMULATIVE = {"cumsum": {None: cumsum_flat, "method": cumsum_method, 0: cumsum_ax0, -1: cumsum_axm1},
              "cumprod": {None: cumprod_flat, 1: cumprod_ax1, -1: cumprod_axm1}}


def dot(a, b):
    return np.dot(a, b)


def dot_method(a, b):
    return a.dot(b)


def matmul_op(a, b):
    return a @ b


def np_matmul(a, b):
    return np.matmul(a, b)


PRODUCTS = (dot, dot_method, matmul_op, np_matmul)


def matmul_scalar(a, x):
    return a @ x


def matmul_3d(a, b):
    return a @ b


def row_stats(m):
    """Reductions of views inside a loop, mixed with scalar code."""
    best = -1
    total = 0.0
    for i in range(m.shape[0]):
        row = m[i]
        hit = row.max() > 0.5 and np.argmin(row) != 0
        best = i if hit else best      # (read in the loop: see the report on `if hit: best = i`)
        total += row.sum() - np.mean(row[::2])
    return best, total


def normalize_columns(m):
    """Allocate, reduce along an axis, write back through a view."""
    out = m.copy()
    s = np.sum(m, axis=0)
    for j in range(m.shape[1]):
        if s[j] != 0.0:
            out[:, j] = m[:, j] / s[j]
    return out


def power_iteration(a, steps):
    """Repeated matrix . vector products: the dominant eigenvalue's estimate."""
    v = np.ones(a.shape[0])
    lam = 0.0
    for _ in range(steps):
        w = a @ v
        lam = np.dot(v, w) / np.dot(v, v)
        v = w / np.sqrt(np.dot(w, w))
    return lam


def gram(x):
    return x.T @ x
