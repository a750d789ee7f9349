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
