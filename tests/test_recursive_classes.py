"""Recursive classes and fields that may be None (docs/records.md) against CPython: binary
trees, linked lists, BSTs, tries, graphs, union-find, expression trees, an LRU cache; the
AttributeError of a field read through None; the IR text of the recursive types; instances
released without leaks and without recursion (a list of 10**6 nodes)."""

import os
import subprocess
import sys

import pytest
from hypothesis import given, settings, strategies as st

import script
from difftest import check_all_levels, run_child
import recursive_class_kernels as K

SET = settings(max_examples=12, deadline=None)
ints = st.lists(st.integers(-50, 50), max_size=25)
words = st.lists(st.text("abc", min_size=1, max_size=4), max_size=12)


@pytest.mark.parametrize("depth", [0, 1, 4, 7])
def test_binary_trees(depth):
    check_all_levels(K.binary_trees, depth)
    check_all_levels(K.tree_leaf_right, depth)


@SET
@given(ints)
def test_linked_lists(xs):
    for f in (K.list_sum, K.list_length, K.list_reverse, K.list_append_tail, K.list_middle,
              K.list_second_val):
        check_all_levels(f, xs)


@SET
@given(ints, st.integers(-3, 3))
def test_linked_list_remove(xs, target):
    check_all_levels(K.list_remove, [x % 7 for x in xs], target)


@SET
@given(ints, ints)
def test_merge_sorted(xs, ys):
    check_all_levels(K.merge_sorted, xs, ys)


@SET
@given(ints, st.lists(st.integers(-50, 50), max_size=6))
def test_bst(xs, probes):
    check_all_levels(K.bst_sort, xs, probes)
    check_all_levels(K.bst_recursive_insert, xs)
    check_all_levels(K.bst_min_max, xs)          # AttributeError on an empty tree, as CPython


@SET
@given(words, words)
def test_trie(ws, probes):
    check_all_levels(K.trie_ops, ws, [p + "a" for p in probes])


@SET
@given(st.integers(1, 8), st.lists(st.tuples(st.integers(0, 9), st.integers(0, 9)), min_size=1, max_size=15))
def test_graph_and_union_find(n, edges):
    check_all_levels(K.graph_bfs, n, edges)
    check_all_levels(K.union_find, n, edges)


@SET
@given(st.lists(st.floats(-10, 10).filter(lambda x: abs(x) > 1e-3), min_size=1, max_size=10),
       st.lists(st.sampled_from("+-*/"), min_size=1, max_size=4))
def test_expression_tree(values, ops):
    check_all_levels(K.expr_tree, values, ops)


@SET
@given(st.integers(1, 4), st.lists(st.tuples(st.integers(0, 6), st.integers(-1, 9)), min_size=1, max_size=20))
def test_lru(capacity, ops):
    check_all_levels(K.lru_ops, capacity, ops)


@SET
@given(st.lists(st.floats(-1e3, 1e3), max_size=15), st.lists(st.text("ab/", min_size=1, max_size=6), max_size=8))
def test_dataclasses(xs, paths):
    check_all_levels(K.dc_list, xs)
    check_all_levels(K.dc_tree, paths)


def test_long_list_is_freed_without_recursion():
    """10**6 nodes released by the last reference, in a thread of a 256 KiB stack: the
    release loops (backend/llvm/records.py), it does not recurse."""
    import threading
    f = script.script(K.long_list)
    out = []
    threading.stack_size(256 * 1024)
    try:
        t = threading.Thread(target=lambda: out.append(f(10**6)))
        t.start()
        t.join()
    finally:
        threading.stack_size(0)
    assert out == [2 * 10**6 - 1]


@SET
@given(st.integers(1, 6), st.lists(st.tuples(st.integers(0, 9), st.integers(0, 9), st.integers(0, 20)),
                                   min_size=1, max_size=12))
def test_classes_that_hold_each_other(n, arcs):
    check_all_levels(K.shortest_paths, n, arcs)


@SET
@given(st.lists(st.text("xy", max_size=3), min_size=1, max_size=6))
def test_a_class_holding_one_that_holds_it(titles):
    check_all_levels(K.chapters, titles)


# ---- errors ------------------------------------------------------------------------------

def test_an_instance_is_a_result():
    """Was a CompileError ("returns an instance of class 'ListNode' or None"): the nodes come
    back as instances of their class (test_returned_instances.py)."""
    def f(n):
        return K.build_list(list(range(n)))

    def values(node):
        out = []
        while node is not None:
            assert type(node) is K.ListNode
            out.append(node.val)
            node = node.next
        return out
    g = script.script(f)
    assert values(g(3)) == values(f(3)) and g(0) is None is f(0)


# ---- the IR text --------------------------------------------------------------------------

REC_IR = '''\
func @f(%0: obj["m:N", "v": i64, "next": opt[rec["m:N"]], "kids": dict[str, rec["m:N"]]]) -> i64 "m.py":1 {
bb0:
  %1 = list_get %0, 0:i64 : (i64, opt[obj["m:N", "v": i64, "next": opt[rec["m:N"]], "kids": dict[str, rec["m:N"]]]], dict[str, obj["m:N", "v": i64, "next": opt[rec["m:N"]], "kids": dict[str, rec["m:N"]]]])
  %2 = extract.1 %1 : opt[obj["m:N", "v": i64, "next": opt[rec["m:N"]], "kids": dict[str, rec["m:N"]]]]
  %3 = extract.1 %2 : obj["m:N", "v": i64, "next": opt[rec["m:N"]], "kids": dict[str, rec["m:N"]]]
  %4 = list_null : obj["m:N", "v": i64, "next": opt[rec["m:N"]], "kids": dict[str, rec["m:N"]]]
  %5 = list_same %3, %4 : bool
  %6 = extract.0 %1 : i64
  ret %6
}
'''


def test_recursive_types_round_trip():
    from script.ir import types as T
    from script.ir.parser import parse_function
    from script.ir.printer import format_function
    from script.ir.verifier import verify_function
    f = parse_function(REC_IR)
    verify_function(f)
    assert format_function(f) == REC_IR
    n, = f.param_types
    assert n.is_recursive and n.elem.elems[1] == T.OptionalType(n) and n.elem.elems[2].value is n
    # a nested instance of the type itself folds back to it; another specialization stays nested
    assert T.ClassType("m:N", n.fields, T.TupleType([T.I64, T.OptionalType(n), T.DictType(T.STR, n)])) == n
    box = T.ClassType("m:Box", ["v"], T.TupleType([T.I64]))
    outer = T.ClassType("m:Box", ["v"], T.TupleType([box]))
    assert not outer.is_recursive and outer.elem.elems[0] == box


MUTUAL_IR = '''\
func @g(%0: obj["m:A", "b": opt[obj["m:B", "a": opt[rec["m:A"]], "k": list[rec["m:B"]]]], "n": i64]) -> i64 "m.py":1 {
bb0:
  %1 = list_get %0, 0:i64 : (opt[obj["m:B", "a": opt[obj["m:A", "b": opt[rec["m:B"]], "n": i64]], "k": list[rec["m:B"]]]], i64)
  %2 = extract.0 %1 : opt[obj["m:B", "a": opt[obj["m:A", "b": opt[rec["m:B"]], "n": i64]], "k": list[rec["m:B"]]]]
  %3 = extract.1 %2 : obj["m:B", "a": opt[obj["m:A", "b": opt[rec["m:B"]], "n": i64]], "k": list[rec["m:B"]]]
  %4 = list_get %3, 0:i64 : (opt[obj["m:A", "b": opt[obj["m:B", "a": opt[rec["m:A"]], "k": list[rec["m:B"]]]], "n": i64]], list[obj["m:B", "a": opt[obj["m:A", "b": opt[rec["m:B"]], "n": i64]], "k": list[rec["m:B"]]]])
  %5 = extract.1 %1 : i64
  ret %5
}
'''


def test_classes_holding_each_other_round_trip():
    """A holds a B that holds an A (and Bs): each class's type keeps the other in its group,
    printed where first met from the class at the top."""
    from script.ir.parser import parse_function
    from script.ir.printer import format_function
    from script.ir.verifier import verify_function
    f = parse_function(MUTUAL_IR)
    verify_function(f)
    assert format_function(f) == MUTUAL_IR
    a, = f.param_types
    b = a.elem.elems[0].value
    assert b.key == "m:B" and b.elem.elems[0].value == a and b.elem.elems[1].elem == b
    assert a.member("m:B") == b and b.member("m:A") == a


def test_rec_outside_its_class_is_refused():
    from script.errors import LoadError
    from script.ir.parser import parse_function
    with pytest.raises(LoadError, match="outside the fields"):
        parse_function(REC_IR.replace('"kids": dict[str, rec["m:N"]]]) -> i64', '"kids": dict[str, rec["m:M"]]]) -> i64'))


# ---- memory -------------------------------------------------------------------------------

_MEMORY = r"""
import resource, sys
sys.path.insert(0, "tests")
import script
import recursive_class_kernels as K
runs = [(script.script(K.binary_trees), (5,)), (script.script(K.list_remove), ([1, 2, 1, 3] * 5, 1)),
        (script.script(K.bst_sort), (list(range(20, 0, -3)), [3, 5])),
        (script.script(K.trie_ops), (["abc", "abd", "b"], ["abc", "x"])),
        (script.script(K.graph_bfs), (6, [(0, 1), (1, 2), (2, 0), (3, 4)])),
        (script.script(K.chapters), (["ab", "c"],)),
        (script.script(K.list_second_val), ([1],))]     # (AttributeError: what it holds is released)


def call(g, args):
    try:
        return g(*args)
    except AttributeError:
        return None


for _ in range(20):
    [call(g, args) for g, args in runs]
r0 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
for _ in range(int(sys.argv[1])):
    [call(g, args) for g, args in runs]
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - r0)
"""


def _growth(rounds: int, **env) -> int:
    """How many KB the peak memory grew over `rounds` calls of each case (`_MEMORY`)."""
    return int(run_child(_MEMORY, str(rounds), **env).split()[-1])


def test_trees_and_lists_are_released():
    # Each round makes ~20 KB of instances (trees of up to 63 nodes, lists, a trie...): 600
    # rounds leaking would be 12+ MB.
    assert _growth(600) < 6_000


@pytest.mark.slow
def test_freed_instances_are_never_read():
    _growth(100, MALLOC_PERTURB_="165")


def test_saved_and_cached(tmp_path):
    """A saved module and a cache entry keep the recursive types (the IR text's rec[...]),
    read back in a new process."""
    import textwrap
    (tmp_path / "m.py").write_text(textwrap.dedent('''
        import script

        class Node:
            def __init__(self, key):
                self.key = key
                self.left = None
                self.right = None

        def insert(node, key):
            if node is None:
                return Node(key)
            if key < node.key:
                node.left = insert(node.left, key)
            else:
                node.right = insert(node.right, key)
            return node

        def total(node):
            return 0 if node is None else node.key + total(node.left) + total(node.right)

        @script.script(cache=True)
        def tree_sum(xs: list[int]):
            root = None
            for x in xs:
                root = insert(root, x)
            return total(root)
    '''))
    env = dict(os.environ, SCRIPT_CACHE_DIR=str(tmp_path / "cache"),
               PYTHONPATH=os.pathsep.join([str(tmp_path), os.path.dirname(os.path.dirname(script.__file__))]))
    smod = str(tmp_path / "m.smod")
    runs = [f"import script, m; print(m.tree_sum([3, 1, 2])); script.save([m.tree_sum], {smod!r})",
            f"import script, m; print(m.tree_sum([5, 1])); print(script.load({smod!r}).tree_sum([4, 4, 1]))"]
    outs = []
    for code in runs:
        out = subprocess.run([sys.executable, "-W", "error", "-c", code], capture_output=True, text=True, env=env,
                             cwd=str(tmp_path))
        assert out.returncode == 0, out.stderr[-3000:]
        outs += out.stdout.split()
    assert outs == ["6", "6", "9"]
    assert os.listdir(tmp_path / "cache")


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 8))
def test_list_display_of_fields_that_may_be_none(n):
    check_all_levels(K.children_sum, n)


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(-9, 9), max_size=6), st.integers(0, 7))
def test_a_list_head_typed_before_its_nodes_links(xs, pops):
    # `self.head = None` typed the head before `node.next = self.head` made `next` an
    # optional of its own class: the head's table takes the node's new type (was a
    # CompileError: "field 'next' of 'Node' ... cannot hold" the older node type); a pop
    # from an empty chain is CPython's AttributeError
    check_all_levels(K.chain_ops, xs, pops)
