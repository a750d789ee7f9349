"""Fixed: the sign bit of a NaN made by a float `%` (or divmod) of two constants.
`math.inf % 0.25` is a NaN; CPython computes it with the C library's fmod at run time and
gets x86's default NaN, whose sign bit is set, so `math.copysign(1.0, v)` is -1.0. Compiled
at opt=0, LLVM folded `frem inf, 0.25` itself into a NaN without the sign bit (LLVM leaves
a NaN result's sign unspecified). Lowering now folds float ops of constants with the
constfold pass's own (CPython's) arithmetic, and the IR keeps a NaN's sign (``-nan:f64``).
Found by `python -m tests.fuzz --seed 10050` (program 188)."""
import math
import numpy as np

def main(p0):
    v5 = divmod(math.inf, 0.25)[1]
    return math.copysign(1.0, v5)

def inputs():
    return [(1,)]
