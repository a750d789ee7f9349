"""Generated functions whose local holds None, an int, a float, a str or a bool on different
paths, then goes through operations that take it apart (`is None`, `==`, `+`, `str`, `repr`,
`type(v).__name__`, `isinstance`, truth, `abs`, displays): compiled, each gives CPython's
value and TypeError message for every input, or is a CompileError (a bool beside a number,
which no compiled value holds: docs/differences.md). Found: `isinstance(v, int)` of an
optional int that is None raised TypeError; `type(v).__name__` of an int|float or None said
'tuple'; `abs(None)`'s message; a None beside an int|float built no union."""

from __future__ import annotations

import importlib.util
import random

import pytest

import script

VALUES = ["None", "0", "1", "-2", "2.5", "0.0", "'a'", "''", "n", "n * 0.5", "str(n)", "n > 2"]
OPS = ["v is None", "v is not None", "v == 1", "str(v)", "repr(v)", "type(v).__name__", "bool(v)",
       "v + 1", "v * 2", "v < 2", "isinstance(v, int)", "isinstance(v, str)", "[v, v]", "(v, 1)",
       "v if v else 7", "{1: v}", "abs(v)", "-v", "v or 3", "v and 3"]


def program(rng: random.Random, k: int) -> str:
    lines = [f"def f{k}(n):", f"    v = {rng.choice(VALUES)}"]
    for _ in range(rng.randint(1, 3)):
        lines += [f"    if n % {rng.randint(2, 4)} == {rng.randint(0, 1)}:", f"        v = {rng.choice(VALUES)}"]
        if rng.random() < 0.5:
            lines += [f"    elif n > {rng.randint(0, 5)}:", f"        v = {rng.choice(VALUES)}"]
    lines.append("    out = []")
    for op in rng.sample(OPS, 4):
        lines += ["    try:", f"        out.append(repr({op}))", "    except TypeError as e:",
                  "        out.append(str(e))"]
    lines.append("    return out, repr(v)")
    return "\n".join(lines) + "\n"


def outcome(fn, n):
    try:
        return ("ok", fn(n))
    except Exception as e:  # noqa: BLE001 - every exception is part of the behaviour
        return ("raise", type(e).__name__, str(e))


@pytest.mark.parametrize("seed", [1, 4, 9])
def test_generated_functions_of_a_union_local(tmp_path, seed):
    rng = random.Random(seed)
    count = 8
    path = tmp_path / f"union_programs_{seed}.py"
    path.write_text("".join(program(rng, k) for k in range(count)))
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    for k in range(count):
        fn = getattr(module, f"f{k}")
        compiled = script.script(fn)
        for n in range(7):
            want = outcome(fn, n)
            try:
                got = outcome(compiled, n)
            except script.CompileError:
                break               # refused where it is written: a bool beside a number
            if got[:2] == ("raise", "CompileError"):
                break
            assert want == got, f"f{k}({n}) of seed {seed}:\n{path.read_text()}"


def none_in_containers(n):
    # `v in xs` of a v that is None was False where xs holds None; count/index/remove
    # unwrapped it (a TypeError)
    v = None if n % 3 == 0 else n
    xs = [1, None, 2]
    out = [v in [1, None], v in [None], v in xs, v in (1, None), xs.count(v) == 1, [1, 2, 3].count(v) == 0]
    at = xs.index(v) if v in xs else -1
    if v in xs:
        xs.remove(v)
    return out, at, xs


def item_of_an_int_or_float_or_none(n):
    # `v[0]` of an optional int|float read the int|float's tag ('False') where CPython raises
    v = None
    if n % 4 == 0:
        v = 0.0
    elif n > 2:
        v = 0
    if n % 2 == 0:
        v = -2
    try:
        return repr(v[0])
    except TypeError as e:
        return str(e)


def builtins_of_none(n):
    v = None if n % 2 else n
    out = []
    try:
        out.append(str(abs(v)))
    except TypeError as e:
        out.append(str(e))
    try:
        out.append(str(round(v)))
    except TypeError as e:
        out.append(str(e))
    try:
        out.append(str(divmod(v, 2)))
    except TypeError as e:
        out.append(str(e))
    try:
        out.append(str(2 ** v))
    except TypeError as e:
        out.append(str(e))
    return out


def union_beside_none(n):
    # a local reaching a merge as a str, an int and None: its type decided before the merge
    # was a plain optional, then a union (an internal AssertionError); messages of None
    # beside an int|float name 'int'/'float' (were 'tuple'); 'str + None' is CPython's text
    v = str(n)
    xs = [v, n]
    if n % 3 == 0:
        v = -2
    if n % 4 == 0:
        v = 0
    elif n > 2:
        v = None
    w = None if n % 2 else n * 0.5 if n % 4 else n
    out = [repr(n in xs)]
    try:
        out.append(repr(v < w))
    except TypeError as e:
        out.append(str(e))
    try:
        out.append(repr(w < v))
    except TypeError as e:
        out.append(str(e))
    try:
        out.append(repr("a" + v))
    except TypeError as e:
        out.append(str(e))
    try:
        out.append(repr(v + w))
    except TypeError as e:
        out.append(str(e))
    return out, v


@pytest.mark.parametrize("fn", [none_in_containers, item_of_an_int_or_float_or_none, builtins_of_none,
                                union_beside_none],
                         ids=lambda f: f.__name__)
def test_none_where_cpython_answers(fn):
    compiled = script.script(fn)
    for n in range(7):
        assert outcome(fn, n) == outcome(compiled, n), n


def min_max_of_none(n):
    v = None if n % 2 else n
    w = None if n % 3 else n * 0.5
    out = []
    for k in range(4):
        try:
            if k == 0:
                out.append(str(min(v, 2.5)))
            elif k == 1:
                out.append(str(max(3, v)))
            elif k == 2:
                out.append(str(max(w, 1, 2)))
            else:
                out.append(str(min(w, v)))
        except TypeError as e:
            out.append(str(e))
    return out


def test_min_and_max_of_none_give_cpythons_messages():
    compiled = script.script(min_max_of_none)
    for n in range(7):
        assert outcome(min_max_of_none, n) == outcome(compiled, n), n
