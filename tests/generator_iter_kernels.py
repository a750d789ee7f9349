"""Kernels for test_generator_iter.py: classes whose __iter__ is a generator, walked where
the instance is a local, an attribute (`self.items`, `self.left`), or `iter(...)` of one."""

from __future__ import annotations

from dataclasses import dataclass


class Link:
    def __init__(self, data, nxt=None):
        self.data = data
        self.nxt = nxt


class Stack:
    def __init__(self):
        self.head = None

    def push(self, x):
        self.head = Link(x, self.head)

    def __iter__(self):
        node = self.head
        while node:
            yield node.data
            node = node.nxt

    def text(self):
        return "->".join(str(v) for v in iter(self))

    def size(self):
        return sum(1 for _ in self)


class Box:
    def __init__(self, stack, spare=None):
        self.stack = stack
        self.spare = spare


def _stack(xs):
    s = Stack()
    for x in xs:
        s.push(x)
    return s


def iter_of_self(xs):
    s = _stack(xs)
    return s.text(), s.size()


def attribute_source(xs):
    b = Box(_stack(xs))
    return [v * 2 for v in b.stack], sorted(b.stack), max(b.stack), list(iter(b.stack))


def optional_attribute(xs, give):
    b = Box(_stack(xs), _stack(xs) if give else None)
    out = []
    for v in b.spare:                # TypeError where it is None, as CPython's
        out.append(v)
    return out


def held_iter(xs, k):
    s = _stack(xs)
    it = iter(s)
    first = [next(it) for _ in range(k)]
    return first, list(it), next(it, -1)


def interleaved(xs):
    s = _stack(xs)
    log = []
    for v in iter(s):
        log.append(("got", v))
        if v == 3:
            s.head.data = 99         # seen by the walk's next step, as CPython's
    return log


@dataclass
class Ring:
    data: int
    nxt: Ring | None = None


class RingList:
    def __init__(self):
        self.head = None

    def __iter__(self):
        node = self.head
        while node:
            yield node.data
            node = node.nxt
            if node == self.head:
                break


def ring(n):
    r = RingList()
    if n > 0:
        first = Ring(0)
        first.nxt = first
        last = first
        for i in range(1, n):
            last.nxt = Ring(i, first)
            last = last.nxt
        r.head = first
    return list(r), Ring(1, r.head) == Ring(1, r.head), Ring(1, r.head) != Ring(1, None)
