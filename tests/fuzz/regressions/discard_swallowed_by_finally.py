"""A reference run that reference.py discards (Discard, a BaseException: here the
comparison with an int beyond 2**53) inside a `try` whose `finally:` raises: the new
exception replaced Discard, so the reference looked like an ordinary run that stopped at
the comparison, and its array (`a` unwritten) was compared with compiled code's, which goes
on to write `a[0]` before the `finally:` raises. Each Discard raised is now recorded and the
input discarded even where the program swallowed it (tests/fuzz/runner.py, _outcome).
Found as program 52000:2408."""
import numpy as np


def main(k, x, a):
    try:
        if k == 0 and x >= 4611686018427387904:
            x = 0
        a[0] = 1.0
    finally:
        if x < 0:
            raise ValueError("from finally")
    return x


def inputs():
    return [(0, -1, np.array([0.0, 2.0])), (1, -1, np.array([0.0, 2.0])), (1, 3, np.array([0.0, 2.0]))]
