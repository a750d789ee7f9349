"""Array examples for `python -m script demo`: NumPy code as users write it."""

import numpy as np


def smooth(a):
    """A 5-point average of the interior of a grid, the edges kept."""
    r = a.copy()
    r[1:-1, 1:-1] = 0.25 * (a[:-2, 1:-1] + a[2:, 1:-1] + a[1:-1, :-2] + a[1:-1, 2:])
    return r


def rnn(xs, w, u, b):
    """A recurrent layer's time loop: matrix-vector products and a fused update."""
    h = np.zeros(w.shape[0])
    out = np.empty((xs.shape[0], w.shape[0]))
    for t in range(xs.shape[0]):
        h = np.tanh(w @ xs[t] + u @ h + b)
        out[t, :] = h
    return out


def standardize(x):
    """Each column to mean 0 and standard deviation 1."""
    return (x - x.mean(axis=0)) / x.std(axis=0)


def arguments():
    rng = np.random.default_rng(0)
    return {
        "smooth": (rng.random((500, 500)),),
        "rnn": (rng.random((100, 16)), rng.normal(0, 0.2, (32, 16)), rng.normal(0, 0.2, (32, 32)),
                rng.normal(0, 0.1, 32)),
        "standardize": (rng.random((2000, 8)),),
    }
