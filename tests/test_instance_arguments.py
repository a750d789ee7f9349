"""Instances of users' classes passed from Python (frontend/instance_args.py): typed from the
objects, copied in once each (shared nodes, cycles), written back after the call on both
ways out, and the caller's own objects where they come back; against CPython."""

from __future__ import annotations

import copy
from dataclasses import dataclass

import pytest
from hypothesis import given, settings, strategies as st

import script
from script.errors import CompileError
from test_returned_instances import fields


class Node:
    def __init__(self, data, nxt=None):
        self.data = data
        self.next = nxt


class Tree:
    def __init__(self, key, left=None, right=None):
        self.key = key
        self.left = left
        self.right = right


class DNode:
    def __init__(self, v):
        self.v = v
        self.prev = None
        self.next = None


@dataclass
class Account:
    owner: str
    balance: float
    history: list


class Slotted:
    __slots__ = ("a", "b")

    def __init__(self, a, b):
        self.a = a
        self.b = b


def length(head):
    n = 0
    while head is not None:
        n += 1
        head = head.next
    return n


def reverse(head):
    prev = None
    while head is not None:
        nxt = head.next
        head.next = prev
        prev, head = head, nxt
    return prev


def push_front(head, x):
    return Node(x, head)


def insert(root, key):
    if root is None:
        return Tree(key)
    if key < root.key:
        root.left = insert(root.left, key)
    elif key > root.key:
        root.right = insert(root.right, key)
    return root


def inorder(root, out):
    if root is not None:
        inorder(root.left, out)
        out.append(root.key)
        inorder(root.right, out)
    return out


def height(root):
    return 0 if root is None else 1 + max(height(root.left), height(root.right))


def mirror(root):
    if root is None:
        return None
    root.left, root.right = mirror(root.right), mirror(root.left)
    return root


def mirror_in_place(root):
    if root is not None:        # a recursive call's result stored before its type is known
        root.left, root.right = mirror_in_place(root.right), mirror_in_place(root.left)
    return root


def deposit(acct, amount):
    if amount <= 0:
        raise ValueError("amount must be positive")
    acct.balance += amount
    acct.history.append(amount)
    if acct.balance > 1000:
        raise OverflowError("too rich")         # after the writes: the caller sees them
    return acct.balance


def swap_slots(s):
    s.a, s.b = s.b, s.a
    return s


def unlink(node):
    if node.prev is not None:
        node.prev.next = node.next
    if node.next is not None:
        node.next.prev = node.prev
    node.prev = node.next = None
    return node.v


def same(a, b):
    return a is b, a.data + b.data


def build_tree(keys):
    root = None
    for k in keys:
        root = insert(root, k)
    return root


def build_list(values):
    head = None
    for v in reversed(values):
        head = Node(v, head)
    return head


_COMPILED: dict = {}


def run_both(fn, *args):
    """(CPython's outcome, compiled outcome), each on its own deep copy of `args`, with the
    arguments as they are after the call."""
    out = []
    if fn not in _COMPILED:
        _COMPILED[fn] = script.script(fn)
    for f in (fn, _COMPILED[fn]):
        own = copy.deepcopy(args)
        try:
            r = ("ok", f(*own))
        except Exception as e:  # noqa: BLE001 - the error is part of the answer
            r = ("error", type(e).__name__, str(e))
        out.append(fields((r, own)))
    return out


@given(st.lists(st.integers(-50, 50), max_size=12))
@settings(max_examples=30, deadline=None)
def test_linked_lists(values):
    head = build_list(values)
    for fn, extra in ((length, ()), (reverse, ()), (push_front, (7,))):
        a, b = run_both(fn, head, *extra)
        assert a == b


@given(st.lists(st.integers(-50, 50), min_size=1, max_size=15), st.integers(-60, 60))
@settings(max_examples=30, deadline=None)
def test_search_trees(keys, key):
    root = build_tree(keys)
    for fn, extra in ((insert, (key,)), (height, ()), (mirror, ()), (mirror_in_place, ()), (inorder, ([],))):
        a, b = run_both(fn, root, *extra)
        assert a == b


def test_identity_of_what_comes_back():
    root = build_tree([5, 3, 8, 1])
    left = root.left
    out = script.script(insert)(root, 4)
    assert out is root and root.left is left and root.left.right.key == 4
    head = build_list([1, 2, 3])
    new = script.script(push_front)(head, 0)
    assert type(new) is Node and new.next is head
    assert script.script(same)(head, head) == (True, 2)
    assert script.script(same)(head, head.next) == (False, 3)


def test_cycles_and_writes_through_neighbours():
    a, b, c = DNode(1), DNode(2), DNode(3)
    a.next, b.prev, b.next, c.prev = b, a, c, b
    assert script.script(unlink)(b) == 2
    assert a.next is c and c.prev is a and b.prev is None and b.next is None


def test_writes_before_an_exception_are_kept():
    for amount in (10.0, -1.0, 5000.0):
        assert run_both(deposit, Account("ann", 100.0, [1.0]), amount)[0] == \
            run_both(deposit, Account("ann", 100.0, [1.0]), amount)[1]
    acct = Account("bob", 990.0, [0.0])
    hist = acct.history
    with pytest.raises(OverflowError, match="too rich"):
        script.script(deposit)(acct, 20.0)
    assert acct.balance == 1010.0 and acct.history == [0.0, 20.0] and acct.history is hist


def test_slots_and_unchanged_objects_kept():
    s = Slotted("x" * 3, "y")
    assert script.script(swap_slots)(s) is s and (s.a, s.b) == ("y", "xxx")
    acct = Account("carol", 1.5, [0.5])
    owner = acct.owner
    script.script(deposit)(acct, 1.0)
    assert acct.owner is owner


def test_each_shape_its_own_specialization():
    f = script.script(length)
    assert f(build_list([1, 2])) == 2
    assert f(build_list([1.5, "a"][:1])) == 1            # floats: another type of `data`
    assert f(Node("s")) == 1


class Weird:
    def __init__(self, x):
        self.x = x


def read_x(w):
    return w.x


def test_refusals_name_the_field():
    w, v = Weird(1), Weird([2])
    w.other, v.other = v, None
    with pytest.raises(TypeError, match="field 'x' of Weird holds values of types"):
        script.script(read_x)(w)
    w, v = Weird(1), Weird("s")         # an int in one, a str in another: a union field
    w.other, v.other = v, None
    assert script.script(read_x)(w) == 1 and script.script(read_x)(v) == "s"
    with pytest.raises(TypeError, match="field 'x' of Weird holds a object"):
        script.script(read_x)(Weird(object()))
    u = Weird(1)
    u.extra = Weird(2)          # the inner one lacks `extra`
    with pytest.raises(TypeError, match="different fields"):
        script.script(read_x)(u)


def halve(n):
    n.key = n.key / 2          # an int field given a float: int|float for the class
    return n.key


def graft(n):
    n.key = n.key + 0.5
    n.left = Tree(1.5)


def test_fields_widen_as_compiled_code_stores():
    for fn in (halve, graft):
        a, b = run_both(fn, build_tree([4, 2, 9]))
        assert a == b


def test_specializations_taking_instances_are_not_pickled():
    import pickle
    f = script.script(length)
    assert f(build_list([1, 2])) == 2
    with pytest.raises(pickle.PicklingError, match="take instances of a user's class"):
        pickle.dumps(f)
    assert f(5 * [0] and None) == 0                  # a None argument: a specialization that pickles
    assert pickle.loads(pickle.dumps(f))(None) == 0


@dataclass
class Person:
    name: str
    age: int


class Station:
    def __init__(self, gas, cost):
        self.gas = gas
        self.cost = cost


def oldest(people):
    best = people[0]
    for p in people:
        if p.age > best.age:
            best = p
    return best


def birthdays(people):
    for p in people:
        p.age += 1
    people.append(Person("new", 0))
    return len(people)


def by_age(people):
    people.sort(key=lambda p: p.age)


def can_complete(stations):
    total = 0
    for s in stations:
        total += s.gas - s.cost
    return total >= 0


@given(st.lists(st.tuples(st.sampled_from("abc"), st.integers(0, 99)), min_size=1, max_size=8))
@settings(max_examples=25, deadline=None)
def test_lists_of_instances(rows):
    people = [Person(n, a) for n, a in rows]
    for fn in (oldest, birthdays, by_age):
        a, b = run_both(fn, people)
        assert a == b


def test_lists_and_tuples_keep_the_callers_objects():
    people = [Person("a", 30), Person("b", 40), Person("c", 20)]
    assert script.script(oldest)(people) is people[1]
    order = list(people)
    script.script(by_age)(order)
    assert [p.name for p in order] == ["c", "a", "b"] and order[0] is people[2]
    assert script.script(can_complete)((Station(1, 2), Station(3, 1))) is True
    with pytest.raises(TypeError, match="holding instances of Person and other values"):
        script.script(oldest)([Person("a", 1), 5])


class Box:
    def __init__(self, v):
        self.v = v


def store_list_in_int_field(b):
    b.v = []
    return b.v


def test_a_failed_build_fails_the_same_way_again():
    """Each call of a function whose build failed for an instance argument raises its
    CompileError (the second call went round the failed typings for ever: RecursionError)."""
    f = script.script(store_list_in_int_field)
    for _ in range(3):
        with pytest.raises(CompileError, match="field 'v' of 'Box' is i64; it cannot hold a list"):
            f(Box(1))
