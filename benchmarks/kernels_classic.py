"""Classic numeric kernels, written once in plain Python with NumPy, as explicit loops.

The kind of code a Numba user writes: an n-body force sum, the Mandelbrot set, Black-Scholes
over arrays, a k-means assignment step, prefix sums, a 2-D convolution, insertion sort, the
sieve of Eratosthenes, Floyd-Warshall, a histogram, a transpose, a Newton iteration.
benchmarks/classic.py compiles each with script and Numba, runs it in CPython on small
inputs to check, and times it against C (c/<name>.c: the same loops). This file imports only
`math` and NumPy: script, Numba and CPython all load it.

Kernels that sort or relax in place copy their input first, so every call does the same work.
"""

import math

import numpy as np


def nbody_accel(pos, mass, eps):
    """Softened gravitational accelerations of n bodies, all pairs (sqrt, 1/r^3)."""
    n = pos.shape[0]
    acc = np.zeros((n, 3))
    for i in range(n):
        ax = 0.0
        ay = 0.0
        az = 0.0
        xi = pos[i, 0]
        yi = pos[i, 1]
        zi = pos[i, 2]
        for j in range(n):
            dx = pos[j, 0] - xi
            dy = pos[j, 1] - yi
            dz = pos[j, 2] - zi
            r2 = dx * dx + dy * dy + dz * dz + eps
            inv = mass[j] / (r2 * math.sqrt(r2))
            ax += dx * inv
            ay += dy * inv
            az += dz * inv
        acc[i, 0] = ax
        acc[i, 1] = ay
        acc[i, 2] = az
    return acc


def mandelbrot(width, height, maxiter):
    """Escape-time counts of a width x height grid over [-2, 1] x [-1.5, 1.5]."""
    out = np.empty((height, width), dtype=np.int64)
    for y in range(height):
        ci = -1.5 + 3.0 * y / height
        for x in range(width):
            cr = -2.0 + 3.0 * x / width
            zr = 0.0
            zi = 0.0
            k = 0
            while k < maxiter and zr * zr + zi * zi <= 4.0:
                t = zr * zr - zi * zi + cr
                zi = 2.0 * zr * zi + ci
                zr = t
                k += 1
            out[y, x] = k
    return out


def black_scholes(s, k, t, r, v):
    """European call prices (log, sqrt, exp and erf from math) over arrays of inputs."""
    n = s.shape[0]
    out = np.empty(n)
    for i in range(n):
        sq = v * math.sqrt(t[i])
        d1 = (math.log(s[i] / k[i]) + (r + 0.5 * v * v) * t[i]) / sq
        d2 = d1 - sq
        n1 = 0.5 * (1.0 + math.erf(d1 / math.sqrt(2.0)))
        n2 = 0.5 * (1.0 + math.erf(d2 / math.sqrt(2.0)))
        out[i] = s[i] * n1 - k[i] * math.exp(-r * t[i]) * n2
    return out


def kmeans_assign(points, centroids):
    """The assignment step of k-means: the index of each point's nearest centroid."""
    n = points.shape[0]
    k = centroids.shape[0]
    d = points.shape[1]
    labels = np.empty(n, dtype=np.int64)
    for i in range(n):
        best = 0
        best_d = math.inf
        for c in range(k):
            s = 0.0
            for j in range(d):
                diff = points[i, j] - centroids[c, j]
                s += diff * diff
            if s < best_d:
                best_d = s
                best = c
        labels[i] = best
    return labels


def prefix_sum(a):
    """Inclusive prefix sums of an int64 array, and of its squares (two loop-carried sums)."""
    n = a.shape[0]
    out = np.empty(n, dtype=np.int64)
    sq = np.empty(n, dtype=np.int64)
    s = 0
    s2 = 0
    for i in range(n):
        s += a[i]
        s2 += a[i] * a[i]
        out[i] = s
        sq[i] = s2
    return out, sq


def conv2d(img, ker):
    """A 'valid' 2-D convolution (correlation) of an image with a small kernel."""
    h = img.shape[0]
    w = img.shape[1]
    kh = ker.shape[0]
    kw = ker.shape[1]
    out = np.zeros((h - kh + 1, w - kw + 1))
    for i in range(h - kh + 1):
        for j in range(w - kw + 1):
            s = 0.0
            for u in range(kh):
                for v in range(kw):
                    s += img[i + u, j + v] * ker[u, v]
            out[i, j] = s
    return out


def insertion_sort(a):
    """A sorted copy of an int64 array, by insertion sort."""
    b = a.copy()
    for i in range(1, b.shape[0]):
        x = b[i]
        j = i - 1
        while j >= 0 and b[j] > x:
            b[j + 1] = b[j]
            j -= 1
        b[j + 1] = x
    return b


def sieve(n):
    """The number of primes <= n, by the sieve of Eratosthenes on a bool array."""
    flags = np.ones(n + 1, dtype=np.bool_)
    flags[0] = False
    flags[1] = False
    i = 2
    while i * i <= n:
        if flags[i]:
            for j in range(i * i, n + 1, i):
                flags[j] = False
        i += 1
    count = 0
    for i in range(n + 1):
        if flags[i]:
            count += 1
    return count


def floyd_warshall(dist):
    """All-pairs shortest paths: the triple loop on a copy of the distance matrix."""
    d = dist.copy()
    n = d.shape[0]
    for k in range(n):
        for i in range(n):
            dik = d[i, k]
            for j in range(n):
                alt = dik + d[k, j]
                if alt < d[i, j]:
                    d[i, j] = alt
    return d


def histogram(x, nbins, lo, hi):
    """Counts of x in nbins equal bins over [lo, hi), integer binning by truncation."""
    counts = np.zeros(nbins, dtype=np.int64)
    scale = nbins / (hi - lo)
    for i in range(x.shape[0]):
        b = int((x[i] - lo) * scale)
        if 0 <= b < nbins:
            counts[b] += 1
    return counts


def transpose(a):
    """A transposed copy, by strided reads (the output written row by row)."""
    n = a.shape[0]
    m = a.shape[1]
    out = np.empty((m, n))
    for j in range(m):
        for i in range(n):
            out[j, i] = a[i, j]
    return out


def newton_cbrt(a):
    """Cube roots by a while-loop Newton iteration per element, to a relative 1e-12."""
    n = a.shape[0]
    out = np.empty(n)
    for i in range(n):
        y = a[i]
        x = y if y > 1.0 else 1.0
        while True:
            dx = (x * x * x - y) / (3.0 * x * x)
            x -= dx
            if abs(dx) <= 1e-12 * x:
                break
        out[i] = x
    return out


def int_mod_hash(a, m):
    """A hash of an int64 array with Python's floor % by a runtime modulus (signed values)."""
    h = 0
    for i in range(a.shape[0]):
        h = (h * 31 + a[i]) % m
    return h


# name: (full-size arguments, quick-size arguments), each a function of a NumPy Generator
def _args_nbody(rng, n):
    return rng.random((n, 3)), rng.random(n) + 0.5, 1e-3


def _args_bs(rng, n):
    return (rng.uniform(50, 150, n), rng.uniform(50, 150, n), rng.uniform(0.1, 2.0, n), 0.03, 0.25)


def _args_kmeans(rng, n, k, d):
    return rng.random((n, d)), rng.random((k, d))


def _args_fw(rng, n):
    d = rng.uniform(1.0, 100.0, (n, n))
    d[rng.random((n, n)) < 0.7] = 1e9
    np.fill_diagonal(d, 0.0)
    return (d,)


SIZES = {
    "nbody_accel": (lambda g: _args_nbody(g, 1000), lambda g: _args_nbody(g, 50)),
    "mandelbrot": (lambda g: (400, 300, 200), lambda g: (40, 30, 50)),
    "black_scholes": (lambda g: _args_bs(g, 200_000), lambda g: _args_bs(g, 1000)),
    "kmeans_assign": (lambda g: _args_kmeans(g, 50_000, 16, 4), lambda g: _args_kmeans(g, 500, 4, 3)),
    "prefix_sum": (lambda g: (g.integers(-1000, 1000, 1_000_000),), lambda g: (g.integers(-1000, 1000, 1000),)),
    "conv2d": (lambda g: (g.random((500, 500)), g.random((5, 5))), lambda g: (g.random((30, 30)), g.random((3, 3)))),
    "insertion_sort": (lambda g: (g.integers(0, 1 << 40, 3000),), lambda g: (g.integers(-100, 100, 200),)),
    "sieve": (lambda g: (2_000_000,), lambda g: (1000,)),
    "floyd_warshall": (lambda g: _args_fw(g, 200), lambda g: _args_fw(g, 20)),
    "histogram": (lambda g: (g.normal(0.0, 1.0, 1_000_000), 64, -3.0, 3.0),
                  lambda g: (g.normal(0.0, 1.0, 1000), 16, -2.0, 2.0)),
    "transpose": (lambda g: (g.random((1000, 1200)),), lambda g: (g.random((30, 20)),)),
    "newton_cbrt": (lambda g: (g.uniform(0.0, 1e6, 200_000),), lambda g: (g.uniform(0.0, 100.0, 500),)),
    "int_mod_hash": (lambda g: (g.integers(-1 << 40, 1 << 40, 1_000_000), 1_000_000_007),
                     lambda g: (g.integers(-1000, 1000, 1000), 97)),
}
NAMES = tuple(SIZES)


def arguments(name: str, size: str):
    """The arguments of kernel `name` at size "full" or "quick", the same in every process."""
    return SIZES[name][0 if size == "full" else 1](np.random.default_rng(7))


def check_value(name: str, result) -> float:
    """One float summarising a kernel's result, which C computes the same way (c/<name>.c)."""
    if name == "prefix_sum":
        out, sq = result
        return float(out[-1]) + float(sq[-1])
    if name in ("sieve", "int_mod_hash"):
        return float(result)
    flat = np.ascontiguousarray(result).ravel().astype(np.float64)
    i = np.arange(flat.shape[0])
    if name == "insertion_sort":
        return float(np.sum(flat * (i % 7)))
    if name == "histogram":
        return float(np.sum(flat * (i + 1)))
    if name == "transpose":
        return float(np.sum(flat * (i % 5)))
    return float(np.sum(flat))
