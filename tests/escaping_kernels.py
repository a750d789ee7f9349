"""Kernels for test_escaping_containers.py: empty containers made in one function (a class's
__init__, a builder function) and filled in another, up the call chain or through an instance."""

import collections
import dataclasses
import heapq
import typing


# ---- classes holding containers ------------------------------------------------------------


class Stack:
    def __init__(self):
        self.items = []

    def push(self, x):
        self.items.append(x)

    def pop(self):
        return self.items.pop()

    def top(self):
        return self.items[-1]

    def empty(self):
        return len(self.items) == 0


def balanced(s):
    st = Stack()
    pairs = {')': '(', ']': '[', '}': '{'}
    for c in s:
        if c in '([{':
            st.push(c)
        elif c in pairs:
            if st.empty() or st.pop() != pairs[c]:
                return False
    return st.empty()


def rpn(tokens):
    """Reverse Polish notation over floats: the stack is typed by the first push (a float)."""
    st = Stack()
    for t in tokens:
        if t != "+" and t != "-" and t != "*":
            st.push(float(t))
        else:
            b = st.pop()
            a = st.pop()
            st.push(a + b if t == "+" else a - b if t == "-" else a * b)
    return st.pop()


def untouched_stack(n):
    """Nothing is ever pushed: the items hold ints, as an empty list does."""
    st = Stack()
    return st.empty(), len(st.items) + n


class Queue:
    """A queue made of two stacks (lists), filled with (time, name) tuples."""

    def __init__(self):
        self.inbox = []
        self.outbox = []

    def put(self, x):
        self.inbox.append(x)

    def get(self):
        if not self.outbox:
            while self.inbox:
                self.outbox.append(self.inbox.pop())
        return self.outbox.pop()

    def size(self):
        return len(self.inbox) + len(self.outbox)


def schedule(events):
    q = Queue()
    out = []
    for t, name in events:
        q.put((t * 0.5, name))
        if q.size() > 2:
            out.append(q.get())
    while q.size():
        out.append(q.get())
    return out


class Graph:
    def __init__(self):
        self.adj = {}

    def add_edge(self, u, v):
        self.adj.setdefault(u, []).append(v)
        self.adj.setdefault(v, [])

    def neighbours(self, u):
        return self.adj.get(u, [])


def bfs(edges, start):
    """Nodes named by strs; adjacency lists filled by a method through setdefault."""
    g = Graph()
    for u, v in edges:
        g.add_edge(u, v)
    seen = {start}
    order = [start]
    i = 0
    while i < len(order):
        for w in g.neighbours(order[i]):
            if w not in seen:
                seen.add(w)
                order.append(w)
        i += 1
    return order


class Cache:
    """A small LRU cache: a dict of str keys to float values and a list of keys in use order."""

    def __init__(self, capacity):
        self.capacity = capacity
        self.data = {}
        self.order = []
        self.misses = 0

    def get(self, key):
        if key in self.data:
            self.order.remove(key)
            self.order.append(key)
            return self.data[key]
        self.misses += 1
        return -1.0

    def put(self, key, value):
        if key in self.data:
            self.order.remove(key)
        elif len(self.order) >= self.capacity:
            del self.data[self.order.pop(0)]
        self.data[key] = value
        self.order.append(key)


def lru(ops, capacity):
    c = Cache(capacity)
    got = []
    for k, v in ops:
        if v >= 0:
            c.put(k, v * 1.5)
        else:
            got.append(c.get(k))
    return got, c.misses, sorted(c.data.items())


class Stats:
    """An accumulator of floats."""

    def __init__(self):
        self.values = []
        self.total = 0.0

    def add(self, x):
        self.values.append(x)
        self.total += x

    def mean(self):
        return self.total / len(self.values)

    def spread(self):
        return max(self.values) - min(self.values)


def summarize(xs):
    s = Stats()
    for x in xs:
        s.add(x * 1.0)
    return s.mean(), s.spread(), len(s.values)


class WordCounter:
    """A dict whose types the first `get` and store decide, both in methods."""

    def __init__(self):
        self.counts = {}
        self.seen = set()

    def feed(self, text):
        for w in text.split():
            self.counts[w] = self.counts.get(w, 0) + 1
            self.seen.add(w[0])

    def top(self):
        best = ""
        n = 0
        for w, c in self.counts.items():
            if c > n or c == n and w < best:
                best, n = w, c
        return best, n


def count_words(texts):
    wc = WordCounter()
    for t in texts:
        wc.feed(t)
    return wc.top(), sorted(wc.seen), len(wc.counts)


class Matrix:
    """Rows (lists of floats) added by a method."""

    def __init__(self):
        self.rows = []

    def add_row(self, row):
        self.rows.append([x * 1.0 for x in row])

    def column_sums(self):
        out = [0.0] * len(self.rows[0])
        for r in self.rows:
            for j in range(len(r)):
                out[j] += r[j]
        return out


def column_sums(rows):
    m = Matrix()
    for r in rows:
        m.add_row([x for x in r])    # (a row of a list from Python given to a method that stores: an error)
    return m.column_sums() if m.rows else []


class Histogram:
    """int bins to lists of the floats that fell in them."""

    def __init__(self, width):
        self.width = width
        self.bins = {}

    def add(self, x):
        b = int(x // self.width)
        if b not in self.bins:
            self.bins[b] = []
        self.bins[b].append(x)


def histogram(xs, width):
    h = Histogram(width)
    for x in xs:
        h.add(x)
    return sorted((b, len(v), sum(v)) for b, v in h.bins.items())


class Log:
    def __init__(self):
        self.lines = []


def emit(log, level, msg):
    """A function further down the chain fills the instance's list."""
    log.lines.append(level + ": " + msg)


def run_log(words):
    log = Log()
    for w in words:
        emit(log, "info" if len(w) < 3 else "warn", w)
    return log.lines


class TreeNode:
    def __init__(self, name):
        self.name = name
        self.children = []

    def add(self, name):
        self.children.append(name)


def tree_names(pairs):
    """Instances in a list, each with its own children list of strs."""
    nodes = []
    for parent, child in pairs:
        found = -1
        for i in range(len(nodes)):
            if nodes[i].name == parent:
                found = i
        if found < 0:
            nodes.append(TreeNode(parent))
            found = len(nodes) - 1
        nodes[found].add(child)
    return [(n.name, n.children) for n in nodes]


class TaskHeap:
    """A priority queue of (priority, name) tuples in a list heapq keeps."""

    def __init__(self):
        self.heap = []

    def push(self, priority, name):
        heapq.heappush(self.heap, (priority, name))

    def pop(self):
        return heapq.heappop(self.heap)


def by_priority(tasks):
    h = TaskHeap()
    for p, name in tasks:
        h.push(p, name)
    out = []
    while h.heap:
        out.append(h.pop())
    return out


class Memo:
    """A memo table of tuple keys and float values filled by a recursive method."""

    def __init__(self, p):
        self.p = p
        self.table = {}

    def prob(self, n, k):
        if k == 0:
            return 1.0
        if n == 0:
            return 0.0
        if (n, k) in self.table:
            return self.table[(n, k)]
        r = self.p * self.prob(n - 1, k - 1) + (1 - self.p) * self.prob(n - 1, k)
        self.table[(n, k)] = r
        return r


def at_least(n, k, p):
    m = Memo(p)
    return m.prob(n, k), len(m.table)


class Inventory:
    def __init__(self):
        self.stock = {}

    def add(self, item, n):
        self.stock[item] = self.stock.get(item, 0) + n

    def take(self, item, n):
        have = self.stock[item]          # KeyError when missing, as in CPython
        if have < n:
            raise ValueError("not enough " + item)
        self.stock[item] = have - n


def inventory(ops):
    inv = Inventory()
    for item, n in ops:
        if n >= 0:
            inv.add(item, n)
        else:
            inv.take(item, -n)
    return sorted(inv.stock.items())


@dataclasses.dataclass
class Batch:
    name: str
    size: int = 0


class Batcher:
    """Lists of instances: filled by a method with a dataclass's instances."""

    def __init__(self):
        self.batches = []

    def add(self, name, size):
        self.batches.append(Batch(name, size))


def batches(items):
    b = Batcher()
    for name, size in items:
        b.add(name, size)
    return [(x.name, x.size) for x in b.batches]


@dataclasses.dataclass
class Tally:
    label: str
    hits: list = dataclasses.field(default_factory=list)
    names: dict = dataclasses.field(default_factory=dict)

    def hit(self, x, name):
        self.hits.append(x)
        self.names[name] = x


def tally(pairs):
    t = Tally("t")
    for x, name in pairs:
        t.hit(x * 0.5, name)
    return t.label, t.hits, sorted(t.names.items())


# ---- builder functions returning empty containers --------------------------------------------


def new_list():
    return []


def new_table():
    return {}


def upper_words(ws):
    out = new_list()
    for w in ws:
        out.append(w.upper())
    return out


def wrapped():
    return new_list()


def through_two(xs):
    """The list is made two calls down and filled here with tuples."""
    out = wrapped()
    for i, x in enumerate(xs):
        out.append((i, x * 0.5))
    return out


def new_pair():
    return [], {}


def index_words(ws):
    """A tuple of a list and a dict, both filled by the caller."""
    order, where = new_pair()
    for i, w in enumerate(ws):
        if w not in where:
            where[w] = (i, len(w))
            order.append(w)
    return order, sorted(where.items())


Buffers = collections.namedtuple("Buffers", "xs names")


class Columns(typing.NamedTuple):
    xs: list
    ys: list


def new_buffers():
    return Buffers([], set())


def buffered(pairs):
    """A named tuple of an empty list and set, filled by the caller."""
    b = new_buffers()
    for x, name in pairs:
        b.xs.append(x / 2)
        b.names.add(name)
    return b.xs, sorted(b.names)


def new_columns():
    return Columns([], [])


def columns(pairs):
    c = new_columns()
    for a, b in pairs:
        c.xs.append(a)
        c.ys.append([b, b + 1.5])
    return c.xs, c.ys


def new_grid(n):
    g = []
    for _ in range(n):
        g.append([])
    return g


def grid_of_strs(n, ws):
    """Lists of lists: the rows' type decided by the caller's stores."""
    g = new_grid(n)
    for i, w in enumerate(ws):
        g[i % n].append(w)
    return g


def fill_table(d, ws):
    for w in ws:
        d[w] = len(w) * 0.25


def word_weights(ws):
    """Made by one function, filled by another (a sibling callee), read by the caller."""
    d = new_table()
    fill_table(d, ws)
    return sorted(d.items())


def only_made(n):
    """Nothing stored: ints, as for a local `[]`."""
    xs = new_list()
    return len(xs) + n, xs


# ---- errors that stay errors ----------------------------------------------------------------


def bad_two_pushes(n):
    s = Stack()
    s.push("a")
    s.push(n)                   # a str stack: push's append of an int is the error
    return len(s.items)


def bool_then_int_pushes(n):
    s = Stack()
    s.push(True)
    s.push(n)                   # a bool stack: push's append of an int is the error
    return len(s.items)


def bad_push_then_store(n):
    s = Stack()
    s.push(n)
    s.items.append("x")         # an int stack
    return len(s.items)


def halves(n):
    """A recursive maker: its base case returns `[]`, the recursive case appends floats."""
    if n <= 0:
        return []
    xs = halves(n - 1)
    xs.append(n * 0.5)
    return xs


def sorted_halves(n):
    return sorted(halves(n), reverse=True)


class Holder:
    def __init__(self, items):
        self.items = items

    def add(self, x):
        self.items.append(x)


def given_empty(ws):
    """The caller's own `[]` given to `__init__`, filled by a method."""
    h = Holder([])
    for w in ws:
        h.add(w + "!")
    return h.items


def dataclass_given_empty(xs):
    """A dataclass field annotated a bare `list` (`dict`) given `[]` (`{}`) by the caller."""
    t = Tally("a", [], {})
    for x in xs:
        t.hit(x, str(x))
    return t.hits, sorted(t.names.items())
