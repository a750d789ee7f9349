"""Classes whose __iter__ is a generator function, walked (inlined) wherever an instance
is iterated: a local, an attribute chain (`self.items`, an optional `self.left`: CPython's
TypeError where None), `iter(obj)` iterated or held and given to next(): compiled against
CPython (values, types, exceptions and their messages)."""

from hypothesis import given, settings, strategies as st

import generator_iter_kernels as K
from difftest import check_all_levels

XS = st.lists(st.integers(-3, 6), max_size=8)


@settings(max_examples=15, deadline=None)
@given(XS, st.integers(0, 9), st.booleans())
def test_generator_iter_sources(xs, k, give):
    check_all_levels(K.iter_of_self, xs)
    check_all_levels(K.attribute_source, xs)
    check_all_levels(K.optional_attribute, xs, give)
    check_all_levels(K.held_iter, xs, k)        # StopIteration past the end, as CPython's
    check_all_levels(K.interleaved, xs)


@settings(max_examples=8, deadline=None)
@given(st.integers(0, 6))
def test_generator_iter_of_a_ring_of_dataclasses(n):
    check_all_levels(K.ring, n)
