"""Empty containers whose types a callee decides (script/frontend/callee_hints.py): a `[]`,
`{}` or `set()` passed to a nested function, a module-level helper or a `@script` function
before anything is stored into it, against CPython."""

import os
import subprocess
import sys

import pytest
from hypothesis import given, settings, strategies as st

import script
import callee_typed_kernels as K
from difftest import check_all_levels, compiled
from script.errors import CompileError

SET = settings(max_examples=25, deadline=None)
words = st.lists(st.text("abcé", min_size=1, max_size=5), max_size=12)


@SET
@given(st.text("abc", max_size=7), st.text("abc", max_size=7))
def test_memo_with_tuple_keys(a, b):
    """A memo dict filled by a nested recursive function: read with tuple keys first."""
    check_all_levels(K.edit_distance, a, b)


@SET
@given(st.integers(0, 8), st.floats(0, 1))
def test_memo_of_floats(n, p):
    """Its values guessed ints by the first read, then floats by the callee's store."""
    check_all_levels(K.walk_prob, n, p)


@SET
@given(st.integers(1, 8), st.data())
def test_module_helper_fills_set_and_list(n, data):
    """`dfs(u, graph, seen, order)`: a recursive module-level helper types the caller's
    `set()` (ints) and `[]` (strs)."""
    pairs = st.tuples(st.integers(0, n - 1), st.integers(0, n - 1))
    check_all_levels(K.topo, data.draw(st.lists(pairs, max_size=15)), n)


@SET
@given(words)
def test_dicts_of_lists(ws):
    check_all_levels(K.group, ws)
    check_all_levels(K.adjacency, [(len(w), ord(w[0])) for w in ws])


@SET
@given(st.lists(st.integers(-50, 50), max_size=20), words, st.floats(-4, 4))
def test_read_before_store_in_callee(xs, ws, x):
    """`if k not in d: d[k] = []`: the values a read guessed are replaced by the store;
    `c[w] = c.get(w, 0) + x`: the callee widens the caller's ints to floats."""
    check_all_levels(K.buckets, xs)
    check_all_levels(K.weights, ws, x)


@SET
@given(st.integers(0, 12), words)
def test_element_types(n, ws):
    check_all_levels(K.floats, n)              # floats
    check_all_levels(K.pairs, n)               # tuples with strs, three calls deep
    check_all_levels(K.upper_set, ws)          # a set of strs
    check_all_levels(K.triangle, n)            # lists: the callee's own [] stored into it
    check_all_levels(K.nested_sizes, n % 6)    # a recursive callee passing its own []
    check_all_levels(K.two_sites, n)           # one helper for two containers
    check_all_levels(K.annotated, n)           # the callee's annotation types it
    with pytest.raises(script.CompileError, match="cannot store an int in this list"):
        script.script(K.annotated_given_ints)(n)    # ints into it: CPython keeps them (not [0.0, 1.0])
    check_all_levels(K.extended, n)            # extend and update
    check_all_levels(K.returned_through, n)    # returned by the callee, stored into after


@SET
@given(st.integers(-3, 5))
def test_only_read_or_untouched_hold_ints(n):
    check_all_levels(K.only_read, n)
    check_all_levels(K.untouched, n)
    check_all_levels(K.pop_empty, n)           # IndexError as in CPython


@SET
@given(st.lists(st.integers(-3, 3), max_size=8))
def test_errors_from_the_callee(xs):
    check_all_levels(K.raising, xs)            # ZeroDivisionError


def test_script_callee():
    """A `@script` function called from compiled code with the caller's empty list (called
    from Python it needs an annotation: an empty list has no element type there)."""
    assert compiled(K.script_callee)("to be or not") == ["to", "be", "or", "not"]
    assert compiled(K.script_callee)("") == []


def test_types_settled_once():
    """The helper is specialized for the settled types only: no specialization keyed by a
    pending type survives the caller's build."""
    f = script.script(K.floats)
    assert f(3) == [0.0, 0.5, 1.0]
    info = script.frontend.specialize.CONTEXT.infos[K.halves]
    assert all("?" not in str(t) for types, _ in info.specializations for t in types)


def _compile_source(tmp_path, src):
    path = tmp_path / "callee_bad.py"
    path.write_text(src)
    ns = {}
    exec(compile(src, str(path), "exec"), ns)
    return script.script(ns["f"])


@pytest.mark.parametrize("src, match, line", [
    ("def g(x):\n    x.append(True)\n\ndef f(n):\n    a = []\n    g(a)\n    a.append(n)\n    return a\n",
     "cannot store a value of type i64 in a list\\[bool\\]", 7),
    ("def f(n):\n    d = {}\n    def g(k):\n        d[k] = True\n    g(n)\n    d[n] = 1.5\n    return d\n",
     "cannot be mixed", 6),
])
def test_conflicting_stores(tmp_path, src, match, line):
    with pytest.raises(CompileError, match=match) as e:
        _compile_source(tmp_path, src)(1)
    assert f"callee_bad.py:{line}:" in str(e.value)


def test_stores_of_two_kinds_through_a_callee_make_a_list_of_their_union(tmp_path):
    src = "def g(x):\n    x.append('s')\n\ndef f(n):\n    a = []\n    g(a)\n    a.append(n)\n    return a\n"
    assert _compile_source(tmp_path, src)(1) == ["s", 1]
    src = "def f(n):\n    d = {}\n    def g(k):\n        d[k] = 'v'\n    g(n)\n    d[n + 1] = 1.5\n    return d\n"
    assert _compile_source(tmp_path, src)(1) == {1: "v", 2: 1.5}


_MEMORY = """
import sys, resource
sys.path.insert(0, 'tests')
import callee_typed_kernels as K, script
W = ["ab" * 20, "ba", "c", "abc", "cab" * 30, "x", "c", "é"] + [str(i) * 10 for i in range(30)]
cases = [(K.edit_distance, ("kitten" * 3, "sitting" * 3)), (K.topo, ([(i, (i * 7) % 40) for i in range(40)], 40)),
         (K.group, (W,)), (K.adjacency, ([(i, i % 5) for i in range(40)],)), (K.buckets, (list(range(60)),)),
         (K.pairs, (30,)), (K.upper_set, (W,)), (K.triangle, (20,)), (K.nested_sizes, (5,))]
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
    """Each round makes ~100 KB of strs, lists and tables: 2000 rounds leaking would be 200 MB."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    out = subprocess.run([sys.executable, "-c", _MEMORY, "2000"], capture_output=True, text=True, cwd=root,
                         env=dict(os.environ, PYTHONPATH=root + os.pathsep + os.environ.get("PYTHONPATH", "")))
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    assert int(out.stdout.split()[-1]) < 20_000
