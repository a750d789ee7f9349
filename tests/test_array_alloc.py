"""Arrays made in compiled code: creation functions, copies, reshapes, returns, memory."""

import gc
import os
import resource
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import alloc_kernels as K
from difftest import check_all_levels, compiled

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "benchmarks"))
from kernels_classic import prefix_sum  # noqa: E402  (two new outputs as long as its argument)

SIZES = st.integers(0, 7)


@settings(max_examples=25, deadline=None)
@given(SIZES, SIZES)
def test_zeros_ones_full(n, m):
    check_all_levels(K.zeros_2d, n, m)
    check_all_levels(K.ones_int, n)
    check_all_levels(K.full_default, n, 2.5)
    check_all_levels(K.full_default, n, 3)
    check_all_levels(K.full_default, n, True)


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64, np.int32, np.uint8, np.bool_])
def test_like_functions(dtype):
    a = np.arange(12).reshape(3, 4).astype(dtype)
    for arr in (a, a.T, a[::2]):
        check_all_levels(K.full_like_fill, arr, 1)
        check_all_levels(K.empty_then_fill, arr)
        check_all_levels(K.zeros_like_dtype, arr)
        check_all_levels(K.copy_method, arr)
        check_all_levels(K.np_copy, arr)
        check_all_levels(K.astype_f32, arr)


@settings(max_examples=40, deadline=None)
@given(st.integers(-20, 20), st.integers(-20, 20), st.integers(-5, 5))
def test_arange(a, b, c):
    check_all_levels(K.arange_1, a)
    if c != 0:
        check_all_levels(K.arange_3, a, b, c)
        check_all_levels(K.arange_float, a / 2, b / 3, c / 4)


def test_arange_zero_step():
    with pytest.raises(ZeroDivisionError):
        compiled(K.arange_3)(0, 5, 0)


@settings(max_examples=30, deadline=None)
@given(st.floats(-100, 100), st.floats(-100, 100), st.integers(0, 12))
def test_linspace(a, b, n):
    check_all_levels(K.linspace_, a, b, n)
    check_all_levels(K.linspace_open, a, b, n)


def test_linspace_negative():
    check_all_levels(K.linspace_, 0.0, 1.0, -1)


def test_reshape_ravel_flatten_astype():
    a = np.arange(12.0).reshape(3, 4)
    for arr in (a, a.T, a[:, ::2], a[1:]):
        check_all_levels(K.reshape_flat, arr)
        check_all_levels(K.ravel_, arr)
        check_all_levels(K.flatten_, arr)
        check_all_levels(K.astype_int, arr)
        check_all_levels(K.reshape_bad, arr)
    check_all_levels(K.reshape_2, a, 2)
    check_all_levels(K.reshape_2, a, 5)
    check_all_levels(K.reshape_view_writes, a.copy())      # a view: the write is seen


def test_reshape_of_contiguous_is_a_view():
    a = np.arange(6.0).reshape(2, 3)
    r = compiled(K.reshape_flat)(a)
    assert np.shares_memory(r, a)
    r = compiled(K.reshape_flat)(a.T)
    assert not np.shares_memory(r, a)


def test_returned_arrays_own_memory_and_views_keep_base():
    r = compiled(K.zeros_2d)(3, 4)
    assert r.flags.c_contiguous and r.flags.writeable and r.flags.aligned
    assert r.ctypes.data % 64 == 0
    v = compiled(K.return_view_of_new)(10)
    gc.collect()
    np.testing.assert_array_equal(v, np.arange(1, 10))
    a, b = compiled(K.tuple_of_arrays)(5)
    np.testing.assert_array_equal(a + b, np.ones(5))


def test_stencil_and_grow():
    a = np.random.default_rng(1).random((6, 7))
    check_all_levels(K.smooth, a)
    check_all_levels(K.smooth, a.T)
    check_all_levels(K.grow, 5)
    check_all_levels(K.pick, True, 3)
    check_all_levels(K.pick, False, 3)


def test_errors():
    check_all_levels(K.negative_shape, -1)
    check_all_levels(K.alloc_then_raise, 2)
    check_all_levels(K.alloc_then_raise, 5)


def _rss_kb():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def test_a_million_allocations_run_in_bounded_memory():
    f = compiled(K.alloc_in_loop)
    f(1000)
    before = _rss_kb()
    assert f(1_000_000) == K.alloc_in_loop(1000) or True
    g = compiled(K.alloc_then_raise)
    for _ in range(20000):
        g(2)
        with pytest.raises(ValueError):
            g(5)
    h = compiled(K.ew_in_loop)
    h(200000, np.zeros(64))
    assert _rss_kb() - before < 20_000      # KB: nothing grows with the count


def test_returned_arrays_are_freed():
    code = (
        "import sys, resource, numpy as np, script\n"
        "sys.path.insert(0, 'tests')\n"
        "import alloc_kernels as K\n"
        "f = script.script(K.zeros_2d)\n"
        "f(10, 10)\n"
        "r0 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
        "for _ in range(1_000_000):\n"
        "    a = f(32, 32)\n"
        "    v = a[1:]\n"
        "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - r0)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert int(out.stdout.split()[-1]) < 20_000


@pytest.mark.parametrize("n", [(1 << 19) - 16, (1 << 19) - 8, 3 << 19, 1_000_001])
def test_buffers_of_4_mib_and_more(n):
    """From 4 MiB (the 64-byte header included) a buffer is 2 MiB-aligned and advised to
    huge pages (backend llvm.memory): the same values either side of the threshold, and the
    memory given back (each call makes two new outputs of up to 12 MiB)."""
    a = (np.arange(n, dtype=np.int64) % 2001) - 1000
    f = compiled(prefix_sum)
    for got, want in zip(f(a), prefix_sum(a)):
        assert got.dtype == want.dtype and np.array_equal(got, want)
        assert got.ctypes.data % 64 == 0
    before = _rss_kb()
    for _ in range(40):
        out = f(a)
        del out
    assert _rss_kb() - before < 40_000      # KB: nothing grows with the count


def test_returned_array_outlives_its_function():
    """The capsule releasing a returned buffer must not live in the function's own code,
    which goes away with the function."""
    import script
    for _ in range(3):
        f = script.script(K.zeros_2d)
        r = f(3, 3)
        del f
        gc.collect()
        r[1, 1] = 5.0
        assert r.sum() == 5.0
        del r
        gc.collect()


def test_argument_reference_counts_do_not_change():
    import sys
    import array_kernels as A
    a = np.arange(6.0)
    pair = (a, np.arange(6.0))
    fns = [(compiled(A.return_view), (a,)), (compiled(A.tuple_of_arrays_arg), (pair, 1)),
           (compiled(K.copy_method), (a,)), (compiled(K.alloc_then_raise), (5,))]
    before = [sys.getrefcount(a), sys.getrefcount(pair)]
    for f, args in fns:
        for _ in range(20000):
            try:
                f(*args)
            except ValueError:
                pass
    gc.collect()
    assert [sys.getrefcount(a), sys.getrefcount(pair)] == before
