"""`heapq` and `bisect` on lists, written in the compiled subset.

Compiled on demand for each element type (as listlib's methods are) when user code calls
`heapq.heappush(h, x)`, `bisect.bisect_left(a, x)`, ... (builtins_lowering's library table).
The heap functions move elements exactly as CPython's `_heapq` does (the same sift-down and
sift-up), so the list holds the same order afterwards, not only the same smallest item;
their errors are CPython's. `key=` is not supported (a CompileError: unexpected keyword).
"""


def _siftdown(heap, startpos: int, pos: int) -> None:
    newitem = heap[pos]
    while pos > startpos:
        parentpos = (pos - 1) >> 1
        parent = heap[parentpos]
        if newitem < parent:
            heap[pos] = parent
            pos = parentpos
            continue
        break
    heap[pos] = newitem


def _siftup(heap, pos: int) -> None:
    endpos = len(heap)
    startpos = pos
    newitem = heap[pos]
    childpos = 2 * pos + 1
    while childpos < endpos:
        rightpos = childpos + 1
        if rightpos < endpos and not heap[childpos] < heap[rightpos]:
            childpos = rightpos
        heap[pos] = heap[childpos]
        pos = childpos
        childpos = 2 * pos + 1
    heap[pos] = newitem
    _siftdown(heap, startpos, pos)


def heappush(heap, item) -> None:
    heap.append(item)
    _siftdown(heap, 0, len(heap) - 1)


def heappop(heap):
    if len(heap) == 0:
        raise IndexError("index out of range")
    lastelt = heap.pop()
    if len(heap) > 0:
        returnitem = heap[0]
        heap[0] = lastelt
        _siftup(heap, 0)
        return returnitem
    return lastelt


def heapreplace(heap, item):
    if len(heap) == 0:
        raise IndexError("index out of range")
    returnitem = heap[0]
    heap[0] = item
    _siftup(heap, 0)
    return returnitem


def heappushpop(heap, item):
    if len(heap) > 0 and heap[0] < item:
        top = heap[0]
        heap[0] = item
        _siftup(heap, 0)
        return top
    return item


def heapify(heap) -> None:
    for i in range(len(heap) // 2 - 1, -1, -1):
        _siftup(heap, i)


def nsmallest(n: int, iterable):
    return sorted(iterable)[:max(n, 0)]


def nlargest(n: int, iterable):
    return sorted(iterable, reverse=True)[:max(n, 0)]


def _bounds(a, lo: int, hi) -> int:
    if lo < 0:
        raise ValueError("lo must be non-negative")
    return len(a) if hi is None else hi


def bisect_left(a, x, lo: int = 0, hi=None) -> int:
    end = _bounds(a, lo, hi)
    while lo < end:
        mid = (lo + end) // 2
        if a[mid] < x:
            lo = mid + 1
        else:
            end = mid
    return lo


def bisect_right(a, x, lo: int = 0, hi=None) -> int:
    end = _bounds(a, lo, hi)
    while lo < end:
        mid = (lo + end) // 2
        if x < a[mid]:
            end = mid
        else:
            lo = mid + 1
    return lo


def insort_left(a, x, lo: int = 0, hi=None) -> None:
    a.insert(bisect_left(a, x, lo, hi), x)


def insort_right(a, x, lo: int = 0, hi=None) -> None:
    a.insert(bisect_right(a, x, lo, hi), x)
