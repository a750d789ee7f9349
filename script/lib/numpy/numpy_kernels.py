"""Kernels of NumPy's reductions and products, written in the compiled subset itself.

numpy_reduce.py and numpy_linalg.py call these with `call_kernel` (compiled like any callee,
specialized per argument types, always without bounds checks: every index below is in range
by construction). They take the arrays as given: the caller makes them C-typed where that
lets LLVM see unit strides and vectorize.

`zero` arguments carry the accumulator's type (a typed -0.0 or 0): a sum starts from it, and
an element added to it is converted to that type, as NumPy's reductions with a `dtype` do.
"""


def pairwise_sum(a, lo, n, zero):
    """a[lo] + ... + a[lo + n - 1] for a 1-d `a`, in exactly the order of NumPy's pairwise
    summation (numpy/_core/src/umath/loops_utils.h: blocks of 128 in 8 lanes, halved at a
    multiple of 8 above that), so the rounding error grows as O(log n), not O(n)."""
    if n < 8:
        s = zero
        for i in range(lo, lo + n):
            s += a[i]
        return s
    if n <= 128:
        r0 = zero + a[lo]
        r1 = zero + a[lo + 1]
        r2 = zero + a[lo + 2]
        r3 = zero + a[lo + 3]
        r4 = zero + a[lo + 4]
        r5 = zero + a[lo + 5]
        r6 = zero + a[lo + 6]
        r7 = zero + a[lo + 7]
        end = lo + n - n % 8
        i = lo + 8
        while i < end:
            r0 += a[i]
            r1 += a[i + 1]
            r2 += a[i + 2]
            r3 += a[i + 3]
            r4 += a[i + 4]
            r5 += a[i + 5]
            r6 += a[i + 6]
            r7 += a[i + 7]
            i += 8
        s = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
        while i < lo + n:
            s += a[i]
            i += 1
        return s
    half = n // 2
    half -= half % 8
    return pairwise_sum(a, lo, half, zero) + pairwise_sum(a, lo + half, n - half, zero)


def dot_1d(a, b, zero):
    """sum(a[i] * b[i]) in four interleaved partial sums (for speed; NumPy's BLAS sums in
    its own order too, so float results agree to rounding)."""
    n = a.shape[0]
    s0 = zero
    s1 = zero
    s2 = zero
    s3 = zero
    i = 0
    while i + 4 <= n:
        s0 += a[i] * b[i]
        s1 += a[i + 1] * b[i + 1]
        s2 += a[i + 2] * b[i + 2]
        s3 += a[i + 3] * b[i + 3]
        i += 4
    s = (s0 + s1) + (s2 + s3)
    while i < n:
        s += a[i] * b[i]
        i += 1
    return s


def matvec(out, a, x, zero):
    """out[i] = a[i, :] . x, each row as `dot_1d` sums it."""
    n = a.shape[1]
    for r in range(a.shape[0]):
        s0 = zero
        s1 = zero
        s2 = zero
        s3 = zero
        i = 0
        while i + 4 <= n:
            s0 += a[r, i] * x[i]
            s1 += a[r, i + 1] * x[i + 1]
            s2 += a[r, i + 2] * x[i + 2]
            s3 += a[r, i + 3] * x[i + 3]
            i += 4
        s = (s0 + s1) + (s2 + s3)
        while i < n:
            s += a[r, i] * x[i]
            i += 1
        out[r] = s


def vecmat(out, x, b):
    """out[j] += x[k] * b[k, j] over k, j (out starts zeroed): the inner loop runs along a
    row of `b` and of `out`, contiguous, so it vectorizes."""
    for k in range(b.shape[0]):
        xk = x[k]
        for j in range(b.shape[1]):
            out[j] += xk * b[k, j]


def matmul(out, a, b):
    """out += a @ b (out starts zeroed) in i-k-j order: the inner loop runs along a row of
    `b` and of `out`, both C-contiguous, so it vectorizes; a[i, k] is loaded once per row."""
    m = b.shape[1]
    for i in range(a.shape[0]):
        for k in range(a.shape[1]):
            aik = a[i, k]
            for j in range(m):
                out[i, j] += aik * b[k, j]


def pairwise_sum_complex(a, lo, n, zero):
    """The sum of complex a[lo:lo + n] as NumPy adds it (loops_utils.h, the complex pairwise
    sum): over the 2n floats of real and imaginary parts, blocks of 128 floats in 8 lanes
    (four complex accumulators), halved at a multiple of 8 floats above that. `zero` is
    -0.0 of the parts' type; the real and imaginary sums come back as a tuple."""
    if n < 4:
        rr = zero
        ri = zero
        for i in range(lo, lo + n):
            rr += a[i].real
            ri += a[i].imag
        return rr, ri
    if n <= 64:
        r0 = a[lo].real
        r1 = a[lo].imag
        r2 = a[lo + 1].real
        r3 = a[lo + 1].imag
        r4 = a[lo + 2].real
        r5 = a[lo + 2].imag
        r6 = a[lo + 3].real
        r7 = a[lo + 3].imag
        end = lo + n - n % 4
        i = lo + 4
        while i < end:
            r0 += a[i].real
            r1 += a[i].imag
            r2 += a[i + 1].real
            r3 += a[i + 1].imag
            r4 += a[i + 2].real
            r5 += a[i + 2].imag
            r6 += a[i + 3].real
            r7 += a[i + 3].imag
            i += 4
        rr = (r0 + r2) + (r4 + r6)
        ri = (r1 + r3) + (r5 + r7)
        while i < lo + n:
            rr += a[i].real
            ri += a[i].imag
            i += 1
        return rr, ri
    half = (n - n % 8) // 2
    ar, ai = pairwise_sum_complex(a, lo, half, zero)
    br, bi = pairwise_sum_complex(a, lo + half, n - half, zero)
    return ar + br, ai + bi
