"""np.nonzero and friends, triangles and grids (numpy_lib.py), convolutions, polynomials and
integrals (numpy_signal.py), and linear algebra without LAPACK (numpy_linalg_lib.py) in
compiled code against NumPy itself."""

import numpy as np
import pytest
from hypothesis import assume, given, settings, strategies as st
from hypothesis.extra import numpy as hnp

import lib_kernels as K
import script
from difftest import check_all_levels, compiled

SMALL = st.integers(-9, 9)


@settings(max_examples=25, deadline=None)
@given(hnp.arrays(np.int64, hnp.array_shapes(min_dims=1, max_dims=3, min_side=0, max_side=4),
                  elements=st.integers(-1, 1)), st.sampled_from([np.float64, np.int32, np.bool_]))
def test_nonzero(a, dtype):
    a = a.astype(dtype)
    check_all_levels(K.nonzeros, a)
    check_all_levels(K.nonzeros, a.T)


def test_nonzero_nan_and_strided():
    a = np.array([[0.0, np.nan, -0.0], [np.inf, 0.0, 2.0]])
    check_all_levels(K.nonzeros, a)
    check_all_levels(K.nonzeros, a[:, ::-2])


@settings(max_examples=20, deadline=None)
@given(hnp.arrays(st.sampled_from([np.float64, np.int16]), st.tuples(st.integers(0, 5), st.integers(0, 5)),
                  elements=SMALL))
def test_triangles_and_grids(m):
    check_all_levels(K.triangles, m)
    check_all_levels(K.triangles, m.T)
    check_all_levels(K.grid, m.ravel(), m[:, 0] if m.shape[1] else m.ravel()[::-1])


@settings(max_examples=30, deadline=None)
@given(hnp.arrays(st.sampled_from([np.float64, np.int64, np.float32]), st.integers(0, 9), elements=SMALL),
       hnp.arrays(st.sampled_from([np.float64, np.int32]), st.integers(0, 6), elements=SMALL))
def test_convolve_correlate(a, v):
    # float sums are BLAS dot products in NumPy: equal up to rounding
    check_all_levels(K.convolutions, a, v, approx=True)
    check_all_levels(K.convolutions, a[::-1], v[::2], approx=True)
    check_all_levels(K.convolutions, a * 0.1, v, approx=True)


@settings(max_examples=25, deadline=None)
@given(hnp.arrays(st.sampled_from([np.float64, np.int64]), st.integers(1, 6), elements=SMALL),
       hnp.arrays(st.sampled_from([np.float64, np.float32, np.int32]), st.integers(0, 5), elements=SMALL))
def test_polyval_trapezoid(p, x):
    check_all_levels(K.polyvals, p, x)
    check_all_levels(K.polyvals, p, x.reshape(1, -1))
    check_all_levels(K.trapezoids, x, np.cumsum(np.abs(x) + 0.5)[::-1])
    check_all_levels(K.trapezoids, x, np.arange(2.0))
    check_all_levels(K.trapezoids, x * np.nan, np.arange(2.0))


def test_string_options_and_errors_point_at_the_call():
    def bad_mode(a):
        return np.convolve(a, a, mode="middle")

    def ij(a):
        return np.meshgrid(a, a, indexing="ji")

    def one_d(a):
        return np.linalg.inv(a)

    for fn in (bad_mode, ij, one_d):
        with pytest.raises(script.CompileError) as e:
            script.script(fn)(np.ones(3))
        assert f"test_numpy_signal_linalg.py:{fn.__code__.co_firstlineno + 1}:" in str(e.value), str(e.value)


def _close(x, y, rtol):
    if isinstance(x, tuple):
        return all(_close(p, q, rtol) for p, q in zip(x, y))
    if not isinstance(y, np.ndarray):          # compiled scalars come back as Python floats
        return isinstance(y, float) and np.isclose(float(x), y, rtol=rtol, atol=rtol)
    return x.dtype == y.dtype and x.shape == y.shape and np.allclose(x, y, rtol=rtol, atol=rtol)


def check_linalg(fn, *args):
    """NumPy and compiled code agree (bit for bit where the process has LAPACK: the same
    routines; up to rounding, relative to the condition of the system, through the compiled
    LU without it); errors are of NumPy's class (LinAlgError), with its message."""
    try:
        want = ("ok", fn(*args))
    except Exception as e:      # noqa: BLE001
        want = ("raise", e)
    for opt in (0, None):
        f = compiled(fn, opt=opt) if opt is not None else compiled(fn)
        try:
            got = ("ok", f(*args))
        except Exception as e:  # noqa: BLE001
            got = ("raise", e)
        assert want[0] == got[0], (args, want, got)
        if want[0] == "raise":
            assert type(got[1]) is type(want[1]) and str(got[1]) == str(want[1]), (want, got)
        else:
            rtol = 1e-4 if np.result_type(*args) == np.float32 else 1e-9
            assert _close(want[1], got[1], rtol), (args, want, got)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 6), st.data())
def test_solve_inv_det(n, data):
    a = data.draw(hnp.arrays(np.float64, (n, n), elements=st.floats(-10, 10)))
    a = a + np.eye(n) * 25              # well-conditioned: rounding differences stay small
    # ...unless the draw cancels the diagonal (all -5: every row sums to 0). Whether an LU
    # meets an exact zero pivot then depends on rounding: LAPACK's may, ours may not.
    # The int copy below is rounded, so it must be well-conditioned too (a diagonal of 16.5
    # rounded to 16 among -4s is singular up to rounding).
    assume(n == 0 or np.linalg.cond(a) < 1e8 and np.linalg.cond(np.round(a)) < 1e8)
    b = data.draw(hnp.arrays(np.float64, (n,), elements=st.floats(-10, 10)))
    check_linalg(K.solve_, a, b)
    check_linalg(K.solve_, a.T, np.stack((b, b[::-1]), axis=1))
    check_linalg(K.inv_det, a)
    check_linalg(K.inv_det, a.astype(np.float32))
    check_linalg(K.inv_det, np.round(a).astype(np.int64))


def test_linalg_errors():
    singular = np.array([[1.0, 2.0], [2.0, 4.0]])
    check_linalg(K.solve_, singular, np.ones(2))
    check_linalg(K.inv_det, singular)
    check_linalg(K.inv_det, np.zeros((3, 3)))
    check_linalg(K.inv_det, np.ones((2, 3)))
    check_linalg(K.solve_, np.eye(2), np.ones(3))
    check_linalg(K.solve_, np.eye(2), np.ones((3, 2)))
    check_linalg(K.solve_, np.ones((2, 3)), np.ones(2))
    check_linalg(K.inv_det, np.array([[0.0, 1.0], [1.0, 0.0]]))      # a row swap: det -1


@pytest.mark.skipif(not __import__("script.backend.runtime.lapack", fromlist=["x"]).available("dgesv"),
                    reason="no LAPACK with 64-bit integers in this process")
@settings(max_examples=30, deadline=None)
@given(st.integers(1, 6), st.data())
def test_solve_inv_det_are_numpys_bits(n, data):
    # the routines NumPy calls (dgesv; dgetrf and sign * exp(logdet) for det), as it calls
    # them: the same bits (det([[1, 2], [3, 4]]) is -2.0000000000000004, as NumPy's)
    a = data.draw(hnp.arrays(np.float64, (n, n), elements=st.integers(-9, 9).map(float)))
    assume(np.linalg.cond(a) < 1e12)
    b = data.draw(hnp.arrays(np.float64, (n,), elements=st.integers(-9, 9).map(float)))
    for fn, args in ((K.solve_, (a, b)), (K.inv_det, (a,))):
        want, got = fn(*args), compiled(fn)(*args)
        for w, g in zip(want if isinstance(want, tuple) else (want,), got if isinstance(got, tuple) else (got,)):
            assert np.array_equal(np.asarray(w), np.asarray(g)), (args, want, got)


@pytest.mark.skipif(not __import__("script.backend.runtime.lapack", fromlist=["x"]).available("dgesv"),
                    reason="no LAPACK with 64-bit integers in this process")
def test_inverse_rounds_as_numpys_library():
    # SciPy's OpenBLAS gave -1.48e-16 at [1, 1] where NumPy's gives 0.0: NumPy's own is called
    a = np.array([[0, 1, 0, 0, 0, 0], [0, 0, 0, 0, 0, 1], [1, 0, 0, 0, 0, 0], [0, 3, 0, 1, 1, 3],
                  [0, 0, 0, -2, 0, 1], [0, 0, 1, 0, 0, 0]], dtype=float)
    want, got = K.inv_det(a), compiled(K.inv_det)(a)
    assert np.array_equal(want[0], got[0]) and not np.signbit(got[0][1, 1]) and want[1] == got[1]
    e1 = np.eye(6)[:, 1]
    assert np.array_equal(K.solve_(a, e1), compiled(K.solve_)(a, e1))
