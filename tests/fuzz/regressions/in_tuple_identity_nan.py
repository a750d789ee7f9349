"""`x in (a, x)` tests identity before ==, so it holds for a NaN `x` in CPython; compiled code
compared with == only. A tuple element that is the same value as the needle now counts as a
hit. Fixed in script/frontend/lower_expr.py (compare, `in`). (Two NaN arguments may still be
one object in CPython, `math.nan` passed twice: compiled code cannot see that.)"""
import math


def main(p0, p1):
    return (p1 not in (1e-300, p1, p1), p1 in (p0, p1), p1 in (p0, 2.0), p0 in (p1,))


def inputs():
    return [(1.0, math.nan), (float("nan"), float("nan")), (2.0, 2.0), (1.0, 3.0)]
