"""A Python int next to a narrower int array, as NumPy 2 treats it: a comparison is by value
(`int8_array <= 255` is all True; compiled code cast 255 to int8, -1, and said all False, so
`a0[:3] = a0[a0 <= 255]` selected nothing); arithmetic raises `OverflowError: Python integer
300 out of bounds for int8` (compiled code wrapped); `np.clip` drops a bound the whole type
lies within (np.clip(int8_array, 0, 300) is np.maximum(a, 0)) and raises OverflowError for
any other bound beyond the type. Fixed in script/frontend/elementwise.py (ufunc_expr,
checked_shape, np_clip)."""
import numpy as np


def main(k, a, v):
    if k == 0:
        return (a <= v).astype(np.int64)
    if k == 1:
        return ((a == v) | (a > -v)).astype(np.int64)
    if k == 2:
        return (a + v).astype(np.int64)
    if k == 3:
        a *= v
        return a.astype(np.int64)
    if k == 4:
        return np.clip(a, -v, v).astype(np.int64)
    if k == 5:
        return np.clip(a, v, v + 100).astype(np.int64)
    a[:3] = a[a <= v]
    return a.astype(np.int64)


def inputs():
    return [(0, np.array([8, 1, -9], dtype=np.int8), 255), (1, np.array([8, 1, 255], dtype=np.uint8), 255),
            (1, np.array([8, 1, 2], dtype=np.int16), 70000), (2, np.array([8, 1], dtype=np.int8), 300),
            (2, np.array([8, 1], dtype=np.int8), 3), (3, np.array([8, 1], dtype=np.uint8), -1),
            (3, np.array([8, 1], dtype=np.uint8), 2), (4, np.array([8, -100], dtype=np.int8), 300),
            (4, np.array([8, -100], dtype=np.int8), 50), (5, np.array([8, 200], dtype=np.uint8), 300),
            (5, np.array([8, 200], dtype=np.uint8), 100), (6, np.array([8, 1, 9, 7], dtype=np.int8), 255)]
