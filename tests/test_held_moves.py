"""A generator expression or iterator maker held in a local and read once just after
(frontend/held_moves.py): made where it is read, so it runs lazily, as in CPython. Each
function runs against CPython (values, types, printed output and exceptions)."""

import ast
import textwrap

import pytest
from hypothesis import given, settings, strategies as st

import script
from difftest import check_all_levels
from script.errors import CompileError
from script.frontend.held_moves import move_held_iterators


def chunks(bits):
    parts = map("".join, zip(*[iter(bits)] * 3))
    return "-".join(parts)


def squares(xs):
    g = (x * x for x in xs if x % 2)
    return sum(g)


def pairs_after_quiet(xs, ys):
    z = zip(xs, ys)
    total = 0
    best = None
    for a, b in z:
        total += a * b
        if best is None or a > best:
            best = a
    return total, best


def noisy(x):
    print("item", x)
    return x * 2


def lazy_map_stops_early(xs):
    m = map(noisy, xs)
    for v in m:
        if v > 4:
            return v
    return -1


def lazy_in_comprehension(words):
    upper = (w.upper() for w in words)
    return [w for w in upper if len(w) > 1]


def mapped_in_loop(lines):
    total = 0
    for line in lines:
        nums = map(int, line.split())
        total += sum(nums)
    return total


def parse_first(tokens):
    nums = map(int, tokens)
    return any(n > 5 for n in nums)         # stops at the first: int() of the rest never runs


def filtered_to_join(words):
    kept = filter(str.isalpha, words)
    return ",".join(kept)


@pytest.mark.parametrize("fn, args", [
    (chunks, ("abcdefghi",)), (chunks, ("abcdefgh",)), (squares, ([1, 2, 3, 5],)),
    (pairs_after_quiet, ([1, 5, 2], [3, 4])), (lazy_map_stops_early, ([1, 2, 3, 4],)),
    (lazy_in_comprehension, (["a", "bc", "def"],)), (mapped_in_loop, (["1 2", "3", ""],)),
    (parse_first, (["1", "9", "x"],)), (parse_first, (["1", "x"],)), (filtered_to_join, (["ab", "1", "c"],)),
])
def test_moved_against_cpython(fn, args):
    check_all_levels(fn, *args)


@settings(max_examples=30, deadline=None)
@given(st.lists(st.integers(-9, 9), max_size=6), st.lists(st.integers(-9, 9), max_size=6))
def test_moved_hypothesis(xs, ys):
    check_all_levels(squares, xs)
    check_all_levels(pairs_after_quiet, xs, ys)
    check_all_levels(lazy_map_stops_early, xs)


def _moved(src: str) -> str:
    fn = ast.parse(textwrap.dedent(src)).body[0]
    move_held_iterators(fn, lambda name: (False, None))
    return ast.unparse(fn)


def test_what_moves_and_what_stays():
    # read once, just after: moved
    assert "sum((x for x in xs))" in _moved("def f(xs):\n g = (x for x in xs)\n return sum(g)")
    assert "for v in map(abs, xs)" in _moved("def f(xs):\n m = map(abs, xs)\n t = 0\n for v in m:\n  t += v\n return t")
    # a call between the two, a read in a loop body, a second read, a rebinding: not moved
    assert "m = map" in _moved("def f(xs):\n m = map(abs, xs)\n print(1)\n return list(m)")
    assert "m = map" in _moved("def f(xs):\n m = map(abs, xs)\n for i in xs:\n  print(list(m))")
    assert "m = map" in _moved("def f(xs):\n m = map(abs, xs)\n return list(m) + list(m)")
    assert "m = map" in _moved("def f(xs):\n m = map(abs, xs)\n xs = []\n return list(m)")
    assert "m = map" in _moved("def f(xs):\n m = map(abs, xs)\n return [print(1), list(m)]")
    assert "m = map" in _moved("def f(xs):\n m = map(abs, xs)\n return [y for y in xs for z in m]")
    assert "m = map" in _moved("def f(xs):\n m = map(abs, xs)\n while list(m):\n  pass")
    # a local or parameter named map is not the builtin
    assert "m = map" in _moved("def f(xs, map):\n m = map(abs, xs)\n return list(m)")
    # a range is a sequence, held as it is
    assert "r = range" in _moved("def f(n):\n r = range(n)\n return list(r)")


def test_a_held_generator_read_later_runs_when_read(capfd):
    def later(xs):
        g = (print(x) or x * 2 for x in xs)
        print("made")
        return sum(g)
    want = later([1, 2])
    py_out = capfd.readouterr().out
    assert script.script(later)([1, 2]) == want        # (held_generators.py)
    assert capfd.readouterr().out == py_out


def test_a_moved_map_calls_its_function_lazily(capfd):
    for xs in ([1, 2, 3, 4], [9], []):
        want = lazy_map_stops_early(xs)
        py_out = capfd.readouterr().out
        assert script.script(lazy_map_stops_early)(xs) == want
        assert capfd.readouterr().out == py_out


# Held where it cannot move: a list made at once, only where that cannot be seen.

def _map_of_effects_held(xs):
    m = map(noisy, xs)
    print("before")
    return sum(v for v in m)


def _filter_of_changed_source(xs):
    m = filter(lambda x: x > 1, xs)
    xs.append(5)
    return list(m)


def _zip_of_changed_source(xs, ys):
    z = zip(xs, ys)
    xs.append(7)
    return [a + b for a, b in z]


def _returns_lazy_map(xs):
    return map(noisy, xs)


def _calls_lazy_map(xs):
    m = _returns_lazy_map(xs)
    print("between")
    return list(m)


@pytest.mark.parametrize("fn, args, text", [
    (_map_of_effects_held, ([1, 2],), "a map object held as a value"),
    (_filter_of_changed_source, ([1, 2],), "it calls a function for each item"),
    (_zip_of_changed_source, ([1], [2, 3]), "'xs' is changed in this function"),
    (_calls_lazy_map, ([1, 2],), "a map object returned"),
])
def test_a_held_iterator_a_list_would_betray_is_refused(fn, args, text):
    with pytest.raises(CompileError, match=text):
        script.script(fn)(*args)


def quiet_held(words, xs, ys):
    up = map(str.upper, words)
    z = zip(xs, ys)
    e = enumerate(ys)
    print(len(words))
    return list(up), [a * b for a, b in z], sorted(e), sum(map(lambda v: v * 2, xs))


def test_a_held_iterator_a_list_cannot_betray_compiles():
    check_all_levels(quiet_held, ["a", "bc"], [1, 2, 3], [4, 5])


def _size(v):
    return len(v)


def _checked_before(xs, ys):
    _size(xs)                           # a function given xs (it might change it), before the zip is made
    z = zip(xs, ys)
    print("made")
    return list(z)


def test_a_change_before_the_maker_is_not_one_it_sees():
    check_all_levels(_checked_before, [1, 2], [3])
