"""A Python bool next to an array is a bool (NumPy's NEP 50 makes only int, float and complex
weak): `b &= False` on a bool array stays bool, `np.where(m, b, True)` is bool. Compiled code
took it as a weak int, so `b &= False` was a CompileError (int64 output cast to bool) and the
`where` an int64 array. Fixed in script/frontend/elementwise.py (resolve_loop, where_expr)."""
import numpy as np


def main(b, a):
    b &= False
    c = np.where(a > 0, a > 1, True)
    d = a + True
    return (b, c, d, b | (a > 0))


def inputs():
    return [(np.ones(3, dtype=np.bool_), np.array([0, 1, 2], dtype=np.int8)),
            (np.zeros(0, dtype=np.bool_), np.zeros(0, dtype=np.int8))]
