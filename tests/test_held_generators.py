"""Generators held in a variable (`g = gen(...)`) and advanced by next(), loops and consumers
in any order (held_generators.py): compiled against CPython (values, types, exceptions and
their messages), and the uses that are CompileErrors at the line."""

import pytest
from hypothesis import given, settings, strategies as st

import held_generator_kernels as K
import script
from difftest import check_all_levels, compiled

NS = st.integers(0, 12)
XS = st.lists(st.integers(-3, 5), min_size=1, max_size=8)


@settings(max_examples=15, deadline=None)
@given(st.integers(1, 18), st.integers(0, 400))
def test_project_euler_shapes(n, limit):
    check_all_levels(K.euler_25, n)
    check_all_levels(K.euler_123, limit)
    check_all_levels(K.nearest_area, n)


@settings(max_examples=25, deadline=None)
@given(NS, NS)
def test_next_exhaustion_default_and_stop_iteration(n, m):
    check_all_levels(K.two_alive, n, m)       # two generators of one function alive at once
    check_all_levels(K.drain, n)              # exhausted once stays exhausted
    check_all_levels(K.stop_iteration, n)     # StopIteration's message is empty, as CPython's
    check_all_levels(K.bare_next, n)


@settings(max_examples=12, deadline=None)
@given(NS, st.integers(-1, 12))
def test_partly_consumed_then_iterated(n, stop):
    check_all_levels(K.partly_then_loop, n, stop)
    check_all_levels(K.consumers, n, stop)
    check_all_levels(K.more_consumers, n)
    check_all_levels(K.islice_then_next, n)
    check_all_levels(K.contains_then_next, n, stop)
    check_all_levels(K.interleaved, n)
    check_all_levels(K.kinds, n)


@settings(max_examples=25, deadline=None)
@given(XS, st.integers(-50, 50))
def test_exceptions_of_the_body_reach_the_use(xs, k):
    check_all_levels(K.raised_inside_try, xs, k)
    check_all_levels(K.raised_outside_try, xs, k)
    check_all_levels(K.yield_in_try, xs)


@settings(max_examples=15, deadline=None)
@given(NS, XS, st.integers(1, 4))
def test_assigned_in_loops_unbound_and_nested(n, xs, k):
    check_all_levels(K.reassigned_in_loop, n)
    check_all_levels(K.unbound, n)            # UnboundLocalError where it was never assigned
    check_all_levels(K.nested_generator, xs, k)


@settings(max_examples=15, deadline=None)
@given(st.integers(1, 30000), NS, st.integers(-3, 3))
def test_generator_expressions_held(target, n, k):
    check_all_levels(K.euler_85, target)
    check_all_levels(K.expression_next, n, k)
    check_all_levels(K.expression_raises, n)
    check_all_levels(K.iterable_changed, n)


@settings(max_examples=15, deadline=None)
@given(NS, st.booleans())
def test_held_in_a_generator_and_pep_479(n, held):
    check_all_levels(K.held_inside, n)
    check_all_levels(K.stop_iteration_in_bodies, n, held)   # RuntimeError, as CPython's
    check_all_levels(K.endless_into_list, n)        # left only by its exception


@pytest.mark.parametrize("fn, text", [
    (K.iterable_rebound, "'xs' changes after the generator expression held in 'g' is made"),
    (K.passed_back, "'g' holds a generator: .* not use it as a value otherwise"),
    (K.returned, "'g' holds a generator: .* not use it as a value otherwise"),
    (K.stored, "'g' holds a generator: .* not use it as a value otherwise"),
    (K.reassigned, "'g' holds a generator and is assigned again"),
    (K.captured, "'g' holds a generator and is read by a nested function or lambda"),
])
def test_other_uses_are_compile_errors_at_the_line(fn, text):
    with pytest.raises(script.CompileError, match=text) as e:
        compiled(fn)(3)
    assert "held_generator_kernels.py:" in str(e.value)
