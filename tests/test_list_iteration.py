"""`for x in xs` over a list reads its length before each element, as CPython's list
iterator does (frontend/loop.py `Growing`): a loop sees what its body appends and stops
early where the body removes items; enumerate() and zip() of lists too. Against CPython."""

import pytest
from hypothesis import given, settings, strategies as st

from difftest import check_all_levels


def reachable(adj, s):
    order = [s]
    for u in order:                     # a breadth-first search appending to what it walks
        for v in adj[u % len(adj)]:
            if v not in order:
                order.append(v)
    return order


def drop_evens(arr):
    seen = []
    for i, item in enumerate(arr):      # strand sort's pattern: pop while enumerating
        seen.append((i, item))
        if item % 2 == 0:
            arr.pop(i)
    return seen, arr


def pairs_while_growing(a, b):
    out = []
    for x, y in zip(a, b):
        out.append(x + y)
        if len(a) < 12:
            a.append(x + 1)
    return out, a


def shrink_to_nothing(xs):
    n = 0
    for x in xs:
        n += x
        xs.clear()
    return n, xs


ADJ = st.lists(st.lists(st.integers(0, 6), max_size=3), min_size=1, max_size=7)
INTS = st.lists(st.integers(-9, 9), max_size=9)


@settings(max_examples=40, deadline=None)
@given(ADJ, st.integers(0, 6))
def test_a_loop_sees_what_its_body_appends(adj, s):
    check_all_levels(reachable, adj, s)


@settings(max_examples=40, deadline=None)
@given(INTS, INTS)
def test_a_loop_stops_where_its_body_shrinks_the_list(xs, ys):
    check_all_levels(drop_evens, xs)
    check_all_levels(pairs_while_growing, xs, ys)
    check_all_levels(shrink_to_nothing, xs)


@pytest.mark.parametrize("adj", [[[1, 2], [3], [3], []]])
def test_the_search_that_found_it(adj):
    check_all_levels(reachable, adj, 0)        # [0, 1, 2, 3]; was [0, 1, 2]
