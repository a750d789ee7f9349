"""Kernels for tests/test_records.py: named tuples and classes at module level, used in
compiled code (docs/records.md). Each runs unchanged in CPython."""

import collections
import typing

import numpy as np


class Point(typing.NamedTuple):
    x: float
    y: float = 0.0

    def norm2(self):
        return self.x * self.x + self.y * self.y

    def scaled(self, k):
        return Point(self.x * k, self.y * k)


class Named(typing.NamedTuple):
    name: str
    count: int


Pair = collections.namedtuple("Pair", ["a", "b"])
Triple = collections.namedtuple("Triple", "i j k", defaults=[7])


def nt_construct(a, b):
    p = Point(a, b)
    q = Point(y=a, x=b)
    r = Point(a)
    return p.x - q.y + p[1] * 2 + r.y + q[0]


def nt_unpack(a, b):
    x, y = Point(a, b)
    i, j, k = Triple(1, 2)
    return x * y + i + j + k


def nt_eq(a, b):
    p = Point(a, b)
    return p == Point(a, b), p == (a, b), p != Point(b, a), p < Point(a, b + 1.0)


def nt_index(a, b, i):
    p = Point(a, b)
    return p[i] + p[-1]


def nt_return(n):
    return Pair(n, n * 2)


def nt_return_point(a):
    return Point(a, -a).scaled(2.0)


def nt_arg(p):
    return p.x * 2.0 + p.y + p.norm2()


def nt_arg_pair(p):
    return Pair(p.b, p.a), p.a - p.b, len(p)


def nt_annotated(p: Point) -> float:
    return p.x / 2 + p.y


def nt_replace(p):
    q = p._replace(x=p.y)
    return q, q.count(p.y), q.index(p.y)


def nt_list(n):
    out = []
    for i in range(n):
        out.append(Point(float(i), float(i * i)))
    total = 0.0
    for p in out:
        total += p.x * p.y
    return out, total


def nt_walk(n):
    """A loop-carried named tuple carried round a loop."""
    p = Point(0.0, 1.0)
    for i in range(n):
        p = Point(p.y, p.x + p.y * 0.5)
    return p


def nt_str(words):
    best = Named("", -1)
    for w in words:
        c = Named(w, len(w))
        if c.count > best.count:
            best = c
    return best


def nt_array(n):
    p = Pair(np.arange(n) * 1.5, n)
    return p.a.sum() + p.b, p


def nt_bad_field(a):
    p = Point(a, a)
    return p.z


def nt_bad_kw(a):
    return Point(a, w=a)


def nt_missing():
    return Pair(1)
