"""Loop nests for the `jam` pass (tests/test_jam.py): an outer loop over rows whose inner
loop only computes, then stores the row's result."""

import math

import numpy as np


def entry(i, j):
    return 1.0 / ((i + j) * (i + j + 1) // 2 + i + 1)


def times_u(u, out):
    """The spectral norm's product: a helper called in the inner loop."""
    n = u.shape[0]
    for i in range(n):
        s = 0.0
        for j in range(n):
            s += entry(i, j) * u[j]
        out[i] = s


def matvec(a, x, out):
    for i in range(a.shape[0]):
        s = 0.0
        for j in range(a.shape[1]):
            s += a[i, j] * x[j]
        out[i] = s


def shifted(u, out, shift):
    """A zero divisor at the row i == u[j] - shift: that row's deferred ZeroDivisionError."""
    n = u.shape[0]
    for i in range(n):
        s = 0.0
        for j in range(n):
            s += 1.0 / (float(u[j]) - shift - i)
        out[i] = s


def row_then_divide(u, out, k):
    """A row's code after its inner loop raises at row k (after the rows before it stored)."""
    n = u.shape[0]
    for i in range(n):
        s = 0.0
        for j in range(n):
            s += u[j] * u[j] + i
        out[i] = 1.0 / (k - i) * s


def int_rows(x, out, big):
    """Int sums whose overflow check is deferred to the inner loop's exit: the row where
    `big` overflows raises, after the rows before it stored."""
    n = x.shape[0]
    for i in range(n):
        s = 0
        for j in range(n):
            s += (i * big) * 2 + j
        out[i] = s


def two_stores(u, out, out2):
    n = u.shape[0]
    for i in range(n):
        lo = 0.0
        hi = 0.0
        for j in range(n):
            v = u[j] * (i + 1)
            lo += v
            hi += v * v
        out[i] = lo
        out2[i] = hi


def nested_rows(m, out):
    """Lists of lists: the inner loop reads a row list."""
    for i in range(len(m)):
        s = 0.0
        for j in range(len(m[i])):
            s += m[i][j] * (j + 1)
        out[i] = s


def clamped_counts(x, nbins, clamp):
    """`if clamp:` on an argument in the loop (unswitched): counts, and the last bin."""
    counts = [0] * nbins
    b = -1
    for i in range(x.shape[0]):
        b = int(x[i] * nbins)
        if clamp:
            if b < 0:
                b = 0
            elif b >= nbins:
                b = nbins - 1
        counts[b] += 1
    return counts, b


def total_of_rows(u, out, scale):
    """The outer loop carries a total (read after each row's inner loop): rows still run
    side by side, the total is added row after row."""
    n = u.shape[0]
    total = 0.0
    count = 0
    for i in range(n):
        s = 0.0
        for j in range(n):
            s += u[j] * (i - j)
        out[i] = s
        total = total * scale + s
        count += 1
    return total, count



def scaled_entries(u, out, base):
    """Rows of ``u[j] * ((i + j) * base)``: the product overflows int64 where ``i + j`` is
    large for `base`, which no limit on the loops' bounds rules out, so the rows keep its
    overflow test (deferred: the first row with one raises, after the rows before it
    stored)."""
    n = u.shape[0]
    for i in range(n):
        s = 0.0
        for j in range(n):
            s += u[j] * ((i + j) * base)
        out[i] = s


def histogram_flag(x, nbins, lo, hi, clamp):
    """benchmarks' histogram: unswitched on `clamp`; in the clamped copy the bin's index
    check is ``nbins <= 0``, a check on a value the loop cannot change, unswitched in turn."""
    counts = np.zeros(nbins, dtype=np.int64)
    scale = nbins / (hi - lo)
    for i in range(x.shape[0]):
        b = math.floor((x[i] - lo) * scale)
        if clamp:
            if b < 0:
                b = 0
            elif b >= nbins:
                b = nbins - 1
        counts[b] += 1
    return counts


def sum_divided(a, k, off):
    """A divisor the loop cannot change (its ZeroDivisionError check is unswitched), after
    an index check that may fail first."""
    t = 0
    for i in range(a.shape[0]):
        t += int(a[i + off]) // k
    return t

