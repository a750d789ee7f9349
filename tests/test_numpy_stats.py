"""NumPy's counting and statistics functions (script/lib/numpy/numpy_stats.py) in compiled
code against NumPy itself: results, dtypes and raised exceptions."""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from hypothesis.extra import numpy as hnp

import lib_kernels as K
import script
from difftest import check_all_levels, compiled

# NumPy warns about all-NaN slices and empty means; the results are what is compared
pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")

INTS = st.tuples(hnp.arrays(np.int64, st.integers(0, 30), elements=st.integers(0, 40)),
                 st.sampled_from([np.int8, np.int32, np.int64, np.uint8, np.uint64, np.bool_])) \
    .map(lambda t: t[0].astype(t[1]))
SPECIAL = st.sampled_from([np.nan, np.inf, -np.inf, 0.0, -0.0, 1e300, 5e-324])
ANY_FLOAT = st.one_of(st.floats(-1e6, 1e6, allow_nan=False), SPECIAL)
FLOAT_DTYPES = st.sampled_from([np.float64, np.float32])


def views(draw_array):
    """A strategy's arrays, and reversed and strided views of them."""
    return st.tuples(draw_array, st.sampled_from([slice(None), slice(None, None, -1), slice(None, None, 2)])) \
        .map(lambda t: t[0][t[1]])


@settings(max_examples=12, deadline=None)
@given(views(INTS), st.integers(0, 50))
def test_bincount(x, n):
    check_all_levels(K.bincount_, x)
    w = np.linspace(-1.0, 2.0, x.shape[0])
    if x.size == 0:     # documented: NumPy's result is int64 zeros, compiled code's float64
        w = np.ones(3)
        assert np.array_equal(compiled(K.bincount_weighted)(x, w, n), np.zeros(n))
        return
    check_all_levels(K.bincount_weighted, x, w, n)
    check_all_levels(K.bincount_weighted, x, w.astype(np.float32)[::-1], n)


def test_bincount_errors():
    check_all_levels(K.bincount_, np.array([3, -1, 2]))
    check_all_levels(K.bincount_weighted, np.array([3, 1, 2]), np.ones(2), 0)
    check_all_levels(K.bincount_weighted, np.array([3, 1]), np.ones(2), -1)
    check_all_levels(K.bincount_weighted, np.array([-3, 1]), np.ones(3), 0)
    assert np.array_equal(compiled(K.bincount_weighted)(np.array([], dtype=np.int64), np.ones(2), 3), np.zeros(3))


@settings(max_examples=30, deadline=None)
@given(views(hnp.arrays(FLOAT_DTYPES, st.integers(0, 40), elements=st.floats(-50, 50, width=32))),
       st.integers(-1, 12))
def test_histogram_floats(a, bins):
    check_all_levels(K.histogram_zero_unsigned, a, bins)
    check_all_levels(K.histogram_zero_unsigned, a.reshape(-1, 1), bins)
    check_all_levels(K.histogram_range, a, -10.0, 20.5)
    check_all_levels(K.histogram_range, a, -10, 20)


@settings(max_examples=25, deadline=None)
@given(views(INTS), st.integers(1, 12))
def test_histogram_ints(a, bins):
    check_all_levels(K.histogram_, a, bins)
    check_all_levels(K.histogram_range, a, 3, 3)


def test_histogram_edges_and_errors():
    # found by hypothesis: max(-0.0, 0.0) picks the zero NumPy's SIMD order does not
    check_all_levels(K.histogram_zero_unsigned, np.array([-0.0, 0.0, -1.0]), 1)
    # values on the edges, the right-closed last bin, rounding near an edge
    check_all_levels(K.histogram_, np.linspace(0.0, 1.0, 11), 10)
    check_all_levels(K.histogram_, np.array([0.1, 0.2, 0.3, 0.7]) * 3, 3)
    check_all_levels(K.histogram_range, np.arange(30.0) / 7, 0.1, 3.9)
    check_all_levels(K.histogram_range, np.array([1.0, np.nan, np.inf, -np.inf]), 0.0, 2.0)
    check_all_levels(K.histogram_range, np.arange(5.0), 2.0, 1.0)
    check_all_levels(K.histogram_range, np.arange(5.0), -np.inf, np.inf)
    check_all_levels(K.histogram_, np.array([1.0, np.nan]), 3)
    check_all_levels(K.histogram_, np.array([1.0, np.inf, -np.inf]), 3)
    check_all_levels(K.histogram_, np.array([5.0, 5.0]), 4)
    check_all_levels(K.histogram_, np.array([5.0], dtype=np.float32), 4)
    check_all_levels(K.histogram_, np.zeros(0), 0)


@settings(max_examples=15, deadline=None)
@given(views(hnp.arrays(np.float64, st.integers(0, 30), elements=ANY_FLOAT)),
       hnp.arrays(np.float64, st.integers(0, 8), elements=st.floats(-100, 100)), st.booleans())
def test_digitize(x, bins, decreasing):
    bins = np.sort(bins)
    if decreasing:
        bins = bins[::-1]
    check_all_levels(K.digitize_, x, bins)
    check_all_levels(K.digitize_, x.reshape(-1, 1)[::2], bins)
    check_all_levels(K.digitize_, (x * 10).astype(np.int64) if np.isfinite(x).all() else x, bins)
    for v in x[:3]:
        check_all_levels(K.digitize_scalar, float(v), bins)


def test_digitize_monotonicity():
    for bins in ([1.0, 3.0, 2.0], [3.0, 1.0, 2.0], [np.nan, 1.0], [1.0, 1.0, np.nan], [2.0, 2.0, 1.0, 1.0],
                 [1.0, 1.0], [], [np.nan, np.nan], [1.0, np.nan]):
        check_all_levels(K.digitize_, np.array([0.5, 1.0, 2.5, np.nan]), np.array(bins))


@pytest.mark.slow       # long: compiles many variants (CI keeps a 15 min budget)
@settings(max_examples=25, deadline=None)
@given(hnp.arrays(st.sampled_from([np.float64, np.float32, np.int32]), st.tuples(st.integers(0, 5), st.integers(1, 4)),
                  elements=st.integers(-9, 9)), st.sampled_from([np.float64, np.float32, np.int64]))
def test_average(a, wdtype):
    w = (np.arange(a.size).reshape(a.shape) % 3).astype(wdtype)
    check_all_levels(K.average_, a, w, approx=True)
    check_all_levels(K.average_, a.T, w.T, approx=True)
    check_all_levels(K.average_, a, w[:1], approx=True)
    check_all_levels(K.average_, a, w.ravel(), approx=True)
    check_all_levels(K.average_, a, np.zeros_like(w), approx=True)


def test_unsupported_forms_point_at_the_call():
    def floats(x):
        return np.bincount(x)

    def scalar(x):
        return np.histogram(x)

    def weights(a):
        return np.histogram(a, weights=a)

    def edges_2d(a):
        return np.histogram(a, bins=a.reshape(1, -1))

    for fn, arg in ((floats, np.ones(3)), (scalar, 2.0), (weights, np.ones(3)), (edges_2d, np.ones(3))):
        with pytest.raises(script.CompileError) as e:
            script.script(fn)(arg)
        assert f"test_numpy_stats.py:{fn.__code__.co_firstlineno + 1}:" in str(e.value), str(e.value)
    with pytest.raises(script.CompileError, match="Cannot cast array data from dtype\\('float64'\\)"):
        script.script(floats)(np.ones(3))


NAN_FLOATS = st.one_of(st.floats(-100, 100), st.just(np.nan))


@settings(max_examples=25, deadline=None)
@given(views(hnp.arrays(FLOAT_DTYPES, st.integers(0, 20), elements=st.floats(-100, 100, width=32) | st.just(np.nan))))
def test_nan_reductions(a):
    check_all_levels(K.nan_reductions, a, approx=True)
    check_all_levels(K.nan_args, a)


@pytest.mark.slow       # long: compiles many variants (CI keeps a 15 min budget)
@settings(max_examples=25, deadline=None)
@given(hnp.arrays(FLOAT_DTYPES, st.tuples(st.integers(1, 5), st.integers(1, 5)),
                  elements=st.floats(-100, 100, width=32) | st.just(np.nan)))
def test_nan_reductions_along_an_axis(m):
    check_all_levels(K.nan_axes, m, approx=True)
    check_all_levels(K.nan_axes, m.T, approx=True)
    check_all_levels(K.nan_arg_axes, m)


def test_nan_reductions_special_cases():
    for a in ([np.nan, np.nan], [], [np.inf, np.nan, -np.inf], [-np.inf, np.nan], [1.0]):
        check_all_levels(K.nan_reductions, np.array(a), approx=True)
        check_all_levels(K.nan_args, np.array(a))
    check_all_levels(K.nan_reductions, np.array([3, 1, 2], dtype=np.int8), approx=True)
    check_all_levels(K.nan_args, np.array([True, False]))
    check_all_levels(K.nan_axes, np.arange(6).reshape(2, 3), approx=True)
    check_all_levels(K.nan_axes, np.array([[np.nan, 1.0], [np.nan, np.nan]]), approx=True)
    check_all_levels(K.nan_arg_axes, np.array([[np.nan, 1.0], [np.nan, 2.0]]))
    check_all_levels(K.nan_axes, np.zeros((0, 3)), approx=True)


def test_histogram_too_many_bins():
    check_all_levels(K.histogram_, np.array([1.0, 1.0 + 2e-16 * 4]), 10)
