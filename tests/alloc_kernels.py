"""Functions that make arrays in compiled code (allocation, element-wise expressions); each
runs in CPython with NumPy and compiled, and the results must agree."""

import numpy as np


def zeros_2d(n, m):
    return np.zeros((n, m))


def ones_int(n):
    return np.ones(n, dtype=np.int32)


def full_like_fill(a, v):
    r = np.full_like(a, v)
    return r


def full_default(n, v):
    return np.full((n, 2), v)


def empty_then_fill(a):
    r = np.empty_like(a)
    for i in range(a.shape[0]):
        r[i] = a[i] * 2
    return r


def zeros_like_dtype(a):
    return np.zeros_like(a, dtype=np.float32)


def arange_1(n):
    return np.arange(n)


def arange_3(a, b, c):
    return np.arange(a, b, c)


def arange_float(a, b, c):
    return np.arange(a, b, c)


def linspace_(a, b, n):
    return np.linspace(a, b, n)


def linspace_open(a, b, n):
    return np.linspace(a, b, n, endpoint=False)


def copy_method(a):
    c = a.copy()
    c[0] = 99
    return c


def np_copy(a):
    return np.copy(a)


def reshape_flat(a):
    return a.reshape(-1)


def reshape_2(a, n):
    return a.reshape((n, -1))


def reshape_view_writes(a):
    b = a.reshape(a.shape[0] * a.shape[1])
    b[0] = 42.0
    return b


def ravel_(a):
    return a.ravel()


def flatten_(a):
    return a.flatten()


def astype_int(a):
    return a.astype(np.int64)


def astype_f32(a):
    return a.astype(np.float32)


def smooth(a):
    r = np.empty_like(a)
    r[:, :] = a
    for i in range(1, a.shape[0] - 1):
        for j in range(1, a.shape[1] - 1):
            r[i, j] = 0.25 * (a[i - 1, j] + a[i + 1, j] + a[i, j - 1] + a[i, j + 1])
    return r


def alloc_in_loop(n):
    s = 0.0
    for k in range(n):
        t = np.ones(8)
        t[k % 8] = k
        s += t[k % 8]
    return s


def alloc_then_raise(n):
    t = np.zeros(n)
    if n > 3:
        raise ValueError("too big")
    return t


def tuple_of_arrays(n):
    a = np.zeros(n)
    b = np.ones(n)
    return a, b


def return_view_of_new(n):
    a = np.arange(n)
    return a[1:]


def negative_shape(n):
    return np.zeros(n)


def reshape_bad(a):
    return a.reshape((4, 4))


def grow(n):
    a = np.zeros(1)
    for k in range(n):
        b = np.zeros(a.shape[0] * 2)
        b[: a.shape[0]] = a
        b[a.shape[0]:] = k
        a = b
    return a


def pick(c, n):
    a = np.zeros(n)
    b = np.ones(n)
    r = a if c else b
    return r


# --- element-wise expressions ------------------------------------------------------------

def ew_add(a, b):
    return a + b


def ew_mixed(a, b):
    return a * 2 - b / 3 + 1


def ew_int_ops(a, b):
    return a // b, a % b, a / b


def ew_cmp(a, b):
    return (a < b) & (a != 0) | ~(b > 2)


def ew_unary(a):
    return -a, abs(a), +a


def ew_ufuncs(a):
    return np.sqrt(np.abs(a)), np.exp(-a * a), np.tanh(a), np.floor(a), np.log1p(np.abs(a))


def ew_minmax(a, b):
    return np.minimum(a, b), np.maximum(a, 0.5), np.fmax(a, b)


def ew_where(a):
    return np.where(a > 0, a, 0.0)


def ew_where_int(a, b):
    return np.where(a > b, a, b)


def ew_clip(a):
    return np.clip(a, -1.0, 1.0)


def ew_power(a, b):
    return a ** b


def ew_square(a):
    return np.square(a) + np.sign(a)


def ew_broadcast(m, v):
    return m * v + v


def ew_broadcast_col(m, c):
    return m - c


def ew_inplace(a, b):
    a += b
    a *= 2
    return a


def ew_inplace_slice(a, b):
    a[1:] += b[1:]
    return a


def ew_slice_assign(out, a, b):
    out[:, 0] = a * b
    return out


def ew_overlap(a):
    a[1:] = a[:-1] + 1
    return a


def ew_f32(a):
    return a * 2.5 + 1


def ew_i32_scalar(a):
    return a + 1, a * 3


def ew_chain(x, w, b):
    h = np.tanh(x * w + b)
    return h * h


def ew_in_loop(n, h):
    for t in range(n):
        h = np.tanh(h * 0.5 + 0.1)
    return h


def ew_scalar_ufunc(x):
    return np.add(x, 1), np.square(x), np.sqrt(x)


def ew_bool_arith(a, b):
    return a & b, a | b, a ^ b, ~a


# --- advanced indexing --------------------------------------------------------------------

def mask_take(a, t):
    return a[a > t]


def mask_put(a, t):
    a[a > t] = 0
    return a


def mask_put_values(a, t):
    b = a[a <= t]
    a[a <= t] = b * 2
    return a


def mask_sum_even(a):
    return a[a % 2 == 0].sum()


def gather(a, idx):
    return a[idx]


def scatter(a, idx, v):
    a[idx] = v
    return a


def scatter_rows(m, idx, v):
    m[idx] = v
    return m


def scatter_cols(m, idx, v):
    m[:, idx] = v
    return m


def scatter_col_of_rows(m, idx, j, v):
    m[idx, j] = v
    return m


def mask_rows(m, mask):
    return m[mask]


def mask_rows_put(m, mask, v):
    m[mask] = v
    return m


def mask_rows_cols(m, mask):
    return m[mask, 1:]


def gather_pairs(m, r, c):
    return m[r, c]


def scatter_pairs(m, r, c, v):
    m[r, c] = v
    return m


def scatter_list(m):
    m[[0, 1, 0]] = 5
    return m

