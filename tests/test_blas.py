"""Matrix products through NumPy's own BLAS (the `gemm` op, script/backend/llvm/blas.py)
when the process has one and the product is large, compiled loops otherwise: both agree
with NumPy."""

import os
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import script
from script.backend.runtime import blas

SET = settings(max_examples=25, deadline=None)


def product(a, b):
    return a @ b


def dot_product(a, b):
    return np.dot(a, b) * 2


@SET
@given(st.integers(0, 70), st.integers(0, 70), st.integers(0, 70), st.sampled_from([np.float64, np.float32]),
       st.booleans())
def test_products_agree_with_numpy(m, k, n, dtype, transposed):
    rng = np.random.default_rng(m * 10007 + k * 101 + n)
    a = rng.standard_normal((m, k)).astype(dtype)
    b = rng.standard_normal((n, k)).astype(dtype).T if transposed else rng.standard_normal((k, n)).astype(dtype)
    for f in (script.script(product), script.script(product, opt=0)):
        got = f(a, b)
        want = a @ b
        assert got.dtype == want.dtype and got.shape == want.shape
        tol = 1e-4 if dtype == np.float32 else 1e-10
        assert np.allclose(got, want, rtol=tol, atol=tol * max(k, 1))
        v = f(a, b[:, 0]) if n else None
        if v is not None:
            assert np.allclose(v, a @ b[:, 0], rtol=tol, atol=tol * max(k, 1))
    assert np.allclose(script.script(dot_product)(a, b), np.dot(a, b) * 2, rtol=1e-4, atol=1e-3 * max(k, 1))


def test_large_products_are_numpys_own():
    if not blas.table_address() or not (ctypes_table()[0]):
        pytest.skip("this NumPy has no 64-bit-integer BLAS")
    rng = np.random.default_rng(1)
    a, b = rng.standard_normal((90, 70)), rng.standard_normal((70, 80))
    assert np.array_equal(script.script(product)(a, b), a @ b)       # the same BLAS, the same bits


def ctypes_table():
    import ctypes
    return (ctypes.c_void_p * 2).from_address(blas.table_address())


def test_without_blas_the_loops_run():
    code = ("import numpy as np, script\n"
            "from test_blas import product\n"
            "a = np.arange(6000.0).reshape(60, 100) / 7; b = np.arange(8000.0).reshape(100, 80) / 3\n"
            "r = script.script(product)(a, b)\n"
            "print(np.allclose(r, a @ b))\n"
            "import ctypes\nfrom script.backend.runtime import blas\n"
            "print((ctypes.c_void_p * 2).from_address(blas.table_address())[0])\n")
    env = dict(os.environ, SCRIPT_NO_BLAS="1", PYTHONPATH=os.path.dirname(__file__))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["True", "None"]
