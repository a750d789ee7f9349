"""A fancy store `a0[a1] = v` whose index array `a1` is a reversed view, [2, 3, 5, 6, 4] over
memory [4, 6, 5, 3, 2], with several indices out of bounds: NumPy walks the index array in
memory order and names the first bad index there (`index 4 is out of bounds for axis 0 with
size 3`); compiled code walked index order and named 3. Fixed in
script/frontend/fancy_index.py (`fancy_store` checks the indices in memory order). Found by
the varying-seed fuzz test (seeds 318624198 and 755116177)."""
import math
import numpy as np

def main(p0, p1, a0, a1):
    a0[a1] = p1

def inputs():
    return [(18.0, 1, np.array([True, True, False], dtype=np.bool_).reshape((3,)), np.array([4, 6, 5, 3, 2], dtype=np.int8).reshape((5,))[::-1])]
