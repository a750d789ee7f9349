"""Lists whose elements are of several types CPython keeps apart (frontend/union_values.py):
`[1, "one"]` made in compiled code, grown by appends of both, or passed from Python. Every
list operation on them gives CPython's value, type, exception and message, and a list
argument written in place is written back with each element's own type."""

from __future__ import annotations

import copy
import typing

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import script
import union_list_kernels as K
from difftest import check_typed as check, compiled, outcome

ITEMS = st.one_of(st.integers(-3, 3), st.sampled_from([0.5, -1.0, 2.0]), st.sampled_from(["a", "b", "", "1"]))
MIXED = st.lists(ITEMS, max_size=6)


@pytest.mark.parametrize("fn", [K.validate, K.xor_all, K.describe, K.ordered, K.extremes, K.total, K.edited,
                                K.joined, K.pairs], ids=lambda f: f.__name__)
@settings(max_examples=10, deadline=None)
@given(xs=MIXED)
def test_list_operations_give_cpythons_answer(fn, xs):
    check(fn, xs)


@settings(max_examples=20, deadline=None)
@given(xs=MIXED, v=ITEMS)
def test_search(xs, v):
    check(K.search, xs, v)


@settings(max_examples=20, deadline=None)
@given(xs=MIXED, n=st.integers(-2, 6))
def test_search_of_a_value_of_several_types_names_it(xs, n):
    # "None is not in list", "0.5 is not in list", "'a' is not in list" (CPython < 3.13)
    check(K.search_chosen, xs, n)


@settings(max_examples=20, deadline=None)
@given(xs=MIXED, ys=MIXED)
def test_lists_compare_element_by_element(xs, ys):
    check(K.compare_lists, xs, ys)


INTS_AND_STRS = st.lists(st.one_of(st.integers(-3, 3), st.sampled_from(["a", "b", "1"])), max_size=6)


@pytest.mark.parametrize("fn", [K.tally, K.kinds, K.by_kind, K.mapped, K.consumed, K.ranked],
                         ids=lambda f: f.__name__)
@settings(max_examples=10, deadline=None)
@given(xs=INTS_AND_STRS)
def test_dicts_sets_and_generators_of_a_union(fn, xs):
    # keys of ints and strs (never equal: hashed and compared as the tagged pair they are),
    # values of both, a generator's and a comprehension's elements
    check(fn, xs)


def test_keys_of_ints_floats_and_strs():
    # 1 and 1.0 are one key (a float alternative hashes as an int where it is one), a set of
    # them iterates in CPython's order (each alternative's own hash), KeyError shows the key
    for xs in ([1, 3, 4, "sd", 0.0], [1, 1.0, "a", "b", 2.5, 2], ["x", 3, 1.5, 1e300]):
        check(K.tally, xs)
        check(K.members, xs)
    check(K.missing, [1, 2.5, "a"], 2.0)
    check(K.missing, [1, 2.5, "a"], "b")
    check(K.missing, [1, 2.5, "a"], 7)


@pytest.mark.parametrize("n", [0, 1, 2, 7])
def test_lists_made_here(n):
    check(K.made, n)
    check(K.display, n)


@pytest.mark.parametrize("text", ["1 + 2 * 3", "12 34 +", "2 3 + 4 *", ""])
def test_a_tokenizer_of_ints_and_strs(text):
    check(K.tokens, text)
    check(K.evaluate, text)


def test_a_list_argument_is_written_back_with_each_elements_type():
    f = script.script(K.written)
    for xs in ([1, "a"], ["x", 2.0], [1, 2], ["a", "b"]):
        mine, theirs = list(xs), list(xs)
        assert f(mine) == K.written(theirs)
        assert repr(mine) == repr(theirs)
    assert "(list[int | float | str]) -> int" in f.signatures     # widened when an int goes into strs


def test_what_no_union_holds_is_still_refused():
    f = script.script(K.validate)
    with pytest.raises(TypeError, match="not supported"):
        f([True, 2, "a"])           # a bool beside a number
    with pytest.raises(TypeError, match="not supported"):
        f([1, None, "a"])           # None beside other types (an optional holds one type)


def _keys_of_two_kinds(n):
    return {1: 2, (1, n): 3, "a": n}


def _kwargs_of_two_kinds(n):
    def f(**kw):
        return len(kw), kw
    return f(a=n, b="x")


@pytest.mark.parametrize("fn", [_keys_of_two_kinds, _kwargs_of_two_kinds], ids=lambda f: f.__name__)
def test_dict_displays_of_two_kinds(fn):
    check(fn, 2)


@pytest.mark.parametrize("board", [[["A"], [21]], [["A", "B"], ["C", "D"]], [[0, 1], [1, "a"]], [["x"], [1.5, "y"]]])
def test_nested_lists_of_several_kinds_from_python(board):
    check(K.board_cells, board)
    f = script.script(K.board_cells)
    mine, theirs = copy.deepcopy(board), copy.deepcopy(board)
    try:
        f(mine)
    except ValueError:
        pass
    try:
        K.board_cells(theirs)
    except ValueError:
        pass
    assert repr(mine) == repr(theirs)


@pytest.mark.parametrize("items", [[10, 20, 30], [1, "apple", 3.14], [], ["x"], [2.5, 1]])
@pytest.mark.parametrize("k", [0, 1, 2, 3])
def test_tuples_of_several_lengths(items, k):
    # a list of tuples of other lengths holds tuples of run-time length (`tuple[i64, ...]`),
    # `(*shorter, x)` of one makes another
    check(K.combinations_by_table, items, k)


@pytest.mark.parametrize("n", [0, 5])
def test_a_display_of_tuples_of_several_lengths(n):
    check(K.ragged, n)


@pytest.mark.parametrize("items", ["Hello World", [1, 2, 3, 4, 5], ["a", 1, "b", 2.5]], ids=repr)
def test_an_annotated_list_of_lists_takes_what_is_stored(items):
    check(K.zigzag_rows, list(items), 3)


def _index_of_none(xs):
    try:
        return xs.index(None)
    except ValueError as e:
        raise KeyError(f"caught {e} and {None!r}") from None


@settings(max_examples=10, deadline=None)
@given(xs=st.lists(st.integers(-3, 3), max_size=4))
def test_index_of_none_in_a_list_of_ints(xs):
    # None formats in a message ("None is not in list"): it was a CompileError in listlib
    check(_index_of_none, xs)


def _none_empty(a: typing.Any, b: typing.Any, c: typing.Any, d: typing.Any, e: typing.Any) -> None:
    if not all([a, b, c, d, e]):
        raise ValueError("There's an empty parameter")


def test_a_display_of_several_container_kinds_settles():
    # a display's own elements stored into it made it its own origin and retyped it each
    # round ("did not settle after 12 rounds": TheAlgorithms' viterbi._validate_not_empty)
    for c, d in (({"c": 0.5}, {"d": {"e": 0.6}}), ({"c": 0.5}, {}), (None, {"d": {"e": 0.6}})):
        check(_none_empty, ["a"], ["b"], c, d, {"f": {"g": 0.7}})
