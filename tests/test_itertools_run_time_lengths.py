"""itertools' tuples whose length is known only at run time: `permutations(s)`,
`combinations(xs, k)`, `combinations_with_replacement(xs, k)`, `product(xs, repeat=n)` give
tuples of one element type (printed `tuple[i64, ...]`), in CPython's order, boxing to tuples."""

import itertools

import pytest
from hypothesis import given, settings, strategies as st

from difftest import check_all_levels


def _perms(xs, r):
    return list(itertools.permutations(xs, r))


def _perms_whole(s):
    return ["".join(p) for p in itertools.permutations(s)]


def _combs(xs, r):
    return [sum(c) for c in itertools.combinations(xs, r)], list(itertools.combinations(xs, r))


def _with_replacement(xs, r):
    return list(itertools.combinations_with_replacement(xs, r))


def _product(xs, n):
    return [list(p) for p in itertools.product(xs, repeat=n)]


def _first_digits(n, k):
    # permutations of a str's characters, a loop over them and a tuple's unpacking
    best = ""
    for p in itertools.permutations(str(n), k):
        word = "".join(p)
        if word > best:
            best = word
    return best


small = st.lists(st.integers(-5, 5), max_size=5)


@settings(max_examples=40, deadline=None)
@given(small, st.integers(-1, 6))
def test_permutations_combinations_product(xs, r):
    check_all_levels(_perms, xs, r)
    check_all_levels(_combs, xs, r)
    check_all_levels(_with_replacement, xs, r)
    check_all_levels(_product, xs[:3], min(r, 3))


@pytest.mark.parametrize("s", ["", "a", "abc", "abca", "dcba"])
def test_permutations_of_a_whole_str(s):
    check_all_levels(_perms_whole, s)


@pytest.mark.parametrize("args", [(4721, 2), (98, 0), (1234, 4), (56, 3)])
def test_permutations_of_digits(args):
    check_all_levels(_first_digits, *args)
