"""`0.0 ** -inf` is inf in CPython (infinite exponents are handled before the zero base);
compiled code raised `ZeroDivisionError: 0.0 cannot be raised to a negative power`, which is
right for finite negative exponents only. Fixed in script/frontend/lower_expr.py (float
power)."""
import math


def main(x, y):
    return (x ** y, x ** (-math.inf), 0 ** y)


def inputs():
    return [(0.0, -math.inf), (-0.0, -math.inf), (0.0, -1.0), (0.0, math.inf), (2.0, -math.inf)]
