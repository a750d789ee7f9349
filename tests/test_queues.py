"""queue.Queue and friends in compiled code (script/frontend/queues.py): searches over random
graphs compiled against CPython, bounded queues, two queues of different item types, and what
is refused (a get() that would wait forever, the *_nowait forms, a queue returned)."""

import pytest
from hypothesis import given, settings, strategies as st

import queue_kernels as K
import script
from difftest import check_all_levels, compiled


@st.composite
def graphs(draw):
    n = draw(st.integers(1, 8))
    return {v: sorted(draw(st.sets(st.integers(0, n - 1), max_size=3))) for v in range(n)}


@settings(max_examples=40, deadline=None)
@given(graphs(), st.data())
def test_searches(graph, data):
    start = data.draw(st.sampled_from(sorted(graph)))
    end = data.draw(st.sampled_from(sorted(graph)))
    check_all_levels(K.bfs_order, graph, start)
    check_all_levels(K.dfs_order, graph, start)
    check_all_levels(K.shortest, graph, start, end)


@pytest.mark.parametrize("n,cap", [(0, 0), (3, 0), (3, 3), (2, 5)])
def test_two_kinds_and_bounds(n, cap):
    check_all_levels(K.two_kinds, n, cap)


def test_waits_forever_in_cpython_raises():
    """A get() of an empty queue or a put() into a full one blocks CPython's only thread."""
    with pytest.raises(RuntimeError, match="get.. of an empty queue would wait forever in compiled code"):
        compiled(K.drained)(3)
    with pytest.raises(RuntimeError, match="put.. into a full queue would wait forever"):
        compiled(K.two_kinds)(5, 2)


@pytest.mark.parametrize("fn,text", [
    (K.uses_nowait, "'Queue' object has no attribute 'get_nowait'"),
    (K.returns_queue, "returns an instance of class 'Queue'"),
])
def test_refused(fn, text):
    with pytest.raises(script.CompileError, match=text):
        compiled(fn)()
