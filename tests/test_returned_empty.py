"""A `[]`, `{}` or `set()` returned where the function's other returns (or its annotation)
give the type (callee_hints.settle_returned), and empty list arguments, against CPython."""

import pytest
from hypothesis import given, settings, strategies as st

import script
import returned_empty_kernels as K
from difftest import check_all_levels

SET = settings(max_examples=25, deadline=None)
words = st.lists(st.text("abé", max_size=4), max_size=6)


@SET
@given(st.lists(st.integers(-9, 9), max_size=6))
def test_lists_either_order(xs):
    for f in (K.scaled, K.scaled_after, K.split_evens):
        check_all_levels(f, xs)


@SET
@given(st.text("aab", max_size=8))
def test_list_of_tuples(s):
    check_all_levels(K.run_lengths, s)


@SET
@given(words)
def test_returned_before_stored_into_and_tables(ws):
    for f in (K.early_out, K.weights, K.letters):
        check_all_levels(f, ws)


@SET
@given(st.integers(-3, 5))
def test_annotation_and_nothing_else(n):
    check_all_levels(K.annotated, n)
    check_all_levels(K.only_empty, n)      # nothing types it: ints, as an unused `[]` holds


def test_types_settle_as_the_other_return():
    f = script.script(K.scaled)
    f([1, 2])
    assert f.signatures == ["(list[int]) -> list[float]"]
    g = script.script(K.only_empty)
    g(1)
    assert g.signatures == ["(int) -> list[int]"]


def test_an_empty_list_argument_without_a_specialization_holds_ints():
    f = script.script(K.scaled)
    assert f([]) == [] and f.signatures == ["(list[int]) -> list[float]"]
    assert f([3]) == [1.5]                  # matches the list[int] specialization
    assert f([0.5]) == [0.25] and len(f.signatures) == 2
    assert f([]) == []                      # matches one of them
    assert len(f.signatures) == 2


def test_an_empty_list_argument_takes_floats_or_strs_where_ints_do_not_compile():
    f = script.script(K.early_out)
    assert f([]) == [] and f(["ab", "b"]) == ["AB"]
    g = script.script(K.shout_all)
    assert g([]) == []          # as CPython: the loop never runs (an int's missing upper() would
    with pytest.raises(AttributeError, match="'int' object has no attribute 'upper'"):
        g([1])                  # raise CPython's AttributeError when it does)
