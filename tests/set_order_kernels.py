"""Set programs whose answer is an order: compiled by tests/test_set_order.py and compared
with CPython's (list(s), the set itself, its text, pop's choices)."""


def build(ops, xs):
    """ops: (kind, i) pairs: 0 add xs[i], 1 discard xs[i], 2 pop, 3 remove xs[i] if present."""
    s = set()
    popped = []
    for kind, i in ops:
        x = xs[i % len(xs)]
        if kind == 0:
            s.add(x)
        elif kind == 1:
            s.discard(x)
        elif kind == 2:
            if s:
                popped.append(s.pop())
        elif x in s:
            s.remove(x)
    return list(s), popped, s


def from_list(xs):
    s = set(xs)
    t = {x for x in xs}
    return list(s), tuple(t), s, str(s)


def literal(a, b, c):
    s = {a, b, c, a}
    return list(s), s


def combine(xs, ys):
    a = set(xs)
    b = set(ys)
    return list(a | b), list(a & b), list(a - b), list(a ^ b), list(b - a), list(b & a), a | b, a ^ b


def methods(xs, ys):
    a = set(xs)
    return (list(a.union(ys)), list(a.intersection(ys)), list(a.difference(ys)),
            list(a.symmetric_difference(ys)), list(a.union(set(ys), xs)), list(a.copy()))


def in_place(xs, ys, k):
    a = set(xs)
    b = set(ys)
    if k == 0:
        a |= b
    elif k == 1:
        a &= b
    elif k == 2:
        a -= b
    elif k == 3:
        a ^= b
    elif k == 4:
        a.update(ys, xs)
    elif k == 5:
        a.difference_update(ys)
    elif k == 6:
        a.symmetric_difference_update(ys)
    else:
        a.intersection_update(ys)
    a.add(xs[0])
    return list(a), a


def pops(xs, n):
    s = set(xs)
    out = []
    for _ in range(n):
        if s:
            out.append(s.pop())
    s.clear()
    s.add(xs[0])
    return out, list(s)


def walk(xs):
    s = set(xs)
    total = 0.0
    out = []
    for x in s:
        out.append(x)
    return out, sorted(s), [x for x in s]


def join(words):
    return "".join(set(words)), ",".join(set("".join(words)))


def float_sum(xs):
    s = set(xs)
    return sum(s), list(s)


def argument(s):
    return list(s), s


def argument_ops(s, t):
    return list(s | t), s - t, list(s ^ t)


def hashes(x):
    return hash(x)
