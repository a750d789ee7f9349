"""np.linalg's LAPACK functions in compiled code (script/lib/numpy/numpy_lapack.py, the IR's
`lapack` op): differential against NumPy, which calls the same routines of the same library
on the same data, so results are compared bit for bit (dtype, shape, values; `pinv`'s last
product is the same BLAS call as NumPy's matmul makes). Errors are compared by class
(NumPy's LinAlgError) and message."""

import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import script
from script.backend.runtime.lapack import available
from script.errors import CompileError, LoadError
from script.ir.ops import LAPACK_ROUTINES
from script.ir.parser import parse_function
from script.ir.printer import format_function

HAVE_LAPACK = all(available(r) for r in LAPACK_ROUTINES)
needs_lapack = pytest.mark.skipif(not HAVE_LAPACK, reason="this NumPy has no LAPACK with 64-bit integers")
SET = settings(max_examples=20, deadline=None)
L = np.linalg


def eigh(a):
    return np.linalg.eigh(a)


def eigh_upper(a):
    return np.linalg.eigh(a, UPLO="U")


def eigvalsh(a):
    return np.linalg.eigvalsh(a)


def svd(a):
    return np.linalg.svd(a)


def svd_reduced(a):
    return np.linalg.svd(a, full_matrices=False)


def svd_values(a):
    return np.linalg.svd(a, compute_uv=False)


def lstsq(a, b):
    return np.linalg.lstsq(a, b)


def lstsq_rcond(a, b):
    return np.linalg.lstsq(a, b, rcond=0.3)


def qr(a):
    return np.linalg.qr(a)


def qr_complete(a):
    return np.linalg.qr(a, mode="complete")


def cholesky(a):
    return np.linalg.cholesky(a)


def cholesky_upper(a):
    return np.linalg.cholesky(a, upper=True)


def pinv(a):
    return np.linalg.pinv(a)


def matrix_rank(a):
    return np.linalg.matrix_rank(a)


def matrix_rank_tol(a):
    return np.linalg.matrix_rank(a, tol=0.5)


def slogdet(a):
    return np.linalg.slogdet(a)


def slogdet_of_product(a):
    sign, logdet = np.linalg.slogdet(a * 2.0 - 1.0)     # an expression as the argument
    return sign * 2.0, logdet


NUMPY = {
    eigh: L.eigh, eigh_upper: lambda a: L.eigh(a, UPLO="U"), eigvalsh: L.eigvalsh, svd: L.svd,
    svd_reduced: lambda a: L.svd(a, full_matrices=False),
    svd_values: lambda a: L.svd(a, compute_uv=False), lstsq: lambda a, b: L.lstsq(a, b),
    lstsq_rcond: lambda a, b: L.lstsq(a, b, rcond=0.3), qr: L.qr,
    qr_complete: lambda a: L.qr(a, mode="complete"), cholesky: L.cholesky,
    cholesky_upper: lambda a: L.cholesky(a, upper=True), pinv: L.pinv, matrix_rank: L.matrix_rank,
    matrix_rank_tol: lambda a: L.matrix_rank(a, tol=0.5), slogdet: L.slogdet,
    slogdet_of_product: lambda a: (lambda s, d: (s * 2.0, d))(*L.slogdet(a * 2.0 - 1.0)),
}
COMPILED = {f: script.script(f) for f in NUMPY}
SQUARE = (eigh, eigh_upper, eigvalsh, cholesky, cholesky_upper, slogdet)


def outcome(f, *args):
    try:
        return f(*args)
    except Exception as e:          # noqa: BLE001 - compared below
        return e


def assert_same(got, want, ulps=0):
    if isinstance(want, Exception):
        assert type(got) is type(want), (got, want)
        assert str(got) == str(want)
        return
    assert not isinstance(got, Exception), got
    if isinstance(want, tuple):
        assert isinstance(got, tuple) and len(got) == len(want)
        for g, w in zip(got, want):
            assert_same(g, w, ulps)
        return
    g, w = np.asarray(got), np.asarray(want)
    if w.ndim == 0:                 # NumPy's scalars (an int32 rank, a float32 sign): compiled
        assert g.ndim == 0 and (g == w or (np.isnan(g) and np.isnan(w))), (got, want)
        if w.dtype == np.float32:   # code gives an int or a float (of a float32's value)
            assert np.float32(got) == got or np.isnan(got)
        return
    assert g.dtype == w.dtype and g.shape == w.shape, (g.dtype, w.dtype, g.shape, w.shape)
    if ulps == 0:
        assert np.array_equal(g, w, equal_nan=True), np.max(np.abs(g - w))
    else:
        eps = np.finfo(w.dtype).eps
        scale = max(1.0, float(np.max(np.abs(w)))) if w.size else 1.0
        assert np.allclose(g, w, rtol=ulps * eps, atol=ulps * eps * scale), np.max(np.abs(g - w))


def matrix(seed, m, n, dtype, layout):
    """A random m x n matrix: C-contiguous, a transposed view, or a strided view."""
    rng = np.random.default_rng(seed)
    if layout == "T":
        return rng.standard_normal((n, m)).astype(dtype).T
    if layout == "strided":
        return rng.standard_normal((2 * m, 2 * n)).astype(dtype)[::2, ::-2]
    return rng.standard_normal((m, n)).astype(dtype)


def spd(a):
    """A symmetric positive definite (well-conditioned) matrix from the square `a`."""
    n = a.shape[0]
    return (a @ a.T + n * np.eye(n, dtype=a.dtype)).astype(a.dtype)


DTYPES = st.sampled_from([np.float64, np.float32])
LAYOUTS = st.sampled_from(["C", "T", "strided"])
SIZES = st.integers(0, 7)


@needs_lapack
@SET
@given(SIZES, DTYPES, LAYOUTS, st.integers(0, 2**32 - 1))
def test_square_functions_agree_with_numpy(n, dtype, layout, seed):
    a = matrix(seed, n, n, dtype, layout)
    s = spd(a)
    for f in SQUARE:
        assert_same(outcome(COMPILED[f], s), outcome(NUMPY[f], s))
    for f in (eigh, eigvalsh, slogdet, slogdet_of_product):          # indefinite, non-symmetric
        assert_same(outcome(COMPILED[f], a), outcome(NUMPY[f], a))


@pytest.mark.slow       # long: compiles many variants (CI keeps a 15 min budget)
@needs_lapack
@SET
@given(SIZES, SIZES, DTYPES, LAYOUTS, st.integers(0, 2**32 - 1))
def test_rectangular_functions_agree_with_numpy(m, n, dtype, layout, seed):
    a = matrix(seed, m, n, dtype, layout)
    for f in (svd, svd_reduced, svd_values, qr, qr_complete, matrix_rank, matrix_rank_tol):
        assert_same(outcome(COMPILED[f], a), outcome(NUMPY[f], a))
    assert_same(outcome(COMPILED[pinv], a), outcome(NUMPY[pinv], a))


@pytest.mark.slow       # long: compiles many variants (CI keeps a 15 min budget)
@needs_lapack
@SET
@given(SIZES, SIZES, st.integers(0, 3), DTYPES, DTYPES, LAYOUTS, st.integers(0, 2**32 - 1))
def test_lstsq_agrees_with_numpy(m, n, nrhs, dtype_a, dtype_b, layout, seed):
    a = matrix(seed, m, n, dtype_a, layout)
    b2 = matrix(seed + 1, m, nrhs, dtype_b, layout)
    b1 = b2[:, 0] if nrhs else matrix(seed + 2, m, 1, dtype_b, "C")[:, 0]
    for b in (b1, b2):
        for f in (lstsq, lstsq_rcond):
            assert_same(outcome(COMPILED[f], a, b), outcome(NUMPY[f], a, b))


@needs_lapack
def test_rank_deficient_and_integer_inputs():
    a = np.array([[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [1.0, 0.0, 1.0], [0.0, 1.0, 1.0]])
    for f in (svd, svd_values, qr, matrix_rank, pinv):
        assert_same(COMPILED[f](a), NUMPY[f](a))
    b = np.arange(4.0)
    assert_same(COMPILED[lstsq](a, b), L.lstsq(a, b))                 # rank 2 < n: no residuals
    ints = np.array([[4, 1], [1, 3]])
    for f in SQUARE + (svd, qr, matrix_rank, pinv):
        assert_same(COMPILED[f](ints), NUMPY[f](ints))                # float64 results, as NumPy
    assert COMPILED[slogdet](np.zeros((3, 3))) == (0.0, -np.inf)
    assert COMPILED[matrix_rank](np.zeros((0, 0))) == 0


@needs_lapack
def test_errors_are_numpys():
    not_square, not_pd = np.ones((2, 3)), np.array([[1.0, 2.0], [2.0, 1.0]])
    for f in (eigh, eigvalsh, cholesky, slogdet):
        assert_same(outcome(COMPILED[f], not_square), outcome(NUMPY[f], not_square))
    assert_same(outcome(COMPILED[cholesky], not_pd), outcome(L.cholesky, not_pd))
    nan = np.full((3, 3), np.nan)
    for f in (svd, svd_values, cholesky, eigh, qr, slogdet):
        assert_same(outcome(COMPILED[f], nan), outcome(NUMPY[f], nan))
    tall = np.ones((3, 2))
    assert_same(outcome(COMPILED[lstsq], tall, np.ones(4)), outcome(L.lstsq, tall, np.ones(4)))
    assert_same(outcome(COMPILED[lstsq], nan, np.ones(3)), outcome(L.lstsq, nan, np.ones(3)))


def test_unsupported_forms_are_compile_errors():
    def stacked(a):
        return np.linalg.eigh(a)

    def variable_uv(a, flag):
        return np.linalg.svd(a, compute_uv=flag)

    def bad_uplo(a):
        return np.linalg.eigh(a, UPLO="X")

    def raw_qr(a):
        return np.linalg.qr(a, mode="raw")

    def hermitian(a):
        return np.linalg.pinv(a, hermitian=True)

    cases = [(stacked, (np.ones((2, 2, 2)),), "2-d"), (variable_uv, (np.ones((2, 2)), True), "constant"),
             (bad_uplo, (np.ones((2, 2)),), "UPLO"), (raw_qr, (np.ones((2, 2)),), "mode"),
             (hermitian, (np.ones((2, 2)),), "hermitian")]
    for f, args, text in cases:
        with pytest.raises(CompileError, match=text):
            script.script(f)(*args)


def test_without_lapack_a_runtime_error_names_the_function(tmp_path):
    code = textwrap.dedent("""\
        import numpy as np, script

        def f(a):
            return np.linalg.eigvalsh(a)

        def g(a):
            return np.linalg.svd(a, compute_uv=False)

        for fn in (script.script(f), script.script(g)):
            try:
                fn(np.eye(2))
            except RuntimeError as e:
                print("RuntimeError", e)
        """)
    env = dict(os.environ, SCRIPT_NO_BLAS="1")
    (tmp_path / "no_lapack.py").write_text(code)
    out = subprocess.run([sys.executable, str(tmp_path / "no_lapack.py")], env=env, capture_output=True,
                         text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert len(lines) == 2 and "eigvalsh" in lines[0] and "svd" in lines[1], out.stdout


IR = textwrap.dedent("""\
    func @potrf(%0: f64[:,::1], %1: i64) -> i64 "t.py":1 {
    bb0:
      %2 = lapack.dpotrf 76:i64, %1, %0, %1 : i64  ; 2:4
      ret %2                                       ; 3:4
    }
    """)


def test_the_op_round_trips_and_is_verified():
    f = parse_function(IR)
    assert format_function(f) == IR
    with pytest.raises(LoadError, match="unknown lapack"):
        parse_function(IR.replace("lapack.dpotrf", "lapack.dpotrs"))
    with pytest.raises(LoadError, match="operand"):
        parse_function(IR.replace("76:i64, %1, %0, %1", "76:i64, %1, %1, %1"))
    with pytest.raises(LoadError, match="takes 4 operands"):
        parse_function(IR.replace("76:i64, %1, %0, %1", "76:i64, %1, %0"))
    gemm = IR.replace("f64[:,::1]", "f32[:,::1]").replace(
        "lapack.dpotrf 76:i64, %1, %0, %1 : i64  ",
        "lapack.sgemm 78:i64, 78:i64, %1, %1, %1, 1.0:f32, %0, %1, %0, %1, 0.0:f32, %0, %1 : i64")
    again = format_function(parse_function(gemm))
    assert "lapack.sgemm 78:i64" in again and format_function(parse_function(again)) == again


@needs_lapack
def test_the_compiled_op_calls_lapack_and_saves(tmp_path):
    a = spd(np.arange(9.0).reshape(3, 3))
    COMPILED[eigh](a)
    assert "lapack.dsyevd" in COMPILED[eigh].ir("opt")
    path = tmp_path / "m.smod"
    script.save([COMPILED[eigh]], path)
    loaded = script.load(path)
    assert_same(loaded.eigh(a), L.eigh(a))


def conds(a):
    return np.linalg.cond(a), np.linalg.cond(a, 2), np.linalg.cond(a, -2)


CONDS = script.script(conds)


@needs_lapack
@SET
@given(st.integers(1, 6), st.integers(1, 6), LAYOUTS, st.integers(0, 2**32 - 1))
def test_condition_numbers(m, n, layout, seed):
    a = matrix(seed, m, n, np.float64, layout)
    want = conds(a)
    got = CONDS(a)
    assert np.allclose(got, want, rtol=1e-12), (got, want)
    assert CONDS(np.zeros((n, n)))[0] == np.inf


_EACH_SOURCE = textwrap.dedent("""\
    import sys
    import numpy as np, script
    from script.backend.runtime import lapack

    print(lapack.source_name())
    rng = np.random.default_rng(5)
    a = rng.standard_normal((5, 5))
    s = a @ a.T + 5 * np.eye(5)
    b = rng.standard_normal((5, 2))
    def eigvalsh(x): return np.linalg.eigvalsh(x)
    def svd(x): return np.linalg.svd(x, compute_uv=False)
    def slogdet(x): return np.linalg.slogdet(x)
    def cholesky(x): return np.linalg.cholesky(x)
    def lstsq(x, y): return np.linalg.lstsq(x, y)[0]
    def rank(x, y): return np.linalg.lstsq(x, y)[2]
    def qr(x): return np.linalg.qr(x)[1]
    def pinv(x): return np.linalg.pinv(x)
    swap = np.array([[0.0, 1.0], [1.0, 0.0]])
    cases = [(eigvalsh, (s,)), (svd, (a,)), (slogdet, (a,)), (slogdet, (swap,)), (cholesky, (s,)),
             (lstsq, (a[:, :3], b)), (rank, (a[:, :3], b)), (qr, (a,)), (pinv, (a,))]
    for fn, args in cases:
        got, want = script.script(fn)(*args), fn(*args)
        assert np.allclose(got, want, rtol=1e-12, atol=1e-12), (fn, got, want)
    print("ok")
    """)


@pytest.mark.parametrize("source", ["scipy", "numpy"])
def test_each_lapack_source_gives_numpys_answers(tmp_path, source):
    """SCRIPT_LAPACK forces where the routines come from: SciPy's capsules (32-bit INTEGERs,
    through the adapters) or NumPy's OpenBLAS (64-bit); both give NumPy's answers."""
    if source == "scipy":
        pytest.importorskip("scipy.linalg.cython_lapack")
    from script.backend.runtime import blas
    if source == "numpy" and not blas._libraries():
        pytest.skip("this NumPy has no bundled OpenBLAS")
    (tmp_path / "each.py").write_text(_EACH_SOURCE)
    env = dict(os.environ, SCRIPT_LAPACK=source)
    out = subprocess.run([sys.executable, str(tmp_path / "each.py")], env=env, capture_output=True,
                         text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == [source, "ok"]
