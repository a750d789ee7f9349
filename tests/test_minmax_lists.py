"""`max(a, b)` and `min(a, b, ...)` of lists compare them as CPython does (element by element,
then by length) and return the chosen list itself, the first of equal ones; an empty list
that only later meets a typed one (`best = []`, then `best = max(best, cand)` in a loop)
takes the other's element type. Before, two list arguments of max/min were a CompileError."""

from hypothesis import given, settings, strategies as st

from difftest import check_all_levels, check_typed

ints = st.lists(st.integers(-3, 3), max_size=4)


def larger(a: list, b: list) -> list:
    return max(a, b)


def smallest(a: list, b: list, c: list) -> list:
    return min(a, b, c)


def best_prefix(xs: list) -> list:
    best = []
    for i in range(len(xs) + 1):
        best = max(best, xs[:i])
    return best


def best_pair(n: int) -> list:
    best = []
    for i in range(n):
        best = max(best, [i % 3, -i])
    return best


def mixed(a: list, b: list) -> list:
    return max(a, b)


@settings(max_examples=25, deadline=None)
@given(ints, ints, ints)
def test_lists_compared_as_cpython_does(a, b, c):
    check_all_levels(larger, a, b)
    check_all_levels(smallest, a, b, c)
    check_all_levels(best_prefix, a)


def test_an_empty_list_meets_a_typed_one():
    for n in range(5):
        check_all_levels(best_pair, n)
    check_all_levels(smallest, ["b"], ["a", "z"], ["a"])


def test_ints_and_floats_keep_their_types():
    for a, b in (([1], [0.5]), ([0], [0.5]), ([1.0], [1]), ([1, 2], [1.0, 2.0, 0.1])):
        check_typed(mixed, a, b)
