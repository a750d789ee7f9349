"""User exception classes defined at module level, raised and caught in compiled code and
propagating out as the user's class, against CPython (docs/exceptions.md)."""

import pytest
from hypothesis import given, settings, strategies as st

import script
from difftest import check_all_levels, compiled


class ParseError(ValueError):
    pass


class DeepParseError(ParseError):
    """A docstring is a body too."""


class Budget(ArithmeticError):
    pass


class WithMethod(ValueError):
    def describe(self):
        return "no"


class TwoBases(KeyError, ValueError):
    pass


def raises(k, x):
    if k == 0:
        raise ParseError(f"bad token {x} at {x * 0.5}")
    if k == 1:
        raise DeepParseError
    if k == 2:
        raise Budget("over budget")
    if k == 3:
        raise ValueError("plain")
    if k == 4:
        return 1 // (x - x)
    return x


def catches(k, x):
    try:
        return str(raises(k, x))
    except DeepParseError as e:
        return "deep " + repr(e) + str(e)
    except ParseError as e:
        return "parse " + repr(e) + "|" + str(e)
    except ArithmeticError as e:
        return "arith " + repr(e)
    except ValueError as e:
        return "value " + repr(e)


def catches_by_base(k, x):
    try:
        return str(raises(k, x))
    except (IndexError, ValueError) as e:
        return "base " + repr(e)
    except Exception as e:
        return "any " + repr(e)


def raised_here(k):
    try:
        if k == 0:
            raise ParseError("here")
        if k == 1:
            raise DeepParseError()
        raise Budget
    except DeepParseError:
        return "deep"
    except ParseError as e:
        return f"parse {e}"
    except Budget:
        return "budget"


def not_caught_here(k):
    try:
        if k == 0:
            raise ParseError("passes through")
        return 1 // k
    except ZeroDivisionError:
        return -1
    except DeepParseError:
        return -2


def in_a_loop(n):
    total = 0
    for k in range(n):
        try:
            raises(k % 5, k)
        except ParseError as e:
            total += len(str(e))
        except Exception:
            total += 1
    return total


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 5), st.integers(-1000, 1000))
def test_user_exceptions_against_cpython(k, x):
    check_all_levels(raises, k, x)            # out to Python: the user's class, its message
    check_all_levels(catches, k, x)
    check_all_levels(catches_by_base, k, x)


@pytest.mark.parametrize("k", [0, 1, 2])
def test_raised_and_caught_in_one_function(k):
    check_all_levels(raised_here, k)
    check_all_levels(not_caught_here, k)


def test_the_class_and_args_reach_python():
    with pytest.raises(ParseError) as e:
        compiled(raises)(0, 4)
    assert type(e.value) is ParseError and e.value.args == ("bad token 4 at 2.0",)
    with pytest.raises(DeepParseError) as e:
        compiled(raises)(1, 4)
    assert e.value.args == ()
    assert compiled(in_a_loop)(20000) == in_a_loop(20000)


def method_class(x):
    raise WithMethod("x")


def two_bases(x):
    try:
        return x
    except TwoBases:
        return 0


def local_class(x):
    class Local(ValueError):
        pass
    raise Local("x")


def test_a_class_with_methods_is_built_by_cpython():
    with pytest.raises(WithMethod) as e:          # (test_user_exception_init.py: the rest)
        compiled(method_class)(1)
    assert type(e.value) is WithMethod and e.value.args == ("x",) and e.value.describe() == "no"


@pytest.mark.parametrize("fn, text", [
    (two_bases, "several bases"),
    (local_class, "class definitions|defined inside a function"),
])
def test_unsupported_classes_are_compile_errors(fn, text):
    with pytest.raises(script.CompileError, match=text):
        script.script(fn)(1)
