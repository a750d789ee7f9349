"""Classes whose __init__ calls methods, as real code writes them (tests/test_init_methods.py)."""

from __future__ import annotations

from dataclasses import dataclass

class MinHeap:
    def __init__(self, items: list[int]) -> None:
        self.heap: list[int] = []
        self.pushes = 0
        for x in items:
            self.push(x)

    def push(self, x: int) -> None:
        self.pushes += 1
        self.heap.append(x)
        i = len(self.heap) - 1
        while i > 0 and self.heap[(i - 1) // 2] > self.heap[i]:
            p = (i - 1) // 2
            self.heap[p], self.heap[i] = self.heap[i], self.heap[p]
            i = p

    def pop(self) -> int:
        top = self.heap[0]
        last = self.heap.pop()
        if self.heap:
            self.heap[0] = last
            i = 0
            while True:
                c = 2 * i + 1
                if c >= len(self.heap):
                    break
                if c + 1 < len(self.heap) and self.heap[c + 1] < self.heap[c]:
                    c += 1
                if self.heap[i] <= self.heap[c]:
                    break
                self.heap[i], self.heap[c] = self.heap[c], self.heap[i]
                i = c
        return top


class Automaton:
    """Aho-Corasick's shape: tables filled by methods that __init__ calls."""

    def __init__(self, keywords: list[str]) -> None:
        self.goto: list[dict[str, int]] = [{}]
        self.out: list[list[str]] = [[]]
        for word in keywords:
            self.add(word)
        self.check(len(keywords))

    def add(self, word: str) -> None:
        state = 0
        for ch in word:
            if ch not in self.goto[state]:
                self.goto.append({})
                self.out.append([])
                self.goto[state][ch] = len(self.goto) - 1
            state = self.goto[state][ch]
        self.out[state].append(word)

    def check(self, n: int) -> None:
        if n > 4:
            raise ValueError(f"too many keywords: {n} (states: {len(self.goto)})")

    def find(self, text: str) -> list[str]:
        found = []
        for i in range(len(text)):
            state = 0
            for ch in text[i:]:
                if ch not in self.goto[state]:
                    break
                state = self.goto[state][ch]
                found += self.out[state]
        return found


class Scaled:
    """Parameters rebound and locals made before the first call, read after it."""

    def __init__(self, n: int, scale: int = 2) -> None:
        n = abs(n)
        factor = scale * 10
        self.values: list[int] = []
        self.total = -1
        self.fill(n)
        self.values = [v * factor for v in self.values]
        if n > 3:
            self.fill(1)
        self.total = 0
        for v in self.values:
            self.total += v

    def fill(self, n: int) -> None:
        for i in range(n):
            self.values.append(i)

    @property
    def size(self) -> int:
        return len(self.values)


class Registered:
    def __init__(self, tag: str, registry: list) -> None:
        self.tag = tag
        self.seen = 0
        registry.append(self)
        self.seen = len(registry)


class ByProperty:
    def __init__(self, w: int) -> None:
        self.w = w
        self.area = 0
        self.area = self.double * w

    @property
    def double(self) -> int:
        return self.w * 2


class Late:
    def __init__(self, n: int) -> None:
        self.xs = [n]
        self.grow()
        self.size = len(self.xs)

    def grow(self) -> None:
        self.xs.append(1)


class Heuristic:
    """greedy_best_first's Node: costs computed by methods once the position is set."""

    def __init__(self, x: int, y: int, goal: int, g: int) -> None:
        self.x, self.y = x, y
        self.goal = goal
        self.g_cost = g
        self.h_cost = self.heuristic()
        self.f_cost = self.h_cost + self.g_cost
        self.label = self.describe()

    def heuristic(self) -> int:
        return abs(self.x - self.goal) + abs(self.y - self.goal)

    def describe(self) -> str:
        return f"({self.x}, {self.y}) f={self.f_cost}"

    def __lt__(self, other) -> bool:
        return self.f_cost < other.f_cost


class ReadsLate:
    def __init__(self, n: int) -> None:
        self.n = n
        self.twice = self.double()

    def double(self) -> int:
        return self.n * 2 + self.helper()

    def helper(self) -> int:
        return self.twice if self.n < 0 else 0


class LateInBranch:
    def __init__(self, n: int) -> None:
        self.xs = [n]
        self.grow()
        if n:
            self.size = 1

    def grow(self) -> None:
        self.xs.append(2)


class SetByMethod:
    """Fields a reset() sets, through a helper it calls, as classes with a clear() do."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.reset()
        self.extra = self.size * 2

    def reset(self) -> None:
        self.size = self.n
        self._clear()

    def _clear(self) -> None:
        self.items: list[int] = [self.n]
        self.count = len(self.items)


class EmptyLate:
    def __init__(self) -> None:
        self.n = 0
        self.reset()

    def reset(self) -> None:
        self.items = []


class EmptyAfterCall:
    """Containers made empty after a call, typed by later stores, as ones made before are."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.check()
        self.seen = set()
        self.by_key = {}
        self.order: list[str] = []
        self.total = 0
        for i in range(n):
            self.add(str(i % 3))

    def check(self) -> None:
        if self.n < 0:
            raise ValueError(f"negative: {self.n}")

    def add(self, k: str) -> None:
        if k not in self.seen:
            self.seen.add(k)
            self.order.append(k)
        self.by_key[k] = self.by_key.get(k, 0) + 1
        self.total += 1


class ReadInMethod:
    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        self.total = self.base() + 1

    def base(self) -> int:
        return self.total


class Base:
    def __init__(self, n: int) -> None:
        self.xs: list[int] = []
        self.fill(n)

    def fill(self, n: int) -> None:
        for i in range(n):
            self.xs.append(i)


class Derived(Base):
    def __init__(self, n: int) -> None:
        super().__init__(n)
        self.k = 1


def heap_sorted(xs):
    h = MinHeap(xs)
    return [h.pop() for _ in range(len(xs))], h.pushes


def matches(words, text):
    try:
        a = Automaton(words)
    except ValueError as e:
        return str(e)
    return a.find(text), len(a.goto)


def scaled(n):
    s = Scaled(n)
    t = Scaled(n, scale=1)
    return s.values, s.total, s.size, t.values


def registered(n):
    registry = []
    tags = [Registered(str(i), registry).seen for i in range(n)]
    return tags, [r.tag for r in registry]


def by_property(w):
    return ByProperty(w).area


def late(n):
    o = Late(n)
    return o.size, o.xs


def heuristics(points, goal):
    nodes = [Heuristic(x, y, goal, i) for i, (x, y) in enumerate(points)]
    nodes.sort()
    return [(n.h_cost, n.f_cost, n.label) for n in nodes]


def reads_late(n):
    return ReadsLate(n).twice


def late_in_branch(n):
    return LateInBranch(n).xs


def set_by_method(n):
    o = SetByMethod(n)
    o.items.append(n)
    return o.size, o.extra, o.items, o.count


def empty_late(n):
    return EmptyLate().items


def empty_after_call(n):
    try:
        o = EmptyAfterCall(n)
    except ValueError as e:
        return str(e)
    return o.order, sorted(o.seen), o.by_key, o.total


def read_in_method(n):
    return ReadInMethod().total


def derived(n):
    return Derived(n).xs


def made(words):
    return Automaton(words)


@dataclass
class Interval:
    lo: int
    hi: int
    label: str = ""

    def __post_init__(self) -> None:
        if self.lo > self.hi:
            raise ValueError(f"empty interval: {self.lo} > {self.hi}")
        self.width = self.hi - self.lo
        if not self.label:
            self.label = f"[{self.lo}, {self.hi}]"


def intervals(pairs):
    out = []
    for lo, hi in pairs:
        try:
            iv = Interval(lo, hi)
        except ValueError as e:
            out.append(str(e))
            continue
        out.append((iv.width, iv.label, iv))
    return out
