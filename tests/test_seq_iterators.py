"""`it = iter(xs)` held in a variable (frontend/seq_iterators.py): walked by `for`, by
comprehensions and by library calls, advanced by `next(it)` and `next(it, default)`, each
function run in CPython and compiled at every optimization level; what the model cannot
answer as CPython does is a CompileError.
"""

from __future__ import annotations

import itertools

import pytest

import script
from difftest import check_all_levels
from script.errors import CompileError


def i1(s):
    it = iter(s.split())
    out = []
    for tok in it:
        if tok == "skip":
            next(it, None)
        else:
            out.append(tok)
    return out


def i2(xs):
    it = iter(xs)
    first = next(it)
    return first, [x * 2 for x in it]


def i3(seq, size):
    it = iter(seq)
    out = []
    while True:
        chunk = tuple(itertools.islice(it, size))
        if not chunk:
            break
        out.append(chunk)
    return out


def i4(xs):
    it = iter(xs)
    try:
        while True:
            a = next(it)
            b = next(it)
            print(a, b)
    except StopIteration:
        return "done"


def j1(xs):
    it = iter(xs)
    return list(zip(it, it))


def j2(s):
    it = iter(s)
    a = next(it)
    b = next(it, "?")
    return a, b, "".join(it), next(it, "end")


def j3(xs):
    it = iter(xs)
    out = []
    for x in it:
        out.append(x)
        if x == 2:
            break
    xs.append(9)
    return out, list(it)


def j4(xs):
    it = iter(xs)
    for x in it:
        pass
    xs.append(7)
    return list(it)


def j5(xs):
    it = iter(xs)
    return it


def j6(d):
    it = iter(d)
    return next(it)


def j7(xs):
    it = iter(xs)
    total = 0
    for x in it:
        for y in it:
            total += x * y
            break
    return total


def j8(xs):
    it = iter(xs)
    return sum(it), next(it, -1)


def j9(xs):
    it = iter(xs)
    return [x + next(it, 0) for x in it]


def l1(xs):
    it = iter(xs)
    return sum(x + next(it, 0) for x in it)


def l2(xs):
    it = iter(xs)
    next(it)
    return max(it), next(it, None)


def l3(xs):
    it = iter(xs)
    next(it)
    return sorted(it), list(it)


def l4(xs):
    it = iter(xs)
    out = []
    for i, x in enumerate(it):
        out.append((i, x, next(it, -1)))
    return out


def l5(xs):
    it = iter(xs)
    return any(x > 2 for x in it), list(it)


def l6(words):
    it = iter(words)
    header = next(it)
    rows = [w.upper() for w in it if w]
    return header, rows


def l7(xs):
    it = iter(xs)
    try:
        while True:
            print(next(it))
    except StopIteration:
        pass
    return 1


def l8(t):
    it = iter(tuple(t))
    return next(it), list(it)


@pytest.mark.parametrize("fn, args", [
    (i1, ("a skip b c skip d e",)), (i1, ("",)), (i2, ([1, 2, 3],)), (i2, ([],)), (i3, ("abcdefg", 3)),
    (i3, ([1, 2, 3, 4], 2)), (i4, ([1, 2, 3, 4, 5],)), (j2, ("hello",)), (j2, ("h",)), (j3, ([1, 2, 3],)),
    (j4, ([1],)), (j7, ([1, 2, 3, 4, 5],)), (j8, ([1, 2],)), (j9, ([1, 2, 3, 4, 5],)), (l1, ([1, 2, 3, 4, 5],)),
    (l2, ([3, 1, 4],)), (l3, ([3, 1, 2],)), (l4, ([1, 2, 3, 4, 5],)), (l5, ([1, 3, 2, 5],)),
    (l6, (["h", "a", "", "b"],)), (l7, ([1, 2],)), (l8, ([5, 6, 7],)),
])
def test_held_iterators_against_cpython(fn, args):
    check_all_levels(fn, *args)


@pytest.mark.parametrize("fn, args, text", [
    (j1, ([1, 2, 3, 4, 5],), "zip\\(\\) of two iterators held in variables"),
    (j5, ([1],), "cannot be returned to Python"),
    (j6, ({1: 2},), "iter\\(\\) of a dict"),
])
def test_what_the_model_cannot_answer_is_a_compile_error(fn, args, text):
    with pytest.raises(CompileError, match=text):
        script.script(fn)(*args)
