"""np.einsum with constant subscripts (script/frontend/numpy_einsum.py) against NumPy."""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import script
from difftest import check_all_levels
from script.errors import CompileError

SET = settings(max_examples=20, deadline=None)


def matmuls(A, B, v):
    return (np.einsum("ij,jk->ik", A, B), np.einsum("ij,jk", A, B), np.einsum("ij,j->i", A, v),
            np.einsum("ij,ij->ij", A, A), np.einsum("ij,kj->ik", A, A))


def single(A):
    return np.einsum("ij->ji", A), np.einsum("ij->", A), np.einsum("ij->j", A), np.einsum("ji", A)


def square(M):
    return np.einsum("ii", M), np.einsum("ii->i", M), np.einsum("ij,jk,kl->il", M, M, M)


def vectors(a, b):
    return np.einsum("i,i", a, b), np.einsum("i,j->ij", a, b), np.einsum("i,i->i", a, b), np.einsum("i->", a)


def batched(X):
    return np.einsum("bij,bjk->bik", X, X), np.einsum("bii->b", X)


def broadcast(A, row):
    return np.einsum("ij,ij->ij", A, row)         # row's first dimension has length 1


dims = st.integers(1, 4)


@SET
@given(dims, dims, dims, st.sampled_from([np.float64, np.int32]))
def test_einsum(n, m, k, dtype):
    r = np.random.default_rng(n * 100 + m * 10 + k)
    # small integers: sums are exact in every dtype, whatever order NumPy adds in
    A = r.integers(-9, 10, (n, m)).astype(dtype)
    B = r.integers(-9, 10, (m, k)).astype(dtype)
    v = r.integers(-9, 10, m).astype(dtype)
    check_all_levels(matmuls, A, B, v, approx=True)
    check_all_levels(single, A, approx=True)
    M = r.integers(-9, 10, (n, n)).astype(dtype)
    check_all_levels(square, M, approx=True)
    check_all_levels(vectors, v, v[::-1].copy(), approx=True)
    check_all_levels(batched, r.integers(-3, 4, (k, n, n)).astype(dtype), approx=True)
    check_all_levels(broadcast, A, A[:1].copy(), approx=True)


def test_mixed_types_promote_as_numpy():
    a, b = np.arange(4, dtype=np.int32), np.arange(4.0, dtype=np.float32)
    check_all_levels(vectors, a, b, approx=True)


def test_mismatched_lengths_raise():
    """ValueError as in NumPy; the message names the label instead of NumPy's remapped shapes."""
    with pytest.raises(ValueError, match="operands could not be broadcast together"):
        np.einsum("ij,jk->ik", np.ones((2, 3)), np.ones((4, 2)))
    with pytest.raises(ValueError, match=r"operands could not be broadcast together \(einsum label 'j'\)"):
        script.script(matmuls)(np.ones((2, 3)), np.ones((4, 2)), np.ones(3))


def bad_ellipsis(A):
    return np.einsum("...i->i", A)


def bad_operands(A):
    return np.einsum("ij,jk->ik", A)


def bad_output(A):
    return np.einsum("ij->ik", A)


def variable_subscripts(A, s):
    return np.einsum(s, A)


@pytest.mark.parametrize("fn, message", [(bad_ellipsis, "ellipsis"), (bad_operands, "fewer operands"),
                                         (bad_output, "never appeared in an input")])
def test_subscript_errors_are_compile_errors(fn, message):
    with pytest.raises(CompileError, match=message):
        script.script(fn)(np.ones((2, 2)))
