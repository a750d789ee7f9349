"""Fixes made for the workload kernels of benchmarks/kernels_workloads.py, end to end.

- ``fixedlen``: the length of a list that nothing can resize after it is made
  (``[0] * n``, ``list(range(n))``, a comprehension over a range, then only indexed) is the
  length it was made with, so its bounds checks compare with that value instead of a
  length read back from memory after every store.

Differential: compiled (opt=0, the default level, opt=3) against CPython on indices in and
out of range (negative ones included), and on lists that must keep reading their length:
appended to, popped, grown by a callee, stored in another list.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

import workload_kernels as K
from difftest import check, compiled

LEVELS = ({"opt": 0}, {}, {"opt": 3})


def check_levels(fn, *args):
    for options in LEVELS:
        check(fn, compiled(fn, **options), *args)


def opt_ir(fn, *args) -> str:
    f = compiled(fn)
    f(*args)
    return f.ir("opt")


def test_fixed_lists_index_in_and_out_of_range():
    for n in range(0, 6):
        for i in range(-n - 2, n + 2):
            check_levels(K.fill_and_index, n, i, (i * 3) % (n + 3) - 1)
            check_levels(K.comprehension_sum, n, i)
            check_levels(K.grows, n, i)
            check_levels(K.grows_in_callee, n, i)
            check_levels(K.fixed_then_popped, n, i)
        for i in range(-3, 5):
            if n:
                check_levels(K.nested_rows, n, i)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 12), st.lists(st.integers(0, 200), min_size=1, max_size=30))
def test_range_list_swaps(n, moves):
    check_levels(K.range_list_swaps, n, moves)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(-3, 12), min_size=1, max_size=40), st.integers(0, 10))
def test_counts(xs, m):
    check_levels(K.counts_of, xs, m)


def test_lengths_forwarded_only_where_fixed():
    # the table's length is n once made: no list_len of it is left in the loop
    assert "list_len" not in opt_ir(K.fill_and_index, 5, 1, 2)
    # appends, a callee and a pop may change it: the length is read back
    assert "list_len" in opt_ir(K.grows, 5, 1)
    assert "list_len" in opt_ir(K.fixed_then_popped, 5, 1)


def test_many_calls_keep_lists_right():
    f = compiled(K.counts_of)
    xs = list(range(-2, 40)) * 3
    want = K.counts_of(xs, 17)
    for _ in range(2000):
        assert f(xs, 17) == want
