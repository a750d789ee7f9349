"""Open (an iteration-order difference, like int_power_error_part_way_order): `a0[a1] = v`
with an index array `a1` that is a reversed view, [2, 3, 5, 6, 4] over memory [4, 6, 5, 3, 2],
and several indices out of bounds: NumPy walks the index array in memory order and names the
first bad index it meets there (`index 4 is out of bounds for axis 0 with size 3`); compiled
code (script/frontend/fancy_index.py) walks index order and names 3. Nothing is written in
either. A fix: check the indices in the index array's memory order (flip negative strides,
as NumPy's iterator does), or find the bad index NumPy would name. Found by the varying-seed
fuzz test (seed 318624198, program 10)."""
import math
import numpy as np

def main(p0, p1, a0, a1):
    a0[a1] = p1

def inputs():
    return [(18.0, 1, np.array([True, True, False], dtype=np.bool_).reshape((3,)), np.array([4, 6, 5, 3, 2], dtype=np.int8).reshape((5,))[::-1])]
