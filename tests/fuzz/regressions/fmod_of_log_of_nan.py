"""`math.fmod(math.log(v3), v3)` with `v3` a NaN that the IR does not fold (a float `//` of
`math.nan`): LLVM 22 turned the `fmod` call into `frem nnan` (it took `llvm.log` of a NaN
constant to be no NaN), so the result was poison and the optimized function raised `math
domain error` on every call where CPython returns NaN; opt=0 agreed. Found by `python -m
tests.fuzz --seed 10001` (program 79). Fixed in script/backend/llvm/mathlib.py: `math.fmod`
(and `np.fmod`) lower to `frem`, C's fmod without errno, never to a call LLVM rewrites."""
import math
import numpy as np


def f1(q0):
    for i3 in range(6, 9, 100 + 1):
        pass
    return divmod(math.exp(q0), 3.0)


def main(p0, a0):
    for i2, x1 in enumerate(a0):
        v3 = divmod(divmod(math.nan, 0.1)[0], 0.5)[0]
        v4 = f1(math.fmod(math.log(v3), v3))
    return math.fmod(math.log(divmod(math.nan, p0)[0]), 2.0), math.fmod(-7.5, p0), math.fmod(p0, math.inf)


def inputs():
    return [(16, (5, 1, 5)), (0.75, (1,)), (-2.5, (2, 3))]
