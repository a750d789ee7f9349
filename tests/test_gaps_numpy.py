"""np.roll, np.diag and np.array_equal against NumPy (numpy_lib.py)."""

import numpy as np
from hypothesis import given, settings, strategies as st
from hypothesis.extra import numpy as hnp

import gaps_numpy_kernels as K
from difftest import check_all_levels

DTYPES = st.sampled_from([np.float64, np.int32, np.bool_, np.uint8])
VEC = hnp.arrays(DTYPES, st.integers(0, 8))
MAT = hnp.arrays(DTYPES, st.tuples(st.integers(1, 5), st.integers(1, 5)))


@settings(max_examples=40, deadline=None)
@given(MAT, st.integers(-12, 12))
def test_roll(m, s):
    check_all_levels(K.roll_flat, m, s)
    check_all_levels(K.roll_flat, m.T, s)
    check_all_levels(K.roll_axes, m, s)
    check_all_levels(K.roll_axes, m[:, ::-1], s)
    check_all_levels(K.roll_vector, m[0], s)
    check_all_levels(K.roll_flat, m[:0, 0], s)          # empty


@settings(max_examples=40, deadline=None)
@given(VEC, MAT, st.integers(0, 6))
def test_diag(v, m, k):
    check_all_levels(K.diag_of_vector, v, k)
    check_all_levels(K.diag_of_matrix, m, k)
    check_all_levels(K.diag_of_matrix, m.T, k)


@settings(max_examples=40, deadline=None)
@given(hnp.arrays(np.float64, st.integers(1, 6), elements=st.sampled_from([0.0, 1.0, -0.0, np.nan])),
       hnp.arrays(np.float64, st.integers(1, 6), elements=st.sampled_from([0.0, 1.0, -0.0, np.nan])))
def test_array_equal(a, b):
    check_all_levels(K.equal, a, b)
    check_all_levels(K.equal, a, a.copy())
    check_all_levels(K.equal, np.outer(a, a), np.outer(a, a).T.copy())
