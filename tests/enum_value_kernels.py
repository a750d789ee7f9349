"""Kernels over members of plain `enum.Enum` classes (tests/test_enum_values.py): each is
run by CPython and compiled, and must give the same value, type, exception and message."""

from __future__ import annotations

import enum


class Color(enum.Enum):
    RED = 1
    GREEN = 2
    BLUE = 3
    CRIMSON = 1         # an alias of RED: not in list(Color)


class Unit(enum.Enum):
    kilo = 3
    mega = 6
    giga = 9


class Word(enum.Enum):
    YES = "y"
    NO = "n"


class Ratio(enum.Enum):
    HALF = 0.5
    THIRD = 1 / 3


class Corner(enum.Enum):
    TOP = (0, 1)
    BOTTOM = (0, -1)


class Direction(enum.Enum):     # TheAlgorithms other/graham_scan.py
    left = 1
    straight = 2
    right = 3

    def __repr__(self):
        return f"{self.__class__.__name__}.{self.name}"


class Planet(enum.Enum):        # methods, properties, static and class methods on members
    MERCURY = (3.303e23, 2.4397e6)
    EARTH = (5.976e24, 6.37814e6)
    JUPITER = (1.9e27, 7.1492e7)

    @property
    def mass(self):
        return self.value[0]

    def surface_gravity(self, g=6.673e-11):
        return g * self.mass / (self.value[1] * self.value[1])

    def following(self):
        members = list(Planet)
        return members[(members.index(self) + 1) % len(members)]

    @staticmethod
    def count():
        return len(Planet)

    @classmethod
    def named(cls, s):
        return cls[s.upper()]


class Mixed(enum.Enum):
    ONE = 1
    TEXT = "one"


class Holder:
    def __init__(self, color: Color, n: int):
        self.color = color
        self.n = n


def pick(n):
    c = Color.RED
    if n > 0:
        c = Color.GREEN
    elif n < 0:
        c = Color.BLUE
    return c


def alternate(n):
    c = Color.RED
    for _ in range(n):
        c = Color.GREEN if c is Color.RED else Color.RED
    return c


def attributes(m):
    return m.name, m.value, m is Color.CRIMSON


def compare(m, n):
    return m == n, m != n, m is n, m is not n, m == 1, m == "RED", m != m.value, m == Unit.kilo


def order(m, n):
    return m < n


def order_int(m):
    return m >= 1


def by_name(s):
    return Color[s]


def by_value(v):
    return Color(v)


def by_text(s):
    return Word(s)


def by_member(m):
    return Color(m)


def by_float(x):
    return Ratio(x)


def iterate():
    names = []
    for m in Color:
        names.append(m.name)
    return names, [m for m in Color], list(Color), len(Color)


def contains(m):
    return m in Color, m not in Unit


def texts(m):
    return str(m), repr(m), f"{m}", f"{m!r}", f"<{m:>12}>", "%s" % m


def direction_texts(d):
    return repr(d), str(d), f"{d!r}"


def printed(m):
    print(m, Color.BLUE)
    return 0


def tests(m):
    return isinstance(m, Color), isinstance(m, int), isinstance(m, Unit), isinstance(m, (str, Color))


def convert_prefix(value, known, unknown):     # TheAlgorithms conversions/prefix_conversions.py
    if isinstance(known, str):
        known = Unit[known.lower()]
    if isinstance(unknown, str):
        unknown = Unit[unknown.lower()]
    return value * 10 ** (known.value - unknown.value)


def containers(m):
    xs = [m, Color.BLUE]
    xs.append(Color.RED)
    t = (m, 1)
    d = {"k": m}
    keyed = {m: 1}
    keyed[Color.RED] = 2
    return xs, t, d, keyed, keyed[m], xs.index(Color.RED), Color.BLUE in xs


def key_missing(m):
    d = {Color.RED: 1}
    return d[m]


def set_of(names):
    return list({Color[s] for s in names})


def hashed(m):
    return hash(m) == hash(m.name)


def tuple_values(c):
    x, y = c.value
    return x + y, c.value, c.name


def float_values(r):
    return r.value * 2, r


def held(n):
    h = Holder(Color.GREEN if n else Color.BLUE, n)
    return h.color, h.color.value + h.n


def _turn(a, b, c):
    cross = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
    if cross > 0:
        return Direction.left
    if cross < 0:
        return Direction.right
    return Direction.straight


def turns(points):
    out = []
    for i in range(len(points) - 2):
        d = _turn(points[i], points[i + 1], points[i + 2])
        if d == Direction.straight:
            continue
        out.append(d)
    return out


def passed_on(m):
    return _same(m) is m


def _same(m):
    return m


def mixed_member():
    return Mixed.ONE


def set_of_tuples(m):
    return {(m, 1)}


def member_or_text(k):
    x = Color.RED if k > 0 else "s"
    if k > 1:
        x = Color.GREEN
    return x == Color.RED, Color.GREEN != x, x is Color.RED, str(x), x


def truth(m):
    if m:
        return 1
    return 0


def refused_order(m):
    return sorted([m, Color.RED])


def planet_members(m, s):
    p = Planet.named(s)
    return (m.mass, m.surface_gravity(), m.surface_gravity(g=1.0), m.following(), m.following().following().name,
            m.count(), Planet.count(), Planet.surface_gravity(m), p, p is m, p.mass > m.mass)
