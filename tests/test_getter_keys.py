"""`key=operator.itemgetter(...)` and `key=operator.attrgetter(...)` (frontend/keyed.py:
the lambda that gets the same), in sorted(), list.sort(), min() and max(); and
`key=functools.cmp_to_key(f)` in sorted() and list.sort(); against CPython."""

import functools
import operator
from dataclasses import dataclass
from operator import attrgetter, itemgetter

import pytest
from hypothesis import given, settings, strategies as st

import script
from difftest import check_all_levels
from script.errors import CompileError


@dataclass
class Item:
    weight: int
    value: int

    @property
    def ratio(self) -> float:
        return self.value / self.weight


@dataclass
class Box:
    item: Item
    tag: str


def by_items(pairs):
    return (sorted(pairs, key=itemgetter(1)), sorted(pairs, key=itemgetter(1, 0), reverse=True),
            max(pairs, key=itemgetter(0)), min(pairs, key=operator.itemgetter(-1)))


def by_attributes(ws, vs):
    items = [Item(w, v) for w, v in zip(ws, vs)]
    order = [it.weight for it in sorted(items, key=attrgetter("ratio"), reverse=True)]
    items.sort(key=operator.attrgetter("value", "weight"))
    boxes = [Box(it, str(k)) for k, it in enumerate(items)]
    best = max(boxes, key=attrgetter("item.value"))
    return order, [(i.value, i.weight) for i in items], best.tag


PAIRS = st.lists(st.tuples(st.integers(-5, 5), st.integers(-5, 5)), min_size=1, max_size=8)


@settings(max_examples=30, deadline=None)
@given(PAIRS)
def test_itemgetter_keys_against_cpython(pairs):
    check_all_levels(by_items, pairs)


@settings(max_examples=30, deadline=None)
@given(st.lists(st.integers(1, 9), min_size=1, max_size=6), st.lists(st.integers(-9, 9), min_size=6, max_size=6))
def test_attrgetter_keys_against_cpython(ws, vs):
    check_all_levels(by_attributes, ws, vs[:len(ws)])


def _computed_operand(pairs, k):
    return sorted(pairs, key=itemgetter(k))


def test_a_computed_operand_is_refused():
    with pytest.raises(CompileError, match=r"itemgetter\(\) with operands that are not constants"):
        script.script(_computed_operand)([(1, 2)], 0)


def _by_length_then_reversed(a, b):
    if len(a) != len(b):
        return len(a) - len(b)
    return -1 if a > b else (1 if a < b else 0)


def _sorted_by_comparison(words, rev):
    out = sorted(words, key=functools.cmp_to_key(_by_length_then_reversed), reverse=rev)
    nums = [len(w) * 7 % 5 for w in words]
    nums.sort(key=functools.cmp_to_key(lambda a, b: (a % 3) - (b % 3)))
    return out, nums


@settings(max_examples=40, deadline=None)
@given(st.lists(st.text("abc", max_size=3), max_size=40), st.booleans())
def test_cmp_to_key(words, rev):
    # a stable merge sort asking f(b, a) < 0, as CPython's K(b) < K(a) does: CPython's order
    # for a comparison that orders consistently (more than 16 elements: merged runs too)
    check_all_levels(_sorted_by_comparison, words, rev)
