"""copy.copy and copy.deepcopy (frontend/copy_calls.py) against CPython: the copies, what
writing them leaves in the originals, CPython's sharing in deep copies of nested lists and
dicts, and the refusal of deeper nesting."""

import copy

import pytest
from hypothesis import given, settings, strategies as st

import script
from difftest import check_all_levels
from script.errors import CompileError


def copies(sol, d, s, t, grid):
    a = copy.deepcopy(sol)
    a[0] = "z"
    b = copy.copy(d)
    b["new"] = 1
    c = copy.copy(s)
    c.add(99)
    c.discard(3)
    e = copy.deepcopy(t)
    g = copy.copy(grid)
    g.append([5])
    g[0].append(9)              # (a shallow copy: the caller's row)
    return a, sol, b, d, c, s, e, g, grid, copy.copy(7), copy.deepcopy("x")


WORDS = st.lists(st.text("ab", max_size=2), min_size=1, max_size=4)


@settings(max_examples=30, deadline=None)
@given(WORDS, st.dictionaries(st.text("xy", max_size=2), st.integers(-3, 3), min_size=1, max_size=3),
       st.sets(st.integers(0, 9), min_size=1, max_size=5),       # (empty ones: no key type to guess)
       st.lists(st.lists(st.integers(0, 3), min_size=1, max_size=2), min_size=1, max_size=3))
def test_copies_against_cpython(sol, d, s, grid):
    check_all_levels(copies, sol, d, s, (1, "q"), grid)


def _deep_rows(grid):
    return copy.deepcopy(grid)


def deep_nested(rows, picks, names, k):
    """Deep copies of a list of lists built with shared rows (`picks` index `rows`) and of a
    dict of lists sharing a list: a write through one place of the copy is seen through the
    others, as CPython's memo makes it, and never in the original."""
    grid = [rows[p % len(rows)] for p in picks]
    g = copy.deepcopy(grid)
    g[0].append(k)
    shared = [k]
    d = {n: shared if i % 2 else [i] for i, n in enumerate(names)}
    e = copy.deepcopy(d)
    for key in e:
        e[key].append(-k)
    sets = [set(r) for r in rows]
    sets.append(sets[0])
    s = copy.deepcopy(sets)
    s[0].add(k)
    dicts = [{i: len(r)} for i, r in enumerate(rows)] + [{}]
    dicts.append(dicts[-1])
    f = copy.deepcopy(dicts)
    f[-1][k] = k
    return grid, g, d, e, sets, s, dicts, f


@settings(max_examples=7, deadline=None)
@given(st.lists(st.lists(st.integers(-3, 3), max_size=3), min_size=1, max_size=3),
       st.lists(st.integers(0, 5), min_size=1, max_size=5), st.lists(st.text("ab", max_size=2), max_size=4),
       st.integers(-9, 9))
def test_deep_copies_of_nested_lists_keep_cpythons_sharing(rows, picks, names, k):
    check_all_levels(deep_nested, rows, picks, names, k)


def _deep_rows_written(grid, m):
    g = copy.deepcopy(grid)
    g[0].append(7)
    e = copy.deepcopy(m)
    e["a"].append("z")
    return len(g[1]), len(e["b"])


def test_a_deep_copy_of_aliased_rows_from_python():
    # the entry copies the arguments in through its memo (ir/list_flow.py: list_id), so the
    # rows the caller shares are shared in compiled code and in the copy
    row = [1.0, 2.0]
    want = _deep_rows([row, row, [3.0]])
    got = script.script(_deep_rows)([row, row, [3.0]])
    assert got == want and got[0] is got[1] and got[0] is not row and got[2] is not got[0]
    for fn in (_deep_rows_written, script.script(_deep_rows_written)):
        r, s = [1], ["x"]
        assert fn([r, r], {"a": s, "b": s}) == (2, 2) and r == [1] and s == ["x"]


def test_a_deep_copy_of_three_levels_is_refused():
    with pytest.raises(CompileError, match=r"copy.deepcopy\(\) of a list\[list\[list\[i64\]\]\] is not supported"):
        script.script(_deep_rows)([[[1]]])
