"""Functions, builtins, ufuncs and classes passed from Python to a compiled function: the
function is specialized for the object (dispatcher `_call_bound`, frontend/static_args.py),
and gives CPython's answer (value, type, exception and message)."""

from __future__ import annotations

import linecache
import math

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import script
from script.errors import CompileError


def _outcome(f, *args, **kwargs):
    try:
        r = f(*args, **kwargs)
        return "ok", type(r), r
    except Exception as e:  # noqa: BLE001 - the error is the answer compared
        return "error", type(e), str(e)


def same(f, *args, **kwargs):
    assert _outcome(f, *args, **kwargs) == _outcome(f.py_func, *args, **kwargs)


def bisection(function, a, b):
    start, end = a, b
    if function(a) == 0:
        return a
    if function(b) == 0:
        return b
    if function(a) * function(b) > 0:
        raise ValueError("could not find root in given interval.")
    mid = start + (end - start) / 2.0
    while abs(start - mid) > 10**-7:
        if function(mid) == 0:
            return mid
        if function(mid) * function(start) < 0:
            end = mid
        else:
            start = mid
        mid = start + (end - start) / 2.0
    return mid


def trapezoid(fnc, x_start, x_end, steps=100):
    x1, fx1, area = x_start, fnc(x_start), 0.0
    for _ in range(steps):
        x2 = (x_end - x_start) / steps + x1
        fx2 = fnc(x2)
        area += abs(fx2 + fx1) * (x2 - x1) / 2
        x1, fx1 = x2, fx2
    return area


def apply(fn, x):
    return fn(x)


def apply2(fn, a, b):
    return fn(a, b)


def newton(f, x0, step=1e-6):
    def derivative(x):          # a nested function reading the bound argument
        return (f(x + step) - f(x)) / step
    a = x0
    for _ in range(50):
        if abs(f(a)) < 1e-12:
            return a
        a -= f(a) / derivative(a)
    raise ArithmeticError("no convergence")


def cube_minus_one(x):
    return x ** 3 - 1


def square(v):
    return v * v


def make_scaled(k):
    return lambda x: k * x       # a closure: its cell is read when compiled


compiled_bisection = script.script(bisection)
compiled_trapezoid = script.script(trapezoid)
compiled_apply = script.script(apply)
compiled_apply2 = script.script(apply2)
compiled_newton = script.script(newton)


@pytest.mark.parametrize("fn, a, b", [
    (lambda x: x ** 3 - 1, -5, 5), (lambda x: x ** 3 - 1, 2, 1000),
    (lambda x: x ** 2 - 4 * x + 3, 0, 2), (lambda x: x ** 2 - 4 * x + 3, 2, 4),
    (cube_minus_one, -5.0, 5.0), (math.sin, 3, 4), (math.cos, 0.0, 1.0)])
def test_root_finders_take_functions(fn, a, b):
    same(compiled_bisection, fn, a, b)


@pytest.mark.parametrize("fn", [lambda x: 5, lambda x: 9 * x ** 2, square, math.exp, abs, math.atan])
def test_integrators_take_functions(fn):
    same(compiled_trapezoid, fn, -4.0, 4.0, 1000)
    same(compiled_trapezoid, fn, 12.0, 14.0, steps=10)


@given(st.floats(-50, 50), st.integers(-10 ** 6, 10 ** 6))
@settings(max_examples=20, deadline=None)
def test_apply_matches_cpython(x, n):
    for fn in (square, abs, math.floor, float, int, str, bool, cube_minus_one, lambda v: v // 3,
               lambda v: v % 7, make_scaled(3), make_scaled(0.5)):
        for value in (x, n):
            same(compiled_apply, fn, value)


def test_builtins_and_classes():
    same(compiled_apply, len, [1, 2, 3])
    same(compiled_apply, sorted, [3, 1, 2])
    same(compiled_apply2, max, 1, 2)
    same(compiled_apply2, divmod, 7, -2)
    same(compiled_apply2, math.hypot, 3.0, 4.0)
    same(compiled_apply2, pow, 2, 10)
    # a ufunc of a Python float: NumPy gives a numpy.float64 of the value compiled code
    # returns as a float (docs/differences.md)
    assert compiled_trapezoid(np.sin, 0.0, 2.0, 50) == trapezoid(np.sin, 0.0, 2.0, 50)


def test_errors_are_cpythons():
    same(compiled_apply, lambda v: v // 0, 3)
    same(compiled_apply, square, "a")
    same(compiled_apply, math.sqrt, -1.0)
    same(compiled_apply, int, "x7")


def test_compiled_functions_and_keywords():
    scr = script.script(square)
    assert compiled_apply(scr, 4) == 16
    assert compiled_apply(fn=square, x=2.5) == 6.25
    assert compiled_apply(x=3, fn=cube_minus_one) == 26


def test_nested_function_reads_the_bound_argument():
    same(compiled_newton, lambda x: x ** 2 - 5 * x + 2, 0.4)
    same(compiled_newton, math.cos, 1.0)
    same(compiled_newton, lambda x: x ** 2 + 1, 2.0)


def test_one_object_one_specialization():
    f = script.script(apply)
    fn = make_scaled(2)
    assert [f(fn, k) for k in range(3)] == [0, 2, 4]
    assert f(fn, 1.5) == 3.0
    assert f(make_scaled(5), 1) == 5          # another object: its own specialization


def test_lambda_from_linecache_source():
    """Code typed in a doctest or a notebook has its lines in linecache only."""
    name = "<doctest test_function_arguments[0]>"
    text = "result = f(lambda x: x * 2 + 1, 20), f(lambda y, z=3: y - z, 1)\n"
    linecache.cache[name] = (len(text), None, [text], name)
    scope = {"f": script.script(apply)}
    exec(compile(text, name, "exec"), scope)  # noqa: S102 - the test's own source
    assert scope["result"] == (41, -2)


def test_refusals():
    f = script.script(apply)
    with pytest.raises(TypeError, match="'fn' of type builtin_function_or_method"):
        f("x".join, ["a", "b"])          # a bound method is not bound
    g = script.script(lambda_without_source_caller)
    with pytest.raises(CompileError, match="cannot read the source"):
        g(eval("lambda x: x + 1"), 1)    # noqa: S307 - a lambda with no source


def assigns(fn, x):
    fn = abs
    return fn(x)


def lambda_without_source_caller(fn, x):
    return fn(x)


def test_an_assigned_parameter_is_not_bound():
    with pytest.raises(TypeError, match="'fn' of type function is not supported"):
        script.script(assigns)(square, 3)


class _CallMe:
    def __call__(self, x):
        return x


class _Plain:
    def __init__(self):
        self.v = 1


def callables(fn, x):
    def inner(y):
        return y
    return (callable(fn), callable(x), callable(square), callable(math.sin), callable(inner),
            callable(_CallMe()), callable(_Plain()), callable(int), callable("s"), callable([x]),
            callable(lambda q: q))


def test_callable_is_cpythons():
    f = script.script(callables)
    for fn, x in ((square, 3), (math.cos, 2.5), (lambda v: v, "a")):
        assert f(fn, x) == callables(fn, x)
