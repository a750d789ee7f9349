"""Instances made in compiled code and returned to Python are instances of their class, as
CPython's: fields in `__init__`'s order, one object per record (shared nodes, cycles), in
tuples, lists, dicts, other instances and optionals (runtime.boxing `record_box_helper`)."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from hypothesis import given, settings, strategies as st

import script
from script.errors import CompileError


class Node:
    def __init__(self, data, nxt=None):
        self.data = data
        self.next = nxt


class TreeNode:
    def __init__(self, val, left=None, right=None):
        self.val = val
        self.left = left
        self.right = right


class DNode:
    def __init__(self, v):
        self.v = v
        self.prev = None
        self.next = None


class Group:
    def __init__(self, name):
        self.name = name
        self.members = []


class Slotted:
    __slots__ = ("a", "b")

    def __init__(self, a, b):
        self.a = a
        self.b = b


class Num:
    def __init__(self, x):
        self.x = x


class Other:
    def __init__(self, y):
        self.y = y


@dataclass(frozen=True)
class Point:
    x: int
    y: float


def linked(n):
    head = None
    for i in range(n):
        head = Node(i * i, head)
    return head


def tree(depth):
    if depth == 0:
        return None
    return TreeNode(depth, tree(depth - 1), tree(depth - 2) if depth > 1 else None)


def doubly(n):
    first = DNode(0)
    cur = first
    for i in range(1, n):
        node = DNode(i)
        node.prev = cur
        cur.next = node
        cur = node
    return first, cur


def points(n):
    p = Point(1, 2.5)
    return [p, Point(n, 0.5), p]


def groups(n):
    g = Group("all")
    for i in range(n):
        g.members.append(Group(str(i)))
    table = {"root": g}
    for m in g.members:
        table[m.name] = m
    return g, table


def mixed_numbers(k):
    return [Num(1), Num(2.5)] if k else [Num(3)]


def slotted(a):
    return Slotted(a, str(a))


def either(k):
    return Num(k) if k > 0 else Other(k)


def fields(obj):
    """What CPython shows of an object graph: classes, fields and which objects are shared."""
    seen = {}

    def walk(x):
        if isinstance(x, (list, tuple)):
            return type(x).__name__, [walk(e) for e in x]
        if isinstance(x, dict):
            return "dict", [(k, walk(v)) for k, v in x.items()]
        if x is None or isinstance(x, (int, float, str)):
            return type(x).__name__, x
        if id(x) in seen:
            return "seen", seen[id(x)]
        seen[id(x)] = len(seen)
        names = x.__slots__ if hasattr(x, "__slots__") else list(vars(x))
        return type(x).__name__, [(n, walk(getattr(x, n))) for n in names]
    return walk(obj)


@pytest.mark.parametrize("fn, args", [
    (linked, (0,)), (linked, (4,)), (tree, (4,)), (tree, (0,)), (doubly, (1,)), (doubly, (5,)),
    (points, (3,)), (groups, (3,)), (mixed_numbers, (0,)), (mixed_numbers, (1,)), (slotted, (7,))])
def test_returned_instances_are_cpythons(fn, args):
    assert fields(script.script(fn)(*args)) == fields(fn(*args))


@given(st.integers(0, 12))
@settings(max_examples=20, deadline=None)
def test_linked_structures(n):
    f, g = script.script(linked), script.script(doubly)
    assert fields(f(n)) == fields(linked(n))
    if n:
        first, last = g(n)
        assert type(first) is DNode and (n == 1 or first.next.prev is first)
        assert fields((first, last)) == fields(doubly(n))


def test_identity_and_class():
    ps = script.script(points)(3)
    assert ps[0] is ps[2] and ps[0] is not ps[1]
    assert ps == points(3) and isinstance(ps[1], Point)
    g, table = script.script(groups)(2)
    assert table["root"] is g and table["1"] is g.members[1]


def test_union_of_classes_is_refused():
    with pytest.raises(CompileError, match="one of several classes"):
        script.script(either)(1)


def test_a_chain_too_deep_is_a_recursion_error_not_a_crash():
    f = script.script(linked)
    head = f(20_000)
    count = 0
    while head is not None:
        count, head = count + 1, head.next
    assert count == 20_000
    with pytest.raises(RecursionError, match="returning instances of 'Node'"):
        f(3_000_000)
