"""Generators held in a variable and advanced with next() (held_generators.py): kernels
compiled by test_held_generators.py against CPython."""

import itertools
import math


def counter(n):
    i = 0
    while i < n:
        yield i
        i += 1


def early(n, stop):
    for i in range(n):
        if i == stop:
            return
        yield i * 2


def halves(n):
    for i in range(n):
        if i % 2:
            yield i * 0.5
        else:
            yield float(i)


def upper_words(s):
    for w in s.split():
        yield w.upper()


def squares(n):
    for i in range(n):
        yield (i, i * i)


def dividing(xs, k):
    for x in xs:
        yield k // x            # ZeroDivisionError at a 0


def guarded(xs):
    for x in xs:
        try:
            yield 100 // x
        except ZeroDivisionError:
            yield -1


def fibonacci_generator():
    a, b = 0, 1
    while True:
        a, b = b, a + b
        yield b


def sieve():
    found = []
    k = 2
    while True:
        if all(k % p for p in found):
            found.append(k)
            yield k
        k += 1


# ---- the uses -----------------------------------------------------------------------------


def euler_25(n):
    """TheAlgorithms project_euler/problem_025/sol2.py (n digits: small, for int64)."""
    answer = 1
    gen = fibonacci_generator()
    while len(str(next(gen))) < n:
        answer += 1
    return answer + 1


def euler_123(limit):
    """project_euler/problem_123/sol1.py's shape: `primes = sieve()`, then next() in a loop."""
    primes = sieve()
    n = 1
    while True:
        p = next(primes)
        if n % 2 == 1 and 2 * p * n > limit:
            return n
        n += 1


def rectangles(n):
    for w in range(1, n):
        for h in range(w, n):
            yield (w * (w + 1) * h * (h + 1) // 4, w, h)


def nearest_area(target):
    """nayuki p085's shape: min() over a stored generator."""
    cands = early(target, target // 2 + 1)
    rects = rectangles(12)
    return min(cands, key=lambda a: abs(a - target), default=-1), min(rects, key=lambda r: abs(r[0] - target))


def two_alive(n, m):
    g = counter(n)
    h = counter(m)
    a = next(g)
    b = next(h)
    c = next(h)
    return a, b, c, next(g, -5), next(g, -5), next(h, -7)


def drain(n):
    g = counter(n)
    out = []
    while True:
        v = next(g, None)
        if v is None:
            break
        out.append(v)
    return out, next(g, 99), next(g, 98)


def stop_iteration(n):
    g = counter(n)
    total = 0
    try:
        while True:
            total += next(g)
    except StopIteration as e:
        return total, str(e), repr(e)


def bare_next(n):
    g = early(n, 3)
    return next(g) + next(g) * 10        # StopIteration, uncaught, when it runs out


def partly_then_loop(n, stop):
    g = counter(n)
    first = [next(g, -1), next(g, -1)]
    rest = []
    for x in g:
        if x > stop:
            break
        rest.append(x)
    else:
        rest.append(-1)
    return first, rest, list(g), sum(g)


def consumers(n, stop):
    g = early(n, stop)
    h = early(n, stop)
    k = counter(n)
    a = next(g, -1)
    next(h, 0)
    return a, sum(g), max(h, default=-3), list(zip(k, "abcdef")), list(k)


def more_consumers(n):
    g = counter(n)
    h = counter(n)
    k = counter(n)
    first = next(g, -1)
    return (first, [(i, x) for i, x in enumerate(g, 1)], any(x > 3 for x in h), next(h, -1),
            sorted(k, reverse=True), list(itertools.islice(counter(n), 2)))


def islice_then_next(n):
    g = counter(n)
    return list(itertools.islice(g, 3)), next(g, -1)


def contains_then_next(n, x):
    g = counter(n)
    return x in g, next(g, -1)


def interleaved(n):
    g = counter(n)
    h = counter(2 * n)
    out = []
    for x in g:
        out.append(x)
        out.append(next(h, -1))
    out.append(next(h, -2))
    return out, next(h, -3) + next(h, -3) * 100


def kinds(n):
    f = halves(n)
    w = upper_words("a bb ccc dddd eeeee"[:3 * n])
    t = squares(n)
    a = next(f, -1.0)
    x = next(w, "none")
    p, q = next(t, (7, 7))
    return a, list(f), x, "-".join(w), p, q, dict(t)


def raised_inside_try(xs, k):
    g = dividing(xs, k)
    out = []
    try:
        for _ in range(len(xs) + 1):
            out.append(next(g))
    except ZeroDivisionError as e:
        out.append(next(g, -200))       # a generator that raised is exhausted
        return out, str(e)
    except StopIteration:
        return out, "stop"
    return out, ""


def raised_outside_try(xs, k):
    g = dividing(xs, k)
    t = 0
    for _ in range(len(xs)):
        t += next(g, 0)
    return t


def yield_in_try(xs):
    g = guarded(xs)
    return [next(g, 0) for _ in range(len(xs) + 1)]


def reassigned_in_loop(n):
    t = 0
    for k in range(n):
        g = counter(k)
        t += next(g, 100) + next(g, 1000)
    return t


def unbound(n):
    if n > 3:
        g = counter(n)
    return next(g)


def nested_generator(xs, k):
    def chunks():
        for i in range(0, len(xs), k):
            yield xs[i:i + k]
    c = chunks()
    first = next(c, [])
    return first, [sum(x) for x in c]


def num_rectangles(w, h):
    return (w * (w + 1) * h * (h + 1)) // 4


def euler_85(target):
    """nayuki's p085: a generator expression held, then given to min()."""
    end = int(math.sqrt(target)) + 1
    gen = ((w, h) for w in range(1, end) for h in range(1, end))
    func = lambda wh: abs(num_rectangles(*wh) - target)     # noqa: E731
    ans = min(gen, key=func)
    return ans[0] * ans[1]


def expression_next(n, k):
    xs = list(range(n))
    g = (x * k for x in xs if x % 2)
    a = next(g, -1)
    k = 10                  # read when the next item is made, as CPython's closure does
    return a, list(g), next(g, -2)


def expression_raises(n):
    g = (10 // (x - 2) for x in range(n))
    out = []
    try:
        for v in g:
            out.append(v)
    except ZeroDivisionError as e:
        return out, str(e), next(g, 99)
    return out, "", next(g, 99)


def pairs_of(n):
    it = counter(n)                 # held inside a generator's body
    for a in it:
        b = next(it, -1)
        yield (a, b)


def old_style(n):
    it = counter(n)
    while True:
        yield next(it)              # PEP 479: its StopIteration leaves as RuntimeError


def raises_stop(n):
    for i in range(n):
        yield i
    raise StopIteration             # RuntimeError too


def endless(n):
    while True:
        if n > 10:
            raise ValueError("too big")
        n += 1
        yield n


def held_inside(n):
    g = pairs_of(n)
    return next(g, (-2, -2)), list(pairs_of(n)), list(g)


def stop_iteration_in_bodies(n, held):
    if held:
        g = old_style(n)
        h = raises_stop(n)
        return [next(g, -1) for _ in range(n + 1)], [next(h, -1) for _ in range(n + 1)]
    return list(old_style(n)), list(raises_stop(n))


def endless_into_list(n):
    return list(endless(n)), next(endless(n))


# ---- refused --------------------------------------------------------------------------------


def iterable_changed(n):           # range(len(xs)) evaluated at the assignment, as CPython's
    xs = list(range(n))
    g = (x for x in range(len(xs)))
    xs.append(n)
    return list(g)


def iterable_rebound(n):
    xs = list(range(n))
    g = (x for x in xs)
    xs = [n]
    return list(g)


def take(g):
    return next(g)


def passed(n):
    g = counter(n)
    return take(g)


def give_back(g):
    return g


def passed_back(n):                 # the callee inlined (generator_args.py) returns it
    g = counter(n)
    h = give_back(g)
    return next(h)


def returned(n):
    g = counter(n)
    next(g)
    return g


def reassigned(n):
    g = counter(n)
    next(g)
    g = counter(n + 1)
    return next(g)


def captured(n):
    g = counter(n)
    f = lambda: next(g)     # noqa: E731
    return f()


def stored(n):
    g = counter(n)
    gs = [g]
    return len(gs)
