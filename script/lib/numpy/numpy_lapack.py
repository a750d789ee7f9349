"""NumPy's LAPACK-based linear algebra in compiled code, written in the compiled subset:
`np.linalg.eigh`, `eigvalsh`, `svd`, `lstsq`, `qr`, `cholesky`, `pinv`, `matrix_rank`,
`slogdet` of 2-d arrays.

Each calls the routine NumPy's ``_umath_linalg`` calls, of the same library (the `lapack`
intrinsic: the IR's `lapack` op, script/backend/llvm/lapack.py), the way it calls it: the
matrix copied into a float64 Fortran-order buffer (a C array of the transposed shape, whose
memory is the matrix column by column), the same leading dimensions, a workspace query
first and buffers of the size it gives, the same INFO checks. The post-processing is
``numpy/linalg/_linalg.py``'s: results cast to float32 when every operand is float32 (the
arithmetic is float64, as NumPy's), `cholesky`'s other triangle zeroed, `lstsq`'s residuals
only for a full-rank overdetermined system, `matrix_rank`'s tolerance in the singular
values' dtype; `pinv`'s last product is the BLAS ?gemm call NumPy's matmul makes. So
results are NumPy's bit for bit.

Differences: results are plain tuples where NumPy gives named tuples (they unpack the same); `lstsq`'s rank is an int (NumPy: an int32 scalar). Where this
process has no LAPACK with 64-bit integers (``SCRIPT_NO_BLAS=1``, another NumPy build) each
function raises RuntimeError naming itself when it runs.
"""

import math

import numpy as np

from script.frontend.library_intrinsics import lapack
from script.ir.ops import LAPACK_MISSING

_MISSING = LAPACK_MISSING
_A, _L, _N, _S, _U, _V = (ord(c) for c in "ALNSUV")        # CHARACTER arguments' codes


# ---- buffers ---------------------------------------------------------------------------------

def _fortran(a, lead):
    """`a` (m x n) as a Fortran-order float64 buffer of leading dimension `lead` >= m: a C
    array f of shape (n, lead) with f[j, i] = a[i, j] (rows beyond m zero)."""
    m = a.shape[0]
    n = a.shape[1]
    f = np.zeros((n, lead))
    for j in range(n):
        for i in range(m):
            f[j, i] = a[i, j]
    return f


def _probe(a):
    """An empty 1-d array of NumPy's result dtype for `a`: float32 for float32, else float64."""
    return (a[:0, :0] * 1.0).ravel()


def _probe2(a, b):
    """The same for two operands: float32 when both are float32."""
    return (a[:0, :0] * 1.0).ravel() + (b[:0] * 1.0).ravel()


def _from_fortran(f, rows, cols, probe):
    """The (rows x cols) matrix in Fortran buffer `f`, as a new C array of probe's dtype."""
    out = np.empty((rows, cols), dtype=probe.dtype)
    for i in range(rows):
        for j in range(cols):
            out[i, j] = f[j, i]
    return out


def _vector(v, n, probe):
    """The first `n` elements of `v`, as a new array of probe's dtype."""
    out = np.empty(n, dtype=probe.dtype)
    for k in range(n):
        out[k] = v[k]
    return out


def _square(a) -> None:
    if a.shape[0] != a.shape[1]:
        raise np.linalg.LinAlgError("Last 2 dimensions of the array must be square")


# ---- eigenvalues of symmetric matrices: dsyevd -----------------------------------------------

def _syevd(a, jobz, uplo):
    """(w, f): eigenvalues ascending, and the eigenvectors as the columns of Fortran buffer f
    (when jobz is 'V'), by dsyevd as NumPy's eigh_wrapper calls it."""
    _square(a)
    n = a.shape[0]
    lda = max(n, 1)
    f = _fortran(a, lda)
    w = np.zeros(lda)
    wq = np.zeros(1)
    iq = np.zeros(1, dtype=np.int64)
    info = lapack("dsyevd", jobz, uplo, n, f, lda, w, wq, -1, iq, -1)
    if info == _MISSING:
        raise RuntimeError("numpy.linalg.eigh/eigvalsh in compiled code need NumPy's LAPACK "
                           "with 64-bit integers, which this process does not have")
    if info != 0:
        raise np.linalg.LinAlgError("Eigenvalues did not converge")
    lwork = int(wq[0])
    liwork = iq[0]
    work = np.zeros(max(lwork, 1))
    iwork = np.zeros(max(liwork, 1), dtype=np.int64)
    info = lapack("dsyevd", jobz, uplo, n, f, lda, w, work, lwork, iwork, liwork)
    if info != 0:
        raise np.linalg.LinAlgError("Eigenvalues did not converge")
    return w, f


def linalg_eigh(a: np.ndarray, UPLO=76):
    """(w, v): the eigenvalues of the symmetric matrix `a` ascending and its eigenvectors,
    v[:, k] for w[k]; only the triangle UPLO ('L' or 'U') is read."""
    w, f = _syevd(a, _V, UPLO)
    n = a.shape[0]
    probe = _probe(a)
    return _vector(w, n, probe), _from_fortran(f, n, n, probe)


def linalg_eigvalsh(a: np.ndarray, UPLO=76):
    """The eigenvalues of the symmetric matrix `a`, ascending."""
    w, f = _syevd(a, _N, UPLO)
    return _vector(w, a.shape[0], _probe(a))


# ---- singular values: dgesdd -----------------------------------------------------------------

def _gesdd(f, m, n, jobz, u, ldu, vt, ldvt):
    """dgesdd on Fortran buffer f (m x n) as NumPy's svd_wrapper calls it: the singular
    values (an array of at least one element), U and VT written into u and vt."""
    k = min(m, n)
    s = np.zeros(max(k, 1))
    iwork = np.zeros(max(8 * k, 1), dtype=np.int64)
    wq = np.zeros(1)
    lda = max(m, 1)
    info = lapack("dgesdd", jobz, m, n, f, lda, s, u, ldu, vt, ldvt, wq, -1, iwork)
    if info == _MISSING:
        raise RuntimeError("numpy.linalg.svd/pinv/matrix_rank in compiled code need NumPy's "
                           "LAPACK with 64-bit integers, which this process does not have")
    if info != 0:
        raise np.linalg.LinAlgError("SVD did not converge")
    lwork = int(wq[0])
    if lwork == 0:
        lwork = 1
    work = np.zeros(lwork)
    info = lapack("dgesdd", jobz, m, n, f, lda, s, u, ldu, vt, ldvt, work, lwork, iwork)
    if info != 0:
        raise np.linalg.LinAlgError("SVD did not converge")
    return s


def linalg_svd(a: np.ndarray, full_matrices=True, compute_uv=True):
    """(u, s, vh) with a = u @ diag(s) @ vh; u and vh square when full_matrices, else of
    min(m, n) columns and rows. (compute_uv=False compiles `_svd_values` instead.)"""
    m = a.shape[0]
    n = a.shape[1]
    k = min(m, n)
    ucols = m if full_matrices else k
    vtrows = n if full_matrices else k
    ldu = max(m, 1)
    ldvt = max(vtrows, 1)
    f = _fortran(a, ldu)
    u = np.zeros((max(ucols, 1), ldu))
    vt = np.zeros((max(n, 1), ldvt))
    s = _gesdd(f, m, n, _A if full_matrices else _S, u, ldu, vt, ldvt)
    if full_matrices and k == 0:          # LAPACK leaves them unset: NumPy's identities
        for i in range(m):
            u[i, i] = 1.0
        for i in range(n):
            vt[i, i] = 1.0
    probe = _probe(a)
    return _from_fortran(u, m, ucols, probe), _vector(s, k, probe), _from_fortran(vt, vtrows, n, probe)


def _svd_values(a: np.ndarray, full_matrices=True, compute_uv=False):
    """`np.linalg.svd(a, compute_uv=False)`: the singular values, descending."""
    m = a.shape[0]
    n = a.shape[1]
    f = _fortran(a, max(m, 1))
    s = _gesdd(f, m, n, _N, np.zeros((1, max(m, 1))), max(m, 1), np.zeros((1, 1)), 1)
    return _vector(s, min(m, n), _probe(a))


def linalg_cond(x: np.ndarray, p=None):
    """The condition number of a matrix in the 2-norm (`p` None or 2; -2: its inverse), the
    ratio of its extreme singular values: inf where the smallest is 0, as NumPy's."""
    if p is not None and p != 2 and p != -2:
        raise ValueError("compiled code takes np.linalg.cond's p as None, 2 or -2")
    if x.ndim != 2:
        raise np.linalg.LinAlgError(f"{x.ndim}-dimensional array given. Array must be at least two-dimensional")
    s = _svd_values(x)
    big = s[0]
    small = s[s.shape[0] - 1]
    if p == -2:
        big, small = small, big
    if small == 0.0:
        return np.inf
    return big / small


def linalg_matrix_rank(A: np.ndarray, tol=None):
    """The number of singular values above `tol` (default: the largest times max(m, n)
    times the machine epsilon of their dtype, computed in that dtype as NumPy does)."""
    s = _svd_values(A)
    count = 0
    if tol is None:
        t = np.zeros(3, dtype=s.dtype)     # [max(m, n), largest, epsilon] in s's dtype
        t[0] = max(A.shape[0], A.shape[1])
        for k in range(s.shape[0]):
            if s[k] > t[1]:
                t[1] = s[k]
        t[2] = 1.0
        while 1.0 + t[2] * 0.5 != 1.0:
            t[2] = t[2] * 0.5
        cut = t[1] * (t[0] * t[2])
        for k in range(s.shape[0]):
            if s[k] > cut:
                count += 1
    else:
        for k in range(s.shape[0]):
            if s[k] > tol:
                count += 1
    return count


def linalg_pinv(a: np.ndarray, rcond=1e-15):
    """The Moore-Penrose pseudo-inverse: vh.T @ diag(1/s) @ u.T over the singular values
    above rcond times the largest (NumPy's rcond default of 1e-15)."""
    m = a.shape[0]
    n = a.shape[1]
    if m == 0 or n == 0:
        return np.empty((n, m), dtype=_probe(a).dtype)
    u, s, vt = linalg_svd(a, False)
    k = s.shape[0]
    big = s[0]
    for i in range(k):
        if s[i] > big:
            big = s[i]
    cutoff = rcond * float(big)
    for i in range(k):
        if s[i] > cutoff:
            s[i] = 1.0 / s[i]
        else:
            s[i] = 0.0
    # NumPy: matmul(vt.T, s[:, None] * u.T), the second operand F-ordered: BLAS ?gemm with
    # both transposed. Here the same call, on that operand's memory (an m x k C array).
    scaled = np.empty((m, k), dtype=s.dtype)
    for j in range(m):
        for i in range(k):
            scaled[j, i] = s[i] * u[j, i]
    out = np.zeros((n, m), dtype=s.dtype)
    info = lapack("?gemm", "T", "T", m, n, k, 1.0, scaled, k, vt, n, 0.0, out, m)
    if info == _MISSING:
        raise RuntimeError("numpy.linalg.pinv in compiled code needs NumPy's BLAS with 64-bit "
                           "integers, which this process does not have")
    return out


# ---- least squares: dgelsd -------------------------------------------------------------------

def linalg_lstsq(a: np.ndarray, b: np.ndarray, rcond=None):
    """(x, residuals, rank, s): the minimum-norm least-squares solution of a @ x = b by
    dgelsd, the squared residual of each column (only when rank == n < m; else empty), the
    rank and the singular values of `a`."""
    m = a.shape[0]
    n = a.shape[1]
    if b.shape[0] != m:
        raise np.linalg.LinAlgError("Incompatible dimensions")
    nrhs = 1
    if b.ndim == 2:
        nrhs = b.shape[1]
    cond = 2.220446049250313e-16 * max(n, m)     # finfo(float64).eps * max(n, m)
    if rcond is not None:
        cond = rcond * 1.0
    nr = max(nrhs, 1)                      # NumPy gives LAPACK one zero column for none
    ldb = max(max(m, n), 1)
    lda = max(m, 1)
    fa = _fortran(a, lda)
    fb = np.zeros((nr, ldb))
    if b.ndim == 1:
        for i in range(m):
            fb[0, i] = b[i]
    else:
        for j in range(nrhs):
            for i in range(m):
                fb[j, i] = b[i, j]
    k = min(m, n)
    s = np.zeros(max(k, 1))
    rank = np.zeros(1, dtype=np.int64)
    wq = np.zeros(1)
    iq = np.zeros(1, dtype=np.int64)
    info = lapack("dgelsd", m, n, nr, fa, lda, fb, ldb, s, cond, rank, wq, -1, iq)
    if info == _MISSING:
        raise RuntimeError("numpy.linalg.lstsq in compiled code needs NumPy's LAPACK with "
                           "64-bit integers, which this process does not have")
    if info != 0:
        raise np.linalg.LinAlgError("SVD did not converge in Linear Least Squares")
    lwork = int(wq[0])
    work = np.zeros(max(lwork, 1))
    iwork = np.zeros(max(iq[0], 1), dtype=np.int64)
    info = lapack("dgelsd", m, n, nr, fa, lda, fb, ldb, s, cond, rank, work, lwork, iwork)
    if info != 0:
        raise np.linalg.LinAlgError("SVD did not converge in Linear Least Squares")
    if m == 0:
        for j in range(nr):
            for i in range(n):
                fb[j, i] = 0.0
    probe = _probe2(a, b)
    r = rank[0]
    nres = 0
    if m > n and r == n:
        nres = nrhs
    res = np.empty(nres, dtype=probe.dtype)
    for j in range(nres):
        acc = 0.0
        for i in range(n, m):
            acc += fb[j, i] * fb[j, i]
        res[j] = acc
    if b.ndim == 1:
        x = np.empty(n, dtype=probe.dtype)
        for i in range(n):
            x[i] = fb[0, i]
        return x, res, r, _vector(s, k, probe)
    return _from_fortran(fb, n, nrhs, probe), res, r, _vector(s, k, probe)


# ---- QR: dgeqrf + dorgqr ---------------------------------------------------------------------

def linalg_qr(a: np.ndarray, mode=0):
    """(q, r) with a = q @ r, q with orthonormal columns: min(m, n) of them for mode
    'reduced', m for 'complete'; r upper triangular."""
    m = a.shape[0]
    n = a.shape[1]
    k = min(m, n)
    lda = max(m, 1)
    f = _fortran(a, lda)
    tau = np.zeros(max(k, 1))
    wq = np.zeros(1)
    info = lapack("dgeqrf", m, n, f, lda, tau, wq, -1)
    if info == _MISSING:
        raise RuntimeError("numpy.linalg.qr in compiled code needs NumPy's LAPACK with "
                           "64-bit integers, which this process does not have")
    if info != 0:
        raise np.linalg.LinAlgError("Incorrect argument found while performing QR factorization")
    lwork = max(max(1, n), int(wq[0]))
    info = lapack("dgeqrf", m, n, f, lda, tau, np.zeros(lwork), lwork)
    if info != 0:
        raise np.linalg.LinAlgError("Incorrect argument found while performing QR factorization")
    mc = k
    if mode == 1 and m > n:
        mc = m
    q = np.zeros((max(mc, 1), lda))
    for j in range(min(mc, n)):
        for i in range(m):
            q[j, i] = f[j, i]
    info = lapack("dorgqr", m, mc, k, q, lda, tau, wq, -1)
    if info != 0:
        raise np.linalg.LinAlgError("Incorrect argument found while performing QR factorization")
    count = int(wq[0])
    info = lapack("dorgqr", m, mc, k, q, lda, tau, np.zeros(max(max(1, n), count)), count)
    if info != 0:
        raise np.linalg.LinAlgError("Incorrect argument found while performing QR factorization")
    probe = _probe(a)
    r = np.zeros((mc, n), dtype=probe.dtype)
    for i in range(mc):
        for j in range(i, n):
            r[i, j] = f[j, i]
    return _from_fortran(q, m, mc, probe), r


# ---- Cholesky: dpotrf; slogdet: dgetrf -------------------------------------------------------

def linalg_cholesky(a: np.ndarray, upper=False):
    """L with a = L @ L.T (lower triangular; with upper=True, U with a = U.T @ U)."""
    _square(a)
    n = a.shape[0]
    lda = max(n, 1)
    f = _fortran(a, lda)
    info = lapack("dpotrf", _U if upper else _L, n, f, lda)
    if info == _MISSING:
        raise RuntimeError("numpy.linalg.cholesky in compiled code needs NumPy's LAPACK with "
                           "64-bit integers, which this process does not have")
    if info != 0:
        raise np.linalg.LinAlgError("Matrix is not positive definite")
    out = np.zeros((n, n), dtype=_probe(a).dtype)
    for i in range(n):
        for j in range(n):
            if (i <= j) if upper else (i >= j):
                out[i, j] = f[j, i]
    return out


def slogdet_parts(a):
    """(found, sign, log|det|) from dgetrf's LU factors, as NumPy: the log of each pivot's
    magnitude summed in order; (0, -inf) for an exactly singular matrix. `found` is False
    (and nothing computed) when this process has no LAPACK with 64-bit integers."""
    n = a.shape[0]
    lda = max(n, 1)
    f = _fortran(a, lda)
    ipiv = np.zeros(lda, dtype=np.int64)
    info = lapack("dgetrf", n, n, f, lda, ipiv)
    sign = 0.0
    logdet = float("-inf")
    if info == 0:
        swaps = 0
        for i in range(n):
            if ipiv[i] != i + 1:
                swaps += 1
        sign = -1.0 if swaps % 2 == 1 else 1.0
        logdet = 0.0
        for i in range(n):
            d = f[i, i]
            if d < 0.0:
                sign = -sign
                d = -d
            logdet += math.log(d)
    return info != _MISSING, sign, logdet


def gesv(a, b):
    """(found, singular, x): dgesv's solution of a·x = b for a 2-d `b`, as NumPy's solve and
    inv call it (float64, Fortran order); `found` False when this process has no LAPACK with
    64-bit integers."""
    n = a.shape[0]
    nrhs = b.shape[1]
    lda = max(n, 1)
    f = _fortran(a, lda)
    fb = _fortran(b, lda)
    ipiv = np.zeros(lda, dtype=np.int64)
    info = lapack("dgesv", n, nrhs, f, lda, ipiv, fb, lda)
    x = np.empty((n, nrhs))
    if info == 0:
        for c in range(nrhs):
            for i in range(n):
                x[i, c] = fb[c, i]
    return info != _MISSING, info > 0, x


def linalg_slogdet(a: np.ndarray):
    """(sign, log|det|), as NumPy (`slogdet_parts`)."""
    _square(a)
    found, sign, logdet = slogdet_parts(a)
    if not found:
        raise RuntimeError("numpy.linalg.slogdet in compiled code needs NumPy's LAPACK with "
                           "64-bit integers, which this process does not have")
    out = np.empty(2, dtype=_probe(a).dtype)
    out[0] = sign
    out[1] = logdet
    return out[0], out[1]
