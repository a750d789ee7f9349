"""`a op= b` raises NumPy's ufunc errors, with `a` as the output operand: inputs that do not
broadcast list the output's shape too (`shapes (3,) (2,) (3,)`), and inputs that broadcast to
a bigger shape than `a` raise `non-broadcastable output operand with shape (1,) doesn't match
the broadcast shape (2,)`. Compiled code used to raise the assignment's message (`could not
broadcast input array from shape (2,) into shape (1,)`). Fixed in
script/frontend/elementwise.py (check_in_place)."""
import numpy as np


def main(k, a, b):
    if k == 0:
        a += b
    elif k == 1:
        a[1:] *= b
    else:
        a -= b * 2.0
    return a


def inputs():
    return [(0, np.zeros(3), np.zeros(2)), (0, np.zeros(1), np.ones(2)), (0, np.zeros((2, 1)), np.ones((2, 3))),
            (1, np.ones(3), np.ones(3)), (1, np.ones(3), np.full(1, 2.0)), (2, np.ones(3), np.ones(2)),
            (2, np.ones(1), np.ones(3)), (0, np.ones((2, 2)), np.arange(2.0))]
