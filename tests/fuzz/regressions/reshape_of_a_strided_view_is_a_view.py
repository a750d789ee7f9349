"""`reshape` of an array that is not C-contiguous is a view where NumPy makes one (here the
same shape, every other row of a (4, 5) array), so a write through the result (`u1[0] =
True`) reaches the argument. Compiled code copied it (the result was typed a C array) and
the write was lost. Fixed in script/frontend/numpy_alloc.py (reshape_strided: NumPy's
no-copy rule over the run-time strides). Found as program 56000:295."""
import numpy as np


def main(p0, a0):
    u1 = a0.reshape(a0.shape[0], -1)
    u1[0] = True
    return p0


def inputs():
    base = np.array([False, True, True, True, False, True, True, False, True, False,
                     True, True, False, False, True, True, False, True, True, True], dtype=np.bool_)
    return [(False, base.reshape((4, 5))[::2])]
