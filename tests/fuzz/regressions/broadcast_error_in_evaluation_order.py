"""Broadcasting errors are raised in Python's evaluation order. In `(a - b) != int(x)` Python
computes `a - b` first, so NumPy raises `ValueError: operands could not be broadcast together
with shapes (4,) (0,)`; compiled code built `a - b` as an unevaluated ArrayExpr, evaluated
`int(x)` (ValueError: cannot convert float NaN to integer) and checked the shapes only when the
whole tree was computed. Fixed in script/frontend/elementwise.py: each call's shapes and its
Python-int OverflowError are checked when its ArrayExpr node is built (`check_call` from
`ufunc_expr`/`where_expr`; np.clip and `a op= b` check their whole call once)."""
import math
import numpy as np


def main(k, x, a, b):
    if k == 0:
        return (np.arange(1.0, 2.0, 0.25) - np.ones(0, dtype=np.bool_) != int(x)) * 1.0
    if k == 1:
        return np.where(a + b > 0, a, 1.0) * int(x)
    if k == 2:
        return np.clip(a, b, 1.0) + int(x)
    if k == 3:
        a += b * int(x)
        return a
    return (a.astype(np.int8) + 300 + int(x)) * 1.0


def inputs():
    return [(0, math.nan, np.zeros(3), np.zeros(2)), (1, math.nan, np.zeros(3), np.zeros(2)),
            (2, math.nan, np.zeros(3), np.zeros(2)), (3, math.nan, np.zeros(3), np.zeros(2)),
            (3, 2.0, np.zeros(1), np.zeros(2)), (4, math.nan, np.zeros(3), np.zeros(2))]
