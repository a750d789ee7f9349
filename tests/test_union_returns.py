"""Functions whose returns have types CPython keeps apart, called from Python
(frontend/union_returns.py): each runs in CPython and compiled, at every optimization level,
and gives the same value of the same type; a call from compiled code holds the union
(frontend/union_values.py, tests/test_union_values.py).
"""

from __future__ import annotations

import pickle

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import script
from difftest import check_all_levels


def quick_sort(data):
    # TheAlgorithms sorts/recursive_quick_sort.py: a short str is returned as it is
    if len(data) <= 1:
        return data
    return [*quick_sort([e for e in data[1:] if e <= data[0]]), data[0],
            *quick_sort([e for e in data[1:] if e > data[0]])]


def compare_string(a, b):
    # TheAlgorithms boolean_algebra/quine_mc_cluskey.py: False, or the merged text
    out = list(a)
    count = 0
    for i in range(len(a)):
        if a[i] != b[i]:
            count += 1
            out[i] = "_"
    if count > 1:
        return False
    return "".join(out)


def kth_smallest(xs, k):
    if not 0 <= k < len(xs):
        return "Invalid value of k"
    return sorted(xs)[k]


def number_or_pair(n):
    if n > 2:
        return ("big", n * 1.5)
    return (n, n + 1)


def int_or_pair(x):
    if x > 0:
        return 1
    return (1, 2)


def list_int_or_none(x):
    if x > 0:
        return [1]
    if x < -5:
        return 2
    # falls off the end: None, besides an int and a list


def false_or_int(x):
    if x > 5:
        return False
    return x


def three_kinds(x):
    if x > 10:
        return "big"
    if x > 0:
        return x * 0.5
    if x == 0:
        return True
    return [x]


def first_or_empty(xss):
    if not xss:
        return xss
    return xss[0]


def positive_or_text(x):
    return x if x > 0 else ("zero" if x == 0 else [x])


@pytest.mark.parametrize("fn, args", [
    (quick_sort, ("quick_sort",)), (quick_sort, ("q",)), (quick_sort, ("",)), (quick_sort, ([3, 1, 2],)),
    (compare_string, ("0010", "0110")), (compare_string, ("0110", "1101")),
    (kth_smallest, ([3, 1, 2], 1)), (kth_smallest, ([3, 1, 2], 7)),
    (number_or_pair, (5,)), (number_or_pair, (1,)),
    (int_or_pair, (1,)), (int_or_pair, (-1,)),
    (list_int_or_none, (1,)), (list_int_or_none, (-9,)), (list_int_or_none, (0,)),
    (false_or_int, (9,)), (false_or_int, (2,)),
    (first_or_empty, ([],)), (first_or_empty, ([[1], [2]],)),
    (positive_or_text, (1,)), (positive_or_text, (0,)), (positive_or_text, (-2,)),
])
def test_returns_of_types_cpython_keeps_apart(fn, args):
    check_all_levels(fn, *args)


@settings(max_examples=40, deadline=None)
@given(st.integers(-20, 20))
def test_three_kinds_of_returns_against_cpython(x):
    check_all_levels(three_kinds, x)


def test_a_returned_argument_list_is_the_callers_object():
    xs = [[1], [2]]
    got = script.script(first_or_empty)
    assert got(xs) is xs[0]
    empty = []
    assert got(empty) is empty


def calls_kth(xs):
    return kth_smallest(xs, 0)


def test_a_call_from_compiled_code_holds_either():
    # the union result is taken apart where it is read (union_values.py)
    f = script.script(calls_kth)
    for xs in ([1, 2], [], [5]):
        got = f(xs)
        assert got == calls_kth(xs) and type(got) is type(calls_kth(xs))


def test_unions_pickle_save_and_load(tmp_path):
    f = script.script(kth_smallest)
    assert f([3, 1], 0) == 1
    g = pickle.loads(pickle.dumps(f))
    assert g([3, 1], 1) == 3 and g([3], 4) == "Invalid value of k"
    script.save(f, tmp_path / "kth.so")
    m = script.load(tmp_path / "kth.so")
    assert m.kth_smallest([5, 4], 0) == 4 and m.kth_smallest([], 0) == "Invalid value of k"
