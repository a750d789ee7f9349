"""`'a' in str(' pad ')`: a constant character in a str constant reached through a name or
`str()` was decided by the str's last character only (False), so the loop never ran and the
KeyError of its body was never raised. Fixed in script/frontend/strings.py (str_contains)."""
import math
import numpy as np


def main(p0, s0: dict[str, int]):
    w1 = 0
    while w1 < 3 and 'a' in str(' pad '):
        w1 += 1
        s0['-7'.lower().upper()] += 0
    return (w1, s0)


def inputs():
    return [(0.1, {'a': 7, 'x': 5, 'ab': 7}), (1.0, {'-7': 1})]
