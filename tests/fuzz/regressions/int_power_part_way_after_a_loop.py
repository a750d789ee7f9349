"""Which elements `a0 **= a0` writes before `ValueError: Integers to negative integer powers
are not allowed.` depends on NumPy's iteration order, which compiled code does not copy (the
documented difference of docs/arrays.md). runner.py accepted it (`PART_WAY_ERROR`) by
comparing each element with the array as the call received it; here the failing statement is
the second of a loop, whose first changed the array, so elements that neither side left alone
differed and the runner reported a mismatch. Found by `python -m tests.fuzz --seed 9001`
(program 272). Fixed in the fuzzer: the reference records the argument arrays just before
each in-place power runs (tests/fuzz/reference.py `_before_in_place`), and the runner compares
with the arrays as the failing statement found them."""
import math
import numpy as np

def main(p0, p1, a0):
    w6 = 0
    while w6 < 2:
        w6 += 1
        a0 **= a0

def inputs():
    return [(19, 5, np.array([3, 3, 0, 1, 4, 6, 7, 9, 1, 7, 5, 5, 1, 6, 3, 4, 3, 4, 2, 8, 1, 7, 6, 6, 8, 6, 5, 6, 8, 9, 7, 6, 0, 8, 1, 9, 8, 2, 1, 7, 5, 1, 1, 4, 9, 2, 1, 6, 9, 2], dtype=np.int8).reshape((10, 5))[::2])]
