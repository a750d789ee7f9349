"""`np.arange` computes its elements as NumPy's fill functions do: the first two are start
and start + step in the output type, element i is first + i * (second - first). With
`np.arange(1.0, 4.0, 0.1)` the difference is 0.10000000000000009, so element 5 is
1.5000000000000004; compiled code computed start + i * step (1.5). Fixed in
script/frontend/numpy_alloc.py (np_arange)."""
import numpy as np


def main(a, b, s):
    return (np.arange(a, b, s), np.arange(a, b, s, dtype=np.float32), np.arange(a, b, s, dtype=np.int8))


def inputs():
    return [(1.0, 4.0, 0.1), (0.1, 2.0, 0.3), (-1.5, 3.25, 0.25), (0.5, 3.0, 0.7), (0.0, 1.0, 0.1)]
