"""A bool used as an array index is a 0-d boolean mask to NumPy (`a[True]` has shape
(1, n), `a[False]` (0, n)), not the int 1 or 0. Compiled code took `a0[True]` as `a0[1]`, so
`a0[:3] = a0[True]` filled a0[:3] with a0[1] where NumPy raises ValueError (could not broadcast
input array from shape (4,) into shape (3,)). It is a CompileError now (fixed in
script/frontend/arrays.py, check_scalar_index); this case checks that an int made from a
bool still indexes as an int."""
import numpy as np


def main(a0, p):
    a0[:3] = a0[int(p)]
    return (int(a0[int(p > 0)]), a0)


def inputs():
    return [(np.array([8, 1, 9, 7], dtype=np.int8), True), (np.array([8, 1, 9, 7], dtype=np.int8), False)]
