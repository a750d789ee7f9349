"""Storing a float into an int array: NumPy truncates, refuses NaN (ValueError) and
infinities (OverflowError), then checks the whole number against a C long ("Python int too
large to convert to C long"; an unsigned long long for uint32/uint64) and the array's type
("Python integer -1 out of bounds for uint8"). Compiled code used to say "float value out of
range for u8". Fixed in script/frontend/arrays.py (float_item)."""
import math

import numpy as np


def main(p0, a0, a1, a2, a3, a4):
    a0[0] = p0
    a1[1] = p0
    a2[0] = p0
    a3[0] = p0
    a4[1:] = p0
    return (int(a0[0]), int(a1[1]), int(a2[0]), int(a3[0]), int(a4[1]))


def _arrays():
    return (np.zeros(2, dtype=np.uint8), np.zeros(2, dtype=np.int8), np.zeros(2, dtype=np.uint32),
            np.zeros(2, dtype=np.uint64), np.zeros(2, dtype=np.int64))


def inputs():
    values = [-1.0, -0.5, 2.7, 255.9, 256.0, -129.0, math.nan, math.inf, -math.inf, 1e30,
              2.0 ** 63, 2.0 ** 63 + 4096.0, 2.0 ** 64, -2.0 ** 63, -2.0 ** 63 - 4096.0, 4294967296.0]
    out = []
    for v in values:
        out.append((v, *_arrays()))
        # each array type alone, so that every check is reached
        for k in range(5):
            arrs = list(_arrays())
            a = [np.zeros(2) for _ in range(5)]
            a[k] = arrs[k]
            out.append((v, *a))
    return out
