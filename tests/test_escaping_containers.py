"""Empty containers made in one function and typed by the first store wherever it happens
(script/frontend/callee_hints.py `settle_returned`, `adopt_returned`): a class's `__init__`
that makes `self.items = []` and a method that fills it, a builder function returning `[]`,
`{}`, `set()` alone, in a tuple or in a named tuple, against CPython."""

import os
import subprocess
import sys

import pytest
from hypothesis import given, settings, strategies as st

import script
import escaping_kernels as K
from difftest import check_all_levels
from script.errors import CompileError

SET = settings(max_examples=25, deadline=None)
words = st.lists(st.text("abcé", min_size=1, max_size=5), min_size=1, max_size=12)
brackets = st.text("()[]{}x", max_size=14)


@SET
@given(brackets)
def test_stack_of_strs(s):
    """`Stack.__init__` makes `self.items = []`; `push(c)` with a str types it."""
    check_all_levels(K.balanced, s)


@SET
@given(st.lists(st.integers(0, 9), min_size=1, max_size=6), st.lists(st.sampled_from("+-*"), max_size=5))
def test_stack_of_floats(nums, ops):
    tokens = [str(nums[0])]
    for n, op in zip(nums[1:], ops):
        tokens += [str(n), op]
    check_all_levels(K.rpn, tokens)


def test_stack_never_pushed():
    check_all_levels(K.untouched_stack, 3)


@SET
@given(st.lists(st.tuples(st.integers(-5, 5), st.text("xyz", max_size=3)), min_size=1, max_size=10))
def test_queue_of_tuples(events):
    check_all_levels(K.schedule, events)


@SET
@given(st.lists(st.tuples(st.sampled_from("abcdef"), st.sampled_from("abcdef")), min_size=1, max_size=12))
def test_graph_adjacency_by_setdefault(edges):
    """`self.adj = {}`, then `self.adj.setdefault(u, []).append(v)` in a method: the dict's
    keys and its lists' elements are strs."""
    check_all_levels(K.bfs, edges, "a")


@SET
@given(st.lists(st.tuples(st.sampled_from(["a", "b", "c", "d"]), st.integers(-1, 5)), min_size=1, max_size=15),
       st.integers(1, 3))
def test_lru_cache(ops, capacity):
    check_all_levels(K.lru, ops, capacity)


@SET
@given(st.lists(st.integers(-100, 100), min_size=1, max_size=12))
def test_accumulator_of_floats(xs):
    check_all_levels(K.summarize, xs)


@SET
@given(st.lists(st.text("ab c", max_size=9), min_size=1, max_size=6))
def test_counter_typed_by_get(texts):
    """`self.counts[w] = self.counts.get(w, 0) + 1` and `self.seen.add(...)` in a method."""
    check_all_levels(K.count_words, texts)


@SET
@given(st.integers(1, 4).flatmap(lambda n: st.lists(st.lists(st.integers(-9, 9), min_size=n, max_size=n),
                                                    min_size=1, max_size=5)))
def test_rows_of_floats(rows):
    check_all_levels(K.column_sums, rows)


@SET
@given(st.lists(st.floats(-10, 10), min_size=1, max_size=15), st.sampled_from([0.5, 1.0, 3.0]))
def test_histogram_of_lists(xs, width):
    check_all_levels(K.histogram, xs, width)


@SET
@given(words)
def test_filled_by_a_function_further_down(ws):
    check_all_levels(K.run_log, ws)


@SET
@given(st.lists(st.tuples(st.sampled_from("abc"), st.text("xyz", min_size=1, max_size=2)), min_size=1, max_size=8))
def test_instances_in_a_list(pairs):
    check_all_levels(K.tree_names, pairs)


@SET
@given(st.lists(st.tuples(st.integers(0, 9), st.text("pq", max_size=3)), min_size=1, max_size=10))
def test_heap_of_tuples(tasks):
    check_all_levels(K.by_priority, tasks)


@SET
@given(st.integers(0, 12), st.integers(0, 12), st.floats(0, 1))
def test_memo_method(n, k, p):
    check_all_levels(K.at_least, n, k, p)


@SET
@given(st.lists(st.tuples(st.sampled_from(["nut", "bolt"]), st.integers(-4, 4)), min_size=1, max_size=10))
def test_inventory_errors_too(ops):
    """KeyError and ValueError raised by the methods, as in CPython."""
    check_all_levels(K.inventory, ops)


@SET
@given(st.lists(st.tuples(st.text("ab", max_size=3), st.integers(0, 9)), min_size=1, max_size=6))
def test_list_of_dataclass_instances(items):
    check_all_levels(K.batches, items)


@SET
@given(st.lists(st.tuples(st.floats(-5, 5), st.sampled_from("xyz")), min_size=1, max_size=8))
def test_dataclass_default_factory(pairs):
    """`hits: list = field(default_factory=list)`: typed by the method's store (floats)."""
    check_all_levels(K.tally, pairs)


@SET
@given(words, st.lists(st.integers(-9, 9), min_size=1, max_size=6))
def test_empty_containers_given_to_constructors(ws, xs):
    check_all_levels(K.given_empty, ws)
    check_all_levels(K.dataclass_given_empty, xs)


@SET
@given(words)
def test_builder_functions(ws):
    check_all_levels(K.upper_words, ws)
    check_all_levels(K.index_words, ws)
    check_all_levels(K.word_weights, ws)
    check_all_levels(K.grid_of_strs, 3, ws)


@SET
@given(st.lists(st.integers(-20, 20), min_size=1, max_size=8))
def test_made_two_calls_down(xs):
    check_all_levels(K.through_two, xs)


@SET
@given(st.lists(st.tuples(st.integers(-9, 9), st.sampled_from("uvw")), min_size=1, max_size=8))
def test_named_tuples_of_empty_containers(pairs):
    check_all_levels(K.buffered, pairs)
    check_all_levels(K.columns, [(a, float(len(b))) for a, b in pairs])


@SET
@given(st.integers(-1, 8))
def test_recursive_maker(n):
    """Called from compiled code, `halves` returns its base case's `[]` to itself; called
    from Python it still settles ints at that return (a CompileError, docs/lists.md)."""
    check_all_levels(K.sorted_halves, n)


def test_never_stored_holds_ints():
    check_all_levels(K.only_made, 4)


def test_maker_keeps_one_specialization_per_caller_types():
    """`new_list` filled with strs by one caller and tuples by another: two specializations,
    neither keyed by a pending type; the same call from Python still gives ints."""
    assert script.script(K.upper_words)(["a"]) == ["A"]
    assert script.script(K.through_two)([2]) == [(0, 1.0)]
    assert script.script(K.new_list)() == []
    info = script.frontend.specialize.CONTEXT.infos[K.new_list]
    assert all("?" not in str(k) for k in info.specializations)
    rets = {str(f.ret_type) for f in info.specializations.values()}
    assert {"list[str]", "list[i64]"} <= rets


def _compile_source(tmp_path, src):
    path = tmp_path / "escape_bad.py"
    path.write_text(src)
    ns = {}
    exec(compile(src, str(path), "exec"), ns)
    return script.script(ns["f"])


_MAKE = "def make():\n    return []\n\n"


@pytest.mark.parametrize("src, match, line", [
    (_MAKE + "def f(n):\n    a = make()\n    a.append(True)\n    a.append(n)\n    return a\n",
     "cannot store a value of type i64 in a list\\[bool\\]", 7),
    (_MAKE + "def f(n):\n    a = make()\n    b = make()\n    a.append(True)\n    b.append(n)\n    return a, b\n",
     "cannot store a value of type i64 in a list\\[bool\\]", 8),
])
def test_conflicting_stores(tmp_path, src, match, line):
    """Two stores of types that do not meet stay a CompileError at the second one's line
    (also two results of one maker in one caller: they share its `[]`'s type)."""
    with pytest.raises(CompileError, match=match) as e:
        _compile_source(tmp_path, src)(1)
    assert f"escape_bad.py:{line}:" in str(e.value)


def _line_of(fn, text: str) -> int:
    import inspect
    lines, first = inspect.getsourcelines(fn)
    return first + next(k for k, s in enumerate(lines) if text in s)


def test_stores_of_two_kinds_make_a_list_of_their_union(tmp_path):
    # (CPython's list holds both: a list of their union, union_values.py)
    src = _MAKE + "def f(n):\n    a = make()\n    b = make()\n    a.append('s')\n    b.append(n)\n    return a, b\n"
    assert _compile_source(tmp_path, src)(1) == (["s"], [1])
    src = _MAKE + "def f(n):\n    a = make()\n    a.append('s')\n    a.append(n)\n    return a\n"
    assert _compile_source(tmp_path, src)(1) == ["s", 1]
    for fn in (K.bad_two_pushes, K.bad_push_then_store):
        assert script.script(fn)(1) == fn(1) == 2


@pytest.mark.parametrize("fn, match, where", [
    (K.bool_then_int_pushes, "cannot store a value of type i64 in a list\\[bool\\]", (K.Stack.push, "append")),
])
def test_conflicting_stores_through_methods(fn, match, where):
    with pytest.raises(CompileError, match=match) as e:
        script.script(fn)(1)
    assert f"escaping_kernels.py:{_line_of(*where)}:" in str(e.value)


_MEMORY = """
import sys, resource
sys.path.insert(0, 'tests')
import escaping_kernels as K, script
W = ["ab" * 20, "ba", "c", "abc", "cab" * 30, "x", "c", "é"] + [str(i) * 10 for i in range(30)]
cases = [(K.balanced, ("([{}])" * 20,)), (K.bfs, ([(str(i), str(i * 7 % 30)) for i in range(30)], "0")),
         (K.lru, ([(w, i % 3) for i, w in enumerate(W)], 4)), (K.count_words, ([" ".join(W)],)),
         (K.histogram, ([i * 0.37 for i in range(50)], 1.0)), (K.tree_names, ([(w[0], w) for w in W],)),
         (K.by_priority, ([(i % 7, w) for i, w in enumerate(W)],)), (K.tally, ([(1.0, w) for w in W],)),
         (K.index_words, (W,)), (K.buffered, ([(i, w) for i, w in enumerate(W)],)), (K.grid_of_strs, (4, W))]
fs = [(script.script(f), f, a) for f, a in cases]

def run(n):
    for _ in range(n):
        for g, f, a in fs:
            g(*a)

run(30)
r0 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
run(int(sys.argv[1]))
for g, f, a in fs:
    assert g(*a) == f(*a), f.__name__
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - r0)
"""


def test_containers_are_released():
    """Each round makes ~60 KB of strs, lists, tables and instances: 1000 rounds leaking would
    be over 50 MB."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    out = subprocess.run([sys.executable, "-c", _MEMORY, "1000"], capture_output=True, text=True, cwd=root,
                         env=dict(os.environ, PYTHONPATH=root + os.pathsep + os.environ.get("PYTHONPATH", "")))
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    assert int(out.stdout.split()[-1]) < 20_000
