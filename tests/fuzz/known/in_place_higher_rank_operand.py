"""Open: an in-place operation whose right side has more axes than its target is a
CompileError ("cannot assign a 2-d array to a 1-d array", script/frontend/elementwise.py
`store_expr`), where NumPy raises when the statement runs: `q1[1] -= q1` with q1 of shape
(6, 1) is `ValueError: non-broadcastable output operand with shape (1,) doesn't match the
broadcast shape (6,1)`, and plain assignment may even succeed (`a[:] = b` with b of shape
(1, n): leading axes of length 1 are dropped). A fix: check the shapes when the statement
runs, with NumPy's messages, instead of rejecting the ranks when compiling. Found by
`python -m tests.fuzz --seed 9001` (program 154)."""
import math
import numpy as np

def f3(q0, q1):
    q1[1] -= q1

def main(p0, p1, a0):
    if f3(p0, a0):
        pass

def inputs():
    return [(math.inf, True, np.array([1, 6, 6, 1, 9, 9], dtype=np.int32).reshape((6, 1)))]
