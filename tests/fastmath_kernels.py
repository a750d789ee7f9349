"""Kernels for tests/test_fastmath.py (in a file: the compiler reads source)."""

import math


def dot(a, b):
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i] * b[i]
    return s


def axpy_sum(a, x, y):
    s = 0.0
    for i in range(x.shape[0]):
        s += a * x[i] + y[i]
    return s


def nan_tests(x):
    n = 0
    for i in range(x.shape[0]):
        if math.isnan(x[i] * 2.0):
            n += 1
        elif math.isinf(x[i] + 1.0):
            n += 10
    return n


def to_int(x):
    return int(x * 1.0 + 0.0)
