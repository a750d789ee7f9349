"""Classes whose __iter__ is a generator function, walked (inlined) wherever an instance
is iterated: a local, an attribute chain (`self.items`, an optional `self.left`: CPython's
TypeError where None), `iter(obj)` iterated or held and given to next(): compiled against
CPython (values, types, exceptions and their messages). A recursive one (a tree's
`yield from self.left`) where all its items are taken at once (recursive_generators.py),
and a CompileError where they are taken one at a time."""

import pytest
from hypothesis import given, settings, strategies as st

import generator_iter_kernels as K
import script
from difftest import check_all_levels, compiled

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


@settings(max_examples=5, deadline=None)
@given(st.lists(st.integers(-20, 20), min_size=1, max_size=12), st.integers(-25, 25))
def test_recursive_generator_taken_at_once(xs, key):
    check_all_levels(K.tree_items, xs)
    check_all_levels(K.tree_truth, xs, key)


@settings(max_examples=6, deadline=None)
@given(st.integers(0, 4), st.booleans())
def test_recursive_generator_function_and_method(n, deep):
    check_all_levels(K.branches, n, deep)       # its exception: CPython's type and message
    check_all_levels(K.recursive_function, n)


def test_recursive_generator_taken_one_at_a_time_is_a_compile_error():
    with pytest.raises(script.CompileError, match=r"recursive generator '__iter__' \(it iterates itself\) "
                       "is supported in compiled code only where all its items are taken at once") as e:
        compiled(K.tree_for_loop)([3, 1, 2])
    assert "generator_iter_kernels.py:" in str(e.value)


_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def _positions(message):
    out = []
    for symbol in message:
        num = _LETTERS.find(symbol.upper())        # a method of a global str, its result held
        out.append(num)
    return out


def test_a_method_call_on_a_global_str_is_no_iter_call():
    # looking for iter(obj) evaluated the callee of every call: `_LETTERS.find` as a value,
    # "the bound method 'str.find' is not a value" (TheAlgorithms' vigenere_cipher)
    check_all_levels(_positions, "Hello, World")
