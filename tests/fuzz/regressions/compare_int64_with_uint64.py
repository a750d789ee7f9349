"""Comparing an int array with a uint64 array: NumPy 2 resolves the loop to (int64, uint64)
and compares exactly (a negative int is below every uint64), where arithmetic goes through
float64. Compiled code emitted a `cmp` of i64 and u64 (VerifyError after the frontend).
Fixed in script/frontend/elementwise.py (mixed_sign_cmp)."""
import numpy as np


def main(a, b):
    c = b.astype(np.uint64)
    return (a <= c, a.astype(np.int8) > c, c == a, c != a.astype(np.int16), c < a, c >= a)


def inputs():
    return [(np.array([-1, 0, 5, 2**62, -2**63]), np.array([0, 0, 5, 2**62, 7])),
            (np.array([-3, 3]), np.array([-1, 3])),
            (np.zeros((0, 2), dtype=np.int64), np.ones((2, 0, 2), dtype=np.int64))]
