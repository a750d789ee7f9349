"""Open (a difference of iteration order): `a0 **= a0` with `a0` a reversed view
[5, -1, 6] raises `ValueError: Integers to negative integer powers are not allowed.` in
both, but NumPy walks the array in memory order (it flips negative strides) and has written
6 ** 6 = 46656 into the last element when it meets -1, while compiled code walks index
order and has written 5 ** 5 = 3125 into the first. Which elements an element-wise statement
stores before this error (the only error raised part way through an element-wise loop)
depends on NumPy's iterator (negative strides flipped, axes ordered by stride, buffering);
compiled code does not copy it. runner.py KNOWN counts such mismatches (both raising this
ValueError) as "known"."""
import numpy as np


def main(a0):
    a0 **= a0
    return a0


def inputs():
    return [(np.array([6, -1, 5], dtype=np.int32)[::-1],)]
