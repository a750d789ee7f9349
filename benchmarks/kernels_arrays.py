"""Array benchmark kernels, written once in plain Python with NumPy.

Each kind has two versions: `<kind>` as a NumPy user writes it (np.dot, @, slicing, an
element-wise expression) and `<kind>_loop` as explicit loops. benchmarks/arrays.py compiles
both with script (bounds checks on and off) and with Numba, and compares them with NumPy
itself and with C (c/<kind>.c, the loops). This file imports only NumPy: script, Numba and
CPython all load it.
"""

import numpy as np


def dot(a, b):
    """np.dot of two vectors (script: numpy_kernels.dot_1d)."""
    return np.dot(a, b)


def matmul(a, b):
    """a @ b of two matrices (script: numpy_kernels.matmul, i-k-j order)."""
    return a @ b


def dot_loop(a, b):
    """The same product as an explicit loop, one sum in order."""
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i] * b[i]
    return s


def matmul_loop(a, b):
    """The same matrix product as explicit i-k-j loops over a new zeroed array."""
    out = np.zeros((a.shape[0], b.shape[1]))
    for i in range(a.shape[0]):
        for k in range(a.shape[1]):
            aik = a[i, k]
            for j in range(b.shape[1]):
                out[i, j] += aik * b[k, j]
    return out


def stencil(a):
    """A 5-point average of the interior, the edges copied (NumPy: one slice expression)."""
    r = a.copy()
    r[1:-1, 1:-1] = 0.25 * (a[:-2, 1:-1] + a[2:, 1:-1] + a[1:-1, :-2] + a[1:-1, 2:])
    return r


def stencil_loop(a):
    r = np.empty_like(a)
    r[:, :] = a
    for i in range(1, a.shape[0] - 1):
        for j in range(1, a.shape[1] - 1):
            r[i, j] = 0.25 * (a[i - 1, j] + a[i + 1, j] + a[i, j - 1] + a[i, j + 1])
    return r


def expr(a, b):
    """An element-wise expression (NumPy makes a temporary per operator; script one loop)."""
    return a * 2.0 - b / 3.0 + 1.0


def expr_loop(a, b):
    out = np.empty_like(a)
    for i in range(a.shape[0]):
        out[i] = a[i] * 2.0 - b[i] / 3.0 + 1.0
    return out


def rnn(xs, w, u, b):
    """The RNN time loop of the arrays issue: matvecs and a fused element-wise update."""
    h = np.zeros(w.shape[0])
    out = np.empty((xs.shape[0], w.shape[0]))
    for t in range(xs.shape[0]):
        h = np.tanh(w @ xs[t] + u @ h + b)
        out[t, :] = h
    return out


def rnn_loop(xs, w, u, b):
    n = w.shape[0]
    h = np.zeros(n)
    hn = np.empty(n)
    out = np.empty((xs.shape[0], n))
    for t in range(xs.shape[0]):
        for i in range(n):
            s = b[i]
            for k in range(w.shape[1]):
                s += w[i, k] * xs[t, k]
            for k in range(n):
                s += u[i, k] * h[k]
            hn[i] = np.tanh(s)
        for i in range(n):
            h[i] = hn[i]
            out[t, i] = hn[i]
    return out


KINDS = ("dot", "matmul", "stencil", "expr", "rnn")
SIZES = {"dot": {"full": (1_000_000,), "quick": (10_000,)},
         "matmul": {"full": (200, 200, 200), "quick": (40, 40, 40)},
         "stencil": {"full": (1000, 1000), "quick": (100, 100)},
         "expr": {"full": (1_000_000,), "quick": (10_000,)},
         "rnn": {"full": (200, 32, 64), "quick": (20, 8, 16)}}


def arguments(kind: str, size: str):
    """The operands of the `kind` benchmark, the same in every process."""
    rng = np.random.default_rng(42)
    shape = SIZES[kind][size]
    if kind in ("dot", "expr"):
        return rng.random(shape[0]), rng.random(shape[0])
    if kind == "matmul":
        n, k, m = shape
        return rng.random((n, k)), rng.random((k, m))
    if kind == "stencil":
        return (rng.random(shape),)
    steps, n_in, n = shape
    scale = 1.0 / np.sqrt(n)
    return (rng.random((steps, n_in)), rng.normal(0, scale, (n, n_in)), rng.normal(0, scale, (n, n)),
            rng.normal(0, 0.1, n))
