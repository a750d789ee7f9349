"""Kernels for tests/test_perf_workloads.py: lists whose length the `fixedlen` pass forwards
(made by `[x] * n`, `list(range(n))`, a comprehension over a range) and lists it must not
(appended to, passed to a call, stored in another list, made on one branch only); and
matrix products of transposed and strided operands, which BLAS reads in place or the
compiled code copies first."""

import numpy as np


def fill_and_index(n, i, j):
    t = [0] * n
    for k in range(n):
        t[k] = k * k
    t[i] += 1
    return t[j] + len(t)


def range_list_swaps(n, moves):
    p = list(range(n))
    for m in moves:
        a = m % (n + 2) - 1
        b = (m // 7) % (n + 2) - 1
        t = p[a]
        p[a] = p[b]
        p[b] = t
    return p


def comprehension_sum(n, i):
    sq = [k * 2 for k in range(n)]
    s = 0
    for k in range(len(sq)):
        s += sq[k]
    return s + sq[i]


def counts_of(xs, m):
    counts = [0] * m
    for x in xs:
        if 0 <= x < m:
            counts[x] += 1
    return counts


def grows(n, i):
    t = [1] * n
    t.append(5)
    t.append(6)
    return t[i] + len(t)


def _append_one(t):
    t.append(9)


def grows_in_callee(n, i):
    t = [1] * n
    _append_one(t)
    return t[i] + len(t)


def nested_rows(n, i):
    rows = [[0] * 2 for _ in range(n)]
    rows[0].append(3)
    return len(rows[0]) + len(rows[i % n]) + rows[0][i]


def fixed_then_popped(n, i):
    t = [2] * n
    s = 0
    for k in range(n):
        s += t[k]
    t.pop()
    return s + t[i] + len(t)


def xt_v(x, v):
    return x.T @ v


def a_bt(a, b):
    return a @ b.T


def at_bt(a, b):
    return a.T @ b.T


def strided_a_b(a, b):
    return a[::2, ::3] @ b


def gradient_steps(x, y, iters):
    w = x[0] * 0.0
    for _ in range(iters):
        p = 1.0 / (1.0 + np.exp(-(x @ w)))
        w = w - 0.1 * (x.T @ (p - y))
    return w
