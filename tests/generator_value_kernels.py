"""Generators passed as values between compiled functions (generator_args.py): kernels
compiled by test_generator_values.py against CPython."""


def squares(n):
    for i in range(n):
        yield i * i


def counter(start):
    i = start
    while True:
        yield i
        i += 1


def noisy(n, log):
    for i in range(n):
        log.append(("gen", i))
        yield i


def failing(n, bad):
    for i in range(n):
        if i == bad:
            raise ValueError("bad item %d" % i)
        yield i


def doubled(it):
    for x in it:
        yield 2 * x


def pairs(it):
    it = iter(it)
    for a in it:
        b = next(it, None)
        if b is None:
            yield (a, -1)
            return
        yield (a, b)

# ---- helpers given a generator ------------------------------------------------------------


def total(it):
    t = 0
    for x in it:
        t += x
    return t


def consume(it, how):
    if how == 0:
        return sum(it)
    if how == 1:
        return max(it, default=-1)
    if how == 2:
        return len(list(it))
    if how == 3:
        s = sorted(it, reverse=True)
        return s[0] if s else -2
    if how == 4:
        return int(any(x > 5 for x in it))
    if how == 5:
        return int(all(it))
    if how == 6:
        return min(it, default=-3)
    return next(it, -7)


def first_then_rest(it):
    a = next(it)
    return a * 100 + sum(it)


def zipped(a, b):
    out = 0
    for i, (x, y) in enumerate(zip(a, b)):
        out += i * x - y
    return out


def first_over(it, limit):
    for x in it:
        if x > limit:
            return x
    return -1


def log_sum(it, log):
    t = 0
    for x in it:
        log.append(("use", x))
        t += x
    return t


def scaled(it, scale=2, *, bias=0):
    s = 0.0
    for x in it:
        s += x * scale
    if s > 10:
        return s + bias
    return int(s) + bias


def guarded(it):
    try:
        return sum(it)
    except ValueError as e:
        return -len(str(e))


def with_finally(it, log):
    try:
        for x in it:
            if x > 2:
                return x
    finally:
        log.append("fin")
    return -1


def iter_idiom(iterable):
    it = iter(iterable)
    first = next(it, 0)
    return first * 10 + sum(it)


def numbered(it):
    return [i * x for i, x in enumerate(it, 1)]


def passed_on(it):
    a = next(it, None)
    if a is None:
        return 0
    return a + total(it)


def grow_then_sum(it, xs):
    xs.append(100)
    return sum(it)


def ignores(it, k):
    if k > 100:
        return sum(it)
    return k

class Acc:
    def __init__(self, k):
        self.k = k
        self.seen = 0

    def add_all(self, it):
        for x in it:
            self.seen += 1
            self.k += x
        return self.k

    def weigh(self, it, extra=0):
        return sum(x * self.k for x in it) + extra

# ---- callers -----------------------------------------------------------------------------


def call_generator(n):
    return total(squares(n))


def call_expression(n):
    return total(x + 1 for x in range(n))


def partly_consumed(n):
    g = squares(n)
    next(g)
    return total(g)


def partly_in_callee(n):
    return first_then_rest(squares(n))


def consumers(n, how):
    return consume(squares(n), how), consume((x - 2 for x in range(n)), how)


def consumers_in_a_comprehension(n):
    return [consume((x - 2 for x in range(n)), h) for h in range(8)]


def zips(n):
    return zipped(squares(n), counter(n)) + zipped((x for x in range(5)), squares(n))


def zip_two_here(n):
    return [a * b for a, b in zip(squares(n), doubled(counter(2)))], list(zip(counter(1), squares(n), "abc"))


def break_leaves_it(n):
    log = []
    g = counter(n)
    r = with_finally(g, log)
    return r, log, next(g), first_over(counter(0), n)


def interleaved(n):
    log = []
    r = log_sum(noisy(n, log), log)
    return r, log


def keywords_defaults(n):
    return scaled(squares(n)), scaled((x for x in range(n)), 3, bias=1), scaled(it=squares(n), scale=0.5)


def raised_in_callee(n, bad):
    return guarded(failing(n, bad))


def raised_to_caller(n, bad):
    try:
        return total(failing(n, bad))
    except ValueError as e:
        return str(e)


def idioms(n):
    return iter_idiom(squares(n)), numbered(x * 2 for x in range(n)), passed_on(squares(n))


def resumed_by_both(n):
    g = squares(n)
    a = first_over(g, 3)
    b = total(g)
    return a, b, total(g), next(g, "done")


def in_a_loop(n):
    t = 0
    for k in range(n):
        t += total(squares(k)) + ignores(squares(k), k)
    return t


def methods(n):
    a = Acc(n)
    r = a.add_all(squares(n))
    return r, a.seen, a.add_all(x for x in range(3)), a.weigh(squares(n), extra=n)


def first_iterable_at_the_call(n):
    xs = list(range(n))
    a = grow_then_sum((x for x in range(len(xs))), xs)
    b = grow_then_sum((x for x in xs), xs)
    c = grow_then_sum((x * 2 for x in xs[:]), xs)
    return a, b, c


def generators_given_generators(n):
    g = doubled(squares(n))
    first = next(g, -5)
    return (sum(doubled(squares(n))), total(doubled(doubled(x + 1 for x in range(n)))),
            [a * 1000 + b for a, b in pairs(squares(n))], first, list(g))


def held_iterators(n):
    it = iter(range(n))
    first = next(it, -1)
    rest = sum(it)
    xs = list(range(n, 2 * n))
    jt = iter(xs)
    return first, rest, next(jt, -1), total(jt), iter_idiom(iter([n, 2, 3]))


def range_iterator_exhausted(n):
    it = iter(range(n))
    first = next(it)
    return first + sum(it)

# ---- refused: CompileErrors at the line ---------------------------------------------------


def recursive(it, k):
    if k == 0:
        return sum(it)
    return recursive(it, k - 1)


def keep(it):
    return [it]


def sender(it):
    return it.send(None)


def use_recursive(n):
    return recursive(squares(n), 2)


def use_keep(n):
    return len(keep(squares(n)))


def use_sender(n):
    return sender(squares(n))


def escapes(n):
    return squares(n)
