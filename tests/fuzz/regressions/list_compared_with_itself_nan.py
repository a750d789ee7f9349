"""`s0 >= s0` of a list holding a NaN: CPython compares the items by identity first, so the
list equals itself (True); compiled code compared the NaN with ==, gave False, and stored it
into the array. Fixed in script/frontend/lower_expr.py (`_compared_with_itself`)."""
import math
import numpy as np


def main(a1, s0: list[float]):
    a1[4] = s0 >= s0
    t = (s0[1], 2)
    return (s0 == s0, s0 != s0, s0 < s0, t == t, a1)


def inputs():
    return [(np.zeros(10, dtype=np.bool_), [0.5, math.nan, 0.0]), (np.zeros(10, dtype=np.bool_), [1.5, 2.0])]
