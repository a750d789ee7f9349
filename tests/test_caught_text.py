"""`str(e)`, `repr(e)`, `print(e)` and f-strings of `except C as e`, against CPython
(docs/exceptions.md)."""

import math

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import script
from difftest import check_all_levels, compiled


def fails(k, x, s):
    if k == 0:
        return 1 // (k * 0)
    if k == 1:
        return [1, 2][k * 5]
    if k == 2:
        return {1: 2, 3: 4}[k * 7]
    if k == 3:
        return [k][:0].pop()
    if k == 4:
        raise ValueError(f"bad x={x} half={x / 2:.3f} flag={x > 0} s={s!r} é")
    if k == 5:
        raise ValueError
    if k == 6:
        return math.sqrt(-1.0 - abs(x))
    if k == 7:
        raise RuntimeError("%d%% of %s" % (k, s))
    if k == 8:
        return int(x)               # (int(s)'s ValueError comes from CPython: not caught yet)
    return np.zeros(3)[k]


def texts(k, x, s):
    try:
        fails(k, x, s)
        return "no error"
    except (ArithmeticError, LookupError, ValueError, RuntimeError) as e:
        return str(e) + " | " + repr(e) + " | " + f"[{e}] [{e!r}]"


def inline_raise(x):
    try:
        if x > 2:
            raise KeyError(f"k{x}")       # (KeyError(x) of an int x has the text as its key)
        raise IndexError(f"index {x} of {x * 1.5}")
    except LookupError as err:
        return repr(err), str(err)


def message_of_message(x):
    try:
        return 10 // x
    except ZeroDivisionError as e:
        raise ValueError(f"wrapped: {e}")


def printed(x):
    try:
        return [x][x]
    except IndexError as e:
        print(e)
        print("caught", e, repr(e))
        return -1


def in_a_loop(n):
    total = 0
    for k in range(n):
        try:
            fails(k % 10, k * 0.25, "ab" * (k % 3))
        except Exception as e:
            total += len(str(e)) + len(repr(e))
    return total


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 9), st.floats(-1e6, 1e6) | st.sampled_from([math.inf, math.nan, 0.1]), st.text(max_size=4))
def test_text_of_caught_exceptions(k, x, s):
    check_all_levels(texts, k, x, s)


@pytest.mark.parametrize("x", [0, 1, 3, -4])
def test_raised_in_the_function_and_wrapped(x):
    check_all_levels(inline_raise, x)
    check_all_levels(message_of_message, x)


def test_print_of_an_exception(capsys):
    assert compiled(printed)(1) == -1
    got = capsys.readouterr().out
    assert printed(1) == -1
    assert got == capsys.readouterr().out


def test_many_caught_exceptions_stay_right():
    assert compiled(in_a_loop)(20000) == in_a_loop(20000)


def args_of(x):
    try:
        return 1 // x
    except ZeroDivisionError as e:
        return len(e.args)


def test_other_uses_are_compile_errors():
    with pytest.raises(script.CompileError, match=r"can only be raised again .* or made text") as e:
        script.script(args_of)(0)
    assert e.value.loc.line == args_of.__code__.co_firstlineno + 4
