"""Backend specifics of NumPy array arguments: the array struct, entry-point matching and
unboxing, read-only arrays, reference counts, arrays through block parameters and calls,
vectorization of C-contiguous loops."""

import re
import sys

import numpy as np
import pytest

import script

DTYPES = [np.bool_, np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64,
          np.uint64, np.float32, np.float64]


def get1(a, i):
    return a[i]


def get2(a, i, j):
    return a[i, j]


def get3(a, i, j, k):
    return a[i, j, k]


def put1(a, i, v):
    a[i] = v


def total2(a):
    s = 0.0
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            s += a[i, j]
    return s


def total3(a):
    s = 0.0
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            for k in range(a.shape[2]):
                s += a[i, j, k]
    return s


def strides_of(a):
    return a.shape, a.strides


def ident(a):
    return a


def pair(a, b):
    return a, b


def pick(a, b, c):
    x = a
    if c:
        x = b
    return x[0] + x[len(x) - 1]


def sum_loop_picked(a, b, n):
    s = 0.0
    x = a
    for k in range(n):
        s += x[0]
        x = b
    return s


def helper_total(a):
    s = 0.0
    for x in a:
        s += x
    return s


def helper_fill(a, v):
    for i in range(len(a)):
        a[i] = v
    return a


def calls_helpers(a, v):
    helper_fill(a, v)
    return helper_total(a)


def returns_through_helper(a):
    return helper_fill(a, 2.0)


def rec_sum(a, n):
    if n == 0:
        return 0.0
    return a[n - 1] + rec_sum(a, n - 1)


def axpy(alpha, x, y):
    for i in range(len(x)):
        y[i] += alpha * x[i]


def dot(x, y):
    s = 0.0
    for i in range(len(x)):
        s += x[i] * y[i]
    return s


def isum(a):
    s = 0
    for i in range(len(a)):
        s += a[i]
    return s


@pytest.mark.parametrize("dtype", DTYPES)
def test_every_dtype_load_and_store(dtype):
    a = (np.arange(7) % 3).astype(dtype)
    g = script.script(get1)
    for i in range(7):
        got = g(a, i)
        assert got == a[i]
        if dtype is np.bool_:
            assert type(got) is bool
    p = script.script(put1)
    b = np.zeros(7, dtype)
    p(b, 3, 1)
    p(b, -1, 1)
    want = np.zeros(7, dtype)
    want[3] = want[-1] = 1
    np.testing.assert_array_equal(b, want)
    assert b.view(np.uint8).max() <= 1 or dtype is not np.bool_


def test_bool_store_writes_one_byte():
    a = np.zeros(4, np.bool_)
    script.script(put1)(a, 1, True)
    assert list(a.view(np.uint8)) == [0, 1, 0, 0]


@pytest.mark.parametrize("make", [
    lambda b: b, lambda b: b[::-1], lambda b: b[::2], lambda b: b[::-3],
    lambda b: np.asfortranarray(b), lambda b: b.T, lambda b: b[1:, ::-2],
])
def test_2d_layouts(make):
    a = make(np.arange(48.0).reshape(6, 8))
    assert script.script(total2)(a) == a.sum()
    g = script.script(get2)
    for i in range(a.shape[0]):
        for j in range(a.shape[1]):
            assert g(a, i, j) == a[i, j]
    assert script.script(strides_of)(a) == (a.shape, a.strides)


def test_1d_and_3d_views():
    base = np.arange(60.0).reshape(3, 4, 5)
    f = script.script(total3)
    g = script.script(get3)
    for a in (base, base[::-1, :, ::2], base.transpose(2, 0, 1), np.asfortranarray(base)):
        assert f(a) == a.sum()
        assert g(a, 1, -1, 2) == a[1, -1, 2]
    x = np.arange(10.0)
    g1 = script.script(get1)
    for v in (x, x[::-1], x[1::3]):
        assert [g1(v, i) for i in range(len(v))] == list(v)
    assert g1(x[::-1], 0) == 9.0


def test_negative_stride_store():
    x = np.zeros(6)
    script.script(put1)(x[::-2], 0, 7.0)
    assert x[5] == 7.0 and x.sum() == 7.0


def test_c_and_any_layout_specializations():
    f = script.script(total2)
    a = np.arange(12.0).reshape(3, 4)
    f(a)
    f(a.T)
    assert set(f.signatures) == {"(f64[:,::1]) -> float", "(f64[:,:]) -> float"} or \
        len(f.signatures) == 2


def test_read_only_is_an_error_only_where_written():
    a = np.arange(4.0)
    a.flags.writeable = False
    with pytest.raises(ValueError, match="assignment destination is read-only"):
        script.script(put1)(a, 0, 1.0)
    assert a[0] == 0.0
    assert script.script(get1)(a, 2) == 2.0
    with pytest.raises(ValueError, match="read-only"):
        script.script(calls_helpers)(a, 1.0)      # written in a callee
    assert a.sum() == 6.0


def test_mismatches_go_to_the_fallback():
    f = script.script(get1)
    a = np.arange(5.0)
    assert f(a, 1) == 1.0
    assert f(a.astype(np.int32), 2) == 2                  # another dtype: a new specialization
    with pytest.raises(TypeError):
        f(a.astype(">f8"), 1)                             # byte-swapped: not compiled
    with pytest.raises(TypeError):
        f(a.astype(np.float16), 1)                        # float16: not supported
    assert len(f.signatures) == 2


def test_entry_rejects_wrong_rank_dtype_order_and_layout():
    """Call a single specialization directly: each kind of mismatch reaches the fallback."""
    f = script.script(total2)
    c = np.arange(6.0).reshape(2, 3)
    assert f(c) == 15.0
    assert f(np.asfortranarray(c)) == 15.0                # not C: another specialization
    assert f(c.astype(np.float32)) == 15.0                # another dtype: another one
    with pytest.raises(TypeError):
        f(c.astype(">f8"))
    with pytest.raises(IndexError, match="tuple index out of range"):
        f(np.arange(3.0))                                 # 1-d: a.shape[1], as CPython raises it


def test_unaligned_array_is_not_matched():
    buf = np.zeros(8 * 5 + 1, np.uint8)[1:]
    a = buf.view(np.float64)
    assert not a.flags.aligned
    f = script.script(get1)
    f(np.zeros(3), 0)
    with pytest.raises(TypeError):
        f(a, 0)


def test_refcount_unchanged_and_identity():
    a = np.arange(5.0)
    g, r = script.script(get1), script.script(ident)
    g(a, 0), r(a)
    before = sys.getrefcount(a)
    for _ in range(10_000):
        g(a, 1)
    assert sys.getrefcount(a) == before
    for _ in range(10_000):
        assert r(a) is a
    assert sys.getrefcount(a) == before
    b = np.ones(2)
    t = script.script(pair)(a, b)
    assert t[0] is a and t[1] is b
    del t
    assert sys.getrefcount(a) == before


def test_arrays_through_block_params_and_selects():
    a, b = np.arange(4.0), np.arange(10.0, 13.0)
    f = script.script(pick)
    assert f(a, b, False) == 3.0 and f(a, b, True) == 22.0
    assert f(a, b[::-1], True) == 22.0                  # C with any layout: unified
    g = script.script(sum_loop_picked)
    assert g(a, b, 3) == 0.0 + 10.0 + 10.0


def test_arrays_through_calls_and_recursion():
    a = np.zeros(5)
    assert script.script(calls_helpers)(a, 1.5) == 7.5
    assert (a == 1.5).all()
    b = np.zeros(3)
    assert script.script(returns_through_helper)(b) is b and (b == 2.0).all()
    x = np.arange(6.0)
    assert script.script(rec_sum)(x, 6) == 15.0
    assert script.script(rec_sum)(x[::-1], 6) == 15.0


def test_contiguous_loops_vectorize():
    """axpy and an int sum over C arrays use packed instructions on wide registers (a float
    sum keeps Python's order of additions, so it is not vectorized: no reassociation)."""
    x, y = np.arange(64.0), np.ones(64)
    for fn, args, pattern in ((axpy, (2.0, x, y), r"v(mul|add|fmadd\w*)pd"),
                              (isum, (np.arange(64),), r"vpaddq")):
        f = script.script(fn)
        f(*args)
        kernel = f.ir("asm").split("script.entry")[0]     # the library, not the entry point
        assert re.search(rf"^\s+{pattern}\s.*%[yz]mm", kernel, re.M), fn.__name__
    np.testing.assert_array_equal(y, 1 + 2 * x)
    assert script.script(dot)(x, y) == float(np.dot(x, y))
