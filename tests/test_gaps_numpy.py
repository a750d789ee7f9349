"""np.roll, np.diag, np.array_equal and np.kron against NumPy (numpy_lib.py); iteration over
a.flat and np.ndenumerate(a), and a.flat[i] (arrays.py)."""

import numpy as np
from hypothesis import given, settings, strategies as st
from hypothesis.extra import numpy as hnp

import gaps_numpy_kernels as K
import script
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


KRON_DTYPES = st.sampled_from([np.float64, np.float32, np.int32, np.int64, np.bool_, np.uint8, np.int8])
SMALL = st.one_of(hnp.arrays(KRON_DTYPES, st.integers(0, 4)),
                  hnp.arrays(KRON_DTYPES, st.tuples(st.integers(0, 3), st.integers(0, 3))))


@settings(max_examples=40, deadline=None)
@given(SMALL, SMALL)
def test_kron(a, b):
    check_all_levels(K.kron, a, b)
    check_all_levels(K.kron, a.T, b[::-1])


def _layouts(a):
    """`a` (any rank), transposed, reversed and strided along its first axis."""
    return [a, a.T, a[::-1], a[::2]]


ANY_RANK = hnp.arrays(DTYPES, hnp.array_shapes(min_dims=1, max_dims=3, min_side=0, max_side=4))


@settings(max_examples=15, deadline=None)
@given(ANY_RANK, st.integers(-30, 30))
def test_flat(a, i):
    for x in _layouts(a):
        check_all_levels(K.flat_items, x)
        check_all_levels(K.flat_with_others, x)
        if x.size:
            check_all_levels(K.flat_read, x, i)     # out of range: NumPy's IndexError


@settings(max_examples=40, deadline=None)
@given(ANY_RANK)
def test_ndenumerate(a):
    for x in _layouts(a):
        check_all_levels(K.ndenumerate_items, x)


def _compile_error(fn, *args) -> str:
    try:
        script.script(fn)(*args)
    except script.CompileError as e:
        return str(e)
    raise AssertionError(f"{fn.__name__} compiled without a CompileError")


def test_flat_errors():
    v = np.zeros((2, 3))
    for fn, line, text in [(K.flat_write, "a.flat[0] = 1.0", "writing through it is not"),
                           (K.flat_aug, "a.flat[0] += 1.0", "writing through it is not"),
                           (K.flat_bind, "g = a.flat", "writing through it is not"),
                           (K.flat_slice, "return a.flat[1:3]", "one integer index"),
                           (K.ndenumerate_scalar, "np.ndenumerate(x)", "takes an array")]:
        msg = _compile_error(fn, 1.0 if fn is K.ndenumerate_scalar else v)
        assert "gaps_numpy_kernels.py:" in msg and line in msg and text in msg, msg


@settings(max_examples=25, deadline=None)
@given(st.integers(1, 4).flatmap(lambda n: st.tuples(
    st.lists(st.integers(-5, 5), min_size=n, max_size=n), st.lists(st.integers(-5, 5), min_size=n, max_size=n))))
def test_lists_of_numbers_are_array_like(pair):
    xs, ys = pair
    check_all_levels(K.lists_as_arrays, xs, ys)
    check_all_levels(K.lists_as_arrays, [x * 0.5 for x in xs], [float(y) for y in ys])
