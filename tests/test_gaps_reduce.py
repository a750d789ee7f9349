"""keepdims= and dtype= of NumPy's reductions against NumPy (reduce_keywords.py)."""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from hypothesis.extra import numpy as hnp

import gaps_reduce_kernels as K
import script
from difftest import check_all_levels

SHAPE = st.tuples(st.integers(1, 5), st.integers(1, 6))
FLOATS = hnp.arrays(np.float64, SHAPE, elements=st.floats(-100, 100))
# (one sign of zero: which zero a max/min of 0.0 and -0.0 gives is NumPy's SIMD loop's choice,
# a documented difference, docs/arrays.md)
FLOATS_ONE_ZERO = hnp.arrays(np.float64, SHAPE, elements=st.floats(-100, 100).map(lambda x: x or 0.0))
INTS = st.tuples(hnp.arrays(np.int64, SHAPE, elements=st.integers(-100, 100)),
                 st.sampled_from([np.int64, np.int32, np.int8, np.uint8])).map(
    lambda t: (t[0] if np.dtype(t[1]).kind == "i" else np.abs(t[0])).astype(t[1]))
BOOLS = hnp.arrays(np.bool_, SHAPE)


@pytest.mark.slow       # long: compiles many variants (CI keeps a 15 min budget)
@settings(max_examples=40, deadline=None)
@given(st.one_of(FLOATS, INTS, BOOLS))
def test_keepdims(a):
    check_all_levels(K.keep_whole, a, approx=True)
    check_all_levels(K.keep_axis0, a, approx=True)
    check_all_levels(K.keep_axis0, a.T, approx=True)
    check_all_levels(K.keep_last, a, approx=True)
    check_all_levels(K.keep_whole, a[0], approx=True)      # 1-d
    check_all_levels(K.keep_axis0, a[:, 0], approx=True)


@settings(max_examples=30, deadline=None)
@given(FLOATS)
def test_keepdims_broadcasts(a):
    check_all_levels(K.centred, a, approx=True)
    check_all_levels(K.normalized, a, approx=True)
    check_all_levels(K.keep_float_stats, a, approx=True)


@settings(max_examples=40, deadline=None)
@given(st.one_of(INTS, BOOLS, FLOATS.map(np.abs)))
def test_dtype(a):
    check_all_levels(K.with_dtype, a, approx=True)
    check_all_levels(K.with_dtype_axis, a, approx=True)
    check_all_levels(K.with_dtype_axis, a.T, approx=True)
    check_all_levels(K.cumulative_dtype, a, approx=True)


@settings(max_examples=30, deadline=None)
@given(FLOATS)
def test_float32_accumulation(a):
    # Short arrays: NumPy casts in buffers of 8192 elements, one pairwise sum each.
    check_all_levels(K.float_dtype, a)


@pytest.mark.parametrize("fn,args,text", [
    (K.bad_keepdims, (np.ones(3), True), "keepdims must be a constant"),
    (K.bad_dtype_on_max, (np.ones(3),), "unsupported keyword argument 'dtype'"),
    (K.bad_int_mean, (np.ones(3),), "takes a float dtype"),
])
def test_errors(fn, args, text):
    with pytest.raises(script.CompileError) as info:
        script.script(fn)(*args)
    assert text in info.value.message
    assert fn.__name__ not in str(info.value).splitlines()[1] or "return" in str(info.value)


@settings(max_examples=30, deadline=None)
@given(st.one_of(INTS.map(lambda a: a.astype(np.int64)), FLOATS_ONE_ZERO,
                 hnp.arrays(np.float64, SHAPE, elements=st.sampled_from([1.0, -2.0, np.nan, np.inf]))))
def test_ufunc_reduce_and_accumulate(a):
    check_all_levels(K.ufunc_methods, a)
    check_all_levels(K.ufunc_methods, a[:1].T.copy())


@settings(max_examples=30, deadline=None)
@given(hnp.arrays(np.float64, st.integers(1, 30), elements=st.floats(0.5, 100)))
def test_drawdown(prices):
    check_all_levels(K.drawdown, prices)
