"""-inf ** 0.5 is inf in CPython (and -inf ** -0.5 is 0.0): only a finite negative base to a
fractional power is complex. Compiled code used to raise ValueError for -inf too. Fixed in
script/frontend/lower_expr.py (the float ** check)."""
import math


def main(p0, p1):
    return (p0 ** p1, p0 ** 0.5, (p0 - 1.0) ** 1.5)


def inputs():
    return [(-math.inf, 0.5), (-math.inf, -0.5), (-math.inf, 2.5), (4.0, 0.5), (-math.inf, 3.0),
            (-8.0, 1.0 / 3.0), (math.nan, 0.5)]
