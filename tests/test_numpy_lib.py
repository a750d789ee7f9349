"""NumPy's library functions in compiled code against NumPy itself."""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from hypothesis.extra import numpy as hnp

import lib_kernels as K
import script
from difftest import check_all_levels

FLOATS = st.floats(-100, 100, allow_nan=False)
VEC = hnp.arrays(np.float64, st.integers(1, 40), elements=FLOATS)


@settings(max_examples=40, deadline=None)
@given(VEC)
def test_sorting_and_order_statistics(a):
    # Equal keys may come out in any order, and NumPy's SIMD sort does not keep 0.0 apart
    # from -0.0 (it returned five -0.0 for [0, -0, -0, -0, -0]): sort without signed zeros.
    a = a + 0.0
    check_all_levels(K.sort_, a)
    check_all_levels(K.sort_method, a)
    check_all_levels(K.sort_, np.stack((a, a[::-1])))
    check_all_levels(K.order_stats, a)
    check_all_levels(K.unique_, a)
    check_all_levels(K.search, a, 0.5)
    distinct = np.unique(a)
    check_all_levels(K.argsort_, distinct[::-1].copy())


def test_nan_sorts_last_and_int_arrays():
    a = np.array([3.0, np.nan, -1.0, 2.0, np.nan, 0.5] * 5)
    check_all_levels(K.sort_, a)
    check_all_levels(K.order_stats, a)
    ints = np.array([5, 3, 9, 3, 1, 0, 7] * 4, dtype=np.int32)
    check_all_levels(K.sort_, ints)
    check_all_levels(K.unique_, ints)
    check_all_levels(K.argsort_, np.arange(30)[::-1].copy())


@settings(max_examples=30, deadline=None)
@given(VEC, st.integers(0, 3))
def test_shapes_and_products(a, k):
    check_all_levels(K.diffs, a)
    check_all_levels(K.products, a, a[::-1])
    check_all_levels(K.rep, a, k)
    check_all_levels(K.norms, a, approx=True)
    check_all_levels(K.closeness, a, a + 1e-9)
    check_all_levels(K.cleanup, a)
    check_all_levels(K.joins, a, a[::2])


def test_constructors_and_vectors():
    for n in (0, 1, 4):
        check_all_levels(K.consts, n)
    check_all_levels(K.cross_, np.array([1.0, 2.0, 3.0]), np.array([-2.0, 0.5, 4.0]))


@pytest.mark.parametrize("a, b", [
    (np.array([1, 2, 3]), np.array([3, 4])), (np.array([1, 2]), np.array([3, 4, 5])),     # z = 0
    (np.ones((2, 3)), np.array([1.0, 2.0])), (np.arange(6.0).reshape(2, 3), np.array([1.0, 2, 3])),
    (np.ones((2, 4)), np.ones((2, 4))), (np.ones(4), np.ones(3)),        # NumPy's ValueError
], ids=str)
def test_cross_of_2_and_3_vectors(a, b):
    """Was a silent wrong answer for a last axis of 4 (the first three used) and an
    IndexError for 2-vectors beside 3-vectors; two 2-vectors are refused (a scalar per pair,
    whose rank the lengths decide)."""
    check_all_levels(K.cross_, a, b)
    with pytest.raises(ValueError, match="not supported in compiled code"):
        script.script(K.cross_)(np.array([1, 2]), np.array([3, 4]))
    check_all_levels(K.literal, 2.5)
    check_all_levels(K.cleanup, np.array([np.nan, np.inf, -np.inf, 1.005, 2.5, -0.5]))


@settings(max_examples=30, deadline=None)
@given(st.floats(-5, 5), hnp.arrays(np.float64, st.integers(1, 10), elements=FLOATS, unique=True))
def test_interp(x, xp):
    xp = np.sort(xp)
    check_all_levels(K.interp_, x, xp, xp * 2 + 1)


def test_joins_2d_and_errors():
    m = np.arange(6.0).reshape(2, 3)
    check_all_levels(K.joins_2d, m)
    check_all_levels(K.joins_2d, m.T)
    check_all_levels(K.concat_mismatch, m, np.zeros((2, 4)))


@settings(max_examples=25, deadline=None)
@given(hnp.arrays(np.float64, st.tuples(st.integers(1, 6), st.integers(1, 5)), elements=FLOATS))
def test_std_var_along_an_axis(m):
    check_all_levels(K.std_axes, m, approx=True)
    check_all_levels(K.std_axes, m.T, approx=True)


def test_signed_zeros_in_order_statistics():
    for a in ([-0.0], [-0.0, -0.0], [-0.0, 1.0, -0.0], [-0.0, 2.0], [1.0, -0.0, -0.0, 3.0]):
        check_all_levels(K.order_stats, np.array(a))
