"""Code using queue.Queue, LifoQueue and PriorityQueue, compiled against CPython
(test_queues.py): the searches of plain-Python code."""

from queue import LifoQueue, PriorityQueue, Queue, SimpleQueue


def bfs_order(graph: dict, start: int) -> list[int]:
    explored = {start}
    result = [start]
    queue: Queue = Queue()
    queue.put(start)
    while not queue.empty():
        v = queue.get()
        for w in graph[v]:
            if w not in explored:
                explored.add(w)
                result.append(w)
                queue.put(w)
    return result


def dfs_order(graph: dict, start: int) -> list[int]:
    stack = LifoQueue()
    stack.put(start)
    seen = []
    while stack.qsize() > 0:
        v = stack.get()
        if v in seen:
            continue
        seen.append(v)
        for w in graph[v]:
            stack.put(w)
    return seen


def shortest(graph: dict, start: int, end: int) -> int:
    """Dijkstra over (weight, node) pairs from a PriorityQueue."""
    pq = PriorityQueue()
    pq.put((0, start))
    done = set()
    while not pq.empty():
        cost, node = pq.get()
        if node in done:
            continue
        done.add(node)
        if node == end:
            return cost
        for nxt in graph[node]:
            pq.put((cost + abs(nxt - node) + 1, nxt))
    return -1


def two_kinds(n: int, cap: int):
    """Two queues of different item types (each call site has its own class), a bounded one."""
    ints = Queue(maxsize=cap)
    names = SimpleQueue()
    for i in range(n):
        ints.put(i * i)
        names.put(str(i))
    first = names.get() if not names.empty() else ""
    return ints.qsize(), ints.full(), first, ints.maxsize, ints.get() if ints.qsize() else -1


def drained(n: int):
    q = Queue()
    for i in range(n):
        q.put(i)
    total = 0
    for _ in range(n + 1):         # one get too many: CPython would wait forever
        total += q.get()
    return total


def uses_nowait():
    q = Queue()
    q.put(1)
    return q.get_nowait()


def returns_queue():
    q = Queue()
    q.put(1)
    return q
