"""Functions using dicts and sets, run by CPython and compiled (tests/test_dicts.py)."""


def count(xs):
    counts = {}
    for x in xs:
        counts[x] = counts.get(x, 0) + 1
    return counts


def count_weighted(xs, w):
    totals = {}
    for x in xs:
        totals[x] = totals.get(x, 0) + w       # widens to float values when w is a float
    return totals


def fib_memo(n):
    memo = {0: 0, 1: 1}
    for i in range(2, n + 1):
        memo[i] = memo[i - 1] + memo[i - 2]
    return memo[n], len(memo)


def lookups(xs, k):
    d = {x: x * 3 for x in xs}
    return k in d, k not in d, d.get(k, -1), d.get(k) is None, len(d), bool(d)


def subscript(xs, k):
    d = {x: float(x) / 2 for x in xs}
    return d[k]


def tuple_keys(xs, ys, i, j):
    d = {}
    for a, b in zip(xs, ys):
        d[(a, b)] = d.get((a, b), 0) + a * b
    return d, d[(i, j)]


def float_keys(xs, k):
    d = {}
    for x in xs:
        d[x] = d.get(x, 0) + 1
    return d, d[k]


def bool_keys(xs):
    d = {}
    for x in xs:
        d[x] = d.get(x, 0) + 1
    return d, d[True]


def churn(n, step):
    """Many inserts and deletes: the table is rebuilt (deleted entries dropped) as it grows."""
    d = {}
    for i in range(n):
        d[i] = i * i
        if i % step == 0:
            del d[i // 2]
    total = 0
    for k in d:
        total += k
    return len(d), total, d


def delete_missing(xs, k):
    d = {x: 1 for x in xs}
    del d[k]
    return d


def pops(xs, k, default):
    d = {x: -x for x in xs}
    a = d.pop(k, default)
    b = d.setdefault(k + 1, 7)
    c = d.setdefault(k + 1, 8)
    return a, b, c, d


def pop_missing(xs, k):
    d = {x: -x for x in xs}
    return d.pop(k), d


def popitems(xs):
    d = {x: 2 * x for x in xs}
    out = []
    while d:
        out.append(d.popitem())
    return out, d.popitem()


def iterate(xs):
    d = {}
    for x in xs:
        d[x % 5] = x
    keys = [k for k in d]
    vals = [v for v in d.values()]
    items = list(d.items())
    s = 0
    for k, v in d.items():
        s += k * v
    return keys, vals, items, s, list(d), sorted(d.keys()), sum(d.values()), list(enumerate(d))


def mutate_while_iterating(n, grow):
    d = {i: i for i in range(n)}
    for k in d:
        if grow:
            d[k + n] = 1
        else:
            d[k] = k * 10          # changing values is fine
    return d


def delete_while_iterating(n):
    d = {i: i for i in range(n)}
    for k in d:
        del d[k]
    return d


def constructors(xs):
    a = dict()
    a[1] = 2.5
    b = dict(zip(xs, range(len(xs))))
    c = dict(b)
    c[-1] = -1
    e = dict([(x, x) for x in xs])
    f = {k: v for k, v in b.items() if k % 2 == 0}
    return a, b, c, e, f


def updates(xs, ys):
    a = {x: 1 for x in xs}
    b = {y: 2 for y in ys}
    c = a.copy()
    c.update(b)
    d = a | b
    a.clear()
    return a, c, d, c == d, a == b, c != b


def nested_values(n):
    d = {}
    for i in range(n):
        d[i % 4] = (i, float(i) * 0.5)
    best = d.get(2, (-1, -1.0))
    return d, best


def helper_add(d, k):
    d[k] = d.get(k, 0) + 1
    return len(d)


def passes_to_callee(xs):
    d = {}
    for x in xs:
        helper_add(d, x)
    return d


def reference_semantics(n):
    a = {}
    b = a
    for i in range(n):
        b[i] = i
    b[-1] = 0
    return a, len(a) == len(b)


def read_arg(d, k):
    total = 0.0
    for key, v in d.items():
        total += key * v
    return d.get(k, -1.0), k in d, len(d), total


def read_set_arg(s, k):
    return k in s, len(s), sum(s)


def return_arg(d):
    return d


def keys_to_list(d):
    return sorted(d)


def grow(n):
    d = {}
    for i in range(n):
        d[i * 7919 % 100003] = i
    s = 0
    for i in range(n):
        s += d[i * 7919 % 100003]
    return len(d), s


def empty_returned():
    return {}, set()


def dict_in_tuple(xs):
    d = {x: x + 0.5 for x in xs}
    return len(d), d


# ---- sets ----------------------------------------------------------------------------

def seen_before(xs):
    seen = set()
    dups = []
    for x in xs:
        if x in seen:
            dups.append(x)
        seen.add(x)
    return dups, len(seen), seen


def set_literals(xs, k):
    s = {1, 2, 3}
    t = {x % 4 for x in xs}
    u = set(xs)
    return k in s, k in t, len(u), s, t, u, set(), set([k, k])


def set_methods(xs, k):
    s = set(xs)
    s.discard(k)
    s.discard(k)
    t = s.copy()
    t.add(k)
    t.update([k + 1, k + 2])
    return s, t, s <= t, t >= s, s < t, s == t, t.issuperset(s), s.issubset(t), s.isdisjoint({k})


def set_remove(xs, k):
    s = set(xs)
    s.remove(k)
    return s


def set_pop(xs):
    s = set(xs)
    total = 0
    while s:
        total += s.pop()
    return total, s.pop()


def set_operators(xs, ys):
    a = set(xs)
    b = set(ys)
    return (sorted(a | b), sorted(a & b), sorted(a - b), sorted(a ^ b), a.union(ys), a.intersection(ys),
            a.difference(ys), a.symmetric_difference(b), a == b, a != b)


def tuple_set(xs, ys):
    s = set()
    for p in zip(xs, ys):
        s.add(p)
    return len(s), (0, 0) in s, s


def set_iteration(xs):
    s = set(xs)
    total = 0
    for x in s:
        total += x * x
    return total, sorted(s), sorted(x + 1 for x in s), max(s) if s else -1


def set_mutate_while_iterating(xs):
    s = set(xs)
    for x in s:
        s.add(x + 1000)
    return s


def float_set(xs, k):
    s = set(xs)
    return k in s, len(s), s


def unique_count(a):
    """A NumPy array's distinct values, through a set of floats."""
    s = set()
    for x in a:
        s.add(float(x))
    return len(s)


def in_place_operators(xs, ys):
    a = set(xs)
    b = a
    a |= set(ys)
    c = set(xs)
    c &= set(ys)
    e = set(xs)
    e -= set(ys)
    g = set(xs)
    g ^= set(ys)
    d = {x: 1 for x in xs}
    dd = d
    d |= {y: 2 for y in ys}
    return b, c, e, g, dd


def views_and_reductions(xs):
    d = {x: x * 1.5 for x in xs}
    s = set(d)
    d.update([(100, 1.0), (101, 2.0)])
    return min(d.values()), max(d.values()), max(s), min(d), 3 in d.keys(), sum(d.values()), s


def churn_tables(n):
    t = 0
    for i in range(n):
        d = {j: j * 2 for j in range(20)}
        s = set(d)
        s.add(i)
        t += len(s) + d[3]
        if i % 30 in d:
            del d[i % 30]
    return t


def many_tables(n):
    a = {}
    b = {}
    c = {}
    d = {}
    e = set()
    f = set()
    g = {}
    h = {}
    k = {}
    m = {}
    p = {}
    q = {}
    r = {}
    for i in range(n):
        a[i] = i
        b[i] = i * 0.5
        c[i] = (i, i)
        d[i] = True
        e.add(i)
        f.add(i * 1.5)
        g[i] = a[i]
        h[i] = 1
        k[i] = 2
        m[i] = 3
        p[i] = 4
        q[i] = 5
        r[-i] = 6
    return a, b, c, d, e, f, g, len(h) + len(k) + len(m) + len(p) + len(q) + len(r)


# ---- idioms from real code ------------------------------------------------------------

def top(xs):
    d = {}
    for x in xs:
        d[x] = d.get(x, 0) + 1
    best = sorted(d.items(), key=lambda kv: kv[1], reverse=True)
    return best[:2]

def enum_items(xs):
    d = {x: x * x for x in xs}
    out = []
    for i, (k, v) in enumerate(d.items()):
        out.append(i + k + v)
    return out, list(zip(d.keys(), d.values()))

def eq_empty(xs):
    d = {x: 1.5 for x in xs}
    e = {}
    return d == {}, e == {}, d != e, not d, bool(e)

def graph_bfs(n):
    adj = {}
    for i in range(n):
        adj[(i, (i * 7) % n)] = 1
    seen = {0}
    frontier = [0]
    while frontier:
        nxt = []
        for u in frontier:
            for v in range(n):
                if (u, v) in adj and v not in seen:
                    seen.add(v)
                    nxt.append(v)
        frontier = nxt
    return len(seen)

def two_sum(xs, target):
    pos = {}
    for i, x in enumerate(xs):
        if target - x in pos:
            return pos[target - x], i
        pos[x] = i
    return -1, -1

def lru(keys, cap):
    cache = {}
    hits = 0
    for k in keys:
        if k in cache:
            hits += 1
            v = cache.pop(k)
            cache[k] = v
        else:
            if len(cache) >= cap:
                oldest = -1
                for kk in cache:
                    oldest = kk
                    break
                del cache[oldest]
            cache[k] = k * 10
    return hits, list(cache)

def optional_get(xs, k):
    d = {x: (x, 0.5) for x in xs}
    r = d.get(k)
    if r is None:
        return (-1, -1.0)
    return r


# ---- module-level tables (copied when compiled, read-only) -------------------------------

PRIMES = {2, 3, 5, 7, 11, 13}
WEIGHTS = {(0, 1): 0.5, (1, 2): 1.5, (2, 0): -1.0}


def global_tables(a, b):
    return (a, b) in WEIGHTS, WEIGHTS.get((a, b), 0.0), a in PRIMES, len(PRIMES), sorted(WEIGHTS)


def global_written(k):
    PRIMES.add(k)


def argmax_key(xs):
    d = {x: -x * x + 3 * x for x in xs}
    return max(d, key=d.get), min(d.items(), key=lambda kv: kv[1])


def replay(codes, keys):
    """A random program of table operations: code k % 7 picks the operation on key keys[i]
    (a dict and a set side by side); the results and final tables are compared with CPython."""
    d = {}
    s = set()
    out = []
    for i in range(len(codes)):
        c = codes[i] % 7
        k = keys[i]
        if c == 0 or c == 1:
            d[k] = d.get(k, 0) + i
            s.add(k)
        elif c == 2:
            out.append(d.pop(k, -1))
            s.discard(k)
        elif c == 3:
            out.append(d.setdefault(k, i))
        elif c == 4:
            if k in d:
                del d[k]
                s.remove(k)
        elif c == 5:
            out.append(len(d) * 1000 + len(s) + (1 if k in s else 0))
        elif d:
            kk, v = d.popitem()
            out.append(kk * 7 + v)
            s.discard(kk)
    total = 0
    for k, v in d.items():
        total = (total * 31 + k * 17 + v) % 1000003
    return out, d, sorted(s), total


def reset_tables(xs):
    # `d = {}` / `s = set()` again in a loop: one table type for both, from the first store
    d = {}
    s = set()
    sizes = []
    for x in xs:
        if x < 0:
            sizes.append((len(d), len(s)))
            d = {}
            s = set()
        d[x] = x * 0.5
        s.add(str(x))
    return sizes, d, sorted(s)


def shunting_yard(expr):
    # `ops[-1] in prec` reads the stack `[]` before the append below types it
    prec = {"+": 1, "-": 1, "*": 2, "/": 2}
    out, ops = [], []
    for tok in expr.split():
        if tok.isdigit():
            out.append(tok)
        elif tok in prec:
            while ops and ops[-1] in prec and prec[ops[-1]] >= prec[tok]:
                out.append(ops.pop())
            ops.append(tok)
        elif tok == "(":
            ops.append(tok)
        elif tok == ")":
            while ops and ops[-1] != "(":
                out.append(ops.pop())
            if ops:
                ops.pop()
    while ops:
        out.append(ops.pop())
    return " ".join(out)


ORDER = "etaoinshrdlu"
RANKS = {"a": 2, "b": 1}


def keyed_by_globals(words):
    """key= a bound method of a global str or dict (`key=ETAOIN.find`), and of a local."""
    letters = sorted(set("".join(words)), key=ORDER.find, reverse=True)
    ranked = sorted(words, key=RANKS.get) if all(w in RANKS for w in words) else []
    return letters, ranked, argmax_key([len(w) for w in words])


def two_sum(nums, target):
    seen = {}
    for i, x in enumerate(nums):
        if target - x in seen:
            return [seen[target - x], i]
        seen[x] = i
    return []


def repeated_pairs(nums):
    seen = {}
    out = []
    for i, x in enumerate(nums):
        if x in seen:
            out.append(({seen[x], i}, [seen[x]]))
        seen[x] = i
    return out
