"""Kernels for tests/test_callee_typed.py: empty containers whose types a callee decides
(script/frontend/callee_hints.py), each run compiled and in CPython."""

import script


def edit_distance(a, b):
    memo = {}

    def d(i, j):
        if (i, j) in memo:
            return memo[(i, j)]
        if i == len(a):
            r = len(b) - j
        elif j == len(b):
            r = len(a) - i
        elif a[i] == b[j]:
            r = d(i + 1, j + 1)
        else:
            r = 1 + min(d(i + 1, j), d(i, j + 1), d(i + 1, j + 1))
        memo[(i, j)] = r
        return r
    return d(0, 0)


def walk_prob(n, p):
    """A memo of floats keyed by tuples, read (and guessed ints) before its first store."""
    memo = {}

    def q(i, j):
        if (i, j) in memo:
            return memo[(i, j)]
        if i == 0 or j == 0:
            r = 1.0 if i == 0 else 0.0
        else:
            r = p * q(i - 1, j) + (1 - p) * q(i, j - 1)
        memo[(i, j)] = r
        return r
    return q(n, n), len(memo)


def dfs(u, graph, seen, order):
    seen.add(u)
    for v in graph[u]:
        if v not in seen:
            dfs(v, graph, seen, order)
    order.append(str(u))


def topo(edges: list[tuple[int, int]], n: int):
    graph = {}
    for u in range(n):
        graph[u] = [0][:0]
    for a, b in edges:
        graph[a].append(b)
    seen = set()
    order = []
    for u in graph:
        if u not in seen:
            dfs(u, graph, seen, order)
    return order


def group(words: list[str]):
    groups = {}

    def add(w):
        groups.setdefault(len(w), []).append(w)
    for w in words:
        add(w)
    return groups


def add_edge(g, a, b):
    g.setdefault(a, []).append(b)
    g.setdefault(b, []).append(a)


def adjacency(edges: list[tuple[int, int]]):
    """A dict of lists filled by a module-level helper."""
    g = {}
    for a, b in edges:
        add_edge(g, a, b)
    return g


def bucket(d, k, v):
    if k not in d:          # a read before the store: values guessed, then replaced
        d[k] = []
    d[k].append(v)


def buckets(xs: list[int]):
    d = {}
    for x in xs:
        bucket(d, x % 3, x * 0.5)
    return d


def halves(out, n):
    for i in range(n):
        out.append(i * 0.5)


def floats(n):
    xs = []
    halves(xs, n)
    return xs


def put_pair(x, v):
    x.append((v, str(v)))


def put_via(x, v):
    put_pair(x, v)


def put_all(x, n):
    for i in range(n):
        put_via(x, i)


def pairs(n):
    """Three calls deep before the first store."""
    acc = []
    put_all(acc, n)
    return acc


def upper_set(words: list[str]):
    s = set()

    def add(w):
        s.add(w.upper())
    for w in words:
        add(w)
    return sorted(s)


def triangle(n):
    """A list of lists: the callee's own `[]` stored into the caller's list."""
    out = []

    def row(i):
        r = []
        for j in range(i):
            r.append(j * j)
        out.append(r)
    for i in range(n):
        row(i)
    return out


def sizes(n, acc):
    """A recursive callee passing its own empty list to itself."""
    if n > 0:
        sub = []
        sizes(n - 1, sub)
        acc.append(len(sub) + n)


def nested_sizes(n):
    acc = []
    sizes(n, acc)
    return acc


def length(xs):
    return len(xs)


def only_read(n):
    """Only read by the callee: a list of ints, as today."""
    xs = []
    k = length(xs)
    for i in range(n):
        xs.append(i)
    return xs, k


def untouched(n):
    a = []
    b = {}

    def f(x, y):
        return n + len(x) + len(y)
    return f(a, b), a, b


def take(xs):
    return xs.pop()


def pop_empty(n):
    xs = []
    if n > 0:
        return take(xs)
    return n


def scale(out: list[float], n: int):
    for i in range(n):
        out.append(i * 0.5)


def annotated(n):
    xs = []
    scale(xs, n)
    return xs


def scale_ints(out: list[float], n: int):
    for i in range(n):
        out.append(i)


def annotated_given_ints(n):
    xs = []
    scale_ints(xs, n)
    return xs


@script.script
def collect_words(text: str, out):
    for w in text.split():
        out.append(w)


def script_callee(text):
    """A `@script` callee filling the caller's list."""
    out = []
    collect_words(text, out)
    return out


def two_sites(n):
    """One helper, two containers at two call sites."""
    a = []
    b = []
    halves(a, n)
    halves(b, n + 1)
    return a, b


def raising_helper(xs, k):
    for x in xs:
        k.append(10 // x)


def raising(xs: list[int]):
    out = []
    raising_helper(xs, out)
    return out


def weigh(c, w, x):
    c[w] = c.get(w, 0) + x


def weights(words: list[str], x: float):
    """The callee's `get` types the values as ints, its store widens them to floats."""
    c = {}
    for w in words:
        weigh(c, w, x)
    return c


def extend_both(a, s, n):
    a.extend([str(i) for i in range(n)])
    s.update([i * 0.5 for i in range(n)])


def extended(n):
    a = []
    s = set()
    extend_both(a, s, n)
    return a, sorted(s)


def same(xs, d):
    return xs, d


def returned_through(n):
    """A callee returning the caller's containers untouched: the stores after it type them."""
    a = []
    d = {}
    b, e = same(a, d)
    b.append(str(n))
    e[n] = n * 0.5
    return a, d
