"""Members of IntEnum/IntFlag classes read in compiled code: their value where CPython uses
their value, a CompileError where CPython keeps the member (script/frontend/enum_members.py)."""

import pytest
from hypothesis import given, settings, strategies as st

import enum_kernels as K
import script
from difftest import check_all_levels


@settings(max_examples=15, deadline=None)
@given(st.integers(-3, 6))
def test_members_as_their_values(n):
    check_all_levels(K.as_values, n)
    check_all_levels(K.classify, n)
    check_all_levels(K.table, n)


def test_members_as_text():
    if str(K.Color.RED) != "1":                 # Python 3.10: str() of an IntEnum member is its name
        with pytest.raises(script.CompileError, match="member of Color"):
            script.script(K.as_text)(1)
        return
    check_all_levels(K.as_text, 3)


@pytest.mark.parametrize("fn", [K.returns_member, K.member_in_variable, K.repr_of_member, K.flags,
                                K.key_written])
def test_where_cpython_keeps_the_member_it_is_refused(fn):
    with pytest.raises(script.CompileError, match="CPython keeps the member itself"):
        script.script(fn)(*([1] if fn is K.key_written else []))


def test_identity_is_refused_and_plain_members_are_values():
    with pytest.raises(script.CompileError, match="member of Color"):
        script.script(K.identity)(1)
    assert script.script(K.plain_member)() is K.plain_member()     # (test_enum_values.py)


def test_a_member_argument_is_refused_at_the_call():
    with pytest.raises(TypeError, match="an IntEnum, StrEnum or IntFlag is not its value"):
        script.script(K.takes_member)(K.Color.RED)
    assert script.script(K.takes_member)(K.Color.RED.value) == 2


@pytest.mark.parametrize("value", [K.Name("ann"), K.Count(3), K.Color.BLUE])
def test_subclasses_of_int_and_str_are_refused_at_the_call(value):
    # CPython gives the object back; compiled code would give a plain int or str
    with pytest.raises(TypeError, match="passed_through"):
        script.script(K.passed_through)(value)
    assert script.script(K.passed_through)(str(value) if isinstance(value, str) else int(value)) == value
