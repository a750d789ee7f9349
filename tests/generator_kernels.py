"""Generator functions and generator expressions, run by CPython and compiled
(tests/test_generators.py). The generators are plain Python functions (one is @script):
compiled code inlines them where they are iterated."""

import itertools
from typing import Iterator

import script


# ---- generators -------------------------------------------------------------------------

def fib_gen(n):
    a, b = 0, 1
    for _ in range(n):
        yield a
        a, b = b, a + b


def evens(xs):
    for x in xs:
        if x % 2 == 0:
            yield x
    return                          # return ends the generator


def upto(n, step=1):
    i = 0
    while True:                     # infinite unless the consumer stops it
        if i >= n:
            return i                # the value is dropped (StopIteration.value)
        yield i
        i += step


def naturals():
    k = 0
    while True:
        yield k
        k += 1


def pairs(xs):
    for i in range(len(xs)):
        for j in range(i + 1, len(xs)):
            if xs[i] > xs[j]:
                yield i, j


def checked_inverse(xs):
    for x in xs:
        if x == 0:
            raise ValueError("zero in the input")
        yield 100 // x


def guarded(xs):
    for x in xs:
        try:
            yield 10 // x
        except ZeroDivisionError:
            yield -1


def logging_gen(n, log):
    for i in range(n):
        log.append(i)
        yield i * i
    log.append(-1)


def chained(xs, n):
    yield from xs
    yield from range(n)
    yield from evens(xs)


def doubled(xs):
    for e in evens(xs):             # a generator consuming a generator
        yield e
        yield e


def with_defaults(xs, scale=3, *, offset=0):
    for x in xs:
        yield x * scale + offset


def float_gen(n):
    x = 0.5
    for _ in range(n):
        yield x
        x = x * 1.5


def halves(n: int) -> Iterator[float]:
    for i in range(n):
        yield i / 2


def words(s):
    for w in s.split():
        yield w.upper()


@script.script
def squares(n):
    for i in range(n):
        yield i * i


def bad_index(xs, k):
    yield xs[k]


# ---- consumers ----------------------------------------------------------------------------

def use(n):
    t = 0
    for x in fib_gen(n):
        if x > 100:
            break
        t += x
    return t


def use2(xs):
    return list(evens(xs)), sum(evens(xs)), max(evens(xs)), sorted(evens(xs))


def pal(s):
    s = ''.join(c.lower() for c in s if c.isalnum())
    return s == s[::-1]


def misc(xs):
    st = set(x % 3 for x in xs)
    d = dict((x, x * x) for x in xs)
    return st, d, [y for y in (x + 1 for x in xs)]


def for_else(xs, stop):
    out = []
    for x in evens(xs):
        if x == stop:
            out.append(-100)
            break
        if x < 0:
            continue
        out.append(x)
    else:
        out.append(999)
    return out


def for_else_while(n, stop):
    out = []
    for x in upto(n):
        if x == stop:
            break
        out.append(x)
    else:
        out.append(-1)
    return out


def infinite(n):
    t = 0
    for k in naturals():
        if k >= n:
            break
        t += k
    return t


def return_inside(xs, stop):
    for x in evens(xs):
        if x == stop:
            return x * 10
    return -1


def nested_consumers(xs):
    total = 0
    for i, j in pairs(xs):
        for e in evens(xs):
            total += e * (i + 1) - j
    return total


def twice(xs):
    a = list(evens(xs))
    b = [x for x in evens(xs) if x > 0]
    return a, b, sum(evens(xs)) + sum(fib_gen(len(xs)))


def inverse_sum(xs):
    t = 0
    for v in checked_inverse(xs):
        t += v
    return t


def inverse_prefix(xs, k):
    t = 0
    for v in checked_inverse(xs):       # stops before the raise when k is small
        if k <= 0:
            break
        k -= 1
        t += v
    return t


def consumer_raise_not_caught_by_generator(xs):
    out = []
    try:
        for v in guarded(xs):
            out.append(100 // v)        # raises in the consumer: guarded's except must not see it
    except ZeroDivisionError:
        out.append(12345)
    return out


def caught_in_consumer(xs):
    try:
        return sum(checked_inverse(xs))
    except ValueError:
        return -7


def interleaving(n, stop):
    log = []
    for x in logging_gen(n, log):
        log.append(100 + x)
        if x == stop:
            break
    return log


def zipped(xs, n):
    out = []
    for a, b in zip(fib_gen(n), evens(xs)):
        out.append(a * 1000 + b)
    return out


def zip_order(xs, n):
    log = []
    out = [a + b for a, b in zip(xs, logging_gen(n, log))]
    out2 = [a + b for a, b in zip(logging_gen(n, log), xs)]
    return out, out2, log


def zip_else(xs, n):
    t = 0
    for a, b in zip(upto(n), xs):
        t += a * b
    else:
        t += 1000
    return t


def enumerated(xs, start):
    out = []
    for i, e in enumerate(evens(xs), start):
        if i % 3 == 0:
            continue
        out.append(i * 100 + e)
    return out, list(enumerate(x * 2 for x in xs))


def yield_from(xs, n):
    return list(chained(xs, n)), list(doubled(xs))


def reductions(xs):
    return (min(evens(xs), default=-1), any(e > 4 for e in evens(xs)), all(e % 2 == 0 for e in evens(xs)),
            sum(x * 2 for x in evens(xs)), sorted((x for x in xs), reverse=True))


def sets_and_dicts(xs):
    s = set(evens(xs))
    d = dict((e, e + 1) for e in evens(xs))
    d2 = dict(enumerate(evens(xs)))
    return sorted(s), d, d2


def extend_and_comprehensions(xs, n):
    out = [0]
    out.extend(fib_gen(n))
    out.extend(x for x in xs if x > 0)
    sq = [y * y for y in evens(xs)]
    nested = [a + b for a in evens(xs) for b in fib_gen(3)]
    st = {e for e in evens(xs)}
    return out, sq, nested, sorted(st)


def defaults_and_keywords(xs):
    return list(with_defaults(xs)), list(with_defaults(xs, 2)), list(with_defaults(xs, scale=-1, offset=5))


def floats(n):
    t = 0.0
    for x in float_gen(n):
        t += x
    return t, max(float_gen(n), default=0.0)


def join_words(s):
    return "-".join(words(s)), "".join(w[0] for w in s.split() if w)


def script_generator(n):
    return sum(squares(n)), [s for s in squares(n) if s % 2 == 1]


def index_in_generator(xs, k):
    return list(bad_index(xs, k))


def lists_from_generator(n):
    t = 0
    for k in range(n):
        for row in ([k, j] for j in range(3)):
            t += row[0] + row[1] + len(row)
    return t


def shadowing(xs):
    x = 100                          # evens has an `x` of its own
    total = 0
    for e in evens(xs):
        total += e + x
    return total, x


# ---- unsupported forms (CompileErrors) ------------------------------------------------------

def stored(n):
    g = fib_gen(n)
    t = 0
    for x in g:
        t += x
    return t


def returned(n):
    return fib_gen(n)


def advanced(n):
    g = fib_gen(n)
    return next(g) + next(g)


def logged_naturals(log):
    i = 0
    while True:
        log.append(i)
        yield i
        i += 1


def sieve_gen():
    # the incremental sieve: an endless generator over a dict of lists
    d = {}
    q = 2
    while True:
        if q not in d:
            yield q
            d[q * q] = [q]
        else:
            for p in d[q]:
                d.setdefault(p + q, []).append(p)
            del d[q]
        q += 1


def sliced_endless(n, start, step):
    log = []
    a = list(itertools.islice(logged_naturals(log), start, n, step))
    b = list(itertools.islice(sieve_gen(), n))
    c = list(itertools.islice((x * x for x in range(30)), start, None))
    return a, log, b, c


def firsts(xs, t):
    log = []
    a = next(x for x in logged_naturals(log) if x * x > t)
    b = next((i for i, x in enumerate(xs) if x == t), None)
    c = next((x * 0.5 for x in xs if x > t), -1.0)
    d = next(x for x in xs if x < t)            # StopIteration when there is none
    return a, log, b, c, d


def genexpr_value(xs):
    g = (x for x in xs)
    return g


def tuple_of(xs):
    return tuple(x * 2 for x in xs)


def reversed_gen(xs):
    return list(reversed(evens(xs)))


def sender(n):
    total = 0
    for i in range(n):
        got = yield i
        total += got
    return total


def use_sender(n):
    return list(sender(n))


def rec_gen(n):
    if n > 0:
        yield from rec_gen(n - 1)
    yield n


def use_rec(n):
    t = 0
    for x in rec_gen(n):        # one item at a time: the recursion would have to be suspended
        t += x
    return t


def use_rec_list(n):
    return list(rec_gen(n)), sum(rec_gen(n)), sorted(x for x in rec_gen(n))


def in_finally(xs):
    try:
        for x in xs:
            yield x
    finally:
        pass


def use_finally(xs):
    return sum(in_finally(xs))


def typed_wrong(xs):
    for x in xs:
        yield x + exec("x")  # the error under test


def use_typed_wrong(xs):
    return list(typed_wrong(xs))


# ---- unpacking, `in` and unbound locals ----------------------------------------------------

def maybe_unbound(n):
    if n > 2:
        y = n * 2
    yield y                          # UnboundLocalError naming 'y' when n <= 2


def use_maybe_unbound(n):
    return list(maybe_unbound(n))


def unpack_and_contains(n):
    a, b = naturals()                # asks for three elements, then ValueError (infinite generator)
    return a, b


def unpack_star_and_contains(n):
    c, *rest = upto(n)
    return c, rest, n in naturals(), n not in (x * 2 for x in range(n)), 3 in evens([n, 3])


def int_then_float(n):
    yield n
    yield n + 0.5
    for k in range(n):
        yield k


def growing_rows(a):
    acc = []
    for i in range(3):
        acc.append(a * i)
        yield acc


def typed_per_yield(n):
    out = [0.0]
    for a in int_then_float(n):          # the body is built at each yield: `a` an int, then a float
        for row in growing_rows(a):      # inlined at each, typed on its own (a list of ints, of floats)
            out.append(len(row) + row[-1])
    return out


def row_churn(n):
    t = 0
    for k in range(n):
        for row in growing_rows(k):      # lists made in the generator, read by the consumer
            t += len(row) + row[-1]
        t += sum(len(r) for r in growing_rows(1))
    return t


def with_lambdas(xs, k):
    m = k + 1
    for x in sorted(xs, key=lambda v: -v * m):
        yield min(xs, key=lambda x: abs(x - m)) + x      # the lambda's x hides the generator's


def use_lambdas(xs, k):
    return list(with_lambdas(xs, k)), [y for y in with_lambdas(xs, -k)]


def stored_late_args(xs, n):
    xs = list(xs)
    g = with_defaults(xs, n)         # the arguments are taken here, as in CPython
    n = -100
    xs.append(7)                     # the same list, read when the loop runs the body
    out = []
    for v in g:
        out.append(v + n)
    return out


def stored_used_twice(n):
    g = fib_gen(n)
    a = list(g)
    for x in g:                      # (exhausted in CPython)
        a.append(x)
    return a


def sq(x):
    return x * x


def mapped(f, xs, g=abs):
    for x in xs:
        yield f(g(x))


def use_mapped(xs):
    return list(mapped(sq, xs)), sum(mapped(float, xs, g=sq)), [v for v in mapped(abs, xs, sq)]


def lambda_to_generator(xs):
    return list(mapped(lambda v: v + 1, xs))


def _first_over(xs, t):
    for x in xs:
        if x > t:
            return x
    raise StopIteration         # a helper's StopIteration, not the generator's own


def over_each(rows, t):
    for row in rows:
        yield _first_over(row, t)


def firsts_over(rows, t):
    """PEP 479: the helper's StopIteration leaves the generator as RuntimeError."""
    return [x for x in over_each(rows, t)]
