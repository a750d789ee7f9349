"""Nested functions and lambdas held as values (test_closure_values.py)."""


def apply(f, x):
    return f(x)


def assigned(n):
    def add(x):
        return x + n
    g = add
    return g(3) + g(4)


def list_of_lambdas(n):
    fs = [lambda x: x + 1, lambda x: x * 2, lambda x: x - n]
    t = 0
    for f in fs:
        t += f(n)
    return t


def indexed(n, i):
    fs = [lambda x: x + 1, lambda x: x * 2, lambda x: x - n]
    return fs[i](n)                 # IndexError as in CPython for i out of range


def mixed_defs_and_lambdas(n):
    k = 3

    def triple(x):
        return x * k
    fs = (triple, lambda x: x + k, abs_of)
    out = []
    for f in fs:
        out.append(f(n))
    k = 10                          # the cells' new value: later calls see it
    out.append(fs[0](n))
    return out


def abs_of(x):
    return -x if x < 0 else x


def dispatch(a, b, op):
    ops = {'+': lambda a, b: a + b, '-': lambda a, b: a - b, '*': lambda a, b: a * b}
    total = 0
    for name in ops:
        total += ops[name](a, b)
    return total, ops[op](a, b)     # KeyError as in CPython for an unknown op


def dispatch_defs(a, b, op):
    def add(x, y):
        return x + y

    def sub(x, y):
        return x - y
    table = {}
    table['add'] = add
    table['sub'] = sub
    f = table[op]
    return f(a, b) + len(table)


def key_held(xs, rev):
    key = (lambda v: -v) if rev else (lambda v: v % 5)
    by = key
    return sorted(xs, key=by), min(xs, key=by), max(xs, key=by)


def key_from_list(xs, i):
    keys = [lambda v: v, lambda v: -v, lambda v: (v % 3, v)]
    k = keys[i]
    return sorted(xs, key=k)


def nonlocal_through_value(n):
    count = 0

    def bump(d):
        nonlocal count
        count += d
        return count
    f = bump
    fs = [bump, bump]
    for i in range(n):
        f(i)
        fs[i % 2](1)
    return count


def late_binding(n):
    fs = []
    for i in range(n):
        fs.append(lambda x: x + i)
    return [f(10) for f in fs]


def passed_known(n):
    k = 3

    def scale(x):
        return x * k
    g = scale
    h = lambda x: x - k       # noqa: E731
    hh = h
    return apply(g, n) + apply(hh, n)


def chosen(n, flag):
    g = (lambda x: x + 1) if flag else (lambda x: x - 1)
    fs = [g]
    fs.append(lambda x: x * n)
    return [f(n) for f in fs]


def raising(n):
    fs = [lambda x: 10 // x, lambda x: x]
    return fs[0](n) + fs[1](n)


def make_adder(k):
    return lambda x: x + k


def make_scaler(k, up):
    def mul(x):
        return x * k

    return mul if up else (lambda x: x - k)


def factories(n):
    add5 = make_adder(5)
    adders = [make_adder(i) for i in range(n)]
    scale = make_scaler(n, n % 2 == 0)
    return add5(n), [a(10) for a in adders], scale(3), apply(add5, 1)


def float_factories(x):
    f = make_adder(x)
    g = make_adder(1)
    return f(1.5) + g(2)


def passes_record(n):
    return twice(make_adder(n), 1)


def twice(f, x):
    return f(f(x))


def returned_nested(n):
    def g(x):
        def h(y):
            return y + x
        return h
    return g(n)(1) + g(2)(n)


def not_yet_assigned(n):
    fs = [lambda x: y]
    r = [lambda x: x + 1][0](n)     # (a call before `y` is assigned: that lambda is not called)
    if n > 1:
        y = 3
    return r + fs[0](0)             # NameError where CPython raises it


def table_get(n, k):
    ops = {'a': lambda x: x + 1, 'b': lambda x: x * 2}
    return ops.get(k, lambda x: -x)(n)


def rebound_in_loop(n):
    f = lambda x: x + 1       # noqa: E731
    out = []
    i = 0
    while i < n:
        out.append(f(i))
        f = (lambda x: x * 2) if i % 2 else (lambda x: x - 1)
        i += 1
    inc, dec = (lambda x: x + 1), (lambda x: x - 1)
    return out, inc(n) + dec(n) * 10, [(i, g(n)) for i, g in enumerate([inc, dec][::-1] * 2)]


def reduced(n):
    import functools
    f = lambda a, b: a * 10 + b      # noqa: E731
    g = f
    return functools.reduce(g, [1, 2, 3], n), list(map(g, [1, 2], [3, 4]))


def comprehension_without_its_variable(n):
    k = 3
    fs = [lambda x: x * k for _ in range(n)]
    k = 4
    return [f(1) for f in fs]


def in_generator(n):
    def gen():
        k = 2
        fs = [lambda x: x * k]
        for i in range(n):
            yield fs[0](i)
            k += 1
    return list(gen())


def stored_by_key(n):
    d = {}
    d[1] = lambda x: x + n
    d[2] = lambda x: x * n
    fs = [d[1], d[1]]
    fs[0] = d[2]
    return sum(v(3) for v in d.values()), [k for k in d], [f(1) for f in fs], (lambda y: y - n)(10)


def make_kind(kind, k):
    if kind == "add":
        return lambda x: x + k
    return lambda x: x * k


def records_of_two_specializations(n):
    g = make_kind("add", 2)
    out = []
    for i in range(n):
        out.append(g(10))
        g = make_kind("mul", 3)     # another specialization: its own record type
    return out


def rebound_lambda_passed(n):
    out = []
    g = lambda x: x + 1       # noqa: E731
    for i in range(3):
        out.append(apply(g, n))
        g = lambda x: x * n   # noqa: E731  (bound again in the loop: a function value)
    if n > 0:
        h = lambda x: x + 1   # noqa: E731
    else:
        h = lambda x: x * 2   # noqa: E731
    return out, [h(n), apply(h, n)]


def rebound_in_order(n):
    def g(x):
        return x + 1
    a = apply(g, n)

    def g(x):                  # noqa: F811  (bound again in the body's own statements: in order)
        return x * 2
    return a, apply(g, n), g(n)
