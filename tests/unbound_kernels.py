"""Functions whose locals are unassigned on some paths (tests/test_ssa_unbound.py): merges
around loops, arrays and tuples that may be unbound, reads no typed assignment reaches."""

import numpy as np


def param_after_reduction_loop(p, a):
    w = 0
    while int(min(a)) and w < 2:
        w += 1
    return 5.0 ** p


def reassigned_in_empty_inner_loop(n):
    v = n
    for x in (n, 1, 0):
        for i in range(n, 6):
            v = i + x
    a, b, c = (v, 20, v)
    return a + c


def float_reassigned_in_empty_inner_loop(n):
    v = n * 0.5
    for x in (n, 1, 0):
        for i in range(n, 6):
            v = i + x
    return v


def array_maybe_unbound(n):
    a = np.arange(5.0)
    if n > 2:
        b = a[1:]
    return b[0] + n


def array_maybe_unbound_in_loop(n):
    a = np.arange(6.0)
    s = 0.0
    for i in range(n):
        if i == 0:
            b = a[::2]
        s += b[i % 3]
    return s


def tuple_with_array_maybe_unbound(n):
    a = np.ones(3)
    if n % 2 == 0:
        t = (n, a)
    return t[0] + t[1][0]


def counter_never_assigned(n):
    if n > 3:
        while w < n:
            w += 1
    return n


def counter_never_assigned_in_and(n):
    s = 0
    for i in range(n % 3):
        while w < 1 and max(1.0, abs(n)):
            w += 1
        s += i
    return s


def unbound_after_break(n):
    s = 0
    for x in range(n):
        for y in range(2):
            for z in range(0):
                break
                u, v = (z, x)
        else:
            s += v if n > 4 else 1
    return s


def abs_of_never_assigned(n):
    if n > 3:
        while abs(w) < n:
            w = w + 1
    return n


def index_order(n, a):
    a[1, n // (n - n)] = 1.0
    return 0


def view_index_order(n, a):
    return a[5, ::n - n].shape[0]


def slice_part_order(n, a):
    return a[n // 0:1:n - n].shape[0]
