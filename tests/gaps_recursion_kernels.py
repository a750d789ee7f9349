"""Recursive functions without a return annotation (tests/test_gaps_recursion.py)."""

import numpy as np


def fact(n):
    return 1 if n < 2 else n * fact(n - 1)


def count_down(n):
    if n > 0:
        return count_down(n - 1) + 1      # the base case comes after the recursive call
    return 0


def halving(n):
    return 1 if n < 2 else n * halving(n - 1) * 0.5     # int base case, float result: a fixed point


def fib(n):
    if n >= 2:
        return fib(n - 1) + fib(n - 2)
    return n


def is_even(n):
    return True if n == 0 else is_odd(n - 1)


def is_odd(n):
    return False if n == 0 else is_even(n - 1)


def ping(n):
    if n <= 0:
        return 0.5
    return pong(n - 1) + 1


def pong(n):
    return ping(n - 1) * 2


def in_a_condition(n):
    if n > 0 and in_a_condition(n - 1) > 2:
        return 5
    return n


def in_a_loop(n):
    if n <= 1:
        return 1
    s = 0
    for i in range(n):
        s += in_a_loop(i)
    return s


def as_a_range(n):
    if n <= 0:
        return 0
    t = 0
    for i in range(as_a_range(n - 1) % 3):
        t += i
    return t + 1


def pair(n):
    if n == 0:
        return (0, 1.0)
    a, b = pair(n - 1)
    return (a + 1, b * 2)


def ackermann(m, n):
    if m == 0:
        return n + 1
    if n == 0:
        return ackermann(m - 1, 1)
    return ackermann(m - 1, ackermann(m, n - 1))


def fill(a, i):
    if i < len(a):
        a[i] = i * 2.0
        fill(a, i + 1)


def shifted(n):
    if n == 0:
        return np.zeros(3)
    return shifted(n - 1) + 1.0


def split_sum(x):
    return x if x < 1 else split_sum(x / 2) + split_sum(x / 3)


def checked(n):
    if n < 0:
        raise ValueError("negative")
    return 1 if n == 0 else 2 * checked(n - 1)


def hanoi(n, a="A", b="B", c="C"):
    # the only return not depending on the recursion is `[]`: the call's result is that
    # list, typed by `+ [(a, c)]`
    if n == 0:
        return []
    return hanoi(n - 1, a, c, b) + [(a, c)] + hanoi(n - 1, b, a, c)


def scaled_prefixes(t, d):
    if d <= 0:
        return []
    out = scaled_prefixes(t, d - 1)
    out.append(t * d)
    return out


def joined(xs):
    return [] + xs + []


def power_of(base, exponent):
    # from a collection of algorithms: its doctests pass strs, expecting CPython's TypeError
    return base * power_of(base, (exponent - 1)) if exponent else 1
