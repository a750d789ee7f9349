"""A documented difference of iteration order (docs/arrays.md, element-wise expressions):
`a0 **= a0` with `a0` a reversed view [5, -1, 6] raises `ValueError: Integers to negative
integer powers are not allowed.` in both, but NumPy walks the array in memory order (it flips
negative strides) and has written 6 ** 6 = 46656 into the last element when it meets -1, while
compiled code walks index order and has written 5 ** 5 = 3125 into the first. Matching NumPy
would mean choosing each loop's order at run time from every operand's strides. The runner
accepts exactly this (tests/fuzz/runner.py PART_WAY_ERROR: both raise this error, and each
element is equal or left as it was on one side); any other difference is still a mismatch."""
import numpy as np


def main(a0, b):
    a0 **= a0
    b **= b[::-1]
    return a0


def inputs():
    return [(np.array([6, -1, 5], dtype=np.int32)[::-1], np.array([2, 3], dtype=np.int8)),
            (np.array([2, 3, 4], dtype=np.int64), np.array([1, -2, 3], dtype=np.int16)[::-1])]
