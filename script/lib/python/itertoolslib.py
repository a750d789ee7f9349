"""`itertools.product`, `combinations`, `combinations_with_replacement` and `permutations`,
`map`, `filter`, `functools.reduce` and `itertools.accumulate`, written in the compiled subset.

A tuple's length is part of its type: for a constant length `r` (or number of iterables of
`product`) up to 4 each length has its own routine below, chosen when the call is compiled
(builtins_lowering.lower_itertools); a length known only at run time (`permutations(s)`,
`combinations(xs, k)`, `product(xs, repeat=n)`) gives tuples of one element type whose length
is a run-time value (`*_n`). Each builds the list of tuples CPython's
iterator yields, in its order; a loop over the call walks that list (the list is built first,
not lazily: its size is the number of tuples).
"""


def combinations1(seq):
    xs = list(seq)
    return [(x,) for x in xs]


def combinations2(seq):
    xs = list(seq)
    n = len(xs)
    return [(xs[i], xs[j]) for i in range(n) for j in range(i + 1, n)]


def combinations3(seq):
    xs = list(seq)
    n = len(xs)
    return [(xs[i], xs[j], xs[k]) for i in range(n) for j in range(i + 1, n) for k in range(j + 1, n)]


def combinations4(seq):
    xs = list(seq)
    n = len(xs)
    return [(xs[i], xs[j], xs[k], xs[m]) for i in range(n) for j in range(i + 1, n)
            for k in range(j + 1, n) for m in range(k + 1, n)]


def replacement1(seq):
    return combinations1(seq)


def replacement2(seq):
    xs = list(seq)
    n = len(xs)
    return [(xs[i], xs[j]) for i in range(n) for j in range(i, n)]


def replacement3(seq):
    xs = list(seq)
    n = len(xs)
    return [(xs[i], xs[j], xs[k]) for i in range(n) for j in range(i, n) for k in range(j, n)]


def replacement4(seq):
    xs = list(seq)
    n = len(xs)
    return [(xs[i], xs[j], xs[k], xs[m]) for i in range(n) for j in range(i, n)
            for k in range(j, n) for m in range(k, n)]


def permutations1(seq):
    return combinations1(seq)


def permutations2(seq):
    xs = list(seq)
    n = len(xs)
    return [(xs[i], xs[j]) for i in range(n) for j in range(n) if j != i]


def permutations3(seq):
    xs = list(seq)
    n = len(xs)
    return [(xs[i], xs[j], xs[k]) for i in range(n) for j in range(n) if j != i
            for k in range(n) if k != i and k != j]


def permutations4(seq):
    xs = list(seq)
    n = len(xs)
    return [(xs[i], xs[j], xs[k], xs[m]) for i in range(n) for j in range(n) if j != i
            for k in range(n) if k != i and k != j
            for m in range(n) if m != i and m != j and m != k]


def product1(a):
    return [(x,) for x in list(a)]


def product2(a, b):
    ys = list(b)
    return [(x, y) for x in list(a) for y in ys]


def product3(a, b, c):
    ys = list(b)
    zs = list(c)
    return [(x, y, z) for x in list(a) for y in ys for z in zs]


def product4(a, b, c, d):
    ys = list(b)
    zs = list(c)
    ws = list(d)
    return [(x, y, z, w) for x in list(a) for y in ys for z in zs for w in ws]


def empty_product():
    return [()]


# ---- lengths known only at run time: tuples of one element type (VarTupleType) -------------
# CPython's own algorithms (the itertools documentation's equivalents), so the order is its.

def combinations_n(seq, r: int):
    if r < 0:
        raise ValueError("r must be non-negative")
    pool = list(seq)
    n = len(pool)
    out = [tuple(pool[:r])]
    if r > n:
        return out[:0]
    indices = list(range(r))
    while True:
        i = r - 1
        while i >= 0 and indices[i] == i + n - r:
            i -= 1
        if i < 0:
            return out
        indices[i] += 1
        for j in range(i + 1, r):
            indices[j] = indices[j - 1] + 1
        out.append(tuple([pool[k] for k in indices]))


def replacement_n(seq, r: int):
    if r < 0:
        raise ValueError("r must be non-negative")
    pool = list(seq)
    n = len(pool)
    out = [tuple(pool[:0] + [pool[0] for _ in range(r)])] if n else [tuple(pool[:r])]
    if n == 0 and r > 0:
        return out[:0]
    indices = [0 for _ in range(r)]
    while True:
        i = r - 1
        while i >= 0 and indices[i] == n - 1:
            i -= 1
        if i < 0:
            return out
        v = indices[i] + 1
        for j in range(i, r):
            indices[j] = v
        out.append(tuple([pool[k] for k in indices]))


def permutations_n(seq, r: int, whole: bool):
    """`whole`: `r` is the length of `seq` (permutations(seq))."""
    if r < 0 and not whole:
        raise ValueError("r must be non-negative")
    pool = list(seq)
    n = len(pool)
    if whole:
        r = n
    out = [tuple(pool[:r])]
    if r > n:
        return out[:0]
    indices = list(range(n))
    cycles = list(range(n, n - r, -1))
    while n:
        i = r - 1
        while i >= 0:
            cycles[i] -= 1
            if cycles[i] == 0:
                first = indices[i]
                for k in range(i, n - 1):
                    indices[k] = indices[k + 1]
                indices[n - 1] = first
                cycles[i] = n - i
                i -= 1
            else:
                j = n - cycles[i]
                indices[i], indices[j] = indices[j], indices[i]
                out.append(tuple([pool[k] for k in indices[:r]]))
                break
        if i < 0:
            return out
    return out


def product_n(seq, repeat: int):
    if repeat < 0:
        raise ValueError("repeat argument cannot be negative")
    pool = list(seq)
    rows = [pool[:0]]
    for _ in range(repeat):
        rows = [row + [y] for row in rows for y in pool]
    return [tuple(row) for row in rows]


VARIABLE = {"combinations": combinations_n, "combinations_with_replacement": replacement_n,
            "permutations": permutations_n, "product": product_n}


ROUTINES = {"combinations": (combinations1, combinations2, combinations3, combinations4),
            "combinations_with_replacement": (replacement1, replacement2, replacement3, replacement4),
            "permutations": (permutations1, permutations2, permutations3, permutations4),
            "product": (product1, product2, product3, product4)}


# ---- map and filter (their iterables first: the function is bound when compiled) -------------

def map1(xs, f):
    return [f(x) for x in xs]


def map2(xs, ys, f):
    return [f(x, y) for x, y in zip(xs, ys)]


def map3(xs, ys, zs, f):
    return [f(x, y, z) for x, y, z in zip(xs, ys, zs)]


def filter_by(xs, f):
    return [x for x in xs if f(x)]


def filter_true(xs):
    return [x for x in xs if x]


def reduce_first(xs, f):
    if len(xs) == 0:
        raise TypeError("reduce() of empty iterable with no initial value")
    acc = xs[0]
    for i in range(1, len(xs)):
        acc = f(acc, xs[i])
    return acc


def reduce_from(xs, f, acc):
    for x in xs:
        acc = f(acc, x)
    return acc


def accumulate_sum(xs):
    out = []
    if len(xs) > 0:
        acc = xs[0]
        out.append(acc)
        for i in range(1, len(xs)):
            acc = acc + xs[i]
            out.append(acc)
    return out


def accumulate_by(xs, f):
    out = []
    if len(xs) > 0:
        acc = xs[0]
        out.append(acc)
        for i in range(1, len(xs)):
            acc = f(acc, xs[i])
            out.append(acc)
    return out


def accumulate_sum_from(xs, acc):
    out = [acc]
    for x in xs:
        acc = acc + x
        out.append(acc)
    return out


def accumulate_by_from(xs, f, acc):
    out = [acc]
    for x in xs:
        acc = f(acc, x)
        out.append(acc)
    return out


# ---- chain, pairwise, groupby, zip_longest, islice (itertools_calls.py) ----------------------

def concat(a, b):
    out = list(a)
    for x in b:
        out.append(x)
    return out


def chain_rows(rows):
    return [x for row in rows for x in row]


def pairwise(xs):
    return [(xs[i], xs[i + 1]) for i in range(len(xs) - 1)]


def groupby_self(xs):
    """groupby(xs): (key, the list of its run) for each run of equal elements."""
    return _runs(xs, xs)


def groupby_key(xs, f):
    """groupby(xs, key=f), calling f once for each element, as CPython does."""
    return _runs(xs, [f(x) for x in xs])


def _runs(xs, keys):
    """(keys[i], the run of xs where keys stay equal to it) for each run."""
    out = [(keys[0], xs[:0]) for _ in range(0)]
    i = 0
    n = len(xs)
    while i < n:
        k = keys[i]
        j = i + 1
        while j < n and keys[j] == k:
            j += 1
        out.append((k, xs[i:j]))
        i = j
    return out


def zip_longest2(a, b, fill):
    n = max(len(a), len(b))
    return [(a[i] if i < len(a) else fill, b[i] if i < len(b) else fill) for i in range(n)]


def zip_longest3(a, b, c, fill):
    n = max(len(a), len(b), len(c))
    return [(a[i] if i < len(a) else fill, b[i] if i < len(b) else fill, c[i] if i < len(c) else fill)
            for i in range(n)]


def islice_count(n: int, start: int, stop: int, step: int, to_end: bool) -> int:
    """How many items islice(it, start, stop, step) takes from an iterable of n; CPython's
    errors for bad bounds (to_end: a stop of None)."""
    if stop == -1 and not to_end:
        raise ValueError("Stop argument for islice() must be None or an integer: 0 <= x <= sys.maxsize.")
    if start < 0 or stop < -1 and not to_end:
        raise ValueError("Indices for islice() must be None or an integer: 0 <= x <= sys.maxsize.")
    if step < 1:
        raise ValueError("Step for islice() must be a positive integer or None.")
    end = n if to_end or stop > n else stop
    if end <= start:
        return 0
    return (end - start + step - 1) // step
