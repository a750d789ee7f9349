"""`collections.Counter`'s arithmetic and methods beyond counting, and `dict.fromkeys`,
written in the compiled subset (a Counter is a dict of int counts in compiled code:
default_tables.py). Each does what CPython's method of the same name does, in the same
order of keys."""

from typing import Optional


def add(a, b):
    """a + b: the sums, only those above zero."""
    out = {k: v for k, v in a.items() if v < 0 and v > 0}
    for k, v in a.items():
        s = v + b.get(k, 0)
        if s > 0:
            out[k] = s
    for k, v in b.items():
        if k not in a and v > 0:
            out[k] = v
    return out


def sub(a, b):
    """a - b: the differences, only those above zero."""
    out = {k: v for k, v in a.items() if v < 0 and v > 0}
    for k, v in a.items():
        s = v - b.get(k, 0)
        if s > 0:
            out[k] = s
    for k, v in b.items():
        if k not in a and v < 0:
            out[k] = 0 - v
    return out


def update_from(c, other, sign: int) -> None:
    """c.update(mapping) (sign 1) and c.subtract(mapping) (sign -1)."""
    for k, v in other.items():
        c[k] = c.get(k, 0) + sign * v


def total(c) -> int:
    s = 0
    for v in c.values():
        s += v
    return s


def elements(c):
    out = [k for k in c if False]
    for k, v in c.items():
        for _ in range(v):
            out.append(k)
    return out


def fromkeys(xs, value):
    d = {}
    for x in xs:
        d[x] = value
    return d


def fromkeys_none(xs):
    """`dict.fromkeys(xs)`: None values (optional ints, which a later store may not widen)."""
    value: Optional[int] = None
    return fromkeys(xs, value)


def first_occurrences(xs):
    """The keys of dict.fromkeys(xs) in order (the dict itself would hold None values)."""
    seen = {x: True for x in xs}
    return [k for k in seen]


def trim_front(xs, maxlen: int) -> None:
    """A deque(maxlen=...) after an append or extend: the oldest items dropped."""
    extra = len(xs) - maxlen
    if extra > 0:
        del xs[:extra]


def trim_back(xs, maxlen: int) -> None:
    """A deque(maxlen=...) after an appendleft or extendleft: the items at the right dropped."""
    if len(xs) > maxlen:
        del xs[maxlen:]


def union(a, b):
    """a | b of two Counters: the larger count of each key, only those above zero."""
    out = {k: v for k, v in a.items() if v < 0 and v > 0}
    for k, v in a.items():
        w = b.get(k, 0)
        m = w if v < w else v
        if m > 0:
            out[k] = m
    for k, v in b.items():
        if k not in a and v > 0:
            out[k] = v
    return out


def intersection(a, b):
    """a & b of two Counters: the smaller count of each key, only those above zero."""
    out = {k: v for k, v in a.items() if v < 0 and v > 0}
    for k, v in a.items():
        w = b.get(k, 0)
        m = v if v < w else w
        if m > 0:
            out[k] = m
    return out


def equal(a, b) -> bool:
    """a == b of two Counters (Python 3.10 on): a missing key counts as zero."""
    for k, v in a.items():
        if v != b.get(k, 0):
            return False
    for k, v in b.items():
        if k not in a and v != 0:
            return False
    return True


def ordered_equal(a, b) -> bool:
    """a == b of two OrderedDicts: equal as dicts, and their keys in the same order."""
    if len(a) != len(b):
        return False
    for k, v in a.items():
        if k not in b or b[k] != v:
            return False
    for k, k2 in zip(a, b):
        if k != k2:
            return False
    return True


def positive(c):
    """+c of a Counter: the counts above zero."""
    return {k: v for k, v in c.items() if v > 0}


def negative(c):
    """-c of a Counter: the counts below zero, negated."""
    return {k: -v for k, v in c.items() if v < 0}


def view_equal(a, b) -> bool:
    """a == b of a dict's keys or items view (as a list) and another such view or a set:
    the same elements (each side's are distinct)."""
    if len(a) != len(b):
        return False
    for x in a:
        if x not in b:
            return False
    return True
