"""A broadcasting error names the shapes of the one NumPy call that fails, as NumPy evaluates
the expression call by call: `np.where(a > 0, a, b)` lists three shapes, `np.clip(a, b, 1.0)`
three with the scalar as `()`, `(a + b) * c` the shapes of `a + b` and `c`. Compiled code used
to check the fused expression's distinct leaves together (two shapes for `where`, the shapes
of `a`, `b` and `c` for the product). Fixed in script/frontend/elementwise.py (checked_shape; since then `check_call`, as each call is built)."""
import numpy as np


def main(k, a, b, c):
    if k == 0:
        return np.where(a > 0, a, b)
    if k == 1:
        return np.clip(a, b, 1.0)
    if k == 2:
        return (a + b) * c
    return np.where(a > 0, b, 5) + c


def inputs():
    return [(0, np.zeros(3), np.zeros(2), np.zeros(3)), (1, np.zeros(3), np.zeros(2), np.zeros(3)),
            (2, np.zeros(2), np.zeros(2), np.zeros(3)), (2, np.zeros(2), np.zeros(3), np.zeros(3)),
            (3, np.zeros(3), np.zeros(2), np.zeros(3)), (3, np.zeros(2), np.ones(2), np.zeros(1)),
            (1, np.arange(4.0), np.full(4, 1.5), np.zeros(3))]
