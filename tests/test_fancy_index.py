"""Advanced indexing with one array index (a boolean mask or an integer array) against NumPy."""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from hypothesis.extra import numpy as hnp

import alloc_kernels as K
from difftest import check_all_levels, compiled

SHAPES = hnp.array_shapes(min_dims=1, max_dims=3, min_side=0, max_side=5)


@settings(max_examples=40, deadline=None)
@given(hnp.arrays(np.float64, SHAPES, elements=st.floats(-5, 5)), st.floats(-5, 5))
def test_masks(a, t):
    check_all_levels(K.mask_take, a, t)
    check_all_levels(K.mask_put, a, t)
    if a.ndim == 1:
        check_all_levels(K.mask_put_values, a, t)
    check_all_levels(K.mask_take, a.T, t)


@settings(max_examples=40, deadline=None)
@given(hnp.arrays(np.int32, st.integers(1, 8), elements=st.integers(-9, 9)),
       hnp.arrays(np.int64, st.integers(0, 6), elements=st.integers(-10, 10)))
def test_integer_arrays(a, idx):
    check_all_levels(K.gather, a, idx)
    check_all_levels(K.scatter, a, idx, 7)
    check_all_levels(K.scatter, a, idx, np.arange(idx.shape[0], dtype=np.int32))
    check_all_levels(K.mask_sum_even, a)


def test_shape_errors():
    check_all_levels(K.scatter, np.zeros(4), np.array([0, 1]), np.zeros(3))
    a = np.arange(6.0)
    with pytest.raises(IndexError, match="boolean index did not match"):
        compiled(K.gather)(a, np.array([True, False]))
