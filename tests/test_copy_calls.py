"""copy.copy and copy.deepcopy (frontend/copy_calls.py) against CPython: the copies, what
writing them leaves in the originals, and the refusal of a deep copy of nested mutables."""

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


def test_a_deep_copy_of_nested_lists_is_refused():
    with pytest.raises(CompileError, match=r"copy.deepcopy\(\) of a list\[list\[i64\]\] is not supported"):
        script.script(_deep_rows)([[1]])
