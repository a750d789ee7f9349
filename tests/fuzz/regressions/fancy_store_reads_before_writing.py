"""`a[idx] = v` and `a[mask] = v` read the index, the mask and the values whole before
writing, as NumPy does, also when they are `a`'s own memory: `b[b] = 4` with b = [-1, -1]
writes b[-1] twice (compiled code re-read the index array after the first write and raised
IndexError: index 4 is out of bounds), `a[a[::-1] > 2] = 0` tests the mask on the old values,
`a[m] = a[:2]` assigns the old values. One value goes to every selected element, also when
none is selected (`q[q < 0.5] = q` with one element in q, nothing selected: compiled code
raised "cannot assign 1 input values to the 0 output values"). Fixed in
script/frontend/fancy_index.py (fancy_store)."""
import numpy as np


def main(a, m):
    b = ~np.zeros(2, dtype=np.int32)
    b[b] = 4
    c = a.copy()
    c[c[::-1] > 2] = 0
    d = a.copy()
    d[m] = d[:2]
    e = a[:1].copy()
    e[e < -100] = e
    f = a.copy()
    f[f > 1] = f[:1]
    return (b, c, d, e, f)


def inputs():
    return [(np.array([5, 1, 2]), np.array([False, True, True])),
            (np.array([3, 4, 1]), np.array([True, False, True]))]
