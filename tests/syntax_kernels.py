"""Closures nested to any depth, unpacking in displays, *args/**kwargs of nested functions and
lambdas, and the text of containers: functions run in CPython and compiled."""

from typing import NamedTuple


class Pair(NamedTuple):
    a: int
    b: float


# ---- closures nested two and more deep --------------------------------------------------------

def adder_chain(a, n):
    def outer(b):
        def inner(c):
            return a + b + c + n
        return inner(b * 2)
    return outer(a)


def three_deep(n):
    base = 10
    def a(x):
        def b(y):
            def c(z):
                return z + base + n
            return c(y) * 2
        return b(x) + 1
    return a(n)


def nonlocal_across_levels(n):
    total = 0
    seen = []
    def walk(k):
        def visit(v):
            nonlocal total
            total += v
            seen.append(v)
        for i in range(k):
            visit(i)
    walk(n)
    walk(n // 2)
    return total, len(seen)


def inner_nonlocal(n):
    def run(k):
        count = 0
        def bump(v):
            nonlocal count
            count += v
            return count
        for i in range(k):
            bump(i)
        return count
    return run(n) + run(2)


def inner_recursion(n):
    def solve(m):
        memo = {}
        def fib(k):
            if k < 2:
                return k
            if k in memo:
                return memo[k]
            r = fib(k - 1) + fib(k - 2)
            memo[k] = r
            return r
        return fib(m)
    return solve(n)


def calls_outer_helper(n):
    off = 3
    def h(v):
        return v + off
    def a(x):
        def b(y):
            return h(y) * 2
        return b(x)
    return a(n)


def shadowing(n):
    x = 5
    def a(y):
        def b(z):
            x = z * 2
            return x + y
        return b(y) + x
    return a(n)


def lambda_in_nested(xs, k):
    def order(ys):
        return sorted(ys, key=lambda v: (v % k, v))
    return order(xs)


# ---- unpacking in displays --------------------------------------------------------------------

def list_display(xs, ys, x):
    return [*xs, *ys, x, *range(x % 4)], [*"ab"[:x % 3], str(x), *[str(v) for v in xs]]


def set_display(xs, ys):
    return sorted({*xs, *ys, 0})


def tuple_display(a, b):
    t = (a, b)
    return (*t, 1.5, *t[::-1])


def spread_tuple_display(xs, ys, a):
    # `*` of a list, a str, a range, a dict and a generator: a tuple of run-time length
    d = {k: a for k in ys}
    t = (*xs, a, *range(len(ys)))
    u = (*"ab", *[str(x) for x in xs])
    return t, len(t), u, (0, *d), (*(x * 2 for x in ys),), t == tuple(xs) + (a,) + tuple(range(len(ys)))


def dict_display(a, b):
    d1 = {"a": a, "c": 5}
    d2 = {"b": b, "a": 9}
    return {**d1, "z": 0, **d2}


def generator_display(n):
    return [*(x * x for x in range(n)), -1]


# ---- *args and **kwargs of nested functions and lambdas ---------------------------------------

def nested_varargs(a, b):
    def total(*xs):
        return sum(xs)
    count = lambda *xs: len(xs)
    def head(first, *rest):
        return first * 100 + len(rest)
    return total(a, b, 3) + total() + count(a, a) + count() + head(a) + head(a, b, b)


def nested_kwargs(a, b):
    def f(base, *args, scale=1, **opts):
        t = base + sum(args) * scale
        for k, v in opts.items():
            t += v * len(k)
        return t
    def fmt(**fields):
        return ", ".join(k + "=" + str(v) for k, v in fields.items())
    keys = lambda **kw: sorted(kw)
    return f(a, 1, 2, scale=3, ab=4, c=b), f(b), fmt(x=a, y=b), keys(q=a, p=b)


# ---- str()/repr()/f-strings of containers -----------------------------------------------------

def list_text(xs):
    return str(xs) + "|" + repr(xs) + "|" + f"{xs}" + "|" + f"{xs!r}" + "|" + format(xs)


def float_list_text(x):
    return str([x, 0.1, -0.0, 1e300, x * 1e-300])


def str_list_text(words):
    return repr(words) + str([w.upper() for w in words])


def nested_text(n):
    rows = [[i * j for j in range(i)] for i in range(n)]
    return f"{rows} {[(i, str(i)) for i in range(n)]}"


def tuple_text(a, b):
    return str((a,)) + str(()) + repr((a, b, "x'y", None, True)) + str(((a,), (b, (a,))))


def named_tuple_text(a, b):
    return str(Pair(a, b)) + repr([Pair(a, b)])


def dict_set_text(xs):
    counts = {}
    for x in xs:
        counts[x] = counts.get(x, 0) + 1
    distinct = str(set(xs)) if len(set(xs)) < 2 else str(sorted(set(xs)))
    return str(counts) + " " + distinct + " " + str(set())


def sorted_set_text(xs):
    return str(sorted(set(xs)))


def optional_text(n):
    best = None
    for i in range(n):
        if i > 2:
            best = i
    return str(best) + f" {best!r}"


def print_containers(xs, a):
    print(xs, (a,), {"k": xs}, sep="; ")
    print(f"{xs=}")
    return len(xs)


def format_spec_on_list(xs):
    return f"{xs:>10}"


# ---- f(*lst) of a fixed-arity function, print(*xs) --------------------------------------------

def weighted(a, b, c):
    return a * 100 + b * 10 + c


def spread_list(xs):
    def diff(a, b):
        return a - b
    def nothing():
        return 7
    out = weighted(*xs) if len(xs) != 2 else weighted(1, *xs)
    return out, diff(*xs[:2]) if len(xs) >= 2 else nothing(*xs)


def print_unpacked(xs):
    print(*xs)
    print("a", *xs, "b", sep=", ", end=".\n")
    print(*xs, *range(2), 1.5)
    print(*[str(x) + "!" for x in xs], sep="")
    return len(xs)


def rpn(s):
    # a dict display of the items of a list that only a later branch stores into
    stack = []
    for tok in s.split():
        if tok in "+-*/":
            b, a = stack.pop(), stack.pop()
            stack.append({"+": a + b, "-": a - b, "*": a * b, "/": a / b if b else 0.0}[tok])
        else:
            stack.append(float(tok))
    return stack[0]
