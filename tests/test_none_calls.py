"""The value of a call to a function that returns None (script/frontend/specialize.py
`never_returns` decides whether its value is ever seen), against CPython."""

import pytest

import script
from difftest import check_all_levels


def log_big(x: int):
    if x > 100:
        print("big")


def passes_on(x: int):
    return log_big(x)               # None, as in CPython (was 0)


def keeps(x: int):
    r = log_big(x)
    return r is None


def always_raises(x: int):
    raise ValueError(f"bad {x}")


def uses_a_raising_call(x: int) -> int:
    if x > 0:
        return always_raises(x) + 1     # never seen: still compiles, as in CPython
    return x


@pytest.mark.parametrize("x", [3, 500])
def test_the_value_of_a_none_call_is_none(x):
    check_all_levels(passes_on, x)
    check_all_levels(keeps, x)


@pytest.mark.parametrize("x", [-2, 0, 4])
def test_a_call_that_always_raises_still_types(x):
    check_all_levels(uses_a_raising_call, x)
    assert script.script(passes_on)(x) is None
