"""Generators passed as values between compiled functions (generator_args.py): a generator
call, a generator expression or a held generator given to a compiled function, zip() of
several generators, iter() held: compiled against CPython (values, types, exceptions and
their messages, side effects' order), and the uses that are CompileErrors at the line."""

import pytest
from hypothesis import given, settings, strategies as st

import generator_value_kernels as K
import script
from difftest import check_all_levels, compiled

NS = st.integers(0, 9)


@settings(max_examples=12, deadline=None)
@given(NS)
def test_given_to_a_function(n):
    check_all_levels(K.call_generator, n)
    check_all_levels(K.call_expression, n)
    check_all_levels(K.partly_consumed, n)         # next() here, the rest in the callee
    check_all_levels(K.partly_in_callee, n)        # StopIteration of next() in the callee
    check_all_levels(K.resumed_by_both, n)         # the callee goes on where the caller stopped
    check_all_levels(K.in_a_loop, n)               # a new generator each pass; one never run
    check_all_levels(K.methods, n)                 # obj.m(gen): self bound to the instance


@settings(max_examples=10, deadline=None)
@given(NS, st.integers(0, 7))
def test_every_consumer_in_the_callee(n, how):
    check_all_levels(K.consumers, n, how)


@settings(max_examples=6, deadline=None)
@given(NS)
def test_consumers_in_a_comprehension_and_zips(n):
    check_all_levels(K.consumers_in_a_comprehension, n)
    check_all_levels(K.zips, n)                    # zip() of generators: each asked in turn
    check_all_levels(K.zip_two_here, n)            # an endless one after a finite one


@settings(max_examples=10, deadline=None)
@given(NS, st.integers(0, 6))
def test_order_exceptions_and_returns(n, bad):
    check_all_levels(K.interleaved, n)             # the generator's side effects and the callee's
    check_all_levels(K.break_leaves_it, n)         # a return from a loop: finally, resumable
    check_all_levels(K.raised_in_callee, n, bad)   # caught by the callee's try
    check_all_levels(K.raised_to_caller, n, bad)   # caught by the caller's try
    check_all_levels(K.keywords_defaults, n)       # int or float results, keywords, defaults


@settings(max_examples=10, deadline=None)
@given(NS)
def test_idioms_and_generators_given_generators(n):
    check_all_levels(K.idioms, n)                  # it = iter(it), enumerate(it), passed on
    check_all_levels(K.first_iterable_at_the_call, n)
    check_all_levels(K.generators_given_generators, n)


@settings(max_examples=10, deadline=None)
@given(st.integers(-2, 9))
def test_held_iterators(n):
    check_all_levels(K.held_iterators, n)
    check_all_levels(K.range_iterator_exhausted, n)     # StopIteration for an empty range


@pytest.mark.parametrize("fn, text", [
    (K.use_recursive, "'recursive' is given a generator and calls itself with one"),
    (K.use_keep, "'it' holds a generator: .* not use it as a value otherwise"),
    (K.use_sender, "'it' holds a generator: .* not use it as a value otherwise"),
    (K.escapes, "'squares' is a generator function: a call to it can only be iterated"),
])
def test_refused_at_the_line(fn, text):
    with pytest.raises(script.CompileError, match=text) as e:
        compiled(fn)(3)
    assert "generator_value_kernels.py:" in str(e.value)
