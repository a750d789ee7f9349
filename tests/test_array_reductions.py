"""Reductions (sum, prod, min, max, mean, argmin, argmax, any, all; whole array and along an
axis), cumsum/cumprod, and dot/matmul/`@`, compiled and compared with NumPy: values, dtypes,
errors and messages, over generated dtypes, shapes (empty ones too) and views.

Where compiled code adds floats in another order than NumPy (a sum or product of a view that
is not C-contiguous, a reduction along an axis that NumPy's iterator may reorder, any float
matrix product, where NumPy's BLAS uses its own order), results are compared within a bound
on the rounding error of any summation order: |got - want| <= 4 (n + 1) eps sum|x|. Where the
order is the same (see `test_float_sums_are_numpys_bit_for_bit`), they must be identical.
"""

import warnings

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from hypothesis.extra import numpy as hnp

import reduction_kernels as K
import script
from difftest import compiled

DTYPES = [np.bool_, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32,
          np.uint64, np.float32, np.float64]
FLOATS = [np.float32, np.float64]
KINDS = list(K.REDUCTIONS)
_SPECIALS = [np.nan, np.inf, -np.inf, 0.0, -0.0]


def outcome(fn, *args):
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        try:
            return ("ok", fn(*args))
        except Exception as e:  # noqa: BLE001 - every exception is part of the behaviour
            return ("raise", type(e), str(e))


def assert_same(want, got, *, order_free=True, sign_free=False, bound=None):
    """`got` (compiled) is NumPy's `want`: same kind of result, dtype, shape and values.
    `order_free`: the values must be identical (NaNs equal; zeros' signs too unless
    `sign_free`); else within `bound` (an array like want) of each other."""
    if isinstance(want, tuple):
        assert isinstance(got, tuple) and len(got) == len(want), (want, got)
        for w, g in zip(want, got):
            assert_same(w, g, order_free=order_free, sign_free=sign_free, bound=bound)
        return
    if isinstance(want, np.ndarray):
        assert isinstance(got, np.ndarray), f"NumPy gives an array, compiled {got!r}"
        assert got.dtype == want.dtype and got.shape == want.shape, (got.dtype, got.shape, want.dtype,
                                                                        want.shape)
    else:
        assert not isinstance(got, np.ndarray), f"NumPy gives a scalar {want!r}, compiled {got!r}"
        assert type(got) is type(np.asarray(want).item()), (want, got)
    w, g = np.asarray(want), np.asarray(got, dtype=np.asarray(want).dtype)
    if w.dtype.kind != "f":
        assert np.array_equal(w, g), (want, got)
        return
    if order_free:
        assert np.array_equal(w, g, equal_nan=True), (want, got)
        if not sign_free:
            nan = np.isnan(w)        # a NaN's sign bit is not part of its value
            assert np.array_equal(np.signbit(w) & ~nan, np.signbit(g) & ~nan), ("sign of zero", want, got)
        return
    both_nan = np.isnan(w) & np.isnan(g)
    with np.errstate(invalid="ignore"):
        near = (w == g) | (np.abs(g.astype(np.float64) - w.astype(np.float64)) <= bound)
    assert np.all(both_nan | near), (want, got, bound)


def check(fn, *args, **how):
    """Compare fn(*args) in NumPy with the compiled fn (default optimization level)."""
    for f in how.pop("levels", (compiled(fn),)):
        want, got = outcome(fn, *args), outcome(f, *args)
        if want[0] == "ok" and got[0] == "ok":
            assert_same(want[1], got[1], **how)
        else:
            assert want == got, f"{fn.__name__}: NumPy {want}, compiled {got}"


def check_all_levels(fn, *args, **how):
    check(fn, *args, levels=(compiled(fn, opt=0), compiled(fn)), **how)


def rounding_bound(kind: str, a: np.ndarray, axis):
    """How far two summation orders of the reduction can drift apart."""
    eps = np.finfo(a.dtype).eps if a.dtype.kind == "f" else np.finfo(np.float64).eps
    x = np.abs(a.astype(np.float64))
    n = a.size if axis is None else a.shape[axis]
    with np.errstate(all="ignore"):
        if kind == "prod":
            mag = np.prod(x, axis=axis)
        else:
            mag = np.sum(x, axis=axis) / (max(n, 1) if kind == "mean" else 1)
        return 4 * (n + 1) * eps * mag + (1e-30 if a.dtype == np.float32 else 1e-300)


def same_order(a: np.ndarray) -> bool:
    """Whether compiled code adds the elements in NumPy's order for a whole-array reduction."""
    return a.flags.c_contiguous or (a.ndim == 1 and a.strides[0] > 0)


# ---- generated arrays -------------------------------------------------------------------

@st.composite
def arrays(draw, dtypes=DTYPES, min_dims=1, max_dims=3, max_side=5):
    """An array of a drawn dtype and shape (empty ones included) seen through a drawn view:
    itself, transposed, every other row, reversed along the last axis, or Fortran-ordered."""
    dtype = np.dtype(draw(st.sampled_from(dtypes)))
    shape = draw(hnp.array_shapes(min_dims=min_dims, max_dims=max_dims, min_side=0, max_side=max_side))
    view = draw(st.sampled_from(["C", "T", "rows", "reversed", "F"]))
    if view == "rows":
        shape = (shape[0] * 2,) + shape[1:]
    if dtype.kind == "f":
        finite = st.floats(-4, 4, width=dtype.itemsize * 8)
        elements = st.one_of(finite, finite, finite, st.sampled_from(_SPECIALS)) if draw(st.booleans()) \
            else finite
        base = draw(hnp.arrays(dtype, shape, elements=elements))
    else:
        base = draw(hnp.arrays(dtype, shape))
    return {"C": base, "T": base.T, "rows": base[::2], "reversed": base[..., ::-1],
            "F": np.asfortranarray(base)}[view]


def forms(kind: str, ndim: int):
    """(axis, function) for every way of calling reduction `kind` on an array of `ndim`."""
    table = K.REDUCTIONS[kind]
    out = [(None, table["all"]), (None, table["method"]), (0, table[0]), (-1, table[-1])]
    if ndim >= 2:
        out.append((1, table[1]))
    if ndim >= 3:
        out.append((2, table[2]))
    return out


@pytest.mark.parametrize("kind", KINDS)
@settings(max_examples=5, deadline=None)
@given(a=arrays())
def test_reductions_match_numpy(kind, a):
    float_order = kind in ("sum", "prod", "mean") and a.dtype.kind == "f" or kind == "mean"
    for axis, fn in forms(kind, a.ndim):
        exact = not float_order or (axis is None and same_order(a) and kind != "mean")
        check(fn, a, order_free=exact, sign_free=kind in ("min", "max"),
              bound=None if exact else rounding_bound(kind, a, axis))


@pytest.mark.parametrize("kind", KINDS)
def test_reductions_at_both_optimization_levels(kind):
    a = np.array([[3.0, -1.0, 2.5], [0.5, 7.0, -4.0]])
    for x in (a, a.T, a > 0):
        for axis, fn in forms(kind, x.ndim):
            check_all_levels(fn, x, order_free=kind not in ("mean",) or x.dtype.kind != "f",
                             bound=rounding_bound(kind, x, axis))


# ---- dtypes -----------------------------------------------------------------------------

# IR type names (as signatures print them; i64 and f64 results print as int and float).
_NUMPY_NAMES = {f"{c}{b}": f"{name}{b}" for c, name in (("i", "int"), ("u", "uint")) for b in (8, 16, 32, 64)}
_NUMPY_NAMES.update({"f32": "float32", "f64": "float64", "bool": "bool", "int": "int64", "float": "float64"})


def returned_dtype(f, a) -> str:
    """The dtype compiled `f` returns for a C-contiguous `a`, read from its signature (a
    specialization for any layout, compiled by an earlier test, may be the one that runs)."""
    f(a)
    short = {v: k for k, v in _NUMPY_NAMES.items() if k not in ("int", "float")}[a.dtype.name]
    params = [f"({short}[{','.join([':'] * (a.ndim - 1) + [tail])}])" for tail in ("::1", ":")]
    sig = next(s for s in f.signatures if s.split(" -> ")[0] in params)    # C, or any layout
    return _NUMPY_NAMES[sig.split("-> ")[1]]


@pytest.mark.parametrize("dtype", DTYPES)
def test_result_dtypes_are_numpys(dtype):
    a = (np.arange(1, 7) % 4).astype(dtype).reshape(2, 3)
    for kind in KINDS:
        want = outcome(K.REDUCTIONS[kind]["all"], a)[1]
        assert returned_dtype(compiled(K.REDUCTIONS[kind]["all"]), a) == np.asarray(want).dtype.name, kind
        got = compiled(K.REDUCTIONS[kind][0])(a)
        assert got.dtype == K.REDUCTIONS[kind][0](a).dtype, kind
    for fn in (K.cumsum_flat, K.cumprod_ax1):
        assert compiled(fn)(a).dtype == fn(a).dtype


# ---- errors and special values ----------------------------------------------------------

@pytest.mark.parametrize("shape, dtype", [((0,), np.float64), ((0, 3), np.int32), ((3, 0), np.float32),
                                          ((0, 0), np.bool_), ((2, 0, 3), np.float64)])
def test_empty_arrays(shape, dtype):
    a = np.zeros(shape, dtype)
    for kind in KINDS:
        for axis, fn in forms(kind, a.ndim):
            check(fn, a, order_free=True)


def test_empty_messages():
    with pytest.raises(ValueError, match="^zero-size array to reduction operation minimum which has no identity$"):
        compiled(K.min_all)(np.zeros(0))
    with pytest.raises(ValueError, match="^zero-size array to reduction operation maximum which has no identity$"):
        compiled(K.max_ax0)(np.zeros((0, 2)))
    with pytest.raises(ValueError, match="^attempt to get argmin of an empty sequence$"):
        compiled(K.argmin_all)(np.zeros((2, 0)))
    with pytest.raises(ValueError, match="^attempt to get argmax of an empty sequence$"):
        compiled(K.argmax_ax1)(np.zeros((2, 0)))
    assert compiled(K.argmax_ax0)(np.zeros((2, 0))).shape == (0,)
    assert np.isnan(compiled(K.mean_all)(np.zeros(0)))
    np.testing.assert_array_equal(compiled(K.mean_ax0)(np.zeros((0, 2))), [np.nan, np.nan])


def test_nan_semantics():
    a = np.array([1.0, np.nan, -3.0, np.nan, 7.0])
    for fn in (K.min_all, K.max_all, K.argmin_all, K.argmax_all, K.sum_all, K.mean_all, K.any_all,
               K.all_all, K.prod_all, K.cumsum_flat):
        check_all_levels(fn, a)
    assert compiled(K.argmax_all)(a) == 1 and compiled(K.argmin_all)(a) == 1
    check(K.argmin_all, np.array([np.nan, -1.0]))
    m = np.array([[1.0, np.nan], [np.nan, 0.0], [2.0, 5.0]])
    for kind in ("min", "max", "argmin", "argmax"):
        for axis, fn in forms(kind, 2):
            check_all_levels(fn, m)
    check(K.argmax_all, np.array([-np.inf, -np.inf]))
    check(K.max_all, np.array([-np.inf, -np.inf]))


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_vectorized_min_max_of_long_lines(dtype):
    # a contiguous line runs IEEE maximum/minimum in vectors, then again where it gave a NaN
    rng = np.random.default_rng(7)
    for n in (1, 7, 64, 1001):
        a = rng.normal(size=n).astype(dtype)
        for k in {0, n // 2, n - 1}:
            b = a.copy()
            b[k] = np.nan
            for x in (a, b, -np.abs(a), a.reshape(1, -1), np.array([np.inf] * n, dtype)):
                for fn in (K.min_all, K.max_all, K.max_ax1 if x.ndim == 2 else K.max_all):
                    check(fn, x)


def test_ties_give_the_first_index():
    a = np.array([[2, 5, 5], [5, 1, 1], [0, 5, 1]], np.int16)
    for kind in ("argmin", "argmax"):
        for axis, fn in forms(kind, 2):
            check_all_levels(fn, a)


def test_integer_overflow_wraps_as_numpy():
    a = np.array([2 ** 62, 2 ** 62, 3], np.int64)
    check_all_levels(K.sum_all, a)
    check_all_levels(K.prod_all, a)
    check_all_levels(K.cumsum_flat, a)
    u = np.array([2 ** 63, 2 ** 63, 5], np.uint64)
    check_all_levels(K.sum_all, u)
    check_all_levels(K.sum_all, np.full(300, 127, np.int8))     # int8 sums go to int64


def test_axis_errors_are_compile_errors():
    a = np.zeros((2, 3))
    with pytest.raises(script.CompileError, match="axis 5 is out of bounds for array of dimension 2"):
        compiled(K.sum_ax5)(a)
    with pytest.raises(script.CompileError, match="axis -4 is out of bounds for array of dimension 2"):
        compiled(K.sum_axm4)(a)
    with pytest.raises(script.CompileError, match="axis 2 is out of bounds for array of dimension 2"):
        compiled(K.min_ax2)(a)
    with pytest.raises(script.CompileError, match="int constant"):
        compiled(K.sum_axis_var)(a, 0)
    check_all_levels(K.sum_tuple_axes, a)          # a tuple of axes is supported (test_np3_features.py)
    check_all_levels(K.sum_dtype, a + 0.25)       # dtype= is supported (test_gaps_reduce.py)
    with pytest.raises(script.CompileError, match="takes an array"):
        compiled(K.sum_of_scalar)(1.5)
    check_all_levels(K.sum_axis_none, a + 1)
    check_all_levels(K.amin_all, np.array([3, -2, 7]))
    check_all_levels(K.amax_ax0, np.arange(6).reshape(2, 3))


# ---- summation order --------------------------------------------------------------------

@pytest.mark.parametrize("dtype", FLOATS)
def test_float_sums_are_numpys_bit_for_bit(dtype):
    """Pairwise summation in NumPy's order: 1-d arrays (any stride), C-contiguous arrays,
    each line along the last axis, and slices added in order along the first axis."""
    rng = np.random.default_rng(7)
    for n in [0, 1, 5, 7, 8, 9, 15, 16, 17, 100, 127, 128, 129, 130, 255, 256, 1000, 4099, 20000]:
        x = (rng.standard_normal(2 * n) * 10.0 ** rng.uniform(-6, 6, 2 * n)).astype(dtype)
        for a in (x[:n], x[::2], x.reshape(2, n)):
            check(K.sum_all, a)
            check(K.mean_all, a)
        m = x.reshape(2, n)
        check(K.sum_axm1, m)
        check(K.mean_axm1, m)
        if n > 1:
            check(K.sum_ax0, x.reshape(n, 2))
            check(K.prod_ax0, np.abs(x.reshape(n, 2)) ** 0.01)
            check(K.prod_all, np.abs(x[:n]) ** 0.01)
    check(K.sum_all, np.full(9, -0.0, dtype))            # NumPy's sum of -0.0s is 0.0


def test_pairwise_is_more_accurate_than_a_loop():
    x = np.full(1_000_000, 0.1)
    got = compiled(K.sum_all)(x)
    assert got == np.sum(x)
    assert abs(got - 100_000.0) < 1e-8 < abs(sum(x.tolist()) - 100_000.0)


# ---- cumsum, cumprod --------------------------------------------------------------------

@pytest.mark.parametrize("name", ["cumsum", "cumprod"])
@settings(max_examples=30, deadline=None)
@given(a=arrays())
def test_cumulative_matches_numpy(name, a):
    for axis, fn in K.CUMULATIVE[name].items():
        if isinstance(axis, int) and axis >= a.ndim:
            continue
        check(fn, a)         # NumPy accumulates in order too: identical results


def test_cumulative_at_both_levels():
    a = np.arange(1.0, 13.0).reshape(3, 4)
    for fns in K.CUMULATIVE.values():
        for axis, fn in fns.items():
            for x in (a, a.T, a[::2, ::-1], (a % 3).astype(np.uint8), a > 4):
                check_all_levels(fn, x)


# ---- dot, matmul, @ ---------------------------------------------------------------------

def operand_shapes(n: int, k: int, m: int):
    return [((k,), (k,)), ((n, k), (k,)), ((k,), (k, m)), ((n, k), (k, m))]


_PRODUCT_DTYPES = [np.bool_, np.int8, np.uint8, np.int32, np.int64, np.uint64, np.float32, np.float64]


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 7), st.integers(0, 9), st.integers(0, 6),
       st.sampled_from(_PRODUCT_DTYPES), st.sampled_from(_PRODUCT_DTYPES), st.sampled_from(["C", "T", "strided"]),
       st.integers(0, 2 ** 32 - 1))
def test_products_match_numpy(n, k, m, ta, tb, layout, seed):
    rng = np.random.default_rng(seed)

    def values(shape, dtype):
        return rng.integers(-5, 6, shape).astype(dtype) if np.dtype(dtype).kind != "f" \
            else rng.uniform(-3, 3, shape).astype(dtype)

    def make(shape, dtype):
        if layout == "T" and len(shape) == 2:
            return values(shape[::-1], dtype).T
        if layout == "strided":
            return values((shape[0] * 2,) + shape[1:], dtype)[::2]
        return values(shape, dtype)
    for sa, sb in operand_shapes(n, k, m):
        a, b = make(sa, ta), make(sb, tb)
        want = a @ b
        exact = want.dtype.kind != "f"
        bound = None if exact else 4 * (k + 1) * np.finfo(want.dtype).eps * (np.abs(a).astype(float) @ np.abs(
            b).astype(float)) + 1e-30
        for fn in (K.dot, K.matmul_op):
            check(fn, a, b, order_free=exact, bound=bound)


def test_products_at_both_levels():
    rng = np.random.default_rng(3)
    a, b, v = rng.integers(-9, 9, (4, 5)), rng.integers(-9, 9, (5, 3)), rng.integers(-9, 9, 5)
    for fn in K.PRODUCTS:
        check_all_levels(fn, a, b)
        check_all_levels(fn, a, v)
        check_all_levels(fn, v, b)
        check_all_levels(fn, v, v)
        check_all_levels(fn, a.astype(np.int8) * 20, b.astype(np.int8) * 20)   # int8 wraps
        check_all_levels(fn, a > 0, b > 0)                                   # bool: any(and)
        check_all_levels(fn, np.zeros((2, 0)), np.zeros((0, 3)))
        check_all_levels(fn, np.zeros(0), np.zeros(0))


def test_product_mismatch_messages():
    cases = [((2, 3), (4,)), ((3,), (4,)), ((3,), (4, 5)), ((2, 3), (4, 5))]
    for sa, sb in cases:
        a, b = np.zeros(sa), np.zeros(sb)
        for fn in (K.matmul_op, K.np_matmul):
            check_all_levels(fn, a, b)                     # NumPy's gufunc message
        want = outcome(K.dot, a, b)
        assert want[1] is ValueError
        for fn in (K.dot, K.dot_method):
            assert outcome(compiled(fn), a, b) == want
    assert outcome(compiled(K.dot), np.zeros((2, 3)), np.zeros(4))[2] == \
        "shapes (2,3) and (4,) not aligned: 3 (dim 1) != 4 (dim 0)"


def test_product_compile_errors():
    with pytest.raises(script.CompileError, match="operator @"):
        compiled(K.matmul_scalar)(np.zeros((2, 2)), 2.0)
    # a stack of matrices times a matrix is supported now (docs/arrays.md, fourth corpus)
    a, b = np.arange(8.0).reshape(2, 2, 2), np.arange(4.0).reshape(2, 2)
    np.testing.assert_array_equal(compiled(K.matmul_3d)(a, b), a @ b)


def test_big_matmul_is_right():
    rng = np.random.default_rng(5)
    a, b = rng.standard_normal((130, 70)), rng.standard_normal((70, 90))
    np.testing.assert_allclose(compiled(K.matmul_op)(a, b), a @ b, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(compiled(K.gram)(a), a.T @ a, rtol=1e-12, atol=1e-12)
    a32 = a.astype(np.float32)
    got = compiled(K.matmul_op)(a32, a32.T)
    assert got.dtype == np.float32
    np.testing.assert_allclose(got, a32 @ a32.T, rtol=1e-4, atol=1e-4)
    unchecked = script.script(K.matmul_op, boundscheck=False)
    np.testing.assert_allclose(unchecked(a, b), a @ b, rtol=1e-12, atol=1e-12)


# ---- in context -------------------------------------------------------------------------

def test_reductions_of_views_in_loops():
    rng = np.random.default_rng(11)
    for shape in [(5, 6), (1, 4), (7, 1)]:
        m = rng.random(shape)
        for x in (m, m.T.copy(), m[::-1]):
            check_all_levels(K.row_stats, x, order_free=False, bound=1e-12)
    m = rng.random((4, 3)) - 0.5
    check_all_levels(K.normalize_columns, m, order_free=False, bound=1e-12)


def test_power_iteration():
    a = np.array([[2.0, 1.0, 0.0], [1.0, 3.0, 1.0], [0.0, 1.0, 4.0]])
    got = compiled(K.power_iteration)(a, 200)
    assert got == pytest.approx(np.linalg.eigvalsh(a).max(), rel=1e-9)
