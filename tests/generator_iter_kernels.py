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


# ---- recursive generators (recursive_generators.py) --------------------------------------

@dataclass
class TreeNode:                      # sorts/tree_sort.py
    val: int
    left: TreeNode | None = None
    right: TreeNode | None = None

    def __iter__(self):
        if self.left:
            yield from self.left
        yield self.val
        if self.right:
            yield from self.right

    def __len__(self) -> int:        # (`if self.left` asks it: a recursion, typed so)
        return sum(1 for _ in self)

    def insert(self, val):
        if val < self.val:
            if self.left is None:
                self.left = TreeNode(val)
            else:
                self.left.insert(val)
        elif val > self.val:
            if self.right is None:
                self.right = TreeNode(val)
            else:
                self.right.insert(val)


def _tree(xs):
    root = TreeNode(xs[0])
    for x in xs[1:]:
        root.insert(x)
    return root


def tree_items(xs):
    root = _tree(xs)
    return list(root), sorted(root, reverse=True), len(root), sum(root), max(root), \
        min(v for v in root), set(root), [v for v in root], {v: k for k, v in enumerate(root)}


def tree_truth(xs, key):
    root = _tree(xs)                 # floor_and_ceiling.py: `while root` asks __len__
    node = root
    floor = None
    while node:
        if node.val <= key:
            floor = node.val
            node = node.right
        else:
            node = node.left
    return floor


class Branch:
    def __init__(self, v, kids):
        self.v = v
        self.kids = kids

    def walk(self, depth):
        if depth > 3:
            raise ValueError(f"too deep at {self.v}")
        yield self.v
        for k in self.kids:
            yield from k.walk(depth + 1)


def branches(n, deep):
    kids = [Branch(i, [Branch(10 * i + j, [Branch(100, [])] if deep else []) for j in range(i)])
            for i in range(n)]
    t = Branch(-1, kids)
    return list(t.walk(0)), sum(1 for _ in t.walk(2))     # ValueError past depth 3, as CPython's


def countdown_both(n):
    if n > 0:
        yield n
        yield from countdown_both(n - 1)
        yield -n


def recursive_function(n):
    return list(countdown_both(n)), sorted(countdown_both(n)), "".join(str(x) for x in [n])


def tree_for_loop(xs):
    out = []
    root = _tree(xs)
    for v in root:
        out.append(v)
    return out
