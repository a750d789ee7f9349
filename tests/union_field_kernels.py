"""Classes whose fields hold values of several types, or None beside a number, for
tests/test_union_fields.py; plain Python, compiled by the tests."""

from __future__ import annotations


class Box:
    def __init__(self):
        self.value = None
        self.count = 0

    def put(self, x):
        self.value = x
        self.count += 1


class Cell:
    def __init__(self, x):
        self.v = x


class Node:
    def __init__(self, data):
        self.data = data
        self.next = None


def last_put(xs):
    # a field None in __init__, given numbers (or strs) by a method: opt[...] or a union
    b = Box()
    for x in xs:
        b.put(x)
    return b.value, b.count, b.value is None


def running_total(xs):
    b = Box()
    for x in xs:
        if b.value is None:
            b.value = x
        else:
            b.value = b.value + x
    return b.value


def relabel(n):
    c = Cell(n)
    if n > 2:
        c.v = "big"
    elif n < 0:
        c.v = n * 0.5
    return c.v, repr(c.v)


def cells(n):
    # two constructions of one class with an int and a str: one field of both
    items = [Cell(n), Cell(str(n)), Cell(n / 4)]
    out = []
    for c in items:
        try:
            out.append(c.v * 2)
        except TypeError as e:
            out.append(str(e))
    return out, [type(c.v).__name__ for c in items]


def chain(items):
    head = None
    for x in items:
        node = Node(x)
        node.next = head
        head = node
    out = []
    while head is not None:
        out.append(head.data)
        head = head.next
    return out


def made(n):
    # an instance with a union field returned to Python
    c = Cell(n if n % 2 else "even")
    return c


def doubled(cells):
    # instances from Python whose field holds an int, a str, a float or None
    for c in cells:
        c.v = c.v * 2
    return len(cells)
