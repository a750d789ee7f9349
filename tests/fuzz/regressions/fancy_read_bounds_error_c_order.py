"""A fancy read `a1[a1]` whose index array is a reversed view, [0, 6, 4, 3] over memory
[3, 4, 6, 0], with two indices out of bounds: NumPy 2.4 walks the index of a read in C order
and names 6 (`index 6 is out of bounds for axis 0 with size 4`), where compiled code walked
it in memory order, as a store's, and named 4. Fixed in script/frontend/fancy_index.py
(`check_plan`: memory order for stores only). Found by the fuzzer (seed 77)."""
import math
import numpy as np

def main(p0, p1, p2, a0, a1):
    a1 = a1[a1]

def inputs():
    return [(7, 100, 0, (4, 2, 4), np.array([3, 4, 6, 0], dtype=np.int32).reshape((4,))[::-1])]
