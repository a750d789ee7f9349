"""Dicts and sets passed from Python are the caller's objects (runtime.table_reflect): what a
compiled function writes into them is seen by the caller, as in CPython: the same items, in
the same iteration order, on both ways out of the call; a returned one is the caller's
object. What cannot be written back is a clear error. Each function runs in CPython and
compiled on copies of the same arguments, and the results, the exceptions and the arguments
after the call are compared (their items in order, and their types)."""

import copy

import pytest
from hypothesis import given, settings, strategies as st

import script
from script.errors import CompileError


def dfs(graph, v, visited):
    visited.add(v)
    for w in graph[v]:
        if w not in visited:
            dfs(graph, w, visited)


def fib(n, memo):
    if n in memo:
        return memo[n]
    r = n if n < 2 else fib(n - 1, memo) + fib(n - 2, memo)
    memo[n] = r
    return r


def move_to_end(d, k):
    v = d.pop(k)
    d[k] = v + 1
    return d


def write_then_raise(d, k):
    d[k] = 5
    del d["a"]
    raise ValueError("after the writes")


def add_and_count(s, x):
    s.add(x)
    return s, len(s)


def grid_walk(grid, r, c, seen):
    if r < 0 or c < 0 or r >= len(grid) or c >= len(grid[0]) or (r, c) in seen or grid[r][c] == 0:
        return 0
    seen.add((r, c))
    return 1 + grid_walk(grid, r + 1, c, seen) + grid_walk(grid, r - 1, c, seen) + \
        grid_walk(grid, r, c + 1, seen) + grid_walk(grid, r, c - 1, seen)


def add_edge(g, u, v):
    g[u].append(v)
    g[v] = g.get(v, [])


def count_words(words, counts):
    for w in words:
        counts[w] = counts.get(w, 0) + 1
    return len(counts)


def discard_evens(s):
    for x in list(s):
        if x % 2 == 0:
            s.discard(x)
    s.add(101)


def churn(s, n):
    for i in range(n):
        s.add(i * 7 % 13)
        if i % 3 == 0:
            s.discard(i % 5)
    return len(s)


_COMPILED: dict = {}


def run_both(fn, *args):
    """(CPython's (outcome, args after), compiled (outcome, args after)) on copies."""
    out = []
    if fn not in _COMPILED:
        _COMPILED[fn] = script.script(fn)
    for f in (fn, _COMPILED[fn]):
        a = copy.deepcopy(args)
        try:
            r = ("ok", f(*a))
        except Exception as e:  # noqa: BLE001 - an exception is part of the behaviour
            r = ("raise", type(e), str(e))
        out.append((r, a))
    return out


def snapshot(x):
    """Items in iteration order, with their types."""
    if isinstance(x, dict):
        return ["dict"] + [(snapshot(k), snapshot(v)) for k, v in x.items()]
    if isinstance(x, set):
        return ["set"] + [snapshot(k) for k in x]
    if isinstance(x, (list, tuple)):
        return [type(x).__name__] + [snapshot(e) for e in x]
    return (type(x).__name__, x)


def check(fn, *args):
    (want, want_args), (got, got_args) = run_both(fn, *args)
    assert want[0] == got[0], (want, got)
    if want[0] == "ok":
        assert snapshot(want[1]) == snapshot(got[1])
    else:
        assert want == got
    assert snapshot(want_args) == snapshot(got_args)


@pytest.mark.parametrize("fn, args", [
    (dfs, ({0: [1, 2], 1: [3], 2: [3, 4], 3: [], 4: [0]}, 0, set())),
    (dfs, ({"a": ["b"], "b": ["c", "a"], "c": []}, "a", {"z"})),
    (fib, (40, {})),
    (fib, (10, {0: 0, 1: 1})),
    (move_to_end, ({"a": 1, "b": 2, "c": 3}, "a")),
    (write_then_raise, ({"a": 1, "b": 2}, "x")),
    (add_and_count, ({1, 2}, 3)),
    (add_and_count, ({"x"}, "x")),
    (grid_walk, ([[1, 1, 0], [0, 1, 1], [1, 0, 1]], 0, 0, {(9, 9)})),
    (add_edge, ({1: [2], 2: []}, 1, 3)),
    (count_words, (["a", "b", "a", "c"], {"b": 5})),
    (discard_evens, (set(range(20)),)),
    (churn, ({100, 200}, 40)),
])
def test_written_tables_against_cpython(fn, args):
    check(fn, *args)


def test_the_callers_objects_stay_themselves():
    s = {1}
    out = script.script(add_and_count)(s, 5)
    assert out[0] is s and s == {1, 5}
    d = {"a": 1, "b": 2}
    assert script.script(move_to_end)(d, "a") is d and list(d.items()) == [("b", 2), ("a", 2)]
    g = {1: [2], 2: []}
    row = g[1]
    script.script(add_edge)(g, 1, 3)
    assert g[1] is row and g == {1: [2, 3], 2: [], 3: []}


def test_an_empty_set_of_coordinates():
    seen = set()
    assert script.script(grid_walk)([[1, 1], [0, 1]], 0, 0, seen) == 3
    assert seen == {(0, 0), (0, 1), (1, 1)}


def _writes_both(a, b):
    a.add(1)
    return len(b)


def _inner_set(g, u, v):
    g[u].add(v)


def _converts(d):
    d["b"] = 2


def test_what_cannot_be_written_back_is_refused():
    s = {5}
    with pytest.raises(TypeError, match="the same set is passed as two arguments"):
        script.script(_writes_both)(s, s)
    assert s == {5}
    assert script.script(_writes_both)(s, {7}) == 1 and s == {1, 5}
    with pytest.raises(CompileError, match=r"a table inside dict argument 'g' may be written here.*"
                                           r"g = \{k: set\(v\) for k, v in g.items\(\)\}"):
        script.script(_inner_set)({1: {2}}, 1, 3)
    d = {"a": 1.5}
    with pytest.raises(CompileError, match="cannot store"):
        script.script(_converts)(d)
    assert d == {"a": 1.5}


OPS = st.lists(st.tuples(st.sampled_from("adpgc"), st.integers(-6, 6)), min_size=1, max_size=30)   # ([] has no type)


def dict_ops(d, ops):
    n = 0
    for op, k in ops:
        if op == "a":
            d[k] = k * 2
        elif op == "d":
            if k in d:
                del d[k]
        elif op == "p":
            n += d.pop(k, 0)
        elif op == "g":
            n += d.get(k, -1)
        elif op == "c" and k > 5:
            d.clear()
    return n


def set_ops(s, ops):
    n = 0
    for op, k in ops:
        if op == "a":
            s.add(k)
        elif op == "d":
            s.discard(k)
        elif op == "p":
            if s and k > 0:
                n += s.pop()
        elif op == "g":
            n += k in s
        elif op == "c" and k > 5:
            s.clear()
    return n


@settings(max_examples=60, deadline=None)
@given(st.dictionaries(st.integers(-6, 6), st.integers(-50, 50), max_size=8), OPS)
def test_dict_writes_against_cpython(d, ops):
    check(dict_ops, d, ops)


@settings(max_examples=60, deadline=None)
@given(st.sets(st.integers(-6, 6), max_size=8), OPS)
def test_set_writes_against_cpython(s, ops):
    check(set_ops, s, ops)
