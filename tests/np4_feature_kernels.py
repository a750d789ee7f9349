"""Kernels of the NumPy forms the fourth corpus needed (tests/test_np4_features.py)."""

import contextlib
import numpy as np


def quantiles_axis(m, q):
    return np.percentile(m, q * 100.0, axis=0), np.quantile(m, q, axis=1), np.quantile(m, q[None, :], axis=0)


def quantiles_vector(a, q):
    return np.percentile(a, q * 100.0, axis=0), np.quantile(a, q, axis=-1)


def take_along(m):
    return (np.take_along_axis(m, np.argsort(m, axis=1), axis=1), np.take_along_axis(m, np.argsort(m, axis=0), axis=0),
            np.take_along_axis(m, m.argmax(axis=1)[:, None], axis=1), np.take_along_axis(m[0], np.argsort(m[0]), 0),
            np.take_along_axis(m, np.argsort(m, axis=None), None))


def take_along_bad(m, idx):
    return np.take_along_axis(m, idx, axis=1)


def put_along(m, v):
    out = m.copy()
    np.put_along_axis(out, out.argmin(axis=0)[None, :], v, axis=0)
    np.put_along_axis(out, out.argmax(axis=1)[:, None], -v, axis=1)
    return out


def ix_mesh(m, rows, cols):
    return m[np.ix_(rows, cols)], m[np.ix_(rows >= 1, cols)]


def ix_write(m, rows, cols):
    out = m.copy()
    out[np.ix_(rows, cols)] = 0.0
    return out


def ix_3(v, a, b, c):
    return v[np.ix_(a, b, c)]


def squeezes(m):
    return np.squeeze(m[:, :1], axis=1), m[:1].squeeze(axis=0), np.squeeze(m[None], 0), np.squeeze(m[:, None], axis=-2)


def squeeze_bad(m):
    return np.squeeze(m, axis=0)


def index_grid(h, w):
    return np.indices((h, w))


def lexsorts(a, b, c):
    return np.lexsort((a, b, c)), np.lexsort((b,)), np.lexsort((c, a)), np.lexsort(np.vstack((a, b)))


def lexsort_bad(a, b):
    return np.lexsort((a, b))


def gradients_1d(f, dx):
    return np.gradient(f), np.gradient(f, dx), np.gradient(f, axis=0)


def gradient_coords(f, x):
    return np.gradient(f, x)


def gradients_2d(f, dy, dx):
    return np.gradient(f), np.gradient(f, dx), np.gradient(f, dy, dx), np.gradient(f, axis=1), np.gradient(f, dx, axis=0)


def polyders(p, m):
    return np.polyder(p), np.polyder(p, m)


def ufunc_out(a, b):
    c = np.empty_like(a)
    np.add(a, b, out=c)
    np.multiply(c, 2.0, out=c)
    np.sqrt(np.abs(c), c)
    r = np.subtract(a, b[0], out=(c,))
    return c, r


def ufunc_out_views(m):
    m = m.copy()            # (run twice on a written argument, maximum(-0.0, 0.0) could be either zero)
    np.negative(m[:, 0], out=m[:, 1])
    np.maximum(m, 0.0, out=m)
    return m


def ufunc_out_shape(a, b, n):
    c = np.zeros(n)
    np.add(a, b, out=c)
    return c


def ufunc_out_cast(a):
    np.add(a, 1.5, out=a)
    return a


def selects(x):
    return (np.select([x < 0, x < 1], [-x, x ** 2], default=1.0), np.select([x < 0, x > 1], [-1, 1]),
            np.select((x < 0,), (x.astype(np.float32),), 0), np.select([x > 0], [x]))


def select_2d(m, v):
    return np.select([m > 0, m < -1], [m, v[None, :]], default=np.nan)


def select_int_condition(x):
    return np.select([x], [x])


def select_lengths(x):
    return np.select([x > 0, x < 0], [x])


def squeeze_no_axis(m):
    return np.squeeze(m)


def ufunc_at(n, idx, vals):
    out = np.zeros(n)
    np.add.at(out, idx, vals)
    np.subtract.at(out, idx, 0.5)
    np.maximum.at(out, idx[:2], 100.0)
    np.multiply.at(out, 0, 3.0)
    np.minimum.at(out, [1, 1], -1.0)
    return out


def ufunc_outer(a, b):
    return np.add.outer(a, b), np.subtract.outer(a, b) > 0, np.maximum.outer(b, a), np.hypot.outer(a, b)


def ufunc_outer_ints(a, b):
    return np.multiply.outer(a, b), np.add.outer([1, 2], 3), np.add.outer(2, 3.5)


def ufunc_at_rows(m, idx, row):
    out = m.copy()
    np.add.at(out, idx, row)
    np.add.at(out, idx, 1)
    np.minimum.at(out, [0, 1], m[:2])
    return out


def ufunc_at_int(a, idx):
    np.add.at(a, idx, 1)
    return a


def ufunc_at_cast(a, idx):
    np.add.at(a, idx, 1.5)
    return a


def norms_keepdims(m):
    return (np.linalg.norm(m, axis=1, keepdims=True), np.linalg.norm(m, axis=0, keepdims=True),
            np.linalg.norm(m, keepdims=True), np.linalg.norm(m[0], keepdims=True),
            np.linalg.norm(m, ord=1, axis=1, keepdims=True), np.linalg.norm(m, keepdims=False))


def binomials(n, p, size, seed):
    rng = np.random.default_rng(seed)
    return rng.binomial(n, p, size=size), rng.binomial(n, p)


def binomial_matrix(n, p, seed):
    rng = np.random.default_rng(seed)
    return rng.binomial(n, p, (3, 4))


def int_rounding(a, b):
    return np.floor(a), np.ceil(a), np.trunc(a), np.fmod(a, b), np.fmod(a, 3)


def int_rounding_scalars(x, y):
    return np.floor(x), np.ceil(x), np.trunc(x), np.fmod(x, y), np.fmod(True, y)


def splits(x, k):
    a, b = np.split(x, 2)
    parts = np.array_split(x, k)
    total = 0.0
    for p in parts:
        total += p.sum()
    return a - b, len(parts), parts[0], parts[-1], total, np.split(x, [2, 5, 30])[1], np.split(x, np.array([1]))[0]


def split_bad(x, k):
    return np.split(x, k)


def array_split_bad(x, k):
    return np.array_split(x, k)


def splits_2d(m):
    left, right = np.hsplit(m, 2)
    top = np.vsplit(m, np.array([1]))
    return left + right, top[0], top[1], np.array_split(m, 3, axis=1)[2], np.split(m, 1, axis=0)[0]


def split_writes_through(x):
    parts = np.split(x, 2)
    parts[1][0] = -1.0
    return x


def windows(x, w):
    v = np.lib.stride_tricks.sliding_window_view(x, w)
    return v, v.mean(axis=1)


def windows_2d(m, w):
    return (np.lib.stride_tricks.sliding_window_view(m, w, axis=1),
            np.lib.stride_tricks.sliding_window_view(m, w, axis=0))


def inf_signs(x):
    return np.isposinf(x), np.isneginf(x)


def stacked_matmul(a, b):
    return a @ b, np.matmul(a, b)


def stacked_dot(a, b):
    return np.dot(a, b)


def legacy_binomials(n, p, size, seed):
    np.random.seed(seed)
    a = np.random.binomial(n, p, size)
    return a, np.random.binomial(n, p), np.random.binomial(n, p, (2, 3))


def mgrids(n, m):
    return np.mgrid[0:n, 0:m], np.mgrid[0:n:2, 1:m], np.mgrid[0.5:3, 0:4], np.mgrid[0:n], np.mgrid[3:0:-1]


def mgrid_points(n, a, b):
    return np.mgrid[a:b:n * 1j, 0:2:complex(0, n)], np.mgrid[a:b:5j], np.mgrid[-1:1:5j, 0:2:3j]


def ogrid_disk(n, m, r):
    y, x = np.ogrid[0:n, 0:m]
    return (x - m / 2) ** 2 + (y - n / 2) ** 2 < r * r, y, x


def mgrid_zero_step(n):
    return np.mgrid[0:n:0]


def set_parts(n, re, im):
    z = np.zeros(n, dtype=np.complex128)
    z.real = re
    z.imag = -im * 0.5
    w = np.ones((2, n), dtype=np.complex64)
    w.imag = re
    x = np.zeros(n)
    x.real = im
    return z, w, x


def set_imag_of_real(x):
    x.imag = 1.0
    return x


def churn(x, m, idx, rounds):
    """Every new form in a loop: run many times, memory must not grow (no buffer leaks)."""
    total = 0.0
    for _ in range(rounds):
        parts = np.split(x, 2)
        total += parts[0][0] + np.gradient(x)[0]
        c = np.empty_like(x)
        np.add(x, x, out=c)
        out = np.zeros(4)
        np.add.at(out, idx, 1.0)
        total += c[0] + out[0] + np.select([x > 0], [x], default=0.0)[0]
        grid = np.mgrid[0:3, 0:4]
        t = np.take_along_axis(m, np.argsort(m, axis=1), axis=1)
        w = np.lib.stride_tricks.sliding_window_view(x, 2)
        q = np.percentile(m, [25.0, 75.0], axis=0)
        s = m[None] @ m.T
        total += grid[1, 0, 1] + t[0, 0] + w[0, 0] + q[0, 0] + s[0, 0, 0] + m[np.ix_(idx[:2], idx[:1])][0, 0]
        total += np.squeeze(m[:, :1], axis=1)[0] + np.linalg.norm(m, axis=1, keepdims=True)[0, 0]
    return total


def along_axis(m):
    return (np.apply_along_axis(np.sum, 1, m), np.apply_along_axis(np.sum, 0, m),
            np.apply_along_axis(lambda r: r.max() - r.min(), 1, m), np.apply_along_axis(np.sort, 1, m),
            np.apply_along_axis(lambda c: c * 2, 0, m), np.apply_along_axis(np.mean, -1, m),
            np.apply_along_axis(np.cumsum, 0, m[0]))


def swapped(m, v):
    m2 = m.copy()
    m2[np.diag_indices(min(m.shape))] = -1.0
    return (np.swapaxes(m, 0, 1), np.moveaxis(m, 0, -1), np.swapaxes(v, 0, -1), np.moveaxis(m, 1, 1), m2,
            np.diag_indices(3)[1])


def safe_ratio(a, b):
    with np.errstate(divide="ignore", invalid="ignore"):
        r = a / b
        r[~np.isfinite(r)] = 0.0
    return r


def with_other_context(path):
    with contextlib.suppress(OSError):
        return len(path)
