"""Array functions compared with NumPy/CPython by tests/test_arrays.py."""

import numpy as np

import script


def total(a):
    s = 0.0
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            s += a[i, j]
    return s


def total_1d(a):
    s = 0
    for x in a:
        s += x
    return s


def scale_inplace(a, k):
    for i in range(len(a)):
        a[i] *= k


def stencil(a: script.f64[:, :], out: script.f64[:, :]):
    for i in range(1, a.shape[0] - 1):
        for j in range(1, a.shape[1] - 1):
            out[i, j] = 0.25 * (a[i - 1, j] + a[i + 1, j] + a[i, j - 1] + a[i, j + 1])


def get(a, i):
    return a[i]


def get2(a, i, j):
    return a[i, j]


def put(a, i, v):
    a[i] = v


def attrs(a):
    return a.shape, a.ndim, a.size, len(a), a.strides, a.itemsize


def argmax_1d(a):
    best = 0
    for i in range(1, len(a)):
        if a[i] > a[best]:
            best = i
    return best


def prefix_sum(a, out):
    acc = 0.0
    for i in range(len(a)):
        acc += a[i]
        out[i] = acc
    return out


def dot(a, b):
    s = 0.0
    for i in range(len(a)):
        s += a[i] * b[i]
    return s


def count_true(mask):
    n = 0
    for m in mask:
        if m:
            n += 1
    return n


def matvec(m, v, out):
    for i in range(m.shape[0]):
        acc = 0.0
        for j in range(m.shape[1]):
            acc += m[i, j] * v[j]
        out[i] = acc


def returns_arg(a):
    a[0] = 1
    return a


def slices(a):
    return a[1:-1].shape[0], a[::2][1], a[::-1][0], a[-3:][0], a[5:2].shape[0], a[2:100:3].shape[0]


def constant_slices(a):
    """Slices with constant bounds and step 1, start >= 0 and stop < 0 or absent (computed
    as ``max(n + stop - start, 0)``), on lengths shorter than the bounds too."""
    return (a[1:-1].shape[0], a[1:-1].sum(), a[2:].shape[0], a[:-2].sum(), a[5:-1].shape[0],
            a[0:-7].shape[0], a[3:-3:1].sum(), a[2:].strides[0], a[:].shape[0], a[:-1][-1:].sum())


def constant_slices_2d(m):
    """The stencil's slices, whose equal lengths make their sum an expression that never
    broadcasts, and a store through them."""
    out = m.copy()
    out[1:-1, 1:-1] = m[:-2, 1:-1] + m[2:, 1:-1] + m[1:-1, :-2] + m[1:-1, 2:]
    return out, m[1:, :-1].shape, m[4:, 1:-5].shape


def constant_list_and_str_slices(xs, s):
    return xs[1:-1], xs[2:], xs[:-3], xs[6:-1], s[1:-1], s[3:], s[:-4], s[2:-2:1]


def row_sum(m, i):
    s = 0.0
    for x in m[i]:
        s += x
    return s


def column(m, j):
    c = m[:, j]
    return c[0] + c[len(c) - 1]


def fill_slices(a, v):
    a[2:5] = v
    a[::3] = -1


def copy_row(m, out, i):
    out[i, :] = m[0]
    out[i - 1] = m[1, ::-1]


def inner_sum(a):
    return total_1d(a[1:-1])


def return_view(a):
    return a[1:]


def enumerate_zip(a, b):
    s = 0.0
    for i, x in enumerate(a):
        s += i * x
    for x, y in zip(a, b):
        s -= x * y
    for k, (x, y) in enumerate(zip(a, b), 1):
        s += k * (x - y)
    for i, j in zip(range(len(a)), range(10, 0, -3)):
        s += i * j
    return s


def rows(m):
    t = 0.0
    for r in m:
        for x in r:
            t += x
    return t


def transposed(m):
    t = m.T
    return t.shape, t[1, 0], t[0, -1], total(t)


def any_array(a: np.ndarray, k: int) -> float:
    return a[k] * 2.0


def reductions(a):
    return sum(a), min(a), max(a), sum(a, 10), sum(range(len(a))), min(range(3, 9)), max(a[::2])


def sum_bools(mask):
    return sum(mask), sum(range(5), 0.5)


def slice_runtime_step(a, lo, hi, st):
    return a[lo:hi:st].copy()


def dtype_branch(a, b):
    if a.dtype == np.float64:
        return 1
    if a.dtype != b.dtype:
        return 2
    return 3


def tuple_of_arrays_arg(p, k):
    a, b = p
    a[k] = b[k] * 2
    return a[k]


def write_through_view(a):
    a[1:] = 0.0


def new_axes(X, C):
    d = X[:, None, :] - C[None, :, :]
    return (d * d).sum(axis=2), X[..., 0], X[np.newaxis].shape[0], X[0, ...]


def outer_by_broadcast(x):
    return x[:, None] * x[None, :]
