"""Python computes a whole subscript before NumPy checks it: in `a[1, n // 0]` on an array of
one row, ZeroDivisionError comes first, and NumPy then checks the axes from left to right.
Compiled code checked each index as soon as it was computed (IndexError), and computed a
slice's step before its start and stop. Fixed in script/frontend/arrays.py (array_indices,
array_view, slice_values; tests/test_ssa_unbound.py has the view
and slice cases)."""
import numpy as np


def main(p0, a0):
    a0[1, p0 // (p0 - p0)] = 1.0
    return (0,)


def inputs():
    return [(3, np.zeros((1, 4))), (3, np.zeros((2, 4)))]
