"""The sign of the NaN that `np.max`/`np.min` give, which `math.copysign` shows: 0 / 0 makes
a NaN with its sign bit set, and NumPy's contiguous float reduction turns a NaN met in its
whole vectors into the positive NaN while the elements after the last whole vector (and a
strided line) keep their own. Compiled code kept every NaN's own bits (the last NaN's),
so `copysign(9.0, max)` was -9.0 where CPython had 9.0, and a later `** 0.5` raised the
"negative number to a fractional power" ValueError where CPython went on. Fixed in
script/frontend/numpy_reduce.py (float_minmax_line, float_minmax_all). Found as program
52000:1821."""
import math

import numpy as np


def main(a, b):
    c = a / b
    s = c[::2]
    big = math.copysign(9.0, float(np.max(c))) ** 0.5
    return (big, math.copysign(1.0, float(np.min(c))), math.copysign(1.0, float(c.max())),
            math.copysign(1.0, float(np.max(s))), math.copysign(1.0, float(np.max(c.reshape(-1, 3)))),
            math.copysign(1.0, float(np.max(c[1:])) + 0.0))


def inputs():
    zeros_at = lambda n, k: np.array([0.0 if i == k else 1.0 for i in range(n)])  # noqa: E731
    return [(zeros_at(n, k), zeros_at(n, k)) for n, k in
            ((18, 4), (18, 17), (9, 1), (9, 8), (3, 0), (3, 2), (33, 30), (33, 12))]
