"""Real-world NumPy-style functions (realistic_np3.py), compiled and in CPython, on the same
inputs: results, dtypes, what they leave in their arguments, and raised exceptions. The
Monte Carlo functions draw from the compiled generator, whose stream is not NumPy's
(docs/random.md): their tests check shapes, dtypes, ranges, statistics and reproducibility."""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from hypothesis.extra import numpy as hnp

import realistic_np3 as R
from difftest import check_all_levels, compiled

# The corpus runs outside CI, which must stay under 15 minutes: `pytest -m slow` runs it.
pytestmark = pytest.mark.slow

EX = settings(max_examples=8, deadline=None)
FLOATS = st.floats(-100, 100, allow_nan=False, width=64)
MAT = hnp.arrays(np.float64, st.tuples(st.integers(2, 6), st.integers(2, 5)), elements=FLOATS)
VEC = hnp.arrays(np.float64, st.integers(2, 12), elements=FLOATS)
IMG = hnp.arrays(np.uint8, st.tuples(st.integers(3, 7), st.integers(3, 7)))

_rng = np.random.default_rng(2026)
M = _rng.normal(size=(5, 4))
V = _rng.normal(size=9) * 10
F = _rng.random((6, 7))


def _layouts(m):
    return [m, np.asfortranarray(m), m[::-1]]


# --- statistics --------------------------------------------------------------------------------

@EX
@given(MAT)
def test_statistics_of_matrices(m):
    for x in _layouts(m):
        check_all_levels(R.weighted_column_means, x, np.arange(1.0, 1.0 + x.shape[0]), approx=True)
        check_all_levels(R.standardize_rows, x, approx=True)
        check_all_levels(R.minmax_columns, x, approx=True)
        check_all_levels(R.softmax_rows, x, approx=True)
        check_all_levels(R.running_stats, x, approx=True)
        check_all_levels(R.nan_column_means, x, approx=True)
        check_all_levels(R.medians_and_percentiles, x, approx=True)
        check_all_levels(R.row_norms, x, approx=True)
        check_all_levels(R.column_stats, x, approx=True)


def test_statistics_of_vectors():
    check_all_levels(R.masked_mean, np.array([1.0, np.nan, np.inf, 3.0]))
    check_all_levels(R.masked_mean, np.array([np.nan]))
    check_all_levels(R.nan_fill_previous, np.array([1.0, np.nan, np.nan, 3.0, np.nan]))
    for k in (0.5, 1.0, 3.0):
        check_all_levels(R.zscore_outliers, V, k, approx=True)
    check_all_levels(R.zscore_outliers, np.ones(4), 1.0)
    check_all_levels(R.nan_quantiles, V * 10, approx=True)
    check_all_levels(R.correlation, V, V ** 2, approx=True)
    check_all_levels(R.masks_logic, np.array([1.0, np.nan, 5.0, -3.0, 2.0]), 0.0, 4.0)
    check_all_levels(R.weighted_column_means, M, np.zeros(5))            # ZeroDivisionError


# --- sorting, searching, counting --------------------------------------------------------------

@EX
@given(VEC, st.integers(1, 3))
def test_sorting_and_searching(a, k):
    a = a + 0.0                 # no -0.0: which of two equal zeros comes first is unspecified
    check_all_levels(R.top_k_indices, np.unique(a), k)
    check_all_levels(R.top_k_partition, a, min(k, len(a)))
    check_all_levels(R.argsort_desc, np.unique(a))
    check_all_levels(R.bin_index, np.array([-50.0, 0.0, 2.5, 40.0]), a)
    check_all_levels(R.hist_range, a / 5, 7)
    check_all_levels(R.histogram_edges, a, np.array([-20.0, -5.0, 0.0, 5.0, 20.0]), approx=True)
    check_all_levels(R.rank_rows, np.outer(a, a[:3]) + 0.0)     # (products make -0.0 again)


def test_counting():
    labels = np.array([3, 1, 3, 2, 1, 3, 0])
    check_all_levels(R.value_counts, labels)
    check_all_levels(R.labels_inverse, labels)
    check_all_levels(R.class_histogram, labels, 5)
    check_all_levels(R.class_histogram, labels, 2)
    check_all_levels(R.class_histogram, np.array([1, -1]), 2)              # ValueError
    check_all_levels(R.inverse_cdf_sample, np.array([0.1, 0.4, 0.5]), np.array([0.05, 0.3, 0.99, 0.5]))
    check_all_levels(R.membership, np.array([1, 2, 3, 4, 2]), np.array([2, 4]))
    check_all_levels(R.pair_indices, 4)
    check_all_levels(R.pair_indices, 1)


@EX
@given(IMG)
def test_images_uint8(img):
    check_all_levels(R.image_histogram, img)
    check_all_levels(R.equalize, img)
    check_all_levels(R.box_blur_uint8, img)
    check_all_levels(R.threshold_image, img, 100)


# --- element-wise, masks, indexing -------------------------------------------------------------

@EX
@given(MAT, st.floats(0.0, 1.0))
def test_elementwise_and_masks(m, alpha):
    check_all_levels(R.leaky_relu, m, alpha)
    check_all_levels(R.clip_and_threshold, m, -10.0, 10.0)
    check_all_levels(R.replace_negative_columns, m)
    check_all_levels(R.any_all_rows, np.round(m / 30))
    check_all_levels(R.row_mask_update, m)
    check_all_levels(R.reversed_views, m)
    check_all_levels(R.like_with_dtype, m)
    check_all_levels(R.rounding, m, approx=True)
    check_all_levels(R.ndindex_sum, m)
    check_all_levels(R.rows_loop, m)


def test_indexing():
    check_all_levels(R.select_rows, M, np.array([0, 2, 3]))
    check_all_levels(R.select_rows, M, np.array([0, 7, 3]))                 # IndexError
    check_all_levels(R.one_hot, np.array([0, 2, 1]), 4)
    check_all_levels(R.one_hot_eye, np.array([0, 2, 1, 3]), 4)
    check_all_levels(R.int_ops, np.array([7, -7, 3, 0]), np.array([2, 3, -2, 5]))
    check_all_levels(R.clip_array_bounds, V, np.full(9, -1.0), np.arange(9.0))
    check_all_levels(R.zip_arrays, V, V[::-1])
    check_all_levels(R.tiles_2d, M[:2])


# --- creation, dtypes, 3-d ---------------------------------------------------------------------

def test_creation_and_dtypes():
    for n, sigma in ((5, 0.7), (1, 1.0), (8, 0.2)):
        check_all_levels(R.gaussian_kernel, n, sigma, approx=True)
    check_all_levels(R.float_grid, 0.0, 1.0, 0.1)
    check_all_levels(R.float_grid, 1.0, -1.0, -0.25)
    check_all_levels(R.quantize_image, F * 1.2 - 0.1)
    check_all_levels(R.int32_accumulate, np.arange(10) * 7)
    check_all_levels(R.cumulative_int32, np.arange(1, 9))
    check_all_levels(R.float32_dynamics, V, 20)
    for n in (5, 1, 0):
        check_all_levels(R.spaces, n)


@EX
@given(hnp.arrays(np.float64, st.tuples(st.integers(1, 4), st.integers(1, 4), st.integers(1, 5)), elements=FLOATS))
def test_volumes(v):
    check_all_levels(R.volume_stats, v, approx=True)
    check_all_levels(R.volume_loop, v, approx=True)


# --- signal processing, joining ----------------------------------------------------------------

@EX
@given(VEC, st.integers(1, 4))
def test_signals(x, w):
    w = min(w, len(x))
    check_all_levels(R.padded, x)
    check_all_levels(R.smooth_signal, x, w, approx=True)
    check_all_levels(R.resample, np.sort(x) + np.arange(len(x)), x, 12, approx=True)
    check_all_levels(R.area_under, x, 0.5, approx=True)
    check_all_levels(R.moving_average_cumsum, x, w, approx=True)
    check_all_levels(R.autocorr, x, min(4, len(x)), approx=True)
    check_all_levels(R.diff_prepend, x)
    check_all_levels(R.build_design, x)
    check_all_levels(R.column_stack_like, x, x * 2)


def test_shifts_and_pads():
    for k in (0, 2, -3, 9):
        check_all_levels(R.circular_shift, M, k)
    check_all_levels(R.padded_2d, M)


# --- linear algebra, distances -----------------------------------------------------------------

@EX
@given(MAT)
def test_distances(X):
    check_all_levels(R.pairwise_dist, X, approx=True)
    check_all_levels(R.pair_distances_triu, X, approx=True)
    check_all_levels(R.nearest_centroid, X, X[:2].copy())
    check_all_levels(R.kmeans_step, X, X[:2].copy(), approx=True)
    want, got = R.pairwise_dist_dot(X), compiled(R.pairwise_dist_dot)(X)
    np.testing.assert_allclose(got, want, atol=1e-6 * (1 + np.abs(X).max()))   # BLAS rounding near 0


def test_linear_algebra():
    x = np.linspace(0.0, 1.0, 9)
    check_all_levels(R.linreg, x, 3 * x + 1 + np.sin(7 * x), approx=True)
    check_all_levels(R.lstsq_fit, x, 3 * x - 1)
    a = M.T @ M
    want, got = R.power_iteration(a, 50), compiled(R.power_iteration)(a, 50)
    np.testing.assert_allclose(got[0], want[0], rtol=1e-9)
    np.testing.assert_allclose(got[1], want[1], rtol=1e-7)
    check_all_levels(R.floyd_warshall, np.abs(M[:4]) * 10)
    check_all_levels(R.floyd_warshall_inf, 4, np.array([[0, 1, 2.0], [1, 2, 1.5], [2, 3, 1.0], [0, 3, 9.0]]))


# --- physics and images ------------------------------------------------------------------------

def test_physics_and_filters():
    check_all_levels(R.nbody_step, M[:, :3].copy(), M[:, 1:].copy(), np.arange(1.0, 6.0), 0.01, approx=True)
    check_all_levels(R.heat_step, F, 0.1, 5, approx=True)
    check_all_levels(R.sobel, F, approx=True)
    check_all_levels(R.mandelbrot, 8, 6, 30)
    check_all_levels(R.ising_energy, np.array([[1, -1, 1], [1, 1, -1], [-1, 1, 1]]))
    check_all_levels(R.dtype_mix_arrays, V)


# --- Monte Carlo with np.random.default_rng ----------------------------------------------------

def _twice(fn, *args):
    """The compiled function's result for the same seed twice: the same numbers."""
    c = compiled(fn)
    first, second = c(*args), c(*args)
    for x, y in zip(first if isinstance(first, tuple) else (first,), second if isinstance(second, tuple) else (second,)):
        np.testing.assert_array_equal(x, y)
    return first


def test_generator_statistics():
    est = _twice(R.mc_pi, 200000, 1)
    assert abs(est - np.pi) < 0.02
    assert compiled(R.mc_pi)(1000, 2) != compiled(R.mc_pi)(1000, 3)
    w = _twice(R.random_walks, 2000, 5, 2)
    assert w.shape == (2000, 5) and w.dtype == np.float64
    assert abs(w[:, -1].var() - 5.0) < 0.5
    n, u, i = _twice(R.noisy_samples, 20000, 4)
    assert n.shape == (20000,) and u.shape == (20000, 2) and i.dtype == np.int64
    assert abs(n.mean() - 2.0) < 0.02 and abs(n.std() - 0.5) < 0.02
    assert u.min() >= -1.0 and u.max() < 1.0 and abs(u.mean()) < 0.02
    assert set(np.unique(i)) == {0, 1, 2, 3, 4}
    m = _twice(R.metropolis, 20000, 7)
    assert abs(m.mean()) < 0.1 and abs(m.std() - 1.0) < 0.1


def test_generator_permutations():
    a = np.arange(10.0)
    b = _twice(R.bootstrap_means, a, 50, 3)
    assert b.shape == (50,) and b.min() >= 0.0 and b.max() <= 9.0
    s = _twice(R.shuffled, a, 5)
    assert sorted(s) == list(a) and not np.array_equal(s, a)
    c, d = _twice(R.sample_without_replacement, 10, 10, 6)
    assert sorted(c) == list(range(10)) and d.min() >= 0 and d.max() < 10
    spins = _twice(R.ising_sweep, 8, 0.4, 3)
    assert spins.shape == (8, 8) and set(np.unique(spins)) <= {-1, 1} and spins.dtype == np.int64


@pytest.mark.parametrize("n, k", [(3, 4), (0, 1), (-1, 1)])
def test_generator_errors(n, k):
    """choice without replacement of more than the population, of nothing, of a negative
    count: NumPy's ValueError types."""
    try:
        R.sample_without_replacement(n, k, 1)
    except ValueError:
        with pytest.raises(ValueError):
            compiled(R.sample_without_replacement)(n, k, 1)
    else:
        compiled(R.sample_without_replacement)(n, k, 1)
