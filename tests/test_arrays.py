"""NumPy arrays as arguments: indexing, writes seen by the caller, attributes, bounds
checks, views with any strides, read-only arrays."""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from hypothesis.extra import numpy as hnp

import array_kernels as K
import script
from difftest import check_all_levels, compiled

DTYPES = [np.float64, np.float32, np.int64, np.int32, np.int16, np.uint8, np.uint64, np.int8]


def test_sum_of_2d_views_of_every_layout():
    base = np.arange(60.0).reshape(6, 10)
    for a in (base, base.T, base[::2], base[:, ::3], base[1:-1, 2:], np.asfortranarray(base)):
        check_all_levels(K.total, a)


@pytest.mark.parametrize("dtype", DTYPES + [np.bool_])
def test_dtypes(dtype):
    a = (np.arange(10) % 3).astype(dtype)
    check_all_levels(K.total_1d, a)
    check_all_levels(K.get, a, 4)
    check_all_levels(K.argmax_1d, a)


@settings(max_examples=40, deadline=None)
@given(hnp.arrays(np.float64, hnp.array_shapes(min_dims=1, max_dims=1, max_side=20),
                  elements=st.floats(-1e6, 1e6)),
       st.integers(-25, 25))
def test_indexing_and_bounds(a, i):
    check_all_levels(K.get, a, i)
    check_all_levels(K.attrs, a)


@settings(max_examples=30, deadline=None)
@given(st.integers(-6, 6), st.integers(-6, 6))
def test_2d_bounds_messages(i, j):
    a = np.arange(20).reshape(4, 5)
    check_all_levels(K.get2, a, i, j)


def test_writes_are_seen_by_the_caller():
    for dtype in DTYPES:
        a = np.arange(8).astype(dtype)
        want = a.copy()
        K.scale_inplace(want, 3)
        got = a.copy()
        compiled(K.scale_inplace)(got, 3)
        np.testing.assert_array_equal(got, want)
    strided = np.zeros(10)
    compiled(K.put)(strided[::2], -1, 5.0)
    assert strided[8] == 5.0 and strided.sum() == 5.0


def test_store_casts_like_numpy():
    a = np.zeros(3, np.int32)
    compiled(K.put)(a, 1, 2.7)
    b = np.zeros(3, np.int32)
    b[1] = 2.7
    np.testing.assert_array_equal(a, b)


def test_stencil_matches_numpy():
    a = np.random.default_rng(0).random((30, 40))
    out = np.zeros_like(a)
    f = script.script(K.stencil)
    f(a, out)
    want = np.zeros_like(a)
    want[1:-1, 1:-1] = 0.25 * (a[:-2, 1:-1] + a[2:, 1:-1] + a[1:-1, :-2] + a[1:-1, 2:])
    np.testing.assert_allclose(out, want, rtol=0, atol=1e-15)


def test_linear_algebra_loops():
    rng = np.random.default_rng(1)
    m, v = rng.random((7, 5)), rng.random(5)
    out = np.zeros(7)
    compiled(K.matvec)(m, v, out)
    np.testing.assert_allclose(out, m @ v)
    assert compiled(K.dot)(v, v) == pytest.approx(v @ v)
    x = rng.random(9)
    np.testing.assert_allclose(compiled(K.prefix_sum)(x, np.zeros(9)), np.cumsum(x))


def test_bool_arrays():
    mask = np.array([True, False, True, True])
    check_all_levels(K.count_true, mask)


def test_read_only_arrays_cannot_be_written():
    a = np.zeros(4)
    a.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        compiled(K.put)(a, 0, 1.0)
    assert a[0] == 0.0
    assert compiled(K.total_1d)(a) == 0.0       # reading is fine


def test_returning_an_argument_array():
    a = np.zeros(3)
    r = compiled(K.returns_arg)(a)
    assert r is a and a[0] == 1


def test_array_type_errors():
    f = compiled(K.total)
    with pytest.raises(IndexError, match="^tuple index out of range$"):
        K.total(np.zeros(3))               # CPython: a 1-d array's shape[1]
    with pytest.raises(IndexError, match="^tuple index out of range$"):
        f(np.zeros(3))                     # the same error, where CPython raises it
    with pytest.raises(TypeError):
        compiled(K.total_1d)(np.zeros(3, dtype=np.float16))
    with pytest.raises(TypeError):
        compiled(K.total_1d)(np.zeros(3, dtype=">f8"))


def test_annotated_array_parameters():
    f = script.script(K.stencil)
    assert f.ir("ssa") and f.signatures == ["(f64[:,:], f64[:,:]) -> None"]     # the annotations'
    a, out, want = np.arange(9.0, dtype=np.float32).reshape(3, 3), np.zeros((3, 3)), np.zeros((3, 3))
    f(a, out)                       # a hint, as in CPython: float32 elements read as they are
    K.stencil(a, want)
    assert np.array_equal(out, want) and len(f.signatures) == 2


@settings(max_examples=40, deadline=None)
@given(st.integers(6, 30))
def test_slices_and_views(n):
    a = np.arange(float(n))
    check_all_levels(K.slices, a)
    check_all_levels(K.inner_sum, a)
    m = np.arange(float(n * 4)).reshape(n, 4)
    for i in (0, n // 2, -1):
        check_all_levels(K.row_sum, m, i)
    for j in (0, 3, -2):
        check_all_levels(K.column, m, j)
        check_all_levels(K.column, m.T.copy(), j % 4)


@pytest.mark.parametrize("n", range(9))
def test_constant_slices_on_every_short_length(n):
    a = np.arange(float(n)) * 1.5
    check_all_levels(K.constant_slices, a)
    for cols in (0, 1, 2, 3, 7):
        check_all_levels(K.constant_slices_2d, np.arange(float(n * cols)).reshape(n, cols))
    check_all_levels(K.constant_list_and_str_slices, list(range(n)), "abcdefgh"[:n])


def test_stencil_of_constant_slices_has_no_broadcasting_loop():
    """Its slices' lengths are one value each (cse), so the expression is seen not to
    broadcast: the loop nest that handles broadcasting (indices chosen by `select`) is
    deleted before LLVM compiles it, which halved the stencil's compile time."""
    f = script.script(K.constant_slices_2d)
    f(np.ones((5, 6)))
    text = f.ir("opt")
    assert "select" not in text and text.count("poll") == 2     # the copy and the stencil


def test_slice_assignment():
    for v in (7.0, 3):
        a, b = np.zeros(12), np.zeros(12)
        K.fill_slices(a, v)
        compiled(K.fill_slices)(b, v)
        np.testing.assert_array_equal(a, b)
    m = np.arange(12.0).reshape(3, 4)
    want, got = np.zeros((3, 4)), np.zeros((3, 4))
    K.copy_row(m, want, 2)
    compiled(K.copy_row)(m, got, 2)
    np.testing.assert_array_equal(got, want)
    with pytest.raises(ValueError, match="could not broadcast"):
        compiled(K.copy_row)(np.zeros((3, 5)), np.zeros((3, 4)), 2)


def test_returning_a_view_of_an_argument():
    a = np.arange(5.0)
    r = compiled(K.return_view)(a)
    np.testing.assert_array_equal(r, K.return_view(a))
    assert np.shares_memory(r, a) and r.flags.writeable
    a.flags.writeable = False
    r = compiled(K.return_view)(a)
    assert np.shares_memory(r, a) and not r.flags.writeable


def test_enumerate_zip_and_rows():
    a, b = np.arange(7.0), np.arange(10.0, 3.0, -1.0)
    check_all_levels(K.enumerate_zip, a, b)
    check_all_levels(K.enumerate_zip, a[::2], b)
    m = np.arange(12.0).reshape(3, 4)
    check_all_levels(K.rows, m)
    check_all_levels(K.rows, m.T)


def test_transpose():
    m = np.arange(12.0).reshape(3, 4)
    check_all_levels(K.transposed, m)
    check_all_levels(K.transposed, m[:, ::2])
    check_all_levels(K.transposed, np.asfortranarray(m))


def test_ndarray_annotation_takes_rank_and_dtype_from_the_call():
    f = script.script(K.any_array)
    assert f(np.arange(5.0), 2) == 4.0
    assert f(np.arange(5, dtype=np.int32), -1) == 8.0
    assert len(f.signatures) == 2
    # The annotation is a hint, as in CPython: another argument runs as CPython runs it.
    with pytest.raises(TypeError, match="'float' object is not subscriptable"):
        f(3.0, 1)
    assert f([1.5, 2.5], 1) == 5.0


@pytest.mark.parametrize("dtype", [np.float64, np.int64, np.int32, np.float32])
def test_builtin_reductions_over_arrays(dtype):
    a = np.array([3, -1, 7, 2], dtype=dtype)
    f = compiled(K.reductions)
    got = f(a)
    want = (a.sum(), a.min(), a.max(), a.sum() + 10, 6, 3)
    assert got[:6] == tuple(w.item() if hasattr(w, "item") else w for w in want)
    with pytest.raises(ValueError, match="empty"):
        f(np.zeros(0, dtype=dtype))


def test_sum_of_bools():
    check_all_levels(K.sum_bools, np.array([True, False, True]))


def test_boundscheck_can_be_turned_off():
    checked = script.script(K.get)
    unchecked = script.script(K.get, boundscheck=False)
    a = np.arange(10.0)
    assert unchecked(a, 3) == 3.0 and unchecked(a, -1) == 9.0     # negative indices still wrap
    with pytest.raises(IndexError):
        checked(a, 10)
    assert "IndexError" in checked.ir("opt") and "IndexError" not in unchecked.ir("opt")


def test_storing_nan_or_inf_into_an_int_array_raises_as_numpy_does():
    put = compiled(K.put)
    for v, exc in ((float("nan"), ValueError), (float("inf"), OverflowError), (1e30, OverflowError)):
        a = np.zeros(3, np.int64)
        with pytest.raises(exc):
            a[0] = v                     # NumPy
        with pytest.raises(exc):
            put(a, 0, v)                 # compiled
    a = np.zeros(3, np.int64)
    put(a, 1, -2.7)
    assert a[1] == -2


@settings(max_examples=60, deadline=None)
@given(st.integers(-12, 12), st.integers(-12, 12), st.sampled_from([-4, -2, -1, 1, 2, 3]))
def test_slices_with_run_time_steps(lo, hi, step):
    check_all_levels(K.slice_runtime_step, np.arange(10.0), lo, hi, step)


def test_slice_step_zero_at_run_time():
    check_all_levels(K.slice_runtime_step, np.arange(10.0), 0, 5, 0)


def test_dtype_comparisons_are_constants():
    f = np.zeros(2)
    i = np.zeros(2, np.int32)
    for a, b in ((f, f), (i, f), (i, i)):
        check_all_levels(K.dtype_branch, a, b)


def test_arrays_inside_tuple_arguments():
    a, b = np.arange(4.0), np.arange(4.0)
    check_all_levels(K.tuple_of_arrays_arg, (a, b), 2)
    a.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        compiled(K.tuple_of_arrays_arg)((a, b), 1)


def test_writing_through_a_view_of_a_read_only_array_is_refused():
    a = np.arange(4.0)
    a.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        compiled(K.write_through_view)(a)
    np.testing.assert_array_equal(a, np.arange(4.0))


def test_new_axes_and_ellipsis():
    rng = np.random.default_rng(4)
    X, C = rng.random((5, 3)), rng.random((4, 3))
    check_all_levels(K.new_axes, X, C, approx=True)
    check_all_levels(K.new_axes, X.T.copy().T, C[::-1], approx=True)
    check_all_levels(K.outer_by_broadcast, np.arange(4.0))
    check_all_levels(K.outer_by_broadcast, np.arange(0.0))
