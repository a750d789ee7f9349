"""Kernels of tests/test_perf_fixes.py: the shapes that benchmarks/kernels_classic.py found
slow (a stepped range's indices, int() of a float in a loop, a polled loop's registers)."""

import math

import numpy as np


def stepped_store(a, start, stop, step):
    """Stores along range(start, stop, step) with a variable step (the sieve's inner loop)."""
    n = 0
    for j in range(start, stop, step):
        a[j] = a[j] + 1.0
        n += 1
    return n


def stepped_up3(a, start, stop):
    s = 0.0
    for j in range(start, stop, 3):
        s += a[j]
    return s


def stepped_down2(a, start, stop):
    s = 0.0
    for j in range(start, stop, -2):
        s += a[j] * (j + 1)
    return s


def stepped_two_arrays(a, b, start, stop, step):
    """Two arrays of other lengths, one read and one written."""
    for j in range(start, stop, step):
        b[j] = a[j] * 2.0
    return b


def sieve(n):
    flags = np.ones(n + 1, dtype=np.bool_)
    flags[0] = False
    if n >= 1:
        flags[1] = False
    i = 2
    while i * i <= n:
        if flags[i]:
            for j in range(i * i, n + 1, i):
                flags[j] = False
        i += 1
    count = 0
    for i in range(n + 1):
        if flags[i]:
            count += 1
    return count


def histogram(x, nbins, lo, hi):
    counts = np.zeros(nbins, dtype=np.int64)
    scale = nbins / (hi - lo)
    for i in range(x.shape[0]):
        b = int((x[i] - lo) * scale)
        if 0 <= b < nbins:
            counts[b] += 1
    return counts


def int_of_each(x):
    """int() of every element: NaN, infinities and out-of-range values raise as in CPython."""
    out = np.empty(x.shape[0], dtype=np.int64)
    for i in range(x.shape[0]):
        out[i] = int(x[i])
    return out


def int_sum(x):
    t = 0
    for i in range(x.shape[0]):
        t += int(x[i] * 3.0)
    return t


def polled_float_loop(x, lo, scale):
    """A loop polled by its counter (an int() check makes it exit early) with doubles live
    across the poll."""
    acc = 0.0
    acc2 = 0.0
    for i in range(x.shape[0]):
        v = (x[i] - lo) * scale
        k = int(v)
        acc += v - k
        acc2 += v * lo
    return acc + acc2


def insertion_sort(a):
    b = a.copy()
    for i in range(1, b.shape[0]):
        x = b[i]
        j = i - 1
        while j >= 0 and b[j] > x:
            b[j + 1] = b[j]
            j -= 1
        b[j + 1] = x
    return b


def countdown_other_array(a, b):
    """The countdown runs over a's indices but reads b, which may be shorter: checked."""
    s = 0.0
    for i in range(1, a.shape[0]):
        j = i - 1
        while j >= 0 and b[j] > a[i]:
            s += b[j]
            j -= 1
    return s


def countdown_from_i(a, x):
    """j starts at i, and a[j + 1] reaches a's length: an IndexError at the right time."""
    n = 0
    for i in range(a.shape[0]):
        j = i
        while j >= 0 and a[j] > x:
            n += 1
            a[j + 1] = a[j] - 1.0
            j -= 1
    return n


def countdown_by_two(a):
    """A countdown by 2 is not one bce knows: checked as before (j can go below 0 by 2)."""
    t = 0.0
    for i in range(a.shape[0]):
        j = i - 1
        while j >= 0 and a[j] > 0.5:
            t += a[j]
            j -= 2
    return t


def short_circuit_or(a, lo, hi):
    c = 0
    for i in range(a.shape[0]):
        if a[i] < lo or a[i] > hi:
            c += 1
        elif not (a[i] == lo or i % 3 == 0):
            c += 10
    return c


def countdown_break(a, x):
    """A countdown left by a break as well; then the index after the loop may be -1."""
    b = a.copy()
    k = 0
    for i in range(1, b.shape[0]):
        j = i - 1
        while j >= 0 and b[j] > x:
            if b[j] > 2 * x:
                break
            b[j + 1] = b[j]
            j -= 1
        b[j + 1] = x
        k += j
    return b, k


def countdown_reads_ahead(a, x):
    """j <= i - 1 < n - 1: a[j + 1] is in bounds, a[j + 2] is not always."""
    t = 0.0
    for i in range(1, a.shape[0]):
        j = i - 1
        while j >= 0 and a[j] > x:
            t += a[j + 1]
            if a[j] > 2 * x:
                t += a[j + 2]
            j -= 1
    return t


def nearest(points, centroids):
    """k-means' assignment: float sums in order, which LLVM vectorizes in order."""
    n = points.shape[0]
    labels = np.empty(n, dtype=np.int64)
    total = 0.0
    for i in range(n):
        best = 0
        best_d = np.inf
        for c in range(centroids.shape[0]):
            s = 0.0
            for j in range(points.shape[1]):
                diff = points[i, j] - centroids[c, j]
                s += diff * diff
            if s < best_d:
                best_d = s
                best = c
        labels[i] = best
        total += best_d
    return labels, total


def ordered_dot(a, b):
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i] * b[i]
    return s


def countdown_ge(a, b):
    """``while j >= C`` stepped by ``j -= 1``: a counted loop for the interrupt checks."""
    t = 0
    j = a
    while j >= -3:
        t = (t * 7 + j + b) % 2**64          # masked: int64's wrapping value, exactly
        j -= 1
    return t


def countup_le(a, b):
    t = 0
    i = a
    while i <= 5:
        t = (t * 5 + i * b) % 2**64
        i += 1
    return t


def sqrt_each(x):
    """math.sqrt of each element: ValueError for negatives and -inf, +inf stays inf."""
    out = np.empty(x.shape[0])
    for i in range(x.shape[0]):
        out[i] = math.sqrt(x[i]) * 2.0
    return out
