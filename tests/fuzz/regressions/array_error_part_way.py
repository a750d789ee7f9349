"""What an array holds after an element-wise statement raises part way (the only element
error is an int to a negative int power), as NumPy: `a **= b - a[::-1]` computes the
right-hand side into a temporary and then writes `a` element by element, so elements before
the failing one are written (compiled code computed the whole result into a temporary
first, because `a[::-1]` shares `a`'s memory, and wrote nothing); `a += b ** a` and
`a[:2] = b[:2] ** a[1:]` compute the value whole before writing, so nothing is written
(compiled code fused the power into the loop that writes). Fixed in
script/frontend/elementwise.py (store_expr, _may_raise)."""
import numpy as np


def main(k, a, b):
    if k == 0:
        a **= b - a[::-1]
    elif k == 1:
        a += b ** a
    elif k == 2:
        a[:2] = b[:2] ** a[1:]
    else:
        a **= b
    return a


def inputs():
    return [(0, np.array([3, 2, -4]), np.array([3, -1, 2])), (1, np.array([3, 2, -4]), np.array([3, -1, 2])),
            (2, np.array([3, 2, -4]), np.array([3, -1, 2])), (3, np.array([3, 2, 4]), np.array([3, -1, 2])),
            (0, np.array([1, 2, 3]), np.array([5, 6, 7])), (1, np.array([1, 2, 3]), np.array([5, 6, 7]))]
