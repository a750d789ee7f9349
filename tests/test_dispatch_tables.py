"""Dicts of functions used as dispatch tables (script/frontend/dispatch_tables.py): calls
through them and `in` tests, against CPython."""

import math

import pytest
from hypothesis import given, settings, strategies as st

import script
from difftest import check_all_levels
from script.errors import CompileError


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


def test_a_table_used_as_a_value_is_an_error():
    with pytest.raises(CompileError):
        script.script(table_as_value)(1)
