"""NumPy takes an empty boolean index as an empty integer index: `a[m]` with `m` of size 0
selects nothing whatever `a`'s length (no IndexError), and `a[m] = v` writes nothing.
Compiled code raised `IndexError: boolean index did not match indexed array along axis 0;
size of axis is 3 but size of corresponding boolean axis is 0` (found as `a1[a1[:2:-1]] =
False`). Fixed in script/frontend/fancy_index.py (mask_dims)."""
import numpy as np


def main(a, m):
    b = a[m]
    a[m] = 5
    a[(a > 1)[:2:-1]] = 7
    return (a, b)


def inputs():
    return [(np.zeros(3), np.zeros(0, dtype=np.bool_)), (np.zeros(3), np.ones(3, dtype=np.bool_)),
            (np.zeros(3), np.ones(2, dtype=np.bool_)), (np.zeros(0), np.zeros(0, dtype=np.bool_))]
