"""Kernels for tests/test_class_methods.py: user classes with special methods, properties,
static and class methods and single inheritance, used in compiled code (docs/records.md).
Each runs unchanged in CPython; together they are a small corpus of the way real code
writes such classes (vector math, fractions, matrices, stacks and queues, shapes)."""

import abc
import dataclasses
import functools
import math


# ---- a 3-vector and a tiny ray tracer ----------------------------------------------------

class Vec3:
    def __init__(self, x: float, y: float, z: float):
        self.x = x
        self.y = y
        self.z = z

    def __add__(self, o: "Vec3") -> "Vec3":
        return Vec3(self.x + o.x, self.y + o.y, self.z + o.z)

    def __sub__(self, o):
        return Vec3(self.x - o.x, self.y - o.y, self.z - o.z)

    def __mul__(self, k):
        if isinstance(k, Vec3):
            return Vec3(self.x * k.x, self.y * k.y, self.z * k.z)
        return Vec3(self.x * k, self.y * k, self.z * k)

    def __rmul__(self, k):
        return self * k

    def __truediv__(self, k):
        return Vec3(self.x / k, self.y / k, self.z / k)

    def __neg__(self):
        return Vec3(-self.x, -self.y, -self.z)

    def __pos__(self):
        return self

    def __abs__(self):
        return math.sqrt(self.dot(self))

    def __matmul__(self, o):
        return self.dot(o)

    def __eq__(self, o):
        if not isinstance(o, Vec3):
            return NotImplemented
        return self.x == o.x and self.y == o.y and self.z == o.z

    def __repr__(self):
        return f"Vec3({self.x!r}, {self.y!r}, {self.z!r})"

    def __iter__(self):
        return iter((self.x, self.y, self.z))

    def dot(self, o):
        return self.x * o.x + self.y * o.y + self.z * o.z

    def normalized(self):
        return self / abs(self)

    @property
    def length(self):
        return abs(self)

    @staticmethod
    def zero():
        return Vec3(0.0, 0.0, 0.0)

    @classmethod
    def splat(cls, v):
        return cls(v, v, v)


class Sphere:
    def __init__(self, center, radius, shade):
        self.center = center
        self.radius = radius
        self.shade = shade

    def hit(self, origin, direction):
        """Distance along the ray to the nearest hit, or -1.0."""
        oc = origin - self.center
        b = oc @ direction
        c = oc @ oc - self.radius * self.radius
        disc = b * b - c
        if disc < 0.0:
            return -1.0
        t = -b - math.sqrt(disc)
        return t if t > 1e-9 else -1.0


def trace(w, h, r):
    spheres = [Sphere(Vec3(0.0, 0.0, -3.0), r, 0.8), Sphere(Vec3(1.0, 0.5, -4.0), r * 0.5, 0.4)]
    light = Vec3(1.0, 1.0, 1.0).normalized()
    eye = Vec3.zero()
    total = 0.0
    hits = 0
    for j in range(h):
        for i in range(w):
            d = Vec3((i + 0.5) / w * 2.0 - 1.0, 1.0 - (j + 0.5) / h * 2.0, -1.0).normalized()
            best = -1.0
            shade = 0.0
            for s in spheres:
                t = s.hit(eye, d)
                if t > 0.0 and (best < 0.0 or t < best):
                    best = t
                    p = eye + t * d
                    n = (p - s.center).normalized()
                    shade = s.shade * max(0.0, n @ light)
            if best > 0.0:
                hits += 1
                total += shade
    return hits, round(total, 9)


def vec_ops(a, b, c):
    u = Vec3(a, b, c)
    v = Vec3.splat(1.5)
    w = 2.0 * u - v * 3.0 + (-u) / 4.0 + +v
    w += u
    w *= 0.5
    x, y, z = w
    return (repr(w), abs(v), v.length, u @ v, u == Vec3(a, b, c), u != v, u == 3, x + y + z,
            f"{u}", str(Vec3.zero()))


def vec_divide(a, k):
    return repr(Vec3(a, a, a) / k)


# ---- fractions: arithmetic, total ordering, sorting ----------------------------------------

@functools.total_ordering
class Frac:
    def __init__(self, n: int, d: int = 1):
        if d == 0:
            raise ZeroDivisionError("Frac(n, 0)")
        g = math.gcd(n, d)
        if d < 0:
            g = -g
        self.n = n // g
        self.d = d // g

    def __add__(self, o):
        if isinstance(o, int):
            return Frac(self.n + o * self.d, self.d)
        return Frac(self.n * o.d + o.n * self.d, self.d * o.d)

    __radd__ = __add__

    def __sub__(self, o):
        return Frac(self.n * o.d - o.n * self.d, self.d * o.d)

    def __mul__(self, o):
        return Frac(self.n * o.n, self.d * o.d)

    def __truediv__(self, o):
        return Frac(self.n * o.d, self.d * o.n)

    def __eq__(self, o):
        if isinstance(o, int):
            return self.d == 1 and self.n == o
        return self.n == o.n and self.d == o.d

    def __lt__(self, o):
        return self.n * o.d < o.n * self.d

    def __str__(self):
        return f"{self.n}/{self.d}" if self.d != 1 else str(self.n)

    def __float__(self):
        return self.n / self.d


def harmonic(n):
    h = Frac(0)
    for k in range(1, n + 1):
        h = h + Frac(1, k)
    return str(h), h == 1, h > Frac(1), h >= Frac(1), h <= Frac(2)


def frac_sort(ns, ds):
    fs = [Frac(n, d) for n, d in zip(ns, ds)]
    total = sum(fs, Frac(0))
    ordered = sorted(fs)
    first = min(fs) if fs else Frac(0)
    return str(total), [str(f) for f in ordered], str(first), str(max(fs, default=Frac(0))), 3 + Frac(1, 2) == Frac(7, 2)


def frac_div(a, b, c):
    return str(Frac(a, 1) / Frac(b, c))


# ---- a 2x2 matrix: indexing with tuples, @, ** by squaring ---------------------------------

class Matrix2:
    def __init__(self, a, b, c, d):
        self.m = [a, b, c, d]

    def __getitem__(self, ij):
        i, j = ij
        return self.m[2 * i + j]

    def __setitem__(self, ij, v):
        i, j = ij
        self.m[2 * i + j] = v

    def __matmul__(self, o):
        r = Matrix2.identity()
        for i in range(2):
            for j in range(2):
                r[i, j] = self[i, 0] * o[0, j] + self[i, 1] * o[1, j]
        return r

    def __pow__(self, k):
        result = Matrix2.identity()
        base = self
        while k > 0:
            if k % 2 == 1:
                result = result @ base
            base = base @ base
            k //= 2
        return result

    def __len__(self):
        return 2

    def __str__(self):
        return f"[[{self[0, 0]}, {self[0, 1]}], [{self[1, 0]}, {self[1, 1]}]]"

    @classmethod
    def identity(cls):
        return cls(1, 0, 0, 1)


def fib_matrix(n):
    f = Matrix2(1, 1, 1, 0) ** n
    g = Matrix2(1, 1, 1, 0)
    g @= g
    g[0, 0] += 10
    return f[0, 1], str(g), len(g)


# ---- stacks and queues: len, truth, membership, iteration ----------------------------------

class Stack:
    def __init__(self):
        self.items = []

    def push(self, x):
        self.items.append(x)

    def pop(self):
        if not self.items:
            raise IndexError("pop from an empty Stack")
        return self.items.pop()

    def peek(self):
        return self.items[-1]

    def __len__(self):
        return len(self.items)

    def __contains__(self, x):
        return x in self.items

    def __iter__(self):
        return iter(self.items)

    def __getitem__(self, i):
        return self.items[i]


def balanced(text):
    pairs = {")": "(", "]": "[", "}": "{"}
    s = Stack()
    for ch in text:
        if ch in "([{":
            s.push(ch)
        elif ch in pairs:
            if not s or s.peek() != pairs[ch]:
                return False
            s.pop()
    return not s


def stack_ops(xs, k):
    s = Stack()
    for x in xs:
        s.push(x)
    seen = [x * 2 for x in s]
    return len(s), k in s, k not in s, bool(s), seen, s[0] if s else -1, s.pop() + s.pop()


class Queue:
    def __init__(self):
        self.items = []
        self.head = 0

    def put(self, x):
        self.items.append(x)

    def get(self):
        x = self.items[self.head]
        self.head += 1
        return x

    def __bool__(self):
        return self.head < len(self.items)

    def __len__(self):
        return len(self.items) - self.head


def bfs(n, edges, start):
    adj = [[] for _ in range(n)]
    for a, b in edges:
        adj[a % n].append(b % n)
        adj[b % n].append(a % n)
    dist = [-1] * n
    dist[start % n] = 0
    q = Queue()
    q.put(start % n)
    longest = 0
    while q:
        longest = max(longest, len(q))
        u = q.get()
        for v in adj[u]:
            if dist[v] < 0:
                dist[v] = dist[u] + 1
                q.put(v)
    return dist, longest


class Countdown:
    def __init__(self, n):
        self.n = n

    def __iter__(self):
        k = self.n
        while k > 0:
            yield k
            k -= 1

    def evens(self):
        for k in self:
            if k % 2 == 0:
                yield k


def countdown(n):
    c = Countdown(n)
    return list(c), sum(c), [k for k in c.evens()], max(c) if n > 0 else 0


# ---- shapes: inheritance, overriding, super(), abstract bases ------------------------------

class Shape:
    sides = 0

    def __init__(self, name):
        self.name = name

    def area(self):
        raise NotImplementedError(f"{self.name}.area")

    def describe(self):
        return f"{self.name} with {self.sides} sides, area {self.area():.3f}"


class Rect(Shape):
    sides = 4

    def __init__(self, w, h):
        super().__init__("rect")
        self.w = w
        self.h = h

    def area(self):
        return self.w * self.h

    @property
    def perimeter(self):
        return 2 * (self.w + self.h)


class Square(Rect):
    def __init__(self, s):
        Rect.__init__(self, s, s)
        self.name = "square"

    def describe(self):
        return "[" + super().describe() + "]"


class Circle(Shape):
    def __init__(self, r):
        super().__init__("circle")
        self.r = r

    def area(self):
        return math.pi * self.r ** 2


def shapes(a, b):
    r, s, c = Rect(a, b), Square(a), Circle(b)
    return (r.describe(), s.describe(), c.describe(), r.perimeter + s.perimeter, isinstance(s, Rect),
            isinstance(s, Shape), isinstance(c, Rect), s.w, s.name, Square.sides, c.sides)


def shape_abstract(a):
    return Shape("blob").describe() if a > 0 else "none"


class Solid(abc.ABC):
    def __init__(self, density):
        self.density = density

    @abc.abstractmethod
    def volume(self):
        ...

    def mass(self):
        return self.density * self.volume()


class Cube(Solid):
    def __init__(self, side, density=1.0):
        super().__init__(density)
        self.side = side

    def volume(self):
        return self.side ** 3


def solids(side, density):
    return Cube(side, density).mass(), Cube(side).mass()


def solid_abstract(d):
    return Solid(d).mass()


# ---- class methods, static methods, properties ---------------------------------------------

class Point:
    def __init__(self, x, y):
        self.x = x
        self.y = y

    @classmethod
    def from_polar(cls, r, theta):
        return cls(r * math.cos(theta), r * math.sin(theta))

    @classmethod
    def origin(cls):
        return cls(0.0, 0.0)

    @staticmethod
    def clamp(v, lo, hi):
        return max(lo, min(hi, v))

    def clamped(self, lo, hi):
        return Point(self.clamp(self.x, lo, hi), Point.clamp(self.y, lo, hi))

    @property
    def norm(self):
        return math.hypot(self.x, self.y)

    def __sub__(self, o):
        return Point(self.x - o.x, self.y - o.y)


def points(r, theta):
    p = Point.from_polar(r, theta)
    q = p.origin()
    c = p.clamped(-1.0, 1.0)
    return round((p - q).norm, 9), c.x, c.y, Point.clamp(r, 0.0, 2.0)


class Temperature:
    def __init__(self, celsius):
        self._c = celsius

    @property
    def celsius(self):
        return self._c

    @celsius.setter
    def celsius(self, v):
        if v < -273.15:
            raise ValueError("below absolute zero")
        self._c = v

    @property
    def fahrenheit(self):
        return self._c * 9.0 / 5.0 + 32.0

    @fahrenheit.setter
    def fahrenheit(self, f):
        self.celsius = (f - 32.0) * 5.0 / 9.0


def temperatures(c, df):
    t = Temperature(c)
    t.fahrenheit = t.fahrenheit + df
    t.celsius += 1.0
    return round(t.celsius, 9), round(t.fahrenheit, 9)


# ---- callables, text, equality without hashing ---------------------------------------------

class Poly:
    def __init__(self, coeffs):
        self.coeffs = coeffs

    def __call__(self, x):
        acc = 0.0
        for c in reversed(self.coeffs):
            acc = acc * x + c
        return acc

    def __len__(self):
        return len(self.coeffs)

    def __str__(self):
        return " + ".join(f"{c}x^{k}" for k, c in enumerate(self.coeffs))

    def derivative(self):
        return Poly([k * c for k, c in enumerate(self.coeffs)][1:])


def newton(coeffs, x0, steps):
    p = Poly(coeffs)
    dp = p.derivative()
    x = x0
    for _ in range(steps):
        d = dp(x)
        if d == 0.0:
            break
        x = x - p(x) / d
    print("poly", p, len(p))
    return round(x, 6), str(dp), len(dp)


class ModInt:
    M = 1_000_000_007

    def __init__(self, v):
        self.v = v % ModInt.M

    def __add__(self, o):
        return ModInt(self.v + (o.v if isinstance(o, ModInt) else o))

    def __radd__(self, o):
        return ModInt(self.v + o)

    def __mul__(self, o):
        return ModInt(self.v * (o.v if isinstance(o, ModInt) else o))

    def __rmul__(self, o):
        return ModInt(self.v * o)

    def __pow__(self, e):
        return ModInt(pow(self.v, e, ModInt.M))

    def __neg__(self):
        return ModInt(-self.v)

    def __floordiv__(self, o):
        return self * (o ** (ModInt.M - 2))

    def __mod__(self, k):
        return self.v % k

    def __eq__(self, o):
        return isinstance(o, ModInt) and self.v == o.v

    def __int__(self):
        return self.v


def modular(a, b, n):
    x = ModInt(a)
    y = ModInt(b)
    acc = ModInt(1)
    for k in range(n):
        acc = acc * x + k
        acc = 3 * acc + y
    q = acc // ModInt(b if b % ModInt.M else 1)
    return acc.v, (-acc).v, (x ** 5).v, acc % 97, q * ModInt(b if b % ModInt.M else 1) == acc


@dataclasses.dataclass(order=True)
class Version:
    major: int
    minor: int = 0
    tag: str = dataclasses.field(default="", compare=False)


def versions(xs):
    vs = [Version(x // 10, x % 10, str(x)) for x in xs]
    vs.sort()
    return [repr(v) for v in vs], vs[0] < vs[-1] if vs else False, Version(1, 2, "a") == Version(1, 2, "b")


class Account:
    count = 0

    def __init__(self, owner, balance=0.0):
        self.owner = owner
        self.balance = balance
        self.history = []

    def deposit(self, x):
        if x <= 0:
            raise ValueError("deposit must be positive")
        self.balance += x
        self.history.append(x)
        return self

    def __iadd__(self, x):
        return self.deposit(x)

    def __lt__(self, o):
        return self.balance < o.balance

    def __str__(self):
        return f"{self.owner}: {self.balance:.2f}"


def accounts(amounts):
    accs = [Account(f"a{k}") for k in range(3)]
    for k, x in enumerate(amounts):
        a = accs[k % 3]
        a += x
    richest = max(accs)
    return str(richest), [str(a) for a in sorted(accs)], [len(a.history) for a in accs]


class Counter2D:
    def __init__(self, w, h):
        self.w = w
        self.cells = [0] * (w * h)

    def __getitem__(self, key):
        x, y = key
        if not 0 <= x < self.w:
            raise IndexError("x out of range")
        return self.cells[y * self.w + x]

    def __setitem__(self, key, v):
        x, y = key
        self.cells[y * self.w + x] = v

    def __contains__(self, v):
        return v in self.cells


def grid_counts(pts, w):
    g = Counter2D(w, w)
    for x, y in pts:
        g[x % w, y % w] += 1
    return g.cells, 2 in g, g[0, 0], g[w, 0] if len(pts) > 3 else 0


class Particle:
    def __init__(self, pos, vel, mass):
        self.pos = pos
        self.vel = vel
        self.mass = mass

    def kinetic(self):
        return 0.5 * self.mass * (self.vel @ self.vel)


def nbody(steps, dt):
    ps = [Particle(Vec3(float(k), 0.0, 0.0), Vec3(0.0, 0.1 * k, 0.0), 1.0 + k) for k in range(3)]
    for _ in range(steps):
        for p in ps:
            acc = Vec3.zero()
            for q in ps:
                if p is not q:
                    d = q.pos - p.pos
                    r = abs(d) + 0.01
                    acc = acc + d * (q.mass / (r * r * r))
            p.vel = p.vel + acc * dt
        for p in ps:
            p.pos += p.vel * dt
    return round(sum(p.kinetic() for p in ps), 6)


class Named:
    def __init__(self, x):
        self.x = x

    def __repr__(self):
        return f"{type(self).__name__}({self.x})"

    def __str__(self):
        return self.__class__.__name__ + "!" + str(self.x)

    def bumped(self):
        return type(self)(self.x + 1)

    def __eq__(self, o):
        return type(self) == type(o) and self.x == o.x


class SubNamed(Named):
    pass


def class_names(a):
    b = Named(a)
    s = SubNamed(a)
    return repr(b), repr(s), str(s), repr(s.bumped()), b == s, s == SubNamed(a), isinstance(s, type(b))


def type_of_numbers(a):
    return type(a) == int, type(a) is float, type(a).__name__, isinstance(3, type(a))


# ---- instances of several classes in one variable or list ---------------------------------

def zoo(a, b):
    shapes = [Rect(a, b), Circle(a), Square(b)]
    shapes.append(Circle(b))
    total = sum(s.area() for s in shapes)
    kinds = [isinstance(s, Rect) for s in shapes]
    big = max(shapes, key=lambda s: s.area())
    ordered = sorted(shapes, key=lambda s: s.area())
    return (round(total, 9), [s.name for s in shapes], [s.describe() for s in shapes], kinds, big.name,
            [s.name for s in ordered], shapes[0] is shapes[0], shapes[0] is shapes[1])


def shape_attribute(a, k):
    shapes = [Rect(a, a), Circle(a)]
    return shapes[k].w


def pick(a, c):
    s = Rect(a, a) if c else Circle(a)
    if isinstance(s, Circle):
        return s.r
    s.name = "renamed"
    return s.area() + len(s.name)


def area_of(s):
    return s.area()


def passed(a, c):
    s = Square(a) if c else Circle(a)
    t = s
    print("shape", s.describe())
    return area_of(s), str(s.sides), t is s, s == t, f"{s.perimeter if c else 0.0:.1f}"


def by_kind(xs):
    out = []
    for x in xs:
        if x > 0:
            out.append(Rect(x, 1.0))
        elif x < 0:
            out.append(Circle(-x))
        else:
            out.append(Square(1.0))
    d = {}
    for s in out:
        d[s.name] = d.get(s.name, 0.0) + s.area()
    return sorted(d.items())


class Holder:
    def __init__(self, s):
        self.s = s


def field_of_two_classes(a):
    h = Holder(Rect(a, a))
    h.s = Circle(a)
    return h.s.area()


# ---- what CPython rejects, and what compiled code does not take ----------------------------

class Plain:
    def __init__(self, v):
        self.v = v


class BadBool:
    def __init__(self, v):
        self.v = v

    def __bool__(self):
        return self.v


class NegLen:
    def __init__(self, n):
        self.n = n

    def __len__(self):
        return self.n


def neg_len(n):
    return len(NegLen(n))


def plain_add(a):
    return Plain(a) + 1


def plain_radd(a):
    return 1 + Plain(a)


def plain_lt(a):
    return Plain(a) < Plain(a)


def plain_neg(a):
    return -Plain(a)


def vec_lt_number(a):
    return Vec3(a, a, a) < 2


def bad_bool(a):
    return 1 if BadBool(a) else 0


def instance_key(a):
    d = {Frac(1, 2): a}
    return len(d)
