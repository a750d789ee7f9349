"""`reshape` of an array that is not C-contiguous copies it (numpy_alloc.reshape: the result
is typed a C array), where NumPy returns a view when the new shape fits the strides (here
the same shape, every other row of a (4, 5) array): writes through the result (`u1[0] =
True`) reach the argument in CPython and are lost compiled. Fixing it needs the result typed
any-layout where the source is, a view when NumPy makes one and a copy otherwise (NumPy's
`_attempt_nocopy_reshape` rule). Found as program 56000:295."""
import numpy as np


def main(p0, a0):
    u1 = a0.reshape(a0.shape[0], -1)
    u1[0] = True
    return p0


def inputs():
    base = np.array([False, True, True, True, False, True, True, False, True, False,
                     True, True, False, False, True, True, False, True, True, True], dtype=np.bool_)
    return [(False, base.reshape((4, 5))[::2])]
