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


def nonlocal_total(n):
    total = 0
    def add(k):
        nonlocal total
        total += k
    for i in range(n):
        add(i)
    return total


def nonlocal_counter(n, x):
    count = 0
    best = -1.0
    def visit(v):
        nonlocal count, best
        count += 1
        if v > best:
            best = v
            return True
        return False
    hits = 0
    for i in range(n):
        if visit((i * 37 % 11) * x):
            hits += 1
    return count, best, hits


def nonlocal_recursion(n):
    calls = 0
    def fib(k):
        nonlocal calls
        calls += 1
        if k < 2:
            return k
        return fib(k - 1) + fib(k - 2)
    return fib(n), calls


def nonlocal_in_comprehension(n):
    acc = 1
    def mul(k):
        nonlocal acc
        acc *= k
        return acc
    return [mul(i + 1) for i in range(n)], acc


def calls_later_lambda(n):
    # `f` is bound after `h`, which calls it: Python's closure finds it at the call
    h = lambda x: f(x) + 1
    f = lambda y: y * 2
    return sum(h(v) for v in range(n)), h(n)


def recursive_lambda(n):
    fact = lambda k: 1 if k < 2 else k * fact(k - 1)
    return [fact(k) for k in range(n)]
