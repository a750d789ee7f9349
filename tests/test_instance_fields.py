"""Instances passed from Python whose fields hold dicts, sets, NumPy arrays and nested lists
(frontend/instance_args.py, runtime/table_reflect.py): the caller's objects see every write,
as in CPython, aliases within one call behave as CPython's, and what cannot be kept exact is
a TypeError naming the field; against CPython."""

from __future__ import annotations

import copy

import numpy as np
import pytest

import script


def snapshot(x):
    """What CPython shows of an object graph: types, values, order, and which objects are
    shared (a mutable object met again is its first meeting's number)."""
    seen: dict = {}

    def walk(v):
        if isinstance(v, np.generic):       # (compiled code returns Python scalars: difftest)
            v = v.item()
        if v is None or isinstance(v, (bool, int, float, str)):
            return type(v).__name__, v
        if isinstance(v, tuple):
            return "tuple", [walk(e) for e in v]
        if id(v) in seen:
            return "seen", seen[id(v)]
        seen[id(v)] = len(seen)
        if isinstance(v, np.ndarray):
            return "ndarray", str(v.dtype), v.shape, v.tolist()
        if isinstance(v, list):
            return "list", [walk(e) for e in v]
        if isinstance(v, dict):
            return "dict", [(walk(k), walk(e)) for k, e in v.items()]
        if isinstance(v, set):
            return "set", [walk(e) for e in v]          # (iteration order too)
        return type(v).__name__, [(n, walk(e)) for n, e in vars(v).items()]

    return walk(x)


def outcome(fn, args):
    try:
        return "ok", snapshot(fn(*args))
    except Exception as e:  # noqa: BLE001 - every exception is part of the behaviour
        return "raise", type(e), str(e)


_COMPILED: dict = {}


def _compiled(fn):
    """One dispatcher per function for the whole file (each compile costs a few tenths of a second)."""
    if fn not in _COMPILED:
        _COMPILED[fn] = script.script(fn)
    return _COMPILED[fn]


def check(fn, *args, refs=lambda *a: ()):
    """`fn` compiled and in CPython, each on its own deep copy of `args`: the same result or exception, and the same objects after (also those
    `refs(*args)` took before)."""
    want_args, got_args = copy.deepcopy(args), copy.deepcopy(args)
    want_refs, got_refs = refs(*want_args), refs(*got_args)
    want = outcome(fn, want_args)
    got = outcome(_compiled(fn), got_args)
    assert got == want
    assert snapshot((got_args, got_refs)) == snapshot((want_args, want_refs))
    return got


class Graph:
    def __init__(self, n=3):
        self.adj = {i: [(i + 1) % n] for i in range(n)}
        self.seen = set()
        self.grid = [[0] * 3 for _ in range(3)]
        self.arr = np.zeros(4)
        self.count = 0


def graph_refs(g, *_):
    return g.adj, g.seen, g.grid, g.grid[1], g.arr, g.adj[0]


def mutate_all(g):
    g.adj[len(g.adj)] = [0]
    g.adj[0].append(5)
    del g.adj[1]
    g.seen.add(3)
    g.seen.add(-1)
    g.seen.discard(3)
    g.grid[1][2] = 7
    g.grid.append([1, 2])
    g.grid[0].pop()
    g.arr[1] = 2.5
    g.count += 1
    return len(g.adj)


def read_count(g):
    return g.count


def read_all(g):
    return g.count + len(g.adj) + len(g.seen) + g.grid[1][1] + int(g.arr.sum())


def bfs(g, start):
    order = []
    todo = [start]
    g.seen.add(start)
    while todo:
        u = todo.pop(0)
        order.append(u)
        g.count += 1
        for v in g.adj.get(u, []):
            if v not in g.seen:
                g.seen.add(v)
                todo.append(v)
    return order


def test_every_kind_of_write_is_seen():
    for n in (1, 3, 6):
        check(mutate_all, Graph(n), refs=graph_refs)


def test_reads_only():
    check(read_count, Graph())
    check(read_all, Graph(), refs=graph_refs)


def test_bfs_over_adjacency_dict():
    g = Graph(7)
    g.adj[3].append(0)
    check(bfs, g, 0, refs=graph_refs)


def raise_after_writes(g):
    g.adj[0].append(9)
    g.adj[99] = [1]
    g.seen.add(4)
    g.arr[0] = 1.0
    g.count = 7
    raise ValueError("late")


def test_writes_before_an_exception_are_seen():
    check(raise_after_writes, Graph(), refs=graph_refs)


def returns_fields(g):
    g.adj[5] = [5]
    return g.adj, g.seen, g.arr


def test_returned_field_is_the_callers_object():
    g = Graph()
    adj, seen, arr = _compiled(returns_fields)(g)
    assert adj is g.adj and seen is g.seen and arr is g.arr
    check(returns_fields, Graph(), refs=graph_refs)


def replace_fields(g):
    old = g.arr
    old_adj = g.adj
    g.arr = np.ones(2)
    g.adj = {7: [7]}
    old_adj[8] = [8]
    g.seen = {42}
    return old, old_adj


def test_fields_replaced():
    got = check(replace_fields, Graph(), refs=graph_refs)
    assert got[0] == "ok"


class Two:
    def __init__(self, d, s):
        self.p = d
        self.q = d
        self.s = s
        self.t = s


def through_two_fields(t):
    t.p[5] = 1
    t.s.add(9)
    return len(t.q), len(t.t), 9 in t.t


def test_one_table_through_two_fields():
    check(through_two_fields, Two({1: 2}, {1}), refs=lambda t: (t.p, t.s))


def through_two_instances(a, b):
    a.p[3] = 4
    b.s.add(2)
    return len(b.p), sorted(a.s)


def test_one_table_through_two_instances():
    d, s = {1: 2}, {0}
    check(through_two_instances, Two(d, s), Two(d, s))


def field_and_argument(t, d):
    t.p[5] = 1
    return len(d)


def field_and_set_argument(t, s):
    s.add(5)
    return len(t.s)


def test_table_also_an_argument_is_refused():
    d = {1: 2}
    with pytest.raises(TypeError, match="field 'q' of Two is also passed as an argument"):
        script.script(field_and_argument)(Two(d, set()), d)
    s = {1}
    with pytest.raises(TypeError, match="field 't' of Two is also passed"):
        script.script(field_and_set_argument)(Two({}, s), s)
    assert d == {1: 2} and s == {1}


class Holder:
    def __init__(self, v):
        self.v = v


def nothing(h):
    return 1


def test_refused_fields_name_the_field():
    ro = np.zeros(3)
    ro.flags.writeable = False
    for value, text in ((ro, "read-only array"), ({1: {2: 3}}, "field 'v' of Holder"),
                        ([{1: 2}], "field 'v' of Holder")):
        with pytest.raises(TypeError, match=text):
            script.script(nothing)(Holder(value))


class UnionFind:
    def __init__(self, n):
        self.parent = list(range(n))
        self.rank = {i: 0 for i in range(n)}
        self.sets = n


def find(uf, x):
    while uf.parent[x] != x:
        uf.parent[x] = uf.parent[uf.parent[x]]
        x = uf.parent[x]
    return x


def union_all(uf, pairs):
    for a, b in pairs:
        ra, rb = find(uf, a), find(uf, b)
        if ra == rb:
            continue
        if uf.rank[ra] < uf.rank[rb]:
            ra, rb = rb, ra
        uf.parent[rb] = ra
        if uf.rank[ra] == uf.rank[rb]:
            uf.rank[ra] += 1
        uf.sets -= 1
    return uf.sets


def test_union_find():
    pairs = [(0, 1), (2, 3), (1, 3), (4, 5), (0, 3), (6, 6), (7, 4)]
    check(union_all, UnionFind(9), pairs, refs=lambda uf, p: (uf.parent, uf.rank))


class LRU:
    def __init__(self, cap):
        self.cap = cap
        self.data = {}
        self.hits = 0
        self.misses = 0


def lru_get(c, k):
    if k in c.data:
        v = c.data.pop(k)
        c.data[k] = v
        c.hits += 1
        return v
    c.misses += 1
    return -1


def lru_put(c, k, v):
    if k in c.data:
        c.data.pop(k)
    elif len(c.data) >= c.cap:
        oldest = next(iter(c.data))
        del c.data[oldest]
    c.data[k] = v


def lru_run(c, ops):
    out = []
    for op, k in ops:
        if op == 0:
            out.append(lru_get(c, k))
        else:
            lru_put(c, k, k * 10)
    return out


def test_lru_cache_class():
    ops = [(1, 1), (1, 2), (0, 1), (1, 3), (0, 2), (1, 4), (0, 1), (0, 3), (0, 4), (1, 3)]
    check(lru_run, LRU(2), ops, refs=lambda c, o: (c.data,))
    c = LRU(3)
    lru = _compiled(lru_put)
    data = c.data
    for k in (1, 2, 3, 4, 2, 5):
        lru(c, k, -k)
    assert c.data is data and list(data.items()) == [(4, -4), (2, -2), (5, -5)]


class Grid:
    came: dict[tuple[int, int], tuple[int, int]]        # (typing the empty dicts)
    cost: dict[tuple[int, int], int]

    def __init__(self, w, h, walls):
        self.w = w
        self.h = h
        self.walls = set(walls)
        self.came = {}
        self.cost = {}
        self.expanded = 0


def astar(g, start, goal):
    open_set = {start: abs(goal[0] - start[0]) + abs(goal[1] - start[1])}
    g.cost[start] = 0
    while open_set:
        cur = min(open_set, key=open_set.get)
        if cur == goal:
            path = [cur]
            while cur in g.came:
                cur = g.came[cur]
                path.append(cur)
            return path[::-1]
        del open_set[cur]
        g.expanded += 1
        x, y = cur
        for nx, ny in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if 0 <= nx < g.w and 0 <= ny < g.h and (nx, ny) not in g.walls:
                c = g.cost[cur] + 1
                if (nx, ny) not in g.cost or c < g.cost[(nx, ny)]:
                    g.cost[(nx, ny)] = c
                    g.came[(nx, ny)] = cur
                    open_set[(nx, ny)] = c + abs(goal[0] - nx) + abs(goal[1] - ny)
    return [start]


def test_astar_with_dict_fields():
    walls = [(1, 0), (1, 1), (1, 2), (3, 1), (3, 2), (3, 3)]
    check(astar, Grid(5, 4, walls), (0, 0), (4, 0), refs=lambda g, s, t: (g.cost, g.came, g.walls))
    check(astar, Grid(3, 3, [(1, 0), (1, 1), (1, 2)]), (0, 0), (2, 2))


class Sim:
    def __init__(self, n):
        self.pos = np.arange(n, dtype=np.float64)
        self.grid = np.zeros((2, n), dtype=np.int64)
        self.steps = 0


def step(s, dt):
    for i in range(s.pos.shape[0]):
        s.pos[i] += dt * i
        s.grid[i % 2, i] += 1
    s.steps += 1
    return s.pos.sum()


def test_array_fields_alias_the_callers_buffer():
    s = Sim(5)
    pos, grid = s.pos, s.grid
    f = script.script(step)
    f(s, 0.5)
    f(s, 0.25)
    assert s.pos is pos and s.grid is grid and s.steps == 2
    assert pos.tolist() == [0.0, 1.75, 3.5, 5.25, 7.0] and grid.sum() == 10
    check(step, Sim(4), 1.5, refs=lambda s, d: (s.pos, s.grid))


class TrieNode:
    def __init__(self):
        self.children = {}
        self.end = False
        self.count = 0


def trie_insert(root, word):
    node = root
    for ch in word:
        if ch not in node.children:
            node.children[ch] = TrieNode()
        node = node.children[ch]
        node.count += 1
    node.end = True


def trie_count(root, prefix):
    node = root
    for ch in prefix:
        if ch not in node.children:
            return 0
        node = node.children[ch]
    return node.count


def test_trie_with_dict_children():
    root, want = TrieNode(), TrieNode()
    ins, count = _compiled(trie_insert), _compiled(trie_count)
    top = root.children
    for w in ("tea", "ten", "to", "inn", "tea", "i"):
        ins(root, w)
        trie_insert(want, w)
        assert snapshot(root) == snapshot(want)
    assert root.children is top
    for p in ("t", "te", "tea", "i", "x", ""):
        assert count(root, p) == trie_count(want, p)
    check(trie_insert, want, "tease", refs=lambda r, w: (r.children, r.children["t"]))


class Cache:
    def __init__(self):
        self.memo = {}
        self.calls = 0


def fib(c, n):
    c.calls += 1
    if n < 2:
        return n
    if n in c.memo:
        return c.memo[n]
    r = fib(c, n - 1) + fib(c, n - 2)
    c.memo[n] = r
    return r


def test_empty_dict_field_typed_by_its_stores():
    check(fib, Cache(), 20, refs=lambda c, n: (c.memo,))
    c = Cache()
    f = script.script(fib)
    memo = c.memo
    assert f(c, 30) == 832040 and c.memo is memo and len(memo) == 29


class Adj:
    def __init__(self):
        self.out = {0: [1]}
        self.nodes = {0, 1}

    def add_edge(self, a, b):
        if a not in self.out:
            self.out[a] = []
        self.out[a].append(b)
        self.nodes.add(a)
        self.nodes.add(b)


def add_edges(g, edges):
    for a, b in edges:
        g.add_edge(a, b)
    d = g.out
    d[-1] = [len(d)]
    return len(g.nodes)


def test_writes_through_methods_and_aliases():
    check(add_edges, Adj(), [(0, 2), (3, 0), (3, 4)], refs=lambda g, e: (g.out, g.nodes, g.out[0]))


class RowIndex:
    def __init__(self, row):
        self.adj = {0: row}
        self.row = row


def write_both(g):
    g.row.append(9)
    g.adj[0].append(8)
    return len(g.adj[0])


def test_list_in_a_dict_field_and_a_list_field_is_one_list():
    row = [1]
    got = check(write_both, RowIndex(row), refs=lambda g: (g.row,))
    assert got == ("ok", ("int", 3))


WRITTEN = {}


class HoldsGlobal:
    def __init__(self):
        self.m = WRITTEN


def write_global(g):
    WRITTEN[1] = 2
    return len(g.m)


def test_field_holding_a_written_global_is_refused():
    with pytest.raises(TypeError, match="field 'm' of HoldsGlobal .* module-level global"):
        script.script(write_global)(HoldsGlobal())
    assert WRITTEN == {}


class State:
    def __init__(self, rng):
        self.d = {rng.randrange(8): rng.randrange(100) for _ in range(rng.randrange(6))} or {0: 0}
        self.s = {rng.randrange(8) for _ in range(rng.randrange(6))} or {0}
        self.rows = [[rng.randrange(9) for _ in range(3)] for _ in range(rng.randrange(1, 4))]
        self.arr = np.arange(4.0)
        self.n = 0


def apply_ops(st, ops):
    out = []
    for op, k, v in ops:
        st.n += 1
        if op == 0:
            st.d[k] = v
        elif op == 1:
            if k in st.d:
                del st.d[k]
        elif op == 2:
            out.append(st.d.pop(k, -1))
        elif op == 3:
            st.s.add(k)
        elif op == 4:
            st.s.discard(k)
        elif op == 5:
            if st.s:
                out.append(st.s.pop())
        elif op == 6:
            st.rows[k % len(st.rows)].append(v)
        elif op == 7:
            st.rows[k % len(st.rows)][0] = v
        elif op == 8:
            st.rows.append([v])
        elif op == 9:
            st.arr[k % 4] += v
        else:
            out.append(sum(st.d.values()) + len(st.s))
    return out


def test_random_operations_against_cpython():
    import random
    rng = random.Random(20)
    for _ in range(25):
        ops = [(rng.randrange(11), rng.randrange(10), rng.randrange(50)) for _ in range(rng.randrange(1, 30))]
        check(apply_ops, State(rng), ops, refs=lambda st, o: (st.d, st.s, st.rows, st.rows[0], st.arr))


class Maybe:
    def __init__(self, v, a):
        self.v = v
        self.a = a


def write_optionals(hs):
    n = 0
    for h in hs:
        if h.v is not None:
            h.v[3] = 4
            n += len(h.v)
        if h.a is not None:
            h.a[0] += 7.0
    return n


def test_optional_table_and_array_fields():
    d, arr = {1: 2}, np.zeros(2)
    check(write_optionals, [Maybe(d, None), Maybe(None, arr), Maybe(d, arr)], refs=lambda hs: (hs[0].v, hs[1].a))
