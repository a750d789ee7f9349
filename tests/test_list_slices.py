"""List slice assignment and deletion, compiled against CPython (docs/lists.md)."""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import script
from difftest import check_all_levels, compiled

INTS = st.lists(st.integers(-50, 50), min_size=1, max_size=8)   # ([] has no element type)
BOUND = st.integers(-10, 10)
STEP = st.integers(-3, 3)


def assign(a, i, j, k, items):
    b = list(a)
    b[i:j:k] = items
    return b


def assign_empty(a, i, j, k):
    b = list(a)
    b[i:j:k] = []
    c = list(a)
    c[i:j] = ()
    d = []
    d[0:0] = a[:0]
    return b, c, d


def assign_plain(a, i, j, items):
    b = list(a)
    b[i:j] = items
    c = list(a)
    c[i:] = items
    d = list(a)
    d[:j] = items
    e = list(a)
    e[:] = items
    return b, c, d, e


def assign_tuple_and_self(a, i, j):
    b = list(a)
    b[i:j] = (7, 8)
    b[j:i] = b                  # the old b, copied first as CPython does
    c = list(a)
    c[::2] = c[1::2] + c[:len(c) % 2]
    return b, c


def assign_floats(a, i, j):
    b = [float(x) for x in a]
    b[i:j] = [1, 2]              # ints stored in a list of floats
    return b


def delete(a, i, j, k):
    b = list(a)
    del b[i:j:k]
    c = list(a)
    del c[i:j]
    d = list(a)
    del d[::k]
    return b, c, d


def delete_item(a, i):
    b = list(a)
    del b[i]
    return b


def rows_in_a_loop(n):
    rows = [[k] for k in range(5)]
    names = ["a", "b", "c"]
    total = 0
    for k in range(n):
        rows[1:3] = [[k, k], [k + 1], [k + 2, k, 1]]
        del rows[0:1]
        rows[::2] = [[k] for _ in range(len(rows[::2]))]
        rows.insert(0, [k * 2])
        del rows[6:]
        names[1:2] = [str(k), "x" * (k % 4)]
        del names[::2]
        names.append("y")
        total += len(rows) + len(rows[1]) + len(names) + len(names[0])
    return total, rows, names


def pending_element_type(xs):
    out = []
    out[:] = xs
    return out


@settings(max_examples=150, deadline=None)
@given(INTS, BOUND, BOUND, STEP.filter(bool), INTS)
def test_slice_assignment(a, i, j, k, items):
    check_all_levels(assign, a, i, j, k, items)
    check_all_levels(assign_plain, a, i, j, items)
    check_all_levels(assign_empty, a, i, j, k)


@settings(max_examples=60, deadline=None)
@given(INTS, BOUND, BOUND)
def test_slice_assignment_of_tuples_self_and_floats(a, i, j):
    check_all_levels(assign_tuple_and_self, a, i, j)
    if a:
        check_all_levels(assign_floats, a, i, j)


@settings(max_examples=150, deadline=None)
@given(INTS, BOUND, BOUND, STEP.filter(bool))
def test_slice_deletion(a, i, j, k):
    check_all_levels(delete, a, i, j, k)
    check_all_levels(delete_item, a, i)


def test_zero_step_raises_as_cpython():
    check_all_levels(assign, [1, 2, 3], 0, 2, 0, [1])
    check_all_levels(delete, [1, 2, 3], 0, 2, 0)


def test_references_in_sliced_lists_stay_counted():
    assert compiled(rows_in_a_loop)(20000) == rows_in_a_loop(20000)
    check_all_levels(pending_element_type, [1.5, 2.5])


def array_slices(a, x):
    b = a.copy()
    b[1:3] = x
    b[::2] = b[1::2][: len(b[::2])] if len(b) % 2 == 0 else b[::2] * 2
    return b


def test_numpy_array_slice_assignment_already_works():
    check_all_levels(array_slices, np.arange(6.0), 9.0)
    check_all_levels(array_slices, np.arange(5.0), -1.0)


def augmented_slice(a):
    a[0:1] += [1]
    return a


def test_augmented_slice_assignment_is_still_a_compile_error():
    with pytest.raises(script.CompileError, match="augmented assignment to list slices"):
        script.script(augmented_slice)([1, 2])
