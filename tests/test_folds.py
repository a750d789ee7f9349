"""`functools.reduce` and `itertools.accumulate` in compiled code (itertoolslib), and min/max
whose key is a tuple holding strs, against CPython."""

import functools
import itertools
import operator
from functools import reduce

from hypothesis import given, settings, strategies as st

import script
from difftest import check_all_levels

SET = settings(max_examples=30, deadline=None)
INTS = st.lists(st.integers(-1000, 1000), max_size=12)
FLOATS = st.lists(st.floats(-1e6, 1e6, allow_nan=False), max_size=12)


def biggest(a, b):
    return a if a > b else b


def folds(xs: list[int]):
    return (functools.reduce(lambda a, b: a * b % 1000003, xs, 1),
            reduce(biggest, xs, -10**6),
            functools.reduce(lambda acc, x: acc + x * 0.5, xs, 0),
            reduce(lambda n, x: n + (x > 0), xs, 0))


def fold_first(xs: list[int]) -> int:
    return functools.reduce(lambda a, b: a - b, xs)           # TypeError when empty


def fold_floats(xs: list[float]):
    return functools.reduce(max, xs, float("-inf")), reduce(lambda a, b: a + b, xs, 0.0)


def running(xs: list[int]):
    total = 0
    for s in itertools.accumulate(xs):
        total = total * 3 + s
    return (list(itertools.accumulate(xs)), list(itertools.accumulate(xs, max)),
            list(itertools.accumulate(xs, lambda a, b: a * b % 97, initial=1)),
            list(itertools.accumulate(xs, initial=10)), list(itertools.accumulate(xs, func=min)),
            total)


def running_floats(xs: list[float]) -> list[float]:
    return list(itertools.accumulate(xs, biggest))


def word_folds(words: list[str]):
    return reduce(lambda n, w: n + len(w), words, 0), reduce(lambda a, w: a + w, words, "")


def shortest_first(words: list[str]):
    return (min(words, key=lambda w: (len(w), w)), max(words, key=lambda w: (len(w), w)),
            sorted(words, key=lambda w: (-len(w), w)))


@SET
@given(INTS)
def test_reduce_with_and_without_initial(xs):
    check_all_levels(folds, xs)
    check_all_levels(fold_first, xs)


@SET
@given(FLOATS)
def test_reduce_of_floats(xs):
    check_all_levels(fold_floats, xs)
    check_all_levels(running_floats, xs)


@SET
@given(INTS)
def test_accumulate(xs):
    check_all_levels(running, xs)


@SET
@given(st.lists(st.text("abc", max_size=4), min_size=1, max_size=8))
def test_folds_of_strs_and_tuple_keys(words):
    check_all_levels(word_folds, words)
    check_all_levels(shortest_first, words)


def test_empty_reduce_raises_as_cpython():
    f = script.script(fold_first)
    try:
        f([])
    except TypeError as e:
        assert str(e) == "reduce() of empty iterable with no initial value"
    else:
        raise AssertionError("no TypeError")


def test_a_bad_fold_call_is_a_compile_error():
    import pytest

    def bad(xs: list[int]) -> int:
        return functools.reduce(operator.add)

    with pytest.raises(script.CompileError, match="reduce\\(\\) takes a function"):
        script.script(bad)([1])      # (compiled on its first call)
