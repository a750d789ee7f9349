"""Nested functions and lambdas in compiled code (script/frontend/closures.py), against
CPython."""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import script
import closure_kernels as K
from difftest import check_all_levels
from script.errors import CompileError

SET = settings(max_examples=30, deadline=None)


@SET
@given(st.integers(-20, 20), st.floats(-1e3, 1e3))
def test_scalar_closures(n, x):
    check_all_levels(K.scaled_sum, np.arange(4.0) * x, n)
    check_all_levels(K.lambdas, x, n)
    check_all_levels(K.lambdas, n, n)
    check_all_levels(K.recursive_inner, n)
    check_all_levels(K.calls_earlier, x, n)
    check_all_levels(K.shadows, n)
    check_all_levels(K.raising_inner, n)
    check_all_levels(K.calls_later_lambda, n)
    check_all_levels(K.recursive_lambda, n % 15)


@SET
@given(st.integers(0, 25), st.floats(-10, 10))
def test_nonlocal(n, x):
    """`nonlocal` variables written by a nested function, also recursively and from a
    comprehension, with returns and without."""
    check_all_levels(K.nonlocal_total, n)
    check_all_levels(K.nonlocal_counter, n, x)
    check_all_levels(K.nonlocal_recursion, n % 15)
    check_all_levels(K.nonlocal_in_comprehension, n % 8)


@SET
@given(st.integers(0, 6), st.floats(-10, 10))
def test_closures_over_arrays(n, x):
    check_all_levels(K.over_arrays, np.arange(float(n)) + x, np.ones(n) * x)


def _compile_source(tmp_path, body):
    path = tmp_path / "nested_bad.py"
    path.write_text("def f(n):\n" + body)
    ns = {}
    exec(compile(path.read_text(), str(path), "exec"), ns)
    return script.script(ns["f"])


@pytest.mark.parametrize("body, match", [
    ("    t = 0\n    def g(x):\n        nonlocal t\n        t += x\n    def h(x):\n        g(x)\n"
     "    h(n)\n    return t\n", "only the function that defines it may call it"),
    ("    def g(x):\n        return x\n    return g\n", "returns a function made in compiled code to Python"),
    # a nested function calling one bound later that reads what it does not (was an
    # UnboundLocalError at run time, where CPython's closure finds the function)
    ("    h = lambda x: g(x) if x % 2 else '.'\n    g = lambda _: str(n)\n"
     "    return ''.join(h(v) for v in range(n))\n", "'g' is a nested function defined after 'h'"),
    # ... or one bound twice: CPython calls the one bound at the call, which compiled code
    # would not know (was the first one, or the last)
    ("    g = lambda y: y * 2\n    h = lambda x: g(x) + 1\n    if n > 2:\n        g = lambda y: y * 3\n"
     "    return h(n)\n", "'g' is bound more than once in 'f'"),
    ("    h = lambda x: g(x) + 1\n    g = lambda y: y * 2\n    if n > 2:\n        g = lambda y: y * 3\n"
     "    return h(n)\n", "'g' is bound more than once in 'f'"),
])
def test_unsupported_nested_forms(tmp_path, body, match):
    with pytest.raises(CompileError, match=match) as info:
        _compile_source(tmp_path, body)(3)
    assert "nested_bad.py:" in str(info.value)
