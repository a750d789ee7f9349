"""List arguments are the caller's lists (runtime/list_reflect.py): every write a compiled
function makes through a list argument — elements, length, inner lists, on the way out of an
exception too — is seen by the caller, as in CPython; aliases stay aliases; a returned
argument list is the caller's object. Compared with CPython on copies of the same arguments
(difftest.check deep-copies list arguments and compares them after the call)."""

import copy
import gc
import sys

import pytest
from hypothesis import given, settings, strategies as st

import reflect_kernels as K
import script
from difftest import check, check_all_levels, compiled, outcome

INTS = st.lists(st.integers(-50, 50), max_size=12)
BIG = st.integers(-2**63, 2**63 - 1)
FLOATS = st.lists(st.floats(allow_nan=False, width=64), max_size=10)


@settings(max_examples=30, deadline=None)
@given(st.one_of(INTS, st.lists(BIG, max_size=10), FLOATS))
def test_in_place_sorts(a):
    check_all_levels(K.insertion_sort, a)
    check_all_levels(K.bubble_sort, a)
    if a:
        check(K.sort_floats, compiled(K.sort_floats), a) if type(a[0]) is float else None


@settings(max_examples=30, deadline=None)
@given(INTS, st.integers(0, 8))
def test_list_methods(a, k):
    check_all_levels(K.sort_methods, a, k)


_OPS = st.lists(st.tuples(st.integers(0, 9), st.integers(-20, 20)), min_size=1, max_size=15)


@settings(max_examples=60, deadline=None)
@given(INTS, _OPS)
def test_append_pop_insert_del_in_loops(a, ops):
    """A random program of list operations, stopped part-way by a raise (code 9)."""
    check_all_levels(K.run_ops, a, ops)


@settings(max_examples=20, deadline=None)
@given(INTS, INTS)
def test_two_lists(a, b):
    check_all_levels(K.pop_front, a, b)
    check_all_levels(K.write_first, a, b)
    check_all_levels(K.reads_and_writes, a, b)


def test_exceptions_part_way():
    for i in (0, 1, 5, -9, 100):
        check_all_levels(K.write_then_fail, [1, 2, 3], i)
        check_all_levels(K.write_then_caught, [1, 2, 3], i)
    a = [1, 2, 3]
    with pytest.raises(IndexError):
        compiled(K.write_then_fail)(a, 50)
    assert a == [-1, 2, 3, 99]              # the writes before the raise, as CPython's


@settings(max_examples=15, deadline=None)
@given(st.text("abc", max_size=6), st.text("abc", max_size=6))
def test_dp_table_of_the_caller(x, y):
    dp = [[0] * (len(y) + 1) for _ in range(len(x) + 1)]
    check_all_levels(K.lcs_table, x, y, dp)


@settings(max_examples=15, deadline=None)
@given(st.integers(1, 6).flatmap(lambda n: st.lists(st.lists(st.integers(0, 1), min_size=n, max_size=n),
                                                     min_size=1, max_size=6)))
def test_boards(board):
    check_all_levels(K.life_step, board)
    rows = [list(r) for r in board]
    compiled(K.life_step)(rows)
    expect = [list(r) for r in board]
    K.life_step(expect)
    assert rows == expect


def test_boards_of_strs_and_backtracking():
    grid = [list(".X.."), list("..X."), list("X...")]
    for i, j in ((0, 0), (1, 3), (2, 0)):
        check_all_levels(K.fill_region, grid, i, j, "o")
    for n in range(1, 7):
        check_all_levels(K.queens, n, [[0] * n for _ in range(n)], 0)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.lists(st.integers(-5, 5), max_size=3), min_size=1, max_size=4), st.integers(0, 4))
def test_rows_moved_dropped_and_written(t, k):
    check_all_levels(K.reshape_rows, t, k)


def test_rows_keep_their_identity():
    t = [[3], [1, 2]]
    r0, r1 = t
    compiled(K.reshape_rows)(t, 0)          # sorted: the same row objects, moved
    assert t[0] is r1 and t[1] is r0
    t = [[1], [2]]
    last = t[1]
    compiled(K.reshape_rows)(t, 1)          # popped, then written: the caller's row sees it
    assert t == [[1]] and last == [2, 42]
    t = [[1], [2]]
    compiled(K.reshape_rows)(t, 3)          # a row appended twice is one object
    assert t[0] is t[3] and t == [[1, 9], [2], [7, 8], [1, 9]]
    t = [[1]]
    compiled(K.run_nested_ops)(t, [], [(0, 0, 4), (3, 1, 0)])     # a new row, appended twice
    assert t == [[1], [4, 4], [4, 4]] and t[1] is t[2]


def test_unchanged_elements_keep_their_objects():
    big = 10**12
    a = [big, big + 5, 7]
    keep = a[0], a[1]
    compiled(K.run_ops)(a, [(4, 2)])          # a[2] = 2; the same length: written slot by slot
    assert a == [big, big + 5, 2] and a[0] is keep[0] and a[1] is keep[1]
    c = [0.5, 1.5]
    floats = tuple(c)
    compiled(K.sort_floats)(c)                # already sorted: nothing moves
    assert c[0] is floats[0] and c[1] is floats[1]
    b = [big + 1, 3]
    compiled(K.insertion_sort)(b)             # moved slots hold new, equal objects
    assert b == [3, big + 1]


@settings(max_examples=30, deadline=None)
@given(st.lists(st.text("aAbé", max_size=3), min_size=1, max_size=8), st.integers(1, 3),
       st.lists(st.tuples(st.integers(-3, 3), st.text("xy", max_size=2)), min_size=1, max_size=5),
       st.integers(0, 10), st.tuples(st.integers(-3, 3), st.text("xy", max_size=2)))
def test_unchanged_strs_and_tuples_keep_their_objects(ws, k, ps, i, p):
    """A str or tuple (of ints and strs) slot that a write leaves equal keeps the caller's
    object where the length is unchanged, as in CPython, which writes nothing there (the
    objects are made anew here, so `is` tells them apart)."""
    check_all_levels(K.upper_some, ws, k)
    before = list(ws)
    compiled(K.upper_some)(ws, k)
    assert ws == [w.upper() if n % k == 0 else w for n, w in enumerate(before)]
    assert all(w is old for w, old in zip(ws, before) if w == old)
    i = i % len(ps)
    before = list(ps)
    compiled(K.set_pair)(ps, i, p)
    assert ps[:i] + ps[i + 1:] == before[:i] + before[i + 1:]
    assert all(x is y for n, (x, y) in enumerate(zip(ps, before)) if n != i or p == y)


def test_aliases_stay_aliases():
    a = [1, 2]
    assert compiled(K.write_first)(a, a) == 8 and a == [1, 2, 1, 2]
    check_all_levels(K.write_first, [1], [1])
    shared = [0, 0]
    t = [shared, shared]
    assert compiled(K.rows_alias)(t) == 3 and t[0] is t[1] is shared and shared == [0, 0, 2]
    board = [[0] * 3] * 3                    # the classic: three times one row
    compiled(K.life_step)(board)
    want = [[0] * 3] * 3
    K.life_step(want)
    assert board == want and board[0] is board[1] is board[2]
    x, y = [1], [2, 3]
    assert compiled(K.in_tuple)((x, y)) == 2 and x == [1, 2] and y == [3, 2]
    z = [5]
    assert compiled(K.in_tuple)((z, z)) == 5 and z == [1, 5]       # one list: CPython's answer too


def test_returned_argument_lists_are_the_callers():
    a = [1]
    assert compiled(K.returns_arg)(a, 2) is a and a == [1, 2]
    b = [4, 5]
    got = compiled(K.returns_arg_in_tuple)(b)
    assert got[0] is b and got == ([4, 5], 2)
    t = [[1], [2]]
    assert compiled(K.returns_row)(t) is t[0]
    out = compiled(K.returns_new_with_rows)(t)
    assert out[0] is t[0] and out == [[1], [1]] and out is not t


def test_element_types_stay_faithful():
    check_all_levels(K.double_floats, [1.5, -2.0])
    check_all_levels(K.sort_pairs, [(2, 1.5), (1, 0.5)])
    check_all_levels(K.words_upper, ["ab", "c"])
    check_all_levels(K.flags_flip, [True, False])
    # Ints among floats: a list of num, each element keeping its type, written back so.
    for fn in (K.double_floats, K.read_only_sum):
        check_all_levels(fn, [1, 2.5])
    # An int stored into an argument list of floats: the dispatcher compiles it for a list of
    # num (the list[float] build refuses the converting store), so the int stays an int.
    for fn in (K.store_int_in_floats, K.append_int_to_floats):
        check_all_levels(fn, [0.5])
        check_all_levels(fn, [0.5, 1])
    assert script.script(K.store_int_in_floats)([3]) is None       # a list of ints takes it


def test_one_list_as_two_types_is_refused():
    f = compiled(K.two_types)
    assert f([1], [0.5]) == 2                       # compiles (list[int], list[float])
    empty = []
    with pytest.raises(TypeError, match="one list is passed as"):
        f(empty, empty)                             # an empty list matches both: one object, two types
    assert empty == []


def test_no_leaks():
    """References of the caller's lists and of the elements the call only reads come back
    to what they were, on every way out: written back, raised part-way, aliased, returned;
    and memory does not grow with the number of calls."""
    import tracemalloc
    big = [10**12 + k for k in range(4)]
    src = list(big)
    a = [1, 2, 3]
    row = [10**13, 10**13 + 1]
    t = [row, row, [10**14]]
    watched = (src, a, row, t, *big)
    before = [sys.getrefcount(x) for x in watched]
    f, g, h, r, w = (compiled(fn) for fn in (K.bubble_sort, K.write_then_fail, K.reshape_rows, K.returns_arg,
                                             K.reads_and_writes))

    def calls():
        f(a)
        a.reverse()
        with pytest.raises(IndexError):
            g(a, 100)
        del a[3:]
        for k in range(5):
            h(t, k)
            del t[3:]
            t[0] = t[1] = row
            del row[2:]
        assert r(a, 1) is a
        a.pop()
        out = []
        w(src, out)
        w(src, src[:0])

    for _ in range(50):
        calls()
    gc.collect()
    tracemalloc.start()
    start = tracemalloc.take_snapshot()
    for _ in range(500):
        calls()
    gc.collect()
    grown = sum(s.size_diff for s in tracemalloc.take_snapshot().compare_to(start, "filename"))
    tracemalloc.stop()
    assert grown < 20_000, grown
    assert [sys.getrefcount(x) for x in watched] == before


def test_annotated_lists_are_the_callers_lists_whatever_the_annotation():
    @script.script
    def sort_floats(xs: list[float]):
        xs.sort()

    a = [3, 1, 2]            # ints: annotations are hints, so the caller's list of ints is sorted
    sort_floats(a)
    assert a == [1, 2, 3] and all(type(x) is int for x in a)
    b = [3.0, 1.0]
    sort_floats(b)
    assert b == [1.0, 3.0]
    c = []                   # empty: the annotation types it, and it is still the caller's
    sort_floats(c)
    assert c == []


def test_writes_through_closures_instances_and_dict_values():
    check_all_levels(K.through_closure, [0])
    check_all_levels(K.through_instance, [1])
    lst = [1]
    assert compiled(K.seen_in_dict)({1: lst}, lst) == 2 and lst == [1, 9]


def test_saved_modules_write_back(tmp_path):
    import archive_tools as A
    f, g = script.script(K.reshape_rows), script.script(K.insertion_sort)
    f([[1]], 0)
    g([3, 1])
    path = tmp_path / "reflect.smod"
    script.save({"f": f, "g": g}, path)
    A.rewrite(path, tmp_path / "other.smod", A.other_cpu)
    for p in (path, tmp_path / "other.smod"):          # object code, then compiled again from IR
        m = script.load(p)
        t = [[2], [1]]
        r = t[1]
        m.f(t, 0)
        a = [3, 1, 2]
        m.g(a)
        assert t == [[1], [2]] and t[0] is r and a == [1, 2, 3]


@settings(max_examples=30, deadline=None)
@given(st.lists(st.integers(-9, 9), min_size=1, max_size=12))
def test_classic_in_place_algorithms(a):
    check_all_levels(K.quick_sort, a, 0, len(a) - 1)
    check_all_levels(K.heap_sort, a)
    check_all_levels(K.next_permutation, a)
    n = min(len(a), 4)
    check_all_levels(K.rotate_matrix, [[a[(i * n + j) % len(a)] for j in range(n)] for i in range(n)])


_NESTED_OPS = st.lists(st.tuples(st.integers(0, 12), st.integers(0, 9), st.integers(-9, 9)), min_size=1, max_size=12)


@settings(max_examples=80, deadline=None)
@given(st.lists(st.lists(st.integers(-9, 9), max_size=3), min_size=1, max_size=4), st.lists(st.integers(-9, 9),
       max_size=3), _NESTED_OPS, st.integers(0, 3))
def test_random_programs_on_tables(t, a, ops, shape):
    """Random programs over a table and a list, passed apart, aliased, or as rows of one
    another; stopped part-way by a raise (code 12)."""
    if shape == 1:
        t = [t[0]] * len(t)                 # one row, several times
    elif shape == 2:
        t = t + [a]                         # the list is a row of the table
    elif shape == 3:
        t = [a, a]
    check_all_levels(K.run_nested_ops, t, a, ops)
    want_t, want_a = copy.deepcopy((t, a))
    got_t, got_a = copy.deepcopy((t, a))
    want = outcome(K.run_nested_ops, (want_t, want_a, ops))
    got = outcome(compiled(K.run_nested_ops), (got_t, got_a, ops))
    assert got == want and _aliasing((got_t, got_a)) == _aliasing((want_t, want_a))


def _aliasing(value) -> list:
    """Which lists of `value` are the same object: each list numbered by its first occurrence."""
    seen: dict = {}
    out = []

    def walk(v):
        if type(v) in (list, tuple):
            if type(v) is list:
                out.append(seen.setdefault(id(v), len(seen)))
            for x in v:
                walk(x)

    walk(value)
    return out


def test_native_memory_is_released():
    """The memo's references to native lists are dropped on every way out: a table written
    back, rows dropped, an exception part-way, many times, in constant memory."""
    import resource
    h, g = compiled(K.reshape_rows), compiled(K.write_then_fail)
    t = [[i, i + 1, i + 2] for i in range(300)]

    def calls():
        h(t, 3)
        del t[300:]
        h(t, 1)
        t.append([1, 2, 3])
        with pytest.raises(IndexError):
            g(list(range(200)), 1000)

    for _ in range(100):
        calls()
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    for _ in range(1500):
        calls()
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before < 5_000      # KB


def test_repeat_in_place():
    """`lst *= n` is list.__imul__: the same list (the caller's), rows repeated by reference."""
    for k in (-1, 0, 1, 3):
        check_all_levels(K.repeat_rows, [[1], [2]], k)
    t = [[1], [2]]
    r0 = t[0]
    assert compiled(K.repeat_rows)(t, 2) == 4 and t == [[1, 9], [2], [1, 9], [2]]
    assert t[0] is r0 and t[2] is r0 and t[1] is t[3]


def test_returned_lists_keep_their_sharing():
    board = compiled(K.shared_board)(3)
    assert board == [[0] * 3] * 3 and board[0] is board[1] is board[2]
    board[0][0] = 1                          # as in CPython: every row is that row
    assert board == [[1, 0, 0]] * 3
    x, y = compiled(K.same_list_twice)(4)
    assert x is y and x == [4]


def test_tuples_made_of_argument_lists():
    for t in ([[1, 2], [3, 4]], [[1]], [[5, 6, 7]]):
        check_all_levels(K.columns, t)
