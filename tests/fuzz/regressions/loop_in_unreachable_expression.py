"""An expression whose lowering makes a loop (a reduction, `min(a)` of an array, an
element-wise expression) inside unreachable code: in `3 > 11 > min(a0)` the second
comparison can never run, yet it is still built (in a block nothing jumps to). The loop's
exit was then "nowhere", and lowering the rest of the expression there raised KeyError or
AttributeError inside the compiler; removing the unreachable blocks then failed on uses
between them. Fixed in script/frontend/lower_stmt.py (finish_join: the exit of a loop or
branch built in unreachable code is unreachable code too; build: drop every use by
unreachable code before deleting its blocks)."""
import numpy as np


def main(p0, a0):
    if 3 > 11 > min(a0):
        p0 = 1.0
    if 0 > 1 > float(np.sum(a0 * 2.5)) + 1.0:
        p0 = 2.0
    v = 0 > 1 > int(np.argmax(np.where(a0 > 0, a0, -a0)))
    return (p0, v)


def inputs():
    return [(1.0, np.array([1, 5, -3], dtype=np.int32)), (2.0, np.zeros(0, dtype=np.int32))]
