"""An int|float operand meeting an array (`q1 * np.zeros(7)` of a `q1` that is 0 or 0.0):
the operator is built once per type and its two element-wise results merged, which were
still lazy array expressions (AttributeError inside the compiler); they are computed
first now (lower_expr `_whole`). And `v10, v11 = f2(...)` of a function returning None is
CPython's TypeError where it runs, not a CompileError (here it never runs). Found as
program 53000:834."""
import math
import numpy as np

def f2(q0, q1, q2):
    for x1 in (0, 3):
        q1 = 0.0
    else:
        b2 = q1 * np.zeros(7, dtype=np.float64)

def main(p0, p1, p2):
    try:
        pass
    except LookupError:
        pass
    else:
        w8 = 0
        while w8 < 2 and p0 > math.nan > w8 | 7:
            w8 += 1
            for i9 in range(3, 4, 3):
                v10, v11 = f2(0, 0, 12.0)

def inputs():
    return [(0.0, True, False)]
