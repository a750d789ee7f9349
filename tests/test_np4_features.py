"""The NumPy forms the fourth corpus (realistic_np4.py) needed, each against NumPy on many
inputs, errors included: percentile/quantile of an array `q` along an axis, take_along_axis,
put_along_axis, ix_, squeeze(axis=), indices, lexsort, gradient, polyder, ufunc `out=`,
select, ufunc `.at` and `.outer` (kernels in np4_feature_kernels.py)."""

import re
import resource

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from hypothesis.extra import numpy as hnp

import np4_feature_kernels as K
from difftest import check_all_levels, compiled
from script.errors import CompileError

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")
EX = settings(max_examples=12, deadline=None)
FLOATS = st.floats(-100, 100, allow_nan=False, width=64)
MAT = hnp.arrays(np.float64, st.tuples(st.integers(1, 5), st.integers(1, 5)), elements=FLOATS)
VEC = hnp.arrays(np.float64, st.integers(2, 9), elements=FLOATS)
QS = hnp.arrays(np.float64, st.integers(1, 4), elements=st.floats(0, 1))


@EX
@given(MAT, QS)
def test_quantiles_along_axis(m, q):
    check_all_levels(K.quantiles_axis, m, q)
    check_all_levels(K.quantiles_axis, m.T, q)
    check_all_levels(K.quantiles_vector, m[0], q)


@EX
@given(MAT.map(lambda m: m + 0.0))      # (no -0.0 next to 0.0: which comes first is unspecified)
def test_take_put_along_axis(m):
    u = np.unique(m.ravel())
    m = u[np.arange(m.size) % u.size].reshape(m.shape)      # ties only where the sort is stable
    check_all_levels(K.take_along, m)
    check_all_levels(K.take_along, np.asfortranarray(m))
    check_all_levels(K.put_along, m, 7.5)


def test_take_along_errors():
    m = np.arange(12.0).reshape(3, 4)
    check_all_levels(K.take_along_bad, m, np.array([[0], [5], [1]]))         # IndexError
    check_all_levels(K.take_along_bad, m, np.array([[0, 1], [1, 2]]))        # broadcasting


@EX
@given(MAT, st.lists(st.integers(-5, 4), min_size=1, max_size=4), st.lists(st.integers(-5, 4), min_size=1, max_size=4))
def test_ix(m, rows, cols):
    r, c = np.array(rows), np.array(cols)
    check_all_levels(K.ix_mesh, m, r, c)
    check_all_levels(K.ix_write, m, r, c)


def test_ix_3d():
    v = np.arange(24).reshape(2, 3, 4)
    check_all_levels(K.ix_3, v, np.array([1, 0]), np.array([2]), np.array([3, 0, 1]))


def test_squeeze():
    m = np.arange(6.0).reshape(3, 2)
    check_all_levels(K.squeezes, m)
    check_all_levels(K.squeeze_bad, m)                                        # ValueError
    check_all_levels(K.squeeze_bad, m[:1])
    r = compiled(K.squeezes)(m)[0]
    r[0] = 42.0
    assert m[0, 0] == 42.0                                                    # a view, as NumPy's


def test_squeeze_without_axis_is_a_compile_error():
    with pytest.raises(CompileError, match=r"squeeze\(\) without axis= .* \(pass axis=\)"):
        compiled(K.squeeze_no_axis)(np.ones((2, 1)))


@pytest.mark.parametrize("h,w", [(3, 4), (1, 1), (0, 2)])
def test_indices(h, w):
    check_all_levels(K.index_grid, h, w)


@EX
@given(st.lists(st.tuples(st.integers(0, 2), st.integers(-2, 2), st.booleans()), min_size=1, max_size=9))
def test_lexsort(rows):
    a = np.array([r[0] for r in rows])
    b = np.array([float(r[1]) for r in rows])
    c = np.array([r[2] for r in rows])
    check_all_levels(K.lexsorts, a, b, c)


def test_lexsort_errors():
    check_all_levels(K.lexsort_bad, np.arange(3), np.arange(4))               # ValueError


@EX
@given(VEC, st.floats(0.1, 10))
def test_gradient_1d(f, dx):
    check_all_levels(K.gradients_1d, f, dx, approx=True)
    check_all_levels(K.gradients_1d, f.astype(np.float32), dx, approx=True)
    check_all_levels(K.gradients_1d, (f * 10).astype(np.int64), dx, approx=True)
    check_all_levels(K.gradient_coords, f, np.cumsum(np.abs(f) + 1.0), approx=True)
    check_all_levels(K.gradient_coords, f, np.arange(len(f)) * 3, approx=True)


def test_gradient_errors():
    check_all_levels(K.gradients_1d, np.ones(1), 1.0)                         # too short
    check_all_levels(K.gradient_coords, np.ones(4), np.arange(3.0))           # lengths
    check_all_levels(K.gradients_1d, np.arange(6, dtype=np.uint8)[::-1], 2.0)


@EX
@given(hnp.arrays(np.float64, st.tuples(st.integers(2, 5), st.integers(2, 5)), elements=FLOATS),
       st.floats(0.1, 4), st.floats(0.1, 4))
def test_gradient_2d(f, dy, dx):
    check_all_levels(K.gradients_2d, f, dy, dx, approx=True)
    check_all_levels(K.gradients_2d, f.T, dy, dx, approx=True)


@pytest.mark.parametrize("p,m", [(np.array([1.0, 2, 3, 4]), 2), (np.array([3, 2, 1]), 3), (np.array([5.0]), 1),
                                 (np.array([1.0, 0.0, -2.0]), 0), (np.array([1.0, 2.0]), -1)])
def test_polyder(p, m):
    check_all_levels(K.polyders, p, m)


@EX
@given(VEC, VEC)
def test_ufunc_out(a, b):
    n = min(len(a), len(b))
    check_all_levels(K.ufunc_out, a[:n], b[:n])
    check_all_levels(K.ufunc_out_shape, a[:n], b[:n], n)
    check_all_levels(K.ufunc_out_shape, a[:n], b[:n], 1)                      # non-broadcastable output
    check_all_levels(K.ufunc_out_shape, a[:n], b[:n], n + 1)                  # operands ... (n,) (n,) (n+1,)


def test_ufunc_out_views_and_cast():
    check_all_levels(K.ufunc_out_views, np.arange(-6.0, 6.0).reshape(4, 3) + 0.5)   # (no -0.0: maximum(-0.0, 0.0) may be either)
    with pytest.raises(CompileError, match="Cannot cast ufunc 'add' output from dtype\\('float64'\\) to "
                                           "dtype\\('int64'\\) with casting rule 'same_kind'"):
        compiled(K.ufunc_out_cast)(np.arange(3))


@EX
@given(VEC)
def test_select(x):
    check_all_levels(K.selects, x)
    m = x[:len(x) // 2 * 2].reshape(2, -1)
    check_all_levels(K.select_2d, m, np.arange(m.shape[1], dtype=np.float64))


def test_select_errors():
    with pytest.raises(ValueError):          # NumPy's message names the shapes another way
        compiled(K.select_2d)(np.ones((2, 3)), np.ones(2))
    with pytest.raises(CompileError, match="invalid entry 0 in condlist: should be boolean ndarray"):
        compiled(K.select_int_condition)(np.arange(3))
    with pytest.raises(CompileError, match="list of cases must be same length as list of conditions"):
        compiled(K.select_lengths)(np.arange(3.0))


@EX
@given(st.integers(1, 6), st.lists(st.integers(-6, 6), min_size=2, max_size=10))
def test_ufunc_at(n, idx):
    idx = np.array(idx)
    check_all_levels(K.ufunc_at, n, idx, np.arange(float(len(idx))))      # IndexError when out of range
    check_all_levels(K.ufunc_at, n, idx, 2.0)
    check_all_levels(K.ufunc_at, n, idx, np.arange(3.0))                   # not broadcastable
    check_all_levels(K.ufunc_at_int, np.zeros(n, dtype=np.int32), idx)


@EX
@given(VEC, MAT)
def test_ufunc_outer(v, m):
    v, m = v + 0.0, m + 0.0         # (no -0.0: NumPy's SIMD maximum of 0.0 and -0.0 gives either)
    check_all_levels(K.ufunc_outer, v, v[::-1])
    check_all_levels(K.ufunc_outer, m, v)              # shape (r, c, n): neither flattened
    check_all_levels(K.ufunc_outer, m[:, ::2], m.T)    # a strided operand
    check_all_levels(K.ufunc_outer_ints, np.arange(len(v)), m.astype(np.int64))


@EX
@given(MAT)
def test_apply_along_axis(m):
    m = m + 0.0      # no -0.0: which of equal zeros np.sort puts first is its algorithm's (differences.md)
    check_all_levels(K.along_axis, m)
    check_all_levels(K.along_axis, np.round(m).astype(np.int64))
    check_all_levels(K.along_axis, m[:0])          # NumPy's ValueError for an empty axis


@EX
@given(MAT, VEC)
def test_swapaxes_moveaxis_diag_indices(m, v):
    check_all_levels(K.swapped, m, v)


@EX
@given(VEC, VEC)
def test_errstate_block_runs_its_body(a, b):
    n = min(len(a), len(b))
    b = b[:n].copy()
    b[::2] = 0.0
    with np.errstate(all="ignore"):
        check_all_levels(K.safe_ratio, a[:n], b)


def test_other_with_statements_are_compile_errors():
    with pytest.raises(CompileError, match="'with' statements are not supported in compiled code .except"):
        compiled(K.with_other_context)("x")


def test_ufunc_at_rows_and_cast():
    m = np.arange(12.0).reshape(4, 3)
    for row in (np.array([1.0, 2, 3]), np.ones((3, 3)), np.ones((1, 3)), np.ones((2, 3))):
        check_all_levels(K.ufunc_at_rows, m, np.array([1, 1, 3]), row)
    with pytest.raises(CompileError, match="Cannot cast ufunc 'add' output from dtype\\('float64'\\)"):
        compiled(K.ufunc_at_cast)(np.zeros(3, dtype=np.int64), np.array([0, 1]))


@EX
@given(MAT)
def test_norm_keepdims(m):
    check_all_levels(K.norms_keepdims, m, approx=True)


@pytest.mark.parametrize("n,p", [(10, 0.3), (1000, 0.5), (100000, 0.02), (5, 0.9), (200, 0.9), (0, 0.5), (7, 0.0),
                                 (7, 1.0)])
def test_generator_binomial(n, p):
    """Another stream than NumPy's (docs/random.md): the distribution's mean and variance,
    the range, the dtype and reproducibility; inversion and BTPE are both exercised."""
    f = compiled(K.binomials)
    a, one = f(n, p, 4000, 7)
    assert a.dtype == np.int64 and a.shape == (4000,) and isinstance(one, int)
    assert a.min() >= 0 and a.max() <= n and 0 <= one <= n
    sd = np.sqrt(n * p * (1 - p))
    assert abs(a.mean() - n * p) <= 5 * sd / np.sqrt(len(a)) + 1e-12
    assert abs(a.var() - sd * sd) <= 0.15 * sd * sd + 1e-12
    assert np.array_equal(f(n, p, 4000, 7)[0], a)
    assert compiled(K.binomial_matrix)(n, p, 3).shape == (3, 4)


@pytest.mark.parametrize("n,p", [(-1, 0.5), (3, 1.5), (3, -0.1), (3, float("nan"))])
def test_generator_binomial_errors(n, p):
    with pytest.raises(ValueError) as want:
        K.binomials(n, p, 3, 1)
    with pytest.raises(ValueError) as got:
        compiled(K.binomials)(n, p, 3, 1)
    assert str(got.value) == str(want.value)


INT_DTYPES = st.sampled_from([np.int64, np.int32, np.int8, np.uint8, np.uint64, np.bool_])


@EX
@given(INT_DTYPES, st.lists(st.tuples(st.integers(-100, 100), st.integers(-5, 5)), min_size=1, max_size=8))
def test_int_floor_ceil_trunc_fmod(dtype, pairs):
    """NumPy 2's int (and bool) loops of floor, ceil, trunc (the value) and fmod (C's
    remainder, 0 by zero): these compiled to float intrinsics on ints and crashed LLVM."""
    a = np.array([p[0] for p in pairs]).astype(dtype)
    b = np.array([p[1] for p in pairs]).astype(dtype)
    check_all_levels(K.int_rounding, a, b)


@pytest.mark.parametrize("x,y", [(7, 2), (-7, 2), (7, -2), (-7, -2), (5, 0), (0, 3)])
def test_int_floor_fmod_scalars(x, y):
    check_all_levels(K.int_rounding_scalars, x, y)


@EX
@given(hnp.arrays(np.float64, st.integers(0, 12), elements=FLOATS), st.integers(1, 5))
def test_split(x, k):
    check_all_levels(K.splits, x if len(x) % 2 == 0 else x[1:], k)
    check_all_levels(K.split_bad, x, k)                   # an uneven division raises
    check_all_levels(K.array_split_bad, x, k - 1)         # 0 sections


def test_split_2d_and_views():
    m = np.arange(24.0).reshape(4, 6)
    check_all_levels(K.splits_2d, m)
    check_all_levels(K.splits_2d, m[:, :5])               # hsplit of 5 columns in 2 raises
    check_all_levels(K.split_writes_through, np.arange(4.0))
    check_all_levels(K.split_bad, np.arange(4.0), 0)      # ZeroDivisionError, as NumPy's


@EX
@given(hnp.arrays(np.float64, st.integers(1, 10), elements=FLOATS), st.integers(0, 4))
def test_sliding_window_view(x, w):
    check_all_levels(K.windows, x, w, approx=True)        # a window longer than x raises
    m = np.vstack((x, x[::-1] * 2))
    check_all_levels(K.windows_2d, m, min(w, 2))


def test_isposinf_isneginf():
    check_all_levels(K.inf_signs, np.array([1.0, np.inf, -np.inf, np.nan, -0.0]))
    check_all_levels(K.inf_signs, np.arange(-2, 3))


SHAPES = st.sampled_from([((4, 5, 3), (3,)), ((2, 3, 4), (2, 4, 2)), ((2, 3, 4), (4, 2)), ((3, 4), (2, 4, 5)),
                          ((3,), (2, 3, 4)), ((2, 1, 3, 4), (5, 4, 2)), ((1, 3, 4), (2, 4, 1)), ((2, 3, 4), (3, 2))])


@EX
@given(SHAPES, st.sampled_from([np.float64, np.float32, np.int64, np.int32]), st.integers(0, 2 ** 32 - 1))
def test_stacked_matmul(shapes, dtype, seed):
    """@ with an operand of more than two axes: stacks of products, the leading axes
    broadcast; NumPy's core-dimension error (the last shape pair)."""
    r = np.random.default_rng(seed)
    a, b = ((r.normal(size=s) * 10).astype(dtype) for s in shapes)
    for fn in (compiled(K.stacked_matmul, opt=0), compiled(K.stacked_matmul)):
        try:
            want = K.stacked_matmul(a, b)
        except ValueError as e:
            with pytest.raises(ValueError, match=re.escape(str(e))):
                fn(a, b)
            continue
        for w, g in zip(want, fn(a, b)):
            assert w.dtype == g.dtype and w.shape == g.shape
            # sums in another order than BLAS's: within n eps sum|a||b| of each other
            bound = 4 * a.shape[-1] * np.finfo(np.float32).eps * np.abs(a).max() * np.abs(b).max()
            assert np.allclose(w, g, rtol=0, atol=bound) if w.dtype.kind == "f" else np.array_equal(w, g)


def test_stacked_matmul_errors():
    with pytest.raises(ValueError, match="operands could not be broadcast together"):     # NumPy: remapped shapes
        compiled(K.stacked_matmul)(np.ones((2, 3, 4)), np.ones((3, 4, 2)))
    with pytest.raises(CompileError, match=r"of arrays of more than 2 dimensions is not supported in compiled code \(use @"):
        compiled(K.stacked_dot)(np.ones((2, 3, 4)), np.ones(4))
    with pytest.raises(CompileError, match="bool arrays of more than 2 dimensions"):
        compiled(K.stacked_matmul)(np.ones((2, 2, 2), bool), np.ones(2, bool))


@EX
@given(st.one_of(st.integers(0, 60), st.integers(0, 10 ** 7)), st.floats(0, 1), st.integers(0, 2 ** 32 - 1))
def test_legacy_binomial_is_numpys(n, p, seed):
    """np.random.binomial after np.random.seed: NumPy's numbers bit for bit (inversion and
    BTPE, the same algorithms on the same MT19937 doubles)."""
    check_all_levels(K.legacy_binomials, n, p, 50, seed)


@pytest.mark.parametrize("n,p", [(-1, 0.5), (3, 1.5), (3, -0.1), (3, float("nan"))])
def test_legacy_binomial_errors(n, p):
    check_all_levels(K.legacy_binomials, n, p, 3, 1)


@EX
@given(st.integers(-2, 6), st.integers(-2, 6))
def test_mgrid_ogrid(n, m):
    check_all_levels(K.mgrids, n, m)                       # negative lengths raise NumPy's ValueError
    check_all_levels(K.ogrid_disk, n, m, 2.0)


@EX
@given(st.integers(0, 6), st.floats(-5, 5), st.floats(-5, 5))
def test_mgrid_points(n, a, b):
    check_all_levels(K.mgrid_points, n, a, b)


def test_mgrid_zero_step():
    check_all_levels(K.mgrid_zero_step, 3)                 # ZeroDivisionError


@EX
@given(st.integers(1, 5), st.floats(-10, 10))
def test_assign_real_imag(n, s):
    check_all_levels(K.set_parts, n, np.arange(n) * s, np.linspace(0, s, n))
    check_all_levels(K.set_parts, n, s, 2.0)
    check_all_levels(K.set_parts, n, np.arange(n + 1.0), 1.0)           # broadcasting error


def test_assign_imag_of_real_array_is_a_compile_error():
    with pytest.raises(CompileError, match="a.imag of a real array"):
        compiled(K.set_imag_of_real)(np.zeros(3))


def test_nothing_leaks():
    x = np.arange(1.0, 9.0)
    m = np.arange(12.0).reshape(3, 4) % 5
    idx = np.array([0, 2, 2, 1])
    f = compiled(K.churn)
    assert f(x, m, idx, 3) == pytest.approx(K.churn(x, m, idx, 3))
    f(x, m, idx, 2000)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    f(x, m, idx, 100_000)          # ~20 arrays a round: leaking any would be tens of MB
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before < 20_000
