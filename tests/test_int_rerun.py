"""Ints beyond int64: a call whose int arithmetic leaves int64, or that is given an int that
does not fit it, gives CPython's answer by running again as plain Python where it left no
trace (ir.effects), and raises OverflowError where it did (docs/integers.md)."""

import random

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import script
from difftest import check, compiled, outcome, run_child
from script.backend.llvm.abi import reachable_functions
from script.ir.effects import leaves_no_trace


def factorial(n):
    r = 1
    for i in range(2, n + 1):
        r *= i
    return r


def fibonacci(n):
    a, b = 0, 1
    for _ in range(n):
        a, b = b, a + b
    return a


def binomial_table(n, k):
    rows = [[1] * (i + 1) for i in range(n + 1)]
    for i in range(2, n + 1):
        for j in range(1, i):
            rows[i][j] = rows[i - 1][j - 1] + rows[i - 1][j]
    return rows[n][k]


def power_sum(xs, e):
    total = 0
    for x in xs:
        total += x ** e
    return total


def recursive_power(b, e):
    if e == 0:
        return 1
    half = recursive_power(b, e // 2)
    return half * half * (b if e % 2 else 1)


def validated(n):
    x = n * 3**39
    if x > 2**62:
        raise ValueError(f"too large: {x}")
    return x


def twice(x):
    return 2 * x


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 120), st.integers(0, 60))
def test_results_beyond_int64_are_cpythons(n, k):
    for fn, args in ((factorial, (n,)), (fibonacci, (n,)), (binomial_table, (n, min(k, n))),
                     (recursive_power, (3, k)), (validated, (n,))):
        got = check(fn, compiled(fn), *args)
        assert got == outcome(fn, args)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(-2**70, 2**70), max_size=5), st.integers(0, 4))
def test_arguments_beyond_int64_run_as_python(xs, e):
    # an argument that does not fit int64 (alone or in a list) never reaches compiled code
    check(power_sum, compiled(power_sum), xs, e)
    for x in xs:
        check(twice, compiled(twice), x)


def test_several_specializations_and_keywords():
    f = script.script(twice)
    assert f(1.5) == 3.0 and f(3) == 6            # two specializations: the generic dispatch
    assert f(2**62) == 2**63 and type(f(2**62)) is int
    assert f(x=2**70) == 2**71                    # a keyword: through the fallback
    g = script.script(recursive_power)
    assert g(b=7, e=40) == 7**40


def bump_then_overflow(xs):
    xs[0] += 1
    return xs[1] * 2**62


def print_then_overflow(n):
    print("computing", n)
    return n * 2**62


def draws_then_overflow(n):
    return int(random.random() * 4) + n * 2**62


def write_array(a, n):
    a[0] = 1.0
    return n * 2**62


def test_a_call_that_left_a_trace_raises():
    """A call that wrote an argument, printed or drew a random number is not run again: its
    OverflowError names the operation, and the argument keeps what the call wrote."""
    xs = [0, 5]
    with pytest.raises(OverflowError, match=r"integer overflow in 'xs\[1\] \* 2 \*\* 62'"):
        script.script(bump_then_overflow)(xs)
    assert xs == [1, 5]
    with pytest.raises(OverflowError):
        script.script(print_then_overflow)(3)
    with pytest.raises(OverflowError):
        script.script(draws_then_overflow)(3)
    a = np.zeros(2)
    with pytest.raises(OverflowError):
        script.script(write_array)(a, 3)
    assert a[0] == 1.0


def test_print_runs_once(capsys):
    f = script.script(print_then_overflow)
    assert f(1) == 2**62
    with pytest.raises(OverflowError):
        f(2)
    assert capsys.readouterr().out == "computing 1\ncomputing 2\n"


def test_int_overflow_raise():
    f = script.script(int_overflow="raise")(factorial)
    assert f(20) == factorial(20)
    with pytest.raises(OverflowError, match="integer overflow"):
        f(21)
    with pytest.raises(OverflowError):
        f(2**70)
    with pytest.raises(ValueError, match="int_overflow must be 'python' or 'raise'"):
        script.script(int_overflow="wrap")


def test_exceptions_of_the_second_run_are_cpythons():
    assert outcome(compiled(validated), (10**9,)) == outcome(validated, (10**9,))
    assert outcome(compiled(factorial), (-(2**70),)) == ("ok", 1)


def test_cache_hit_reruns(tmp_path):
    src = tmp_path / "big_fact.py"
    src.write_text("import script\n\n@script.script(cache=True)\ndef fact(n: int) -> int:\n"
                   "    r = 1\n    for i in range(2, n + 1):\n        r *= i\n    return r\n")
    code = ("import sys; sys.path.insert(0, sys.argv[1]); import big_fact; "
            "print(big_fact.fact(30) == __import__('math').factorial(30), big_fact.fact(5))")
    env = {"SCRIPT_CACHE_DIR": str(tmp_path / "cache")}
    assert run_child(code, str(tmp_path), **env) == "True 120\n"
    assert run_child(code, str(tmp_path), **env) == "True 120\n"      # a hit: no frontend


# ---- which calls leave no trace ------------------------------------------------------------

def _helper_write(a, i):
    a[i] = 0


def writes_through_helper(a):
    _helper_write(a, 0)
    return a[1]


def local_table(n):
    dp = [[0] * (n + 1) for _ in range(n + 1)]
    for i in range(n + 1):
        dp[i][0] = 1
        for j in range(1, i + 1):
            dp[i][j] = dp[i - 1][j - 1] + dp[i - 1][j]
    return dp[n][n // 2]


def holds_argument(a, n):
    rows = [a]
    rows[0][0] = n
    return n


def sorted_copy(xs):
    ys = list(xs)
    ys.sort()
    _helper_write(ys, 0)
    return ys[-1]


def local_dict(xs):
    seen = {}
    for x in xs:
        seen[x] = seen.get(x, 0) + 1
    return len(seen)


def array_copy(a):
    b = a.copy()
    b[0] = 1.0
    return b.sum()


def returns_argument(a):
    return a


def writes_returned_argument(a):
    b = returns_argument(a)
    b[0] = 2
    return 0


@pytest.mark.parametrize("fn, args, clean", [
    (factorial, (5,), True), (local_table, (4,), True), (sorted_copy, ([3, 1],), True),
    (local_dict, ([1, 2, 1],), True), (array_copy, (np.zeros(3),), True), (power_sum, ([1, 2], 3), True),
    (writes_through_helper, ([1, 2],), False), (holds_argument, ([1, 2], 3), False),
    (bump_then_overflow, ([1, 2],), False), (print_then_overflow, (3,), False),
    (draws_then_overflow, (3,), False), (write_array, (np.zeros(2), 1), False),
    (writes_returned_argument, ([1, 2],), False)])
def test_leaves_no_trace(fn, args, clean):
    f = script.script(fn)
    try:
        f(*args)
    except OverflowError:
        pass
    entry = next(iter(f._specializations.values())).entry
    assert leaves_no_trace(entry, reachable_functions(entry)) is clean
