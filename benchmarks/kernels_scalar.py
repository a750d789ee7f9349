"""Scalar benchmark kernels, written once in plain Python.

Each kernel is compiled by script (benchmarks/run.py), by Numba (benchmarks/numba_runner.py,
in its own virtual environment) and run as-is by CPython; benchmarks/c/<name>.c holds the
same algorithm in C. This file must import nothing from script or numba: all three load it.

All integers stay non-negative and below 2**63, so Python's floor division and modulo agree
with C's truncating ones and nothing overflows an int64.
"""

import random


def fib(n):
    if n < 2:
        return n
    return fib(n - 1) + fib(n - 2)


def collatz(n):
    """Total number of Collatz steps for the starting values 1..n."""
    total = 0
    for i in range(1, n + 1):
        x = i
        while x != 1:
            if x % 2 == 0:
                x = x // 2
            else:
                x = 3 * x + 1
            total += 1
    return total


def lcg_pi(n, seed):
    """Monte-Carlo estimate of pi from n points drawn with an int64 LCG modulo 2**31."""
    state = seed
    inside = 0
    for i in range(n):
        state = (state * 1103515245 + 12345) % 2147483648
        x = state / 2147483648.0
        state = (state * 1103515245 + 12345) % 2147483648
        y = state / 2147483648.0
        if x * x + y * y <= 1.0:
            inside += 1
    return 4.0 * inside / n


def mt_pi(n, seed):
    """The same estimate from Python's own generator: `random.seed` and `random.random`
    (the Mersenne Twister; compiled code has a generator of its own giving the same stream)."""
    random.seed(seed)
    inside = 0
    for i in range(n):
        x = random.random()
        y = random.random()
        if x * x + y * y <= 1.0:
            inside += 1
    return 4.0 * inside / n


def branchy(n):
    """A loop whose body takes one of three branches, picked with % and ^ (the second
    depends on the running total, so the branch pattern is irregular)."""
    total = 0
    for i in range(n):
        if i % 3 == 0:
            total += i ^ (i >> 1)
        elif (i ^ total) % 5 == 1:
            total += i % 7
        else:
            total ^= i
    return total


# name -> (function, {size: args}); sizes: "full" for the real run, "quick" for --quick.
KERNELS = {
    "fib": (fib, {"full": (27,), "quick": (20,)}),
    "collatz": (collatz, {"full": (30_000,), "quick": (2_000,)}),
    "lcg_pi": (lcg_pi, {"full": (1_000_000, 12345), "quick": (20_000, 12345)}),
    "mt_pi": (mt_pi, {"full": (1_000_000, 12345), "quick": (20_000, 12345)}),
    "branchy": (branchy, {"full": (3_000_000,), "quick": (50_000,)}),
}
