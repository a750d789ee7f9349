"""User exception classes with an __init__, a __str__ and attributes, raised in compiled code:
CPython builds them when they are raised, so the class, `args`, `str()`, `repr()` and the
attributes are CPython's, in compiled handlers and in the Python caller; what cannot be
kept is a CompileError (docs/exceptions.md, script/frontend/built_exceptions.py)."""

import pytest
from hypothesis import given, settings, strategies as st

import script
from difftest import compiled
import user_exception_init_kernels as K


def full_outcome(fn, args):
    """The value, or everything about the exception: its very class, args, str, repr, attributes."""
    try:
        return ("ok", fn(*args))
    except Exception as e:  # noqa: BLE001 - the exception is the behaviour compared
        return ("raise", type(e), e.args, str(e), repr(e), dict(vars(e)))


def check(fn, *args):
    want = full_outcome(fn, args)
    for level in (0, None):
        got = full_outcome(compiled(fn, **({"opt": 0} if level == 0 else {})), args)
        assert got == want, f"{fn.__name__}{args} opt={level}: CPython {want}, compiled {got}"


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 7), st.integers(-50, 50))
def test_raised_and_caught_against_cpython(k, x):
    for fn in (K.raises, K.catch_by_base, K.catch_attributes, K.reraise, K.nested):
        check(fn, k, x)


@pytest.mark.parametrize("b, a", [(5, 3), (5, 7), (5, 11), (0, 1), (-3, 2)])
def test_init_of_the_class_and_of_its_base(b, a):
    for fn in (K.withdraw, K.catch_by_class, K.amounts, K.raise_again):
        check(fn, b, a)


@pytest.mark.parametrize("x", [9, -9, 0, 6])
def test_raised_and_caught_in_one_function(x):
    check(K.here, x)


def test_the_python_caller_gets_the_users_instance():
    with pytest.raises(K.InsufficientFunds) as e:
        compiled(K.withdraw)(3, 5)
    assert type(e.value) is K.InsufficientFunds and e.value.args == ("balance 3 < 5",)
    assert (e.value.balance, e.value.amount) == (3, 5)
    with pytest.raises(K.ParseError) as e:
        compiled(K.names)("eof")
    assert str(e.value) == "ParseError(0)" and e.value.args == ("eof! at 0",) and e.value.pos == 0
    with pytest.raises(ZeroDivisionError):       # raised by the class's __init__, as in CPython
        compiled(K.raises)(4, 3)
    with pytest.raises(TypeError, match="missing 2 required positional arguments"):
        compiled(K.raises)(6, 0)                 # `raise InsufficientFunds`: CPython calls it
    assert compiled(K.in_a_loop)(3000) == K.in_a_loop(3000)


@pytest.mark.parametrize("fn, text", [
    (K.counting, "declares 'COUNT' global"),
    (K.logging, "calls 'LOG.append'"),
    (K.made_outside_raise, "can be made only in a 'raise' statement"),
    (K.caught_as_argument, "can only be raised again|caught exception as an argument"),
])
def test_what_cannot_be_kept_is_a_compile_error(fn, text):
    with pytest.raises(script.CompileError, match=text):
        script.script(fn)(1)


def test_an_attribute_of_an_undeclared_type_is_a_compile_error():
    with pytest.raises(script.CompileError, match=r"the type of 'e.v' \(Opaque.v\) is not known"):
        script.script(K.undeclared)(1)


def test_a_value_of_another_type_than_declared_stops_the_call():
    from script.pyhooks.caught_text import AttributeTypeError
    assert K.typed_mismatch(3) == 1.5
    with pytest.raises(AttributeTypeError, match="Typed.code is 1.5, but compiled code read it as int"):
        compiled(K.typed_mismatch)(3)


def test_a_kernel_cannot_raise_a_class_cpython_builds():
    import numpy as np
    with pytest.raises(script.CompileError, match="cannot be raised in a kernel"):
        K.kernel_raise()[1, 4](np.array([1.0, -2.5]))


@pytest.mark.parametrize("s", ["it's", 'a"b\\c\n', "é€😀", ""])
def test_str_arguments_reach_init_as_they_are(s):
    check(K.names, s)
