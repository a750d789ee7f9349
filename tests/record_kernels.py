"""Kernels for tests/test_records.py: named tuples and classes at module level, used in
compiled code (docs/records.md). Each runs unchanged in CPython."""

import collections
import dataclasses
import math
import typing

import numpy as np


class Point(typing.NamedTuple):
    x: float
    y: float = 0.0

    def norm2(self):
        return self.x * self.x + self.y * self.y

    def scaled(self, k):
        return Point(self.x * k, self.y * k)


class Point3(Point):
    """A subclass of a named tuple class: its fields, its own methods and Point's."""

    def total(self):
        return self.x + self.y + self.norm2()


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


def nt_subclass(a):
    p = Point3(a, 1.0)
    return p.total(), p.scaled(2.0), p


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


class Line(typing.NamedTuple):
    a: Point
    b: Point


def nt_keys(n):
    d = {}
    for i in range(n):
        d[Point(float(i), 0.0)] = i
    return d, {Pair(i, i % 2) for i in range(n)}


def nt_nested(x):
    line = Line(Point(x, 1.0), Point(2.0, x))
    return line, line.a.x + line.b.x


def nt_nested_arg(line):
    return line.b.y - line.a.y, line


def nt_list_field(n):
    p = Pair([i for i in range(n)], "s")
    p.a.append(99)
    return p


ORIGIN = Point(0.0, 1.0)


def nt_global(a):
    p = Point(a, a)
    return ORIGIN, p.x - ORIGIN.x + ORIGIN.y, p == ORIGIN


def nt_bad_field(a):
    p = Point(a, a)
    return p.z


def nt_bad_kw(a):
    return Point(a, w=a)


def nt_missing():
    return Pair(1)


# ---- classes ---------------------------------------------------------------------------

class Particle:
    """A Particle-style class: scalar fields, methods calling methods, fields mutated."""

    G = 9.81

    def __init__(self, x, v):
        self.x = x
        self.v = v
        self.steps = 0

    def step(self, dt):
        self.v -= self.G * dt
        self.x += self.v * dt
        self.steps += 1

    def energy(self):
        return 0.5 * self.v * self.v + self.G * self.x

    def run(self, n, dt):
        for _ in range(n):
            self.step(dt)
        return self.x


class Stack:
    def __init__(self, name):
        self.items: list[int] = []
        self.name = name

    def push(self, x):
        self.items.append(x)

    def pop(self):
        return self.items.pop()

    def size(self):
        return len(self.items)


class Grid:
    def __init__(self, n):
        self.cells = np.zeros(n)
        self.n = n
        self.total = 0.0

    def add(self, i, v):
        self.cells[i % self.n] += v
        self.total += v


class Annotated:
    """Class-level annotations type the fields: x starts as an int and is a float."""

    x: float
    n: int

    def __init__(self, x):
        self.x = x
        self.n = 0

    def halve(self):
        self.x = self.x / 2
        self.n += 1


def cls_annotated(k):
    a = Annotated(k)
    for _ in range(3):
        a.halve()
    return a.x, a.n


class Node:
    def __init__(self, value, label):
        self.value = value
        self.label = label + "!"


@dataclasses.dataclass
class Vec:
    x: float
    y: float = 0.0

    def dot(self, o):
        return self.x * o.x + self.y * o.y

    def scale(self, k):
        self.x *= k
        self.y *= k


class Body:
    """Fields that are instances, named tuples and lists of them; defaults; chained calls."""

    def __init__(self, x, y, m=1.0, name="b"):
        self.pos = Vec(x, y)
        self.m = m
        self.name = name
        self.trail = [Point(x, y)]
        if m > 1:
            self.kind = 1.5
        else:
            self.kind = 0.0

    def move(self, dx):
        self.pos.x += dx
        self.trail.append(Point(self.pos.x, self.pos.y))
        return self

    def weight(self, g=9.8):
        return self.m * g


def cls_body(n, dx):
    b = Body(1.0, 2.0, m=3.0)
    c = Body(0.0, 0.0)
    for i in range(n):
        b.move(dx).move(0.25)
    Body.move(c, 1.0)
    return b.pos.x, len(b.trail), b.trail[-1], b.weight(), c.weight(g=1.0), b.kind, c.kind, c.name, c.pos.x


@dataclasses.dataclass(frozen=True)
class Frozen:
    x: float
    y: float


def cls_frozen(a, b):
    p, q = Frozen(a, b), Frozen(a, b)
    return p.x - p.y, p == q, p is q, p == Frozen(b, a)


def cls_frozen_store(a):
    p = Frozen(a, a)
    p.x = 1.0
    return p.x


def cls_particle(x0, v0, n):
    p = Particle(x0, v0)
    p.run(n, 0.01)
    return p.x, p.v, p.steps, p.energy()


def cls_alias(a, b):
    """Two names for one instance see each other's changes; a copy of the fields does not."""
    p = Particle(a, b)
    q = p
    q.x = q.x + 1.0
    x_before = p.x
    p.v = -b
    other = Particle(a, b)
    return x_before, q.v, other.v, p.x - other.x


def cls_stack(xs):
    s = Stack("s")
    for x in xs:
        s.push(x)
    out = 0
    while s.size() > 1:
        out = out * 3 + s.pop()
    return out, s.size(), s.name, len(s.items)


def cls_grid(n, m):
    g = Grid(n)
    for i in range(m):
        g.add(i * 7, i * 0.5)
    return g.cells.sum(), g.total, g.cells


def cls_list(n):
    nodes = [Node(i, str(i)) for i in range(n)]
    for nd in nodes:
        nd.value = nd.value * 2
    keep = nodes[0] if n else Node(-1, "none")
    keep.label = keep.label + "?"
    return [nd.label for nd in nodes], sum([nd.value for nd in nodes]), keep.label


def cls_vec(a, b):
    u = Vec(a, b)
    w = Vec(1)
    w.scale(2.0)
    return u.dot(w), w.x, w.y, Vec(y=a, x=b).dot(u)


def cls_dataclass_int(a):
    v = Vec(a, a)           # x: float is a hint: an int given stays an int, as in CPython
    return v.x * 2, v.y


@dataclasses.dataclass
class Spot:
    x: float
    y: float
    tag: typing.Any = ""


def cls_number_hints(n, d):
    """Fields annotated float given ints, floats and both: each instance holds what it was
    given (an int|float field), in lists, across a merge, and after a float is stored."""
    spots = [Spot(0, 0), Spot(1.5, n), Spot(n, d, "t")]
    p = spots[0] if n > 2 else Spot(d, 1)
    spots[0].x += d
    return ([(s.x, s.y, s.tag) for s in spots], p.x, sum(s.x for s in spots),
            str(Spot(n, n).x), Spot(2, 3) == Spot(2.0, 3))


def cls_loop(n):
    best = Particle(0.0, 0.0)
    for i in range(n):
        p = Particle(float(i), float(n - i))
        if p.energy() > best.energy():
            best = p
    return best.x, best.v


def cls_identity(a, b):
    p = Particle(a, b)
    q = p
    r = Particle(a, b)
    u, v, w = Vec(a, b), Vec(a, b), Vec(a, 2.0)
    return (p is q, p is r, p is not r, p == q, p == r, p != r, p == u, u == v, u is v, u == w, u != v,
            p in [r, q], p in [r], p is None, p == 1, [r, p, q].index(q), [p, q, r].count(r))


def cls_isinstance(a):
    p, q = Particle(a, a), Point(a, a)
    return isinstance(p, Particle), isinstance(p, Vec), isinstance(p, object), isinstance(q, Point), \
        isinstance(q, tuple), isinstance(q, Pair), isinstance((a, a), Point)


def cls_return():
    return Particle(1.0, 2.0)


def cls_bad_store(a):
    p = Particle(a, a)
    p.steps = "many"
    return p.x


def cls_bad_attr(a):
    p = Particle(a, a)
    return p.mass


def cls_bad_new_field(a):
    p = Particle(a, a)
    p.mass = a
    return p.x


class Base:
    def __init__(self):
        self.a = 1


class Mixin:
    def hello(self):
        return 1


class Derived(Base, Mixin):
    def __init__(self):
        self.b = 2


class WithGetattr:
    def __init__(self):
        self.a = 1

    def __getattr__(self, name):
        return 0


class FromList(list):
    def __init__(self):
        self.a = 1


class CallsInInit:
    def __init__(self):
        self.a = 1
        self.setup()

    def setup(self):
        self.a = 2


def cls_derived():
    return Derived().b


def cls_getattr():
    return WithGetattr().a


def cls_from_list():
    return FromList().a


def cls_calls_in_init():
    return CallsInInit().a


class SlottedPoint:
    __slots__ = ("x", "y", "z")

    def __init__(self, i):
        self.x = x = math.sin(i)
        self.y = math.cos(i) * 3
        self.z = (x * x) / 2

    def normalize(self):
        norm = math.sqrt(self.x * self.x + self.y * self.y + self.z * self.z)
        self.x /= norm
        self.y /= norm
        self.z /= norm

    def maximize(self, other):
        self.x = self.x if self.x > other.x else other.x
        self.y = self.y if self.y > other.y else other.y
        self.z = self.z if self.z > other.z else other.z
        return self


def slotted_float_benchmark(n):
    # pyperformance's float benchmark: a class with __slots__
    points = [SlottedPoint(i) for i in range(n)]
    for p in points:
        p.normalize()
    best = points[0]
    for p in points[1:]:
        best = best.maximize(p)
    return best.x, best.y, best.z


class SlotsMissAField:
    __slots__ = ("a",)

    def __init__(self):
        self.a = 1
        self.b = 2


def slots_miss_a_field():
    return SlotsMissAField().a


class Body2:
    """A plain class (no annotations): its fields take the values' own types."""

    def __init__(self, x, v):
        self.x = x
        self.v = v

    def step(self, dt):
        self.x += self.v * dt


class Tally:
    def __init__(self):
        self.total = 0          # an int, given floats later

    def add(self, v):
        self.total += v


def cls_plain_number_fields(n, d):
    """Unannotated fields given an int in one construction and a float in another, in a list
    and across a merge, and a float stored into a field that held an int (and back): each
    instance holds what CPython's would (an int|float field for the class)."""
    bodies = [Body2(0, 1), Body2(1.5, n)]
    b = bodies[0] if n > 0 else Body2(d, 2)
    for _ in range(abs(n) % 3):
        for body in bodies:
            body.step(d)
    t = Tally()
    for k in range(n):
        t.add(k * d)
    u = Tally()
    return [(q.x, q.v) for q in bodies], b.x, t.total, u.total
