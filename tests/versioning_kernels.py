"""Loops whose index checks the versioning pass takes out of a copy of the loop
(tests/test_versioning.py). Each writes into an argument before an index may fail, so the
tests see that the checked loop raises at the same iteration, after the same stores."""

import numpy as np


def stencil(a, b, lo, hi):
    for k in range(lo, hi):
        a[k] = b[k + 1] - b[k - 1]


def counting_down(a, b, hi, lo):
    for k in range(hi, lo, -1):
        a[k - 1] = b[k + 2] * 2.0


def scaled(a, b, n):
    s = 0.0
    for k in range(n):
        a[k] = s
        s += b[2 * k + 1] - b[3 * k]
    return s


def rows(out, x, y, t):
    """An inner loop over out's columns reading row t of x at k + 1 and y at k."""
    for i in range(out.shape[0]):
        for k in range(out.shape[1]):
            out[i, k] = x[t, k + 1] + y[k] * i
    return out.shape[0]


def until(a, b, n):
    """A loop whose count is its own argument and whose sum leaves the loop."""
    s = 0
    for k in range(n):
        s += b[k]
        a[k] = s
    return s


def top_level(a, b):
    s = 0.0
    for k in range(a.shape[0]):
        s += b[k]
    return s


def rnn_step(h, w, u, x, b):
    """One RNN step as explicit loops: rows of w and u, columns up to lengths of their own."""
    out = np.empty(h.shape[0])
    for i in range(w.shape[0]):
        s = b[i]
        for k in range(w.shape[1]):
            s += w[i, k] * x[k]
        for k in range(h.shape[0]):
            s += u[i, k] * h[k]
        out[i] = np.tanh(s)
    return out


def shifted(a, b, j, lo, hi):
    """Indices shifted by a value of the caller's (`b[j + k]`, `a[k + j - 1]`), and NumPy's
    wraparound of a negative one."""
    for k in range(lo, hi):
        a[k + j - 1] = b[j + k] + b[k + 1 + j]


def shifted_down(a, b, j, hi, lo):
    for k in range(hi, lo, -1):
        a[j + k] = b[k + j + 2] * 2.0


def window(out, x, w, t):
    """A window of the caller's width at offsets the caller shifts by t (past either end)."""
    for i in range(out.shape[0]):
        s = 0.0
        for k in range(w):
            s += x[i + k + t]
        out[i] = s
