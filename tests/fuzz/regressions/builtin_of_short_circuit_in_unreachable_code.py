"""`w3 > 7 < divmod(x, 1.0 or 0.1)[0]` with `w3 > 7` false when compiled: the rest of the
comparison is built in a dead block, where `1.0 or 0.1` had no type (its join block has no
predecessor), and `divmod`, `round`, `math.floor`, `math.isfinite`, `math.trunc`,
`math.modf`, `math.degrees`, `math.ulp` of it crashed the frontend (`TypeError: no constants
of type ?`, an internal error) or raised `cannot index a value of type ?`. Found by `python -m
tests.fuzz --seed 10002` (program 110). Fixed in script/frontend/lower_expr.py
`merge_values` (a short-circuit or conditional value in code that never runs is a
placeholder of the type its operands have) and builtins_lowering.py `builtin_divmod`."""
import math
import numpy as np


def main(p0, p1):
    for i2 in range(1):
        w3 = 0
        if w3 > 7 < divmod(math.cosh(-39.51), abs(1.0 or 0.1) + 0.5)[0]:
            p0 += 1
        elif w3 > 7 < round(1 or 0.5) + math.floor(p1 or 0.5) + math.trunc(p1 if p0 else 0.5):
            p0 += 2
        elif w3 > 7 < math.modf(1.0 or p1)[0] + math.degrees(p1 or 2.0) + math.ulp(1.0 or 0.1):
            p0 += 3
        elif w3 > 7 < math.isfinite(0.5 or p1) + round(p1 or 0.25, 1):
            p0 += 4
    return p0


def inputs():
    return [(0, 0.0), (5, 1.5), (2, -0.0)]
