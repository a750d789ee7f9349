"""Kernels of tests/test_gaps_corpus.py: constructs a probe corpus of real-world numerical
code hit (functions and strings passed to callees, keyword-only parameters, global lists,
`del`, gathers of rows and columns, rows assigned from tuples, key=/reverse=, tuple ordering,
np.finfo/iinfo, np.random.choice, np.column_stack, a.tolist(), decorated nested functions)."""

import math

import numpy as np

import script

PRIMES = [2, 3, 5, 7, 11, 13]
TABLE = [k * k % 17 for k in range(64)]          # longer than the unrolled limit
DIRS = [(0, 1), (1, 0), (0, -1), (-1, 0)]
WEIGHTS = [1, 2.5, -3]


# ---- functions passed to callees --------------------------------------------------------

def _poly(x):
    return x * x - 2.0


def bisect(f, lo, hi, tol=1e-12):
    flo = f(lo)
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        fm = f(mid)
        if flo * fm <= 0:
            hi = mid
        else:
            lo = mid
            flo = fm
        if hi - lo < tol:
            break
    return 0.5 * (lo + hi)


def integrate(f, a, b, n):
    h = (b - a) / n
    s = 0.0
    for i in range(n):
        s += f(a + (i + 0.5) * h)
    return s * h


def apply_twice(f, x):
    return f(f(x))


def apply_deep(f, x, n):
    if n == 0:
        return x
    return apply_deep(f, f(x), n - 1)


def pass_functions(x, n):
    return (bisect(_poly, 0.0, 2.0), integrate(math.sin, 0.0, math.pi, n), integrate(_poly, 0.0, x, n),
            apply_twice(abs, -x), apply_twice(math.floor, x * 3.5))


def pass_closures(x, k):
    def scaled(t):
        return t * k + 1

    return (apply_twice(scaled, x), integrate(lambda t: t * t * k, 0.0, 1.0, 10),
            apply_deep(lambda t: t * 0.5 + k, x, 5), apply_twice(lambda t: -t, x))


def make(n, dtype=np.float64):
    return np.zeros(n, dtype)


def pass_dtypes(n):
    return make(n), make(n, np.int32), make(n, dtype=np.bool_), make(n, "f4")


def norm(x, kind="l2"):
    if kind == "l2":
        return math.sqrt(sum(v * v for v in x))
    elif kind in ("l1", "abs"):
        return sum(abs(v) for v in x)
    elif kind == "max":
        return max(abs(v) for v in x)
    raise ValueError("unknown norm: " + kind)


def pass_strings(a):
    return norm(a), norm(a, "l1"), norm(a, kind="abs"), norm(a, "max")


def pass_bad_string(a):
    return norm(a, "nope")


def keyword_only(x, *, scale=2, offset):
    return x * scale + offset


def call_keyword_only(x):
    def inner(a, *, b=3):
        return a - b

    return keyword_only(x, offset=1), keyword_only(x, scale=3, offset=0), inner(x), inner(x, b=1)


def decorated_nested(a):
    @script.script
    def sq(x):
        return x * x

    s = 0.0
    for x in a:
        s += sq(x)
    return s


# ---- global lists, del ------------------------------------------------------------------

def global_lists(n):
    s = 0
    for p in PRIMES:
        if n % p == 0:
            s += p
    t = 0.0
    for w in WEIGHTS:
        t += w * n
    return s, TABLE[n % 64] + len(TABLE), sum(TABLE), t, n in PRIMES, PRIMES


def neighbours(g):
    c = 0
    for i in range(g.shape[0]):
        for j in range(g.shape[1]):
            for di, dj in DIRS:
                a, b = i + di, j + dj
                if 0 <= a < g.shape[0] and 0 <= b < g.shape[1]:
                    c += g[a, b]
    return c


def del_items(xs, i):
    lst = list(xs)
    del lst[i]
    del lst[0]
    x = 5
    del x
    return lst


# ---- advanced indexing, rows from tuples --------------------------------------------------

def take_rows(a, idx):
    return a[idx]


def take_columns(a, idx):
    return a[:, idx]


def take_mixed(a, idx):
    return a[1, idx], a[idx, 1:], a[idx, -1], a[[0, -1]]


def take_apart(b, idx):
    return b[0, :, idx], b[idx, :, 1]


def sort_points(p):
    return p[np.argsort(p[:, 0])]


def rows_from_tuples(n):
    pts = np.zeros((n, 3))
    for i in range(n):
        pts[i] = (i, i * 2.0, i * 3.0)
    ints = np.zeros((n, 2), dtype=np.int32)
    for i in range(n):
        ints[i, :] = [i, -i]
    return pts, ints


def fill_from_tuple(a, x, y):
    a[:] = (x, y)
    return a


def array_of_tuple(x):
    t = (x, 2 * x, 3)
    return np.array(t), np.array(t, dtype=np.float32)


# ---- key=, reverse=, tuple ordering -------------------------------------------------------

def sorted_keys(xs, k):
    pairs = [(x, -x) for x in xs]
    a = sorted(pairs, key=lambda p: p[1])
    b = sorted(xs, reverse=True)
    c = sorted(pairs)
    d = sorted(range(len(xs)), key=lambda i: abs(xs[i] - k), reverse=True)
    return a, b, c, d


def sort_method(xs, k):
    a = list(xs)
    a.sort(key=lambda v: abs(v - k))
    b = list(xs)
    b.sort(reverse=True)
    c = list(xs)
    c.sort(key=abs, reverse=k > 0)
    return a, b, c


def min_max_key(xs, k):
    return (max(xs, key=lambda v: abs(v - k)), min(range(len(xs)), key=lambda i: xs[i]),
            max(3, -7, 2, key=abs), min(xs, key=abs, default=0), max((x for x in xs if x > k), key=abs, default=-1))


def max_key_empty(n):
    return max([x for x in range(n)], key=abs)


def order_tuples(a, b, c, d):
    return (a, b) < (c, d), (a, b) <= (c, d), (a, b) > (c, d), (a, b, 1) >= (c, d), (a,) < (a, b)


def _dist(p):
    return math.hypot(p[0], p[1])


def nearest(pts):
    lst = [(pts[i, 0], pts[i, 1]) for i in range(pts.shape[0])]
    return min(lst, key=_dist), sorted(lst, key=_dist)[-1]


# ---- NumPy odds and ends --------------------------------------------------------------------

def limits(a):
    return (np.finfo(np.float64).eps, np.finfo(np.float32).eps, np.iinfo(np.int32).max,
            np.iinfo(np.int64).min, np.finfo(a.dtype).max, np.finfo(float).tiny, np.iinfo(np.uint8).max,
            a.shape[0] * np.finfo(np.float64).eps)


def random_choice(n, seed):
    np.random.seed(seed)
    a = np.arange(n) * 1.5
    return (np.random.choice(a), np.random.choice(a, 4), np.random.choice(n),
            np.random.choice(n, size=(2, 3)), np.random.choice(a, size=0))


def random_choice_empty(n):
    np.random.seed(0)
    return np.random.choice(np.zeros(n))


def random_choice_int(n):
    np.random.seed(0)
    return np.random.choice(n)


def column_stack(a, b, m):
    return np.column_stack((a, b)), np.column_stack((a, m, b[::-1]))


def to_list(a):
    return a.tolist(), (a > 0).tolist()


BODIES = {
    "sun": ([0.0, 0.0, 0.0], [0.0, 0.0, 0.0], 39.47),
    "jupiter": ([4.84, -1.16, -0.10], [0.606, 2.81, -0.025], 0.037),
    "saturn": ([8.34, 4.12, -0.40], [-1.01, 1.82, 0.008], 0.011),
}
SHAPE = ("tri", [(0, 0), (4, 0), (0, 3)])


def nbody_energy(steps, dt):
    # pyperformance's nbody: the bodies copied out of a global dict of tuples of lists
    bodies = [([p[0], p[1], p[2]], [v[0], v[1], v[2]], m) for (p, v, m) in BODIES.values()]
    for _ in range(steps):
        for (r, [vx, vy, vz], m) in bodies:
            r[0] += dt * vx
            r[1] += dt * vy
            r[2] += dt * vz
    e = 0.0
    for (r, v, m) in bodies:
        e += m * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]) / 2.0 + r[0] * 1e-3
    name, pts = SHAPE
    return e, name, len(pts), sum(x + y for x, y in pts), BODIES["sun"][2]
