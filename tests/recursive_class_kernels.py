"""Recursive classes and fields that may be None (docs/records.md), run by
tests/test_recursive_classes.py in CPython and compiled. Results are fields and values:
instances stay inside compiled code."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional


# ---- binary trees ------------------------------------------------------------------------

class Tree:
    def __init__(self, left, right):
        self.left = left
        self.right = right


def make_tree(d):
    if d == 0:
        return Tree(None, None)
    return Tree(make_tree(d - 1), make_tree(d - 1))


def check_tree(t):
    if t.left is None:
        return 1
    return 1 + check_tree(t.left) + check_tree(t.right)


def binary_trees(depth):
    total = 0
    for d in range(depth + 1):
        for _ in range(1 << (depth - d)):
            total += check_tree(make_tree(d))
    return total


def tree_leaf_right(depth):
    """The right field of a leaf read through its parent (None there)."""
    t = make_tree(depth)
    while t.left is not None:
        t = t.left
    return t.right is None, t.left is None


# ---- linked lists ------------------------------------------------------------------------

class ListNode:
    def __init__(self, val, next=None):
        self.val = val
        self.next = next


def build_list(xs):
    head = None
    for x in reversed(xs):
        head = ListNode(x, head)
    return head


def to_list(head):
    out = []
    node = head
    while node is not None:
        out.append(node.val)
        node = node.next
    return out


def list_sum(xs):
    head = build_list(xs)
    total = 0
    node = head
    while node is not None:
        total += node.val
        node = node.next
    return total


def list_length(xs):
    n = 0
    node = build_list(xs)
    while node:
        n += 1
        node = node.next
    return n


def list_reverse(xs):
    prev = None
    node = build_list(xs)
    while node is not None:
        nxt = node.next
        node.next = prev
        prev = node
        node = nxt
    return to_list(prev)


def list_remove(xs, target):
    """Remove every node holding `target`, with a dummy head."""
    dummy = ListNode(0, build_list(xs))
    node = dummy
    while node.next is not None:
        if node.next.val == target:
            node.next = node.next.next
        else:
            node = node.next
    return to_list(dummy.next)


def list_append_tail(xs):
    """Appending at a tail pointer: `tail.next = ListNode(x)`."""
    head = ListNode(-1)
    tail = head
    for x in xs:
        tail.next = ListNode(x)
        tail = tail.next
    return to_list(head.next)


def list_middle(xs):
    """Slow and fast pointers; IndexError-free: None when empty."""
    head = build_list(xs)
    slow = head
    fast = head
    while fast is not None and fast.next is not None:
        slow = slow.next
        fast = fast.next.next
    return -1 if slow is None else slow.val


def list_second_val(xs):
    """`head.next.val` raises AttributeError through None, as in CPython."""
    head = build_list(xs)
    return head.next.val


def long_list(n):
    head = None
    for k in range(n):
        head = ListNode(k, head)
    return head.val + n


def merge_sorted(xs, ys):
    a = build_list(sorted(xs))
    b = build_list(sorted(ys))
    dummy = ListNode(0)
    tail = dummy
    while a is not None and b is not None:
        if a.val <= b.val:
            tail.next = a
            a = a.next
        else:
            tail.next = b
            b = b.next
        tail = tail.next
    tail.next = a if a is not None else b
    return to_list(dummy.next)


# ---- binary search trees -----------------------------------------------------------------

class BSTNode:
    def __init__(self, key):
        self.key = key
        self.left = None
        self.right = None


class BST:
    def __init__(self):
        self.root = None
        self.size = 0

    def insert(self, key):
        if self.root is None:
            self.root = BSTNode(key)
            self.size += 1
            return
        node = self.root
        while True:
            if key == node.key:
                return
            if key < node.key:
                if node.left is None:
                    node.left = BSTNode(key)
                    self.size += 1
                    return
                node = node.left
            else:
                if node.right is None:
                    node.right = BSTNode(key)
                    self.size += 1
                    return
                node = node.right

    def contains(self, key):
        node = self.root
        while node is not None:
            if key == node.key:
                return True
            node = node.left if key < node.key else node.right
        return False

    def inorder(self):
        out = []
        _inorder(self.root, out)
        return out

    def inorder_iterative(self):
        out = []
        stack = []
        node = self.root
        while stack or node is not None:
            while node is not None:
                stack.append(node)
                node = node.left
            node = stack.pop()
            out.append(node.key)
            node = node.right
        return out

    def height(self):
        return _height(self.root)


def _inorder(node, out):
    if node is None:
        return
    _inorder(node.left, out)
    out.append(node.key)
    _inorder(node.right, out)


def _height(node):
    if node is None:
        return 0
    return 1 + max(_height(node.left), _height(node.right))


def bst_sort(xs, probes):
    t = BST()
    for x in xs:
        t.insert(x)
    return t.inorder(), t.inorder_iterative(), t.size, [t.contains(p) for p in probes], t.height()


def bst_min_max(xs):
    t = BST()
    for x in xs:
        t.insert(x)
    lo = t.root
    while lo.left is not None:
        lo = lo.left
    hi = t.root
    while hi.right is not None:
        hi = hi.right
    return lo.key, hi.key


def bst_recursive_insert(xs):
    root = None
    for x in xs:
        root = _insert(root, x)
    out = []
    _inorder(root, out)
    return out


def _insert(node, key):
    if node is None:
        return BSTNode(key)
    if key < node.key:
        node.left = _insert(node.left, key)
    elif key > node.key:
        node.right = _insert(node.right, key)
    return node


# ---- tries --------------------------------------------------------------------------------

class TrieNode:
    def __init__(self):
        self.children = {}
        self.end = False
        self.count = 0


class Trie:
    def __init__(self):
        self.root = TrieNode()

    def insert(self, word):
        node = self.root
        for ch in word:
            if ch not in node.children:
                node.children[ch] = TrieNode()
            node = node.children[ch]
            node.count += 1
        node.end = True

    def search(self, word):
        node = self.root
        for ch in word:
            if ch not in node.children:
                return False
            node = node.children[ch]
        return node.end

    def prefix_count(self, prefix):
        node = self.root
        for ch in prefix:
            child = node.children.get(ch)
            if child is None:
                return 0
            node = child
        return node.count


def trie_ops(words, probes):
    t = Trie()
    for w in words:
        t.insert(w)
    return [t.search(p) for p in probes], [t.prefix_count(p[:2]) for p in probes]


# ---- graphs, union-find, expression trees, LRU -------------------------------------------

class GraphNode:
    def __init__(self, label):
        self.label = label
        self.neighbors = []


def graph_bfs(n, edges):
    nodes = [GraphNode(k) for k in range(n)]
    for a, b in edges:
        nodes[a % n].neighbors.append(nodes[b % n])
    seen = {0}
    order = [0]
    queue = [nodes[0]]
    while queue:
        node = queue.pop(0)
        for m in node.neighbors:
            if m.label not in seen:
                seen.add(m.label)
                order.append(m.label)
                queue.append(m)
    return order


class UFNode:
    def __init__(self, label):
        self.label = label
        self.parent = None
        self.rank = 0


def _find(x):
    root = x
    while root.parent is not None:
        root = root.parent
    while x.parent is not None and x.parent is not root:
        nxt = x.parent
        x.parent = root
        x = nxt
    return root


def union_find(n, pairs):
    nodes = [UFNode(k) for k in range(n)]
    for a, b in pairs:
        ra, rb = _find(nodes[a % n]), _find(nodes[b % n])
        if ra is rb:
            continue
        if ra.rank < rb.rank:
            ra, rb = rb, ra
        rb.parent = ra
        if ra.rank == rb.rank:
            ra.rank += 1
    return [_find(x).label for x in nodes]


class Expr:
    def __init__(self, op, value, left=None, right=None):
        self.op = op
        self.value = value
        self.left = left
        self.right = right


def _evaluate(e):
    if e.op == "num":
        return e.value
    a = _evaluate(e.left)
    b = _evaluate(e.right)
    if e.op == "+":
        return a + b
    if e.op == "-":
        return a - b
    if e.op == "*":
        return a * b
    return a / b


def expr_tree(values, ops):
    """A left-leaning tree from `values` and the operators in `ops`, evaluated recursively."""
    e = Expr("num", values[0])
    for k in range(1, len(values)):
        e = Expr(ops[k % len(ops)], 0.0, e, Expr("num", values[k]))
    return _evaluate(e)


class DNode:
    def __init__(self, key, value):
        self.key = key
        self.value = value
        self.prev = None
        self.next = None


class LRU:
    def __init__(self, capacity):
        self.capacity = capacity
        self.map = {}
        self.head = DNode(0, 0)
        self.tail = DNode(0, 0)
        self.head.next = self.tail
        self.tail.prev = self.head

    def _unlink(self, node):
        node.prev.next = node.next
        node.next.prev = node.prev

    def _push_front(self, node):
        node.next = self.head.next
        node.prev = self.head
        self.head.next.prev = node
        self.head.next = node

    def get(self, key):
        if key not in self.map:
            return -1
        node = self.map[key]
        self._unlink(node)
        self._push_front(node)
        return node.value

    def put(self, key, value):
        node = DNode(key, value)
        old = self.map.get(key, node)   # (the default types the table's values)
        if old is not node:
            self._unlink(old)
        self.map[key] = node
        self._push_front(node)
        if len(self.map) > self.capacity:
            last = self.tail.prev
            self._unlink(last)
            del self.map[last.key]


def lru_ops(capacity, ops):
    cache = LRU(capacity)
    out = []
    for k, v in ops:
        if v >= 0:
            cache.put(k, v)
        else:
            out.append(cache.get(k))
    return out


# ---- dataclasses with Optional and list annotations --------------------------------------

@dataclass
class Cell:
    value: float
    next: Optional[Cell] = None


def dc_list(xs):
    head = None
    for x in xs:
        head = Cell(x, head)
    total = 0.0
    n = 0
    while head is not None:
        total += head.value
        n += 1
        head = head.next
    return total, n


@dataclass
class Category:
    name: str
    children: list[Category] = field(default_factory=list)


def _walk(c, depth, out):
    out.append((c.name, depth))
    for k in c.children:
        _walk(k, depth + 1, out)


def dc_tree(paths):
    """A category tree from '/'-separated paths, walked depth first."""
    root = Category("")
    for p in paths:
        node = root
        for part in p.split("/"):
            found = None
            for k in node.children:
                if k.name == part:
                    found = k
            if found is None:
                found = Category(part)
                node.children.append(found)
            node = found
    out = []
    _walk(root, 0, out)
    return out


# ---- classes that hold each other ---------------------------------------------------------

class GNode:
    def __init__(self, name):
        self.name = name
        self.edges = []


class GEdge:
    def __init__(self, src, dst, weight):
        self.src = src
        self.dst = dst
        self.weight = weight


def shortest_paths(n, arcs):
    """Bellman-Ford over nodes holding their edges, edges holding their ends."""
    nodes = [GNode(k) for k in range(n)]
    for a, b, w in arcs:
        nodes[a % n].edges.append(GEdge(nodes[a % n], nodes[b % n], w))
    dist = [10**9] * n
    dist[0] = 0
    for _ in range(n):
        for node in nodes:
            for e in node.edges:
                if dist[e.src.name] + e.weight < dist[e.dst.name]:
                    dist[e.dst.name] = dist[e.src.name] + e.weight
    return dist


class Section:
    def __init__(self, title, chapter):
        self.title = title
        self.chapter = chapter          # the Chapter it belongs to, or None


class Chapter:
    def __init__(self, title):
        self.title = title
        self.first = None               # a Section, or None
        self.count = 0


def chapters(titles):
    """A Chapter holds a Section that holds the Chapter (A -> B -> A)."""
    out = []
    for t in titles:
        c = Chapter(t)
        c.first = Section(t + ".1", c)
        c.count += 1
        s = c.first
        out.append(s.chapter.title + "/" + s.title)
        c.first = None                  # (breaks the cycle: both are freed)
    return out


class Pair:
    def __init__(self, v, left=None, right=None):
        self.v = v
        self.left = left
        self.right = right


def children_sum(n):
    # a list display of fields that may be None holds them as they are
    t = Pair(1, Pair(2), None) if n % 3 == 1 else Pair(1) if n % 3 == 0 else Pair(1, None, Pair(5))
    kids = [t.left, t.right]
    return sum(c.v for c in kids if c is not None), kids[0] is None, len(kids)


# ---- a linked list whose head is typed before its nodes' `next` is (the order real code
# writes them in: `self.head = None`, then `node.next = self.head; self.head = node`) ----

class LNode:
    def __init__(self, data):
        self.data = data
        self.next = None
        self.previous = None


class Chain:
    def __init__(self):
        self.head = None
        self.tail = None

    def push(self, data):
        node = LNode(data)
        node.next = self.head
        if self.head is not None:
            self.head.previous = node
        else:
            self.tail = node
        self.head = node

    def pop_head(self):
        node = self.head
        self.head = self.head.next          # AttributeError on an empty chain, as CPython
        if self.head is None:
            self.tail = None
        else:
            self.head.previous = None
        return node.data

    def items(self):
        out = []
        cur = self.head
        while cur:
            out.append(cur.data)
            cur = cur.next
        return out


def chain_ops(xs, pops):
    c = Chain()
    for x in xs:
        c.push(x)
    taken = [c.pop_head() for _ in range(pops)]
    back = []
    cur = c.tail
    while cur is not None:
        back.append(cur.data)
        cur = cur.previous
    return taken, c.items(), back
