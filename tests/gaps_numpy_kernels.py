"""np.roll, np.diag, np.array_equal, np.kron, a.flat, np.ndenumerate (tests/test_gaps_numpy.py)."""

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


def kron(a, b):
    return np.kron(a, b)


def flat_items(a):
    out = []
    for x in a.flat:
        out.append(x)
    return out


def flat_with_others(a):
    """a.flat inside enumerate, zip and a comprehension."""
    pairs = [(i, x) for i, x in enumerate(a.flat)]
    both = [(x, y) for x, y in zip(a.flat, a.T.flat)]
    return pairs, both


def flat_read(a, i):
    return a.flat[i], a.flat[0]


def ndenumerate_items(a):
    out = []
    for idx, x in np.ndenumerate(a):
        out.append((idx, x))
    return out


# Forms that must not compile (test_flat_errors): each error names its own line.

def flat_write(a):
    a.flat[0] = 1.0


def flat_aug(a):
    a.flat[0] += 1.0


def flat_bind(a):
    g = a.flat
    return g[0]


def flat_slice(a):
    return a.flat[1:3]


def ndenumerate_scalar(x):
    for i, v in np.ndenumerate(x):
        pass


def lists_as_arrays(xs, ys):
    # NumPy's functions take lists of numbers as arrays (array_like)
    m = [xs, ys]
    return (np.dot(xs, ys), np.matmul(m, [ys, xs]), np.cumsum(xs), np.cumprod(ys),
            np.zeros_like(xs), np.ones_like(m), np.nansum(xs), np.array(xs).dot(ys))
