"""`np.full(shape, value)` evaluates its arguments in order, as Python does: the shape first,
so an error there comes before one in the value. Compiled code evaluated the value first
(`np.full((f(), 1), 16 // 0.0)` raised ZeroDivisionError where CPython raises the ValueError
of `f`). Fixed in script/frontend/numpy_alloc.py (np_full)."""
import numpy as np


def f(k):
    b = np.ones((k, 0), dtype=np.int32)
    return np.argmin(b)


def main(k, x):
    return np.full((f(k), 1), 16 // x, dtype=np.float32)


def inputs():
    return [(0, 0.0), (1, 0.0), (0, 2.0)]
