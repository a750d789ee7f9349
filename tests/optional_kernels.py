"""Kernels of tests/test_optional.py: variables and returns that are None on some paths and a
value on others (script/frontend/optional.py), compiled against CPython."""

import math


# ---- returns ------------------------------------------------------------------------------

def find(a, x):
    for i in range(a.shape[0]):
        if a[i] == x:
            return i
    return None                      # int or None


def best_pair(xs):
    best = None
    for v in xs:
        if best is None or v < best:
            best = v
    return best                      # None for an empty input


def first_positive(a):
    r = None
    for v in a:
        if v > 0:
            r = v
            break
    if r is None:
        raise ValueError("no positive value")
    return r * 2.0                   # r narrowed to float after the check


def none_first(n):
    if n < 0:
        return None                  # the first return is None, the next a value
    if n == 0:
        return 0.5
    return n * 1.5


def deep_none(n, k):
    # None from several depths of nesting and loops; falls off the end (None) too
    total = 0
    for i in range(n):
        if i % 3 == k:
            if i > 4:
                return None
            total += i
        else:
            while total > 10:
                total -= 7
                if total == 11:
                    return None
    if total > 3:
        return total


def maybe_tuple(x, y):
    if x > y:
        return (x, y)
    if x == y:
        return None
    return (y, x)


def none_in_tuple(x):
    if x > 0:
        return (x, None)
    return (x, 2 * x)


def _lookup(a, x):
    for i in range(a.shape[0]):
        if a[i] >= x:
            return i
    return None


def calls_optional(a, x):
    i = _lookup(a, x)
    j = _lookup(a, -x)
    if i is None:
        return -1 if j is None else j
    return i + (0 if j is None else j)


def passes_through(a, x):
    r = _lookup(a, x)
    return r


# ---- narrowing ----------------------------------------------------------------------------

def narrow_is_not(a, t):
    r = None
    for v in a:
        if v > t:
            r = v
    if r is not None:
        return r + 1.0
    return -1.0


def narrow_eq_none(a, t):
    r = None
    for v in a:
        if v > t:
            r = v
    if r == None:                       # noqa: E711 - the form under test
        return 0.0
    return r * r


def narrow_ne_none(a, t):
    r = None
    for v in a:
        if v < t:
            r = v
    if None != r:                       # noqa: E711
        return r - t
    return 0.0


def narrow_continue(a):
    total = 0.0
    for k in range(a.shape[0]):
        r = a[k] if a[k] > 0 else None
        if r is None:
            continue
        total += r
    return total


def narrow_break(a):
    total = 0
    r = None
    for k in range(a.shape[0]):
        r = k if a[k] < 0 else None
        if r is not None:
            break
        total += 1
    return total, r


def narrow_and(a, t):
    m = None
    for v in a:
        if m is not None and v > m:
            m = v
        elif m is None and v > t:
            m = v
    return m


def narrow_or_else(a, t):
    r = None
    for v in a:
        if v > t:
            r = v
            break
    if r is None or r > 100.0:
        return 0.0
    return r / 2.0


def narrow_not(a, t):
    r = None
    for v in a:
        if v < t:
            r = v
    if not (r is not None):
        return -1.0
    return r


def narrow_while(n):
    x = n if n > 0 else None
    steps = 0
    while x is not None:
        steps += x
        x = x - 3 if x > 3 else None
    return steps


def narrow_ifexp(a, t):
    r = None
    for v in a:
        if v > t:
            r = v
    return r * 2.0 if r is not None else 0.0


def narrow_assert(a, t):
    r = None
    for v in a:
        if v > t:
            r = v
    assert r is not None, "nothing above"
    return r + 0.5


def narrow_walrus(a, x):
    if (i := _lookup(a, x)) is not None:
        return i * 10
    return -5


# ---- truth and comparisons ----------------------------------------------------------------

def truthiness(a, t):
    r = None
    for v in a:
        if v > t:
            r = v
    flags = 0
    if r:
        flags += 1
    if not r:
        flags += 2
    return flags, bool(r and r > 1.0)      # (assigned, `r and r > 1.0` would be refused:
    #                                          None, a float or a bool, which no value is)


def compare_values(a, t, y):
    r = None
    for v in a:
        if v > t:
            r = v
    s = None if t > 0.0 else t
    return r == y, r != y, r == s, r != s, s is None, r is not None


def or_default(a, t):
    r = None
    for v in a:
        if v > t:
            r = v
    z = r or -1.0
    return z


def in_tuple(a, t):
    r = None
    for v in a:
        if v > t:
            r = v
    return r in (1.0, 2.0, 3.0)


def optional_ints(xs, t):
    lo = None
    hi = None
    n = 0
    for v in xs:
        if v < t:
            continue
        n += 1
        if lo is None or v < lo:
            lo = v
        if hi is None or v > hi:
            hi = v
    if lo is None or hi is None:
        return None
    return hi - lo + n


# ---- errors when a None is used -----------------------------------------------------------

def use_add(a, t):
    r = None
    for v in a:
        if v > t:
            r = v
    return r + 1


def use_radd(a, t):
    r = None
    for v in a:
        if v > t:
            r = v
    return 2.5 * r


def use_both(a, t, u):
    r = None
    s = None
    for v in a:
        if v > t:
            r = v
        if v > u:
            s = v
    return r - s


def use_aug(a, t):
    r = None
    for v in a:
        if v > t:
            r = v
    r += 1.0
    return r


def use_compare(a, t):
    r = None
    for v in a:
        if v > t:
            r = v
    return r < 3.0


def use_neg(a, t):
    r = None
    for v in a:
        if v > t:
            r = v
    return -r


def use_math(a, t):
    r = None
    for v in a:
        if v > t:
            r = v
    return math.sqrt(r)


def use_subscript(x):
    p = (x, x + 1) if x > 0 else None
    return p[0]


def use_unpack(x):
    p = (x, x + 1) if x > 0 else None
    u, w = p
    return u + w


# ---- optionals passed to compiled callees -------------------------------------------------

def _or_zero(r):
    if r is None:
        return 0.0
    return r * 1.0


def passes_optional(a, t):
    r = None
    for v in a:
        if v > t:
            r = v
    return _or_zero(r) + _or_zero(None) + _or_zero(t)


def bool_of(a, t):
    r = None
    for v in a:
        if v > t:
            r = v
    return bool(r), bool(r is None)


def int_of(a, t):
    r = None
    for v in a:
        if v > t:
            r = v
    return int(r)


# ---- lists, dicts and sets that may be None (a NULL reference when absent) -------------------

def above(xs: list[int], k: int):
    """A list, or None when `k` is negative (the shape of a search that may find nothing)."""
    if k < 0:
        return None
    return [x for x in xs if x > k]


def path_or_none(grid: list[list[int]], k: int):
    best = None
    for row in grid:
        if sum(row) > k and (best is None or len(row) > len(best)):
            best = row
    return best


def uses_optional_list(xs: list[int], k: int):
    r = above(xs, k)
    if r is None:
        return -1
    total = len(r)
    if r:
        total += r[0]
    return total


def optional_list_truth(xs: list[int], k: int):
    r = above(xs, k)
    return bool(r), (1 if r else 2), r == [5, 7], r != None      # noqa: E711 - the comparison itself


def optional_list_in_containers(xs: list[int], k: int):
    memo = [None] * 3
    memo[1] = above(xs, k)
    return memo, (above(xs, k), k), {1: above(xs, -1), 2: above(xs, k)}


def optional_list_used(xs: list[int], k: int, how: int):
    """Each use of a list that is None raises CPython's TypeError or AttributeError."""
    r = above(xs, k)
    if how == 0:
        return len(r)
    if how == 1:
        return r[0]
    if how == 2:
        t = 0
        for x in r:
            t += x
        return t
    if how == 3:
        return int(3 in r)         # (an int, as the other paths return)
    r.append(3)
    return len(r)


def counts_or_none(text: str, k: int):
    f = None
    if k > 0:
        f = {}
        for c in text:
            f[c] = f.get(c, 0) + k
    return f


def uses_optional_dict(text: str, k: int):
    f = counts_or_none(text, k)
    if not f:
        return 0 if f is None else -1
    return len(f) + f.get("a", 0)


def optional_set(xs: list[int], k: int):
    s = set(xs) if k > 0 else None
    return s, bool(s), (len(s) if s is not None else -1)


def none_after_values(data, holes):
    """hashes/hamming_code.py's shape: a list that takes values first and None later (the
    positions of parity bits) becomes a list of optionals, as when None comes first."""
    out = []
    rows = []
    for k, x in enumerate(data):
        if k in holes:
            out.append(None)
            rows.append(None)
        else:
            out.append(x)
            rows.append([x, x])
    filled = [v for v in out if v is not None]
    return out, rows, filled
