"""`np.arange(-1, 5, 1, dtype=np.uint8)` raises `OverflowError: Python integer -1 out of bounds
for uint8`: NumPy stores the first two elements (start, start + step) by item assignment,
which refuses a value the type cannot hold (`int()` of a float start first: -1.5 is -1), and
wraps only the rest (`np.arange(250, 260, 1, dtype=np.uint8)` ends 0 1 2 3). Compiled code
wrapped every element, so a later error surfaced instead. Fixed in
script/frontend/numpy_alloc.py (np_arange)."""
import numpy as np


def main(a, b, s):
    return (np.arange(a, b, s, dtype=np.uint8).sum(), np.arange(a, b, s, dtype=np.int8).sum(),
            np.arange(a, b, s, dtype=np.uint32).sum())


def inputs():
    return [(-1, 5, 1), (0, 300, 1), (0, 500, 300), (-1, -5, 1), (-1, 0, 1), (100, 200, 50),
            (250, 260, 1), (-1.5, 5.0, 1.0), (2.5, 300.0, 100.0), (-0.5, 3.0, 1.0), (1, -3, -1),
            (300, 301, 1)]
