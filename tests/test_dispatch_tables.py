"""Dicts of functions used as dispatch tables (script/frontend/dispatch_tables.py): calls
through them and `in` tests, against CPython."""

import math

import pytest
from hypothesis import given, settings, strategies as st

import script
from difftest import check_all_levels


def neg(x):
    return -x


def rpn(tokens):
    st = []
    ops = {"+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b, "/": lambda a, b: a / b}
    for t in tokens:
        if t in ops:
            b, a = st.pop(), st.pop()          # IndexError on too few operands, as in CPython
            st.append(ops[t](a, b))            # ZeroDivisionError from "/"
        else:
            st.append(float(t))
    return st[-1] if st else 0.0


def unary(name, x, scale):
    fns = {"neg": neg, "sqrt": math.sqrt, "sq": lambda v: v * v * scale, "id": lambda v: v}
    if name not in fns:
        return -1.0
    return fns[name](x) + fns["id"](1.0)


def by_int(k):
    table = {1: lambda: 10, 2: lambda: 20, 3: lambda: 2.5}
    return table[k]()                          # KeyError(k) for other keys


TOKENS = st.lists(st.sampled_from(["1", "2.5", "0", "+", "-", "*", "/"]), max_size=9)


@settings(max_examples=30, deadline=None)
@given(TOKENS, st.sampled_from(["neg", "sqrt", "sq", "id", "cube"]), st.floats(0, 9), st.integers(0, 4))
def test_dispatch_tables(tokens, name, x, k):
    check_all_levels(rpn, tokens)
    check_all_levels(unary, name, x, 2)
    check_all_levels(by_int, k)


def table_as_value(k):
    t = {1: lambda: 10}
    u = t
    return u[k]()


def test_a_table_used_as_a_value_is_a_dict_of_function_values():
    """Not a dispatch table: a dict of function values (function_values.py)."""
    check_all_levels(table_as_value, 1)
    check_all_levels(table_as_value, 2)         # KeyError: 2


OPERATORS = {"+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b,
             "/": lambda a, b: a / b, "^": pow, "hyp": math.hypot}
UNARY = {"neg": neg, "sqrt": math.sqrt, 7: lambda v: v * 7}


def rpn_global(tokens):
    """A module-level table, as calculators write them."""
    st = []
    for t in tokens:
        if t in OPERATORS:
            b, a = st.pop(), st.pop()
            st.append(OPERATORS[t](a, b))
        elif t in UNARY:
            st.append(UNARY[t](st.pop()))
        else:
            st.append(float(t))
    return st[-1] if st else 0.0


def pops_after_lookup(stack, op):
    return OPERATORS[op](stack.pop(), stack.pop())


@given(st.lists(st.sampled_from(["1", "2.5", "0", "-3", "+", "-", "*", "/", "^", "hyp", "neg", "sqrt", "x"]),
                max_size=8))
@settings(max_examples=60, deadline=None)
def test_global_dispatch_tables(tokens):
    try:
        check_all_levels(rpn_global, tokens)
    except AssertionError as e:
        # the documented difference (docs/differences.md): a negative float to a fractional
        # power is complex in CPython, a ValueError compiled, also where a later step drops it
        if "negative number raised to a fractional power" not in str(e):
            raise


def test_global_table_looks_up_before_the_arguments():
    """CPython raises the KeyError before evaluating the arguments: the caller's list keeps
    its items."""
    f = script.script(pops_after_lookup)
    stack = [1, 2, 3]
    with pytest.raises(KeyError, match="'%'"):
        f(stack, "%")
    assert stack == [1, 2, 3]
    assert f(stack, "-") == 1 and stack == [1]
    check_all_levels(lambda_by_int_global, 7, 2.0)
    check_all_levels(lambda_by_int_global, 8, 2.0)


def lambda_by_int_global(k, x):
    return UNARY[k](x)
