"""np.roll, np.diag, np.array_equal (tests/test_gaps_numpy.py)."""

import numpy as np


def roll_flat(a, s):
    return np.roll(a, s)


def roll_axes(a, s):
    return np.roll(a, s, axis=0), np.roll(a, s, 1), np.roll(a, shift=s, axis=-1)


def roll_vector(a, s):
    return np.roll(a, s, 0), np.roll(a, s, axis=-1)


def diag_of_vector(v, k):
    return np.diag(v), np.diag(v, k), np.diag(v, k=-k)


def diag_of_matrix(m, k):
    return np.diag(m), np.diag(m, k), np.diag(m, k=-k)


def equal(a, b):
    return np.array_equal(a, b), np.array_equal(a, a), np.array_equal(a, b[:1])
