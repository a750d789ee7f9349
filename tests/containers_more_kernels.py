"""Kernels for tests/test_containers_more.py: lists whose elements may be None, dict values
that are dicts, sets or lists of lists, defaultdicts of tables, and container annotations in
typing's spellings. Plain Python: the tests run each in CPython and compiled."""

import collections.abc
import heapq
from collections import Counter, defaultdict, deque
from typing import DefaultDict, Deque, Dict, FrozenSet, List, Optional, Sequence, Set, Tuple, Union


# ---- lists whose elements may be None -------------------------------------------------------

def sum_present(n):
    xs = [None] * n
    for i in range(0, n, 2):
        xs[i] = i
    return sum(x for x in xs if x is not None)


def fib_memo(n):
    dp = [None] * (n + 1)
    dp[0] = 0
    if n > 0:
        dp[1] = 1
    for i in range(2, n + 1):
        dp[i] = dp[i - 1] + dp[i - 2]
    return dp[n]


def slots_result(n, k):
    slots = [None for _ in range(n)]
    for i in range(0, n, max(k, 1)):
        slots[i] = i * 1.5
    return slots


def count_none(xs):
    c = 0
    for x in xs:
        if x is None:
            c += 1
    return c


def fill_gaps(xs):
    out = []
    last = 0
    for x in xs:
        if x is None:
            out.append(last)
        else:
            last = x
            out.append(x)
    return out




def first_seen(words):
    pos = [None] * 26
    for i, w in enumerate(words):
        c = ord(w[0]) - ord("a")
        if 0 <= c < 26 and pos[c] is None:
            pos[c] = i
    return pos


def coin_change_memo(coins, amount):
    memo = [None] * (amount + 1)
    memo[0] = 0
    for a in range(1, amount + 1):
        best = None
        for c in coins:
            if c <= a and memo[a - c] is not None:
                cand = memo[a - c] + 1
                if best is None or cand < best:
                    best = cand
        memo[a] = best
    r = memo[amount]
    return -1 if r is None else r


def unwrap_all(xs):
    return [x + 1 for x in xs]              # a None raises CPython's TypeError


def optional_names(n):
    names = [None] * n
    for i in range(0, n, 3):
        names[i] = "n" + str(i)
    return [s.upper() for s in names if s is not None]


def append_none(n):
    xs = []
    for i in range(n):
        xs.append(None if i % 2 else i)
    return xs


def optional_pairs(xs):
    best = [None] * 3
    for x in xs:
        k = x % 3
        cur = best[k]
        if cur is None or x > cur:
            best[k] = x
    return best


def optional_tuples(pairs):
    total = 0.0
    for a, b in pairs:
        if a is not None:
            total += a
        if b is not None:
            total += b * 2
    return total


# ---- dict values that are dicts, sets, lists of lists ---------------------------------------

def nested_setdefault(n):
    d = {}
    for i in range(n):
        d.setdefault(i % 3, {})[i] = i * i
    return sum(sum(v.values()) for v in d.values())


def dict_of_sets(n: int) -> int:
    g: Dict[int, set] = {}
    for i in range(n):
        g.setdefault(i % 5, set()).add(i)
    return sum(len(v) for v in g.values())


def undirected(edges):
    adj = defaultdict(set)
    for a, b in edges:
        adj[a].add(b)
        adj[b].add(a)
    return {k: sorted(v) for k, v in adj.items()}


def bfs_dist(edges, start):
    adj: Dict[int, Set[int]] = defaultdict(set)
    for a, b in edges:
        adj[a].add(b)
        adj[b].add(a)
    dist = {start: 0}
    q = deque([start])
    while q:
        u = q.popleft()
        for v in sorted(adj[u]):
            if v not in dist:
                dist[v] = dist[u] + 1
                q.append(v)
    return dist


def connected_components(n, edges):
    adj = {i: set() for i in range(n)}
    for a, b in edges:
        adj[a % n].add(b % n)
        adj[b % n].add(a % n)
    seen = set()
    sizes = []
    for s in range(n):
        if s in seen:
            continue
        stack = [s]
        seen.add(s)
        size = 0
        while stack:
            u = stack.pop()
            size += 1
            for v in adj[u]:
                if v not in seen:
                    seen.add(v)
                    stack.append(v)
        sizes.append(size)
    return sorted(sizes)


def bigram_counts(words):
    counts = defaultdict(lambda: defaultdict(int))
    for a, b in zip(words, words[1:]):
        counts[a][b] += 1
    return {k: dict(v) for k, v in counts.items()}


def counter_of_counters(words):
    c = defaultdict(Counter)
    for w in words:
        c[len(w)][w[0]] += 1
    return {k: v.most_common(1)[0] for k, v in c.items()}


def two_level(pairs):
    counts = {}
    for a, b in pairs:
        if a not in counts:
            counts[a] = {}
        counts[a][b] = counts[a].get(b, 0) + 1
    return counts


def sparse_matmul(a, b):
    # sparse matrices as dicts of dicts: row -> col -> value
    out = {}
    for i, row in a.items():
        for k, x in row.items():
            if k in b:
                for j, y in b[k].items():
                    r = out.setdefault(i, {})
                    r[j] = r.get(j, 0.0) + x * y
    return out


def sparse_from_triples(triples):
    m = defaultdict(dict)
    for i, j, v in triples:
        m[i][j] = v
    return m


def inverted_index(docs):
    index: Dict[str, Set[int]] = {}
    for i, doc in enumerate(docs):
        for w in doc.split():
            index.setdefault(w, set()).add(i)
    return {w: sorted(ids) for w, ids in index.items()}


def search_all(docs, query):
    index = defaultdict(set)
    for i, doc in enumerate(docs):
        for w in doc.split():
            index[w].add(i)
    words = query.split()
    if not words:
        return []
    result = set(index[words[0]])
    for w in words[1:]:
        result &= index[w]
    return sorted(result)


def group_pairs(items):
    groups = defaultdict(list)
    for name, score in items:
        groups[name[0]].append((name, score))
    return {k: sorted(v) for k, v in groups.items()}


def grid_by_row(points):
    rows = {}
    for x, y in points:
        rows.setdefault(y, []).append([x, y])
    return rows


def nested_lookup(d, a, b):
    return d[a][b]                  # KeyError from either level


def nested_in(d, a, b):
    return a in d and b in d[a]


def total_nested(d):
    t = 0
    for k, inner in d.items():
        for j in inner:
            t += inner[j] * (k + 1)
    return t


def set_values_arg(g, u):
    return sorted(g[u]) if u in g else []


def degree_table(adj):
    return {u: len(vs) for u, vs in adj.items()}


def topo_sets(deps):
    indeg = {u: 0 for u in deps}
    users = defaultdict(set)
    for u, vs in deps.items():
        for v in vs:
            indeg.setdefault(v, 0)
            users[v].add(u)
            indeg[u] += 1
    ready = sorted(u for u, d in indeg.items() if d == 0)
    order = []
    while ready:
        u = ready.pop(0)
        order.append(u)
        for w in sorted(users[u]):
            indeg[w] -= 1
            if indeg[w] == 0:
                ready.append(w)
    return order


def list_of_dicts(n):
    rows = [{} for _ in range(n)]
    for i in range(n * 2):
        rows[i % n][i] = i
    return [sorted(r) for r in rows]


def list_of_sets(words):
    by_len = [set() for _ in range(5)]
    for w in words:
        by_len[min(len(w), 4)].add(w)
    return [len(s) for s in by_len]


def matrix_rows(n):
    table = {}
    for i in range(n):
        table[i] = [[i * j for j in range(3)] for _ in range(2)]
    return table


# ---- annotations -----------------------------------------------------------------------------

def ann_typing(xs: List[int], bonus: Optional[int] = None) -> int:
    return sum(xs) + (bonus or 0)


def ann_optional_list(xs: list[int] | None) -> int:
    if xs is None:
        return -1
    return len(xs)


def ann_sequence(xs: collections.abc.Sequence[float]) -> float:
    return sum(xs)


def ann_iterable(xs: collections.abc.Iterable) -> int:
    return sum(1 for _ in xs)


def ann_mapping(d: collections.abc.Mapping[str, int], k: str) -> int:
    return d.get(k, 0)


def ann_ellipsis(t: tuple[int, ...]) -> int:
    return sum(t) + len(t)


def ann_bare(xs: list, d: dict) -> int:
    s: set = set()
    for x in xs:
        s.add(x)
    out: list = []
    for k in d:
        out.append(k)
    return len(s) + len(out)


def ann_typing_locals(words: Sequence[str]) -> int:
    by_first: DefaultDict[str, List[str]] = defaultdict(list)
    q: Deque[int] = deque()
    seen: FrozenSet[str] = frozenset(words)
    pairs: List[Tuple[str, int]] = []
    for w in words:
        by_first[w[0]].append(w)
        q.append(len(w))
        pairs.append((w, len(w)))
    return len(by_first) + sum(q) + len(seen) + len(pairs)


def ann_union(x: Union[int, None], xs: Dict[str, list]) -> int:
    return (x if x is not None else 0) + sum(len(v) for v in xs.values())


def ann_return_open(n: int) -> Dict[int, set]:
    out = {}
    for i in range(n):
        out.setdefault(i % 2, set()).add(i)
    return out


def ann_optional_elements(xs: List[Optional[int]]) -> List[Optional[int]]:
    return [None if x is None else x * 2 for x in xs]


# ---- more shapes: None values in dicts, two empty containers meeting, graphs ----------------

def dijkstra(edges, src):
    graph: Dict[int, List[Tuple[int, float]]] = defaultdict(list)
    for a, b, w in edges:
        graph[a].append((b, w))
    dist = {src: 0.0}
    pq = [(0.0, src)]
    while pq:
        d, u = heapq.heappop(pq)
        if d > dist.get(u, float("inf")):
            continue
        for v, w in graph[u]:
            nd = d + w
            if nd < dist.get(v, float("inf")):
                dist[v] = nd
                heapq.heappush(pq, (nd, v))
    return dist


def lcs_memo(a, b):
    memo = [[None] * (len(b) + 1) for _ in range(len(a) + 1)]
    def go(i, j):
        if i == len(a) or j == len(b):
            return 0
        if memo[i][j] is not None:
            return memo[i][j]
        if a[i] == b[j]:
            r = 1 + go(i + 1, j + 1)
        else:
            r = max(go(i + 1, j), go(i, j + 1))
        memo[i][j] = r
        return r
    return go(0, 0)


def dict_none_values(keys):
    d = {}
    for k in keys:
        d[k] = None
    return list(d)


def fromkeys_value(xs):
    return dict.fromkeys(xs)


def parent_pointers(n, edges):
    parent = [None] * n
    parent[0] = -1
    q = deque([0])
    adj = defaultdict(list)
    for a, b in edges:
        adj[a].append(b)
        adj[b].append(a)
    while q:
        u = q.popleft()
        for v in adj[u]:
            if parent[v] is None:
                parent[v] = u
                q.append(v)
    return parent


def graph_degree_dd(edges):
    g = defaultdict(lambda: defaultdict(int))
    for a, b in edges:
        g[a][b] += 1
        g[b][a] += 1
    return sorted((k, sum(v.values())) for k, v in g.items())


def cooccurrence(sentences):
    co = defaultdict(Counter)
    for s in sentences:
        ws = s.split()
        for i, w in enumerate(ws):
            for x in ws[i + 1:]:
                co[w][x] += 1
    return {w: dict(c) for w, c in co.items()}


def opt_max(xs):
    best: Optional[int] = None
    for x in xs:
        if best is None or x > best:
            best = x
    return best


def nested_get(d, a, b):
    return d.get(a, {}).get(b, -1)


def set_of_dict_keys(d):
    s = set()
    for k, inner in d.items():
        s |= set(inner)
    return sorted(s)


def sets_in_list(n):
    buckets = [set() for _ in range(3)]
    for i in range(n):
        buckets[i % 3].add(i // 2)
    return [sorted(b) for b in buckets]


def opt_list_sum(xs: List[Optional[float]]) -> float:
    return sum(x for x in xs if x is not None)


def dict_of_lists_of_sets(words):
    d = defaultdict(list)
    for w in words:
        d[len(w)].append(set(w))
    return {k: [len(s) for s in v] for k, v in d.items()}


def dict_opt_values(xs):
    d = {}
    for i, x in enumerate(xs):
        d[i] = x if x > 0 else None
    return d


def last_index(xs):
    last = {}
    for i, x in enumerate(xs):
        last[x] = i
    res = [None] * len(xs)
    for i, x in enumerate(xs):
        if last[x] != i:
            res[i] = last[x]
    return res


def two_lists(words):      # two [] nodes meet as one dict's values
    d = {}
    for w in words:
        if w[0] == "a":
            d[w] = []
        else:
            d.setdefault(w[0], []).append(w)
    return d

def two_dicts(words):
    d = {}
    for w in words:
        if w[0] == "a":
            d[w] = {}
        else:
            d.setdefault(w[0], {})[w] = 1
    return d


def trie(words):
    root = {}
    for w in words:
        node = root
        for c in w:
            node = node.setdefault(c, {})
    return len(root)


# ---- tuples of run-time length: zip(*m) columns, tuple(xs) ---------------------------------

def transpose(m):
    return list(zip(*m))


def column_checks(m):
    return [c == (1, 3) for c in zip(*m)], [c == [1, 3] for c in zip(*m)], [list(c) for c in zip(*m)]


def chunks(s, xs):
    """`zip(*[iter(xs)] * n)`: tuples of n items (base32.py of TheAlgorithms cuts bits so)."""
    return (["".join(t) for t in zip(*[iter(s)] * 5)], list(zip(*2 * [iter(xs)])),
            [a * b for a, b, _ in zip(*[iter(xs)] * 3)], list(zip(*[iter(xs)] * 0)))


def version_compare(a, b):
    va = tuple(int(p) for p in a.split("."))
    vb = tuple(int(p) for p in b.split("."))
    return (va > vb) - (va < vb), va, vb


def frozen_copy(xs):
    ys = list(xs)
    t = tuple(ys)
    ys.append(0)                    # (the tuple is a copy)
    return t, len(t), t[-1] if t else -1, t[1:], tuple(sorted(ys)) > t


def unzip_pairs(pairs):
    xs, ys = zip(*pairs)
    return xs, ys, sum(xs)


def tuple_ops(xs):
    t = tuple(xs)
    u = t
    t += (9,)
    return t, u, t + u, t * 2, t[::-1], 9 in t, t.index(9), t.count(9), sorted(t)


def tuple_at_bool(n, flag):
    # a bool is an int index: `("no", "yes")[flag]`, `(k, 26 - k)[decode]`
    return ("no", "yes")[flag], (n, 26 - n)[n < 10], (1, 2.5)[n > 0], ("x",)[False], (n, -n)[True]
