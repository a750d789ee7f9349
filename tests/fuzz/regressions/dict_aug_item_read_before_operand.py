"""`d[k] += v` reads `d[k]` (KeyError) before it computes `v`; an int|float `v` (a conditional
of an int and a float) was computed first, hoisted before the statement, and raised its own
ZeroDivisionError. Fixed in script/frontend/ast_order.py (an augmented assignment's target
comes first) and dict_methods.py (the operand may be an int|float)."""
import math
import numpy as np


def main(p0, p1, p2):
    v1 = {}
    v3 = range(2, 1)
    v1[1] += p2 % len(v3) if p1 else 40.886
    return (v1, p0)


def inputs():
    return [(False, True, 19), (False, False, 4)]
