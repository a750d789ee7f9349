"""itertools.product / combinations / combinations_with_replacement / permutations in
compiled code (script/lib/python/itertoolslib.py), against CPython."""

import itertools
from itertools import combinations, permutations, product

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import script
from difftest import check_all_levels
from script.errors import CompileError

SET = settings(max_examples=30, deadline=None)


def pairs_and_triples(xs, n):
    s = 0
    for a, b in combinations(xs, 2):
        s = (s * 3 + a - b) % 1000003
    for a, b, c in itertools.combinations(range(n), 3):
        s += a * b - c
    for t in itertools.combinations_with_replacement(xs, 2):
        s = (s * 2 - t[0] + t[1]) % 1000003
    return s, list(combinations(xs, 4)), list(combinations(xs, 1)), list(combinations(xs, 0))


def orders(xs):
    return (list(permutations(xs, 2)), list(permutations(xs, 3)), list(permutations(xs, 1)),
            list(itertools.combinations_with_replacement(xs, 3)), len(list(permutations(xs, 4))))


def products(xs, ys, n):
    grid = [(i, j) for i, j in product(range(n), range(n)) if i != j]
    total = 0.0
    for x, y in product(xs, ys):
        total = total * 0.5 + x * y
    cube = list(product(xs, repeat=3))
    return grid, total, cube, list(product(range(2), xs, ys, [7])), list(product()), sum(1 for _ in product(xs, repeat=2))


def shortest_tour(d):
    n = d.shape[0]
    best = 1e300
    for p in permutations(range(1, n), 3):
        best = min(best, d[0, p[0]] + d[p[0], p[1]] + d[p[1], p[2]] + d[p[2], 0])
    return best


@SET
@given(st.lists(st.integers(-9, 9), min_size=1, max_size=7), st.integers(0, 7))
def test_combinations(xs, n):
    check_all_levels(pairs_and_triples, xs, n)
    check_all_levels(orders, xs)


@SET
@given(st.lists(st.integers(-5, 5), min_size=1, max_size=5),
       st.lists(st.floats(-4, 4), min_size=1, max_size=5), st.integers(0, 5))
def test_products(xs, ys, n):
    check_all_levels(products, xs, ys, n)


def test_permutations_over_an_array_index():
    d = np.random.default_rng(0).random((6, 6))
    check_all_levels(shortest_tour, d)


def test_lists_of_empty_tuples():
    """A list literal of empty tuples divided by the element size (0) and killed the
    process with SIGFPE; now elements of no bytes count as one."""
    def empties(n):
        a = [()]
        b = [()] * n
        a.append(())
        return a, b, len(a) + len(b)
    check_all_levels(empties, 3)


def variable_r(xs, r):
    return list(combinations(xs, r))


def long_tuples(xs):
    return list(combinations(xs, 5))


@pytest.mark.parametrize("args", [([1, 2, 3], 2), ([1, 2, 3], 0), ([], 1), ([1, 2], -1)])
def test_run_time_and_long_lengths_give_tuples_of_one_type(args):
    # (test_itertools_run_time_lengths.py has the rest)
    check_all_levels(variable_r, *args)
    check_all_levels(long_tuples, list(range(7)))


def plus_one(v):
    return v + 1


def maps_and_filters(xs, ys):
    return (list(map(abs, xs)), sum(map(lambda v: v * v, xs)), list(filter(lambda v: v > 0, xs)),
            list(map(lambda a, b: a * b - 1, xs, ys)), list(filter(None, xs)), [v for v in map(int, ys)],
            list(map(plus_one, range(len(xs)))), max(map(abs, xs), default=-1),
            list(map(lambda a, b, c: a + b + c, xs, ys, xs)))


@SET
@given(st.lists(st.integers(-9, 9), min_size=1, max_size=8), st.lists(st.floats(-5, 5), min_size=1, max_size=8))
def test_map_and_filter(xs, ys):
    check_all_levels(maps_and_filters, xs, ys)


def _transposed(matrix, as_map=True):
    if as_map:
        return map(list, zip(*matrix))
    return list(map(list, zip(*matrix)))


def _odd_values(xs):
    odds = filter(lambda v: v % 2, xs)
    return odds


def _column_total(matrix):
    return sum(sum(row) for row in _transposed(matrix))


def test_an_iterator_returned_to_python_is_refused():
    """map(...), filter(...), zip, range, itertools' iterators are lists in compiled code:
    returned to Python they would not be CPython's iterator (a list prints, compares and
    iterates twice), so the entry function returning one is a CompileError at the return;
    a compiled caller takes the list as the iterator."""
    for fn, args in ((_transposed, ([[1, 2], [3, 4]],)), (_odd_values, ([1, 2, 3],))):
        with pytest.raises(CompileError, match=r"returns (map|filter)\(\.\.\.\) to Python|a filter object returned"):
            script.script(fn)(*args)
    check_all_levels(_column_total, [[1, 2], [3, 4]])


def _not_multiple(i):
    return i % 3 != 0


def nth_of_endless_stream(k, step):
    stream = (i for i in itertools.count(1, 2) if _not_multiple(i))
    first = next(itertools.islice(stream, k, None))
    found = []
    for x in itertools.islice((i * i for i in itertools.count(step)), k, None, step):
        found.append(x)
        if len(found) == 3:
            break
    return first, found, next(itertools.islice(filter(_not_multiple, itertools.count(k)), 2, None))


@SET
@given(st.integers(0, 30), st.integers(1, 4))
def test_islice_of_an_endless_generator_is_walked_lazily(k, step):
    """islice(<generator>, k, None) where it is iterated (next(), a for loop) asks the
    generator for items one at a time; compiled code made the list of all its items first,
    which never ends for an endless generator (Project Euler 7, 225)."""
    check_all_levels(nth_of_endless_stream, k, step)


def _list_of_endless_map():
    return next(x for x in map(lambda v: v * 3, itertools.count(2)) if x > 30)


def _islice_of_count_without_stop():
    for x in itertools.islice(itertools.count(2), 3, None):
        return x


@pytest.mark.parametrize("fn", [_list_of_endless_map, _islice_of_count_without_stop])
def test_a_list_of_an_endless_iterator_is_a_compile_error(fn):
    """map/filter with a lambda, islice without a stop, of count(): compiled code would make
    the list of their items, a MemoryError where CPython's lazy iterator gives an answer."""
    with pytest.raises(CompileError, match="is endless"):
        script.script(fn)()


def _odd(n):
    return n % 2


def first_false(start):
    # Project Euler 46's shape: the first of an endless count for which a test fails
    return next(itertools.filterfalse(_odd_multiple_of_3, itertools.count(start, 2)))


def _odd_multiple_of_3(n):
    return n % 3 != 0


def filtered_false(xs):
    return (list(itertools.filterfalse(_odd, xs)), sum(itertools.filterfalse(_odd, xs)),
            [x for x in itertools.filterfalse(None, xs)], next(itertools.filterfalse(_odd, xs), -1))


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(-5, 5), max_size=8), st.integers(-9, 9))
def test_filterfalse_is_lazy_and_gives_the_items_f_rejects(xs, start):
    check_all_levels(filtered_false, xs)
    check_all_levels(first_false, start)
