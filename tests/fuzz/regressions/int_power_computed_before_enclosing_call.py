"""NumPy computes `x ** y` of int arrays whole where Python calls it, so its `ValueError:
Integers to negative integer powers are not allowed.` comes before the enclosing call checks
its shapes: `np.ones((0, 3, 2)) - np.full((1, 1), True) ** e` with `e` of shape (5,) raised
the subtraction's broadcasting error when compiled, where the power was fused into the
subtraction's loop; and with an empty enclosing result (`np.ones((0, 5)) - a ** -1`) the power
never ran. Found by `python -m tests.fuzz --seed 10003` (program 325). Fixed in
script/frontend/elementwise.py: an int power that may raise is computed into an array where
it is called (`ufunc_expr`); one with a constant exponent of at least 0 still fuses."""
import numpy as np


def main(p0, v1):
    b2 = np.arange(5)
    a = np.ones((0, 5)) - b2 ** v1
    c = b2 ** 2 + 1
    b7 = np.ones((0, 3, 2)) - np.full((1, 1), True) ** np.where(b2 == v1, np.ones_like(b2), v1)
    return a, c, b7


def inputs():
    return [(0, -7), (1, 2), (2, 0), (3, -1)]
