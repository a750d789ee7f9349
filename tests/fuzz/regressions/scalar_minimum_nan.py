"""`np.minimum(x, y)` / `np.maximum` of two floats propagate a NaN from either side, as
NumPy; compiled code checked only the first (the IR's `min(a, b)` is `b < a ? b : a`, which
gives a for a NaN b), so `np.minimum(0.0, nan)` was 0.0. Found by
tests/test_scalar_semantics.py's hypothesis test during this run. Fixed in
script/frontend/builtins_lowering.py."""
import math
import numpy as np


def main(x, y):
    return (float(np.minimum(x, y)), float(np.maximum(x, y)), float(np.minimum(y, x)))


def inputs():
    return [(0.0, math.nan), (math.nan, 1.0), (2.0, 1.0), (-0.5, math.inf)]
