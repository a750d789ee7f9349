"""`queue.Queue`, `queue.LifoQueue`, `queue.PriorityQueue` and `queue.SimpleQueue` in compiled code: classes written
in the compiled subset, instantiated as records (records.py) where user code calls the
standard library's class (the breadth-first searches of plain-Python code use them).

Compiled code has one thread, so nothing can put while `get()` waits: `get()` of an empty
queue, and `put()` into a full one, which block forever in CPython, raise a RuntimeError
that says so. `put`/`get`
take no `block`/`timeout`, and `task_done`/`join` and the `*_nowait` forms (whose
`queue.Empty` compiled code cannot raise) are not methods here: a CompileError names them.
A queue is a record, so its items have one type per call site of the class (each call of
`Queue()` in the source gets its own class), and it stays inside compiled code (returned to
Python it is a CompileError, as instances are).
"""

from __future__ import annotations

import ast
import heapq
import queue
from collections import deque

from script.frontend.registry import lowers
from script.frontend import builtins_lowering, records

_EMPTY = "get() of an empty queue would wait forever in compiled code: no other thread can put"
_FULL = "put() into a full queue would wait forever in compiled code: no other thread can get"


class Queue:
    """First in, first out. The others change where items go and come from (`_put`, `_get`),
    as the standard library's classes do."""

    def __init__(self, maxsize: int = 0):
        self.maxsize = maxsize
        self.queue = deque()

    def put(self, item) -> None:
        if 0 < self.maxsize <= len(self.queue):
            raise RuntimeError(_FULL)
        self._put(item)

    def get(self):
        if not self.queue:
            raise RuntimeError(_EMPTY)
        return self._get()

    def _put(self, item) -> None:
        self.queue.append(item)

    def _get(self):
        return self.queue.popleft()

    def empty(self) -> bool:
        return not self.queue

    def qsize(self) -> int:
        return len(self.queue)

    def full(self) -> bool:
        return 0 < self.maxsize <= len(self.queue)


class LifoQueue(Queue):
    """Last in, first out."""

    def _get(self):
        return self.queue.pop()


class PriorityQueue(Queue):
    """Smallest first: a heap (heapq's, so equal items come out in CPython's order)."""

    def __init__(self, maxsize: int = 0):
        self.maxsize = maxsize
        self.queue = []

    def _put(self, item) -> None:
        heapq.heappush(self.queue, item)

    def _get(self):
        return heapq.heappop(self.queue)


class SimpleQueue(Queue):
    """First in, first out, unbounded (no `maxsize`, no `full`)."""

    def __init__(self):
        self.maxsize = 0
        self.queue = deque()


_CLASSES = {queue.Queue: Queue, queue.LifoQueue: LifoQueue, queue.PriorityQueue: PriorityQueue,
            queue.SimpleQueue: SimpleQueue}
_SITES: dict = {}       # (class, file, line, column) -> the class of that call site's queues


@lowers(*_CLASSES)
def _make_queue(low, node: ast.Call, name: str):
    """`queue.Queue(...)`: a record of this call site's own class (its items' type is its own)."""
    base = _CLASSES[builtins_lowering.callee_ref(low, node.func).obj]
    key = (base, low.info.filename, node.lineno, node.col_offset)
    cls = _SITES.get(key)
    if cls is None:         # a copy of the class (its methods and those it inherits), of its own
        ns = {"__module__": __name__, "__qualname__": base.__name__, "__doc__": base.__doc__}
        for klass in reversed(base.__mro__[:-1]):
            ns.update((k, v) for k, v in vars(klass).items() if callable(v))
        cls = _SITES[key] = type(base.__name__, (), ns)
    return records.make_record(low, cls, node)
