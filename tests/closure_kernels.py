"""Functions with nested functions and lambdas (test_closures.py)."""

import math

import numpy as np


def scaled_sum(a, n):
    scale = 2.0

    def f(x):
        return x * scale + n
    total = 0.0
    for i in range(len(a)):
        total += f(a[i])
    scale = -1.0                  # later calls see the new value, as Python's cells do
    return total + f(1.0)


def lambdas(x, k):
    sq = lambda y: y * y + k          # noqa: E731
    cube = lambda y, p=3: y ** p      # noqa: E731
    return sq(x) + cube(x) + cube(x, 2)


def recursive_inner(n):
    base = 1

    def fact(m):
        if m <= 1:
            return base
        return m * fact(m - 1)
    return fact(n) + fact(3)


def calls_earlier(x, offset):
    def inc(y):
        return y + offset

    def twice(y):
        return inc(inc(y))
    return twice(x) * 2


def over_arrays(a, b):
    def dot(u, v):
        s = 0.0
        for i in range(len(u)):
            s += u[i] * v[i]
        return s

    def norm(u):
        return math.sqrt(dot(u, u))
    out = np.empty(len(a))
    for i in range(len(a)):
        out[i] = a[i] * dot(a, b) / (norm(b) + 1.0)
    return out


def shadows(x):
    y = 10

    def g(y):
        return y + 1               # its own y
    def h(z):
        y = z * 2                  # a local of h, not the outer y
        return y
    return g(x) + h(x) + y


def raising_inner(n):
    def check(v):
        if v < 0:
            raise ValueError(f"negative: {v}")
        return v
    return check(n) + check(n - 3)
