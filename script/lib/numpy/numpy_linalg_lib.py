"""NumPy's dense linear algebra, written in the compiled subset: `np.linalg.solve`, `inv`,
`det` of 2-d arrays.

Where the process has a LAPACK with 64-bit integers (runtime.lapack), each calls the routine
NumPy's ``_umath_linalg`` calls, as it calls it (numpy_lapack: `gesv` for solve and inv, with
an identity for inv; `slogdet_parts`, dgetrf, for det, which is NumPy's ``sign *
exp(logdet)``), so results are NumPy's bit for bit. Without one, an LU factorization with
partial pivoting written here (LAPACK's getrf: the row with the largest magnitude in the
column becomes the pivot): equal to LAPACK's up to rounding, a product of the pivots for det.
Computed in float64 (float32 results when every operand is float32, as NumPy's result type).
A singular matrix raises ``numpy.linalg.LinAlgError("Singular matrix")``, as NumPy.
"""

import math

import numpy as np

from script.frontend.library_intrinsics import raise_if
from script.lib.numpy.numpy_lapack import gesv, slogdet_parts


def _square(a) -> None:
    if a.shape[0] != a.shape[1]:
        raise np.linalg.LinAlgError("Last 2 dimensions of the array must be square")


def _lu(a):
    """(lu, perm, sign): P·A = L·U packed into one float64 matrix (L's unit diagonal
    implied), perm[i] the row of A that row i of LU came from, sign the permutation's; a
    sign of 0.0 when a pivot is zero (the matrix is singular: the factorization stops)."""
    n = a.shape[0]
    lu = a.astype(np.float64)
    perm = np.arange(n)
    sign = 1.0
    for k in range(n):
        p = k
        best = abs(lu[k, k])
        for i in range(k + 1, n):
            if abs(lu[i, k]) > best:
                best = abs(lu[i, k])
                p = i
        if lu[p, k] == 0.0:
            return lu, perm, 0.0
        if p != k:
            for j in range(n):
                lu[k, j], lu[p, j] = lu[p, j], lu[k, j]
            perm[k], perm[p] = perm[p], perm[k]
            sign = -sign
        pivot = lu[k, k]
        for i in range(k + 1, n):
            f = lu[i, k] / pivot
            lu[i, k] = f
            for j in range(k + 1, n):
                lu[i, j] -= f * lu[k, j]
    return lu, perm, sign


def _solve(a, b):
    """x (float64, 2-d) with a·x = b for the 2-d `b`: one LU factorization, then forward and
    back substitution per column."""
    n = a.shape[0]
    x = np.empty((n, b.shape[1]))
    if n == 0:
        return x
    found, singular, solved = gesv(a, b)
    if found:
        if singular:
            raise np.linalg.LinAlgError("Singular matrix")
        return solved
    lu, perm, sign = _lu(a)
    if sign == 0.0:
        raise np.linalg.LinAlgError("Singular matrix")
    for c in range(b.shape[1]):
        for i in range(n):
            s = b[perm[i], c] * 1.0
            for j in range(i):
                s -= lu[i, j] * x[j, c]
            x[i, c] = s
        for i in range(n - 1, -1, -1):
            s = x[i, c]
            for j in range(i + 1, n):
                s -= lu[i, j] * x[j, c]
            x[i, c] = s / lu[i, i]
    return x


def _result_probe(a, b):
    """An empty 1-d array of NumPy's result dtype for `a` and `b` (float32 when both are
    float32, else float64)."""
    return (a[:0, :0] * 1.0).ravel() + (b[:0] * 1.0).ravel()


def linalg_solve(a: np.ndarray, b: np.ndarray):
    """x with a·x = b, for a square `a` and a 1-d or 2-d `b`."""
    _square(a)
    n = a.shape[0]
    probe = _result_probe(a, b)
    if b.ndim == 1:
        raise_if(b.shape[0] != n, ValueError, "solve1: Input operand 1 has a mismatch in its core dimension 0, "
                 "with gufunc signature (m,m),(m)->(m) (size %d is different from %d)", b.shape[0], n)
        return _solve(a, b.reshape(n, 1)).reshape(n).astype(probe.dtype)
    raise_if(b.shape[0] != n, ValueError, "solve: Input operand 1 has a mismatch in its core dimension 0, "
             "with gufunc signature (m,m),(m,n)->(m,n) (size %d is different from %d)", b.shape[0], n)
    return _solve(a, b).astype(probe.dtype)


def linalg_inv(a: np.ndarray):
    """The inverse of a square matrix: a·x = I solved column by column."""
    _square(a)
    return _solve(a, np.eye(a.shape[0])).astype(_result_probe(a, a).dtype)


def linalg_det(a: np.ndarray):
    """The determinant: NumPy's sign * exp(log|det|) of dgetrf's factors; without LAPACK
    the product of U's diagonal, signed by the row swaps (0.0 for a singular matrix)."""
    _square(a)
    found, sign, logdet = slogdet_parts(a)
    if found:
        d = sign * math.exp(logdet)         # NumPy's det: from its slogdet
    else:
        lu, _, d = _lu(a)
        for k in range(a.shape[0]):
            d *= lu[k, k]
    out = np.empty(1, dtype=_result_probe(a, a).dtype)     # in NumPy's result dtype
    out[0] = d
    return out[0]
