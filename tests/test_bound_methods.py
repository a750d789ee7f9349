"""Bound methods held in a local (`ins = perm.insert`, `add = out.append`), against
CPython (script/frontend/bound_methods.py)."""

import pytest
from hypothesis import given, settings, strategies as st

import script
from difftest import check_all_levels
from script.errors import CompileError

SET = settings(max_examples=25, deadline=None)


def rotate_prefixes(n):
    # fannkuch's permutation step, with the list methods held in locals
    perm = list(range(n))
    ins = perm.insert
    pop = perm.pop
    seen = []
    add = seen.append
    for r in range(1, n):
        ins(r, pop(0))
        add(perm[:])
    return seen


def tally(text):
    counts = {}
    get = counts.get
    words = []
    push = words.append
    for w in text.split():
        counts[w] = get(w, 0) + 1
        push(w)
    seen = set()
    mark = seen.add
    for w in words:
        mark(w[:1])
    upper = text.upper
    return counts, words, len(seen), upper()


def bound_to_the_first_list(n, x):
    xs = [1.5]
    push = xs.append
    first = xs
    xs = [0.0]                  # push still appends to the first list
    for i in range(n):
        push(x * i)
    return first, xs


class Acc:
    def __init__(self):
        self.total = 0.0

    def add(self, x):
        self.total += x


def instance_method(xs):
    acc = Acc()
    add = acc.add
    for x in xs:
        add(x)
    return acc.total


@SET
@given(st.integers(0, 7), st.text("ab c", max_size=12), st.floats(-9, 9))
def test_bound_methods(n, text, x):
    check_all_levels(rotate_prefixes, n)
    check_all_levels(tally, text)
    check_all_levels(bound_to_the_first_list, n, x)
    check_all_levels(instance_method, [x] * n)


def used_as_a_value(xs):
    add = xs.append
    f = add
    f(1)
    return xs


def test_a_bound_method_used_as_a_value_is_an_error():
    with pytest.raises(CompileError, match="the bound method .list.append. is not a value"):
        script.script(used_as_a_value)([1])
