"""A fancy store `u1[a0] = v` whose int64 index array is a reversed view, [-5, 1, -3] over
memory [-3, 1, -5], into an array of one element: NumPy 2.4 walks an intp index of a store in
C order, as a read's, and names -5; compiled code walked it in memory order, as it must for
an index of another dtype (which NumPy casts first: fancy_store_bounds_error_memory_order.py),
and named -3. Fixed in script/frontend/fancy_index.py (`check_indices`: memory order only for
non-intp indices). Found by the fuzzer (34100:4653)."""
import math
import numpy as np

def main(p0, a0, a1):
    for x2 in a1:
        a1[a0] = bool(x2)

def inputs():
    return [(1, np.array([-3, 1, -5], dtype=np.int64).reshape((3,))[::-1], np.array([True], dtype=np.bool_).reshape((1,))),
            (2, np.array([9, 1, 7, -8], dtype=np.int64).reshape((4,))[::-2], np.array([True, False], dtype=np.bool_).reshape((2,)))]
