"""Defaults CPython evaluates once: a list, dict or set default shared by every call
(frontend/shared_defaults.py), and the non-constant defaults of nested functions and lambdas,
evaluated when the def or lambda runs (frontend/closures.py DefTimeDefault)."""

from __future__ import annotations

import pickle

import pytest

from difftest import check, compiled, outcome
from script.errors import CompileError

SHARED = '''
def fibm(n: int, memo={}) -> int:
    if n in memo:
        return memo[n]
    r = n if n < 2 else fibm(n - 1) + fibm(n - 2)
    memo[n] = r
    return r

def fibn(n: int, memo: dict[int, int] = {}) -> int:
    if n in memo:
        return memo[n]
    r = n if n < 2 else fibn(n - 1, memo) + fibn(n - 2, memo)
    memo[n] = r
    return r

def walk(n: int, acc=[0]):
    if n > 0:
        walk(n - 1)
    acc.append(n)
    return len(acc)

def first(x: int, seen=set()):
    if x in seen:
        return False
    seen.add(x)
    return True

def table(k: int, t={1: 10, 2: 20}):
    return t.get(k, -1) + len(t)

def fibo(n: int, memo=None) -> int:
    if memo is None:
        memo = {}
    if n not in memo:
        memo[n] = n if n < 2 else fibo(n - 1, memo) + fibo(n - 2, memo)
    return memo[n]

def other(n: int):
    return fibm(n)

def giver(n: int):
    return fibm(n, {})
'''


def _load(tmp_path, name: str):
    """Two independent copies of the functions of SHARED (each its own default objects):
    the first run by CPython, the second compiled."""
    path = tmp_path / f"{name}.py"
    path.write_text(SHARED)
    copies = []
    for _ in range(2):
        ns = {}
        exec(compile(SHARED, str(path), "exec"), ns)
        copies.append(ns)
    return copies


@pytest.mark.parametrize("name, calls", [
    ("fibm", [(10,), (30,), (5,), (31,)]),
    ("fibn", [(20,), (3,), (25,)]),
    ("walk", [(3,), (0,), (2,)]),
    ("first", [(1,), (2,), (1,), (3,)]),
    ("table", [(1,), (3,)]),
    ("fibo", [(30,), (2,)]),
])
def test_shared_default_object(tmp_path, name, calls):
    py, sc = _load(tmp_path, name)
    fn = compiled(sc[name])
    for args in calls:
        check(py[name], fn, *args)
        assert py[name].__defaults__ == sc[name].__defaults__, (name, args)
    check(py[name], fn)             # CPython's TypeError for a missing argument
    check(py[name], fn, 1, None, 2)


def test_explicit_object_and_other_callers(tmp_path):
    py, sc = _load(tmp_path, "explicit")
    d, e = {}, {}
    assert py["fibn"](15, d) == compiled(sc["fibn"])(15, e) and d == e
    assert sc["fibn"].__defaults__ == ({},)
    fibm = compiled(sc["fibm"])
    assert fibm(12, sc["fibm"].__defaults__[0]) == 144      # the default object itself
    with pytest.raises(TypeError, match="was given its own 'memo'"):
        fibm(5, {})             # CPython would fill the default beside it: refused
    with pytest.raises(CompileError, match="called without 'memo'"):
        compiled(sc["other"])(5)
    with pytest.raises(CompileError, match="'fibm' is given 'memo' here"):
        compiled(sc["giver"])(5)
    with pytest.raises(pickle.PicklingError, match="whose default is one object shared"):
        pickle.dumps(fibm)


def nested_default(n: int, k: int):
    def g(x, scale=k):
        return x * scale
    k = 100                         # the default was taken at the def
    return g(n) + g(n, 2)


def loop_defaults(n: int):
    t = 0
    for i in range(n):
        h = lambda x, i=i: x + i
        t += h(10)
    return t


def value_default(n: int):
    add = lambda x, c=n * 2: x + c
    fs = [add, lambda x: x - 1]
    return [f(n) for f in fs]


def fresh_list_per_def(n: int):
    def acc(x, out=[]):
        out.append(x)
        return len(out)
    return [acc(i) for i in range(n)] + [acc(1, [])]


def late_binding(n: int):
    fs = [lambda: n for _ in range(3)]
    n += 1
    return [f() for f in fs]


def keyword_only(n: int):
    def g(x, y=n + 1, *, z=n * 3):
        return x + y + z
    return g(1), g(1, 2), g(1, z=0), g(1, y=5)


@pytest.mark.parametrize("fn", [nested_default, loop_defaults, value_default, fresh_list_per_def,
                                late_binding, keyword_only])
def test_def_time_defaults(fn):
    for n in (0, 3):
        check(fn, compiled(fn), n, 4) if fn is nested_default else check(fn, compiled(fn), n)


def kept_in_comprehension(n: int):
    fs = [lambda x, i=i, j=i * 2.5: x + i * j for i in range(n)]
    return [f(10) for f in fs] + [f(1, 2) for f in fs]


def kept_in_loop(n: int):
    fs = []
    for i in range(n):
        def g(x, i=i):
            return x - i
        fs.append(g)
    return [f(100) for f in fs]


def made_elsewhere(n: int):
    return [lambda x, i=i: x * i for i in range(n)]


def called_here(n: int):
    return [f(3) for f in made_elsewhere(n)]


@pytest.mark.parametrize("fn", [kept_in_comprehension, kept_in_loop, called_here])
def test_values_made_in_a_loop_keep_their_defaults(fn):
    for n in (0, 3):
        check(fn, compiled(fn), n)


def reads_a_variable_too(n: int):
    fs = [lambda x, i=i: x + i + n for i in range(3)]
    return [f(10) for f in fs]


def test_value_made_in_a_loop_reading_a_variable_is_refused():
    assert outcome(reads_a_variable_too, (1,)) == ("ok", [11, 12, 13])
    with pytest.raises(CompileError, match="also reads a variable of 'reads_a_variable_too' .'n'."):
        compiled(reads_a_variable_too)(1)
