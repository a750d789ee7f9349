"""Realistic functions that combine lists, comprehensions, nested functions, formatted
errors, module-level tables and NumPy (test_realistic.py)."""

import math

import numpy as np

WEIGHTS = np.array([0.25, 0.5, 0.25])


def sieve(n):
    """Primes below n, as a list."""
    if n < 0:
        raise ValueError(f"n must be non-negative, got {n}")
    is_p = np.ones(max(n, 2), dtype=np.bool_)
    is_p[:2] = False
    for i in range(2, int(math.isqrt(max(n - 1, 0))) + 1):
        if is_p[i]:
            for j in range(i * i, n, i):
                is_p[j] = False
    return [i for i in range(n) if is_p[i]]


def moving_average(xs, k):
    if k <= 0 or k > len(xs):
        raise ValueError("window %d does not fit %d values" % (k, len(xs)))
    out = []
    acc = sum(xs[:k])
    out.append(acc / k)
    for i in range(k, len(xs)):
        acc += xs[i] - xs[i - k]
        out.append(acc / k)
    return out


def smooth3(a):
    """Convolution with a module-level kernel; ends copied."""
    r = a.copy()
    for i in range(1, len(a) - 1):
        r[i] = (a[i - 1:i + 2] * WEIGHTS).sum()
    return r


def histogram_counts(values, lo, hi, bins):
    assert bins > 0, f"bins must be positive: {bins}"
    width = (hi - lo) / bins

    def bucket(v):
        k = int((v - lo) // width)
        return min(max(k, 0), bins - 1)
    counts = [0] * bins
    for v in values:
        counts[bucket(v)] += 1
    return counts


def top_k(a, k):
    """The k largest values, largest first, and their mean."""
    items = sorted([x for x in a])
    best = items[len(items) - k:] if k > 0 else []
    best.reverse()
    mean = sum(best) / len(best) if best else 0.0
    return best, mean


def run_length(xs):
    """(value, count) pairs of runs, as two lists."""
    values, counts = [], []
    for x in xs:
        if values and values[-1] == x:
            counts[-1] += 1
        else:
            values.append(x)
            counts.append(1)
    return values, counts


def newton_sqrt(x, tol=1e-12):
    if x < 0:
        raise ValueError(f"cannot take the square root of {x}")
    guess = x if x > 1 else 1.0
    steps = 0
    while abs(guess * guess - x) > tol * max(x, 1.0):
        guess = 0.5 * (guess + x / guess)
        steps += 1
        if steps > 200:
            raise RuntimeError(f"no convergence after {steps} steps (x={x:.3e})")
    return guess, steps


def pairwise_min_distance(pts):
    n = pts.shape[0]
    dist = lambda i, j: math.sqrt(((pts[i] - pts[j]) ** 2).sum())   # noqa: E731
    best = math.inf
    pair = (-1, -1)
    for i in range(n):
        for j in range(i + 1, n):
            d = dist(i, j)
            if d < best:
                best, pair = d, (i, j)
    return best, pair
