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


# --- n-d arrays: writes through integer arrays, 1-d masks of rows, paired arrays ---------

MATRICES = hnp.arrays(np.float64, hnp.array_shapes(min_dims=2, max_dims=3, min_side=1, max_side=4),
                      elements=st.floats(-5, 5))
INDICES = hnp.arrays(np.int64, st.integers(0, 5), elements=st.integers(-5, 5))   # repeats: last write wins


@settings(max_examples=40, deadline=None)
@given(MATRICES, INDICES, st.data())
def test_integer_array_writes(m, idx, data):
    row = data.draw(hnp.arrays(np.int32, st.sampled_from([m.shape[1:], m.shape[-1:], (1,), (m.shape[1] + 1,)]),
                               elements=st.integers(-9, 9)))
    check_all_levels(K.scatter_rows, m, idx, 7.5)
    check_all_levels(K.scatter_rows, m, idx, row)
    check_all_levels(K.scatter_rows, m, idx, np.arange(idx.size * m[0].size, dtype=np.float64)
                     .reshape((idx.size,) + m.shape[1:]))
    check_all_levels(K.scatter_cols, m, idx, -1.0)
    check_all_levels(K.scatter_cols, m, idx, np.ones((m.shape[0], idx.size) + m.shape[2:]))
    check_all_levels(K.scatter_col_of_rows, m, idx, data.draw(st.integers(-5, 5)), 3.0)
    check_all_levels(K.scatter_col_of_rows, m, idx, 0, np.arange(idx.size, dtype=np.float64)
                     .reshape((idx.size,) + (1,) * (m.ndim - 2)))
    check_all_levels(K.gather, m, idx)


@settings(max_examples=40, deadline=None)
@given(MATRICES, st.data())
def test_row_masks(m, data):
    mask = data.draw(hnp.arrays(np.bool_, st.sampled_from([m.shape[0], m.shape[0], 0, m.shape[0] + 1])))
    check_all_levels(K.mask_rows, m, mask)
    check_all_levels(K.mask_rows_cols, m, mask)
    check_all_levels(K.mask_rows_put, m, mask, 2.0)
    check_all_levels(K.mask_rows_put, m, mask, m[0] * 10)
    check_all_levels(K.mask_rows_put, m, mask, np.ones(m.shape[-1] + 1))
    check_all_levels(K.mask_rows, m, np.ascontiguousarray(mask[::-1]))


@settings(max_examples=40, deadline=None)
@given(hnp.arrays(np.int32, hnp.array_shapes(min_dims=2, max_dims=2, min_side=1, max_side=5),
                  elements=st.integers(-9, 9)),
       hnp.arrays(np.int64, hnp.array_shapes(min_dims=1, max_dims=2, min_side=0, max_side=4),
                  elements=st.integers(-6, 6)),
       hnp.arrays(np.int16, hnp.array_shapes(min_dims=1, max_dims=2, min_side=0, max_side=4),
                  elements=st.integers(-6, 6)))
def test_paired_arrays(m, r, c):
    check_all_levels(K.gather_pairs, m, r, c)
    check_all_levels(K.scatter_pairs, m, r, c, 99)
    check_all_levels(K.scatter_pairs, m, r, c, np.arange(c.shape[-1], dtype=np.int32))


def test_duplicate_indices_last_write_wins():
    m = np.zeros((3, 2))
    got = compiled(K.scatter_rows)(m, np.array([1, 1, 1]), np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]))
    assert got[1].tolist() == [5.0, 6.0]
    check_all_levels(K.scatter_list, np.zeros((3, 2)))
    check_all_levels(K.scatter_pairs, np.zeros((3, 3)), np.array([0, 0]), np.array([2, 2]), np.array([1.0, 2.0]))
