"""Workload kernels, written once in plain Python (+ NumPy), as their authors would.

The third benchmark set (benchmarks/workloads.py, README section 9): kernels typical of public
Numba benchmark suites and of everyday code that the scalar and classic sets do not cover:
a pairwise distance matrix, a Jacobi heat stencil with a time loop, a Cholesky factorization
in loops, the spectral norm, fannkuch (int lists), N-queens (recursion on ints), character
counting over a str, a dict word count, a list of primes built by `append`, a float32
Gaussian blur, logistic regression by gradient descent (`@`, `np.exp` on arrays), an
iterative quicksort and a bubble sort on Python lists, Horner's rule over an array; and
what everyday code does with strs, dicts, recursion and tuples: anagram groups (a dict keyed
by `"".join(sorted(w))`), a CSV text built from f-strings and `"\n".join`, Ackermann's
function, a list of tuples sorted with `key=`.
c/<name>.c holds the same loops in C. This file imports only `math` and NumPy: script, Numba
and CPython all load it.
"""

import math

import numpy as np


def pairwise_dist(x):
    """The (n, n) Euclidean distance matrix of n points in d dimensions."""
    n = x.shape[0]
    d = x.shape[1]
    out = np.empty((n, n))
    for i in range(n):
        for j in range(n):
            s = 0.0
            for k in range(d):
                t = x[i, k] - x[j, k]
                s += t * t
            out[i, j] = math.sqrt(s)
    return out


def jacobi2d(a, steps):
    """`steps` Jacobi sweeps of the 2-D heat equation; the border stays fixed."""
    n = a.shape[0]
    m = a.shape[1]
    u = a.copy()
    v = a.copy()
    for t in range(steps):
        for i in range(1, n - 1):
            for j in range(1, m - 1):
                v[i, j] = 0.25 * (u[i - 1, j] + u[i + 1, j] + u[i, j - 1] + u[i, j + 1])
        u, v = v, u
    return u


def cholesky(a):
    """The lower-triangular L with L @ L.T == a (a symmetric positive definite), in loops."""
    n = a.shape[0]
    low = np.zeros((n, n))
    for j in range(n):
        s = a[j, j]
        for k in range(j):
            s -= low[j, k] * low[j, k]
        low[j, j] = math.sqrt(s)
        for i in range(j + 1, n):
            s = a[i, j]
            for k in range(j):
                s -= low[i, k] * low[j, k]
            low[i, j] = s / low[j, j]
    return low


def spectral_norm(n):
    """The spectral norm of the infinite matrix A(i, j) = 1 / ((i+j)(i+j+1)/2 + i + 1), n x n."""
    u = np.ones(n)
    v = np.zeros(n)
    tmp = np.zeros(n)
    for it in range(20):
        src = u if it % 2 == 0 else v
        dst = v if it % 2 == 0 else u
        for i in range(n):
            s = 0.0
            for j in range(n):
                s += src[j] / ((i + j) * (i + j + 1) // 2 + i + 1)
            tmp[i] = s
        for i in range(n):
            s = 0.0
            for j in range(n):
                s += tmp[j] / ((i + j) * (i + j + 1) // 2 + j + 1)
            dst[i] = s
    vbv = 0.0
    vv = 0.0
    for i in range(n):
        vbv += u[i] * v[i]
        vv += v[i] * v[i]
    return math.sqrt(vbv / vv)


def fannkuch(n):
    """Fannkuch-redux: max flips over all permutations of range(n), times 10**6, plus the checksum."""
    perm1 = list(range(n))
    perm = [0] * n
    count = [0] * n
    max_flips = 0
    checksum = 0
    nperm = 0
    r = n
    while True:
        while r != 1:
            count[r - 1] = r
            r -= 1
        for i in range(n):
            perm[i] = perm1[i]
        flips = 0
        k = perm[0]
        while k != 0:
            i = 0
            j = k
            while i < j:
                t = perm[i]
                perm[i] = perm[j]
                perm[j] = t
                i += 1
                j -= 1
            flips += 1
            k = perm[0]
        if flips > max_flips:
            max_flips = flips
        if nperm % 2 == 0:
            checksum += flips
        else:
            checksum -= flips
        while True:
            if r == n:
                return max_flips * 1000000 + checksum
            p0 = perm1[0]
            for i in range(r):
                perm1[i] = perm1[i + 1]
            perm1[r] = p0
            count[r] -= 1
            if count[r] > 0:
                break
            r += 1
        nperm += 1


def nqueens(n, row, cols, d1, d2):
    """Solutions of the n-queens problem from `row` on (bitmask recursion; call with zeros)."""
    if row == n:
        return 1
    count = 0
    avail = ~(cols | d1 | d2) & ((1 << n) - 1)
    while avail:
        bit = avail & -avail
        avail -= bit
        count += nqueens(n, row + 1, cols | bit, (d1 | bit) << 1, (d2 | bit) >> 1)
    return count


def char_count(s):
    """Counts of 'a'..'z' in a str, weighted by letter number."""
    counts = [0] * 26
    for c in s:
        k = ord(c) - 97
        if 0 <= k < 26:
            counts[k] += 1
    total = 0
    for i in range(26):
        total += counts[i] * (i + 1)
    return total


def word_count(text):
    """A dict word count of a text; returns the sum of squared counts plus the vocabulary size."""
    d = {}
    for w in text.split():
        d[w] = d.get(w, 0) + 1
    total = 0
    for v in d.values():
        total += v * v
    return total + len(d)


def primes_list(n):
    """The sum of the primes below n, found by trial division by the list of primes so far."""
    primes = [2]
    for k in range(3, n, 2):
        is_prime = True
        for p in primes:
            if p * p > k:
                break
            if k % p == 0:
                is_prime = False
                break
        if is_prime:
            primes.append(k)
    s = 0
    for p in primes:
        s += p
    return s


def blur_f32(img, k):
    """A 3x3 'valid' blur of a float32 image by a float32 kernel, in float32 throughout."""
    h = img.shape[0]
    w = img.shape[1]
    out = np.empty((h - 2, w - 2), dtype=np.float32)
    for i in range(1, h - 1):
        for j in range(1, w - 1):
            out[i - 1, j - 1] = (img[i - 1, j - 1] * k[0, 0] + img[i - 1, j] * k[0, 1]
                                 + img[i - 1, j + 1] * k[0, 2] + img[i, j - 1] * k[1, 0]
                                 + img[i, j] * k[1, 1] + img[i, j + 1] * k[1, 2]
                                 + img[i + 1, j - 1] * k[2, 0] + img[i + 1, j] * k[2, 1]
                                 + img[i + 1, j + 1] * k[2, 2])
    return out


def logreg(x, y, iters, lr):
    """Logistic regression weights by `iters` steps of full-batch gradient descent."""
    n = x.shape[0]
    w = np.zeros(x.shape[1])
    for it in range(iters):
        z = x @ w
        p = 1.0 / (1.0 + np.exp(-z))
        g = x.T @ (p - y)
        w = w - (lr / n) * g
    return w


def quicksort_list(n, seed):
    """An LCG list of n ints sorted by an iterative quicksort (an explicit stack list)."""
    a = []
    x = seed
    for i in range(n):
        x = (x * 1103515245 + 12345) % 2147483648
        a.append(x)
    stack = [0, n - 1]
    while len(stack) > 0:
        hi = stack.pop()
        lo = stack.pop()
        if lo < hi:
            pivot = a[(lo + hi) // 2]
            i = lo
            j = hi
            while i <= j:
                while a[i] < pivot:
                    i += 1
                while a[j] > pivot:
                    j -= 1
                if i <= j:
                    t = a[i]
                    a[i] = a[j]
                    a[j] = t
                    i += 1
                    j -= 1
            stack.append(lo)
            stack.append(j)
            stack.append(i)
            stack.append(hi)
    s = 0
    for i in range(n):
        s += a[i] * (i % 7)
    return s


def bubble_sort(n, seed):
    """An LCG list of n ints bubble-sorted (early exit when a pass swaps nothing)."""
    a = []
    x = seed
    for i in range(n):
        x = (x * 1103515245 + 12345) % 2147483648
        a.append(x % 100000)
    for end in range(n - 1, 0, -1):
        swapped = False
        for i in range(end):
            if a[i] > a[i + 1]:
                t = a[i]
                a[i] = a[i + 1]
                a[i + 1] = t
                swapped = True
        if not swapped:
            break
    s = 0
    for i in range(n):
        s += a[i] * (i % 7)
    return s


def horner(c, x):
    """A polynomial with coefficients c (highest first) at every point of x, by Horner's rule."""
    n = x.shape[0]
    m = c.shape[0]
    out = np.empty(n)
    for i in range(n):
        xi = x[i]
        acc = c[0]
        for k in range(1, m):
            acc = acc * xi + c[k]
        out[i] = acc
    return out


def anagram_groups(text):
    """Words grouped by their sorted letters in a dict of strs; sum of squared group sizes + groups."""
    groups = {}
    for w in text.split():
        key = "".join(sorted(w))
        if key in groups:
            groups[key] += 1
        else:
            groups[key] = 1
    total = 0
    for v in groups.values():
        total += v * v
    return total + len(groups)


def csv_builder(n):
    """n f-string lines of an LCG joined by newlines; the length and a sample of the characters."""
    parts = []
    x = 12345
    for i in range(n):
        x = (x * 1103515245 + 12345) % 2147483648
        parts.append(f"{i},{x % 1000},{x % 7 - 3}")
    text = "\n".join(parts)
    s = 0
    for k in range(0, len(text), 7):
        s += ord(text[k])
    return len(text) * 1000 + s % 1000


def ackermann(m, n):
    """The Ackermann function by plain double recursion."""
    if m == 0:
        return n + 1
    if n == 0:
        return ackermann(m - 1, 1)
    return ackermann(m - 1, ackermann(m, n - 1))


def sort_records(n, seed):
    """A list of LCG (int, int, int) tuples sorted with a key (first ascending, third descending)."""
    recs = []
    x = seed
    for i in range(n):
        x = (x * 1103515245 + 12345) % 2147483648
        recs.append((x % 1000, i, (x >> 10) % 10007))
    recs.sort(key=lambda r: (r[0], -r[2]))
    s = 0
    for k in range(n):
        s += recs[k][1] * (k % 7) + recs[k][2]
    return s


# --- arguments: (full size, quick size), each a function of a NumPy Generator

def _spd(rng, n):
    m = rng.random((n, n))
    return (m @ m.T + n * np.eye(n),)


def _text(rng, words, vocab):
    letters = np.array(list("abcdefghijklmnopqrstuvwxyz"))
    lens = rng.integers(2, 10, vocab)
    table = ["".join(rng.choice(letters, int(k))) for k in lens]
    # a Zipf-like draw: frequent short words and a long tail, as in text
    idx = np.minimum(rng.zipf(1.3, words) - 1, vocab - 1)
    return " ".join(table[int(i)] for i in idx)


def _logreg(rng, n, d, iters):
    x = rng.normal(0.0, 1.0, (n, d))
    w = rng.normal(0.0, 1.0, d)
    y = (x @ w + rng.normal(0.0, 0.5, n) > 0).astype(np.float64)
    return x, y, iters, 0.5


def _blur(rng, h, w):
    k = np.array([[1, 2, 1], [2, 4, 2], [1, 2, 1]], dtype=np.float32) / np.float32(16)
    return rng.random((h, w), dtype=np.float32), k


def _letters(rng, n):
    # mostly lowercase letters, with spaces, capitals and punctuation that the count skips
    pool = np.array(list("abcdefghijklmnopqrstuvwxyz" * 3 + "     ABCXYZ.,;!"))
    return ("".join(rng.choice(pool, n)),)


SIZES = {
    "pairwise_dist": (lambda g: (g.random((1000, 3)),), lambda g: (g.random((20, 3)),)),
    "jacobi2d": (lambda g: (g.random((300, 300)), 40), lambda g: (g.random((12, 10)), 3)),
    "cholesky": (lambda g: _spd(g, 300), lambda g: _spd(g, 12)),
    "spectral_norm": (lambda g: (400,), lambda g: (20,)),
    "fannkuch": (lambda g: (9,), lambda g: (6,)),
    "nqueens": (lambda g: (10, 0, 0, 0, 0), lambda g: (6, 0, 0, 0, 0)),
    "char_count": (lambda g: _letters(g, 1_000_000), lambda g: _letters(g, 2000)),
    "word_count": (lambda g: (_text(g, 200_000, 5000),), lambda g: (_text(g, 500, 100),)),
    "primes_list": (lambda g: (300_000,), lambda g: (2000,)),
    "blur_f32": (lambda g: _blur(g, 800, 800), lambda g: _blur(g, 12, 9)),
    "logreg": (lambda g: _logreg(g, 5000, 16, 30), lambda g: _logreg(g, 50, 4, 5)),
    "quicksort_list": (lambda g: (200_000, 12345), lambda g: (500, 12345)),
    "bubble_sort": (lambda g: (2000, 12345), lambda g: (60, 12345)),
    "horner": (lambda g: (g.uniform(-1.0, 1.0, 12), g.uniform(-1.0, 1.0, 1_000_000)),
               lambda g: (g.uniform(-1.0, 1.0, 5), g.uniform(-1.0, 1.0, 100))),
    "anagram_groups": (lambda g: (_text(g, 200_000, 5000),), lambda g: (_text(g, 500, 100),)),
    "csv_builder": (lambda g: (200_000,), lambda g: (300,)),
    "ackermann": (lambda g: (3, 8), lambda g: (2, 3)),
    "sort_records": (lambda g: (200_000, 12345), lambda g: (300, 12345)),
}
NAMES = tuple(SIZES)


def arguments(name: str, size: str):
    """The arguments of kernel `name` at size "full" or "quick", the same in every process."""
    return SIZES[name][0 if size == "full" else 1](np.random.default_rng(11))


def check_value(name: str, result) -> float:
    """One float summarising a kernel's result, which C computes the same way (c/<name>.c)."""
    if np.ndim(result) == 0:
        return float(result)
    flat = np.ascontiguousarray(result).ravel().astype(np.float64)
    return float(np.sum(flat * (np.arange(flat.shape[0]) % 5 + 1)))
