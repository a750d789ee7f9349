"""More of NumPy against NumPy itself: the axis forms of sort/argsort/median/percentile,
searchsorted's side and array forms, interp of arrays, diff's order and axis, norm's orders
(numpy_lib.py); rearranging and indexing functions (numpy_shape.py); formula ufuncs,
covariance, sets and NaN-skipping statistics (numpy_more.py)."""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from hypothesis.extra import numpy as hnp

import gaps_numpy2_kernels as K
from difftest import check_all_levels

FLOATS = st.floats(-100, 100, allow_nan=False, width=64)
NUMS = st.sampled_from([np.float64, np.int64, np.int32, np.float32])
DTYPES = st.sampled_from([np.float64, np.int32, np.bool_, np.uint8])
MAT = hnp.arrays(NUMS, st.tuples(st.integers(1, 5), st.integers(1, 5)),
                 elements=st.integers(-5, 5))
VEC = hnp.arrays(np.float64, st.integers(1, 9), elements=FLOATS)
SMALL_INTS = hnp.arrays(np.int64, st.integers(1, 9), elements=st.integers(-4, 4))
EX = settings(max_examples=25, deadline=None)


def _layouts(m):
    return [m, m.T, m[::-1]]


@pytest.mark.slow       # long: compiles many variants (CI keeps a 15 min budget)
@EX
@given(MAT)
def test_sort_argsort_median_axes(m):
    for x in _layouts(m):
        check_all_levels(K.sort_axes, x)
        check_all_levels(K.sort_method_axis0, x)
        check_all_levels(K.argsort_axes, x)
        check_all_levels(K.median_axes, x)


@EX
@given(SMALL_INTS)
def test_argsort_stable(a):
    check_all_levels(K.argsort_flat, a)


@EX
@given(VEC, st.floats(0, 100))
def test_percentiles(a, q):
    # approx: a zero's sign may differ where the data holds 0.0 and -0.0 (NumPy's
    # introselect order of equal zeros, docs/differences.md); values agree to 1e-13
    check_all_levels(K.percentiles, a, q, approx=True)
    check_all_levels(K.percentile_axis, a.reshape(1, -1), q, approx=True)
    check_all_levels(K.percentile_axis, np.outer(a, a[:3]), q, approx=True)
    check_all_levels(K.percentiles, a, q + 200.0)          # NumPy's ValueError


@EX
@given(SMALL_INTS, SMALL_INTS)
def test_searchsorted(a, v):
    check_all_levels(K.searchsorted_sides, a, v)
    check_all_levels(K.searchsorted_sides, a * 0.5, v * 0.25)


@EX
@given(VEC, hnp.arrays(np.float64, st.integers(2, 6), elements=st.floats(-10, 10)))
def test_interp(x, fp):
    xp = np.cumsum(np.arange(1.0, fp.shape[0] + 1.0)) - 5.0
    check_all_levels(K.interp_many, x, xp, fp)
    check_all_levels(K.interp_many, np.append(x, xp), xp, fp)


@EX
@given(MAT, st.integers(0, 3))
def test_diff(m, n):
    check_all_levels(K.diffs, m[0], n)
    check_all_levels(K.diffs, m[0] > 0, n)
    check_all_levels(K.diffs_2d, m, n)
    check_all_levels(K.diffs_2d, m.T, n)
    check_all_levels(K.diffs, m[0], -1)


@pytest.mark.slow       # long: compiles many variants (CI keeps a 15 min budget)
@EX
@given(VEC, MAT)
def test_norms(v, m):
    check_all_levels(K.norms, v, approx=True)
    check_all_levels(K.matrix_norms, m, approx=True)


def test_small_constructors():
    for n in range(0, 4):
        check_all_levels(K.eye_dtypes, n, 1)
        check_all_levels(K.eye_dtypes, n, -1)
    check_all_levels(K.meshgrid_ij, np.arange(3.0), np.arange(2))
    r = np.random.default_rng(1)
    check_all_levels(K.cross_rows, r.random((4, 3)), r.random((4, 3)))
    check_all_levels(K.nan_to_num_full, np.array([1.0, np.nan, np.inf, -np.inf]))
    check_all_levels(K.nan_to_num_full, np.array([1.0, np.nan, np.inf, -np.inf], dtype=np.float32))


@settings(max_examples=10, deadline=None)
@given(MAT, st.integers(-5, 5))
def test_flips_rotations(m, k):
    for x in _layouts(m):
        check_all_levels(K.flips, x)
        check_all_levels(K.rot90s, x, k)


@EX
@given(MAT, st.integers(0, 3), st.integers(1, 3))
def test_repeat_tile(m, k, c):
    check_all_levels(K.repeats, m[0], k)
    check_all_levels(K.repeats, m, k)
    check_all_levels(K.repeat_axis, m, k)
    check_all_levels(K.repeat_counts, m[0], np.arange(m.shape[1]) % 3)
    check_all_levels(K.repeat_counts, m[0], np.array([-1] * m.shape[1]))
    check_all_levels(K.tiles, m[0], k, c)
    check_all_levels(K.tiles, m, k, c)
    check_all_levels(K.dstacks, m, m)
    check_all_levels(K.dstacks, m[0], m[-1])
    check_all_levels(K.expand, m[0])
    check_all_levels(K.expand, m)


@pytest.mark.slow       # long: compiles many variants (CI keeps a 15 min budget)
@EX
@given(MAT, st.integers(-8, 8))
def test_indexing_functions(m, i):
    a = m.ravel()
    check_all_levels(K.appends, a * 1.0, a[:2] * 1.0)
    check_all_levels(K.takes, a, np.array([0, a.size - 1, -1]), i)
    check_all_levels(K.items, a, i)
    check_all_levels(K.diagonals, m, i)
    check_all_levels(K.fill_diag, m.copy(), 7)
    check_all_levels(K.unravel, m)
    check_all_levels(K.layouts, m)
    check_all_levels(K.layouts, m.T)
    check_all_levels(K.contiguous_writes_through, a.copy())
    check_all_levels(K.copyto_, m.copy(), m[0])
    check_all_levels(K.resize_vander, a, abs(i))


@EX
@given(VEC, VEC)
def test_formula_ufuncs(x, y):
    n = min(x.shape[0], y.shape[0])
    x, y = x[:n], y[:n]
    check_all_levels(K.angles, x)
    check_all_levels(K.angles, x.astype(np.float32))
    check_all_levels(K.angles, x[0])
    check_all_levels(K.formulas, x, y, approx=True)
    check_all_levels(K.formulas, np.round(x), np.round(x[::-1]), approx=True)
    check_all_levels(K.formulas, x[0], y[0], approx=True)
    check_all_levels(K.modfs, x)
    check_all_levels(K.modfs, np.array([-0.0, np.inf, -np.inf, np.nan, -2.5]))


@EX
@given(SMALL_INTS, SMALL_INTS)
def test_gcd_sets(a, b):
    n = min(a.shape[0], b.shape[0])
    check_all_levels(K.gcds, a[:n], b[:n])
    check_all_levels(K.sets, a, b)
    check_all_levels(K.sets, a * 0.5, b * 0.5)
    check_all_levels(K.uniques, a)


def test_products_spaces_powers():
    r = np.random.default_rng(2)
    check_all_levels(K.products, r.random(5), r.random(5), approx=True)
    check_all_levels(K.products, r.random((3, 2)), r.random((4, 2)), approx=True)
    for n in (0, 1, 2, 5):
        check_all_levels(K.spaces, n, approx=True)
    for n in range(-3, 7):
        check_all_levels(K.matrix_powers, r.random((3, 3)) + np.eye(3), n, approx=True)
    for n in range(0, 6):
        check_all_levels(K.matrix_powers, np.arange(9).reshape(3, 3) - 4, n)


@EX
@given(VEC)
def test_covariance(a):
    if a.shape[0] < 2:
        return                          # np.cov(m, rowvar=False) of one variable: a 0-d array
    b = a[::-1] * 2.0 + 1.0
    check_all_levels(K.covs_2d, np.vstack((a, b, a * a)), approx=True)
    check_all_levels(K.covs_2d, np.vstack((a, b)).T.copy(), approx=True)


def test_covariance_vectors():
    r = np.random.default_rng(3)
    a, b = r.random(6), r.random(6)
    want = K.covs(a, b)
    got = __import__("difftest").compiled(K.covs)(a, b)
    for w, g in zip(want, got):
        assert np.allclose(np.asarray(w), g, rtol=1e-12)      # np.cov(a) is a 0-d array in NumPy


@EX
@given(hnp.arrays(np.float64, st.integers(0, 8), elements=st.sampled_from([np.nan, 1.0, -2.0, 0.5, 3.0])))
def test_nan_skipping(a):
    check_all_levels(K.nan_skipping, a)


@EX
@given(hnp.arrays(np.float64, st.integers(2, 9), elements=st.integers(-40, 40).map(lambda v: v / 4), unique=True),
       st.integers(0, 3))
def test_polyfit(x, deg):
    """np.polyfit's steps (scaled Vandermonde columns, lstsq, rcond = len(x) * eps)."""
    y = np.sin(x) * 3 + x
    check_all_levels(K.polyfits, x, y, deg, approx=True)
    check_all_levels(K.polyfits, x, y, -1)                      # ValueError: expected deg >= 0
