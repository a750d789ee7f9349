"""Reshapes of arrays of any layout (tests/test_reshape_views.py): each runs in CPython with
NumPy and compiled; the results, their strides, and whether they share the argument's
memory must agree."""

import numpy as np


def to_1(a, n):
    return a.reshape(n)


def to_flat(a):
    return a.reshape(-1)


def to_2(a, p, q):
    return a.reshape(p, q)


def to_2_tuple(a, p, q):
    return a.reshape((p, q))


def to_2_infer_last(a, p):
    return a.reshape(p, -1)


def to_2_infer_first(a, q):
    return a.reshape(-1, q)


def to_3(a, p, q, r):
    return a.reshape(p, q, r)


def to_3_infer_middle(a, p, r):
    return a.reshape(p, -1, r)


def np_reshape_2(a, p, q):
    return np.reshape(a, (p, q))


def transposed_to_flat(a):
    return a.T.reshape(-1)


def ravel(a):
    return a.ravel()


def np_ravel(a):
    return np.ravel(a)


def flatten(a):
    return a.flatten()


def write_rows_through(a, v):
    """The fuzz case 56000:295's shape: write the first row of a same-shape reshape."""
    u = a.reshape(a.shape[0], -1)
    u[0] = v
    return u


def write_flat_through(a, v):
    u = a.reshape(-1)
    u[0] = v
    u[u.shape[0] - 1] = v
    return u


def write_ravel(a, v):
    u = a.ravel()
    u[0] = v
    return u


def write_flatten(a, v):
    u = a.flatten()
    u[0] = v
    return u


def reshape_to(a, shape):
    # a shape known only at run time: any negative length is the inferred one, as in NumPy
    return a.reshape(shape)


def row_ravel(a, t):
    return a[t].ravel()


def rows_reshape(a):
    return a[1:3].reshape(-1)


def middle_rows_ravel(a):
    return a[1:-1].ravel()


def inner_line_reshape(a, i):
    return a[i, 1:3].reshape(-1)


def row_matvec(w, xs, t):
    return w @ xs[t]
