"""heapq, bisect and collections.deque on lists in compiled code (script/lib/python/heapqlib.py,
listlib.py), against CPython: the heap's list must hold the same order afterwards, not only
the same minimum."""

import bisect
import collections
import heapq
from collections import deque
from heapq import heappop, heappush

from hypothesis import given, settings, strategies as st

from difftest import check_all_levels

SET = settings(max_examples=40, deadline=None)


def heap_ops(xs, ops):
    h = []
    out = []
    for x, op in zip(xs, ops):
        if op == 0 or len(h) == 0:
            heapq.heappush(h, x)
        elif op == 1:
            out.append(heapq.heappop(h))
        elif op == 2:
            out.append(heapq.heapreplace(h, x))
        else:
            out.append(heapq.heappushpop(h, x))
    return h, out


def heapify_and_select(xs, n):
    h = list(xs)
    heapq.heapify(h)
    return h, heapq.nsmallest(n, xs), heapq.nlargest(n, xs)


def select_by_key(xs, n):
    sorted = None                   # (the module's own names do not change what key= selects with)
    return heapq.nsmallest(n, xs, key=abs), heapq.nlargest(n, xs, key=lambda x: x % 7), sorted


def pop_empty(k):
    h = [k]
    heappop(h)
    return heappop(h)


def tuple_heap(xs):
    h = []
    for i, x in enumerate(xs):
        heappush(h, (x, -i))
    order = []
    while h:
        order.append(heappop(h)[1])
    return order


def bisections(xs, x, lo, hi):
    a = sorted(xs)
    r = (bisect.bisect_left(a, x), bisect.bisect_right(a, x), bisect.bisect(a, x),
         bisect.bisect_left(a, x, lo), bisect.bisect_right(a, x, lo, hi))
    bisect.insort(a, x)
    bisect.insort_left(a, x + 1)
    bisect.insort_right(a, x - 1, lo)
    return r, a


@SET
@given(st.lists(st.integers(-50, 50), min_size=1, max_size=30), st.lists(st.integers(0, 3), min_size=1, max_size=30))
def test_heap_operations_keep_cpythons_order(xs, ops):
    check_all_levels(heap_ops, xs, ops)
    check_all_levels(heap_ops, [x / 4 for x in xs], ops)


@SET
@given(st.lists(st.integers(-20, 20), min_size=1, max_size=25), st.integers(-2, 8))
def test_heapify_nsmallest_nlargest(xs, n):
    check_all_levels(heapify_and_select, xs, n)
    check_all_levels(select_by_key, xs, n)
    check_all_levels(tuple_heap, xs)


def test_heap_errors():
    check_all_levels(pop_empty, 3)                # IndexError: index out of range


@SET
@given(st.lists(st.integers(-10, 10), min_size=1, max_size=20), st.integers(-12, 12), st.integers(-1, 25),
       st.integers(0, 25))
def test_bisect_and_insort(xs, x, lo, hi):
    check_all_levels(bisections, xs, x, lo, min(hi, len(xs)))     # lo < 0: ValueError


def test_an_item_of_another_type_is_an_error_at_the_users_line():
    import pytest
    import script
    from script.errors import CompileError

    def mixed(x):
        h = [1]
        heappush(h, x)
        return h
    def flagged(x):
        h = [True]
        heappush(h, x)
        return h
    with pytest.raises(CompileError, match=r"test_heapq_bisect.py:\d+:\d+: cannot store a value of type i64 in a list\[bool\]"):
        script.script(flagged)(1)
    for x in (2.5, 0.5, "a"):   # a float pushed onto ints: a list of both, as CPython's (a str: its TypeError)
        check_all_levels(mixed, x)


def bfs(n, k):
    adj = [[(i + 1) % n, (i * k) % n] for i in range(n)]
    dist = [-1] * n
    dist[0] = 0
    q = deque([0])
    while q:
        u = q.popleft()
        for v in adj[u]:
            if dist[v] < 0:
                dist[v] = dist[u] + 1
                q.append(v)
    return dist


def deque_ops(xs, k):
    d = collections.deque()
    for i, x in enumerate(xs):
        if i % 2:
            d.append(x)
        else:
            d.appendleft(x)
    d.rotate(k)
    d.extendleft(xs[:2])
    first = d.popleft()
    return list(d), first, len(d), d[0], d[-1], xs[0] in d, d.pop()


@SET
@given(st.integers(1, 30), st.integers(0, 7))
def test_deque_bfs(n, k):
    check_all_levels(bfs, n, k)


@SET
@given(st.lists(st.integers(-9, 9), min_size=1, max_size=12), st.integers(-15, 15))
def test_deque_methods(xs, k):
    check_all_levels(deque_ops, xs, k)
