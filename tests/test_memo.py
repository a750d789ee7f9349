"""`functools.cache` / `functools.lru_cache` on nested functions (script/frontend/memo.py):
memoized in compiled code, against CPython."""

import functools
from functools import cache, lru_cache

import pytest
from hypothesis import given, settings, strategies as st

import script
from difftest import check_all_levels

SET = settings(max_examples=25, deadline=None)


def fib(n: int) -> int:
    @functools.lru_cache(maxsize=None)
    def f(k):
        return k if k < 2 else f(k - 1) + f(k - 2)
    return f(n)


def stairs(n: int) -> int:
    @cache
    def ways(k):
        if k < 0:
            return 0
        if k == 0:
            return 1
        total = 0
        for step in (1, 2, 3):
            total += ways(k - step)
        return total            # every return is recorded
    return ways(n) + ways(n // 2)


def collatz_longest(n: int) -> int:
    @lru_cache(None)
    def length(k):
        if k == 1:
            return 1
        k = k // 2 if k % 2 == 0 else 3 * k + 1     # the key is taken before the body runs
        return 1 + length(k)
    best = 0
    for i in range(1, n + 1):
        best = max(best, length(i))
    return best


def grid_paths(n: int, m: int) -> int:
    @cache
    def p(i, j):
        if i == 0 or j == 0:
            return 1
        return p(i - 1, j) + p(i, j - 1)
    return p(n, m)


@SET
@given(st.integers(0, 90))
def test_a_cached_recursion_is_memoized(n):
    check_all_levels(fib, n)                 # fib(90) unmemoized would not finish
    check_all_levels(stairs, n * 2 // 3)     # within int64


@SET
@given(st.integers(1, 300))
def test_the_key_is_the_arguments_as_called(n):
    check_all_levels(collatz_longest, n)


@SET
@given(st.integers(0, 16), st.integers(0, 16))
def test_several_parameters_make_a_tuple_key(n, m):
    check_all_levels(grid_paths, n, m)       # the memo is typed by the function that fills it


def test_other_decorators_and_cached_defaults_are_refused():
    def with_default(n: int) -> int:
        @cache
        def f(k, step=1):
            return k if k < 2 else f(k - step)
        return f(n)

    def other(n: int) -> int:
        @staticmethod
        def f(k):
            return k
        return f(n)

    for fn in (with_default, other):
        with pytest.raises(script.CompileError, match="decorators on nested functions"):
            script.script(fn)(3)        # (compiled on its first call)


@functools.lru_cache(maxsize=None)
def tribonacci_ways(n):
    if n < 0:
        return 0
    if n == 0:
        return 1
    return tribonacci_ways(n - 1) + tribonacci_ways(n - 2) + tribonacci_ways(n - 3)


@cache
def binomial(n, k=2):
    if k == 0 or k == n:
        return 1
    return binomial(n - 1, k - 1) + binomial(n - 1, k)


def uses_module_level_caches(n):
    return tribonacci_ways(n) + binomial(n + 2) + binomial(n + 4, k=3)


@SET
@given(st.integers(0, 60))
def test_module_level_cached_functions(n):
    # called from compiled code, and compiled themselves: memoized (60 levels unmemoized
    # would not finish), the memo living as long as the compiled call
    check_all_levels(uses_module_level_caches, n)
    assert script.script(tribonacci_ways)(n) == tribonacci_ways(n)
    assert script.script(binomial)(n + 2) == binomial(n + 2)


_PRIMES = {2, 3, 5, 7, 11}


@lru_cache(maxsize=100)
def _partitions(n: int) -> set[int]:
    """Project Euler 77's shape: `return set()` first, under an annotated return."""
    if n < 0:
        return set()
    elif n == 0:
        return {1}
    ret: set[int] = set()
    for p in _PRIMES:
        if p > n:
            continue
        for sub in _partitions(n - p):
            ret.add(sub * p)
    return ret


def first_with_partitions(m: int):
    for k in range(1, 40):
        if len(_partitions(k)) > m:
            return k
    return None


@SET
@given(st.integers(0, 30))
def test_cached_function_returning_an_empty_set_under_an_annotation(m):
    check_all_levels(first_with_partitions, m)
    check_all_levels(_partitions.__wrapped__, m - 3)
