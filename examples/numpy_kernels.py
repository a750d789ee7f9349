"""NumPy-style loops compiled as written, checked against CPython and timed."""

import math
import time

import numpy as np

import script


@script.script
def blur(img):
    """A 3x3 box blur of the interior of a 2-D image."""
    out = img.copy()
    for i in range(1, img.shape[0] - 1):
        for j in range(1, img.shape[1] - 1):
            s = 0.0
            for di in range(-1, 2):
                for dj in range(-1, 2):
                    s += img[i + di, j + dj]
            out[i, j] = s / 9.0
    return out


@script.script
def pairwise(points):
    """Euclidean distances between the rows of an (n, d) array."""
    n, d = points.shape
    out = np.empty((n, n))
    for i in range(n):
        for j in range(n):
            s = 0.0
            for k in range(d):
                t = points[i, k] - points[j, k]
                s += t * t
            out[i, j] = math.sqrt(s)
    return out


@script.script
def histogram(values, bins: int, lo: float, hi: float):
    counts = np.zeros(bins, dtype=np.int64)
    width = (hi - lo) / bins
    for v in values:
        if lo <= v < hi:
            counts[int((v - lo) / width)] += 1
    return counts


@script.script
def monte_carlo_pi(n: int) -> float:
    np.random.seed(42)
    inside = 0
    for _ in range(n):
        x = np.random.random()
        y = np.random.random()
        if x * x + y * y <= 1.0:
            inside += 1
    return 4.0 * inside / n


def timed(f, *args):
    start = time.perf_counter()
    result = f(*args)
    return result, time.perf_counter() - start


def main():
    rng = np.random.default_rng(0)
    img = rng.random((200, 200))
    pts = rng.random((150, 3))
    vals = rng.normal(size=100_000)
    cases = [("blur", blur, (img,)), ("pairwise", pairwise, (pts,)),
             ("histogram", histogram, (vals, 20, -3.0, 3.0)),
             ("monte_carlo_pi", monte_carlo_pi, (100_000,))]
    for name, f, args in cases:
        f(*args)                                    # compile this signature first
        expected, t_py = timed(f.py_func, *args)
        got, t_script = timed(f, *args)
        assert np.allclose(got, expected), name
        print(f"{name:16s} CPython {t_py * 1e3:9.2f} ms   script {t_script * 1e3:7.3f} ms   "
              f"{t_py / t_script:7.1f}x")


if __name__ == "__main__":
    main()
