"""An int stored into a list of floats keeps its type, as CPython's list does: a list that
`list()`, `sorted()`, `deque()`, a slice, `copy()` or `+` makes in the function becomes a
list of int|float values (`lists.made_list`); a list of floats made elsewhere (a callee's
result, a field, a dict's value) given an int is a CompileError, never `3.0` for `3`. A list
made here that a compiled callee stores the other kind into widens alike."""

from collections import deque

import pytest
from hypothesis import given, settings, strategies as st

import script
from difftest import check_typed

floats = st.floats(-1e6, 1e6, allow_nan=False).filter(lambda x: x != int(x))
ints = st.integers(-1000, 1000)


def from_list(xs, n):
    q = list(xs)
    q.append(n)
    return q


def from_sorted(xs, n):
    q = sorted(xs)
    q.insert(0, n)
    return q


def from_deque(xs, n):
    q = deque(xs)
    q.append(n)
    q.appendleft(n + 1)
    return list(q)


def from_bounded_deque(xs, n):
    q = deque(xs, maxlen=3)
    q.extend([n, n * 2])
    return list(q)


def from_slice(xs, n):
    q = xs[1:]
    q.append(n)
    return q


def from_copy(xs, n):
    q = xs.copy()
    if q:
        q[0] = n
    return q


def from_concat(xs, n):
    q = xs + [0.5]
    q.extend([n])
    return q


def tuples(xs, n):
    q = [(x, 1) for x in xs]
    out = list(q)
    out.append((n, 2))
    return out


def deque_of_display(n):
    q = deque([1.5])
    q.append(n)
    return q.pop(), list(q)


@settings(max_examples=25, deadline=None)
@given(st.lists(floats, max_size=4), ints)
def test_lists_made_here_keep_ints(xs, n):
    for fn in (from_list, from_sorted, from_deque, from_bounded_deque, from_slice, from_copy,
               from_concat, tuples):
        check_typed(fn, list(xs), n)


def test_deque_of_a_display_keeps_ints():
    check_typed(deque_of_display, 3)
    assert script.script(deque_of_display)(3) == (3, [1.5])
    assert type(script.script(deque_of_display)(3)[0]) is int


def _floats():
    return [1.5]


def from_callee(n):
    q = _floats()
    q.append(n)
    return q


class Box:
    def __init__(self):
        self.xs = [1.5]


def from_field(n):
    b = Box()
    b.xs.append(n)
    return b.xs


def from_dict_value(n):
    d = {"a": [1.5]}
    d["a"].append(n)
    return d


@pytest.mark.parametrize("fn", [from_callee, from_field, from_dict_value])
def test_float_lists_from_elsewhere_refuse_ints(fn):
    with pytest.raises(script.CompileError, match="cannot store an int in this list\\[f64\\]"):
        script.script(fn)(3)


def test_a_float_list_argument_becomes_int_float():
    def add(xs, n):
        xs.append(n)
        return xs
    check_typed(add, [1.5], 3)


def _append_half(xs):
    xs.append(0.5)


def _put_int(xs, n):
    xs[0] = n


def _halve_rows(g):
    for r in g:
        for j in range(len(r)):
            r[j] = r[j] / 2


def passed_to_callees(xs, n):
    ints = [n, n + 1]
    _append_half(ints)                  # a float into the caller's list of ints
    floats = [x * 1.5 for x in xs] + [0.5]
    _put_int(floats, n)                 # an int into its list of floats
    grid = [[n * i] * 2 for i in range(3)]
    _halve_rows(grid)                   # rows made by a comprehension, passed whole
    stored = []
    for x in xs:
        stored.append(int(x))
    _append_half(stored)                # an empty list typed by its stores
    return ints, floats, grid, stored


def inserted(xs, n):
    rows = [[n, 2.5], [n + 1, 4]]       # (lists of int|float values)
    firsts = [x for x in xs] + [n]
    for i in range(len(rows)):
        rows[i].insert(0, firsts[i % len(firsts)])     # an int|float value inserted whole
    return rows


@settings(max_examples=10, deadline=None)
@given(st.lists(floats, max_size=3), ints)
def test_lists_passed_to_a_callee_that_stores_the_other_kind(xs, n):
    # the callee's CompileError (MIXED_NUMBERS) widens the caller's lists made here to int|float
    # ones (lists.widen_arguments), as the dispatcher widens a list argument from Python
    check_typed(passed_to_callees, list(xs), n)
    check_typed(inserted, list(xs), n)


def displays_on_two_paths(xs, n):
    u = [1, 2]
    if n > 2:
        u = [0.5, 1.5]
    w = [0] * 3
    for _ in range(n % 3):
        w = [x / 2 + 1 for x in w]      # made here too: w's first display stays ints
    return u, w


@settings(max_examples=10, deadline=None)
@given(st.lists(floats, max_size=1), ints)
def test_int_and_float_displays_meeting_keep_their_elements(xs, n):
    # a variable holding a list of ints made here on one path and a list of floats made here
    # on another: both hold int|float values ([1, 2] stays [1, 2], not [1.0, 2.0])
    check_typed(displays_on_two_paths, list(xs), n)
