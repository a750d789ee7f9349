"""`a0 *= x2` where `x2` is a row of `a0` bound by `for x2 in a0` (or `zip(..., a0)`) missed
the overlap. NumPy copies an input that shares memory with the output, so every row is
multiplied by the old row; compiled code wrote row 0 (x2 itself) first and later rows read the
new values ([[1, 2], [3, 4]]: NumPy [[3, 32], [9, 64]], compiled [[3, 64], [9, 256]]). Cause:
`a0` read in the loop body is the unsealed loop header's incomplete phi (Braun et al.) while
the row is a view of the parameter itself, so their roots differed and no temporary was made.
Fixed in script/frontend/elementwise.py (`unshared`): a leaf whose array is not provably apart
from the destination's is copied when their memory ranges overlap at run time (the IR op
`overlap`, NumPy's bounds test), as NumPy does."""
import numpy as np


def main(k, a0, b):
    if k == 0:
        for x2 in a0:
            a0 *= x2
    elif k == 1:
        for x, y in zip(b, a0):
            a0 += y * x
    elif k == 2:
        for r in a0:
            a0[1] = r[::-1]
    else:
        for r in a0:
            a0[:, 0] = r[::-1] - b[0]
    return a0


def inputs():
    return [(0, np.array([[1.0, 2.0], [3.0, 4.0]]), np.ones((2, 2))),
            (0, np.arange(9.0).reshape(3, 3)[:, ::-1], np.ones((3, 3))),
            (1, np.arange(4.0).reshape(2, 2), np.arange(4.0).reshape(2, 2)),
            (2, np.arange(12.0).reshape(4, 3), np.ones((4, 3))),
            (3, np.arange(9.0).reshape(3, 3), np.arange(9.0).reshape(3, 3)),
            (0, np.zeros((0, 2)), np.ones((0, 2)))]
