"""Kernels for tests/test_defer.py (in a file: the compiler reads source). Elements are read
with `float()`: CPython then divides Python floats, as the compiled code does (a NumPy
scalar divided by zero gives inf with a warning)."""

import math


def recip_sum(x):
    s = 0.0
    for i in range(x.shape[0]):
        s += 1.0 / float(x[i])
    return s


def eval_a(i, j):
    return 1.0 / ((i + j) * (i + j + 1) // 2 + i + 1)


def row_sums(u, out, shift):
    n = u.shape[0]
    for i in range(n):
        s = 0.0
        for j in range(n):
            s += eval_a(i - shift, j) * u[j]
        out[i] = s
    return out


def two_divisions(x, c):
    s = 0.0
    for i in range(x.shape[0]):
        v = float(x[i])
        s += (c / v) / (v - c)
    return s


def sqrt_sum(x):
    s = 0.0
    for i in range(x.shape[0]):
        s += math.sqrt(x[i])
    return s


def recip_store(x):
    for i in range(x.shape[0]):
        x[i] = 1.0 / float(x[i])
    return x


def recip_sum_offset(x, y):
    s = 0.0
    for r in range(2):
        for i in range(x.shape[0]):
            s += 1.0 / float(x[i] - y[i + 2])
    return s
