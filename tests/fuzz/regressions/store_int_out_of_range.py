"""Storing an int the array's type cannot hold: NumPy raises OverflowError ("Python integer
300 out of bounds for uint8"); compiled code used to wrap silently (element and slice stores).
Fixed in script/frontend/arrays.py (check_int_fits)."""
import numpy as np


def main(p0, a0):
    a0[0] = p0 - 1
    a0[1:] = p0
    return (int(a0[0]), int(a0[1]))


def inputs():
    return [(300, np.zeros(3, dtype=np.uint8)), (0, np.zeros(3, dtype=np.uint8)),
            (256, np.zeros(3, dtype=np.uint8)), (128, np.zeros(3, dtype=np.int8)),
            (-127, np.zeros(3, dtype=np.int8)), (2**31, np.zeros(2, dtype=np.int32)),
            (2**40, np.zeros(2, dtype=np.int64)), (-1, np.zeros(2, dtype=np.uint64))]
