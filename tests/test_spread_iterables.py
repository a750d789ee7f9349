"""`max(*xs)`, `min(*xs)`, `math.gcd(*xs)`, `math.lcm(*xs)` of an iterable of a run-time
length (varargs.spread_iterable): CPython's value, and its TypeError for no argument and
for one number (which max() would iterate)."""

import cmath
import math

import pytest
from hypothesis import given, settings, strategies as st

import script
from difftest import check_typed

INTS = st.lists(st.integers(-50, 50), max_size=5)


def spread_max(xs):
    return max(*xs)


def spread_min(xs):
    return min(*xs)


def spread_gcd(xs):
    return math.gcd(*xs)


def spread_lcm(xs):
    return math.lcm(*[abs(x) % 12 for x in xs])


def spread_range(n):
    return math.lcm(*range(1, n)), math.gcd(*range(0, 3 * n, 3))


def spread_generator(xs):
    return max(*(x * 2 for x in xs)), min(*(x > 0 for x in xs))


def spread_floats(xs):
    return max(*[x * 0.5 for x in xs])


def spread_tuple(a, b):
    t = (a, b, 3)
    return max(*t), math.gcd(*t)


@settings(max_examples=30, deadline=None)
@given(INTS)
def test_spread_of_a_list_gives_cpythons_answer(xs):
    for fn in (spread_max, spread_min, spread_gcd, spread_lcm, spread_generator, spread_floats):
        check_typed(fn, xs)


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 22), st.integers(-9, 9))
def test_spread_of_a_range_and_of_a_tuple(n, a):
    check_typed(spread_range, n)
    check_typed(spread_tuple, a, n)


def test_spread_of_strs_is_refused_at_the_line():
    def f(xs):
        return max(*xs)
    with pytest.raises(script.CompileError, match=r"max\(\*xs\) of elements of type str"):
        script.script(f)(["ab", "c"])


def _mean_angle(deg):
    return math.degrees(cmath.phase(sum(cmath.rect(1, math.radians(d)) for d in deg) / len(deg)))


def _angles_of_a_held_generator(times):
    t = (time.split(':') for time in times)
    seconds = ((float(s) + int(m) * 60 + int(h) * 3600)
               for h, m, s in t)
    day = 24 * 60 * 60
    to_angles = [s * 360. / day for s in seconds]
    return _mean_angle(to_angles)


def test_math_of_a_value_not_typed_yet_is_no_compiler_crash():
    # math.radians of a value not typed yet (a round rebuilt on the sum's int start meeting a
    # complex) made a constant of no type: "TypeError: no constants of type ?" from the
    # compiler (Rosetta's Averages-Mean-time-of-day); now the sum's CompileError
    with pytest.raises(script.CompileError, match=r"the running total \(of sum\(\).*c128"):
        script.script(_angles_of_a_held_generator)(["23:00:17", "23:40:20"])


_TEMPLATE = "{}-{}"


def _format_row(a, b):
    row = (a, b)
    return _TEMPLATE.format(*row)


def test_a_starred_call_of_a_global_strs_method_is_no_fold():
    # looking a starred call up among the folds evaluated the callee: `_TEMPLATE.format`, a
    # bound method, is no value ("the bound method 'str.format' is not a value")
    check_typed(_format_row, 1, 2)


_LETTERS = "ABCA"


def _walk_a_globals_method_result(n):
    out = []
    for ch in _LETTERS.replace("A", "B"):
        out.append(ch)
    return out, "".join(c for c in _LETTERS.replace("B", "C")), n


def test_iterating_a_method_call_of_a_global_str():
    # the generator walks (map/filter, islice, takewhile) looked their callee up by
    # evaluating it: `_LETTERS.replace` is a bound method, no value
    check_typed(_walk_a_globals_method_result, 1)


_LETTERS = "ABCA"


def _walk_a_globals_method_result(n):
    out = []
    for ch in _LETTERS.replace("A", "B"):
        out.append(ch)
    return out, "".join(c for c in _LETTERS.replace("B", "C")), n


def test_iterating_a_method_call_of_a_global_str():
    # the generator walks (map/filter, islice, takewhile) looked their callee up with
    # global_callee, which evaluated `_LETTERS.replace`, a bound method and no value
    check_typed(_walk_a_globals_method_result, 1)
