"""A deque is a list in compiled code (docs/lists.md), but where the function's source shows a
deque its errors are CPython's deque's, not a list's: index, store, `del` and `+=` out of
range, `pop()` of an empty one, `remove`/`index` of a missing item; and what a deque lacks
(slices, `sort`, `pop(i)`) raises CPython's TypeError or AttributeError instead of running
as a list would. A deque passed to a compiled function that uses it other than as a list and
a deque behave alike is refused (the callee sees a list)."""

import collections
from collections import deque

import pytest
from hypothesis import given, settings, strategies as st

from difftest import check_all_levels
from script.errors import CompileError
import script


def read(n: int) -> int:
    d = deque([1, 2, 3])
    return d[n]


def write(n: int) -> int:
    d = deque([1, 2, 3])
    d[n] = 7
    return d[0] + d[-1]


def augmented(n: int) -> int:
    d = collections.deque([1, 2, 3])
    d[n] += 10
    return d[1]


def delete(n: int) -> int:
    d = deque([1, 2, 3])
    del d[n]
    return len(d) * 10 + d[0]


def pops(n: int) -> int:
    d = deque(range(3))
    s = 0
    for _ in range(n):
        s += d.pop()
    return s


def bounded(n: int) -> int:
    d = deque(maxlen=2)
    for i in range(4):
        d.append(i)
    return d[n]


def removes(n: int) -> int:
    d = deque([(1, "a"), (2, "b")])
    d.remove((n, "b"))
    return len(d)


def finds(n: int) -> int:
    d = deque(["x", "yy"])
    return d.index("y" * n)


def made():
    return deque([5, 6])


def returned(n: int) -> int:
    d = made()
    return d[n]


def sliced(n: int) -> int:
    d = deque([1, 2, 3])
    return len(d[0:n])


def slice_stored(n: int) -> int:
    d = deque([1, 2, 3])
    d[0:n] = [9]
    return len(d)


def slice_deleted(n: int) -> int:
    d = deque([1, 2, 3])
    del d[n:]
    return len(d)


def sorts(n: int) -> int:
    d = deque([3, n])
    d.sort()
    return d[0]


def pops_at(n: int) -> int:
    d = deque([3, 4])
    return d.pop(n)


def list_is_a_list(n: int) -> int:
    xs = [1, 2, 3]
    return xs[n] + len(xs[0:n])


@settings(max_examples=15, deadline=None)
@given(st.integers(-5, 5))
def test_deque_errors_are_cpythons(n):
    for fn in (read, write, augmented, delete, bounded, removes, returned, sliced, slice_stored,
               slice_deleted, sorts, pops_at, list_is_a_list):
        check_all_levels(fn, n)


@pytest.mark.parametrize("n", [0, 1, 2, 3, 4])
def test_pop_and_index_of_a_deque(n):
    check_all_levels(pops, n)
    check_all_levels(finds, n)


def peek(q, i: int) -> int:
    return q[i]


def drain(q, x: int) -> int:
    q.append(x)
    s = 0
    while q and s < 100:
        s += q.popleft()
    for y in q:
        s += y
    if not q and 3 not in q:
        s += len(q)
    return s


def renames(q, n: int) -> int:
    r = q
    return len(r[0:n])


def passes_on(q, n: int) -> int:
    return renames(q, n)


def gives_back(q):
    return q


def passes_to_renames(n: int) -> int:
    return renames(deque([1, 2]), n)


def passes_to_passes_on(n: int) -> int:
    return passes_on(deque([1, 2]), n)


def slices_what_comes_back(n: int) -> int:
    d = gives_back(deque([1, 2]))
    return len(d[0:n])


def passes_to_peek(n: int) -> int:
    return peek(deque([1, 2]), n)


def passes_to_drain(n: int) -> int:
    d = deque([1, 2])
    return drain(d, n)


def test_a_deque_passed_to_a_function_that_indexes_it_is_refused():
    with pytest.raises(CompileError, match="a deque passed to peek\\(\\) as 'q'"):
        script.script(passes_to_peek)(1)
    check_all_levels(passes_to_drain, 4)


def test_a_deque_renamed_passed_on_or_returned_by_the_callee_is_refused():
    """After a rename, a further call or a return no one knows the list is a deque: its
    slice would run where CPython raises TypeError."""
    for fn, callee in ((passes_to_renames, "renames"), (passes_to_passes_on, "passes_on"),
                       (slices_what_comes_back, "gives_back")):
        with pytest.raises(CompileError, match=f"a deque passed to {callee}\\(\\) as 'q'"):
            script.script(fn)(1)


# ---- changing a deque while a loop iterates it ------------------------------------------
# CPython's deque iterator raises "RuntimeError: deque mutated during iteration" at its next
# step once the deque changed (after the last item too), but not after `d[i] = x` or an
# `extend` of nothing; a `break` right after the change ends the loop without it.

def changed_in_loop(how: int, n: int) -> list:
    d = deque(range(n))
    out = []
    for x in d:
        out.append(x)
        if x == 1 or n == 1:
            if how == 0:
                d.append(9)
            elif how == 1:
                d.appendleft(9)
            elif how == 2:
                d.append(9)
                d.popleft()             # the same length: the state moved all the same
            elif how == 3:
                d.rotate(1)             # moves it only when it holds two items or more
            elif how == 4:
                d.rotate(0)
            elif how == 5:
                d.extend([])            # nothing added: no change
            elif how == 6:
                d.extend([7, 8])
            elif how == 7:
                d.clear()
            elif how == 8:
                d[0] = 5                # a store: no change
            elif how == 9:
                d.insert(0, 4)
            elif how == 10:
                d.remove(x)
            elif how == 11:
                d.pop()
            elif how == 12:
                e = d
                e.append(3)             # through another name: its length shows it
            elif how == 13:
                d.append(9)
                break
    return out


def changed_then_caught(n: int) -> str:
    d = deque(range(n))
    try:
        for x in d:
            if x == n - 1:
                d.append(x)             # on the last item: the next step raises still
    except RuntimeError as e:
        return "caught: " + str(e)
    return "ended"


def nested_loops(n: int) -> int:
    d = deque(range(n))
    total = 0
    for x in d:
        for y in d:
            total += x * y
        if x == 2:
            d.popleft()
            d.append(x)
    return total


def loop_else(n: int) -> str:
    d = deque(range(n))
    for x in d:
        if x == 0:
            d.appendleft(x)
            d.popleft()
    else:
        return "else"
    return "after"


@pytest.mark.parametrize("how", range(14))
@pytest.mark.parametrize("n", [0, 1, 2, 4])
def test_changing_a_deque_while_iterating_it(how, n):
    check_all_levels(changed_in_loop, how, n)


@pytest.mark.parametrize("n", [0, 1, 3])
def test_changed_on_the_last_item_nested_and_else(n):
    check_all_levels(changed_then_caught, n)
    check_all_levels(nested_loops, n + 2)
    check_all_levels(loop_else, n)


def changed_in_enumerate(n: int, start: int) -> list:
    d = deque(range(n))
    out = []
    for i, x in enumerate(d, start):
        out.append((i, x))
        if x == 1:
            d.append(x)                 # `enumerate(d)` walks the deque's own iterator
    return out


@pytest.mark.parametrize("n", [0, 1, 3])
def test_changing_a_deque_enumerate_walks(n):
    check_all_levels(changed_in_enumerate, n, 0)
    check_all_levels(changed_in_enumerate, n, 5)


class Queue:
    """A deque in a field: every `self.items = ...` of the class makes one."""

    def __init__(self):
        self.items = deque()

    def push(self, x):
        self.items.append(x)

    def pop(self):
        return self.items.pop()

    def first(self):
        return self.items[0]

    def reset(self):
        self.items = deque([0])


def field_deque(n: int):
    q = Queue()
    for i in range(n):
        q.push(i)
    out = [str(q.items), repr(q.items), f"{q.items}"]
    try:
        out.append(str(q.first()))
    except IndexError as e:
        out.append(str(e))              # CPython's "deque index out of range"
    try:
        for _ in range(n + 1):
            q.pop()
    except IndexError as e:
        out.append(str(e))              # "pop from an empty deque"
    q.reset()
    return out, q.items                 # returned to Python as a deque


@pytest.mark.parametrize("n", [0, 1, 3])
def test_a_deque_field_is_a_deque(n):
    check_all_levels(field_deque, n)
    assert type(script.script(field_deque)(n)[1]) is deque
