"""Functions whose annotations disagree with the values they are called with, or name types
the compiler does not know: CPython ignores annotations, and so must compiled code
(tests/test_annotations_as_hints.py)."""

from __future__ import annotations

import itertools
from collections import defaultdict
from typing import Any, Optional


def fib(n: int) -> int:
    return n if n < 2 else fib(n - 1) + fib(n - 2)


def uses_later_helper(a: int, b: float) -> float:
    return later_helper(a, b)


def later_helper(a: int, b: float) -> float:
    return a ** int(b)


def is_int(x: float) -> bool:
    return isinstance(x, int)


def factorial(n: int) -> int:
    if not isinstance(n, int) or n < 0:
        raise ValueError("factorial() only accepts non-negative integral values")
    r = 1
    for i in range(2, n + 1):
        r *= i
    return r


def total(xs: list[int]) -> int:
    t = 0
    for x in xs:
        t += x
    return t


def add_any(x: Any, y: int | float) -> Any:
    return x + y


def scaled(x: float, k: int) -> float:
    return x * k


def first_or_none(xs: list[int]) -> Optional[int]:
    if xs:
        return xs[0]
    return None


def local_hint(n: int):
    x: float = 0
    y: list[float] = [1, 2]
    for i in range(n):
        x = x + i
    return x, y


def unknown_annotation(n: "NoSuchType") -> "AlsoMissing":  # noqa: F821 - hints, never evaluated
    return n + 1


def empty_hinted(xs: list[float]) -> list[float]:
    out = list(xs)
    out.append(1.5)
    return out


def bools_are_singletons(flag: bool, n: int):
    return flag is True, flag is not False, n is True, (n > 0) is True


def join_dict_keys(n: int) -> str:
    d = {str(i): i for i in range(n)}
    s = {str(i * 2) for i in range(n)}
    return ",".join(d) + "|" + ",".join(sorted(s))


def sort_by_dict_get(words: list[str]) -> list[str]:
    lengths = {w: len(w) * (-1) ** len(w) for w in words}
    return sorted(words, key=lengths.get)


def counts_in_helper(n: int):
    d = defaultdict(int)

    def bump(k):
        d[k] += 1
    for i in range(n):
        bump(i % 3)
    return d[0], d[2], d[7], len(d)


def missing_argument(a, b):
    return a + b


def permutations_of(xs: list[int]) -> int:
    return len(list(itertools.permutations(xs, 2)))


def plus(x, y):
    return x + y


def less(x, y):
    return x < y


def times_caught(x, y):
    try:
        return x * y
    except TypeError as e:
        return "caught: " + str(e)


def string_minus(s: str):
    return s - "a"


def float_bitwise(x):
    return x & 1.5


def attribute_on_int(x):
    return x.foo


def counted(n):
    """range() of a float or a str: CPython's TypeError where it raises it, after the
    statements before it ran."""
    print("before")
    total = 0
    for i in range(n):
        total += i
    return total


def length_of(x, check: bool):
    """len() of an int, a float or None: CPython's TypeError where it raises it (after a
    validation that raises first, as `manhattan_distance(p, None)`'s does)."""
    if check and x is None:
        raise ValueError("Missing an input")
    print("measuring")
    return len(x)


def not_a_container(x, how: int):
    """x[0], `for v in x` and `1 in x` of None, an int or a float: CPython's TypeError where
    it raises it (a validation of the argument that raises first runs first)."""
    if how == 3 and x is None:
        raise ValueError("no grid")
    print("using it")
    if how == 0:
        return x[0]
    if how == 1:
        t = 0
        for v in x:
            t += v
        return t
    return int(1 in x)


def reduced(x, how: int):
    """sum(), max(), math.prod() and sorted() of None or a number: CPython's TypeError."""
    import math
    print("reducing")
    if how == 0:
        return sum(x)
    if how == 1:
        return max(x)
    if how == 2:
        return math.prod(x)
    return len(sorted(x))


def path_to_root(start: int, goal: int, hops: int):
    """A BFS-style parent table declared with optional values and started with `None`
    (graphs/bidirectional_search.py's shape): the declaration types the display's `None`."""
    parents: dict[int, int | None] = {start: None}
    node = start
    for k in range(hops):
        parents[node + 1 + k] = node
        node = node + 1 + k
    parents[goal] = node
    path = []
    at: int | None = goal
    while at is not None:
        path.append(at)
        at = parents[at]
    return path, parents
