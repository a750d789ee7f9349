"""Element-wise array expressions against NumPy: dtypes, broadcasting, NumPy's scalar
semantics, in-place forms, fusion into one loop."""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import alloc_kernels as K
import script
from difftest import check_all_levels, compiled

DTYPES = [np.float64, np.float32, np.int64, np.int32, np.int8, np.uint16, np.uint64]


def arrays(dtype, shape, rng):
    if np.dtype(dtype).kind == "f":
        a = rng.normal(0, 3, size=shape).astype(dtype)
        a.flat[::5] = 0
        return a
    info = np.iinfo(dtype)
    return rng.integers(max(info.min, -9), min(info.max, 9), size=shape, endpoint=True).astype(dtype)


@pytest.mark.parametrize("dtype", DTYPES)
@settings(max_examples=8, deadline=None)
@given(st.integers(0, 6), st.integers(0, 2**32 - 1))
def test_binary_ops_match_numpy(dtype, n, seed):
    rng = np.random.default_rng(seed)
    a, b = arrays(dtype, n, rng), arrays(dtype, n, rng)
    check_all_levels(K.ew_add, a, b)
    check_all_levels(K.ew_mixed, a, b)
    check_all_levels(K.ew_int_ops, a, b)
    check_all_levels(K.ew_cmp, a, b)
    check_all_levels(K.ew_minmax, a, b)
    check_all_levels(K.ew_where_int, a, b)
    check_all_levels(K.ew_unary, a) if np.dtype(dtype).kind != "u" else None
    check_all_levels(K.ew_square, a)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_float_ufuncs(dtype):
    a = np.array([-2.5, -1.0, -0.0, 0.0, 0.3, 1.0, 7.5, np.nan, np.inf, -np.inf], dtype)
    check_all_levels(K.ew_ufuncs, a, approx=True)
    check_all_levels(K.ew_where, a)
    check_all_levels(K.ew_clip, a)
    check_all_levels(K.ew_minmax, a, a[::-1])
    check_all_levels(K.ew_power, a, a[::-1])
    check_all_levels(K.ew_f32, a)


def test_int_power_and_its_error():
    a = np.arange(-3, 4)
    check_all_levels(K.ew_power, a, np.abs(a))
    check_all_levels(K.ew_power, a, a)          # negative exponents: ValueError


def test_weak_scalars_keep_the_array_dtype():
    a = np.arange(5, dtype=np.int32)
    check_all_levels(K.ew_i32_scalar, a)
    check_all_levels(K.ew_f32, np.arange(4, dtype=np.float32))
    assert compiled(K.ew_f32)(np.arange(4, dtype=np.float32)).dtype == np.float32


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 4), st.integers(0, 4), st.booleans(), st.booleans())
def test_broadcasting(n, m, row_one, col_one):
    rng = np.random.default_rng(n * 10 + m)
    mat = rng.random((n, m))
    v = rng.random(1 if row_one else m)
    c = rng.random((1 if col_one else n, 1))
    check_all_levels(K.ew_broadcast, mat, v)
    check_all_levels(K.ew_broadcast_col, mat, c)
    check_all_levels(K.ew_broadcast, mat.T, rng.random(n))


def test_broadcast_errors():
    check_all_levels(K.ew_add, np.zeros(3), np.zeros(4))
    check_all_levels(K.ew_broadcast, np.zeros((2, 3)), np.zeros(4))
    check_all_levels(K.ew_slice_assign, np.zeros((3, 2)), np.zeros(4), np.zeros(4))


def test_in_place_and_slices():
    rng = np.random.default_rng(3)
    a, b = rng.random(6), rng.random(6)
    check_all_levels(K.ew_inplace, a, b)
    check_all_levels(K.ew_inplace, a[::2], b[1::2])
    check_all_levels(K.ew_inplace_slice, a, b)
    check_all_levels(K.ew_inplace, np.arange(6), np.arange(6))
    check_all_levels(K.ew_slice_assign, np.zeros((4, 2)), np.arange(4.0), np.arange(4.0))
    check_all_levels(K.ew_overlap, np.arange(6.0))


def test_in_place_cast_rule():
    from script.errors import CompileError
    with pytest.raises(CompileError, match="same_kind"):
        compiled(K.ew_inplace)(np.arange(3), np.arange(3.0))


def test_views_and_layouts():
    m = np.arange(12.0).reshape(3, 4)
    check_all_levels(K.ew_add, m, m.T.T)
    check_all_levels(K.ew_add, m[:, ::2], m[:, 1::2])
    check_all_levels(K.ew_chain, m.T, m.T, np.arange(3.0), approx=True)


def test_loops_and_scalars():
    check_all_levels(K.ew_in_loop, 50, np.linspace(-1, 1, 7), approx=True)
    check_all_levels(K.ew_scalar_ufunc, 2.25)
    check_all_levels(K.ew_bool_arith, np.array([True, False, True]), np.array([True, True, False]))


def test_one_loop_no_temporaries():
    """A whole expression makes one array (no temporaries); two statements make two."""
    x = np.arange(4.0)
    for fn, allocs in ((K.ew_mixed, 1), (K.ew_chain, 2), (K.ew_slice_assign, 0)):
        f = script.script(fn)
        f(np.zeros((4, 2)), x, x) if fn is K.ew_slice_assign else f(x, x) if fn is K.ew_mixed else f(x, x, x)
        assert f.ir("opt").count("= alloc") == allocs, f.ir("opt")
