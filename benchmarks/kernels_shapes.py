"""Kernels of the shapes issue 21 measured as slow, written as people write them.

A spectral norm whose matrix entry is a helper function (`1.0 / (... // 2 + i + 1)`) called
in a double loop, a matrix-vector product as two loops, Floyd-Warshall with `min`, a histogram binned with `math.floor` and
clamped under a bool flag, Levenshtein over a 2-D table, a Park-Miller LCG with `%`, a
recursive quicksort on an array, recursive fib, Mandelbrot counting escape steps, and the
longest Collatz chain. benchmarks/shapes.py times each against C (c/<name>.c: the same
loops) and Numba. Only `math` and NumPy are imported: script, Numba and CPython all load it.

`HELPERS` names the functions the kernels call; Numba's side jits them too (a plain Python
function called from an njit function does not compile).
"""

import math

import numpy as np


def eval_a(i, j):
    return 1.0 / ((i + j) * (i + j + 1) // 2 + i + 1)


def a_times_u(u, out):
    n = u.shape[0]
    for i in range(n):
        s = 0.0
        for j in range(n):
            s += eval_a(i, j) * u[j]
        out[i] = s


def at_times_u(u, out):
    n = u.shape[0]
    for i in range(n):
        s = 0.0
        for j in range(n):
            s += eval_a(j, i) * u[j]
        out[i] = s


def spectral_norm_calls(n):
    """The benchmarks-game spectral norm, 10 rounds of u -> A^T A u."""
    u = np.ones(n)
    v = np.zeros(n)
    tmp = np.zeros(n)
    for _ in range(10):
        a_times_u(u, tmp)
        at_times_u(tmp, v)
        a_times_u(v, tmp)
        at_times_u(tmp, u)
    vbv = 0.0
    vv = 0.0
    for i in range(n):
        vbv += u[i] * v[i]
        vv += v[i] * v[i]
    return math.sqrt(vbv / vv)


def matvec_loops(a, x):
    """y = a @ x written as two loops: a row's sum over its columns, stored after the inner
    loop (the nest `jam` runs four rows at a time)."""
    n, m = a.shape
    y = np.zeros(n)
    for i in range(n):
        s = 0.0
        for j in range(m):
            s += a[i, j] * x[j]
        y[i] = s
    return y


def floyd_min(dist):
    """All-pairs shortest paths with `min` in the inner loop, on a copy."""
    d = dist.copy()
    n = d.shape[0]
    for k in range(n):
        for i in range(n):
            for j in range(n):
                d[i, j] = min(d[i, j], d[i, k] + d[k, j])
    return d


def histogram_floor(x, nbins, lo, hi, clamp):
    """Counts in nbins bins over [lo, hi); values outside go to the end bins when clamp."""
    counts = np.zeros(nbins, dtype=np.int64)
    scale = nbins / (hi - lo)
    for i in range(x.shape[0]):
        b = math.floor((x[i] - lo) * scale)
        if clamp:
            if b < 0:
                b = 0
            elif b >= nbins:
                b = nbins - 1
        counts[b] += 1
    return counts


def levenshtein(a, b):
    """Edit distance of two byte arrays over the full (n+1) x (m+1) table."""
    n = a.shape[0]
    m = b.shape[0]
    d = np.zeros((n + 1, m + 1), dtype=np.int64)
    for i in range(n + 1):
        d[i, 0] = i
    for j in range(m + 1):
        d[0, j] = j
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            d[i, j] = min(d[i - 1, j] + 1, d[i, j - 1] + 1, d[i - 1, j - 1] + cost)
    return d[n, m]


def lcg_mod(n, seed):
    """Park-Miller's minimal standard generator; the sum of the draws' last digits."""
    state = seed
    total = 0
    for _ in range(n):
        state = state * 48271 % 2147483647
        total += state % 10
    return total


def _partition(a, lo, hi):
    pivot = a[hi]
    i = lo
    for j in range(lo, hi):
        if a[j] < pivot:
            a[i], a[j] = a[j], a[i]
            i += 1
    a[i], a[hi] = a[hi], a[i]
    return i


def _quicksort(a, lo, hi):
    if lo < hi:
        p = _partition(a, lo, hi)
        _quicksort(a, lo, p - 1)
        _quicksort(a, p + 1, hi)


def quicksort_rec(x):
    """A sorted copy, by recursive Lomuto quicksort."""
    a = x.copy()
    _quicksort(a, 0, a.shape[0] - 1)
    return a


def fib_rec(n):
    if n < 2:
        return n
    return fib_rec(n - 1) + fib_rec(n - 2)


def mandelbrot_count(width, height, maxiter):
    """The total escape-step count over a width x height grid of [-2, 1] x [-1.5, 1.5]."""
    total = 0
    for y in range(height):
        ci = -1.5 + 3.0 * y / height
        for x in range(width):
            cr = -2.0 + 3.0 * x / width
            zr = 0.0
            zi = 0.0
            k = 0
            while k < maxiter and zr * zr + zi * zi <= 4.0:
                zr, zi = zr * zr - zi * zi + cr, 2.0 * zr * zi + ci
                k += 1
            total += k
    return total


def collatz_longest(n):
    """The start below n with the longest Collatz chain (the first of equals)."""
    best = 0
    best_start = 1
    for start in range(1, n):
        x = start
        steps = 0
        while x != 1:
            if x % 2 == 0:
                x = x // 2
            else:
                x = 3 * x + 1
            steps += 1
        if steps > best:
            best = steps
            best_start = start
    return best_start


HELPERS = ("eval_a", "a_times_u", "at_times_u", "_partition", "_quicksort")


def _fw_args(rng, n):
    d = rng.uniform(1.0, 100.0, (n, n))
    d[rng.random((n, n)) < 0.7] = 1e9
    np.fill_diagonal(d, 0.0)
    return (d,)


def _lev_args(rng, n, m):
    return (rng.integers(97, 101, n).astype(np.uint8), rng.integers(97, 101, m).astype(np.uint8))


# name: (full-size arguments, quick-size arguments), each a function of a NumPy Generator
SIZES = {
    "spectral_norm_calls": (lambda g: (500,), lambda g: (20,)),
    "matvec_loops": (lambda g: (g.uniform(-1.0, 1.0, (500, 500)), g.uniform(-1.0, 1.0, 500)),
                     lambda g: (g.uniform(-1.0, 1.0, (21, 30)), g.uniform(-1.0, 1.0, 30))),
    "floyd_min": (lambda g: _fw_args(g, 200), lambda g: _fw_args(g, 20)),
    "histogram_floor": (lambda g: (g.normal(0.0, 1.0, 1_000_000), 64, -3.0, 3.0, True),
                        lambda g: (g.normal(0.0, 1.0, 1000), 16, -2.0, 2.0, True)),
    "levenshtein": (lambda g: _lev_args(g, 2000, 1500), lambda g: _lev_args(g, 40, 30)),
    "lcg_mod": (lambda g: (3_000_000, 12345), lambda g: (1000, 7)),
    "quicksort_rec": (lambda g: (g.integers(0, 1 << 40, 200_000),), lambda g: (g.integers(-50, 50, 300),)),
    "fib_rec": (lambda g: (27,), lambda g: (12,)),
    "mandelbrot_count": (lambda g: (400, 300, 200), lambda g: (40, 30, 50)),
    "collatz_longest": (lambda g: (100_000,), lambda g: (1000,)),
}
NAMES = tuple(SIZES)


def arguments(name: str, size: str):
    """The arguments of kernel `name` at size "full" or "quick", the same in every process."""
    return SIZES[name][0 if size == "full" else 1](np.random.default_rng(7))


def check_value(name: str, result) -> float:
    """One float summarising a kernel's result, which C computes the same way (c/<name>.c)."""
    if not isinstance(result, np.ndarray):
        return float(result)
    flat = np.ascontiguousarray(result).ravel().astype(np.float64)
    i = np.arange(flat.shape[0])
    if name in ("histogram_floor", "quicksort_rec"):
        return float(np.sum(flat * (i % 7 + 1)))
    return float(np.sum(flat))
