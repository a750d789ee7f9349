"""Nested functions and lambdas held in variables and containers and called later
(script/frontend/function_values.py), against CPython; and the refusals where compiled
code cannot keep CPython's semantics."""

import pytest
from hypothesis import given, settings, strategies as st

import closure_value_kernels as K
import script
from difftest import check_all_levels, compile_snippet
from script.errors import CompileError

SET = settings(max_examples=15, deadline=None)


@SET
@given(st.integers(-20, 20), st.integers(-1, 3))
def test_held_values(n, i):
    check_all_levels(K.assigned, n)
    check_all_levels(K.list_of_lambdas, n)
    check_all_levels(K.indexed, n, i)
    check_all_levels(K.mixed_defs_and_lambdas, n)
    check_all_levels(K.passed_known, n)
    check_all_levels(K.chosen, n, n > 0)
    check_all_levels(K.raising, n % 3)
    check_all_levels(K.not_yet_assigned, n)
    check_all_levels(K.stored_by_key, n)
    check_all_levels(K.rebound_lambda_passed, n)
    check_all_levels(K.rebound_in_order, n)
    check_all_levels(K.table_get, n, "ab?"[i % 3])
    check_all_levels(K.rebound_in_loop, i + 1)
    check_all_levels(K.reduced, n)
    check_all_levels(K.comprehension_without_its_variable, i + 1)
    check_all_levels(K.in_generator, i + 1)


@SET
@given(st.integers(-9, 9), st.integers(1, 9), st.sampled_from(["+", "-", "*", "/"]))
def test_dispatch(a, b, op):
    check_all_levels(K.dispatch, a, b, op)
    check_all_levels(K.dispatch_defs, a, b, {"+": "add", "-": "sub"}.get(op, op))


@SET
@given(st.lists(st.integers(-50, 50), min_size=1, max_size=8), st.integers(0, 2))
def test_keys(xs, i):
    check_all_levels(K.key_held, xs, i == 1)
    check_all_levels(K.key_from_list, xs, i)


@SET
@given(st.integers(-5, 6), st.floats(-1e3, 1e3))
def test_factories(n, x):
    """Closures returned by a compiled factory: records of the parameters they read."""
    check_all_levels(K.factories, n)
    check_all_levels(K.float_factories, x)
    check_all_levels(K.passes_record, n)
    check_all_levels(K.returned_nested, n)


@pytest.mark.parametrize("n", [0, 1, 2, 5])
def test_nonlocal_and_binding(n):
    check_all_levels(K.nonlocal_through_value, n)
    check_all_levels(K.late_binding, n)


def test_records_of_different_specializations_do_not_meet():
    """Each specialization of a factory returns records of its own type, so the functions a
    call of one dispatches over are all known when it is built; a variable holding records
    of two is a CompileError, never a call of the wrong function."""
    with pytest.raises(CompileError, match="incompatible types"):
        script.script(K.records_of_two_specializations)(3)


@pytest.mark.parametrize("body, match", [
    ("    return lambda x: x + n\n", "returns a function made in compiled code to Python"),
    ("    n += 1\n    return h([lambda x: x + n])\n", "cannot be passed to 'h'"),
    ("    m = n + 1\n    return g(lambda x: x + m)(1)\n", "cannot be used as a value here"),
    ("    k = n\n    def g():\n        return lambda x: x + k\n    k = 7\n    return g()(1)\n",
     "reads 'k', a variable of a function around 'g'"),
    ("    return mk(n)(1)\n", "'f' reads 'k', which 'mk' assigns"),
    ("    return mk2(n)(1)\n", "'bump' assigns the variable 'k' of 'mk2' .nonlocal."),
    ("    def g(x):\n        return x\n    return g\n", "returns a function made in compiled code to Python"),
    ("    if n:\n        def g(x):\n            return x\n    else:\n        def g(x):\n            return -x\n"
     "    return g(1)\n", "'g' is bound more than once in 'f', not all in its own body's statements"),
    ("    def g(x):\n        return x\n    for i in range(n):\n        g = lambda x: x + i\n    return g(1)\n",
     "'g' is bound more than once in 'f'"),
    ("    fs = [lambda x: x + i for i in range(n)]\n    return fs[0](1)\n",
     "made in a comprehension that reads its variable 'i'"),
    ("    fs = [lambda x: x + 1]\n    def run():\n        return fs[0](2)\n    return run()\n",
     "called here, in 'f.<locals>.run'|only in the function that made it"),
    ("    fs = [lambda x: x + 1]\n    return h(fs)\n", "cannot be passed to 'h'"),
    ("    fs = [lambda x: x + 1, lambda x, y: x + y]\n    return fs[0](2)\n", "do not all take the arguments"),
    ("    fs = [lambda x, i=i: x + i + n for i in range(3)]\n    return fs[0](1)\n", "also reads a variable"),
    ("    f = lambda x: x\n    g = f\n    return g == f\n", ""),
    ("    fs = [lambda x: x]\n    print(fs[0])\n    return 0\n", ""),
])
def test_refusals(tmp_path, body, match):
    source = ("def h(fs):\n    return fs[0](1)\n\ndef g(v):\n    return v\n\n"
              "def mk(k):\n    f = lambda x: x + k\n    k = 0\n    return f\n\n"
              "def mk2(k):\n    c = [k]\n    def bump(x):\n        nonlocal k\n        k += x\n        return k\n"
              "    return bump\n\ndef f(n):\n" + body)
    fn = compile_snippet(tmp_path, "values_bad.py", source)
    with pytest.raises(CompileError, match=match):
        fn(3)
