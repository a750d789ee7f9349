"""Kernels for tests/test_lowered_checks.py (in a file: the compiler reads source): unproven
indices (NumPy's negative-index fix-up and its bounds check, one unsigned compare on the hot
path: llvm/lower.py `lower_wrapped_index_check`) and ``int(x)`` of floats (one compare of
cvttsd2si's result on x86-64: `lower_check_run`)."""

import math

import numpy as np


def bins(x, counts, lo, scale):
    for i in range(x.shape[0]):
        b = math.floor((x[i] - lo) * scale)
        counts[b] += 1
    return counts


def gather(a, idx):
    out = np.zeros(idx.shape[0])
    for k in range(idx.shape[0]):
        out[k] = a[idx[k]]
    return out


def scatter_rows(m, rows, cols):
    for k in range(rows.shape[0]):
        m[rows[k], cols[k]] += 1.0
    return m


def truncate(x):
    out = np.zeros(x.shape[0], dtype=np.int64)
    for i in range(x.shape[0]):
        out[i] = int(x[i])
    return out


def index_then_use(a, i):
    """The fixed-up index used after the check, twice."""
    a[i] = a[i] * 2.0 + 1.0
    return a[i]
