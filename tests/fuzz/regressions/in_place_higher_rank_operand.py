"""An in-place operation or an assignment whose value has more axes than its target was a
CompileError ("cannot assign a 2-d array to a 1-d array", script/frontend/elementwise.py
`store_expr`), where NumPy decides when the statement runs: `q1[1] -= q1` with q1 of shape
(6, 1) is `ValueError: non-broadcastable output operand with shape (1,) doesn't match the
broadcast shape (6,1)` (an in-place output never takes more axes, even of length 1), while
`a[:] = b` with b of shape (1, n) succeeds (leading axes of length 1 are dropped) and with b
of shape (2, n) is `could not broadcast input array from shape (2,n) into shape (n,)` (the
message drops the input's leading lengths of 1 while it has more axes: (1, 1, 2) into (2, 3)
is named (1,2)). Found
by `python -m tests.fuzz --seed 9001` (program 154). Fixed in script/frontend/elementwise.py:
the ranks are checked when the statement runs, with NumPy's messages."""
import numpy as np


def f3(q0, q1):
    q1[1] -= q1


def g(a, b):
    c = a.copy()
    c[:] = b                        # leading lengths of 1 dropped, else ValueError
    d = a.copy()
    d[::-1] = b * 2 + 1
    return c, d


def h(a, b):
    a[0] += b                       # always ValueError: the broadcast shape has more axes
    return a


def main(k, a0, a, b):
    if k == 0:
        f3(k, a0)
    if k == 1:
        return g(a, b)
    return h(a, b), a


def inputs():
    q = np.array([1, 6, 6, 1, 9, 9], dtype=np.int32).reshape((6, 1))
    a = np.arange(6.0).reshape(2, 3)
    return [(0, q, a, np.arange(3.0).reshape(1, 1, 3)),
            (1, q, a, np.arange(3.0).reshape(1, 1, 3)),
            (1, q, a, np.arange(6.0).reshape(2, 1, 3)),
            (1, q, a, np.arange(2.0).reshape(1, 1, 2)),
            (2, q, a, np.arange(3.0).reshape(1, 1, 3)),
            (2, q, a, np.arange(6.0).reshape(1, 2, 3)),
            (2, q, a, np.arange(4.0).reshape(1, 2, 2))]
