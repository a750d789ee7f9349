"""Private names are mangled as CPython mangles them (frontend/mangling.py): `self.__x` in
class C is the attribute `_C__x` that `vars()` shows and Python code reads, `self.__check()`
calls the method stored as `_C__check`, and a subclass's `self.__x` is its own attribute."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import private_name_kernels as K
import script
from difftest import check_typed


@settings(max_examples=20, deadline=None)
@given(st.lists(st.integers(-3, 12), max_size=5))
def test_private_fields_and_methods(amounts):
    check_typed(K.transactions, amounts)


@pytest.mark.parametrize("n", [0, 3, -4])
def test_slots_subclasses_and_locals(n):
    check_typed(K.slots, n)
    check_typed(K.subclass, n)
    check_typed(K.quiet)


def test_instances_cross_to_python_under_mangled_names():
    a = script.script(K.made)(5)
    assert vars(a) == vars(K.made(5)) == {"owner": "bo", "_Account__balance": 5, "_Account__log": [5]}
    assert a.withdraw(2) == 3
    s = script.script(lambda n: K.Savings("cy", n))(4)
    assert vars(s) == vars(K.Savings("cy", 4))


@pytest.mark.parametrize("k", [1, 50])
def test_instances_from_python_are_read_and_written_back(k):
    mine, theirs = K.Account("di", 9), K.Account("di", 9)
    try:
        want = ("ok", K.take(mine, k))
    except ValueError as e:
        want = ("raise", str(e))
    try:
        got = ("ok", script.script(K.take)(theirs, k))
    except ValueError as e:
        got = ("raise", str(e))
    assert want == got
    assert vars(mine) == vars(theirs)
