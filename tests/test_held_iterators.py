"""Ranges and iterators held as values (frontend/held_iterators.py): compiled code holds
them as the lists of their items, so it gives CPython's answer where the list would (run
against CPython, values, types and exceptions) and refuses at the line where it would not:
an iterator read twice or inside a loop, indexed or measured; anything written, added,
compared by identity or written as text; a result holding one."""

import itertools

import pytest
from hypothesis import given, settings, strategies as st

import script
from difftest import check_all_levels
from script.errors import CompileError


def range_ops(n, k):
    r = range(-3, n, 2)
    hits = [i for i in r if i % 3 == 0]
    total = 0
    for i in r:                          # a range iterates again and again
        for j in r:
            total += i * j
    at = r[k % len(r)] if len(r) else None
    return (len(r), hits, total, at, r.count(k), k in r, r.index(k) if k in r else -1,
            r[1:] == range(-1, n, 2), r == range(-3, n, 2), r == list(r), r[::-1] == range(n, -4, -2),
            list(r[::2]), sum(r), list(reversed(r)))


def consumed_once(words, xs):
    lengths = map(len, words)
    pairs = zip(words, lengths)
    table = {w: n for w, n in pairs}
    it = filter(lambda v: v > 0, xs)
    doubled = [v * 2 for v in it]
    steps = itertools.accumulate(xs)
    numbered = enumerate(xs, 1)
    weighted = [i * v for i, v in numbered]
    return table, doubled, list(steps), "-".join(map(str, xs)), max(map(abs, xs), default=0), weighted


def binary_search(a_list, item):
    if len(a_list) == 0:
        return False
    mid = len(a_list) // 2
    if a_list[mid] == item:
        return True
    if item < a_list[mid]:
        return binary_search(a_list[:mid], item)
    return binary_search(a_list[mid + 1:], item)


def shape(numbers):
    return len(numbers), sum(numbers), numbers[-1] if numbers else None, numbers == range(len(numbers))


@settings(max_examples=40, deadline=None)
@given(st.integers(-5, 30), st.integers(-6, 40))
def test_ranges_against_cpython(n, k):
    check_all_levels(range_ops, n, k)


@settings(max_examples=30, deadline=None)
@given(st.lists(st.text("ab", min_size=1, max_size=3), max_size=5), st.lists(st.integers(-9, 9), max_size=6))
def test_iterators_read_once_against_cpython(words, xs):
    check_all_levels(consumed_once, words, xs)


@settings(max_examples=40, deadline=None)
@given(st.integers(-50, 50), st.integers(-50, 50), st.integers(1, 9), st.integers(-60, 60))
def test_range_arguments_against_cpython(start, stop, step, item):
    r = range(start, stop, step)
    check_all_levels(binary_search, r, item)
    check_all_levels(shape, r)


def test_a_range_argument_is_not_a_list():
    f = script.script(shape)
    assert f(range(3)) == (3, 3, 2, True)
    assert f([0, 1, 2]) == (3, 3, 2, False)         # a list is never equal to a range
    with pytest.raises(TypeError, match="of type range is not supported"):
        f(range(2**63, 2**63 + 2))                  # (items beyond int64)


def _read_twice(xs):
    m = map(abs, xs)
    return sum(m) + sum(m)


def _read_in_a_loop(xs):
    z = zip(xs, xs)
    n = 0
    for _ in range(2):
        for a, b in z:
            n += a * b
    return n


def _indexed(xs):
    return map(abs, xs)[0]


def _measured(xs):
    return len(filter(None, xs))


def _range_written(n):
    r = range(n)
    r[0] = 5
    return r[0]


def _range_appended(n):
    r = range(n)
    r.append(n)
    return len(r)


def _range_text(n):
    return str(range(n))


def _range_added(n):
    return range(n) + [1]


def _iterators_compared(xs):
    return map(abs, xs) == map(abs, xs)


def _ranges_returned(n):
    return [range(n), range(n)]


@pytest.mark.parametrize("fn, arg, text", [
    (_read_twice, [1, -2], "'m' (a map object) is read a second time here"),
    (_read_in_a_loop, [1, 2], "'z' (a zip object) is read inside a loop it was made outside of"),
    (_indexed, [1], "'map' object is not subscriptable"),
    (_measured, [1], "'filter' object is not subscriptable (nor has a len())"),
    (_range_written, 3, "'range' object does not support item assignment"),
    (_range_appended, 3, "'range' object has no attribute 'append'"),
    (_range_text, 3, "str() of a range object is not supported"),
    (_range_added, 3, "unsupported operand type(s) for +: 'range'"),
    (_iterators_compared, [1], "'==' with a 'map' object"),
    (_ranges_returned, 3, "holds range or iterator objects"),
])
def test_what_the_list_would_answer_differently_is_refused(fn, arg, text):
    with pytest.raises(CompileError) as e:
        script.script(fn)(arg)
    assert text in str(e.value)


def _noisy(x):
    print("f", x)
    return x * 2


def _loud_loops(xs):
    for y in map(_noisy, xs):
        print("y", y)
    for y in filter(_noisy, xs):
        print("kept", y)
    return sum(map(_noisy, xs))


def test_map_and_filter_call_their_function_as_items_are_taken(capsys):
    want = _loud_loops([1, 0, 2])
    expected = capsys.readouterr().out
    assert script.script(_loud_loops)([1, 0, 2]) == want
    assert capsys.readouterr().out == expected


def _transpose(m, as_map):
    if as_map:
        return map(list, zip(*m))
    return list(map(list, zip(*m)))


def rows_of_transposes(m):
    return list(_transpose(m, True)), list(_transpose(m, False))


def _triplet(xs, target):
    for i in range(len(xs)):
        for j in range(i + 1, len(xs)):
            for k in range(j + 1, len(xs)):
                if xs[i] + xs[j] + xs[k] == target:
                    return tuple(sorted((xs[i], xs[j], xs[k])))
    return (0, 0, 0)


def triplets(xs):
    return _triplet(xs, 6), _triplet(xs, 100), len(_triplet(xs, 6))


def test_results_that_meet_only_as_results():
    check_all_levels(rows_of_transposes, [[1, 2], [3, 4], [5, 6]])
    check_all_levels(triplets, [3, 1, 2, 5, 0])


def lookups(words, d):
    seen = []
    for v in map(d.get, words):         # may be None, as CPython's
        seen.append(v)
    return (seen, list(d.get(w) for w in words), list(map(str.strip, words)),
            [w for w in map(str.upper, words)], list(filter(str.isdigit, words)))


@settings(max_examples=30, deadline=None)
@given(st.lists(st.sampled_from([" a", "7", "b ", "12"]), max_size=5))
def test_maps_and_generators_of_values_that_may_be_none(words):
    check_all_levels(lookups, words, {"7": 1, "b ": 2})
