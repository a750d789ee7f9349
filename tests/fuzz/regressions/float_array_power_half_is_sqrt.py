"""NumPy's float power loop with one exponent for every element takes 0.5 as `sqrt`:
`a0 **= 0.5` (and `a ** 0.5`, `np.power(a, x)` with `x` 0.5 at run time) gives nan for -inf
and -0.0 for -0.0, where compiled code called `pow` (inf and 0.0). An exponent array of
0.5s is still `pow` in NumPy (inf, 0.0), and so is a scalar `x ** 0.5`. Found by `python -m
tests.fuzz --seed 10004` (program 94). Fixed in script/frontend/elementwise.py (`element`)."""
import math
import numpy as np


def main(p0, p1, a0):
    b = a0 ** p0
    c = np.power(a0, np.full(a0.shape, 0.5))
    d = np.float32(p0) * a0.astype(np.float32) ** 0.5
    a0 **= 0.5
    return b, c, d, math.sqrt(p0) if p0 >= 0 else p0 ** 2


def inputs():
    return [(1.0, 3, np.array([-math.inf, 1.25], dtype=np.float64).reshape((2, 1)).T),
            (0.5, 3, np.array([-math.inf, -0.0, 4.0, -1.0, 0.0, math.inf, math.nan, 2.0]).reshape(2, 4)[:, ::-1]),
            (-0.5, 0, np.array([-math.inf, -0.0, 4.0, 0.25]))]
