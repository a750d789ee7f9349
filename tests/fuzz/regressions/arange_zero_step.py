"""`np.arange` with a step of 0 raises ZeroDivisionError when the call runs (`division by
zero` for ints, `float division by zero` when an argument is a float), as NumPy. Compiled code
rejected a constant 0 step when compiling (`Maximum allowed size exceeded`), so a function
whose arange(..., 0) never runs did not compile, and said `division by zero` for floats.
Fixed in script/frontend/numpy_alloc.py (np_arange)."""
import numpy as np


def main(k, s):
    if k == 1:
        return np.arange(0, 0, 0, dtype=np.float64)
    if k == 2:
        return np.arange(0.0, 3, s)
    if k == 3:
        return np.arange(0, 3, s * 0.5)
    return np.arange(0, 5, s).astype(np.float64)


def inputs():
    return [(0, 2), (1, 1), (2, 0), (3, 0), (0, 0), (2, 1), (3, 3)]
